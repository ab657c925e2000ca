/*
 * dbrig tpcc [options] COMMAND — TPC-C-style OLTP through ODBC (SQL Server,
 * and MariaDB / PostgreSQL in tests) or libmysqlclient: prepare, run, check,
 * cleanup; --print-sql shows a dialect's every statement.
 *
 * This file reads and checks the command line, probes the server and runs
 * prepare, check, cleanup and ping; cli/tpcc_run.c runs the command run
 * (cli/tpcc_int.h is what they share).
 */
#include "cli/cli.h"
#include "cli/common_opts.h"
#include "cli/tpcc_conn.h"
#include "cli/tpcc_int.h"
#include "core/features.h"
#include "core/log.h"
#include "core/opt.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "core/version.h"
#include "db/db.h"
#include "result/result.h"
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

#define O(f) offsetof(struct tp_cli, f)
#define GEN "General options"
#define CON "Connection options"
#define LOAD "TPC-C options"
#define DB "dbrig run identity"

/* The connection's rows before the drivers' (their tables: db/mysql/ops.c, db/odbc/ops.c). */
static const struct opt_def tp_rows_a[] = {
	/* odbc unless this build leaves it out (-DDBRIG_WITH_ODBC=OFF) */
	{"db-driver", NULL, OPT_STRING, O(db_driver), DBRIG_HAVE_ODBC ? "odbc" : "mysql",
	 DBRIG_HAVE_ODBC ? "database driver: odbc or mysql (libmysqlclient)"
			 : "database driver: mysql (libmysqlclient; this build has no ODBC)",
	 0, 0, CON, 0},
	{"dialect", NULL, OPT_STRING, O(dialect), "auto", "SQL dialect: auto (from SQL_DBMS_NAME), mssql, mysql or postgresql", 0, 0, CON, 0},
	{"isolation", NULL, OPT_STRING, O(isolation), "default", "transaction isolation: LEVEL for every transaction and TYPE:LEVEL for one type, comma-separated (e.g. read-committed,ostat:repeatable-read); LEVEL default (the server's), read-committed, repeatable-read, serializable or snapshot (SQL Server); TYPE neword, payment, ostat, delivery or slev; on SQL Server Order-Status is repeatable-read unless given", 0, 0, CON, 0},
	{"retry-errors", NULL, OPT_STRING, O(retry_errors), "1213,1205", "native error numbers that roll back and retry a transaction (besides deadlock SQLSTATEs), or \"all\"", 0, 0, CON, 0},
};

/* The workload's and the run's rows, after the drivers'. */
static const struct opt_def tp_rows_b[] = {
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
#define NROWS(a) (sizeof(a) / sizeof((a)[0]))

/* TPC-C's database and user, in place of the mysql driver's (sysbench's). */
static const struct cli_row_override tp_words[] = {
	{"mysql-user", "tpcc", NULL},
	{"mysql-db", "tpcc", NULL},
};

/* tp_rows_a, then every compiled-in driver's rows (a section per driver in
 * --help; no OPT_SECRET row: a password never comes from the command line),
 * then tp_rows_b. Built by tp_table() into c->drv's slots. */
#define TP_MAX_OPTS 128
static struct opt_def tp_opts[TP_MAX_OPTS];
static size_t tp_nopts;
#define NOPTS tp_nopts

static void tp_table(struct tp_cli *c)
{
	size_t k = 0;

	memcpy(tp_opts, tp_rows_a, sizeof(tp_rows_a));
	tp_nopts = NROWS(tp_rows_a);
	for (const struct db_driver_ops *const *d = db_drivers; *d; d++) {
		if (!(*d)->n_options)
			continue;
		if (k == CLI_MAX_DRIVERS)
			abort(); /* more drivers with options than CLI_MAX_DRIVERS */
		cli_add_driver_rows(tp_opts, &tp_nopts, TP_MAX_OPTS, *d, &c->drv[k],
				    offsetof(struct tp_cli, drv) + k * sizeof(c->drv[0]), false, OPT_SECRET, tp_words,
				    NROWS(tp_words), NULL);
		cli_add_driver_rows(tp_opts, &tp_nopts, TP_MAX_OPTS, *d, &c->drv[k],
				    offsetof(struct tp_cli, drv) + k * sizeof(c->drv[0]), true, OPT_SECRET, tp_words,
				    NROWS(tp_words), NULL);
		k++;
	}
	memcpy(tp_opts + tp_nopts, tp_rows_b, sizeof(tp_rows_b));
	tp_nopts += NROWS(tp_rows_b);
}

/* The blob of driver d's options in c (NULL when d has none). */
static const void *tp_blob(const struct tp_cli *c, const struct db_driver_ops *d)
{
	for (size_t k = 0; k < CLI_MAX_DRIVERS; k++)
		if (c->drv[k].drv == d)
			return c->drv[k].blob;
	return NULL;
}

/* An unknown --NAME-... whose NAME is a driver this build leaves out
 * (-DDBRIG_WITH_ODBC=OFF: --odbc-connect): said so in one line, not as an
 * unknown option. True after that line. */
static bool tp_left_out_option(const struct opt_problem *pb)
{
	char name[32];
	size_t len;

	if (pb->kind != OPT_PB_UNKNOWN || strncmp(pb->arg, "--", 2))
		return false;
	len = strcspn(pb->arg + 2, "-_=");
	if (len >= sizeof(name))
		return false;
	memcpy(name, pb->arg + 2, len);
	name[len] = '\0';
	if (!features_left_out(name))
		return false;
	log_error("--%.*s: the %s driver is left out of this dbrig (cmake -D%s=ON)", (int)strcspn(pb->arg + 2, "="),
		  pb->arg + 2, name, features_left_out(name));
	return true;
}

/* --mysql-port is text in the driver's table (sysbench takes a list there);
 * here it is one number, checked as soon as the line is read. 0, or -1 after
 * one message. */
static int tp_mysql_port(const struct tp_cli *c, unsigned *port)
{
	const struct db_driver_ops *my = db_driver_find("mysql");
	const char *s = db_option_str(my, tp_blob(c, my), "mysql-port");
	int64_t v;

	if (parse_int64(s, 1, 65535, &v) < 0) {
		log_error("--mysql-port: \"%s\" is not valid (expected an integer from 1 to 65535)", s);
		return -1;
	}
	*port = (unsigned)v;
	return 0;
}

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

/* Where to connect and as whom: the ODBC connection string, or
 * libmysqlclient's host, port or socket, user, database and TLS; the password
 * from its file or environment; the endpoint as messages name it. 0, or -1
 * after one message (a usage error). */
static int tp_endpoint(const struct tp_cli *c, const struct db_driver_ops *drv, struct db_conn_params *cp,
		       char **password, char *endpoint, size_t nendpoint)
{
	const void *o = tp_blob(c, drv);

	cp->driver_opts = o;
	if (drv->uses_dsn) {
		const char *connect = db_option_str(drv, o, "odbc-connect");
		if (!connect) {
			log_error("--odbc-connect: missing (expected a connection string such as "
				  "'Driver={ODBC Driver 18 for SQL Server};Server=host,1433;UID=bench;Database=tpcc')");
			return -1;
		}
		cp->dsn = connect;
		drv->describe(cp, endpoint, nendpoint);
		if (strcmp(endpoint, connect))
			log_warn("--odbc-connect: the string holds a password, visible to ps; use ODBC_PWD or "
				 "--odbc-password-file");
		if (cli_password(NULL, "odbc-password-file", db_option_str(drv, o, "odbc-password-file"), "ODBC_PWD",
				 password) < 0)
			return -1;
	} else {
		if (cli_password(NULL, "mysql-password-file", db_option_str(drv, o, "mysql-password-file"), "MYSQL_PWD",
				 password) < 0)
			return -1;
		if (tp_mysql_port(c, &cp->port) < 0)
			return -1;
		cp->host = db_option_str(drv, o, "mysql-host");
		cp->socket = db_option_str(drv, o, "mysql-socket");
		cp->user = db_option_str(drv, o, "mysql-user");
		cp->database = db_option_str(drv, o, "mysql-db");
		if (drv->check_options && drv->check_options(o) < 0) /* TLS: the driver's */
			return -1;
		drv->describe(cp, endpoint, nendpoint);
	}
	return 0;
}

/* The command line into c (the drivers' rows into their slots), and the
 * --mysql-port number checked as soon as it is read. 0, or -1 after one
 * message. */
static int tp_parse(struct tp_cli *c, int argc, char **argv, const char **pos, int *npos)
{
	struct opt_problem pb;
	unsigned port;

	if (opt_parse_collect(tp_opts, NOPTS, c, argc, argv, pos, 2, npos, NULL, &pb) < 0 && tp_left_out_option(&pb))
		return -1;
	if (opt_parse(tp_opts, NOPTS, c, argc, argv, pos, 2, npos, NULL) < 0)
		return -1;
	return tp_mysql_port(c, &port);
}

/* --print-sql: every statement of the dialect. The exit status. */
static int tp_print_sql(bool auto_dialect, enum tpcc_dialect dialect)
{
	struct tpcc_sql *sql = NULL;
	char err[256];

	if (auto_dialect) {
		log_error("--print-sql: needs --dialect (mssql, mysql or postgresql)");
		return EXIT_USAGE;
	}
	if (tpcc_sql_load(dialect, &sql, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return EXIT_RUNTIME;
	}
	tpcc_sql_print(stdout, sql);
	tpcc_sql_free(sql);
	return 0;
}

/* A driver that always speaks one dialect (libmysqlclient: mysql): that
 * dialect, or the one --dialect names when they differ. 0, or the exit
 * status after one message. */
static int tp_driver_dialect(const struct tp_cli *c, const struct db_driver_ops *drv, bool *auto_dialect,
			     enum tpcc_dialect *dialect)
{
	enum tpcc_dialect fixed;

	if (!drv->dialect)
		return 0;
	if (tpcc_dialect_parse(drv->dialect, &fixed) < 0) {
		log_error("--db-driver=%s: speaks the %s dialect, which TPC-C has no SQL for", drv->name,
			  drv->dialect);
		return EXIT_RUNTIME;
	}
	if (!*auto_dialect && *dialect != fixed) {
		log_error("--dialect: \"%s\" does not go with --db-driver=%s (expected %s or auto)", c->dialect,
			  drv->name, drv->dialect);
		return EXIT_USAGE;
	}
	*dialect = fixed;
	*auto_dialect = false;
	return 0;
}

/* The command `cmd` once the options are good: the client library, the probe
 * connection, the dialect's SQL, then ping, prepare, check, cleanup or run.
 * The exit status. */
static int tp_command(struct tp_cli *c, struct tpcc_ctx *x, struct db_conn_params *cp,
		      const struct db_driver_ops *drv, const char *cmd, bool auto_dialect, enum tpcc_dialect dialect,
		      const char *endpoint, double factor, const double *pct, unsigned npct)
{
	struct tpcc_sql *sql = NULL;
	int ret = EXIT_RUNTIME, prc;
	char err[256], version[128] = "";

	if (drv->global_init && drv->global_init() < 0) {
		log_error("cannot initialise the %s client library", drv->name);
		goto out;
	}
	/* A probe connection: a clear early error, the server version and, on
	 * ODBC, the dialect. */
	prc = tp_probe(drv, cp, endpoint, auto_dialect, tpcc_isolation_snapshot(&x->iso), &dialect, version,
		       sizeof(version));
	if (prc < 0) {
		if (prc == -2)
			ret = EXIT_USAGE;
		goto out;
	}
	if (!strcmp(cmd, "ping")) {
		printf("ping: %s answers as %s (%s)\n", endpoint, cp->user ? cp->user : "the connection string's user",
		       version);
		ret = 0;
		goto out;
	}
	if (tpcc_sql_load(dialect, &sql, err, sizeof(err)) < 0) {
		log_error("%s", err);
		goto out;
	}
	x->sql = sql;
	/* SNAPSHOT is for the run's transactions: SQL Server refuses CREATE INDEX
	 * and other DDL in a snapshot transaction, so prepare, check and cleanup
	 * keep the server's level. */
	if (cp->isolation == DB_ISO_SNAPSHOT && strcmp(cmd, "run"))
		cp->isolation = x->iso.base = DB_ISO_DEFAULT;
	x->isolation = cp->isolation;
	if (!strcmp(cmd, "run") && tpcc_isolation_dialect_default(&x->iso, dialect))
		printf("Order-Status at repeatable-read (SQL Server's default here: it reads its screen in three "
		       "statements; --isolation=ostat:LEVEL to choose)\n");
	if (!strcmp(cmd, "prepare")) {
		struct wl_load_stats st;
		if (tp_pad_check(c->pad_to, dialect) < 0) {
			ret = EXIT_USAGE;
			goto out;
		}
		x->warehouses = c->warehouses;
		x->pad_to = c->pad_to;
		x->seed = c->rand_seed ? c->rand_seed : (uint64_t)time(NULL);
		printf("dbrig %s tpcc prepare: %u warehouses into %s (%s)\n", DBRIG_VERSION, c->warehouses, endpoint, version);
		fflush(stdout);
		if (workload_tpcc.prepare(x, drv, cp, c->threads, &st) == 0) {
			printf("Loaded %llu rows in %.2fs (%.0f rows/s); %s\n", (unsigned long long)st.rows, st.seconds,
			       st.seconds > 0 ? (double)st.rows / st.seconds : 0, st.note);
			ret = 0;
		}
	} else if (!strcmp(cmd, "check")) {
		struct strbuf fp;
		strbuf_init(&fp, 0);
		int rc = workload_tpcc.check(x, drv, cp, &fp);
		if (rc == 0)
			printf("fingerprint: %s\n", fp.buf);
		strbuf_release(&fp);
		ret = rc == 0 ? 0 : EXIT_RUNTIME;
	} else if (!strcmp(cmd, "cleanup")) {
		if (workload_tpcc.cleanup(x, drv, cp) == 0) {
			printf("Dropped the TPC-C tables\n");
			ret = 0;
		}
	} else {
		ret = tp_run(c, x, sql, drv, cp, endpoint, version, factor, pct, npct);
	}
out:
	tpcc_sql_free(sql);
	return ret;
}

int cmd_tpcc(int argc, char **argv)
{
	struct tp_cli c;
	struct db_conn_params cp;
	struct tpcc_ctx x;
	const struct db_driver_ops *drv;
	const char *pos[2];
	int npos = 0, ret = EXIT_USAGE, rc;
	char *password = NULL;
	int *codes = NULL;
	size_t ncodes = 0;
	bool all = false, auto_dialect;
	enum tpcc_dialect dialect = TPCC_MYSQL;
	char endpoint[512];
	double factor = 1;
	double pct[RESULT_MAX_PERCENTILES];
	unsigned npct = 0;

	memset(&c, 0, sizeof(c));
	tp_table(&c);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
	}
	memset(&cp, 0, sizeof(cp));
	memset(&x, 0, sizeof(x));
	if (tp_parse(&c, argc, argv, pos, &npos) < 0)
		goto out;
	log_set_verbosity((int)c.verbosity);
	auto_dialect = !strcmp(c.dialect, "auto");
	if (!auto_dialect && tpcc_dialect_parse(c.dialect, &dialect) < 0) {
		log_error("--dialect: \"%s\" is not valid (expected auto, mssql, mysql or postgresql)", c.dialect);
		goto out;
	}
	/* A dialect's text, whatever the driver (and in a build without ODBC). */
	if (c.print_sql) {
		ret = tp_print_sql(auto_dialect, dialect);
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
	rc = tp_driver_dialect(&c, drv, &auto_dialect, &dialect);
	if (rc != 0) {
		ret = rc;
		goto out;
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
	ret = tp_command(&c, &x, &cp, drv, pos[0], auto_dialect, dialect, endpoint, factor, pct, npct);
out:
	cli_password_free(password);
	free(codes);
	return ret;
}
