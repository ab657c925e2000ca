/* CSV: report-groups.csv (one row per drive x run group), report-instances.csv and
 * report-compare.csv (neighbouring drives of a run group). */
#include "report/writer.h"
#include "report/tables.h"

#include <stdio.h>
#include <string.h>

static void field(struct strbuf *sb, const char *s, bool first)
{
	if (!first)
		strbuf_addc(sb, ',');
	if (!strpbrk(s, ",\"\n\r")) {
		strbuf_adds(sb, s);
		return;
	}
	strbuf_addc(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addc(sb, '"');
		strbuf_addc(sb, *s);
	}
	strbuf_addc(sb, '"');
}

static void fnum(struct strbuf *sb, double v, int decimals)
{
	strbuf_addf(sb, ",%.*f", decimals, v);
}

static void fint(struct strbuf *sb, long long v)
{
	strbuf_addf(sb, ",%lld", v);
}

static void fopt(struct strbuf *sb, bool has, double v)
{
	if (has)
		fnum(sb, v, 3);
	else
		strbuf_addc(sb, ',');
}

/* sd and 95% CI over repetitions; empty with one repetition. */
static void ci_fields(struct strbuf *sb, const struct spread *s)
{
	if (!s->ci.has_ci) {
		strbuf_adds(sb, ",,,");
		return;
	}
	fnum(sb, s->ci.sd, 3);
	fnum(sb, s->ci.lo, 3);
	fnum(sb, s->ci.hi, 3);
}

static void steady_fields(struct strbuf *sb, enum steady_state st, const struct steady_result *r)
{
	field(sb, steady_state_key(st), false);
	fint(sb, r ? (long long)r->rounds : 0);
	if (r && r->state != STEADY_NA) {
		fnum(sb, 100 * r->excursion, 2);
		fnum(sb, 100 * r->slope_excursion, 2);
	} else {
		strbuf_adds(sb, ",,");
	}
}

/* The sample telemetry behind the bottleneck; empty without telemetry. */
static void verdict_fields(struct strbuf *sb, bool has, const struct verdict_in *in, const struct verdict *v,
			   const struct tel_dev *d)
{
	if (!has) {
		strbuf_adds(sb, ",,,,,,,,,,,,,");
		return;
	}
	field(sb, bottleneck_name(v->bottleneck), false);
	fopt(sb, in->has_host_cpu, 100 * in->host_cpu_busy);
	fopt(sb, in->has_guest_cpu, 100 * in->guest_cpu_busy);
	fopt(sb, in->has_driver_cpu, v->driver.per_loop);
	field(sb, !in->has_driver_cpu && !in->has_conn_wait ? "" : v->driver.saturated ? "yes" : "no", false);
	field(sb, d ? d->name : "", false);
	fopt(sb, d != NULL, d ? d->r_iops : 0);
	fopt(sb, d != NULL, d ? d->w_iops : 0);
	fopt(sb, d != NULL, d ? d->r_mbps : 0);
	fopt(sb, d != NULL, d ? d->w_mbps : 0);
	fopt(sb, d != NULL, d ? d->await_ms : 0);
	fopt(sb, d != NULL, d ? d->queue_depth : 0);
	fopt(sb, d && d->has_util, d ? 100 * d->util : 0);
}

/* One run group's row of report-groups.csv: the figures summed over its repetitions (rt_group_sums, as
 * report.md and report.html sum them), then its fields. */
static void group_row(struct strbuf *sb, const struct agg_group *g)
{
	struct rt_group_sums s;
	struct strbuf refs;

	rt_group_sums(g, &s);
	field(sb, g->campaign, true);
	field(sb, g->run_group, false);
	field(sb, g->drive, false);
	field(sb, rt_yes_no(g->all_drives), false);
	fint(sb, (long long)g->ndrives);
	field(sb, g->kind, false);
	field(sb, g->test, false);
	fint(sb, (long long)g->vm_count);
	field(sb, g->params, false);
	fint(sb, (long long)g->nreps);
	fint(sb, (long long)s.ninst);
	fint(sb, (long long)g->n_complete);
	field(sb, g->incomplete ? "incomplete" : "complete", false);
	fnum(sb, g->tps.mean, 3);
	fnum(sb, g->tps.min, 3);
	fnum(sb, g->tps.max, 3);
	fnum(sb, s.tps_min, 3);
	fnum(sb, s.tps_max, 3);
	fnum(sb, g->avg_ms_mean.mean, 3);
	fnum(sb, g->avg_ms_pooled.mean, 3);
	fopt(sb, g->has_p99_mean, g->p99_mean.mean);
	fopt(sb, s.pooled, g->p99_pooled.mean);
	fnum(sb, s.max_ms, 3);
	fint(sb, (long long)s.transactions);
	fint(sb, (long long)s.retried);
	fint(sb, (long long)s.reconnects);
	fint(sb, (long long)s.fatal);
	fint(sb, s.threads);
	fnum(sb, g->nreps ? g->reps[0].sample.little_pred_ms : 0, 3);
	fnum(sb, 100.0 * g->little_dev, 2);
	field(sb, little_state_name(g->little), false);
	fopt(sb, s.has_tpmc, s.tpmc);
	fopt(sb, s.npre > 0, s.npre ? s.pre_tps / (double)s.npre : 0);
	fopt(sb, s.npre > 0, s.npre ? s.pre_avg / (double)s.npre : 0);
	fopt(sb, s.npre_p99 > 0, s.npre_p99 ? s.pre_p99 / (double)s.npre_p99 : 0);
	strbuf_init(&refs, 0);
	for (size_t k = 0; k < g->nrefs; k++)
		strbuf_addf(&refs, "%s%s:%s", k ? ";" : "", g->refs[k]->review->file, g->refs[k]->label);
	field(sb, refs.buf, false);
	strbuf_release(&refs);
	field(sb, rt_yes_no(g->slice), false);
	ci_fields(sb, &g->tps);
	ci_fields(sb, &g->avg_ms_mean);
	ci_fields(sb, &g->p99_mean);
	fint(sb, (long long)g->rank);
	steady_fields(sb, g->pre_steady, agg_group_steady(g, RESULT_PHASE_PRECONDITION));
	steady_fields(sb, g->sample_steady, agg_group_steady(g, RESULT_PHASE_SAMPLE));
	verdict_fields(sb, g->has_verdict, &g->vin, &g->verdict, g->dev);
	strbuf_addc(sb, '\n');
}

static void groups_csv(struct strbuf *sb, const struct report *rep)
{
	strbuf_adds(sb, "campaign,run_group,drive,all_drives,drives,workload,test,vm_count,params,repetitions,"
			"instances,complete_runs,status,tps_sum,tps_sum_rep_min,tps_sum_rep_max,tps_instance_min,"
			"tps_instance_max,avg_latency_ms_mean_of_instances,avg_latency_ms_pooled,"
			"p99_ms_mean_of_instance_p99s,p99_ms_pooled,max_latency_ms,transactions,retried,reconnects,fatal,"
			"threads_sum,little_predicted_ms,little_deviation_pct,little_check,tpmc,"
			"pre_tps_sum,pre_avg_latency_ms_mean_of_instances,pre_p99_ms_mean_of_instance_p99s,"
			"published_matches,slice,tps_sum_sd,tps_sum_ci95_lo,tps_sum_ci95_hi,"
			"avg_latency_ms_mean_of_instances_sd,avg_latency_ms_mean_of_instances_ci95_lo,"
			"avg_latency_ms_mean_of_instances_ci95_hi,p99_ms_mean_of_instance_p99s_sd,"
			"p99_ms_mean_of_instance_p99s_ci95_lo,p99_ms_mean_of_instance_p99s_ci95_hi,rank,"
			"pre_steady,pre_steady_rounds,pre_excursion_pct,pre_slope_pct,"
			"sample_steady,sample_steady_rounds,sample_excursion_pct,sample_slope_pct," RT_VERDICT_CSV "\n");
	for (size_t i = 0; i < rep->ngroups; i++)
		group_row(sb, &rep->groups[i]);
}

/* Welch's p, empty when there is no test. */
static void welch_p(struct strbuf *sb, const struct ci_welch *w)
{
	if (w->valid)
		strbuf_addf(sb, ",%.6g", w->p);
	else
		strbuf_addc(sb, ',');
}

/* ratio, its CI, Welch's p and yes/no/n/a of one latency figure (empty when absent). */
static void cmp_latency_csv(struct strbuf *sb, bool has, const struct ci_ratio *r, const struct ci_welch *w)
{
	if (!has) {
		strbuf_adds(sb, ",,,,,");
		return;
	}
	fnum(sb, r->ratio, 4);
	fopt(sb, r->valid, r->lo);
	fopt(sb, r->valid, r->hi);
	welch_p(sb, w);
	field(sb, rt_significant_key(w), false);
}

/* As many empty fields as column col has ("a,b,c": three). */
static void empty_fields(struct strbuf *sb, const struct rt_col *col)
{
	strbuf_addc(sb, ',');
	for (const char *s = col->csv; *s; s++)
		if (*s == ',')
			strbuf_addc(sb, ',');
}

/* One cell of a table built by report/tables.c, as column col's CSV fields (each after a comma but
 * the row's first, which is text). */
static void csv_cell(struct strbuf *sb, const struct rt_cell *c, const struct rt_col *col, bool first)
{
	switch (c->kind) {
	case RT_TEXT:
	case RT_NAME:
	case RT_GROUP_LINK:
	case RT_RUN_GROUP:
		field(sb, c->text, first);
		break;
	case RT_INT:
	case RT_COUNT:
		fint(sb, c->i);
		break;
	case RT_NUM:
		fopt(sb, c->has, c->a);
		break;
	case RT_FIXED:
	case RT_LATENCY:
		fnum(sb, c->a, col->csv_prec);
		break;
	case RT_SPREAD:
		fnum(sb, c->spread->mean, col->csv_prec);
		break;
	case RT_RUN_STATUS:
		field(sb, rt_run_status_key(c->run), false);
		field(sb, rt_yes_no(c->run->from_journal), false);
		break;
	case RT_LITTLE:
		fnum(sb, c->b, 3);
		fnum(sb, 100.0 * c->a, 2);
		field(sb, little_state_name(c->little), false);
		break;
	case RT_STEADY:
		steady_fields(sb, c->steady, c->steady_r);
		break;
	case RT_BOTTLENECK:
		verdict_fields(sb, c->has, c->vin, c->verdict, c->dev);
		break;
	case RT_RATIO:
		fnum(sb, c->ratio->ratio, col->csv_prec);
		fopt(sb, c->ratio->valid, c->ratio->lo);
		fopt(sb, c->ratio->valid, c->ratio->hi);
		break;
	case RT_WELCH:
		fopt(sb, c->welch->valid, c->welch->t);
		fopt(sb, c->welch->valid, c->welch->df);
		welch_p(sb, c->welch);
		field(sb, rt_significant_key(c->welch), false);
		break;
	case RT_LAT_RATIO:
		cmp_latency_csv(sb, c->has, c->ratio, c->welch);
		break;
	case RT_MISSING:
	case RT_SPAN:
	case RT_SPANNED:
	case RT_RANGE:
	case RT_INSTANCES:
	case RT_STATUS:
	case RT_DEVICE:
	case RT_PCT:
	case RT_HOST_CPU:
	case RT_DRIVER_CPU:
	case RT_RANKS:
		empty_fields(sb, col); /* no CSV table has them as one of its columns */
		break;
	}
}

/* A table built by report/tables.c: its CSV columns' fields, then a line per row. */
static void csv_table(struct strbuf *sb, const struct report_table *t)
{
	bool first = true;

	for (size_t c = 0; c < t->ncols; c++) {
		if (!(t->cols[c].in & RT_CSV))
			continue;
		strbuf_addf(sb, "%s%s", first ? "" : ",", t->cols[c].csv);
		first = false;
	}
	strbuf_addc(sb, '\n');
	for (size_t r = 0; r < t->nrows; r++) {
		first = true;
		for (size_t c = 0; c < t->ncols; c++) {
			if (!(t->cols[c].in & RT_CSV))
				continue;
			csv_cell(sb, rt_at(t, r, c), &t->cols[c], first);
			first = false;
		}
		strbuf_addc(sb, '\n');
	}
}

static void instances_csv(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	report_table_instances(rep, &t);
	csv_table(sb, &t);
	report_table_release(&t);
}

static void compare_csv(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	report_table_compare(rep, &t);
	csv_table(sb, &t);
	report_table_release(&t);
}

static int csv_render(const struct report *rep, struct report_files *out)
{
	groups_csv(report_files_add(out, "report-groups.csv"), rep);
	instances_csv(report_files_add(out, "report-instances.csv"), rep);
	compare_csv(report_files_add(out, "report-compare.csv"), rep);
	return 0;
}

const struct report_writer_ops report_csv_ops = {
	.name = "csv",
	.summary = "report-groups.csv (drive x run group), report-instances.csv (instance), report-compare.csv (drives)",
	.render = csv_render,
};
