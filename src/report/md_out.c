/* Markdown report: the tables a review would print, then everything behind them. */
#include "report/writer.h"

#include "report/leaderboard.h"
#include "report/pub_little.h"
#include "stats/hist.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>


static void celln(struct strbuf *sb, double v, int decimals)
{
	char b[64];

	report_fmt_num(b, sizeof(b), v, decimals);
	report_md_cell(sb, b);
}

static void cellf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cellf(struct strbuf *sb, const char *fmt, ...)
{
	struct strbuf tmp;
	va_list ap;

	strbuf_init(&tmp, 0);
	va_start(ap, fmt);
	strbuf_vaddf(&tmp, fmt, ap);
	va_end(ap);
	report_md_cell(sb, tmp.buf);
	strbuf_release(&tmp);
}

/* The row's drive, machine-translated sources marked (report/published.c). */
static void pub_name_cell(struct strbuf *sb, const struct pub_result *p)
{
	struct strbuf t;

	strbuf_init(&t, 0);
	pub_row_name(p, &t);
	report_md_cell(sb, t.buf);
	strbuf_release(&t);
}

static void header(struct strbuf *sb, const char *const *cols)
{
	size_t n = 0;

	for (const char *const *c = cols; *c; c++, n++)
		report_md_cell(sb, *c);
	strbuf_adds(sb, "|\n");
	for (size_t i = 0; i < n; i++)
		strbuf_adds(sb, "|---");
	strbuf_adds(sb, "|\n");
}

static void endrow(struct strbuf *sb)
{
	strbuf_adds(sb, "|\n");
}

static void little_cell(struct strbuf *sb, enum little_state st, double dev)
{
	switch (st) {
	case LITTLE_OK:
		cellf(sb, "ok (%+.1f%%)", 100.0 * dev);
		break;
	case LITTLE_WARN:
		cellf(sb, "**WARNING %+.1f%%**", 100.0 * dev);
		break;
	case LITTLE_NA:
		report_md_cell(sb, "n/a");
		break;
	}
}

static void opt_ms(struct strbuf *sb, bool has, double v)
{
	if (has)
		celln(sb, v, 2);
	else
		report_md_cell(sb, "–");
}

/* "14,077.29", or "14,077.29 ± 830.99" (95% CI half-width) over repetitions. */
static void spread_cell(struct strbuf *sb, const struct spread *s)
{
	char a[32], b[32];

	report_fmt_num(a, sizeof(a), s->mean, 2);
	if (!s->ci.has_ci) {
		report_md_cell(sb, a);
		return;
	}
	report_fmt_num(b, sizeof(b), s->ci.half, 2);
	cellf(sb, "%s ± %s", a, b);
}

static void steady_cell(struct strbuf *sb, enum steady_state st, const struct steady_result *r)
{
	switch (st) {
	case STEADY_YES:
	case STEADY_NO:
		if (r && r->state != STEADY_NA)
			cellf(sb, "%s%s%s (%zu rounds: excursion %.1f%%%s, slope %.1f%%%s)", st == STEADY_NO ? "**" : "",
			      steady_state_name(st), st == STEADY_NO ? "**" : "", r->rounds, 100 * r->excursion,
			      r->excursion_ok ? "" : " > 20%", 100 * r->slope_excursion, r->slope_ok ? "" : " > 10%");
		else
			report_md_cell(sb, steady_state_name(st));
		break;
	case STEADY_NA:
		cellf(sb, "n/a (%zu round%s, need %d)", r ? r->rounds : 0, r && r->rounds == 1 ? "" : "s",
		      STEADY_MIN_WINDOW);
		break;
	}
}

static void bottleneck_cell(struct strbuf *sb, bool has, const struct verdict_in *in, const struct verdict *v)
{
	char why[300];

	if (!has) {
		report_md_cell(sb, "– (no telemetry)");
		return;
	}
	verdict_explain(in, v, why, sizeof(why));
	cellf(sb, "**%s**: %s", bottleneck_name(v->bottleneck), why);
}

static void dev_cell(struct strbuf *sb, const struct tel_dev *d)
{
	char b[300];

	if (!d) {
		report_md_cell(sb, "–");
		return;
	}
	report_dev_text(d, b, sizeof(b));
	report_md_cell(sb, b);
}

static void pct_cell(struct strbuf *sb, bool has, double frac)
{
	if (has)
		cellf(sb, "%.0f%%", 100 * frac);
	else
		report_md_cell(sb, "–");
}

static void range_cell(struct strbuf *sb, double lo, double hi)
{
	char a[32], b[32];

	report_fmt_num(a, sizeof(a), lo, 2);
	report_fmt_num(b, sizeof(b), hi, 2);
	cellf(sb, "%s – %s", a, b);
}

static void summary_table(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "workload", "VMs", "instances", "TPS (sum)",
		"TPS per instance min–max", "avg latency ms (mean of instances)", "avg latency ms (pooled)",
		"p99 ms (mean of instance p99s)", "p99 ms (pooled)", "retried", "reconnects", "fatal",
		"Little's law", "status", "bottleneck", NULL};

	strbuf_adds(sb, "## Results per drive × run group (sample phase)\n\n"
			"TPS is the sum over the instances that ran together; with several repetitions each figure "
			"is the mean over repetitions, TPS with ± the half-width of its 95% confidence interval "
			"(see *Repetitions*). \"mean of instance p99s\" is the published "
			"\"average 99th percentile\" (an average of percentiles, not a percentile); \"pooled\" p99 comes "
			"from the merged histograms of every transaction.\n\n");
	header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		size_t ninst = 0;
		double tmin = 0, tmax = 0, retried = 0, reconn = 0, fatal = 0;
		bool has_pooled = g->nreps > 0;

		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].sample;
			if (k == 0 || f->tps_min < tmin)
				tmin = f->tps_min;
			if (k == 0 || f->tps_max > tmax)
				tmax = f->tps_max;
			ninst += g->reps[k].n;
			retried += (double)f->retried;
			reconn += (double)f->reconnects;
			fatal += (double)f->fatal;
			has_pooled &= f->has_pooled_p99;
		}
		report_md_cell(sb, g->label);
		cellf(sb, "%s %s", report_kind_title(g->kind), g->test);
		cellf(sb, "%lld", (long long)g->vm_count);
		if (g->nreps > 1)
			cellf(sb, "%zu (%zu reps)", ninst, g->nreps);
		else
			cellf(sb, "%zu", ninst);
		spread_cell(sb, &g->tps);
		range_cell(sb, tmin, tmax);
		celln(sb, g->avg_ms_mean.mean, 2);
		celln(sb, g->avg_ms_pooled.mean, 2);
		opt_ms(sb, g->has_p99_mean, g->p99_mean.mean);
		opt_ms(sb, has_pooled, g->p99_pooled.mean);
		celln(sb, retried, 0);
		celln(sb, reconn, 0);
		celln(sb, fatal, 0);
		little_cell(sb, g->little, g->little_dev);
		if (g->incomplete)
			cellf(sb, "**INCOMPLETE** (%zu of %zu runs complete)", g->n_complete, g->n_runs);
		else
			report_md_cell(sb, "complete");
		bottleneck_cell(sb, g->has_verdict, &g->vin, &g->verdict);
		endrow(sb);
	}
	strbuf_addc(sb, '\n');
}

static void pub_little_md(struct strbuf *sb, const struct pub_result *p)
{
	struct pub_little l;
	struct strbuf t;

	strbuf_init(&t, 0);
	pub_little(p, &l);
	pub_little_cell(p, &l, &t);
	report_md_cell(sb, t.buf);
	strbuf_release(&t);
}

static void published_beside(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"", "source", "drive", "platform", "VMs", "drives", "TPS",
		"avg latency ms", "p99 ms (mean of VM p99s)", "measured TPS / published", "Little's law", NULL};
	bool any = false;

	for (size_t i = 0; i < rep->ngroups; i++)
		any |= rep->groups[i].nrefs > 0;
	strbuf_adds(sb, "## Beside published figures\n\n");
	if (!any) {
		strbuf_adds(sb, "No published reference has the same workload, VM count, number of drives and "
				"protocol as any measured group (the Leaderboard below names what differs).\n\n");
		return;
	}
	strbuf_adds(sb, "Measured rows use the published method: TPS summed over VMs, mean of the VMs' average "
			"latencies, mean of the VMs' p99s. Published rows come from `reports/published`; platforms differ, "
			"so compare with care.\n\n");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];

		if (!g->nrefs)
			continue;
		strbuf_addf(sb, "### %s (%s, %lld VMs, %zu drive%s)\n\n", g->label, report_kind_title(g->kind),
			    (long long)g->vm_count, g->ndrives, g->ndrives == 1 ? "" : "s");
		header(sb, cols);
		report_md_cell(sb, "**measured**");
		report_md_cell(sb, "this run");
		report_md_cell(sb, g->drive);
		report_md_cell(sb, "");
		cellf(sb, "%lld", (long long)g->vm_count);
		cellf(sb, "%zu", g->ndrives);
		celln(sb, g->tps.mean, 2);
		celln(sb, g->avg_ms_mean.mean, 2);
		opt_ms(sb, g->has_p99_mean, g->p99_mean.mean);
		report_md_cell(sb, "");
		little_cell(sb, g->little, g->little_dev);
		endrow(sb);
		for (size_t k = 0; k < g->nrefs; k++) {
			const struct pub_result *p = g->refs[k];
			report_md_cell(sb, "published");
			cellf(sb, "%s: %s", p->review->publisher, p->review->title);
			pub_name_cell(sb, p);
			report_md_cell(sb, p->review->platform);
			cellf(sb, "%lld", (long long)p->vm_count);
			cellf(sb, "%lld", (long long)p->drives);
			celln(sb, p->tps, 2);
			celln(sb, p->avg_ms, 2);
			opt_ms(sb, p->has_p99, p->p99_ms);
			cellf(sb, "%.2f×", g->tps.mean / p->tps);
			pub_little_md(sb, p);
			endrow(sb);
		}
		strbuf_addc(sb, '\n');
	}
}

static void little_table(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "repetition", "Σ threads", "TPS (sum)",
		"Σ threads / TPS ms", "pooled avg latency ms", "deviation", "check", NULL};

	strbuf_adds(sb, "## Little's law check\n\n"
			"In a closed loop every thread always has one transaction in flight, so "
			"Σ threads / TPS must equal the average latency. More than 5% off is a measurement "
			"warning. Not applicable (n/a) to rate-limited or think-time runs.\n\n");
	header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].sample;
			report_md_cell(sb, g->label);
			cellf(sb, "%lld", (long long)g->reps[k].repetition);
			cellf(sb, "%lld", (long long)f->threads_sum);
			celln(sb, f->tps_sum, 2);
			celln(sb, f->little_pred_ms, 2);
			celln(sb, f->avg_ms_pooled, 2);
			cellf(sb, "%+.1f%%", 100.0 * f->little_dev);
			little_cell(sb, f->little, f->little_dev);
			endrow(sb);
		}
	}
	strbuf_addc(sb, '\n');
}

static void ci_cells(struct strbuf *sb, const struct spread *s)
{
	celln(sb, s->mean, 2);
	celln(sb, s->ci.sd, 2);
	range_cell(sb, s->ci.lo, s->ci.hi);
	range_cell(sb, s->min, s->max);
}

static void repetitions(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "repetitions", "TPS mean", "sd", "95% CI",
		"min–max", "avg latency ms (mean of instances) mean", "sd", "95% CI", "min–max",
		"p99 ms (mean of instance p99s) mean", "sd", "95% CI", "min–max", NULL};
	bool any = false;

	for (size_t i = 0; i < rep->ngroups; i++)
		any |= rep->groups[i].nreps > 1;
	if (!any)
		return;
	strbuf_adds(sb, "## Repetitions\n\nEach repetition is aggregated on its own; mean, sample standard deviation "
			"(sd), the 95% confidence interval of the mean (Student's t with n − 1 degrees of freedom) and "
			"the spread are taken over the repetitions' figures.\n\n");
	header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		if (g->nreps < 2)
			continue;
		report_md_cell(sb, g->label);
		cellf(sb, "%zu", g->nreps);
		ci_cells(sb, &g->tps);
		ci_cells(sb, &g->avg_ms_mean);
		if (g->has_p99_mean)
			ci_cells(sb, &g->p99_mean);
		else
			for (int k = 0; k < 4; k++)
				report_md_cell(sb, "–");
		endrow(sb);
	}
	strbuf_addc(sb, '\n');
}

static void verdicts(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "precondition (last window)", "sample", "bottleneck",
		"drive (busiest device, sample)", "host CPU", "guest vCPUs", "driver CPU per event loop", NULL};

	strbuf_addf(sb, "## Verdicts: steady state and bottleneck\n\n"
		    "**Steady state**: SNIA PTS rule on the TPS of each report interval (a round), summed over the "
		    "instances that ran together: over a window of rounds, max − min within 20%% of the window's mean "
		    "(excursion) and the least-squares line moving at most 10%% of the mean across the window (slope). "
		    "Precondition: its last %zu rounds; sample: all its rounds. A group shows its worst repetition.\n\n"
		    "**Bottleneck** from the sample's telemetry, first rule that holds: driver saturated (>= 0.90 core "
		    "per event loop, or terminals waiting >= 10%% of their response time for a connection), host CPU "
		    ">= 90%% busy, guest vCPUs >= 90%% busy, the drive's busiest device >= 80%% utilised, else unknown. "
		    "A group takes the busiest of each resource over its runs.\n\n", rep->steady_window);
	header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		report_md_cell(sb, g->label);
		steady_cell(sb, g->pre_steady, agg_group_steady(g, RESULT_PHASE_PRECONDITION));
		steady_cell(sb, g->sample_steady, agg_group_steady(g, RESULT_PHASE_SAMPLE));
		bottleneck_cell(sb, g->has_verdict, &g->vin, &g->verdict);
		dev_cell(sb, g->dev);
		/* A hypervisor host's node statistics are named; this machine's /proc/stat is the default. */
		if (g->vin.has_host_cpu && g->vin.host_cpu_src && strcmp(g->vin.host_cpu_src, "/proc/stat"))
			cellf(sb, "%.0f%% (%s)", 100 * g->vin.host_cpu_busy, g->vin.host_cpu_src);
		else
			pct_cell(sb, g->vin.has_host_cpu, g->vin.host_cpu_busy);
		pct_cell(sb, g->vin.has_guest_cpu, g->vin.guest_cpu_busy);
		if (g->vin.has_driver_cpu)
			cellf(sb, "%.2f (%u loop%s)%s", g->verdict.driver.per_loop, g->vin.driver_loops,
			      g->vin.driver_loops == 1 ? "" : "s", g->verdict.driver.saturated ? " **SATURATED**" : "");
		else
			report_md_cell(sb, "–");
		endrow(sb);
	}
	strbuf_addc(sb, '\n');
}

/* --drive: this drive against the drives the page leaves out, per run group. */
static void drive_ranks_md(struct strbuf *sb, const struct report *rep)
{
	bool any = false;

	for (size_t i = 0; i < rep->ngroups; i++)
		any |= rep->groups[i].rank_text != NULL;
	if (!any) {
		strbuf_addf(sb, "No run group of drive %s ran on another drive.\n\n", rep->drive);
		return;
	}
	strbuf_addf(sb, "Drive %s against the other drives of its run groups (they are left out of this page):\n\n",
		    rep->drive);
	for (size_t i = 0; i < rep->ngroups; i++)
		if (rep->groups[i].rank_text)
			strbuf_addf(sb, "- %s: %s\n", rep->groups[i].run_group, rep->groups[i].rank_text);
	strbuf_addc(sb, '\n');
}

static void comparison(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"run group", "rank", "faster", "TPS", "slower", "TPS", "comparison",
		"Welch's t-test", NULL};
	char line[512];

	strbuf_adds(sb, "## Drive comparison\n\n");
	if (!rep->ncmps && rep->drive) {
		drive_ranks_md(sb, rep);
		return;
	}
	if (!rep->ncmps) {
		strbuf_adds(sb, "No run group ran on more than one drive.\n\n");
		return;
	}
	strbuf_adds(sb, "The drives of each run group ranked by mean TPS. For each neighbouring pair: the ratio of "
			"mean TPS with its 95% confidence interval (delta method on the log ratio, Welch-Satterthwaite "
			"degrees of freedom) and Welch's t-test over the repetitions' TPS; the difference is significant "
			"when p < 0.05. With one repetition there is no interval and no test.\n\n");
	header(sb, cols);
	for (size_t i = 0; i < rep->ncmps; i++) {
		const struct agg_cmp *c = &rep->cmps[i];
		const struct agg_group *a = &rep->groups[c->faster], *b = &rep->groups[c->slower];

		cellf(sb, "%s (%s, %lld VMs)", a->run_group, report_kind_title(a->kind), (long long)a->vm_count);
		cellf(sb, "%zu–%zu", a->rank, b->rank);
		report_md_cell(sb, a->drive);
		spread_cell(sb, &a->tps);
		report_md_cell(sb, b->drive);
		spread_cell(sb, &b->tps);
		report_compare_sentence(c, a, b, line, sizeof(line));
		report_md_cell(sb, line);
		if (c->welch.valid)
			cellf(sb, "t = %.2f, df = %.1f, p = %.3g: %s", c->welch.t, c->welch.df, c->welch.p,
			      c->welch.significant ? "significant" : "**NOT significant**");
		else
			report_md_cell(sb, "n/a (needs 2 repetitions on both drives)");
		endrow(sb);
	}
	strbuf_addc(sb, '\n');
}

/* One drive over every run group (VM count). */
static void per_drive(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"run group", "workload", "VMs", "repetitions", "TPS (sum)",
		"avg latency ms (mean of instances)", "p99 ms (mean of instance p99s)", "rank in run group",
		"precondition", "sample", "bottleneck", "drive (busiest device)", "host CPU", "status", NULL};

	strbuf_adds(sb, "## Per drive\n\n");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *d = &rep->groups[i];
		bool first = true;

		if (d->all_drives)
			continue;
		for (size_t j = 0; j < i; j++)
			first &= rep->groups[j].all_drives || strcmp(rep->groups[j].drive, d->drive);
		if (!first)
			continue;
		strbuf_addf(sb, "### Drive %s\n\n", d->drive);
		header(sb, cols);
		for (size_t j = i; j < rep->ngroups; j++) {
			const struct agg_group *g = &rep->groups[j];
			if (g->all_drives || strcmp(g->drive, d->drive))
				continue;
			report_md_cell(sb, *g->run_group ? g->run_group : "(no run group)");
			cellf(sb, "%s %s", report_kind_title(g->kind), g->test);
			cellf(sb, "%lld", (long long)g->vm_count);
			cellf(sb, "%zu", g->nreps);
			spread_cell(sb, &g->tps);
			spread_cell(sb, &g->avg_ms_mean);
			spread_cell(sb, &g->p99_mean);
			if (g->rank)
				cellf(sb, "%zu", g->rank);
			else
				report_md_cell(sb, "–");
			steady_cell(sb, g->pre_steady, agg_group_steady(g, RESULT_PHASE_PRECONDITION));
			steady_cell(sb, g->sample_steady, agg_group_steady(g, RESULT_PHASE_SAMPLE));
			bottleneck_cell(sb, g->has_verdict, &g->vin, &g->verdict);
			dev_cell(sb, g->dev);
			pct_cell(sb, g->vin.has_host_cpu, g->vin.host_cpu_busy);
			report_md_cell(sb, g->incomplete ? "**INCOMPLETE**" : "complete");
			endrow(sb);
		}
		strbuf_addc(sb, '\n');
		for (size_t r = 0; r < rep->runs->n; r++) {
			if (!strcmp(rep->runs->runs[r]->drive, d->drive) && rep->runs->runs[r]->drive_stack) {
				strbuf_addf(sb, "Block devices: %s\n\n", rep->runs->runs[r]->drive_stack);
				break;
			}
		}
		struct strbuf src;
		strbuf_init(&src, 0);
		if (report_tel_sources_text(rep, d->drive, &src))
			strbuf_addf(sb, "Telemetry sources: %s\n\n", src.buf);
		strbuf_release(&src);
	}
}

static void tpcc(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "repetition", "type", "count",
		"avg latency ms (pooled)", "p99 ms (mean of instance p99s)", "max ms", NULL};
	bool any = false;

	for (size_t i = 0; i < rep->ngroups; i++)
		any |= !strcmp(rep->groups[i].kind, "tpcc");
	if (!any)
		return;
	strbuf_adds(sb, "## TPC-C\n\n");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		if (strcmp(g->kind, "tpcc"))
			continue;
		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].sample;
			char b[32];
			report_fmt_num(b, sizeof(b), f->tpmc, 1);
			strbuf_addf(sb, "- %s, repetition %lld: tpmC %s (New-Orders per minute, summed over instances)\n",
				    g->label, (long long)g->reps[k].repetition, f->has_tpmc ? b : "n/a");
		}
	}
	strbuf_addc(sb, '\n');
	header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		if (strcmp(g->kind, "tpcc"))
			continue;
		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].sample;
			for (size_t t = 0; t < f->ntypes; t++) {
				report_md_cell(sb, g->label);
				cellf(sb, "%lld", (long long)g->reps[k].repetition);
				report_md_cell(sb, f->types[t].name);
				cellf(sb, "%llu", (unsigned long long)f->types[t].count);
				celln(sb, f->types[t].avg_ms, 2);
				celln(sb, f->types[t].p99_mean_of_instances_ms, 2);
				celln(sb, f->types[t].max_ms, 2);
				endrow(sb);
			}
		}
	}
	strbuf_addc(sb, '\n');
}

static void precondition(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "repetition", "instances", "seconds",
		"TPS (sum)", "avg latency ms (mean of instances)", "p99 ms (mean of instance p99s)",
		"p99 ms (pooled)", NULL};

	strbuf_adds(sb, "## Precondition (not part of the result)\n\n"
			"The precondition brings the drive to steady state; its figures are shown for "
			"inspection only and never enter the tables above.\n\n");
	header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].pre;
			report_md_cell(sb, g->label);
			cellf(sb, "%lld", (long long)g->reps[k].repetition);
			cellf(sb, "%zu", f->n);
			if (!f->n) {
				for (int c = 0; c < 5; c++)
					report_md_cell(sb, "–");
				endrow(sb);
				continue;
			}
			cellf(sb, "%.0f", f->seconds_max);
			celln(sb, f->tps_sum, 2);
			celln(sb, f->avg_ms_mean, 2);
			opt_ms(sb, f->n_p99 > 0, f->p99_mean_of_instances_ms);
			opt_ms(sb, f->has_pooled_p99, f->p99_pooled_ms);
			endrow(sb);
		}
	}
	strbuf_addc(sb, '\n');
}

static void instances(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"file", "run group", "drive", "instance", "rep", "status",
		"sample s", "threads", "TPS", "avg ms", "p99 ms", "max ms", "retried", "reconnects", "fatal",
		"Little's law", "precondition", "sample", "bottleneck", NULL};

	strbuf_adds(sb, "## Instances (sample phase)\n\n");
	header(sb, cols);
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		const struct phase_stat *p = &r->sample;
		double pred, dev;
		enum little_state st;

		report_md_cell(sb, r->path);
		report_md_cell(sb, r->run_group);
		report_md_cell(sb, r->drive);
		report_md_cell(sb, r->instance);
		cellf(sb, "%lld", (long long)r->repetition);
		if (run_is_complete(r))
			report_md_cell(sb, "complete");
		else
			cellf(sb, "**%s**%s", r->status == RESULT_RUN_COMPLETE ? "sample incomplete" : run_status_name(r->status),
			      r->from_journal ? " (from journal)" : "");
		if (!p->present) {
			for (int c = 0; c < 10; c++)
				report_md_cell(sb, "–");
			steady_cell(sb, rep->rv[i].pre.state, &rep->rv[i].pre);
			steady_cell(sb, rep->rv[i].sample.state, &rep->rv[i].sample);
			bottleneck_cell(sb, rep->rv[i].has_verdict, &rep->rv[i].vin, &rep->rv[i].verdict);
			endrow(sb);
			continue;
		}
		cellf(sb, "%.1f", p->seconds);
		cellf(sb, "%lld", (long long)p->threads);
		celln(sb, p->tps, 2);
		cellf(sb, "%.2f%s", p->lat_avg_ms, p->lat_approx ? " ≈" : "");
		opt_ms(sb, p->has_p99, p->p99_ms);
		celln(sb, p->lat_max_ms, 2);
		cellf(sb, "%llu", (unsigned long long)p->err_ignored);
		cellf(sb, "%llu", (unsigned long long)p->err_reconnects);
		cellf(sb, "%llu", (unsigned long long)p->err_fatal);
		st = little_check((double)p->threads, p->tps, p->lat_avg_ms, r->open_loop, &pred, &dev);
		little_cell(sb, st, dev);
		steady_cell(sb, rep->rv[i].pre.state, &rep->rv[i].pre);
		steady_cell(sb, rep->rv[i].sample.state, &rep->rv[i].sample);
		bottleneck_cell(sb, rep->rv[i].has_verdict, &rep->rv[i].vin, &rep->rv[i].verdict);
		endrow(sb);
	}
	strbuf_adds(sb, "\n≈: rebuilt from journal histogram buckets (no result file).\n\n");
}

/* Cut-off attempts kept by `campaign --resume`: listed, never counted above. */
static void superseded(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"file", "run group", "drive", "instance", "rep", "status", "sample s",
		"TPS", "why it ended", NULL};

	if (!rep->runs->nsuperseded)
		return;
	strbuf_adds(sb, "## Superseded attempts\n\nCut-off attempts that `dbrig campaign --resume` kept as "
			"`<instance>.partial-<n>.*` before running them again: history, not counted in any figure "
			"above.\n\n");
	header(sb, cols);
	for (size_t i = 0; i < rep->runs->nsuperseded; i++) {
		const struct run *r = rep->runs->superseded[i];
		report_md_cell(sb, r->path);
		report_md_cell(sb, r->run_group);
		report_md_cell(sb, r->drive);
		report_md_cell(sb, r->instance);
		cellf(sb, "%lld", (long long)r->repetition);
		cellf(sb, "%s%s", run_status_name(r->status), r->from_journal ? " (from journal)" : "");
		if (r->sample.present) {
			cellf(sb, "%.1f", r->sample.seconds);
			celln(sb, r->sample.tps, 2);
		} else {
			report_md_cell(sb, "–");
			report_md_cell(sb, "–");
		}
		report_md_cell(sb, r->error ? r->error : "–");
		endrow(sb);
	}
	strbuf_addc(sb, '\n');
}

static void keys(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "campaign", "run group", "drive", "workload",
		"test", "VMs", "params", NULL};

	strbuf_adds(sb, "## Grouping keys\n\nResults are aggregated together only when every key below is equal.\n\n");
	header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		report_md_cell(sb, g->label);
		report_md_cell(sb, g->campaign);
		report_md_cell(sb, g->run_group);
		report_md_cell(sb, g->drive);
		report_md_cell(sb, g->kind);
		report_md_cell(sb, g->test);
		cellf(sb, "%lld", (long long)g->vm_count);
		cellf(sb, "`%s`", g->params);
		endrow(sb);
	}
	strbuf_addc(sb, '\n');
}

static void references(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"file", "drive", "configuration", "workload", "VMs", "drives",
		"TPS", "avg latency ms", "p99 ms (mean of VM p99s)", "Little's law", "platform", "method", "source",
		NULL};
	struct strbuf why;

	strbuf_adds(sb, "## Published references\n\n");
	if (!rep->pub || !rep->pub->n) {
		strbuf_adds(sb, "None loaded.\n");
		return;
	}
	header(sb, cols);
	for (size_t i = 0; i < rep->pub->n; i++) {
		const struct pub_review *rv = &rep->pub->reviews[i];
		for (size_t k = 0; k < rv->nresults; k++) {
			const struct pub_result *p = &rv->results[k];
			report_md_cell(sb, rv->file);
			pub_name_cell(sb, p);
			report_md_cell(sb, p->label);
			cellf(sb, "%s %s", report_kind_title(p->kind), p->test);
			cellf(sb, "%lld", (long long)p->vm_count);
			cellf(sb, "%lld", (long long)p->drives);
			celln(sb, p->tps, 2);
			celln(sb, p->avg_ms, 2);
			opt_ms(sb, p->has_p99, p->p99_ms);
			pub_little_md(sb, p);
			report_md_cell(sb, rv->platform);
			report_md_cell(sb, p->method);
			cellf(sb, "%s, %s%s%s", rv->publisher, rv->title, *rv->url ? ", " : "", rv->url);
			endrow(sb);
		}
	}
	strbuf_adds(sb, "\nLittle's law for the published rows (docs/reading-reports.md, \"Published figures and "
			"Little's law\"):\n\n");
	strbuf_init(&why, 0);
	for (size_t i = 0; i < rep->pub->n; i++) {
		const struct pub_review *rv = &rep->pub->reviews[i];
		for (size_t k = 0; k < rv->nresults; k++) {
			struct pub_little l;
			strbuf_reset(&why);
			pub_little(&rv->results[k], &l);
			pub_little_explain(&rv->results[k], &l, &why);
			strbuf_addf(sb, "- %s, %s (%s): %s.\n", rv->file, rv->results[k].label, rv->results[k].kind, why.buf);
		}
	}
	strbuf_release(&why);
}

static void headline_item(void *ctx, const char *lead, const char *text, bool warn)
{
	strbuf_addf(ctx, "- %s**%s**: %s\n", warn ? "⚠ " : "", lead, text);
}

/* The answer first: the same sentences as report.html's headline (report_headlines). */
static void headline(struct strbuf *sb, const struct report *rep)
{
	strbuf_adds(sb, "## Headline\n\n");
	report_headlines(rep, headline_item, sb);
	if (!rep->ncmps && rep->drive)
		strbuf_adds(sb, "\nOnly this drive's runs: its rank against the other drives is under Drive comparison.\n");
	else if (!rep->ncmps)
		strbuf_adds(sb, "\nNo run group ran on more than one drive, so nothing is compared.\n");
	strbuf_addc(sb, '\n');
}

static void bed_row(struct strbuf *sb, const char *name, const char *text)
{
	report_md_cell(sb, name);
	report_md_cell(sb, *text ? text : "not recorded in these results");
	endrow(sb);
}

/* What was measured, with what, where: the fields of report.html's test bed (report_bed_build). */
static void test_bed(struct strbuf *sb, const struct report *rep)
{
	struct report_bed bed;
	struct strbuf t, name;

	report_bed_build(rep, &bed);
	strbuf_init(&t, 0);
	strbuf_init(&name, 0);
	strbuf_adds(sb, "## Test bed\n\n| field | value |\n|---|---|\n");
	report_bed_rows(&bed, sb, bed_row);
	/* Drives without recorded block devices or volume share one row, as in report.html. */
	strbuf_reset(&t);
	for (size_t d = 0; d < bed.ndrives; d++)
		if (!bed.drives[d].run && !bed.drives[d].stack && !*bed.drives[d].storage)
			strbuf_addf(&t, "%s%s", t.len ? "; " : "", bed.drives[d].name);
	if (t.len) {
		strbuf_adds(&t, " (block devices not recorded in these results)");
		bed_row(sb, "drives", t.buf);
	}
	for (size_t d = 0; d < bed.ndrives; d++) {
		const struct report_bed_drive *bd = &bed.drives[d];

		if (!bd->run && !bd->stack && !*bd->storage)
			continue;
		strbuf_reset(&t);
		for (size_t k = 0; bd->run && k < bd->run->ndrive_ids; k++) {
			strbuf_adds(&t, k ? "; " : "");
			report_drive_id_text(&t, &bd->run->drive_ids[k].id);
		}
		if (*bd->storage)
			strbuf_addf(&t, "%svolume: %s", t.len ? "; " : "", bd->storage);
		if (bd->stack)
			strbuf_addf(&t, "%sblock devices: %s", t.len ? "; " : "", bd->stack);
		strbuf_reset(&name);
		strbuf_addf(&name, "drive %s", bd->name);
		bed_row(sb, name.buf, t.buf);
	}
	strbuf_addc(sb, '\n');
	strbuf_release(&t);
	strbuf_release(&name);
	report_bed_release(&bed);
}

static int md_render(const struct report *rep, struct report_files *out)
{
	struct strbuf *sb = report_files_add(out, "report.md");
	size_t complete = 0;

	for (size_t i = 0; i < rep->runs->n; i++)
		complete += run_is_complete(rep->runs->runs[i]);
	if (rep->drive)
		strbuf_addf(sb, "# dbrig report: drive %s\n\nOnly this drive's runs (`report --drive`).\n\n", rep->drive);
	else
		strbuf_adds(sb, "# dbrig report\n\n");
	strbuf_addf(sb, "%zu result%s (%zu complete), %zu group%s, %zu published reference file%s",
		    rep->runs->n, rep->runs->n == 1 ? "" : "s", complete, rep->ngroups, rep->ngroups == 1 ? "" : "s",
		    rep->pub ? rep->pub->n : 0, rep->pub && rep->pub->n == 1 ? "" : "s");
	if (rep->runs->nsuperseded)
		strbuf_addf(sb, "; %zu superseded attempt%s not counted (see the end)", rep->runs->nsuperseded,
			    rep->runs->nsuperseded == 1 ? "" : "s");
	strbuf_adds(sb, ".\n\n");
	headline(sb, rep);
	test_bed(sb, rep);
	if (rep->nwarnings) {
		strbuf_adds(sb, "## Warnings\n\n");
		for (size_t i = 0; i < rep->nwarnings; i++)
			strbuf_addf(sb, "- %s\n", rep->warnings[i]);
		strbuf_addc(sb, '\n');
	}
	summary_table(sb, rep);
	verdicts(sb, rep);
	comparison(sb, rep);
	published_beside(sb, rep);
	lb_md_section(sb, rep); /* report/leaderboard.c */
	little_table(sb, rep);
	repetitions(sb, rep);
	tpcc(sb, rep);
	precondition(sb, rep);
	per_drive(sb, rep);
	instances(sb, rep);
	superseded(sb, rep);
	keys(sb, rep);
	references(sb, rep);
	return 0;
}

const struct report_writer_ops report_md_ops = {
	.name = "md",
	.summary = "report.md: Markdown tables",
	.render = md_render,
};
