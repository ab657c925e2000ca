/*
 * The driver command lines of a campaign: which `dbrig sysbench|tpcc`
 * connection options an endpoint needs, and how the child gets its secrets.
 *
 * engine mariadb / percona / mysql: --db-driver=mysql with host and port (or
 * socket), user and database; the password in MYSQL_PWD.
 * engine postgresql / sqlserver (TPC-C only): --db-driver=odbc with a
 * connection string naming the endpoint's ODBC driver; the password in
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
struct strvec;

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
/* av <- exe, command, then every NUL-separated string of args (however many: finding 15). */
void driver_argv_push(struct strvec *av, const char *exe, const char *command, const struct strbuf *args);
/*
 * proc_spawn / proc_run with ep's password (and ODBC registration) in the
 * child's environment only. spec->mysql_pwd is filled here.
 */
int driver_spawn(const struct campaign_config *cfg, const struct target_endpoint *ep, struct proc_spec *spec,
		 pid_t *pid) __attribute__((warn_unused_result));
int driver_run(const struct campaign_config *cfg, const struct target_endpoint *ep, struct proc_spec *spec,
	       struct strbuf *out, int *status) __attribute__((warn_unused_result));

#endif
