/*
 * The driver command lines of a campaign: which `dbrig sysbench|tpcc`
 * connection options an endpoint needs, and how the child gets its secrets.
 *
 * The engine (db/engine.h) names the driver: libmysqlclient engines
 * (mariadb, percona, mysql) get --db-driver=mysql with host and port (or
 * socket), user and database, the password in MYSQL_PWD; ODBC engines
 * (postgresql, sqlserver; TPC-C only) get --db-driver=odbc with the engine's
 * connection string naming the endpoint's ODBC driver, the password in
 * ODBC_PWD, and ODBCSYSINI pointing at the endpoint's odbcinst.ini when it has
 * one. Passwords never go on a command line.
 *
 * The target builds the golden copy and checks restores with the same
 * options the campaign's drivers run with.
 */
#ifndef DBRIG_CAMPAIGN_DRIVER_H
#define DBRIG_CAMPAIGN_DRIVER_H

#include "campaign/config.h"
#include "core/proc.h"
#include "target/target.h"

#include <stdbool.h>
#include <sys/types.h>

struct strbuf;

/* The database the workload's tables live in: "sbtest" or "tpcc". */
const char *driver_database(const struct campaign_config *cfg);
/* "sysbench" or "tpcc": the dbrig command of the workload. */
const char *driver_command(const struct campaign_config *cfg);
/* The engine is reached through ODBC (postgresql, sqlserver). */
bool driver_is_odbc(const struct campaign_config *cfg);
/* Appends the connection options for ep, each followed by a NUL. */
void driver_conn_args(const struct campaign_config *cfg, const struct target_endpoint *ep, struct strbuf *args);
/* Appends the workload options of the config (--key=value), each followed by a NUL. */
void driver_workload_args(const struct campaign_config *cfg, struct strbuf *args);
/* argv[start..] <- the NUL-separated strings of args; returns the new count (argv stays NULL-terminated). */
size_t driver_split_args(const struct strbuf *args, char **argv, size_t start, size_t max);
/*
 * proc_spawn / proc_run with ep's password (and ODBC registration) in the
 * child's environment only. spec->mysql_pwd is filled here.
 */
int driver_spawn(const struct campaign_config *cfg, const struct target_endpoint *ep, struct proc_spec *spec,
		 pid_t *pid) __attribute__((warn_unused_result));
int driver_run(const struct campaign_config *cfg, const struct target_endpoint *ep, struct proc_spec *spec,
	       struct strbuf *out, int *status) __attribute__((warn_unused_result));

#endif
