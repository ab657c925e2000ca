/*
 * What the two files of dbrig tpcc share (cli/cmd_tpcc.c and cli/tpcc_run.c
 * only): cmd_tpcc.c reads and checks the command line into a struct tp_cli,
 * probes the server and runs prepare, check, cleanup and ping; tpcc_run.c
 * runs the command run.
 */
#ifndef DBRIG_CLI_TPCC_INT_H
#define DBRIG_CLI_TPCC_INT_H

#include "cli/common_opts.h"

#include <stdbool.h>
#include <stdint.h>

struct db_conn_params;
struct db_driver_ops;
struct tpcc_ctx;
struct tpcc_sql;

/* The command line, as cmd_tpcc.c's option table fills it. */
struct tp_cli {
	const char *db_driver, *dialect, *isolation, *retry_errors;
	/* Each compiled-in driver's options (--mysql-*, --odbc-*: its table),
	 * read with db_option_str; slots without a driver are unused. */
	struct cli_driver_opts drv[CLI_MAX_DRIVERS];
	unsigned warehouses, threads, terminals, connections, verbosity, connect_concurrency;
	const char *connections_arg;
	bool per_terminal; /* --connections=terminals */
	const char *delays, *weights, *percentile, *check, *mode, *delivery_log;
	uint64_t precondition_ns, time_ns, report_interval_ns, rand_seed, retry_backoff_ns;
	unsigned max_retries;
	uint64_t pad_to; /* --pad-to */
	bool print_sql;
	bool tpmc_rollbacks; /* --tpmc-include-rollbacks */
	struct cli_run_opts run;
};


/* tpcc_run.c: run, once the options are checked, the server probed and the
 * dialect's SQL loaded (x->sql); endpoint and version as the probe found
 * them. The exit status. */
int tp_run(struct tp_cli *c, struct tpcc_ctx *x, const struct tpcc_sql *sql, const struct db_driver_ops *drv,
	   const struct db_conn_params *cp, const char *endpoint, const char *version, double factor,
	   const double *pct, unsigned npct);

#endif
