/*
 * dbrig sysbench from the options read to the exit status (cli/cmd_sysbench.c
 * reads the command line; cli/sysbench_int.h is what they share): the values
 * sysbench's init() checks, what a driver checks before it connects and the
 * connection parameters, the probe connection and sysbench's messages when it
 * fails, prepare, prewarm, check, cleanup and ping, and run: the runner's
 * callbacks printing sysbench's console format (cli/sysbench_text.h), the
 * result and the journal.
 */
#include "cli/cli.h"
#include "cli/common_opts.h"
#include "cli/sysbench_int.h"
#include "cli/sysbench_text.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "db/db.h"
#include "cli/run_record.h"
#include "result/result.h"
#include "runner/runner.h"
#include "workload/registry.h"
#include "workload/sysbench/sysbench.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- connections --- */

/* Connect once the way the command's first connection does, and say what
 * sysbench says when that fails (drv_mysql.c, then the Lua frame that asked
 * for the connection), once per worker that would have tried. */
static int probe(const struct db_driver_ops *drv, const struct db_conn_params *cp, const char *test,
		 const char *frame, unsigned workers, char *version, size_t vlen)
{
	struct db_conn c = {.ops = drv};
	int ret = 0;

	if (drv->connect(&c, cp) < 0) {
		/* Every worker thread of sysbench tries and says so. */
		for (unsigned i = 0; i < workers; i++) {
			if (cp->socket && *cp->socket)
				log_error("unable to connect to MySQL server on socket '%s', aborting...", cp->socket);
			else
				log_error("unable to connect to MySQL server on host '%s', port %u, aborting...", cp->host,
					  cp->port);
			log_error("error %d: %s", c.err.native, c.err.msg);
			log_error("`%s' function failed: %s: connection creation failed", frame, test);
		}
		ret = -1;
	} else if (version) {
		snprintf(version, vlen, "%s", drv->server_version(&c));
	}
	drv->disconnect(&c);
	return ret;
}

/* --- run --- */

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

static void on_checkpoint(void *arg, const struct checkpoint_report *cr)
{
	struct run_ctx *rc = arg;

	sb_text_checkpoint(&rc->text, cr);
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
	if (c->rate)
		result_param_int(res, "rate", (long long)c->rate);
	if (c->mysql_dry_run)
		result_param_bool(res, "dry_run", true);
}

/* The summary sysbench prints once the run is over: not when it never
 * started, and not after a fatal error (sysbench prints no report then). */
static void report_summary(void *arg, const char *status, bool ran)
{
	struct run_ctx *rc = arg;

	if (ran && strcmp(status, "failed"))
		sb_text_summary(&rc->text);
}

int sb_do_run(const struct sb_cli *c, const struct sb_opts *o, const struct db_driver_ops *drv,
	      const struct db_conn_params *cp, const double *pct, unsigned npct, const unsigned *ckpt,
	      unsigned nckpt)
{
	struct run_ctx rc = {.cli = c, .rec = {.result_path = c->run.result, .journal_path = c->run.journal}};
	struct runner_config cfg = {
		.drv = drv,
		.conn = cp,
		.wl = workload_sysbench.ops,
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
		       .on_interval = on_interval, .on_phase_end = on_phase_end, .on_checkpoint = on_checkpoint},
		.rate = (double)c->rate,
		.checkpoints = ckpt,
		.ncheckpoints = nckpt,
	};
	struct run_identity id;
	static const char *const type_names[] = {"transaction"};
	char endpoint[300], version[128];
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
	if (cp->socket && *cp->socket)
		snprintf(endpoint, sizeof(endpoint), "%s", cp->socket);
	else
		snprintf(endpoint, sizeof(endpoint), "%s:%u", cp->host, cp->port);
	sb_text_init(&rc.text, c->threads, c->report_interval_ns, c->rand_seed, pct, npct, c->histogram,
		     c->precondition_ns, c->time_ns);
	rc.text.rate = c->rate;
	rc.text.checkpoints = ckpt;
	rc.text.ncheckpoints = nckpt;
	rc.text.debug = c->debug;
	rc.text.events = c->events;

	/* One probe connection for the server version, and sysbench's messages
	 * when a worker cannot connect. */
	if (probe(drv, cp, sb_test_name(o->test), "thread_init", c->threads, version, sizeof(version)) < 0) {
		log_error("Thread initialization failed!");
		goto out;
	}
	result_set_engine(rc.rec.res, c->mysql_dry_run ? "mysql-dry-run" : drv->name, version, endpoint,
			  cp->database);
	if (run_record_open(&rc.rec) == 0)
		ret = run_record_run(&rc.rec, &cfg, report_summary, &rc) == 0 ? 0 : EXIT_RUNTIME;
out:
	run_record_release(&rc.rec);
	sb_text_free(&rc.text);
	result_free(rc.rec.res);
	return ret;
}

/* --- the command --- */

static void copy_test_opts(const struct sb_cli *c, struct sb_opts *o)
{
	o->dist.spec_iter = (int)c->rand_spec_iter;
	o->dist.spec_pct = c->rand_spec_pct;
	o->dist.spec_res = c->rand_spec_res;
	o->dist.pareto_h = c->rand_pareto_h;
	o->dist.zipf_exp = c->rand_zipfian_exp;
	o->rand_seed = c->rand_seed;
	o->tables = c->tables;
	o->table_size = c->table_size;
	o->range_size = c->range_size;
	o->point_selects = c->point_selects;
	o->simple_ranges = c->simple_ranges;
	o->sum_ranges = c->sum_ranges;
	o->order_ranges = c->order_ranges;
	o->distinct_ranges = c->distinct_ranges;
	o->index_updates = c->index_updates;
	o->non_index_updates = c->non_index_updates;
	o->delete_inserts = c->delete_inserts;
	o->range_selects = c->range_selects;
	o->skip_trx = c->skip_trx;
	o->auto_inc = c->auto_inc;
	o->secondary = c->secondary;
	o->create_secondary = c->create_secondary;
	o->storage_engine = c->mysql_storage_engine;
	sb_unique_init(o);
}

/* An option sysbench has that dbrig does not implement: refused when set. */
static int refuse(const char *what, const char *why)
{
	log_error("%s is not supported by dbrig sysbench (%s)", what, why);
	return -1;
}

/* sysbench's print_run_mode(): before the workers start, so before anything they report. */
void sb_run_header(const struct sb_cli *c, const double *pct, unsigned npct, const unsigned *ckpt,
		   unsigned nckpt)
{
	struct sb_text hdr;

	sb_text_init(&hdr, c->threads, c->report_interval_ns, c->rand_seed, pct, npct, false, c->precondition_ns,
		     c->time_ns);
	hdr.rate = c->rate;
	hdr.checkpoints = ckpt;
	hdr.ncheckpoints = nckpt;
	hdr.debug = c->debug;
	sb_text_header(&hdr);
	sb_text_free(&hdr);
}

/* --report-checkpoints=1,2: seconds, sorted; sysbench's messages. */
static int parse_checkpoints(const char *s, unsigned *out, unsigned *n)
{
	char *copy = xstrdup(s), *save = NULL;
	int ret = 0;

	*n = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int64_t v;
		if (parse_int64(tok, 0, 2147483647, &v) < 0) {
			log_error("Invalid value for --report-checkpoints: '%s'", tok);
			ret = -1;
			break;
		}
		if (*n >= MAX_CHECKPOINTS) {
			log_error("Too many checkpoints in --report-checkpoints (up to %d can be defined)", MAX_CHECKPOINTS);
			ret = -1;
			break;
		}
		out[(*n)++] = (unsigned)v;
	}
	free(copy);
	for (unsigned i = 1; i < *n; i++)
		for (unsigned j = i; j > 0 && out[j - 1] > out[j]; j--) {
			unsigned x = out[j];
			out[j] = out[j - 1];
			out[j - 1] = x;
		}
	return ret;
}

/* sysbench's init() and log_init(): the deprecated aliases, then each value it
 * checks, in its order and with its messages. 0, or -1 after one. */
int sb_init_checks(struct sb_cli *c, struct sb_opts *o, unsigned *ckpt, unsigned *nckpt, double *pct,
		   unsigned *npct)
{
	log_set_verbosity(c->verbosity > 5 ? 3 : (int)c->verbosity);
	if (c->debug)
		log_set_verbosity(5);
	if (c->num_threads > 1) {
		log_warn("--num-threads is deprecated, use --threads instead");
		c->threads = c->num_threads;
	}
	if (c->threads == 0) {
		log_error("Invalid value for --threads: %u.\n", c->threads);
		return -1;
	}
	if (c->max_requests > 0) {
		log_warn("--max-requests is deprecated, use --events instead");
		c->events = c->max_requests;
	}
	if (c->max_time_ns > 0) {
		log_warn("--max-time is deprecated, use --time instead");
		c->time_ns = c->max_time_ns;
	}
	if (!c->events && !c->time_ns)
		log_warn("Both event and time limits are disabled, running an endless test");
	if (c->time_ns > 0 && strcmp(c->forced_shutdown, "off")) {
		char *end;
		errno = 0;
		long v = strtol(c->forced_shutdown, &end, 10);
		if (!*c->forced_shutdown || errno || v < 0 || (*end && strcmp(end, "%"))) {
			log_error("Invalid value for --forced-shutdown: '%s'", c->forced_shutdown);
			return -1;
		}
		refuse("--forced-shutdown", "transactions in flight at the deadline always finish and count");
		return -1;
	}
	rand_dist_defaults(&o->dist);
	if (rand_type_parse(c->rand_type, &o->dist.type) < 0) {
		log_error("Invalid random numbers distribution: %s.", c->rand_type);
		return -1;
	}
	if (c->tx_rate > 0) {
		log_warn("--tx-rate is deprecated, use --rate instead");
		c->rate = c->tx_rate;
	}
	if (parse_checkpoints(c->report_checkpoints, ckpt, nckpt) < 0)
		return -1;
	/* log_init(): the verbosity, then the percentile. */
	if (c->verbosity > 5) {
		printf("Invalid value for verbosity: %u\n", c->verbosity);
		return -1;
	}
	if (cli_parse_percentiles_quiet(c->percentile, pct, npct) < 0) {
		log_error("Invalid value for --percentile: %s", c->percentile);
		return -1;
	}
	if (c->histogram && *npct == 0) {
		log_error("--histogram cannot be used with --percentile=0");
		return -1;
	}

	return 0;
}

/* What a sysbench driver checks before it connects, as sysbench orders it
 * (the driver, its options, the test's), and the connection parameters. 0, or
 * -1 after one message. */
int sb_connection(struct sb_cli *c, struct sb_opts *o, const char *test, const char *cmd, const char *frame,
		  struct sb_conn *k)
{
	const struct db_driver_ops *my = c->my.drv;
	const void *mo = c->my.blob;
	const char *host = db_option_str(my, mo, "mysql-host"), *sport = db_option_str(my, mo, "mysql-port");
	const char *socket = db_option_str(my, mo, "mysql-socket");
	int64_t port;

	k->drv = strcmp(c->db_driver, "mysql") ? NULL : db_driver_find(c->mysql_dry_run ? "null" : "mysql");
	if (!k->drv || strcmp(c->db_ps_mode, "auto")) {
		if (!k->drv)
			log_error("invalid database driver name: '%s'", c->db_driver);
		else if (!strcmp(c->db_ps_mode, "disable"))
			refuse("--db-ps-mode=disable", "the statements are always server-side prepared");
		else
			log_error("Invalid value for db-ps-mode: %s", c->db_ps_mode);
		log_error("`%s' function failed: %s: failed to initialize the DB driver", frame, sb_test_name(o->test));
		if (!strcmp(cmd, "run"))
			log_error("Thread initialization failed!");
		return -1;
	}
	if (c->db_debug || c->mysql_debug) {
		refuse(c->db_debug ? "--db-debug" : "--mysql-debug", "no statement tracing");
		return -1;
	}
	if (db_parse_code_list(c->mysql_ignore_errors, &k->codes, &k->ncodes, &k->all) < 0) {
		log_error("--mysql-ignore-errors: '%s' is not a list of error numbers or \"all\"", c->mysql_ignore_errors);
		return -1;
	}
	if (strchr(host, ',') || strchr(sport, ',') || (socket && strchr(socket, ','))) {
		refuse("a list in --mysql-host, --mysql-port or --mysql-socket", "one server per run");
		return -1;
	}
	if (parse_int64(sport, 1, 65535, &port) < 0) {
		log_error("Invalid value for --mysql-port: '%s'", sport);
		return -1;
	}
	if (c->rand_spec_pct <= 0 || c->rand_spec_pct > 100 || c->rand_spec_res < 0 || c->rand_spec_res > 100) {
		log_error("--rand-spec-pct/--rand-spec-res: %g/%g out of range (expected (0,100] and [0,100])",
			  c->rand_spec_pct, c->rand_spec_res);
		return -1;
	}
	if (c->rand_pareto_h <= 0 || c->rand_pareto_h >= 1 || c->rand_zipfian_exp <= 0) {
		log_error("--rand-pareto-h/--rand-zipfian-exp: %g/%g out of range (expected 0 < h < 1 and exp > 0)",
			  c->rand_pareto_h, c->rand_zipfian_exp);
		return -1;
	}
	copy_test_opts(c, o);
	if (o->table_size == 0 && !strcmp(cmd, "run") && o->test != SB_INSERT) {
		log_error("--table-size: 0 is not valid for %s run (expected at least 1)", test);
		return -1;
	}

	if (!k->password &&
	    cli_password(NULL, "mysql-password-file", db_option_str(my, mo, "mysql-password-file"), "MYSQL_PWD",
			 &k->password) < 0)
		return -1;
	memset(&k->cp, 0, sizeof(k->cp));
	k->cp.host = host;
	k->cp.port = (unsigned)port;
	k->cp.socket = socket;
	k->cp.user = db_option_str(my, mo, "mysql-user");
	k->cp.password = k->password;
	k->cp.database = db_option_str(my, mo, "mysql-db");
	/* TLS (--mysql-ssl and its files): the driver checks and reads them, and the cipher list and compression. */
	if (my->check_options && my->check_options(mo) < 0)
		return -1;
	k->cp.driver_opts = mo;
	k->cp.retry_codes = k->codes;
	k->cp.n_retry_codes = k->ncodes;
	k->cp.retry_all = k->all;
	if (k->drv->global_init && k->drv->global_init() < 0) {
		log_error("cannot initialise the %s client library", k->drv->name);
		return -1;
	}
	return 0;
}

/* prepare, prewarm, check, cleanup and ping once the options are good. */
int sb_command(const struct sb_cli *c, const struct sb_opts *o, const char *cmd, const char *frame,
	       bool parallel, const struct db_driver_ops *drv, const struct db_conn_params *cp)
{
	int ret = EXIT_RUNTIME;

	if (probe(drv, cp, sb_test_name(o->test), frame, parallel ? c->threads : 1, NULL, 0) < 0)
		return EXIT_RUNTIME;
	if (!strcmp(cmd, "ping"))
		return 0;
	if (!strcmp(cmd, "prepare")) {
		struct wl_load_stats st;
		if (workload_sysbench.prepare((void *)o, drv, cp, c->threads, &st) == 0) {
			if (sb_verbose(4))
				printf("Loaded %llu rows in %.2fs (%.0f rows/s)\n", (unsigned long long)st.rows,
				       st.seconds, st.seconds > 0 ? (double)st.rows / st.seconds : 0.0);
			ret = 0;
		}
	} else if (!strcmp(cmd, "prewarm")) {
		if (sb_prewarm(o, drv, cp, c->threads) == 0)
			ret = 0;
	} else if (!strcmp(cmd, "check")) {
		struct strbuf fp;
		strbuf_init(&fp, 0);
		if (workload_sysbench.check((void *)o, drv, cp, &fp) == 0) {
			printf("fingerprint: %s\n", fp.buf);
			ret = 0;
		}
		strbuf_release(&fp);
	} else {
		if (workload_sysbench.cleanup((void *)o, drv, cp) == 0)
			ret = 0;
	}
	return ret;
}
