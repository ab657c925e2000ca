/*
 * Every `dbrig <workload>` child of a campaign: the run of an instance, the
 * golden copy's prepare, the fingerprint check, the login probe. This file builds their
 * command lines and their environment; nothing else in dbrig does.
 *
 * The engine (db/engine.h) names the driver: libmysqlclient engines
 * (mariadb, percona, mysql) get --db-driver=mysql with host and port (or
 * socket), user and database, the password in MYSQL_PWD; ODBC engines
 * (postgresql, sqlserver; TPC-C only) get --db-driver=odbc with the engine's
 * connection string naming the endpoint's ODBC driver, the password in
 * ODBC_PWD, and ODBCSYSINI / ODBCINI pointing at the endpoint's odbcinst.ini
 * when it has one. Passwords never go on a command line, and the environment
 * is the child's alone (proc_spec.env): this process sets nothing.
 *
 *   struct driver_cmd dc;
 *   driver_cmd_init(&dc);
 *   driver_cmd_check(&dc, cfg, exe, &ep);
 *   struct proc_spec spec = {.argv = dc.argv, .env = dc.env, ...};
 *   ret = proc_run(&spec, &out, &status);
 *   driver_cmd_release(&dc);   // wipes the password
 */
#ifndef DBRIG_CAMPAIGN_DRIVER_H
#define DBRIG_CAMPAIGN_DRIVER_H

#include "campaign/config.h"
#include "core/strbuf.h"
#include "core/strvec.h"
#include "target/target.h"

struct driver_cmd {
	struct strbuf args;                 /* the argv strings, NUL-separated */
	struct strvec av;                   /* argv built from args, however many: never cut at a fixed size */
	char **argv;                        /* av.v: NULL-terminated */
	struct strbuf vars[3];              /* NAME=value entries ("NAME": removed from the child's environment) */
	const char *env[4];                 /* NULL-terminated, for proc_spec.env */
};

/* Who a run is, as its result records it (--run-*). */
struct driver_run_id {
	const char *group, *drive, *instance;
	unsigned vm_count, repetition;
	const char *golden; /* the drive's golden fingerprint, or NULL */
	unsigned threads;   /* per instance (the run group's); 0: the campaign's */
	const char *run_id, *run_started; /* the campaign run's identity (state.h), or NULL */
};

void driver_cmd_init(struct driver_cmd *dc);
void driver_cmd_release(struct driver_cmd *dc);

/*
 * True for an option the campaign sets on a driver's command lines itself
 * (threads, phases, results, identity, endpoint, ...): a config's
 * workload.options may not set it. The one list of them; test_driver checks
 * every option of the command lines built here against it. --event-loops is
 * not one: a config may choose it (the campaign divides the CPUs otherwise).
 */
bool driver_sets_option(const struct workload_desc *wd, const char *name);

/* `dbrig <workload> … run` of one instance: results at <base>.json / .jsonl. */
void driver_cmd_run(struct driver_cmd *dc, const struct campaign_config *cfg, const char *exe,
		    const struct target_endpoint *ep, const struct driver_run_id *id, const char *base);
/* `dbrig <workload> … prepare` of the golden copy (its --threads: the smaller of the scale and threads). */
void driver_cmd_prepare(struct driver_cmd *dc, const struct campaign_config *cfg, const char *exe,
			const struct target_endpoint *ep);
/* `dbrig <workload> … ping`: exits 0 once the endpoint's user can log into its database. */
void driver_cmd_ping(struct driver_cmd *dc, const struct campaign_config *cfg, const char *exe,
		     const struct target_endpoint *ep);
/* `dbrig <workload> … check`: the consistency checks and the "fingerprint: " line. */
void driver_cmd_check(struct driver_cmd *dc, const struct campaign_config *cfg, const char *exe,
		      const struct target_endpoint *ep);

#endif
