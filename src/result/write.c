#include "result/result.h"

#include "core/clock.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/version.h"
#include "runner/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct result {
	json_t *root;
	json_t *params;
	json_t *counts;    /* what the workload counted (not a setting: never splits a group) */
	json_t *phases;
	json_t *intervals;
	double pct[16];
	unsigned npct;
	const char *const *type_names;
	unsigned ntypes;
	bool fault_open;   /* the last interval was marked and nothing committed since */
};

void percentile_key(double p, char *buf, unsigned n)
{
	if (p == floor(p))
		snprintf(buf, n, "%.0f", p);
	else
		snprintf(buf, n, "%g", p);
}

static double ms(double ns)
{
	return ns / 1e6;
}

/* Round to 3 decimals (microseconds when in ms) so files stay readable. */
static json_t *num3(double v)
{
	return json_real(round(v * 1000.0) / 1000.0);
}

int result_new(struct result **out, const char *kind, const char *test)
{
	struct result *r = xcalloc(1, sizeof(*r));
	char ts[32];

	clock_utc_iso8601(ts, sizeof(ts));
	r->root = json_object();
	r->params = json_object();
	r->counts = json_object();
	r->phases = json_object();
	r->intervals = json_array();
	if (!r->root || !r->params || !r->counts || !r->phases || !r->intervals) {
		result_free(r);
		return -ENOMEM;
	}
	json_object_set_new(r->root, "schema", json_string(RESULT_SCHEMA));
	json_object_set_new(r->root, "tool", json_pack("{s:s, s:s}", "name", "dbrig", "version", DBRIG_VERSION));
	json_object_set_new(r->root, "status", json_string("running"));
	json_object_set_new(r->root, "error", json_null());
	json_object_set_new(r->root, "started_at", json_string(ts));
	json_object_set_new(r->root, "run", json_pack("{s:s, s:s, s:s, s:s, s:i, s:i}", "campaign", "", "run_group", "",
						      "drive", "", "instance", "", "vm_count", 1, "repetition", 1));
	json_object_set_new(r->root, "workload",
			    json_pack("{s:s, s:s, s:O, s:O}", "kind", kind, "test", test, "params", r->params,
				      "counts", r->counts));
	json_object_set_new(r->root, "engine", json_object());
	json_object_set_new(r->root, "percentiles", json_array());
	json_object_set(r->root, "phases", r->phases);
	json_object_set_new(r->phases, "precondition", json_null());
	json_object_set_new(r->phases, "sample", json_null());
	json_object_set(r->root, "intervals", r->intervals);
	*out = r;
	return 0;
}

void result_free(struct result *r)
{
	if (!r)
		return;
	json_decref(r->params);
	json_decref(r->counts);
	json_decref(r->phases);
	json_decref(r->intervals);
	json_decref(r->root);
	free(r);
}

void result_set_run(struct result *r, const struct run_identity *id)
{
	json_object_set_new(r->root, "run",
			    json_pack("{s:s, s:s, s:s, s:s, s:i, s:i}", "campaign", id->campaign ? id->campaign : "",
				      "run_group", id->run_group ? id->run_group : "", "drive", id->drive ? id->drive : "",
				      "instance", id->instance ? id->instance : "", "vm_count", (int)id->vm_count,
				      "repetition", (int)id->repetition));
	if (id->steady_window)
		json_object_set_new(json_object_get(r->root, "run"), "steady_window",
				    json_integer((json_int_t)id->steady_window));
	if (id->golden && *id->golden)
		json_object_set_new(json_object_get(r->root, "run"), "golden", json_string(id->golden));
	if (id->run_id && *id->run_id)
		json_object_set_new(json_object_get(r->root, "run"), "run_id", json_string(id->run_id));
	if (id->run_started && *id->run_started)
		json_object_set_new(json_object_get(r->root, "run"), "run_started", json_string(id->run_started));
	if (id->storage && *id->storage)
		json_object_set_new(json_object_get(r->root, "run"), "storage", json_string(id->storage));
}

void result_param_int(struct result *r, const char *key, long long v)
{
	json_object_set_new(r->params, key, json_integer(v));
}

void result_count_int(struct result *r, const char *key, long long v)
{
	json_object_set_new(r->counts, key, json_integer(v));
}

void result_param_double(struct result *r, const char *key, double v)
{
	json_object_set_new(r->params, key, json_real(v));
}

void result_param_bool(struct result *r, const char *key, bool v)
{
	json_object_set_new(r->params, key, json_boolean(v));
}

void result_param_str(struct result *r, const char *key, const char *v)
{
	json_object_set_new(r->params, key, v ? json_string(v) : json_null());
}

void result_set_engine(struct result *r, const char *driver, const char *server_version, const char *endpoint,
		       const char *database)
{
	json_object_set_new(r->root, "engine",
			    json_pack("{s:s, s:s?, s:s?, s:s?}", "driver", driver, "server_version", server_version,
				      "endpoint", endpoint, "database", database));
}

void result_set_driver(struct result *r, unsigned loops, bool blocking, uint64_t start_ns)
{
	json_object_set_new(r->root, "driver", json_pack("{s:I, s:b, s:I}", "event_loops", (json_int_t)loops, "blocking",
							 blocking, "clock_start_ns", (json_int_t)start_ns));
}

void result_set_outage(struct result *r, uint64_t outage_ns, uint64_t sample_ns)
{
	json_object_set_new(r->root, "outage",
			    json_pack("{s:f, s:f, s:f}", "seconds", round((double)outage_ns / 1e6) / 1e3, "share",
				      sample_ns ? round(1e4 * (double)outage_ns / (double)sample_ns) / 1e4 : 0.0,
				      "degraded_above", RUNNER_DEGRADED_SHARE));
}

void result_set_engine_settings(struct result *r, const char *const *names, const char *const *values, unsigned n)
{
	json_t *o = json_object();

	for (unsigned i = 0; i < n; i++)
		json_object_set_new(o, names[i], json_string(values[i]));
	json_object_set_new(json_object_get(r->root, "engine"), "settings", o);
}

void result_set_percentiles(struct result *r, const double *p, unsigned n)
{
	json_t *a = json_array();

	r->npct = 0;
	for (unsigned i = 0; i < n && i < 16; i++) {
		r->pct[r->npct++] = p[i];
		json_array_append_new(a, p[i] == floor(p[i]) ? json_integer((json_int_t)p[i]) : json_real(p[i]));
	}
	json_object_set_new(r->root, "percentiles", a);
}

void result_set_types(struct result *r, const char *const *names, unsigned n)
{
	r->type_names = names;
	r->ntypes = n;
}

void result_set_consistency(struct result *r, const char *when, const struct result_check_cond *conds, unsigned n,
			    const char *const *table_names, const long long *rows, unsigned ntables)
{
	json_t *all = json_object_get(r->root, "consistency");
	json_t *o = json_object(), *rw = json_object(), *cs = json_array();
	bool ok = true;
	char clause[16];

	if (!all) {
		all = json_object();
		json_object_set_new(r->root, "consistency", all);
	}
	for (unsigned i = 0; i < ntables; i++)
		json_object_set_new(rw, table_names[i], json_integer(rows[i]));
	for (unsigned i = 0; i < n; i++) {
		snprintf(clause, sizeof(clause), "3.3.2.%u", conds[i].number);
		json_array_append_new(cs, json_pack("{s:i, s:s, s:s, s:b, s:I, s:I, s:s}", "condition", (int)conds[i].number,
						    "clause", clause, "text", conds[i].text, "applies", conds[i].applies,
						    "bad", (json_int_t)conds[i].bad, "checked",
						    (json_int_t)conds[i].checked, "unit", conds[i].unit));
		if (conds[i].applies && conds[i].bad)
			ok = false;
	}
	json_object_set_new(o, "ok", json_boolean(ok));
	json_object_set_new(o, "rows", rw);
	json_object_set_new(o, "conditions", cs);
	json_object_set_new(all, when, o);
}

static json_t *hist_json(const struct hist *h, bool full)
{
	json_t *counts = json_array();
	size_t cursor = 0, idx;
	uint64_t cnt;

	while (hist_next_bucket(h, &cursor, &idx, &cnt))
		json_array_append_new(counts, json_pack("[I, I]", (json_int_t)idx, (json_int_t)cnt));
	if (!full)
		return json_pack("{s:o}", "counts", counts);
	return json_pack("{s:s, s:o, s:I, s:I, s:I, s:I, s:f}", "layout", "loglin-ns-7", "counts", counts, "total",
			 (json_int_t)h->total, "overflow", (json_int_t)h->overflow, "min_ns",
			 (json_int_t)(h->total ? h->min : 0), "max_ns", (json_int_t)h->max, "sum_ns", (double)h->sum);
}

static json_t *percentiles_json(const struct result *r, const struct hist *h)
{
	json_t *o = json_object();
	char key[32];

	for (unsigned i = 0; i < r->npct; i++) {
		percentile_key(r->pct[i], key, sizeof(key));
		json_object_set_new(o, key, num3(ms((double)hist_value_at_percentile(h, r->pct[i]))));
	}
	return o;
}

void result_add_interval(struct result *r, const struct interval_report *ir, char **line)
{
	const struct counters *c = &ir->s->c;
	double sec = ir->seconds > 0 ? ir->seconds : 1;
	json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:b, s:i, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			      "type", "interval", "phase", phase_name(ir->phase), "t", num3(ir->t), "phase_t",
			      num3(ir->phase_t), "seconds", num3(ir->seconds), "partial", ir->partial, "threads",
			      (int)ir->threads, "transactions", (json_int_t)c->events, "tps",
			      num3((double)c->events / sec), "qps",
			      num3((double)(c->reads + c->writes + c->others) / sec), "reads",
			      num3((double)c->reads / sec), "writes", num3((double)c->writes / sec), "other",
			      num3((double)c->others / sec), "err_s", num3((double)c->errors / sec), "reconn_s",
			      num3((double)c->reconnects / sec));

	json_object_set_new(o, "errors", json_integer((json_int_t)c->errors));
	json_object_set_new(o, "reconnects", json_integer((json_int_t)c->reconnects));
	json_object_set_new(o, "cpu_s", num3(ir->cpu_s));
	/* An interval is marked when a transaction attempt failed in it (retried
	 * error or lost connection), and so is every following interval that
	 * committed nothing: the outage while the server was away. */
	r->fault_open = c->errors > 0 || c->reconnects > 0 || (r->fault_open && c->events == 0);
	json_object_set_new(o, "faults", json_boolean(r->fault_open));
	json_object_set_new(o, "lat_ms", percentiles_json(r, ir->s->lat));
	json_object_set_new(o, "avg_ms", num3(ms(hist_mean(ir->s->lat))));
	if (ir->pools) {
		json_object_set_new(o, "wait_avg_ms", num3(ms(hist_mean(ir->s->wait))));
		json_object_set_new(o, "queued_share", json_real(ir->queued_share));
	}
	json_array_append(r->intervals, o);
	if (line) {
		json_t *jl = json_deep_copy(o);
		json_object_set_new(jl, "histogram", hist_json(ir->s->lat, false));
		*line = json_dumps(jl, JSON_COMPACT | JSON_REAL_PRECISION(12));
		json_decref(jl);
	}
	json_decref(o);
}

static double mean_of(const double *v, unsigned n)
{
	double s = 0;

	for (unsigned i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : 0;
}

static double stddev_of(const double *v, unsigned n)
{
	double m = mean_of(v, n), s = 0;

	for (unsigned i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return n ? sqrt(s / n) : 0;
}

/* Terminals: how long transactions waited for a connection, apart from
 * their service time, and whether the pool capped the load. */
static json_t *conn_wait_json(const struct phase_report *pr)
{
	const struct hist *w = pr->s->wait, *h = pr->s->lat;

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:b, s:o}", "avg_ms", num3(ms(hist_mean(w))), "p90_ms",
			 num3(ms((double)hist_value_at_percentile(w, 90))), "p99_ms",
			 num3(ms((double)hist_value_at_percentile(w, 99))), "max_ms", num3(ms((double)w->max)),
			 "service_avg_ms", num3(ms(hist_mean(h) - hist_mean(w))), "pools", (json_int_t)pr->pools,
			 "queued_share", json_real(pr->queued_share), "pool_capped", pr->pool_capped, "capped_above",
			 json_real(RUNNER_POOL_CAPPED_SHARE));
}

void result_set_phase(struct result *r, const struct phase_report *pr)
{
	const struct span_stats *s = pr->s;
	const struct counters *c = &s->c;
	const struct hist *h = s->lat;
	double sec = pr->seconds > 0 ? pr->seconds : 1;
	uint64_t q = c->reads + c->writes + c->others;
	double *ev = xcalloc(pr->threads ? pr->threads : 1, sizeof(double));
	json_t *types = json_object();
	json_t *o;

	for (unsigned i = 0; i < pr->threads; i++)
		ev[i] = (double)pr->session_events[i];
	o = json_pack("{s:s, s:b, s:o, s:i, s:I, s:I, s:o, s:{s:I, s:I, s:I, s:I}, s:o, s:{s:I, s:I, s:i}}", "name",
		      phase_name(pr->phase), "complete", pr->complete, "seconds", num3(pr->seconds), "threads",
		      (int)pr->threads, "transactions", (json_int_t)c->events, "rollbacks", (json_int_t)c->rollbacks,
		      "tps", num3((double)c->events / sec), "queries", "read", (json_int_t)c->reads, "write",
		      (json_int_t)c->writes, "other", (json_int_t)c->others, "total", (json_int_t)q, "qps",
		      num3((double)q / sec), "errors", "ignored", (json_int_t)c->errors, "reconnects",
		      (json_int_t)c->reconnects, "fatal", 0);
	{
		json_t *errs = json_object_get(o, "errors"), *by = json_object();
		for (unsigned k = 0; k < DB_RETRY_KINDS; k++)
			json_object_set_new(by, db_retry_kind_name((enum db_retry_kind)k),
					    json_integer((json_int_t)s->retry_kind[k]));
		json_object_set_new(errs, "retried", json_integer((json_int_t)c->errors));
		json_object_set_new(errs, "retried_by_class", by);
	}
	json_object_set_new(o, "round_trips",
			    json_pack("{s:I, s:o}", "total", (json_int_t)s->round_trips, "per_transaction",
				      num3(c->events ? (double)s->round_trips / (double)c->events : 0)));
	json_object_set_new(o, "latency_ms",
			    json_pack("{s:o, s:o, s:o, s:o, s:o}", "min", num3(ms(h->total ? (double)h->min : 0)), "avg",
				      num3(ms(hist_mean(h))), "max", num3(ms((double)h->max)), "sum",
				      num3(ms((double)h->sum)), "percentiles", percentiles_json(r, h)));
	json_object_set_new(o, "histogram", hist_json(h, true));
	json_object_set_new(o, "cpu", json_pack("{s:o, s:o}", "seconds", num3(pr->cpu_s), "cores",
						num3(pr->cpu_s / sec)));
	json_object_set_new(o, "fairness",
			    json_pack("{s:o, s:o, s:o, s:o}", "events_avg", num3(mean_of(ev, pr->threads)),
				      "events_stddev", num3(stddev_of(ev, pr->threads)), "time_avg_s",
				      num3(mean_of(pr->session_seconds, pr->threads)), "time_stddev_s",
				      num3(stddev_of(pr->session_seconds, pr->threads))));
	if (pr->pools)
		json_object_set_new(o, "conn_wait", conn_wait_json(pr));
	for (unsigned t = 0; t < (r->ntypes ? r->ntypes : 1); t++) {
		const struct hist *th = r->ntypes > 1 ? s->type_lat[t] : h;
		const char *name = r->ntypes ? r->type_names[t] : "all";
		json_t *to;
		if (!th)
			continue;
		to = json_pack("{s:I, s:o, s:o, s:o, s:o, s:I}", "count", (json_int_t)th->total, "avg_ms",
			       num3(ms(hist_mean(th))), "p90_ms", num3(ms((double)hist_value_at_percentile(th, 90))),
			       "p99_ms", num3(ms((double)hist_value_at_percentile(th, 99))), "max_ms",
			       num3(ms((double)th->max)), "retries",
			       (json_int_t)(r->ntypes > 1 ? s->type_retries[t] : c->errors));
		uint64_t trt = r->ntypes > 1 ? s->type_rt[t] : s->round_trips;
		json_object_set_new(to, "round_trips_per_txn", num3(th->total ? (double)trt / (double)th->total : 0));
		if (pr->pools) {
			uint64_t wsum = r->ntypes > 1 ? s->type_wait_ns[t] : (uint64_t)s->wait->sum;
			double wavg = th->total ? (double)wsum / (double)th->total : 0;
			json_object_set_new(to, "wait_avg_ms", num3(ms(wavg)));
			json_object_set_new(to, "service_avg_ms", num3(ms(hist_mean(th) - wavg)));
		}
		json_object_set_new(types, name, to);
	}
	json_object_set_new(o, "types", types);
	json_object_set_new(r->phases, phase_name(pr->phase), o);
	free(ev);
}

void result_intervals_in_journal(struct result *r, const char *name)
{
	json_object_del(r->root, "intervals");
	json_object_set_new(r->root, "journal", json_string(name));
}

bool result_journal_beside(const char *result_path, const char *journal_path)
{
	size_t n = strlen(result_path);

	return n > 5 && !strcmp(result_path + n - 5, ".json") && strlen(journal_path) == n + 1 &&
	       !strncmp(journal_path, result_path, n) && journal_path[n] == 'l';
}

int result_write(struct result *r, const char *path, const char *status, const char *error)
{
	char ts[32];
	char *text;
	int ret;

	clock_utc_iso8601(ts, sizeof(ts));
	json_object_set_new(r->root, "status", json_string(status));
	json_object_set_new(r->root, "error", error ? json_string(error) : json_null());
	json_object_set_new(r->root, "finished_at", json_string(ts));
	text = json_dumps(r->root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (!text)
		return -ENOMEM;
	size_t len = strlen(text);
	text = xrealloc(text, len + 2);
	text[len] = '\n';
	text[len + 1] = '\0';
	ret = atomic_write_file(path, text, len + 1);
	free(text);
	return ret;
}

char *result_journal_header(const struct result *r)
{
	json_t *hdr;
	char *line;

	hdr = json_pack("{s:s, s:s, s:O, s:O, s:O, s:O, s:O}", "type", "header", "schema", JOURNAL_SCHEMA, "started_at",
			json_object_get(r->root, "started_at"), "run", json_object_get(r->root, "run"), "workload",
			json_object_get(r->root, "workload"), "engine", json_object_get(r->root, "engine"),
			"percentiles", json_object_get(r->root, "percentiles"));
	line = json_dumps(hdr, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	json_decref(hdr);
	return line;
}
