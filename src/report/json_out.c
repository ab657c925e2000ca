/* JSON: the aggregate, "schema": "dbrig.report/1" (results readers skip it). */
#include "report/writer.h"

#include "report/leaderboard.h"
#include "report/pub_little.h"
#include "stats/hist.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Non-finite figures met while rendering: json_real() returns NULL for them,
 * and json_pack() then dropped the whole object, so report.json silently
 * lost a group's TPS and half its instances. Rendering fails instead.
 */
static unsigned nonfinite;

/* Four decimals are plenty for TPS and ms, and keep the output stable. */
static json_t *num(double v)
{
	double r = round(v * 1e4) / 1e4;

	if (!isfinite(v)) {
		nonfinite++;
		return json_null();
	}
	return json_real(isfinite(r) ? r : v);
}

static json_t *opt_num(bool has, double v)
{
	return has ? num(v) : json_null();
}

static json_t *fig_json(const struct agg_fig *f, bool with_little)
{
	json_t *o = json_object();
	json_t *types;

	json_object_set_new(o, "instances", json_integer((json_int_t)f->n));
	json_object_set_new(o, "tps_sum", num(f->tps_sum));
	json_object_set_new(o, "tps_instance_min", num(f->tps_min));
	json_object_set_new(o, "tps_instance_max", num(f->tps_max));
	json_object_set_new(o, "avg_latency_ms_mean_of_instances", num(f->avg_ms_mean));
	json_object_set_new(o, "avg_latency_ms_pooled", num(f->avg_ms_pooled));
	json_object_set_new(o, "p99_ms_mean_of_instance_p99s", opt_num(f->n_p99 > 0, f->p99_mean_of_instances_ms));
	json_object_set_new(o, "p99_ms_pooled", opt_num(f->has_pooled_p99, f->p99_pooled_ms));
	json_object_set_new(o, "max_latency_ms", num(f->max_ms));
	json_object_set_new(o, "seconds_min", num(f->seconds_min));
	json_object_set_new(o, "seconds_max", num(f->seconds_max));
	json_object_set_new(o, "transactions", json_integer((json_int_t)f->transactions));
	json_object_set_new(o, "errors", json_pack("{s:I, s:I, s:I}", "retried", (json_int_t)f->retried,
						   "reconnects", (json_int_t)f->reconnects, "fatal", (json_int_t)f->fatal));
	json_object_set_new(o, "threads_sum", json_integer((json_int_t)f->threads_sum));
	if (with_little)
		json_object_set_new(o, "little", json_pack("{s:o, s:o, s:s}", "predicted_ms", num(f->little_pred_ms),
							   "deviation", num(f->little_dev), "check", little_state_name(f->little)));
	if (f->has_tpmc)
		json_object_set_new(o, "tpmc", num(f->tpmc));
	types = json_object();
	for (size_t i = 0; i < f->ntypes; i++) {
		const struct agg_type *t = &f->types[i];
		json_object_set_new(types, t->name, json_pack("{s:I, s:o, s:o, s:o}", "count", (json_int_t)t->count,
							     "avg_ms_pooled", num(t->avg_ms),
							     "p99_ms_mean_of_instance_p99s", num(t->p99_mean_of_instances_ms),
							     "max_ms", num(t->max_ms)));
	}
	json_object_set_new(o, "types", types);
	return o;
}

static json_t *spread_json(const struct spread *s)
{
	json_t *o = json_pack("{s:o, s:o, s:o}", "mean", num(s->mean), "min", num(s->min), "max", num(s->max));

	/* From two repetitions on: sample sd and the 95% CI of the mean (Student's t). */
	json_object_set_new(o, "sd", s->ci.has_ci ? num(s->ci.sd) : json_null());
	json_object_set_new(o, "ci95", s->ci.has_ci ? json_pack("[o, o]", num(s->ci.lo), num(s->ci.hi)) : json_null());
	return o;
}

static json_t *steady_json(enum steady_state st, const struct steady_result *r)
{
	json_t *o = json_pack("{s:s, s:I}", "state", steady_state_key(st), "rounds", (json_int_t)(r ? r->rounds : 0));

	if (r && r->state != STEADY_NA) {
		json_object_set_new(o, "mean_tps", num(r->mean));
		json_object_set_new(o, "excursion", num(r->excursion));
		json_object_set_new(o, "slope_excursion", num(r->slope_excursion));
	}
	return o;
}

static json_t *dev_json(const struct tel_dev *d)
{
	return json_pack("{s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name", d->name,
			 "filesystem", d->top, "r_iops", num(d->r_iops), "w_iops", num(d->w_iops), "f_iops", num(d->f_iops),
			 "r_mbps", num(d->r_mbps), "w_mbps", num(d->w_mbps), "r_await_ms", num(d->r_await_ms),
			 "w_await_ms", num(d->w_await_ms), "f_await_ms", num(d->f_await_ms), "await_ms", num(d->await_ms),
			 "queue_depth", num(d->queue_depth), "util", d->has_util ? num(d->util) : json_null());
}

/* The bottleneck, the rule's explanation and the figures it used. */
static json_t *verdict_json(bool has, const struct verdict_in *in, const struct verdict *v, const struct tel_dev *d)
{
	char why[300];
	json_t *o;

	if (!has)
		return json_null();
	verdict_explain(in, v, why, sizeof(why));
	o = json_pack("{s:s, s:s, s:b, s:o, s:o, s:o, s:o, s:o}", "bottleneck", bottleneck_name(v->bottleneck),
			 "why", why, "driver_saturated", v->driver.saturated,
			 "host_cpu_busy", in->has_host_cpu ? num(in->host_cpu_busy) : json_null(),
			 "guest_cpu_busy", in->has_guest_cpu ? num(in->guest_cpu_busy) : json_null(),
			 "driver_cores_per_loop", in->has_driver_cpu ? num(v->driver.per_loop) : json_null(),
			 "conn_wait", in->has_conn_wait ? num(in->conn_wait_share) : json_null(),
			 "device", d ? dev_json(d) : json_null());
	/* Where the host CPU was read, where the result says (older results: absent). */
	if (in->has_host_cpu && in->host_cpu_src)
		json_object_set_new(o, "host_cpu_source", json_string(in->host_cpu_src));
	/* The waiting on block I/O, where a result measured it (older results: absent). */
	if (in->has_io_wait)
		json_object_set_new(o, "io_wait", json_pack("{s:o, s:s}", "share", num(in->io_wait), "source",
							     io_wait_source_name(in->io_wait_src)));
	else if (in->io_wait_off)
		json_object_set_new(o, "io_wait", json_pack("{s:n, s:s}", "share", "source", "delay accounting off"));
	return o;
}

static json_t *welch_json(const struct ci_welch *w)
{
	return w->valid ? json_pack("{s:o, s:o, s:f, s:b}", "t", num(w->t), "df", num(w->df), "p", w->p, "significant",
				    w->significant) : json_null();
}

static json_t *ratio_ci_json(const struct ci_ratio *r)
{
	return r->valid ? json_pack("[o, o]", num(r->lo), num(r->hi)) : json_null();
}

static json_t *cmp_json(const struct report *rep, const struct agg_cmp *c)
{
	const struct agg_group *a = &rep->groups[c->faster], *b = &rep->groups[c->slower];
	json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:I}", "run_group", a->run_group, "faster", a->drive,
			      "slower", b->drive, "faster_rank", (json_int_t)a->rank, "slower_rank", (json_int_t)b->rank);

	json_object_set_new(o, "tps_ratio", num(c->ratio.ratio));
	json_object_set_new(o, "tps_ratio_ci95", c->ratio.valid ? json_pack("[o, o]", num(c->ratio.lo),
									    num(c->ratio.hi)) : json_null());
	json_object_set_new(o, "welch", welch_json(&c->welch));
	/* The published latencies, faster / slower: below 1, the faster drive waits less. */
	json_object_set_new(o, "avg_ratio", num(c->avg_ratio.ratio));
	json_object_set_new(o, "avg_ratio_ci95", ratio_ci_json(&c->avg_ratio));
	json_object_set_new(o, "avg_welch", welch_json(&c->avg_welch));
	json_object_set_new(o, "p99_ratio", c->has_p99 ? num(c->p99_ratio.ratio) : json_null());
	json_object_set_new(o, "p99_ratio_ci95", c->has_p99 ? ratio_ci_json(&c->p99_ratio) : json_null());
	json_object_set_new(o, "p99_welch", c->has_p99 ? welch_json(&c->p99_welch) : json_null());
	return o;
}

static json_t *group_json(const struct agg_group *g)
{
	json_t *o = json_object(), *reps = json_array(), *refs = json_array(), *paths;
	bool pooled = g->nreps > 0;

	for (size_t k = 0; k < g->nreps; k++)
		pooled &= g->reps[k].sample.has_pooled_p99;

	json_object_set_new(o, "key", json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:s}", "campaign", g->campaign,
						"run_group", g->run_group, "drive", g->drive, "workload", g->kind,
						"test", g->test, "vm_count", (json_int_t)g->vm_count, "params", g->params));
	if (*g->run_id) {
		json_object_set_new(json_object_get(o, "key"), "run_id", json_string(g->run_id));
		json_object_set_new(json_object_get(o, "key"), "run_started", json_string(g->run_started));
	}
	json_object_set_new(o, "label", json_string(g->label));
	json_object_set_new(o, "all_drives", json_boolean(g->all_drives));
	json_object_set_new(o, "slice", json_boolean(g->slice));
	json_object_set_new(o, "rank", g->rank ? json_integer((json_int_t)g->rank) : json_null());
	json_object_set_new(o, "steady_state", json_pack("{s:o, s:o}",
		"precondition", steady_json(g->pre_steady, agg_group_steady(g, RESULT_PHASE_PRECONDITION)),
		"sample", steady_json(g->sample_steady, agg_group_steady(g, RESULT_PHASE_SAMPLE))));
	json_object_set_new(o, "verdict", verdict_json(g->has_verdict, &g->vin, &g->verdict, g->dev));
	json_object_set_new(o, "drives", json_integer((json_int_t)g->ndrives));
	json_object_set_new(o, "runs", json_integer((json_int_t)g->n_runs));
	json_object_set_new(o, "complete_runs", json_integer((json_int_t)g->n_complete));
	json_object_set_new(o, "status", json_string(g->incomplete ? "incomplete" : "complete"));
	json_object_set_new(o, "over_repetitions", json_pack("{s:I, s:o, s:o, s:o, s:o, s:o}",
		"repetitions", (json_int_t)g->nreps, "tps_sum", spread_json(&g->tps),
		"avg_latency_ms_mean_of_instances", spread_json(&g->avg_ms_mean),
		"avg_latency_ms_pooled", spread_json(&g->avg_ms_pooled),
		"p99_ms_mean_of_instance_p99s", g->has_p99_mean ? spread_json(&g->p99_mean) : json_null(),
		"p99_ms_pooled", pooled ? spread_json(&g->p99_pooled) : json_null()));
	json_object_set_new(o, "little", json_pack("{s:s, s:o}", "check", little_state_name(g->little),
						   "largest_deviation", num(g->little_dev)));
	for (size_t k = 0; k < g->nreps; k++) {
		const struct agg_rep *r = &g->reps[k];
		paths = json_array();
		for (size_t i = 0; i < r->n; i++)
			json_array_append_new(paths, json_string(r->runs[i]->path));
		json_array_append_new(reps, json_pack("{s:I, s:o, s:o, s:o}", "repetition", (json_int_t)r->repetition,
						      "results", paths, "sample", fig_json(&r->sample, true),
						      "precondition", r->pre.n ? fig_json(&r->pre, false) : json_null()));
	}
	json_object_set_new(o, "repetitions", reps);
	for (size_t k = 0; k < g->nrefs; k++)
		json_array_append_new(refs, json_pack("{s:s, s:s}", "file", g->refs[k]->review->file,
						      "label", g->refs[k]->label));
	json_object_set_new(o, "published", refs);
	return o;
}

static json_t *phase_json(const struct phase_stat *p)
{
	if (!p->present)
		return json_null();
	return json_pack("{s:b, s:o, s:I, s:I, s:o, s:o, s:o, s:o, s:b, s:I, s:I, s:I}",
			 "complete", p->complete, "seconds", num(p->seconds), "threads", (json_int_t)p->threads,
			 "transactions", (json_int_t)p->transactions, "tps", num(p->tps),
			 "avg_latency_ms", num(p->lat_avg_ms), "p99_ms", opt_num(p->has_p99, p->p99_ms),
			 "max_latency_ms", num(p->lat_max_ms), "latency_from_buckets", p->lat_approx,
			 "retried", (json_int_t)p->err_ignored, "reconnects", (json_int_t)p->err_reconnects,
			 "fatal", (json_int_t)p->err_fatal);
}

/* st: the run's steady-state and bottleneck verdicts, NULL for a superseded attempt. */
static json_t *run_json(const struct run *r, const struct run_verdict *st)
{
	return json_pack("{s:s, s:o, s:s, s:s, s:b, s:s, s:s, s:s, s:s, s:I, s:I, s:s, s:s, s:s, s:o, s:o, s:o, "
			 "s:o, s:o}",
			 "path", r->path, "journal", r->journal ? json_string(r->journal) : json_null(),
			 "status", run_status_name(r->status), "error", r->error ? r->error : "",
			 "complete", run_is_complete(r), "campaign", r->campaign, "run_group", r->run_group,
			 "drive", r->drive, "instance", r->instance, "vm_count", (json_int_t)r->vm_count,
			 "repetition", (json_int_t)r->repetition, "workload", r->kind, "test", r->test,
			 "params", r->params, "sample", phase_json(&r->sample), "precondition", phase_json(&r->pre),
			 "steady_state", st ? json_pack("{s:o, s:o}", "precondition", steady_json(st->pre.state, &st->pre),
							"sample", steady_json(st->sample.state, &st->sample)) : json_null(),
			 "verdict", st ? verdict_json(st->has_verdict, &st->vin, &st->verdict, st->dev) : json_null(),
			 "block_devices", r->drive_stack ? json_string(r->drive_stack) : json_null());
}

static json_t *pub_little_json(const struct pub_result *p)
{
	struct pub_little l;

	pub_little(p, &l);
	switch (l.kind) {
	case PUB_LITTLE_UNKNOWN:
		return json_pack("{s:s, s:s}", "loop", "unknown", "check", pub_little_check_name(l.check));
	case PUB_LITTLE_CLOSED:
		return json_pack("{s:s, s:s, s:I, s:o, s:o, s:o}", "loop", "closed", "check", pub_little_check_name(l.check),
				 "clients", (json_int_t)l.clients, "implied_latency_ms", num(l.implied_ms),
				 "deviation", num(l.deviation), "rounding_ms", num(l.rounding_ms));
	case PUB_LITTLE_THINK:
		return json_pack("{s:s, s:s, s:I, s:o, s:o}", "loop", "think_time", "check", pub_little_check_name(l.check),
				 "clients", (json_int_t)l.clients, "cycle_s", num(l.cycle_s),
				 "in_flight_per_vm", num(l.in_flight_per_vm));
	}
	return json_null();
}

static json_t *pub_json(const struct pub_review *rv)
{
	json_t *res = json_array();

	for (size_t k = 0; k < rv->nresults; k++) {
		const struct pub_result *p = &rv->results[k];
		json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:s, s:o}",
						     "label", p->label, "workload", p->kind, "test", p->test,
						     "vm_count", (json_int_t)p->vm_count, "drives", (json_int_t)p->drives,
						     "threads_per_vm", p->threads_per_vm ? json_integer(p->threads_per_vm) : json_null(),
						     "users_per_vm", p->users_per_vm ? json_integer(p->users_per_vm) : json_null(),
						     "tps", num(p->tps), "avg_latency_ms", num(p->avg_ms),
						     "p99_latency_ms", opt_num(p->has_p99, p->p99_ms), "method", p->method,
						     "little", pub_little_json(p));
		lb_row_json(p, o); /* report/lb_render.c */
		json_array_append_new(res, o);
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o}", "file", rv->file, "drive", rv->drive,
			 "platform", rv->platform, "publisher", rv->publisher, "title", rv->title, "results", res,
			 "incomplete", lb_incomplete_json(rv));
}

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

/* "format=raw allocation=full": the value of one key, as a JSON string, or null. */
static json_t *storage_key(const char *st, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = st; p && *p;) {
		size_t n;
		while (*p == ' ' || *p == ';')
			p++;
		n = strcspn(p, " ;");
		if (n > kl && !strncmp(p, key, kl) && p[kl] == '=')
			return json_stringn(p + kl + 1, n - kl - 1);
		p += n;
	}
	return json_null();
}

/* The test bed of report.md and report.html, as data (report_bed_build). */
static json_t *test_bed_json(const struct report *rep)
{
	struct report_bed bed;
	json_t *o, *runs = json_array(), *drives = json_array(), *host = json_null();

	report_bed_build(rep, &bed);
	for (size_t k = 0; k < bed.nruns; k++)
		json_array_append_new(runs, json_pack("{s:s, s:o}", "run_id", bed.runs[k]->run_id, "run_started",
						      str_or_null(bed.runs[k]->run_started)));
	if (bed.hostid)
		host = json_pack("{s:o, s:I, s:I, s:o}", "cpu_model", str_or_null(bed.hostid->cpu_model), "cpus",
				 (json_int_t)bed.hostid->cpus, "ram_bytes", (json_int_t)bed.hostid->ram_bytes, "kernel",
				 str_or_null(bed.hostid->kernel));
	for (size_t d = 0; d < bed.ndrives; d++) {
		const struct report_bed_drive *bd = &bed.drives[d];
		json_t *ids = json_array();

		for (size_t k = 0; bd->run && k < bd->run->ndrive_ids; k++) {
			const struct drive_id *id = &bd->run->drive_ids[k].id;
			json_array_append_new(ids, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "dev", id->dev, "model",
							     str_or_null(id->model), "serial", str_or_null(id->serial),
							     "firmware", str_or_null(id->firmware), "size_bytes",
							     id->size_bytes ? json_integer((json_int_t)id->size_bytes) : json_null(),
							     "logical_block", id->logical_block ? json_integer(id->logical_block) : json_null(),
							     "physical_block",
							     id->physical_block ? json_integer(id->physical_block) : json_null()));
		}
		json_array_append_new(drives, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "drive", bd->name, "devices", ids,
							"block_devices", str_or_null(bd->stack), "storage",
							str_or_null(bd->storage_raw), "format", storage_key(bd->storage_raw, "format"),
							"allocation", storage_key(bd->storage_raw, "allocation")));
	}
	o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "campaign", str_or_null(bed.campaign), "runs", runs,
		      "first_started", str_or_null(bed.first), "last_finished", str_or_null(bed.last), "dbrig",
		      str_or_null(bed.tool), "engine", str_or_null(bed.engine), "host", host, "drives", drives);
	report_bed_release(&bed);
	return o;
}

static void headline_json(void *ctx, const char *lead, const char *text, bool warn)
{
	json_array_append_new(ctx, json_pack("{s:s, s:s, s:b}", "run_group", lead, "text", text, "warn", warn));
}

static int json_render(const struct report *rep, struct report_files *out)
{
	json_t *root = json_object(), *a;
	char *text = NULL;
	int ret = -ENOMEM;

	nonfinite = 0;

	json_object_set_new(root, "schema", json_string("dbrig.report/1"));
	json_object_set_new(root, "drive", rep->drive ? json_string(rep->drive) : json_null());
	json_object_set_new(root, "steady_window", json_integer((json_int_t)rep->steady_window));
	json_object_set_new(root, "test_bed", test_bed_json(rep));
	a = json_array();
	report_headlines(rep, headline_json, a);
	json_object_set_new(root, "headline", a);
	a = json_array();
	for (size_t i = 0; i < rep->ngroups; i++)
		json_array_append_new(a, group_json(&rep->groups[i]));
	json_object_set_new(root, "groups", a);
	a = json_array();
	for (size_t i = 0; i < rep->runs->n; i++)
		json_array_append_new(a, run_json(rep->runs->runs[i], &rep->rv[i]));
	json_object_set_new(root, "instances", a);
	/* Cut-off attempts kept by `campaign --resume`: history, in no group (no verdicts: NULL). */
	a = json_array();
	for (size_t i = 0; i < rep->runs->nsuperseded; i++)
		json_array_append_new(a, run_json(rep->runs->superseded[i], NULL));
	json_object_set_new(root, "superseded", a);
	a = json_array();
	for (size_t i = 0; i < rep->ncmps; i++)
		json_array_append_new(a, cmp_json(rep, &rep->cmps[i]));
	json_object_set_new(root, "comparisons", a);
	a = json_array();
	for (size_t i = 0; rep->pub && i < rep->pub->n; i++)
		json_array_append_new(a, pub_json(&rep->pub->reviews[i]));
	json_object_set_new(root, "published", a);
	json_object_set_new(root, "leaderboard", lb_json(rep)); /* report/lb_render.c */
	a = json_array();
	for (size_t i = 0; i < rep->nwarnings; i++)
		json_array_append_new(a, json_string(rep->warnings[i]));
	json_object_set_new(root, "warnings", a);
	if (nonfinite) {
		ret = -ERANGE;
		goto out;
	}
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (!text)
		goto out;
	strbuf_adds(report_files_add(out, "report.json"), text);
	strbuf_addc(&out->v[out->n - 1].body, '\n');
	ret = 0;
out:
	free(text);
	json_decref(root);
	return ret;
}

const struct report_writer_ops report_json_ops = {
	.name = "json",
	.summary = "report.json: the aggregate (schema dbrig.report/1)",
	.render = json_render,
};
