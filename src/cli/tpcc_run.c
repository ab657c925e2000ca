/*
 * dbrig tpcc run (cli/cmd_tpcc.c reads the command line and runs the other
 * commands; cli/tpcc_int.h is what they share): the database's scale and C
 * constants, the sessions against the server's limits, then the run with its
 * result and journal, and what it prints there (the server's settings,
 * --check's conditions, --delivery-log; the banner, the intervals, each
 * phase's summary and per-type table and the workload's own counts are
 * cli/tpcc_text.c's).
 */
#include "cli/cli.h"
#include "cli/common_opts.h"
#include "cli/tpcc_conn.h"
#include "cli/tpcc_int.h"
#include "cli/tpcc_text.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "db/db.h"
#include "cli/run_record.h"
#include "result/result.h"
#include "runner/runner.h"
#include "workload/registry.h"
#include "workload/tpcc/tpcc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- run output --- */

struct run_ctx {
	const struct tp_cli *cli;
	struct tpcc_text text;
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

static void on_connected(void *arg, unsigned sessions, double seconds)
{
	const struct run_ctx *rc = arg;

	tpcc_text_connected(sessions, seconds, rc->cli->connect_concurrency);
}

static void on_closed(void *arg, unsigned sessions, double seconds)
{
	(void)arg;
	tpcc_text_closed(sessions, seconds);
}

static void on_phase_start(void *arg, enum phase_kind p, double planned)
{
	(void)arg;
	tpcc_text_phase_start(p, planned);
}

static void on_interval(void *arg, const struct interval_report *ir)
{
	struct run_ctx *rc = arg;

	if (!ir->partial && rc->cli->report_interval_ns)
		tpcc_text_interval(&rc->text, ir);
	run_record_interval(&rc->rec, ir);
}

static void on_phase_end(void *arg, const struct phase_report *pr)
{
	struct run_ctx *rc = arg;

	result_set_phase(rc->rec.res, pr);
	tpcc_text_phase(&rc->text, pr);
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
	tpcc_text_counts((unsigned long long)atomic_load(&x->skipped_districts),
			 (unsigned long long)atomic_load(&x->remote_lines), (unsigned long long)atomic_load(&x->by_name));
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

/* The run's parameters in the result: the scale, the sessions, the load's
 * shape, the C constants drawn for it, the seed and the phases. */
static void fill_params(struct result *res, const struct tp_cli *c, const struct tpcc_ctx *x, unsigned terminals,
			double factor)
{
	result_param_int(res, "warehouses", x->warehouses);
	result_param_int(res, "pad_to", (long long)x->pad_to);
	result_param_int(res, "terminals", terminals);
	result_param_int(res, "connections", c->connections);
	result_param_str(res, "sessions", c->per_terminal ? "terminals" : "pool");
	result_param_int(res, "connect_concurrency", c->connect_concurrency);
	result_param_int(res, "threads", c->connections);
	result_param_str(res, "delays", c->delays);
	result_param_double(res, "delay_factor", factor);
	result_param_str(res, "weights", c->weights);
	result_param_str(res, "dialect", tpcc_dialect_name(x->sql->dialect));
	result_param_str(res, "mode", c->mode);
	result_param_str(res, "isolation", c->isolation);
	result_param_bool(res, "tpmc_include_rollbacks", c->tpmc_rollbacks);
	{
		char per[200];
		tpcc_isolation_describe(&x->iso, per, sizeof(per));
		result_param_str(res, "isolation_per_type", per);
	}
	result_param_int(res, "c_run_c_last", x->c_run.c_last);
	result_param_int(res, "c_run_c_id", x->c_run.c_id);
	result_param_int(res, "c_run_ol_i_id", x->c_run.ol_i_id);
	result_param_int(res, "rand_seed", (long long)c->rand_seed);
	result_param_double(res, "precondition_s", (double)c->precondition_ns / 1e9);
	result_param_double(res, "time_s", (double)c->time_ns / 1e9);
	result_param_double(res, "report_interval_s", (double)c->report_interval_ns / 1e9);
}

static int do_run(const struct tp_cli *c, struct tpcc_ctx *x, const struct db_driver_ops *drv,
		  const struct db_conn_params *cp, const char *endpoint, const char *server_version, double factor,
		  const double *pct, unsigned npct)
{
	struct run_ctx rc = {.cli = c,
			     .text = {.pct = pct, .npct = npct, .mode = c->mode, .tpmc_rollbacks = c->tpmc_rollbacks,
				      .per_terminal = c->per_terminal},
			     .x = x, .drv = drv, .cp = cp,
			     .rec = {.result_path = c->run.result, .journal_path = c->run.journal}};
	struct runner_config cfg = {
		.drv = drv,
		.conn = cp,
		.wl = workload_tpcc.ops,
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
	fill_params(rc.rec.res, c, x, cfg.terminals, factor);
	result_set_percentiles(rc.rec.res, pct, npct);
	result_set_types(rc.rec.res, names, TPCC_TYPES);
	result_set_engine(rc.rec.res, drv->name, server_version, endpoint, cp->database);
	tpcc_text_banner(&rc.text, x->warehouses, cfg.terminals, c->connections, c->delays, factor,
			 tpcc_dialect_name(x->sql->dialect));
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

/* run: the database's scale and C constants, the sessions it needs, then the run itself. */
int tp_run(struct tp_cli *c, struct tpcc_ctx *x, const struct tpcc_sql *sql, const struct db_driver_ops *drv,
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
