/*
 * dbrig sysbench [options] TEST COMMAND — sysbench 1.0.20's command line,
 * options and output, plus a precondition phase, several percentiles, a
 * result file and an interval journal.
 */
#include "cli/cli.h"
#include "cli/common_opts.h"
#include "result/record.h"
#include "cli/sysbench_text.h"
#include "core/log.h"
#include "core/opt.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "core/version.h"
#include "db/db.h"
#include "result/result.h"
#include "runner/runner.h"
#include "workload/registry.h"
#include "workload/sysbench/sysbench.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct sb_cli {
	unsigned threads;
	uint64_t time_ns;
	uint64_t events;
	uint64_t report_interval_ns;
	const char *percentile;
	bool histogram;
	const char *rand_type;
	uint64_t rand_seed;
	unsigned rand_spec_iter;
	double rand_spec_pct, rand_spec_res, rand_pareto_h, rand_zipfian_exp;
	unsigned verbosity;
	const char *db_driver;
	const char *db_ps_mode;
	uint64_t rate;
	uint64_t precondition_ns;
	struct cli_mysql_opts my;
	const char *mysql_password;
	const char *mysql_ignore_errors, *mysql_storage_engine;
	bool mysql_ssl;
	unsigned tables, table_size, range_size, point_selects, simple_ranges, sum_ranges, order_ranges;
	unsigned distinct_ranges, index_updates, non_index_updates, delete_inserts;
	bool range_selects, skip_trx, auto_inc, secondary, create_secondary;
	struct cli_run_opts run;
};

#define O(f) offsetof(struct sb_cli, f)
#define GEN "General options"
#define RND "Pseudo-Random Numbers Generator options"
#define MY "MySQL driver options"
#define OLTP "oltp_* test options"
#define DB "dbrig additions"
#define UMAX 1000000000LL

static const struct opt_def sb_opts_table[] = {
	{"threads", "num-threads", OPT_UINT, O(threads), "1", "number of threads (concurrent connections) to use", 1, 100000, GEN, 0},
	{"events", "max-requests", OPT_U64, O(events), "0", "limit for total number of events", 0, INT64_MAX, GEN, 0},
	{"time", "max-time", OPT_DURATION, O(time_ns), "10", "limit for total execution time in seconds (sample phase)", 0, 0, GEN, 0},
	{"rate", "tx-rate", OPT_U64, O(rate), "0", "average transactions rate; 0 for unlimited (only 0 is supported)", 0, INT64_MAX, GEN, 0},
	{"report-interval", NULL, OPT_DURATION, O(report_interval_ns), "0", "periodically report intermediate statistics with a specified interval in seconds; 0 disables", 0, 0, GEN, 0},
	{"percentile", NULL, OPT_STRING, O(percentile), "95", "percentile(s) to calculate in latency statistics, e.g. 95 or 50,95,99 (0 disables)", 0, 0, GEN, 0},
	{"histogram", NULL, OPT_BOOL, O(histogram), "off", "print latency histogram in report", 0, 0, GEN, 0},
	{"verbosity", NULL, OPT_UINT, O(verbosity), "3", "verbosity level {5 - debug, 0 - only critical messages}", 0, 5, GEN, 0},
	{"db-driver", NULL, OPT_STRING, O(db_driver), "mysql", "database driver (mysql)", 0, 0, GEN, 0},
	{"db-ps-mode", NULL, OPT_STRING, O(db_ps_mode), "auto", "prepared statements usage mode {auto}", 0, 0, GEN, 0},
	{"rand-type", NULL, OPT_STRING, O(rand_type), "special", "random numbers distribution {uniform, gaussian, special, pareto, zipfian}", 0, 0, RND, 0},
	{"rand-seed", NULL, OPT_U64, O(rand_seed), "0", "seed for random number generator; 0 = current time", 0, INT64_MAX, RND, 0},
	{"rand-spec-iter", NULL, OPT_UINT, O(rand_spec_iter), "12", "number of iterations for the special distribution", 1, 1000, RND, 0},
	{"rand-spec-pct", NULL, OPT_DOUBLE, O(rand_spec_pct), "1", "percentage of the entire range where 'special' values will fall", 0, 0, RND, 0},
	{"rand-spec-res", NULL, OPT_DOUBLE, O(rand_spec_res), "75", "percentage of 'special' values to use", 0, 0, RND, 0},
	{"rand-pareto-h", NULL, OPT_DOUBLE, O(rand_pareto_h), "0.2", "shape parameter for the Pareto distribution", 0, 0, RND, 0},
	{"rand-zipfian-exp", NULL, OPT_DOUBLE, O(rand_zipfian_exp), "0.8", "shape parameter (exponent) for the Zipfian distribution", 0, 0, RND, 0},
	CLI_MYSQL_ENDPOINT_ROWS(struct sb_cli, my, MY, "sbtest"),
	{"mysql-password", NULL, OPT_STRING, O(mysql_password), NULL, "MySQL password (prefer --mysql-password-file or MYSQL_PWD)", 0, 0, MY, OPT_SECRET},
	CLI_MYSQL_DB_ROWS(struct sb_cli, my, MY, "sbtest"),
	{"mysql-ssl", NULL, OPT_BOOL, O(mysql_ssl), "off", "use SSL connections (client-key.pem, client-cert.pem, cacert.pem from the current directory if present)", 0, 0, MY, 0},
	{"mysql-ignore-errors", NULL, OPT_STRING, O(mysql_ignore_errors), "1213,1020,1205", "list of errors to roll back and retry the transaction on, or \"all\"", 0, 0, MY, 0},
	{"mysql-storage-engine", NULL, OPT_STRING, O(mysql_storage_engine), "innodb", "storage engine for prepare", 0, 0, MY, 0},
	{"tables", NULL, OPT_UINT, O(tables), "1", "number of tables", 1, 1000000, OLTP, 0},
	{"table-size", NULL, OPT_UINT, O(table_size), "10000", "number of rows per table", 0, 2000000000LL, OLTP, 0},
	{"range-size", NULL, OPT_UINT, O(range_size), "100", "range size for range SELECT queries", 1, UMAX, OLTP, 0},
	{"point-selects", NULL, OPT_UINT, O(point_selects), "10", "number of point SELECT queries per transaction", 0, 10000, OLTP, 0},
	{"simple-ranges", NULL, OPT_UINT, O(simple_ranges), "1", "number of simple range SELECT queries per transaction", 0, 10000, OLTP, 0},
	{"sum-ranges", NULL, OPT_UINT, O(sum_ranges), "1", "number of SELECT SUM() queries per transaction", 0, 10000, OLTP, 0},
	{"order-ranges", NULL, OPT_UINT, O(order_ranges), "1", "number of SELECT ORDER BY queries per transaction", 0, 10000, OLTP, 0},
	{"distinct-ranges", NULL, OPT_UINT, O(distinct_ranges), "1", "number of SELECT DISTINCT queries per transaction", 0, 10000, OLTP, 0},
	{"index-updates", NULL, OPT_UINT, O(index_updates), "1", "number of UPDATE index queries per transaction", 0, 10000, OLTP, 0},
	{"non-index-updates", NULL, OPT_UINT, O(non_index_updates), "1", "number of UPDATE non-index queries per transaction", 0, 10000, OLTP, 0},
	{"delete-inserts", NULL, OPT_UINT, O(delete_inserts), "1", "number of DELETE/INSERT combinations per transaction", 0, 10000, OLTP, 0},
	{"range-selects", NULL, OPT_BOOL, O(range_selects), "on", "enable/disable all range SELECT queries", 0, 0, OLTP, 0},
	{"auto-inc", NULL, OPT_BOOL, O(auto_inc), "on", "use AUTO_INCREMENT column as primary key; when off, use client-generated ids", 0, 0, OLTP, 0},
	{"skip-trx", NULL, OPT_BOOL, O(skip_trx), "off", "don't start explicit transactions; run all queries in AUTOCOMMIT mode", 0, 0, OLTP, 0},
	{"secondary", NULL, OPT_BOOL, O(secondary), "off", "use a secondary index in place of the PRIMARY KEY", 0, 0, OLTP, 0},
	{"create-secondary", NULL, OPT_BOOL, O(create_secondary), "on", "create a secondary index in addition to the PRIMARY KEY", 0, 0, OLTP, 0},
	{"precondition", "warmup-time", OPT_DURATION, O(precondition_ns), "0", "precondition phase before the sample (--time); statistics are reset between them, both are kept in the result", 0, 0, DB, 0},
	CLI_RUN_RECORD_ROWS(struct sb_cli, run, DB),
	CLI_RUN_IDENTITY_ROWS(struct sb_cli, run, DB),
};
#define NOPTS (sizeof(sb_opts_table) / sizeof(sb_opts_table[0]))

static void usage(FILE *f)
{
	fprintf(f, "Usage: dbrig sysbench [options] TEST COMMAND\n\n"
		   "Runs sysbench 1.0.20's OLTP workloads against MySQL/MariaDB/Percona, with the same\n"
		   "options, statements and output, through libmysqlclient.\n\n"
		   "TEST: oltp_read_write, oltp_read_only, oltp_write_only, oltp_point_select,\n"
		   "      oltp_update_index, oltp_update_non_index, oltp_insert, oltp_delete\n"
		   "COMMAND: prepare, prewarm, run, cleanup, help; check (dbrig's: the database's row counts\n"
		   "         and CHECKSUM TABLE of sbtest1, the fingerprint a campaign compares restores with)\n\n"
		   "Durations take units: 30 (seconds), 90s, 15m, 2h. The password is read from\n"
		   "--mysql-password, --mysql-password-file or the MYSQL_PWD environment variable and\n"
		   "is never written to results, journals or logs.\n");
	opt_help(f, sb_opts_table, NOPTS);
	fprintf(f, "\nExit status: 0 success, 1 runtime failure or interrupted run, 2 usage error.\n");
}

/* Hide a password given on the command line from ps (what mysql(1) does): every OPT_SECRET option. */
static void scrub_argv(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *eq;
		if (strncmp(argv[i], "--", 2) || !(eq = strchr(argv[i], '=')))
			continue;
		for (size_t k = 0; k < NOPTS; k++)
			if ((sb_opts_table[k].flags & OPT_SECRET) &&
			    opt_name_matches(&sb_opts_table[k], argv[i] + 2, (size_t)(eq - argv[i] - 2)))
				memset(eq + 1, 'x', strlen(eq + 1));
	}
}

struct run_ctx {
	const struct sb_cli *cli;
	struct sb_text text;
	struct run_record rec;
};

static void on_start(void *arg, unsigned threads)
{
	struct run_ctx *rc = arg;

	(void)threads;
	sb_text_started(&rc->text);
}

static void on_phase_start(void *arg, enum phase_kind p, double planned)
{
	struct run_ctx *rc = arg;

	sb_text_phase_start(&rc->text, p, planned);
}

static void on_interval(void *arg, const struct interval_report *ir)
{
	struct run_ctx *rc = arg;

	if (!ir->partial)
		sb_text_interval(&rc->text, ir);
	run_record_interval(&rc->rec, ir);
}

static void on_phase_end(void *arg, const struct phase_report *pr)
{
	struct run_ctx *rc = arg;

	result_set_phase(rc->rec.res, pr);
	sb_text_phase_end(&rc->text, pr);
}

static void fill_params(struct result *res, const struct sb_cli *c, const struct sb_opts *o)
{
	result_param_int(res, "tables", o->tables);
	result_param_int(res, "table_size", o->table_size);
	result_param_int(res, "threads", c->threads);
	result_param_int(res, "range_size", o->range_size);
	result_param_int(res, "point_selects", o->point_selects);
	result_param_int(res, "simple_ranges", o->simple_ranges);
	result_param_int(res, "sum_ranges", o->sum_ranges);
	result_param_int(res, "order_ranges", o->order_ranges);
	result_param_int(res, "distinct_ranges", o->distinct_ranges);
	result_param_int(res, "index_updates", o->index_updates);
	result_param_int(res, "non_index_updates", o->non_index_updates);
	result_param_int(res, "delete_inserts", o->delete_inserts);
	result_param_bool(res, "range_selects", o->range_selects);
	result_param_bool(res, "skip_trx", o->skip_trx);
	result_param_bool(res, "auto_inc", o->auto_inc);
	result_param_bool(res, "secondary", o->secondary);
	result_param_str(res, "rand_type", rand_type_name(o->dist.type));
	result_param_int(res, "rand_seed", (long long)o->rand_seed);
	result_param_double(res, "precondition_s", (double)c->precondition_ns / 1e9);
	result_param_double(res, "time_s", (double)c->time_ns / 1e9);
	result_param_int(res, "events", (long long)c->events);
	result_param_double(res, "report_interval_s", (double)c->report_interval_ns / 1e9);
	result_param_str(res, "ignore_errors", c->mysql_ignore_errors);
}

/* The summary sysbench prints once the run is over (not when it never started). */
static void report_summary(void *arg, const char *status, bool ran)
{
	struct run_ctx *rc = arg;

	(void)status;
	if (ran)
		sb_text_summary(&rc->text);
}

static int do_run(const struct sb_cli *c, const struct sb_opts *o, const struct db_driver_ops *drv,
		  const struct db_conn_params *cp, const double *pct, unsigned npct)
{
	struct run_ctx rc = {.cli = c, .rec = {.result_path = c->run.result, .journal_path = c->run.journal}};
	struct runner_config cfg = {
		.drv = drv,
		.conn = cp,
		.wl = &sysbench_workload_ops,
		.wl_ctx = (void *)o,
		.ntypes = 1,
		.threads = c->threads,
		.event_loops = c->run.event_loops,
		.precondition_ns = c->precondition_ns,
		.time_ns = c->time_ns,
		.events = c->events,
		.report_interval_ns = c->report_interval_ns,
		.rand_seed = c->rand_seed,
		.reconnect_timeout_ns = c->run.reconnect_timeout_ns,
		.cb = {.arg = &rc, .on_start = on_start, .on_phase_start = on_phase_start,
		       .on_interval = on_interval, .on_phase_end = on_phase_end},
	};
	struct run_identity id;
	static const char *const type_names[] = {"transaction"};
	char endpoint[300];
	int ret = EXIT_RUNTIME;

	cli_run_identity(&c->run, &id);
	if (result_new(&rc.rec.res, "sysbench", sb_test_name(o->test)) < 0) {
		log_error("out of memory");
		return EXIT_RUNTIME;
	}
	result_set_run(rc.rec.res, &id);
	fill_params(rc.rec.res, c, o);
	result_set_percentiles(rc.rec.res, pct, npct);
	result_set_types(rc.rec.res, type_names, 1);
	drv->describe(cp, endpoint, sizeof(endpoint));
	result_set_engine(rc.rec.res, drv->name, NULL, endpoint, cp->database);
	sb_text_init(&rc.text, c->threads, c->report_interval_ns, c->rand_seed, pct, npct, c->histogram,
		     c->precondition_ns, c->time_ns);
	sb_text_header(&rc.text);

	/* One probe connection for the server version (and an early, clear
	 * error when the server cannot be reached). */
	{
		struct db_conn probe = {.ops = drv};
		if (drv->connect(&probe, cp) < 0) {
			log_error("cannot connect to %s as %s: error %d: %s", endpoint, cp->user, probe.err.native,
				  probe.err.msg);
			drv->disconnect(&probe);
			goto out;
		}
		result_set_engine(rc.rec.res, drv->name, drv->server_version(&probe), endpoint, cp->database);
		drv->disconnect(&probe);
	}
	if (run_record_open(&rc.rec) == 0)
		ret = run_record_run(&rc.rec, &cfg, report_summary, &rc) == 0 ? 0 : EXIT_RUNTIME;
out:
	run_record_release(&rc.rec);
	sb_text_free(&rc.text);
	result_free(rc.rec.res);
	return ret;
}

int cmd_sysbench(int argc, char **argv)
{
	struct sb_cli c;
	struct sb_opts o;
	struct db_conn_params cp;
	const char *pos[3];
	int npos = 0;
	double pct[RESULT_MAX_PERCENTILES];
	unsigned npct = 0;
	char *password = NULL;
	int *codes = NULL;
	size_t ncodes = 0;
	bool all = false;
	int ret = EXIT_USAGE;
	const struct db_driver_ops *drv;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
	}
	memset(&c, 0, sizeof(c));
	if (opt_parse(sb_opts_table, NOPTS, &c, argc, argv, pos, 3, &npos, NULL) < 0)
		goto out;
	/* Copy the password before blanking it in argv (the option points there). */
	if (c.mysql_password)
		password = xstrdup(c.mysql_password);
	scrub_argv(argc, argv);
	log_set_verbosity((int)c.verbosity);
	if (npos == 1 && !strcmp(pos[0], "help")) {
		usage(stdout);
		ret = 0;
		goto out;
	}
	if (npos != 2) {
		log_error("sysbench: expected TEST COMMAND, e.g. \"oltp_read_write run\" (see dbrig sysbench --help)");
		goto out;
	}
	memset(&o, 0, sizeof(o));
	if (sb_test_parse(pos[0], &o.test) < 0) {
		log_error("sysbench: unknown test \"%s\" (expected oltp_read_write, oltp_read_only, oltp_write_only, "
			  "oltp_point_select, oltp_update_index, oltp_update_non_index, oltp_insert or oltp_delete)",
			  pos[0]);
		goto out;
	}
	if (strcmp(pos[1], "prepare") && strcmp(pos[1], "prewarm") && strcmp(pos[1], "run") &&
	    strcmp(pos[1], "cleanup") && strcmp(pos[1], "check") && strcmp(pos[1], "help")) {
		log_error("sysbench: unknown command \"%s\" (expected prepare, prewarm, run, cleanup, check or help)",
			  pos[1]);
		goto out;
	}
	if (!strcmp(pos[1], "help")) {
		usage(stdout);
		ret = 0;
		goto out;
	}
	drv = db_driver_find(c.db_driver);
	if (!drv) {
		log_error("--db-driver: \"%s\" is not available (expected mysql)", c.db_driver);
		goto out;
	}
	if (strcmp(c.db_ps_mode, "auto")) {
		log_error("--db-ps-mode: \"%s\" is not supported (expected auto: server-side prepared statements)",
			  c.db_ps_mode);
		goto out;
	}
	if (c.rate) {
		log_error("--rate: \"%llu\" is not supported (expected 0: closed loop, as the published runs)",
			  (unsigned long long)c.rate);
		goto out;
	}
	if (cli_parse_percentiles(c.percentile, pct, &npct) < 0)
		goto out;
	if (c.histogram && npct == 0) {
		log_error("--histogram: needs percentile statistics (--percentile is 0)");
		goto out;
	}
	if (db_parse_code_list(c.mysql_ignore_errors, &codes, &ncodes, &all) < 0) {
		log_error("--mysql-ignore-errors: \"%s\" is not valid (expected error numbers like 1213,1020,1205, or all)",
			  c.mysql_ignore_errors);
		goto out;
	}
	if (strchr(c.my.host, ',')) {
		log_error("--mysql-host: \"%s\": host lists are not supported (expected one host)", c.my.host);
		goto out;
	}
	rand_dist_defaults(&o.dist);
	if (rand_type_parse(c.rand_type, &o.dist.type) < 0) {
		log_error("--rand-type: \"%s\" is not valid (expected uniform, gaussian, special, pareto or zipfian)",
			  c.rand_type);
		goto out;
	}
	if (c.rand_spec_pct <= 0 || c.rand_spec_pct > 100 || c.rand_spec_res < 0 || c.rand_spec_res > 100) {
		log_error("--rand-spec-pct/--rand-spec-res: %g/%g out of range (expected (0,100] and [0,100])",
			  c.rand_spec_pct, c.rand_spec_res);
		goto out;
	}
	if (c.rand_pareto_h <= 0 || c.rand_pareto_h >= 1 || c.rand_zipfian_exp <= 0) {
		log_error("--rand-pareto-h/--rand-zipfian-exp: %g/%g out of range (expected 0 < h < 1 and exp > 0)",
			  c.rand_pareto_h, c.rand_zipfian_exp);
		goto out;
	}
	o.dist.spec_iter = (int)c.rand_spec_iter;
	o.dist.spec_pct = c.rand_spec_pct;
	o.dist.spec_res = c.rand_spec_res;
	o.dist.pareto_h = c.rand_pareto_h;
	o.dist.zipf_exp = c.rand_zipfian_exp;
	o.rand_seed = c.rand_seed;
	o.tables = c.tables;
	o.table_size = c.table_size;
	o.range_size = c.range_size;
	o.point_selects = c.point_selects;
	o.simple_ranges = c.simple_ranges;
	o.sum_ranges = c.sum_ranges;
	o.order_ranges = c.order_ranges;
	o.distinct_ranges = c.distinct_ranges;
	o.index_updates = c.index_updates;
	o.non_index_updates = c.non_index_updates;
	o.delete_inserts = c.delete_inserts;
	o.range_selects = c.range_selects;
	o.skip_trx = c.skip_trx;
	o.auto_inc = c.auto_inc;
	o.secondary = c.secondary;
	o.create_secondary = c.create_secondary;
	o.storage_engine = c.mysql_storage_engine;
	if (o.table_size == 0 && (strcmp(pos[1], "run") == 0) && o.test != SB_INSERT) {
		log_error("--table-size: \"0\" is not valid for %s run (expected at least 1)", pos[0]);
		goto out;
	}
	if (!strcmp(pos[1], "run") && c.time_ns == 0 && c.events == 0) {
		log_warn("both --time and --events are 0: the run goes on until it is interrupted");
	}

	{
		/* --mysql-password (copied above), --mysql-password-file or MYSQL_PWD */
		char *given = password;
		int pr = cli_password(given, "mysql-password-file", c.my.password_file, "MYSQL_PWD", &password);
		cli_password_free(given);
		if (pr < 0)
			goto out;
	}

	memset(&cp, 0, sizeof(cp));
	cp.host = c.my.host;
	cp.port = c.my.port;
	cp.socket = c.my.socket;
	cp.user = c.my.user;
	cp.password = password;
	cp.database = c.my.db;
	cp.ssl = c.mysql_ssl;
	cp.retry_codes = codes;
	cp.n_retry_codes = ncodes;
	cp.retry_all = all;
	if (drv->global_init && drv->global_init() < 0) {
		log_error("cannot initialise the %s client library", drv->name);
		ret = EXIT_RUNTIME;
		goto out;
	}

	ret = EXIT_RUNTIME;
	if (!strcmp(pos[1], "prepare")) {
		struct wl_load_stats st;
		printf("dbrig %s (sysbench 1.0.20 compatible)\n\n", DBRIG_VERSION);
		printf("Initializing worker threads...\n\n");
		fflush(stdout);
		if (workload_sysbench.prepare(&o, drv, &cp, c.threads, &st) == 0) {
			printf("Loaded %llu rows in %.2fs (%.0f rows/s)\n", (unsigned long long)st.rows, st.seconds,
			       st.seconds > 0 ? (double)st.rows / st.seconds : 0.0);
			ret = 0;
		}
	} else if (!strcmp(pos[1], "prewarm")) {
		printf("dbrig %s (sysbench 1.0.20 compatible)\n\n", DBRIG_VERSION);
		printf("Initializing worker threads...\n\n");
		fflush(stdout);
		if (sb_prewarm(&o, drv, &cp, c.threads) == 0)
			ret = 0;
	} else if (!strcmp(pos[1], "cleanup")) {
		printf("dbrig %s (sysbench 1.0.20 compatible)\n\n", DBRIG_VERSION);
		fflush(stdout);
		if (workload_sysbench.cleanup(&o, drv, &cp) == 0)
			ret = 0;
	} else if (!strcmp(pos[1], "check")) {
		struct strbuf fp;
		strbuf_init(&fp, 0);
		if (workload_sysbench.check(&o, drv, &cp, &fp) == 0) {
			printf("fingerprint: %s\n", fp.buf);
			ret = 0;
		}
		strbuf_release(&fp);
	} else {
		ret = do_run(&c, &o, drv, &cp, pct, npct);
	}
out:
	cli_password_free(password);
	free(codes);
	return ret;
}
