/*
 * What the two files of dbrig sysbench share (cli/cmd_sysbench.c and
 * cli/sysbench_run.c only): cmd_sysbench.c reads the command line into a
 * struct sb_cli (the option table and --help, --config-file, the test and the
 * command) and calls the functions below in sysbench's order; sysbench_run.c
 * checks the values as sysbench's init() and its driver do, then connects and
 * runs the command.
 */
#ifndef DBRIG_CLI_SYSBENCH_INT_H
#define DBRIG_CLI_SYSBENCH_INT_H

#include "cli/common_opts.h"
#include "db/db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_CHECKPOINTS 256 /* sysbench's MAX_CHECKPOINTS */

struct sb_opts;

/* The command line, as cmd_sysbench.c's option table fills it. */
struct sb_cli {
	unsigned threads, num_threads;
	uint64_t time_ns, max_time_ns;
	uint64_t events, max_requests;
	uint64_t rate, tx_rate;
	const char *forced_shutdown;
	const char *thread_stack_size;
	uint64_t report_interval_ns;
	const char *report_checkpoints;
	bool debug, validate, help, version;
	const char *config_file;
	const char *percentile;
	bool histogram;
	const char *rand_type;
	uint64_t rand_seed;
	unsigned rand_spec_iter;
	double rand_spec_pct, rand_spec_res, rand_pareto_h, rand_zipfian_exp;
	unsigned verbosity;
	const char *db_driver;
	const char *db_ps_mode;
	bool db_debug;
	uint64_t precondition_ns;
	struct cli_run_opts run;
	/* The mysql driver's options (its table in db/mysql/ops.c: --mysql-host,
	 * -port, -socket, -user, -password, -db, -ssl*, -compression,
	 * -password-file), read with db_option_str. */
	struct cli_driver_opts my;
	/* sysbench's own --mysql-* (the driver itself has no such option). */
	const char *mysql_ignore_errors, *mysql_storage_engine, *pgsql_variant;
	bool mysql_debug, mysql_dry_run;
	unsigned tables, table_size, range_size, point_selects, simple_ranges, sum_ranges, order_ranges;
	unsigned distinct_ranges, index_updates, non_index_updates, delete_inserts;
	bool range_selects, skip_trx, auto_inc, secondary, create_secondary;
};

/* The connection of a sysbench command and what it owns (cmd_sysbench frees them). */
struct sb_conn {
	const struct db_driver_ops *drv;
	struct db_conn_params cp;
	char *password;
	int *codes;
	size_t ncodes;
	bool all;
};


/* The checks of sysbench's init() and log_init(), with its messages: the
 * deprecated aliases, --report-checkpoints into ckpt (up to MAX_CHECKPOINTS)
 * and --percentile into pct. 0, or -1 after one message. */
int sb_init_checks(struct sb_cli *c, struct sb_opts *o, unsigned *ckpt, unsigned *nckpt, double *pct, unsigned *npct);
/* The run's header (sysbench's print_run_mode()), printed before the checks
 * of sb_connection. */
void sb_run_header(const struct sb_cli *c, const double *pct, unsigned npct, const unsigned *ckpt, unsigned nckpt);
/* What a driver checks before it connects, then *k filled (the password, the
 * error codes, the client library initialised): 0, or -1 after one message. */
int sb_connection(struct sb_cli *c, struct sb_opts *o, const char *test, const char *cmd, const char *frame,
		  struct sb_conn *k);
/* prepare, prewarm, check, cleanup or ping: the exit status. */
int sb_command(const struct sb_cli *c, const struct sb_opts *o, const char *cmd, const char *frame, bool parallel,
	       const struct db_driver_ops *drv, const struct db_conn_params *cp);
/* run, with its result and journal: the exit status. */
int sb_do_run(const struct sb_cli *c, const struct sb_opts *o, const struct db_driver_ops *drv,
	      const struct db_conn_params *cp, const double *pct, unsigned npct, const unsigned *ckpt, unsigned nckpt);

#endif
