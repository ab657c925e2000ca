/*
 * dbrig tpcc [options] COMMAND — TPC-C-style OLTP through ODBC (SQL Server,
 * and MariaDB / PostgreSQL in tests) or libmysqlclient: prepare, run, check,
 * cleanup; --print-sql shows a dialect's every statement.
 */
#include "cli/cli.h"
#include "cli/common_opts.h"
#include "cli/tpcc_conn.h"
#include "result/record.h"
#include "core/features.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/opt.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "core/version.h"
#include "db/db.h"
#include "result/result.h"
#include "runner/runner.h"
#include "workload/registry.h"
#include "workload/tpcc/tpcc.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

struct tp_cli {
	const char *db_driver, *odbc_connect, *odbc_password_file, *dialect, *isolation, *retry_errors;
	struct cli_mysql_opts my;
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

#define O(f) offsetof(struct tp_cli, f)
#define GEN "General options"
#define CON "Connection options"
#define LOAD "TPC-C options"
#define DB "dbrig run identity"

static const struct opt_def tp_opts[] = {
	/* odbc unless this build leaves it out (-DDBRIG_WITH_ODBC=OFF) */
	{"db-driver", NULL, OPT_STRING, O(db_driver), DBRIG_HAVE_ODBC ? "odbc" : "mysql",
	 DBRIG_HAVE_ODBC ? "database driver: odbc or mysql (libmysqlclient)"
			 : "database driver: mysql (libmysqlclient; this build has no ODBC)",
	 0, 0, CON, 0},
	{"odbc-connect", NULL, OPT_STRING, O(odbc_connect), NULL, "ODBC connection string (Driver={…};Server=…;UID=…) or DSN=name; the password comes from ODBC_PWD or --odbc-password-file", 0, 0, CON, 0},
	{"odbc-password-file", NULL, OPT_STRING, O(odbc_password_file), NULL, "read the ODBC password from this file (first line)", 0, 0, CON, 0},
	{"dialect", NULL, OPT_STRING, O(dialect), "auto", "SQL dialect: auto (from SQL_DBMS_NAME), mssql, mysql or postgresql", 0, 0, CON, 0},
	{"isolation", NULL, OPT_STRING, O(isolation), "default", "transaction isolation: LEVEL for every transaction and TYPE:LEVEL for one type, comma-separated (e.g. read-committed,ostat:repeatable-read); LEVEL default (the server's), read-committed, repeatable-read, serializable or snapshot (SQL Server); TYPE neword, payment, ostat, delivery or slev; on SQL Server Order-Status is repeatable-read unless given", 0, 0, CON, 0},
	{"retry-errors", NULL, OPT_STRING, O(retry_errors), "1213,1205", "native error numbers that roll back and retry a transaction (besides deadlock SQLSTATEs), or \"all\"", 0, 0, CON, 0},
	CLI_MYSQL_ENDPOINT_ROWS(struct tp_cli, my, CON, "tpcc"),
	CLI_MYSQL_DB_ROWS(struct tp_cli, my, CON, "tpcc"),
	CLI_MYSQL_TLS_ROWS(struct tp_cli, my, CON),
	{"warehouses", NULL, OPT_UINT, O(warehouses), "1", "warehouses (the scale)", WL_TPCC_WAREHOUSES_MIN,
	 WL_TPCC_WAREHOUSES_MAX, LOAD, 0},
	{"threads", NULL, OPT_UINT, O(threads), "4", "prepare: loader connections (ITEM and three units per warehouse are spread over them)", 1, 1024, LOAD, 0},
	{"pad-to", NULL, OPT_U64, O(pad_to), "0", "prepare: widen customer, stock and order_line (a CHAR padding column each, each table by the same factor) so that a warehouse takes about this many bytes; 0 = no padding; from the unpadded size (mysql 86507520, postgresql 104333312, mssql 80740352) to 8 times it; stored in tpcc_meta and in run results (pad_to)", 0, INT32_MAX, LOAD, 0},
	{"terminals", NULL, OPT_UINT, O(terminals), "0", "run: terminals; 0 = 10 per warehouse", WL_TPCC_TERMINALS_MIN,
	 WL_TPCC_TERMINALS_MAX, LOAD, 0},
	{"connections", NULL, OPT_STRING, O(connections_arg), "32", "run: database connections the terminals share (1..100000), or terminals: one session per terminal, as Benchmark Factory runs its virtual users", 0, 0, LOAD, 0},
	{"connect-concurrency", NULL, OPT_UINT, O(connect_concurrency), "16", "run: connections opened at once before the clock starts (and on reconnects), so many sessions do not stampede the server", 1, 1024, LOAD, 0},
	{"mode", NULL, OPT_STRING, O(mode), "statements", "run: statements (a prepared statement per step, the client commits) or procedures (one call of a server-side procedure per transaction, created by prepare: T-SQL, MySQL procedures, PL/pgSQL functions)", 0, 0, LOAD, 0},
	{"delays", NULL, OPT_STRING, O(delays), "spec", "keying and think times: spec, scale:F, cycle:SECONDS (mean keying+think per transaction) or off (closed loop)", 0, 0, LOAD, 0},
	{"weights", NULL, OPT_STRING, O(weights), "10,10,1,1,1", "deck of New-Order,Payment,Order-Status,Delivery,Stock-Level cards (at most 100)", 0, 0, LOAD, 0},
	{"precondition", NULL, OPT_DURATION, O(precondition_ns), "0", "precondition phase before the sample; both are kept in the result", 0, 0, GEN, 0},
	{"time", NULL, OPT_DURATION, O(time_ns), "60", "sample phase length", 0, 0, GEN, 0},
	{"percentile", NULL, OPT_STRING, O(percentile), "95", "latency percentile(s) printed and stored in the result, e.g. 95 or 50,95,99 (0 disables); the per-type table always has p90, the spec's limit", 0, 0, GEN, 0},
	{"report-interval", NULL, OPT_DURATION, O(report_interval_ns), "0", "print (and journal) statistics every interval, in whole seconds; 0 disables", 0, 0, GEN, OPT_WHOLE_SECONDS},
	{"rand-seed", NULL, OPT_U64, O(rand_seed), "0", "random seed; 0 = from the clock", 0, INT64_MAX, GEN, 0},
	CLI_RUN_RECORD_ROWS(struct tp_cli, run, GEN),
	{"max-retries", NULL, OPT_UINT, O(max_retries), "20", "run: retries of one transaction (deadlock, lock wait timeout) before the run ends with an error", 1, 1000000, GEN, 0},
	{"retry-backoff", NULL, OPT_DURATION, O(retry_backoff_ns), "1ms", "run: the first retry waits up to this long, each next one twice as long (at most 64x)", 0, 0, GEN, 0},
	{"check", NULL, OPT_STRING, O(check), "none", "run: check the 12 consistency conditions before the run, after it, both or none; the outcome goes into the result, a failed check exits 1", 0, 0, LOAD, 0},
	{"delivery-log", NULL, OPT_STRING, O(delivery_log), NULL, "run: write the Delivery result log (clause 2.7.4.2) to this file: per deferred Delivery its phase, queueing and completion times (UTC), warehouse, carrier, each district's delivered order and the districts skipped for want of a new order (written atomically at the end)", 0, 0, LOAD, 0},
	{"tpmc-include-rollbacks", NULL, OPT_BOOL, O(tpmc_rollbacks), "off", "run: count the New-Orders ended by their intended rollback (the spec's 1%) in tpmC, as the spec does (clause 5.4.1); off, tpmC is committed New-Orders only, as HammerDB's NOPM (recorded in the result either way: tpmc_include_rollbacks)", 0, 0, LOAD, 0},
	{"print-sql", NULL, OPT_BOOL, O(print_sql), "off", "print every statement of the dialect (--dialect) and exit", 0, 0, GEN, 0},
	{"verbosity", NULL, OPT_UINT, O(verbosity), "3", "verbosity level {5 - debug, 0 - only critical messages}", 0, 5, GEN, 0},
	CLI_RUN_IDENTITY_ROWS(struct tp_cli, run, DB),
};
#define NOPTS (sizeof(tp_opts) / sizeof(tp_opts[0]))

static void usage(FILE *f)
{
	fprintf(f, "Usage: dbrig tpcc [options] COMMAND\n\n"
		   "TPC-C-style OLTP (nine tables, five transactions, terminals with keying and think\n"
		   "times) through ODBC (SQL Server; MariaDB and PostgreSQL drivers) or libmysqlclient.\n\n"
		   "COMMAND: prepare, run, check, cleanup; ping (log in to the database and exit: 0 when the\n"
		   "         user can, 1 with the server's error; a campaign's readiness probe)\n\n"
		   "Passwords come from ODBC_PWD / MYSQL_PWD or a password file, never from the command\n"
		   "line, and are never written to results, journals or logs. psqlODBC needs\n"
		   "Protocol=7.4-1 in the connection string (see docs/tpcc.md).\n");
	opt_help(f, tp_opts, NOPTS);
	fprintf(f, "\nExit status: 0 success, 1 runtime failure, failed check or interrupted run, 2 usage error.\n");
}

static int parse_weights(const char *s, unsigned w[TPCC_DECK_TYPES])
{
	char *copy = xstrdup(s), *save = NULL;
	unsigned n = 0, sum = 0;
	int ret = -1;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int64_t v;
		if (n >= TPCC_DECK_TYPES || parse_int64(tok, 0, 100, &v) < 0)
			goto out;
		w[n++] = (unsigned)v;
		sum += (unsigned)v;
	}
	if (n == TPCC_DECK_TYPES && sum >= 1 && sum <= TPCC_DECK_MAX)
		ret = 0;
out:
	free(copy);
	return ret;
}

/* --- run output --- */

struct run_ctx {
	const struct tp_cli *cli;
	const double *pct;
	unsigned npct;
	struct run_record rec;
	struct tpcc_ctx *x;
	const struct db_driver_ops *drv;
	const struct db_conn_params *cp;
	bool check_failed; /* --check found a condition broken (or could not run) */
	bool dlog_failed;  /* --delivery-log could not be written */
	const struct phase_report *last_sample;
	struct span_stats sample; /* copy of what is printed at the end */
	bool have_sample;
	double sample_s;
};

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* "<lead>p95<sep>12.34" per requested percentile. */
static void print_pcts(const struct run_ctx *rc, const struct hist *h, const char *lead, const char *sep)
{
	char key[32];

	for (unsigned i = 0; i < rc->npct; i++) {
		percentile_key(rc->pct[i], key, sizeof(key));
		printf("%sp%s%s%.2f", lead, key, sep, ms(hist_value_at_percentile(h, rc->pct[i])));
	}
}

static void on_connected(void *arg, unsigned sessions, double seconds)
{
	const struct run_ctx *rc = arg;

	printf("connected %u session%s in %.1fs (at most %u at a time)\n", sessions, sessions == 1 ? "" : "s", seconds,
	       rc->cli->connect_concurrency);
	fflush(stdout);
}

/* Closing is quick but for thousands of ODBC sessions (docs/tpcc.md): said
 * when it took a second or more. */
static void on_closed(void *arg, unsigned sessions, double seconds)
{
	(void)arg;
	if (seconds >= 1.0)
		printf("closed %u sessions in %.1fs\n", sessions, seconds);
}

static void on_phase_start(void *arg, enum phase_kind p, double planned)
{
	(void)arg;
	printf("%s phase: %.0fs\n", phase_name(p), planned);
	fflush(stdout);
}

/* The New-Orders tpmC counts: committed ones, and with --tpmc-include-rollbacks
 * those ended by their intended rollback too. */
static uint64_t tpmc_new_orders(const struct tp_cli *c, const struct span_stats *s)
{
	return s->type_count[TT_NEW_ORDER] + (c->tpmc_rollbacks ? s->type_count[TT_NEW_ORDER_ROLLBACK] : 0);
}

static void on_interval(void *arg, const struct interval_report *ir)
{
	struct run_ctx *rc = arg;
	const struct span_stats *s = ir->s;

	if (!ir->partial && rc->cli->report_interval_ns) {
		printf("[ %.0fs ] %s tps: %.2f tpmC: %.1f lat (ms) avg: %.2f", ir->t, phase_name(ir->phase),
		       (double)s->c.events / ir->seconds, (double)tpmc_new_orders(rc->cli, s) * 60.0 / ir->seconds,
		       hist_mean(s->lat) / 1e6);
		print_pcts(rc, s->lat, " ", ": ");
		printf(" rollbacks/s: %.2f err/s: %.2f reconn/s: %.2f\n", (double)s->c.rollbacks / ir->seconds,
		       (double)s->c.errors / ir->seconds, (double)s->c.reconnects / ir->seconds);
		fflush(stdout);
	}
	run_record_interval(&rc->rec, ir);
}

static void print_phase(const struct run_ctx *rc, const struct phase_report *pr)
{
	const struct span_stats *s = pr->s;
	double sec = pr->seconds > 0 ? pr->seconds : 1;
	char key[32];

	printf("\n%s phase (%.1fs%s):\n", phase_name(pr->phase), pr->seconds, pr->complete ? "" : ", cut short");
	printf("    transactions: %llu (%.2f per sec.), tpmC: %.1f (%s per minute)\n", (unsigned long long)s->c.events,
	       (double)s->c.events / sec, (double)tpmc_new_orders(rc->cli, s) * 60.0 / sec,
	       rc->cli->tpmc_rollbacks ? "New-Orders, the intended rollbacks included" : "committed New-Orders");
	printf("    intended rollbacks: %llu, retried errors: %llu", (unsigned long long)s->c.rollbacks,
	       (unsigned long long)s->c.errors);
	for (unsigned k = 0, n = 0; k < DB_RETRY_KINDS; k++)
		if (s->retry_kind[k])
			printf("%s%s %llu", n++ ? ", " : " (", db_retry_kind_name((enum db_retry_kind)k),
			       (unsigned long long)s->retry_kind[k]);
	printf("%s, reconnects: %llu\n", s->c.errors ? ")" : "", (unsigned long long)s->c.reconnects);
	printf("    round trips: %.2f per transaction (%s mode: statements, commits and rollbacks sent, retries "
	       "included)\n",
	       s->c.events ? (double)s->round_trips / (double)s->c.events : 0, rc->cli->mode);
	printf("    latency (ms, from the terminal's submit): avg %.2f", hist_mean(s->lat) / 1e6);
	print_pcts(rc, s->lat, ", ", " ");
	printf(", max %.2f\n", ms(s->lat->max));
	{
		const char *names[TPCC_TYPES];
		for (unsigned t = 0; t < TPCC_TYPES; t++)
			names[t] = tpcc_type_name((enum tpcc_type)t);
		tpcc_conn_print(stdout, pr, names, TPCC_TYPES, rc->cli->per_terminal);
	}
	printf("    %-19s %10s %7s %10s %10s", "type", "count", "mix %", "avg ms", "p90 ms");
	for (unsigned i = 0; i < rc->npct; i++) {
		char label[40];
		if (rc->pct[i] == 90)
			continue;
		percentile_key(rc->pct[i], key, sizeof(key));
		snprintf(label, sizeof(label), "p%s ms", key);
		printf(" %10s", label);
	}
	printf(" %10s %8s %7s  %s\n", "max ms", "retries", "rt/txn", "p90 limit");
	for (unsigned t = 0; t < TPCC_TYPES; t++) {
		const struct hist *h = s->type_lat[t];
		uint64_t n = s->type_count[t];
		double p90 = h ? ms(hist_value_at_percentile(h, 90)) : 0;
		char limit[40] = "";
		unsigned base = t == TT_NEW_ORDER_ROLLBACK ? TT_NEW_ORDER : t;
		if (n)
			snprintf(limit, sizeof(limit), "%s (%.0f s)", p90 <= tpcc_p90_limit_s[base] * 1000 ? "ok" : "EXCEEDED",
				 tpcc_p90_limit_s[base]);
		printf("    %-19s %10llu %7.2f %10.2f %10.2f", tpcc_type_name((enum tpcc_type)t), (unsigned long long)n,
		       s->c.events ? 100.0 * (double)n / (double)s->c.events : 0, h ? hist_mean(h) / 1e6 : 0, p90);
		for (unsigned i = 0; i < rc->npct; i++)
			if (rc->pct[i] != 90)
				printf(" %10.2f", h ? ms(hist_value_at_percentile(h, rc->pct[i])) : 0);
		printf(" %10.2f %8llu %7.2f  %s\n", h && n ? ms(h->max) : 0, (unsigned long long)s->type_retries[t],
		       n ? (double)s->type_rt[t] / (double)n : 0, limit);
	}
	fflush(stdout);
}

static void on_phase_end(void *arg, const struct phase_report *pr)
{
	struct run_ctx *rc = arg;

	result_set_phase(rc->rec.res, pr);
	print_phase(rc, pr);
	/* A sample cut short (a fatal error: its one line says why) warns of no
	 * pool cap; the result still records it (conn_wait.pool_capped). */
	if (pr->complete)
		tpcc_conn_warn(pr, rc->cli->connections);
}

/* What the server was: engine.settings, first value of a name wins. */
#define MAX_SETTINGS 32
struct settings {
	char *names[MAX_SETTINGS], *values[MAX_SETTINGS];
	unsigned n;
	struct strbuf skipped;
};

static void on_setting(void *arg, const char *name, size_t nlen, const char *value, size_t vlen)
{
	struct settings *st = arg;
	char *nm;

	if (!name) {
		strbuf_addf(&st->skipped, "%s%.*s", st->skipped.len ? "; " : "", (int)(vlen > 160 ? 160 : vlen), value);
		return;
	}
	nm = xmalloc(nlen + 1);
	memcpy(nm, name, nlen);
	nm[nlen] = '\0';
	for (unsigned i = 0; i < st->n; i++) {
		if (!strcmp(st->names[i], nm)) {
			free(nm);
			return;
		}
	}
	if (st->n == MAX_SETTINGS) {
		free(nm);
		return;
	}
	st->names[st->n] = nm;
	st->values[st->n] = xmalloc(vlen + 1);
	memcpy(st->values[st->n], value, vlen);
	st->values[st->n][vlen] = '\0';
	st->n++;
}

static void record_settings(struct run_ctx *rc)
{
	struct settings st = {.n = 0};
	struct strbuf line;

	strbuf_init(&st.skipped, 0);
	strbuf_init(&line, 256);
	if (tpcc_read_settings(rc->x, rc->drv, rc->cp, on_setting, &st) < 0)
		log_warn("server settings: cannot read them: %s", st.skipped.buf);
	else if (st.skipped.len && log_verbosity() >= 4)
		log_info("server settings: skipped what this server does not have or lets us read: %s", st.skipped.buf);
	for (unsigned i = 0; i < st.n; i++)
		strbuf_addf(&line, "%s%s=%s", i ? ", " : "", st.names[i], st.values[i]);
	printf("server settings: %s\n", st.n ? line.buf : "(none read)");
	fflush(stdout);
	result_set_engine_settings(rc->rec.res, (const char *const *)st.names, (const char *const *)st.values, st.n);
	for (unsigned i = 0; i < st.n; i++) {
		free(st.names[i]);
		free(st.values[i]);
	}
	strbuf_release(&st.skipped);
	strbuf_release(&line);
}

/* --check: the 12 conditions, printed and stored in the result as `when`. */
static void run_check(struct run_ctx *rc, const char *when)
{
	struct tpcc_check_report rep;
	struct result_check_cond conds[TPCC_CONDITIONS];
	const char *tables[TPCC_TABLES];
	long long rows[TPCC_TABLES];

	printf("\nConsistency %s the run (clause 3.3.2):\n", when);
	fflush(stdout);
	if (tpcc_check_run(rc->x->sql, rc->drv, rc->cp, &rep) < 0) {
		log_error("--check=%s: the consistency check could not run", rc->cli->check);
		rc->check_failed = true;
		return;
	}
	tpcc_check_print(stdout, &rep);
	fflush(stdout);
	for (unsigned n = 1; n <= TPCC_CONDITIONS; n++) {
		const struct tpcc_cond *k = &rep.cond[n - 1];
		conds[n - 1] = (struct result_check_cond){n, k->applies, (long long)k->bad, (long long)k->checked,
							  tpcc_cond_text(n), tpcc_cond_unit(n)};
	}
	for (unsigned i = 0; i < TPCC_TABLES; i++) {
		tables[i] = tpcc_table_name((enum tpcc_table)i);
		rows[i] = (long long)rep.rows[i];
	}
	result_set_consistency(rc->rec.res, when, conds, TPCC_CONDITIONS, tables, rows, TPCC_TABLES);
	if (rep.failed) {
		log_error("consistency check %s the run failed: %u condition(s) broken", when, rep.failed);
		rc->check_failed = true;
	}
}

/* Once the outcome is known: the workload's own counters, printed and kept. */
static void report_counts(void *arg, const char *status, bool ran)
{
	struct run_ctx *rc = arg;
	struct tpcc_ctx *x = rc->x;

	(void)status;
	printf("\nDelivery: %llu districts skipped (no undelivered order); New-Order remote lines: %llu; "
	       "by-name customer lookups: %llu\n",
	       (unsigned long long)atomic_load(&x->skipped_districts), (unsigned long long)atomic_load(&x->remote_lines),
	       (unsigned long long)atomic_load(&x->by_name));
	result_count_int(rc->rec.res, "delivery_skipped_districts", (long long)atomic_load(&x->skipped_districts));
	result_count_int(rc->rec.res, "new_order_remote_lines", (long long)atomic_load(&x->remote_lines));
	result_count_int(rc->rec.res, "by_name_lookups", (long long)atomic_load(&x->by_name));
	result_count_int(rc->rec.res, "order_status_lines", (long long)atomic_load(&x->ostat_lines));
	if (x->dlog) {
		int e = tpcc_dlog_finish(x->dlog);
		if (e < 0) {
			fprintf(stderr, "dbrig: --delivery-log=%s: cannot write the Delivery log: %s (the lines logged are in %s)\n",
				rc->cli->delivery_log, write_file_strerror(e), x->dlog->tmp);
			rc->dlog_failed = true;
		} else {
			printf("Delivery log: %llu Deliveries in %s\n", x->dlog->lines, rc->cli->delivery_log);
		}
	}
	if (ran && (!strcmp(rc->cli->check, "after") || !strcmp(rc->cli->check, "both")))
		run_check(rc, "after");
}

static unsigned tpcc_terminals(const struct tp_cli *c, const struct tpcc_ctx *x)
{
	return c->terminals ? c->terminals : 10 * x->warehouses;
}

/* The sessions the run opens, against what the server takes: one line and
 * -1 when they do not fit; a server that cannot say is warned about. */
static int check_sessions(const struct tp_cli *c, const struct tpcc_sql *sql, const struct db_driver_ops *drv,
			  const struct db_conn_params *cp)
{
	struct tpcc_limits lim;
	char what[64], err[512];

	if (tpcc_read_limits(sql, drv, cp, &lim) < 0) {
		log_warn("cannot read the server's session limits (%s); %u sessions not checked against them", lim.error,
			 c->connections);
		return 0;
	}
	if (c->per_terminal)
		snprintf(what, sizeof(what), "--connections=terminals");
	else
		snprintf(what, sizeof(what), "--connections=%u", c->connections);
	if (tpcc_limits_check(&lim, what, c->connections, TPCC_SESSION_STATEMENTS, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	return 0;
}

static int do_run(const struct tp_cli *c, struct tpcc_ctx *x, const struct db_driver_ops *drv,
		  const struct db_conn_params *cp, const char *endpoint, const char *server_version, double factor,
		  const double *pct, unsigned npct)
{
	struct run_ctx rc = {.cli = c, .pct = pct, .npct = npct, .x = x, .drv = drv, .cp = cp,
			     .rec = {.result_path = c->run.result, .journal_path = c->run.journal}};
	struct runner_config cfg = {
		.drv = drv,
		.conn = cp,
		.wl = &tpcc_workload_ops,
		.wl_ctx = x,
		.ntypes = TPCC_TYPES,
		.threads = c->connections,
		.session_per_terminal = c->per_terminal,
		.connect_concurrency = c->connect_concurrency,
		.event_loops = c->run.event_loops,
		.precondition_ns = c->precondition_ns,
		.time_ns = c->time_ns,
		.report_interval_ns = c->report_interval_ns,
		.rand_seed = c->rand_seed,
		.reconnect_timeout_ns = c->run.reconnect_timeout_ns,
		.max_retries = c->max_retries,
		.retry_backoff_ns = c->retry_backoff_ns,
		.terminals = tpcc_terminals(c, x),
		.think_cap = 10,
		.cb = {.arg = &rc, .on_connected = on_connected, .on_closed = on_closed, .on_phase_start = on_phase_start, .on_interval = on_interval,
		       .on_phase_end = on_phase_end},
	};
	struct run_identity id;
	struct tpcc_dlog dlog;
	const char *names[TPCC_TYPES];
	int ret = EXIT_RUNTIME;

	cli_run_identity(&c->run, &id);
	for (unsigned t = 0; t < TPCC_TYPES; t++)
		names[t] = tpcc_type_name((enum tpcc_type)t);
	cfg.type_names = names;
	tpcc_spec_delays_ns(factor, cfg.keying_ns, cfg.think_ns);
	if (result_new(&rc.rec.res, "tpcc", "tpcc") < 0) {
		log_error("out of memory");
		return EXIT_RUNTIME;
	}
	result_set_run(rc.rec.res, &id);
	result_param_int(rc.rec.res, "warehouses", x->warehouses);
	result_param_int(rc.rec.res, "pad_to", (long long)x->pad_to);
	result_param_int(rc.rec.res, "terminals", cfg.terminals);
	result_param_int(rc.rec.res, "connections", c->connections);
	result_param_str(rc.rec.res, "sessions", c->per_terminal ? "terminals" : "pool");
	result_param_int(rc.rec.res, "connect_concurrency", c->connect_concurrency);
	result_param_int(rc.rec.res, "threads", c->connections);
	result_param_str(rc.rec.res, "delays", c->delays);
	result_param_double(rc.rec.res, "delay_factor", factor);
	result_param_str(rc.rec.res, "weights", c->weights);
	result_param_str(rc.rec.res, "dialect", tpcc_dialect_name(x->sql->dialect));
	result_param_str(rc.rec.res, "mode", c->mode);
	result_param_str(rc.rec.res, "isolation", c->isolation);
	result_param_bool(rc.rec.res, "tpmc_include_rollbacks", c->tpmc_rollbacks);
	{
		char per[200];
		tpcc_isolation_describe(&x->iso, per, sizeof(per));
		result_param_str(rc.rec.res, "isolation_per_type", per);
	}
	result_param_int(rc.rec.res, "c_run_c_last", x->c_run.c_last);
	result_param_int(rc.rec.res, "c_run_c_id", x->c_run.c_id);
	result_param_int(rc.rec.res, "c_run_ol_i_id", x->c_run.ol_i_id);
	result_param_int(rc.rec.res, "rand_seed", (long long)c->rand_seed);
	result_param_double(rc.rec.res, "precondition_s", (double)c->precondition_ns / 1e9);
	result_param_double(rc.rec.res, "time_s", (double)c->time_ns / 1e9);
	result_param_double(rc.rec.res, "report_interval_s", (double)c->report_interval_ns / 1e9);
	result_set_percentiles(rc.rec.res, pct, npct);
	result_set_types(rc.rec.res, names, TPCC_TYPES);
	result_set_engine(rc.rec.res, drv->name, server_version, endpoint, cp->database);
	if (c->per_terminal)
		printf("dbrig %s tpcc: %u warehouses, %u terminals with a session each, delays %s (factor %.4f), dialect %s, "
		       "%s\n",
		       DBRIG_VERSION, x->warehouses, cfg.terminals, c->delays, factor, tpcc_dialect_name(x->sql->dialect),
		       c->mode);
	else
		printf("dbrig %s tpcc: %u warehouses, %u terminals over %u connections, delays %s (factor %.4f), dialect %s, "
		       "%s\n",
		       DBRIG_VERSION, x->warehouses, cfg.terminals, c->connections, c->delays, factor,
		       tpcc_dialect_name(x->sql->dialect), c->mode);
	fflush(stdout);
	if (c->delivery_log) {
		/* The header goes out now: a path that cannot be written fails
		 * before the run, and a crash leaves a valid (empty) log, and the
		 * lines logged until then in <path>.tmp. */
		int e = tpcc_dlog_open(&dlog, c->delivery_log);
		if (e < 0) {
			fprintf(stderr, "dbrig: --delivery-log=%s: cannot write the Delivery log: %s\n", c->delivery_log,
				write_file_strerror(e));
			tpcc_dlog_release(&dlog);
			result_free(rc.rec.res);
			return EXIT_RUNTIME;
		}
		x->dlog = &dlog;
	}
	record_settings(&rc);
	if (!strcmp(c->check, "before") || !strcmp(c->check, "both"))
		run_check(&rc, "before");
	if (run_record_open(&rc.rec) == 0)
		ret = run_record_run(&rc.rec, &cfg, report_counts, &rc) == 0 ? 0 : EXIT_RUNTIME;
	if (ret == 0 && (rc.check_failed || rc.dlog_failed))
		ret = EXIT_RUNTIME;
	run_record_release(&rc.rec);
	result_free(rc.rec.res);
	if (x->dlog) {
		tpcc_dlog_release(x->dlog);
		x->dlog = NULL;
	}
	return ret;
}

/*
 * A probe connection before anything else: a clear early error, the server
 * version and, on ODBC with --dialect=auto, the dialect. 0, -1 (a runtime
 * failure) or -2 (a usage error) after one message.
 */
static int tp_probe(const struct db_driver_ops *drv, const struct db_conn_params *cp, const char *endpoint,
		    bool auto_dialect, bool snapshot, enum tpcc_dialect *dialect, char *version, size_t nversion)
{
	struct db_conn probe = {.ops = drv};
	struct db_conn_params pp = *cp;
	const char *dbms = NULL;
	pp.isolation = DB_ISO_DEFAULT; /* snapshot is checked against the dialect below */
	if (drv->connect(&probe, &pp) < 0) {
		log_error("cannot connect to %s: error %d (%s): %s", endpoint, probe.err.native, probe.err.sqlstate,
			  probe.err.msg);
		drv->disconnect(&probe);
		return -1;
	}
	snprintf(version, nversion, "%s", drv->server_version(&probe) ? drv->server_version(&probe) : "");
	dbms = drv->dbms_name ? drv->dbms_name(&probe) : NULL;
	if (auto_dialect && tpcc_dialect_detect(dbms, dialect) < 0) {
		log_error("--dialect=auto: the server calls itself \"%s\"; name the dialect with --dialect "
			  "(mssql, mysql or postgresql)",
			  dbms ? dbms : "(unknown)");
		drv->disconnect(&probe);
		return -1;
	}
	if (snapshot && *dialect != TPCC_MSSQL) {
		log_error("--isolation: \"snapshot\" is SQL Server's SNAPSHOT level; the server is %s (expected "
			  "default, read-committed, repeatable-read or serializable)",
			  dbms ? dbms : tpcc_dialect_name(*dialect));
		drv->disconnect(&probe);
		return -2;
	}
	if (*dialect == TPCC_POSTGRESQL && cp->dsn && !strstr(cp->dsn, "7.4-1"))
		log_warn("--odbc-connect: psqlODBC without Protocol=7.4-1 wraps every statement in a SAVEPOINT "
			 "and keeps a transaction after a deadlock error; append ;Protocol=7.4-1");
	drv->disconnect(&probe);
	return 0;
}

/* The options that shape the load (connections, weights, percentiles, mode,
 * check, delays, isolation), each checked with its own message: 0, or -1
 * after one (a usage error). */
static int tp_load_options(struct tp_cli *c, struct tpcc_ctx *x, struct db_conn_params *cp, bool auto_dialect,
			   enum tpcc_dialect dialect, double *factor, double *pct, unsigned *npct)
{
	if (tpcc_conn_parse(c->connections_arg, &c->connections, &c->per_terminal) < 0)
		return -1;
	if (parse_weights(c->weights, x->weights) < 0) {
		log_error("--weights: \"%s\" is not valid (expected five whole numbers, New-Order,Payment,Order-Status,"
			  "Delivery,Stock-Level, summing to 1..100, e.g. 10,10,1,1,1)",
			  c->weights);
		return -1;
	}
	if (!tpcc_weights_meet_spec(x->weights))
		log_warn("--weights: \"%s\" is below the spec's minimum mix (Payment 43%%, the others 4%% each)", c->weights);
	if (cli_parse_percentiles(c->percentile, pct, npct) < 0)
		return -1;
	if (!strcmp(c->mode, "procedures")) {
		x->mode = TPCC_PROCEDURES;
	} else if (strcmp(c->mode, "statements")) {
		log_error("--mode: \"%s\" is not valid (expected statements or procedures)", c->mode);
		return -1;
	}
	if (strcmp(c->check, "none") && strcmp(c->check, "before") && strcmp(c->check, "after") && strcmp(c->check, "both")) {
		log_error("--check: \"%s\" is not valid (expected none, before, after or both)", c->check);
		return -1;
	}
	if (tpcc_delays_parse(c->delays, x->weights, factor) < 0) {
		log_error("--delays: \"%s\" is not valid (expected spec, off, scale:F or cycle:SECONDS)", c->delays);
		return -1;
	}
	{
		char err[300];
		if (tpcc_isolation_parse(c->isolation, &x->iso, err, sizeof(err)) < 0) {
			log_error("--isolation: %s", err);
			return -1;
		}
		cp->isolation = x->iso.base;
	}
	/* A named dialect, or the one a driver always speaks (libmysqlclient: mysql). */
	if (tpcc_isolation_snapshot(&x->iso) && !auto_dialect && dialect != TPCC_MSSQL) {
		log_error("--isolation: \"snapshot\" is SQL Server's SNAPSHOT level, through ODBC (expected default, "
			  "read-committed, repeatable-read or serializable for dialect %s)",
			  tpcc_dialect_name(dialect));
		return -1;
	}
	return 0;
}

/* --pad-to: refused (one line) below the dialect's unpadded size or far above it. */
static int tp_pad_check(uint64_t pad_to, enum tpcc_dialect d)
{
	unsigned width[TPCC_PAD_TABLES];
	char err[256];

	if (tpcc_pad_widths(d, pad_to, width, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	return 0;
}

/* run: the database's scale and C constants, the sessions it needs, then the run itself. */
static int tp_run(struct tp_cli *c, struct tpcc_ctx *x, const struct tpcc_sql *sql, const struct db_driver_ops *drv,
		  const struct db_conn_params *cp, const char *endpoint, const char *version, double factor,
		  const double *pct, unsigned npct)
{
	struct tpcc_c cl = {0, 0, 0};
	struct rng r;
	unsigned w = 0;
	if (tpcc_read_meta(sql, drv, cp, &cl, &w, &x->pad_to) < 0)
		return EXIT_RUNTIME;
	if (c->warehouses != w && c->warehouses != 1)
		log_warn("--warehouses=%u: the database holds %u; running with %u", c->warehouses, w, w);
	x->warehouses = w;
	if (c->per_terminal) {
		if (tpcc_terminals(c, x) > TPCC_MAX_CONNECTIONS) {
			log_error("--connections=terminals: %u terminals, but at most %u sessions (use fewer --terminals "
				  "or a pool)",
				  tpcc_terminals(c, x), TPCC_MAX_CONNECTIONS);
			return EXIT_USAGE;
		}
		c->connections = tpcc_terminals(c, x);
	}
	if (check_sessions(c, sql, drv, cp) < 0)
		return EXIT_RUNTIME;
	rng_seed(&r, c->rand_seed ? c->rand_seed : (uint64_t)time(NULL) ^ 0x5bd1e995);
	struct tpcc_c drawn;
	tpcc_pick_c_run(&r, &cl, &drawn);
	if (tpcc_share_c_run(sql, drv, cp, &cl, &drawn, &x->c_run) < 0)
		return EXIT_RUNTIME;
	/* The procedures end their own transactions: the run's connections
	 * (not the check's) run with autocommit on. */
	struct db_conn_params run_cp = *cp;
	run_cp.autocommit = x->mode == TPCC_PROCEDURES;
	return do_run(c, x, drv, &run_cp, endpoint, version, factor, pct, npct);
}

/* Where to connect and as whom: the ODBC connection string, or
 * libmysqlclient's host, port or socket, user, database and TLS; the password
 * from its file or environment; the endpoint as messages name it. 0, or -1
 * after one message (a usage error). */
static int tp_endpoint(const struct tp_cli *c, const struct db_driver_ops *drv, struct db_conn_params *cp,
		       char **password, char *endpoint, size_t nendpoint)
{
	if (drv->uses_dsn) {
		if (!c->odbc_connect) {
			log_error("--odbc-connect: missing (expected a connection string such as "
				  "'Driver={ODBC Driver 18 for SQL Server};Server=host,1433;UID=bench;Database=tpcc')");
			return -1;
		}
		cp->dsn = c->odbc_connect;
		drv->describe(cp, endpoint, nendpoint);
		if (strcmp(endpoint, c->odbc_connect))
			log_warn("--odbc-connect: the string holds a password, visible to ps; use ODBC_PWD or "
				 "--odbc-password-file");
		if (cli_password(NULL, "odbc-password-file", c->odbc_password_file, "ODBC_PWD", password) < 0)
			return -1;
	} else {
		if (cli_password(NULL, "mysql-password-file", c->my.password_file, "MYSQL_PWD", password) < 0)
			return -1;
		cp->host = c->my.host;
		cp->port = c->my.port;
		cp->socket = c->my.socket;
		cp->user = c->my.user;
		cp->database = c->my.db;
		if (cli_mysql_tls(c->my.ssl, c->my.ssl_ca, c->my.ssl_cert, c->my.ssl_key, cp) < 0)
			return -1;
		drv->describe(cp, endpoint, nendpoint);
	}
	return 0;
}

int cmd_tpcc(int argc, char **argv)
{
	struct tp_cli c;
	struct db_conn_params cp;
	struct tpcc_ctx x;
	struct tpcc_sql *sql = NULL;
	const struct db_driver_ops *drv;
	const char *pos[2];
	int npos = 0, ret = EXIT_USAGE, prc;
	char *password = NULL;
	int *codes = NULL;
	size_t ncodes = 0;
	bool all = false, auto_dialect;
	enum tpcc_dialect dialect = TPCC_MYSQL;
	char err[256], endpoint[512], version[128] = "";
	double factor = 1;
	double pct[RESULT_MAX_PERCENTILES];
	unsigned npct = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
	}
	memset(&c, 0, sizeof(c));
	memset(&cp, 0, sizeof(cp));
	memset(&x, 0, sizeof(x));
	if (opt_parse(tp_opts, NOPTS, &c, argc, argv, pos, 2, &npos, NULL) < 0)
		goto out;
	log_set_verbosity((int)c.verbosity);
	auto_dialect = !strcmp(c.dialect, "auto");
	if (!auto_dialect && tpcc_dialect_parse(c.dialect, &dialect) < 0) {
		log_error("--dialect: \"%s\" is not valid (expected auto, mssql, mysql or postgresql)", c.dialect);
		goto out;
	}
	/* A dialect's text, whatever the driver (and in a build without ODBC). */
	if (c.print_sql) {
		if (auto_dialect) {
			log_error("--print-sql: needs --dialect (mssql, mysql or postgresql)");
			goto out;
		}
		if (tpcc_sql_load(dialect, &sql, err, sizeof(err)) < 0) {
			log_error("%s", err);
			ret = EXIT_RUNTIME;
			goto out;
		}
		tpcc_sql_print(stdout, sql);
		ret = 0;
		goto out;
	}
	/* The in-memory null driver is sysbench's --mysql-dry-run, for tests; TPC-C has no use for it. */
	drv = strcmp(c.db_driver, "odbc") && strcmp(c.db_driver, "mysql") ? NULL : db_driver_find(c.db_driver);
	if (!drv) {
		if (features_left_out(c.db_driver))
			log_error("--db-driver: \"%s\" is left out of this dbrig (cmake -D%s=ON; expected mysql)",
				  c.db_driver, features_left_out(c.db_driver));
		else
			log_error("--db-driver: \"%s\" is not available (expected odbc or mysql)", c.db_driver);
		goto out;
	}
	if (drv->dialect) {
		/* A driver that always speaks one dialect (libmysqlclient: mysql). */
		enum tpcc_dialect fixed;
		if (tpcc_dialect_parse(drv->dialect, &fixed) < 0) {
			log_error("--db-driver=%s: speaks the %s dialect, which TPC-C has no SQL for", drv->name,
				  drv->dialect);
			ret = EXIT_RUNTIME;
			goto out;
		}
		if (!auto_dialect && dialect != fixed) {
			log_error("--dialect: \"%s\" does not go with --db-driver=%s (expected %s or auto)", c.dialect,
				  drv->name, drv->dialect);
			goto out;
		}
		dialect = fixed;
		auto_dialect = false;
	}
	if (npos != 1 || (strcmp(pos[0], "prepare") && strcmp(pos[0], "run") && strcmp(pos[0], "check") &&
			  strcmp(pos[0], "cleanup") && strcmp(pos[0], "ping"))) {
		log_error("tpcc: expected one COMMAND: prepare, run, check, cleanup or ping (see dbrig tpcc --help)");
		goto out;
	}
	if (tp_load_options(&c, &x, &cp, auto_dialect, dialect, &factor, pct, &npct) < 0)
		goto out;
	/* --pad-to's range is the dialect's: checked here when it is known, after the probe otherwise. */
	if (!auto_dialect && tp_pad_check(c.pad_to, dialect) < 0)
		goto out;
	if (db_parse_code_list(c.retry_errors, &codes, &ncodes, &all) < 0) {
		log_error("--retry-errors: \"%s\" is not valid (expected error numbers like 1213,1205, or all)",
			  c.retry_errors);
		goto out;
	}
	cp.retry_codes = codes;
	cp.n_retry_codes = ncodes;
	cp.retry_all = all;
	cp.retry_deadlocks = true;
	cp.connect_timeout_s = 10;
	if (tp_endpoint(&c, drv, &cp, &password, endpoint, sizeof(endpoint)) < 0)
		goto out;
	cp.password = password;
	ret = EXIT_RUNTIME;
	if (drv->global_init && drv->global_init() < 0) {
		log_error("cannot initialise the %s client library", drv->name);
		goto out;
	}
	/* A probe connection: a clear early error, the server version and, on
	 * ODBC, the dialect. */
	prc = tp_probe(drv, &cp, endpoint, auto_dialect, tpcc_isolation_snapshot(&x.iso), &dialect, version,
		       sizeof(version));
	if (prc < 0) {
		if (prc == -2)
			ret = EXIT_USAGE;
		goto out;
	}
	if (!strcmp(pos[0], "ping")) {
		printf("ping: %s answers as %s (%s)\n", endpoint, cp.user ? cp.user : "the connection string's user",
		       version);
		ret = 0;
		goto out;
	}
	if (tpcc_sql_load(dialect, &sql, err, sizeof(err)) < 0) {
		log_error("%s", err);
		goto out;
	}
	x.sql = sql;
	/* SNAPSHOT is for the run's transactions: SQL Server refuses CREATE INDEX
	 * and other DDL in a snapshot transaction, so prepare, check and cleanup
	 * keep the server's level. */
	if (cp.isolation == DB_ISO_SNAPSHOT && strcmp(pos[0], "run"))
		cp.isolation = x.iso.base = DB_ISO_DEFAULT;
	x.isolation = cp.isolation;
	if (!strcmp(pos[0], "run") && tpcc_isolation_dialect_default(&x.iso, dialect))
		printf("Order-Status at repeatable-read (SQL Server's default here: it reads its screen in three "
		       "statements; --isolation=ostat:LEVEL to choose)\n");
	if (!strcmp(pos[0], "prepare")) {
		struct wl_load_stats st;
		if (tp_pad_check(c.pad_to, dialect) < 0) {
			ret = EXIT_USAGE;
			goto out;
		}
		x.warehouses = c.warehouses;
		x.pad_to = c.pad_to;
		x.seed = c.rand_seed ? c.rand_seed : (uint64_t)time(NULL);
		printf("dbrig %s tpcc prepare: %u warehouses into %s (%s)\n", DBRIG_VERSION, c.warehouses, endpoint, version);
		fflush(stdout);
		if (workload_tpcc.prepare(&x, drv, &cp, c.threads, &st) == 0) {
			printf("Loaded %llu rows in %.2fs (%.0f rows/s); %s\n", (unsigned long long)st.rows, st.seconds,
			       st.seconds > 0 ? (double)st.rows / st.seconds : 0, st.note);
			ret = 0;
		}
	} else if (!strcmp(pos[0], "check")) {
		struct strbuf fp;
		strbuf_init(&fp, 0);
		int rc = workload_tpcc.check(&x, drv, &cp, &fp);
		if (rc == 0)
			printf("fingerprint: %s\n", fp.buf);
		strbuf_release(&fp);
		ret = rc == 0 ? 0 : EXIT_RUNTIME;
	} else if (!strcmp(pos[0], "cleanup")) {
		if (workload_tpcc.cleanup(&x, drv, &cp) == 0) {
			printf("Dropped the TPC-C tables\n");
			ret = 0;
		}
	} else {
		ret = tp_run(&c, &x, sql, drv, &cp, endpoint, version, factor, pct, npct);
	}
out:
	cli_password_free(password);
	free(codes);
	tpcc_sql_free(sql);
	return ret;
}
