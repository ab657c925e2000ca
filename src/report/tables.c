/* The report's tables as typed cells, built once for every writer (report/tables.h). */
#include "report/tables.h"

#include "report/leaderboard.h"
#include "report/writer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rt_status_word(bool incomplete)
{
	return incomplete ? "INCOMPLETE" : "complete";
}

const char *rt_yes_no(bool yes)
{
	return yes ? "yes" : "no";
}

const char *rt_significant_key(const struct ci_welch *w)
{
	return !w->valid ? "n/a" : rt_yes_no(w->significant);
}

const char *rt_run_status_key(const struct run *r)
{
	return run_is_complete(r) ? "complete" : r->status == RESULT_RUN_COMPLETE ? "sample-incomplete" :
		run_status_name(r->status);
}

void rt_group_sums(const struct agg_group *g, struct rt_group_sums *s)
{
	memset(s, 0, sizeof(*s));
	s->pooled = g->nreps > 0;
	for (size_t k = 0; k < g->nreps; k++) {
		const struct agg_fig *f = &g->reps[k].sample;
		if (k == 0 || f->tps_min < s->tps_min)
			s->tps_min = f->tps_min;
		if (k == 0 || f->tps_max > s->tps_max)
			s->tps_max = f->tps_max;
		if (f->max_ms > s->max_ms)
			s->max_ms = f->max_ms;
		s->ninst += g->reps[k].n;
		s->transactions += f->transactions;
		s->retried += f->retried;
		s->reconnects += f->reconnects;
		s->fatal += f->fatal;
		s->threads += f->threads_sum;
		s->pooled &= f->has_pooled_p99;
		s->has_tpmc |= f->has_tpmc;
		s->tpmc += f->tpmc / (double)g->nreps;
		if (g->reps[k].pre.n) {
			s->npre++;
			s->pre_tps += g->reps[k].pre.tps_sum;
			s->pre_avg += g->reps[k].pre.avg_ms_mean;
		}
		if (g->reps[k].pre.n_p99) {
			s->npre_p99++;
			s->pre_p99 += g->reps[k].pre.p99_mean_of_instances_ms;
		}
	}
}

/* A new cell at the end of the table; a row is complete after ncols of them. */
static struct rt_cell *rt_add(struct report_table *t, enum rt_kind kind)
{
	struct rt_cell *c;

	if (t->fill == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16 * t->ncols;
		t->cells = xrealloc(t->cells, t->cap * sizeof(*t->cells));
	}
	c = &t->cells[t->fill++];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	t->nrows = (t->fill + t->ncols - 1) / t->ncols;
	return c;
}

static void rt_text(struct report_table *t, enum rt_kind kind, const char *s)
{
	rt_add(t, kind)->text = xstrdup(s);
}

static void rt_textf(struct report_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rt_textf(struct report_table *t, const char *fmt, ...)
{
	struct strbuf b;
	va_list ap;

	strbuf_init(&b, 0);
	va_start(ap, fmt);
	strbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	rt_add(t, RT_TEXT)->text = strbuf_detach(&b);
}

static void rt_int(struct report_table *t, enum rt_kind kind, long long v)
{
	rt_add(t, kind)->i = v;
}

static void rt_spread(struct report_table *t, const struct spread *s, bool has, bool terse)
{
	struct rt_cell *c = rt_add(t, RT_SPREAD);

	c->spread = s;
	c->has = has;
	c->terse = terse;
}

static void rt_little(struct report_table *t, enum little_state st, double dev)
{
	struct rt_cell *c = rt_add(t, RT_LITTLE);

	c->little = st;
	c->a = dev;
}

static void rt_bottleneck(struct report_table *t, bool has, const struct verdict_in *in, const struct verdict *v)
{
	struct rt_cell *c = rt_add(t, RT_BOTTLENECK);

	c->has = has;
	c->vin = in;
	c->verdict = v;
}

static void table_init(struct report_table *t, const struct rt_col *cols, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
}

static void rt_num(struct report_table *t, enum rt_kind kind, bool has, double v, size_t decimals);
static void rt_steady(struct report_table *t, enum steady_state st, const struct steady_result *r);

#define STEADY_CSV(p) p "_steady," p "_steady_rounds," p "_excursion_pct," p "_slope_pct"

/* report-groups.csv's fields are these columns' CSV fields in this order; where the pages put a
 * figure elsewhere, the CSV has a column of its own. */
static const struct rt_col summary_cols[] = {
	{"campaign", NULL, RT_CSV, "campaign", 0},
	{"run group", NULL, RT_CSV, "run_group", 0},
	{"drive", NULL, RT_CSV, "drive", 0},
	{"all drives", NULL, RT_CSV, "all_drives", 0},
	{"drives", NULL, RT_CSV, "drives", 0},
	{"drive × run group", NULL, RT_PAGES, NULL, 0},
	{"workload", NULL, RT_PAGES, NULL, 0},
	{"workload kind", NULL, RT_CSV, "workload", 0},
	{"test", NULL, RT_CSV, "test", 0},
	{"VMs", NULL, RT_PAGES | RT_CSV, "vm_count", 0},
	{"params", NULL, RT_CSV, "params", 0},
	{"repetitions", NULL, RT_CSV, "repetitions", 0},
	{"instances", NULL, RT_PAGES | RT_CSV, "instances", 0},
	{"complete runs", NULL, RT_CSV, "complete_runs", 0},
	{"status key", NULL, RT_CSV, "status", 0},
	{"TPS (sum)", NULL, RT_PAGES | RT_CSV, "tps_sum", 3},
	{"TPS min", NULL, RT_CSV, "tps_sum_rep_min", 3},
	{"TPS max", NULL, RT_CSV, "tps_sum_rep_max", 3},
	{"TPS per instance\nmin–max", NULL, RT_PAGES | RT_CSV, "tps_instance_min,tps_instance_max", 3},
	{"avg latency ms\n(mean of instances)", NULL, RT_PAGES | RT_CSV, "avg_latency_ms_mean_of_instances", 3},
	{"avg latency ms\n(pooled)", NULL, RT_PAGES | RT_CSV, "avg_latency_ms_pooled", 3},
	{"p99 ms\n(mean of instance p99s)", NULL, RT_PAGES | RT_CSV, "p99_ms_mean_of_instance_p99s", 3},
	{"p99 ms\n(pooled)", NULL, RT_PAGES | RT_CSV, "p99_ms_pooled", 3},
	{"max latency ms", NULL, RT_CSV, "max_latency_ms", 3},
	{"transactions", NULL, RT_CSV, "transactions", 0},
	{"retried", NULL, RT_PAGES | RT_CSV, "retried", 0},
	{"reconnects", NULL, RT_PAGES | RT_CSV, "reconnects", 0},
	{"fatal", NULL, RT_PAGES | RT_CSV, "fatal", 0},
	{"threads", NULL, RT_CSV, "threads_sum", 0},
	{"Little's law", NULL, RT_PAGES | RT_CSV, "little_predicted_ms,little_deviation_pct,little_check", 3},
	{"tpmC", NULL, RT_CSV, "tpmc", 3},
	{"precondition TPS", NULL, RT_CSV, "pre_tps_sum", 3},
	{"precondition avg ms", NULL, RT_CSV, "pre_avg_latency_ms_mean_of_instances", 3},
	{"precondition p99 ms", NULL, RT_CSV, "pre_p99_ms_mean_of_instance_p99s", 3},
	{"published", NULL, RT_CSV, "published_matches", 0},
	{"slice", NULL, RT_CSV, "slice", 0},
	{"TPS CI", NULL, RT_CSV, "tps_sum_sd,tps_sum_ci95_lo,tps_sum_ci95_hi", 3},
	{"avg latency CI", NULL, RT_CSV, "avg_latency_ms_mean_of_instances_sd,avg_latency_ms_mean_of_instances_ci95_lo,"
		"avg_latency_ms_mean_of_instances_ci95_hi", 3},
	{"p99 CI", NULL, RT_CSV, "p99_ms_mean_of_instance_p99s_sd,p99_ms_mean_of_instance_p99s_ci95_lo,"
		"p99_ms_mean_of_instance_p99s_ci95_hi", 3},
	{"rank", NULL, RT_CSV, "rank", 0},
	{"precondition", NULL, RT_CSV, STEADY_CSV("pre"), 2},
	{"sample", NULL, RT_CSV, STEADY_CSV("sample"), 2},
	{"status", NULL, RT_PAGES, NULL, 0},
	{"bottleneck", NULL, RT_PAGES | RT_CSV, RT_VERDICT_CSV, 3},
};

/* The columns of a group's row before its figures. */
static void summary_keys(struct report_table *t, const struct agg_group *g, const struct rt_group_sums *s)
{
	struct rt_cell *c;

	rt_text(t, RT_TEXT, g->campaign);
	rt_text(t, RT_TEXT, g->run_group);
	rt_text(t, RT_TEXT, g->drive);
	rt_text(t, RT_TEXT, rt_yes_no(g->all_drives));
	rt_int(t, RT_INT, (long long)g->ndrives);
	rt_text(t, RT_NAME, g->label);
	rt_textf(t, "%s %s", report_kind_title(g->kind), g->test);
	rt_text(t, RT_TEXT, g->kind);
	rt_text(t, RT_TEXT, g->test);
	rt_int(t, RT_INT, (long long)g->vm_count);
	rt_text(t, RT_TEXT, g->params);
	rt_int(t, RT_INT, (long long)g->nreps);
	/* Instances beside VMs: "8 VMs, 1 instance" is one drive's share of an 8-drive group. */
	c = rt_add(t, RT_INSTANCES);
	c->n = s->ninst;
	c->n2 = g->nreps;
	rt_int(t, RT_INT, (long long)g->n_complete);
	rt_text(t, RT_TEXT, g->incomplete ? "incomplete" : "complete");
}

/* The sample's figures of a group's row, Little's law included. */
static void summary_figures(struct report_table *t, const struct agg_group *g, const struct rt_group_sums *s)
{
	struct rt_cell *c;

	rt_spread(t, &g->tps, true, false);
	rt_num(t, RT_NUM, true, g->tps.min, 3);
	rt_num(t, RT_NUM, true, g->tps.max, 3);
	c = rt_add(t, RT_RANGE);
	c->a = s->tps_min;
	c->b = s->tps_max;
	rt_spread(t, &g->avg_ms_mean, true, true);
	rt_spread(t, &g->avg_ms_pooled, true, true);
	rt_spread(t, &g->p99_mean, g->has_p99_mean, true);
	rt_spread(t, &g->p99_pooled, s->pooled, true);
	rt_num(t, RT_NUM, true, s->max_ms, 3);
	rt_int(t, RT_INT, (long long)s->transactions);
	rt_int(t, RT_COUNT, (long long)s->retried);
	rt_int(t, RT_COUNT, (long long)s->reconnects);
	rt_int(t, RT_COUNT, (long long)s->fatal);
	rt_int(t, RT_INT, s->threads);
	rt_little(t, g->little, g->little_dev);
	t->cells[t->fill - 1].b = g->nreps ? g->reps[0].sample.little_pred_ms : 0;
}

/* The rest of a group's row: tpmC, the precondition, the references, the CIs, rank and verdicts. */
static void summary_rest(struct report_table *t, const struct agg_group *g, const struct rt_group_sums *s)
{
	struct strbuf refs;
	struct rt_cell *c;

	rt_num(t, RT_NUM, s->has_tpmc, s->tpmc, 3);
	rt_num(t, RT_NUM, s->npre > 0, s->npre ? s->pre_tps / (double)s->npre : 0, 3);
	rt_num(t, RT_NUM, s->npre > 0, s->npre ? s->pre_avg / (double)s->npre : 0, 3);
	rt_num(t, RT_NUM, s->npre_p99 > 0, s->npre_p99 ? s->pre_p99 / (double)s->npre_p99 : 0, 3);
	strbuf_init(&refs, 0);
	for (size_t k = 0; k < g->nrefs; k++)
		strbuf_addf(&refs, "%s%s:%s", k ? ";" : "", g->refs[k]->review->file, g->refs[k]->label);
	rt_text(t, RT_TEXT, refs.buf);
	strbuf_release(&refs);
	rt_text(t, RT_TEXT, rt_yes_no(g->slice));
	rt_add(t, RT_CI)->spread = &g->tps;
	rt_add(t, RT_CI)->spread = &g->avg_ms_mean;
	rt_add(t, RT_CI)->spread = &g->p99_mean;
	rt_int(t, RT_INT, (long long)g->rank);
	rt_steady(t, g->pre_steady, agg_group_steady(g, RESULT_PHASE_PRECONDITION));
	rt_steady(t, g->sample_steady, agg_group_steady(g, RESULT_PHASE_SAMPLE));
	c = rt_add(t, RT_STATUS);
	c->has = g->incomplete;
	c->n = g->n_complete;
	c->n2 = g->n_runs;
	rt_bottleneck(t, g->has_verdict, &g->vin, &g->verdict);
	t->cells[t->fill - 1].dev = g->dev;
}

void report_table_summary(const struct report *rep, struct report_table *t)
{
	table_init(t, summary_cols, sizeof(summary_cols) / sizeof(summary_cols[0]));
	for (size_t i = 0; i < rep->ngroups; i++) {
		struct rt_group_sums s;

		rt_group_sums(&rep->groups[i], &s);
		summary_keys(t, &rep->groups[i], &s);
		summary_figures(t, &rep->groups[i], &s);
		summary_rest(t, &rep->groups[i], &s);
	}
}

static const struct rt_col verdict_cols[] = {
	{"drive × run group", NULL, RT_PAGES, NULL, 0},
	{"precondition (last window)", NULL, RT_PAGES, NULL, 0},
	{"sample", NULL, RT_PAGES, NULL, 0},
	{"bottleneck", NULL, RT_PAGES, NULL, 0},
	{"drive (busiest device, sample)", NULL, RT_PAGES, NULL, 0},
	{"host CPU", NULL, RT_PAGES, NULL, 0},
	{"guest vCPUs", NULL, RT_PAGES, NULL, 0},
	{"driver CPU", "driver CPU per event loop", RT_PAGES, NULL, 0},
};

static void rt_steady(struct report_table *t, enum steady_state st, const struct steady_result *r)
{
	struct rt_cell *c = rt_add(t, RT_STEADY);

	c->steady = st;
	c->steady_r = r;
}

void report_table_verdicts(const struct report *rep, struct report_table *t)
{
	table_init(t, verdict_cols, sizeof(verdict_cols) / sizeof(verdict_cols[0]));
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		struct rt_cell *c;

		rt_text(t, RT_NAME, g->label);
		rt_steady(t, g->pre_steady, agg_group_steady(g, RESULT_PHASE_PRECONDITION));
		rt_steady(t, g->sample_steady, agg_group_steady(g, RESULT_PHASE_SAMPLE));
		rt_bottleneck(t, g->has_verdict, &g->vin, &g->verdict);
		rt_add(t, RT_DEVICE)->dev = g->dev;
		rt_add(t, RT_HOST_CPU)->vin = &g->vin;
		c = rt_add(t, RT_PCT);
		c->has = g->vin.has_guest_cpu;
		c->a = g->vin.guest_cpu_busy;
		c = rt_add(t, RT_DRIVER_CPU);
		c->vin = &g->vin;
		c->verdict = &g->verdict;
	}
}

/* report-compare.csv's fields are these columns' CSV fields in this order. */
static const struct rt_col compare_cols[] = {
	{"campaign", NULL, RT_CSV, "campaign", 0},
	{"run group", NULL, RT_PAGES | RT_CSV, "run_group", 0},
	{"workload", NULL, RT_CSV, "workload", 0},
	{"test", NULL, RT_CSV, "test", 0},
	{"VMs", NULL, RT_CSV, "vm_count", 0},
	{"params", NULL, RT_CSV, "params", 0},
	{"rank", NULL, RT_MD, NULL, 0},
	{"faster", NULL, RT_PAGES | RT_CSV, "faster", 0},
	{"faster rank", NULL, RT_CSV, "faster_rank", 0},
	{"TPS", NULL, RT_PAGES | RT_CSV, "faster_tps_sum", 3},
	{"faster repetitions", NULL, RT_CSV, "faster_repetitions", 0},
	{"slower", NULL, RT_PAGES | RT_CSV, "slower", 0},
	{"slower rank", NULL, RT_CSV, "slower_rank", 0},
	{"TPS", NULL, RT_PAGES | RT_CSV, "slower_tps_sum", 3},
	{"slower repetitions", NULL, RT_CSV, "slower_repetitions", 0},
	{"comparison", NULL, RT_PAGES, NULL, 0},
	{"TPS ratio", NULL, RT_CSV, "tps_ratio,tps_ratio_ci95_lo,tps_ratio_ci95_hi", 4},
	{"Welch's t-test", NULL, RT_PAGES | RT_CSV, "welch_t,welch_df,welch_p,significant", 3},
	{"avg latency ratio", NULL, RT_CSV, "avg_ratio,avg_ratio_ci95_lo,avg_ratio_ci95_hi,avg_welch_p,avg_significant", 4},
	{"p99 ratio", NULL, RT_CSV, "p99_ratio,p99_ratio_ci95_lo,p99_ratio_ci95_hi,p99_welch_p,p99_significant", 4},
};

void report_table_compare(const struct report *rep, struct report_table *t)
{
	char line[512];

	table_init(t, compare_cols, sizeof(compare_cols) / sizeof(compare_cols[0]));
	for (size_t i = 0; i < rep->ncmps; i++) {
		const struct agg_cmp *cmp = &rep->cmps[i];
		const struct agg_group *a = &rep->groups[cmp->faster], *b = &rep->groups[cmp->slower];
		struct rt_cell *c;

		rt_text(t, RT_TEXT, a->campaign);
		c = rt_add(t, RT_RUN_GROUP);
		c->text = xstrdup(a->run_group);
		c->kind_name = a->kind;
		c->i = (long long)a->vm_count;
		rt_text(t, RT_TEXT, a->kind);
		rt_text(t, RT_TEXT, a->test);
		rt_int(t, RT_INT, (long long)a->vm_count);
		rt_text(t, RT_TEXT, a->params);
		c = rt_add(t, RT_RANKS);
		c->n = a->rank;
		c->n2 = b->rank;
		rt_text(t, RT_NAME, a->drive);
		rt_int(t, RT_INT, (long long)a->rank);
		rt_spread(t, &a->tps, true, false);
		rt_int(t, RT_INT, (long long)a->nreps);
		rt_text(t, RT_NAME, b->drive);
		rt_int(t, RT_INT, (long long)b->rank);
		rt_spread(t, &b->tps, true, false);
		rt_int(t, RT_INT, (long long)b->nreps);
		report_compare_sentence(cmp, a, b, line, sizeof(line));
		rt_text(t, RT_TEXT, line);
		rt_add(t, RT_RATIO)->ratio = &cmp->ratio;
		rt_add(t, RT_WELCH)->welch = &cmp->welch;
		c = rt_add(t, RT_LAT_RATIO);
		c->has = true;
		c->ratio = &cmp->avg_ratio;
		c->welch = &cmp->avg_welch;
		c = rt_add(t, RT_LAT_RATIO);
		c->has = cmp->has_p99;
		c->ratio = &cmp->p99_ratio;
		c->welch = &cmp->p99_welch;
	}
}

static const struct rt_col drive_cols[] = {
	{"run group", NULL, RT_PAGES, NULL, 0},
	{"workload", NULL, RT_PAGES, NULL, 0},
	{"VMs", NULL, RT_PAGES, NULL, 0},
	{"repetitions", NULL, RT_PAGES, NULL, 0},
	{"TPS (sum)", NULL, RT_PAGES, NULL, 0},
	{"avg latency ms\n(mean of instances)", NULL, RT_PAGES, NULL, 0},
	{"p99 ms\n(mean of instance p99s)", NULL, RT_PAGES, NULL, 0},
	{"rank in run group", NULL, RT_PAGES, NULL, 0},
	{"precondition", NULL, RT_PAGES, NULL, 0},
	{"sample", NULL, RT_PAGES, NULL, 0},
	{"bottleneck", NULL, RT_PAGES, NULL, 0},
	{"drive (busiest device)", NULL, RT_PAGES, NULL, 0},
	{"host CPU", NULL, RT_PAGES, NULL, 0},
	{"status", NULL, RT_PAGES, NULL, 0},
};

void report_table_drive(const struct report *rep, const char *drive, struct report_table *t)
{
	table_init(t, drive_cols, sizeof(drive_cols) / sizeof(drive_cols[0]));
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		struct rt_cell *c;

		if (g->all_drives || strcmp(g->drive, drive))
			continue;
		c = rt_add(t, RT_GROUP_LINK);
		c->text = xstrdup(*g->run_group ? g->run_group : "(no run group)");
		c->n = i;
		rt_textf(t, "%s %s", report_kind_title(g->kind), g->test);
		rt_int(t, RT_INT, (long long)g->vm_count);
		rt_int(t, RT_INT, (long long)g->nreps);
		rt_spread(t, &g->tps, true, false);
		rt_spread(t, &g->avg_ms_mean, true, false);
		rt_spread(t, &g->p99_mean, true, false);
		if (g->rank)
			rt_int(t, RT_INT, (long long)g->rank);
		else
			rt_add(t, RT_MISSING);
		rt_steady(t, g->pre_steady, agg_group_steady(g, RESULT_PHASE_PRECONDITION));
		rt_steady(t, g->sample_steady, agg_group_steady(g, RESULT_PHASE_SAMPLE));
		rt_bottleneck(t, g->has_verdict, &g->vin, &g->verdict);
		rt_add(t, RT_DEVICE)->dev = g->dev;
		c = rt_add(t, RT_PCT);
		c->has = g->vin.has_host_cpu;
		c->a = g->vin.host_cpu_busy;
		c = rt_add(t, RT_STATUS);
		c->has = g->incomplete;
		c->terse = true;
	}
}

/* report-instances.csv's fields are these columns' CSV fields in this order. */
static const struct rt_col instance_cols[] = {
	{"file", NULL, RT_PAGES | RT_CSV, "path", 0},
	{"journal", NULL, RT_CSV, "journal", 0},
	{"campaign", NULL, RT_CSV, "campaign", 0},
	{"run group", NULL, RT_MD | RT_CSV, "run_group", 0},
	{"drive", NULL, RT_PAGES | RT_CSV, "drive", 0},
	{"instance", NULL, RT_PAGES | RT_CSV, "instance", 0},
	{"VMs", NULL, RT_CSV, "vm_count", 0},
	{"rep", NULL, RT_PAGES | RT_CSV, "repetition", 0},
	{"workload", NULL, RT_CSV, "workload", 0},
	{"test", NULL, RT_CSV, "test", 0},
	{"params", NULL, RT_CSV, "params", 0},
	{"status", NULL, RT_PAGES | RT_CSV, "status,from_journal", 0},
	{"sample s", NULL, RT_MD | RT_CSV, "sample_seconds", 3},
	{"threads", NULL, RT_MD | RT_CSV, "threads", 0},
	{"transactions", NULL, RT_CSV, "transactions", 0},
	{"TPS", NULL, RT_PAGES | RT_CSV, "tps", 3},
	{"avg ms", NULL, RT_PAGES | RT_CSV, "avg_latency_ms", 3},
	{"p99 ms", NULL, RT_PAGES | RT_CSV, "p99_ms", 3},
	{"max ms", NULL, RT_MD | RT_CSV, "max_latency_ms", 3},
	{"retried", NULL, RT_PAGES | RT_CSV, "retried", 0},
	{"reconnects", NULL, RT_PAGES | RT_CSV, "reconnects", 0},
	{"fatal", NULL, RT_PAGES | RT_CSV, "fatal", 0},
	{"Little's law", NULL, RT_MD | RT_CSV, "little_predicted_ms,little_deviation_pct,little_check", 3},
	{"precondition s", NULL, RT_CSV, "pre_seconds", 3},
	{"precondition TPS", NULL, RT_CSV, "pre_tps", 3},
	{"precondition avg ms", NULL, RT_CSV, "pre_avg_latency_ms", 3},
	{"precondition p99 ms", NULL, RT_CSV, "pre_p99_ms", 3},
	{"precondition", NULL, RT_PAGES | RT_CSV, STEADY_CSV("pre"), 2},
	{"sample", NULL, RT_PAGES | RT_CSV, STEADY_CSV("sample"), 2},
	{"bottleneck", NULL, RT_PAGES | RT_CSV, RT_VERDICT_CSV, 3},
};

static void rt_num(struct report_table *t, enum rt_kind kind, bool has, double v, size_t decimals)
{
	struct rt_cell *c = rt_add(t, kind);

	c->has = has;
	c->a = v;
	c->n = decimals;
}

/* The sample phase's cells of an instance's row (11 columns). */
static void instance_sample(struct report_table *t, const struct run *r)
{
	const struct phase_stat *p = &r->sample;
	enum little_state st;
	double pred, dev;
	struct rt_cell *c;

	if (!p->present) {
		c = rt_add(t, RT_SPAN);
		c->text = xstrdup("no sample phase");
		c->n = 11;
		for (int k = 1; k < 11; k++)
			rt_add(t, RT_SPANNED);
		return;
	}
	rt_num(t, RT_FIXED, true, p->seconds, 1);
	rt_int(t, RT_INT, (long long)p->threads);
	rt_int(t, RT_INT, (long long)p->transactions);
	rt_num(t, RT_NUM, true, p->tps, 2);
	rt_num(t, RT_LATENCY, p->lat_approx, p->lat_avg_ms, 2);
	rt_num(t, RT_NUM, p->has_p99, p->p99_ms, 2);
	rt_num(t, RT_NUM, true, p->lat_max_ms, 2);
	rt_int(t, RT_INT, (long long)p->err_ignored);
	rt_int(t, RT_INT, (long long)p->err_reconnects);
	rt_int(t, RT_INT, (long long)p->err_fatal);
	st = little_check((double)p->threads, p->tps, p->lat_avg_ms, r->open_loop, &pred, &dev);
	rt_little(t, st, dev);
	t->cells[t->fill - 1].b = pred;
}

/* The precondition's figures of an instance's row (4 columns, empty without one). */
static void instance_pre(struct report_table *t, const struct phase_stat *q)
{
	rt_num(t, RT_NUM, q->present, q->seconds, 3);
	rt_num(t, RT_NUM, q->present, q->tps, 3);
	rt_num(t, RT_NUM, q->present, q->lat_avg_ms, 3);
	rt_num(t, RT_NUM, q->present && q->has_p99, q->p99_ms, 3);
}

void report_table_instances(const struct report *rep, struct report_table *t)
{
	table_init(t, instance_cols, sizeof(instance_cols) / sizeof(instance_cols[0]));
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		const struct run_verdict *rv = &rep->rv[i];
		struct rt_cell *c;

		rt_text(t, RT_NAME, r->path);
		rt_text(t, RT_TEXT, r->journal ? r->journal : "");
		rt_text(t, RT_TEXT, r->campaign);
		rt_text(t, RT_TEXT, r->run_group);
		rt_text(t, RT_NAME, r->drive);
		rt_text(t, RT_NAME, r->instance);
		rt_int(t, RT_INT, (long long)r->vm_count);
		rt_int(t, RT_INT, (long long)r->repetition);
		rt_text(t, RT_TEXT, r->kind);
		rt_text(t, RT_TEXT, r->test);
		rt_text(t, RT_TEXT, r->params);
		c = rt_add(t, RT_RUN_STATUS);
		c->run = r;
		c->has = !run_is_complete(r);
		c->text = xstrdup(!c->has ? "complete" :
				  r->status == RESULT_RUN_COMPLETE ? "sample incomplete" : run_status_name(r->status));
		c->note = c->has && r->from_journal ? " (from journal)" : "";
		instance_sample(t, r);
		instance_pre(t, &r->pre);
		rt_steady(t, rv->pre.state, &rv->pre);
		rt_steady(t, rv->sample.state, &rv->sample);
		rt_bottleneck(t, rv->has_verdict, &rv->vin, &rv->verdict);
		t->cells[t->fill - 1].dev = rv->dev;
	}
}

static const struct rt_col superseded_cols[] = {
	{"file", NULL, RT_PAGES, NULL, 0},
	{"run group", NULL, RT_MD, NULL, 0},
	{"drive", NULL, RT_PAGES, NULL, 0},
	{"instance", NULL, RT_PAGES, NULL, 0},
	{"rep", NULL, RT_PAGES, NULL, 0},
	{"status", NULL, RT_PAGES, NULL, 0},
	{"sample s", NULL, RT_MD, NULL, 0},
	{"TPS", NULL, RT_PAGES, NULL, 0},
	{"why it ended", NULL, RT_PAGES, NULL, 0},
};

void report_table_superseded(const struct report *rep, struct report_table *t)
{
	table_init(t, superseded_cols, sizeof(superseded_cols) / sizeof(superseded_cols[0]));
	for (size_t i = 0; i < rep->runs->nsuperseded; i++) {
		const struct run *r = rep->runs->superseded[i];
		struct rt_cell *c;

		rt_text(t, RT_NAME, r->path);
		rt_text(t, RT_TEXT, r->run_group);
		rt_text(t, RT_NAME, r->drive);
		rt_text(t, RT_NAME, r->instance);
		rt_int(t, RT_INT, (long long)r->repetition);
		c = rt_add(t, RT_RUN_STATUS);
		c->run = r;
		c->terse = true;
		c->text = xstrdup(run_status_name(r->status));
		c->note = r->from_journal ? " (from journal)" : "";
		rt_num(t, RT_FIXED, r->sample.present, r->sample.seconds, 1);
		rt_num(t, RT_NUM, r->sample.present, r->sample.tps, 2);
		rt_text(t, RT_TEXT, r->error ? r->error : "–");
	}
}

/* A leaderboard's columns: the pages only (report.json has its rows as data, no CSV has them). */
static const struct rt_col board_cols[] = {
	{"rank", NULL, RT_PAGES, NULL, 0},
	{"drive", NULL, RT_PAGES, NULL, 0},
	{"measured or published", NULL, RT_PAGES, NULL, 0},
	{"TPS", NULL, RT_PAGES, NULL, 0},
	{"avg ms", NULL, RT_PAGES, NULL, 0},
	{"p99 ms", NULL, RT_PAGES, NULL, 0},
};

void report_table_leaderboard(const struct lb_board *b, const size_t *ord, size_t cnt, struct report_table *t)
{
	table_init(t, board_cols, sizeof(board_cols) / sizeof(board_cols[0]));
	t->html_class = "leaderboard";
	for (size_t r = 0; r < cnt; r++) {
		const struct lb_entry *e = &b->e[ord[r]];
		struct strbuf mark;
		struct rt_cell *c;

		rt_int(t, RT_INT, (long long)(r + 1));
		c = rt_add(t, RT_BOARD_DRIVE);
		c->text = xstrdup(e->name);
		c->has = !e->pub;
		strbuf_init(&mark, 0);
		lb_mark(e, &mark);
		rt_add(t, RT_TEXT)->text = strbuf_detach(&mark);
		rt_num(t, RT_NUM, true, e->tps, 2);
		rt_num(t, RT_NUM, true, e->avg_ms, 2);
		rt_num(t, RT_BOARD_NUM, e->has_p99, e->p99_ms, 2);
	}
}

void report_table_release(struct report_table *t)
{
	for (size_t i = 0; i < t->fill; i++)
		free(t->cells[i].text);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
