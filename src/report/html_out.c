/*
 * One self-contained HTML file: inline CSS and SVG, no scripts, nothing
 * fetched from anywhere. Charts: TPS, average latency, p99 (measured beside
 * published), TPS over time per drive x run group, latency percentile curve.
 */
#include "report/writer.h"

#include "core/escape.h"
#include "report/pub_little.h"
#include "report/svg.h"
#include "stats/hist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum metric {
	METRIC_TPS,
	METRIC_AVG,
	METRIC_P99,
};

/* Same run group: every key but the drive. */
static bool same_run_group(const struct agg_group *a, const struct agg_group *b)
{
	return !strcmp(a->campaign, b->campaign) && !strcmp(a->run_group, b->run_group) &&
	       !strcmp(a->kind, b->kind) && !strcmp(a->test, b->test) && !strcmp(a->params, b->params) &&
	       a->vm_count == b->vm_count;
}

static void pub_bar(struct bar_cat *cat, const struct pub_result *p, enum metric m)
{
	char label[160];

	snprintf(label, sizeof(label), "%s (published)", p->review->drive);
	switch (m) {
	case METRIC_TPS:
		bar_cat_add(cat, label, p->tps, BAR_PUBLISHED, 0);
		break;
	case METRIC_AVG:
		bar_cat_add(cat, label, p->avg_ms, BAR_PUBLISHED, 0);
		break;
	case METRIC_P99:
		if (p->has_p99)
			bar_cat_add(cat, label, p->p99_ms, BAR_PUBLISHED, 0);
		break;
	}
}

static void build_bars(const struct report *rep, enum metric m, struct bar_chart *c)
{
	int drive_color = 0;

	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		struct bar_cat *cat;
		bool first = true;
		char label[256];

		for (size_t j = 0; j < i; j++)
			first &= !same_run_group(&rep->groups[j], g);
		if (!first)
			continue;
		c->cats = xrealloc(c->cats, (c->ncats + 1) * sizeof(*c->cats));
		cat = &c->cats[c->ncats++];
		memset(cat, 0, sizeof(*cat));
		snprintf(label, sizeof(label), "%s (%s, %lld VMs)", *g->run_group ? g->run_group : "(no run group)",
			 report_kind_title(g->kind), (long long)g->vm_count);
		cat->label = xstrdup(label);
		/* Measured bars: every drive of the run group, then its total. */
		for (size_t j = i; j < rep->ngroups; j++) {
			const struct agg_group *h = &rep->groups[j];
			if (!same_run_group(h, g))
				continue;
			snprintf(label, sizeof(label), "%s%s", h->drive, h->incomplete ? " (incomplete)" : "");
			switch (m) {
			case METRIC_TPS:
				bar_cat_add(cat, label, h->tps.mean, BAR_MEASURED, drive_color);
				break;
			case METRIC_AVG:
				bar_cat_add(cat, label, h->avg_ms_mean.mean, BAR_MEASURED, drive_color);
				break;
			case METRIC_P99:
				if (h->has_p99_mean)
					bar_cat_add(cat, label, h->p99_mean.mean, BAR_MEASURED, drive_color);
				if (h->merged) {
					snprintf(label, sizeof(label), "%s pooled", h->drive);
					bar_cat_add(cat, label, h->p99_pooled.mean, BAR_MEASURED_POOLED, drive_color);
					c->uses_pooled = true;
				}
				break;
			}
			drive_color++;
		}
		/* Published bars that match a group of this run group, once each. */
		for (size_t j = i; j < rep->ngroups; j++) {
			const struct agg_group *h = &rep->groups[j];
			if (!same_run_group(h, g))
				continue;
			for (size_t k = 0; k < h->nrefs; k++) {
				bool dup = false;
				for (size_t q = i; q < j; q++)
					for (size_t r = 0; r < rep->groups[q].nrefs; r++)
						dup |= same_run_group(&rep->groups[q], g) && rep->groups[q].refs[r] == h->refs[k];
				if (!dup)
					pub_bar(cat, h->refs[k], m);
			}
		}
	}
	/* References no measured group matches still appear, in categories of their own. */
	for (size_t i = 0; i < rep->nunmatched; i++) {
		const struct pub_result *p = rep->unmatched[i];
		char label[256];
		struct bar_cat *cat;

		snprintf(label, sizeof(label), "published only: %s, %s", report_kind_title(p->kind), p->label);
		c->cats = xrealloc(c->cats, (c->ncats + 1) * sizeof(*c->cats));
		cat = &c->cats[c->ncats++];
		memset(cat, 0, sizeof(*cat));
		cat->label = xstrdup(label);
		pub_bar(cat, p, m);
	}
}

static void bars(struct strbuf *sb, int *chart_id, const struct report *rep, enum metric m, const char *title,
		 const char *ylabel, const char *caption)
{
	struct bar_chart c = {.title = title, .y_label = ylabel};

	build_bars(rep, m, &c);
	strbuf_adds(sb, "<figure>\n");
	svg_bar_chart(sb, &c, (*chart_id)++);
	strbuf_addf(sb, "<figcaption>%s</figcaption>\n</figure>\n", caption);
	bar_chart_release(&c);
}

static void tps_over_time(struct strbuf *sb, int *chart_id, const struct agg_group *g)
{
	struct line_chart c = {.x_label = "time since run start (s)", .y_label = "TPS (transactions/s)",
			       .marker_label = "precondition | sample",
			       .empty_note = "no interval data in the results or journals"};
	struct strbuf title;

	strbuf_init(&title, 0);
	strbuf_adds(&title, "TPS over time: ");
	strbuf_adds(&title, g->label);
	c.title = title.buf;
	for (size_t k = 0; k < g->nreps; k++) {
		for (size_t i = 0; i < g->reps[k].n; i++) {
			const struct run *r = g->reps[k].runs[i];
			struct line_series *s;
			char name[200];

			c.series = xrealloc(c.series, (c.nseries + 1) * sizeof(*c.series));
			s = &c.series[c.nseries++];
			memset(s, 0, sizeof(*s));
			snprintf(name, sizeof(name), "%s%s%s", *r->instance ? r->instance : r->path,
				 run_is_complete(r) ? "" : " (incomplete)", "");
			if (g->nreps > 1) {
				size_t len = strlen(name);
				snprintf(name + len, sizeof(name) - len, " rep %lld", (long long)r->repetition);
			}
			s->name = xstrdup(name);
			for (size_t t = 0; t < r->nintervals; t++) {
				const struct interval_pt *pt = &r->intervals[t];
				line_series_add(s, pt->t, pt->tps);
				if (pt->phase == RESULT_PHASE_PRECONDITION && (!c.has_marker || pt->t > c.marker_x)) {
					c.has_marker = true;
					c.marker_x = pt->t;
				}
			}
		}
	}
	strbuf_adds(sb, "<figure>\n");
	svg_line_chart(sb, &c, (*chart_id)++);
	strbuf_adds(sb, "<figcaption>One line per instance; the dashed red line marks the end of the precondition "
			"(left) and the start of the measured sample (right).</figcaption>\n</figure>\n");
	line_chart_release(&c);
	strbuf_release(&title);
}

static void percentile_curve(struct strbuf *sb, int *chart_id, const struct report *rep)
{
	static const double ticks[] = {0, 1, 2, 3, 4};
	static const char *const labels[] = {"0%", "90%", "99%", "99.9%", "99.99%"};
	struct line_chart c = {.title = "Latency by percentile (sample, merged histograms)",
			       .x_label = "percentile (log scale of 1 / (1 − p))", .y_label = "latency (ms)",
			       .nxticks = 5, .xticks = ticks, .xtick_labels = labels,
			       .empty_note = "no histograms in the results"};

	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		struct line_series *s;

		if (g->all_drives || !g->merged || !g->merged->total)
			continue;
		c.series = xrealloc(c.series, (c.nseries + 1) * sizeof(*c.series));
		s = &c.series[c.nseries++];
		memset(s, 0, sizeof(*s));
		s->name = xstrdup(g->label);
		for (int k = 0; k <= 80; k++) {
			double x = k * 0.05;
			double p = 100.0 * (1.0 - pow(10.0, -x));
			if (p <= 0)
				p = 0.001;
			line_series_add(s, x, (double)hist_value_at_percentile(g->merged, p) / 1e6);
		}
	}
	strbuf_adds(sb, "<figure>\n");
	svg_line_chart(sb, &c, (*chart_id)++);
	strbuf_adds(sb, "<figcaption>Every transaction of the sample, per drive × run group, from the merged "
			"histograms (≤ 1% error). A flat curve that rises late means a short tail.</figcaption>\n</figure>\n");
	line_chart_release(&c);
}

static void td(struct strbuf *sb, const char *s)
{
	strbuf_adds(sb, "<td>");
	escape_html(sb, s);
	strbuf_adds(sb, "</td>");
}

static void tdn(struct strbuf *sb, double v, int dec)
{
	char b[64];

	report_fmt_num(b, sizeof(b), v, dec);
	strbuf_addf(sb, "<td class=\"n\">%s</td>", b);
}

static void summary(struct strbuf *sb, const struct report *rep)
{
	strbuf_adds(sb, "<table>\n<tr><th>drive × run group</th><th>workload</th><th>VMs</th><th>TPS (sum)</th>"
			"<th>avg latency ms<br>(mean of instances)</th><th>avg latency ms<br>(pooled)</th>"
			"<th>p99 ms<br>(mean of instance p99s)</th><th>p99 ms<br>(pooled)</th><th>retried</th>"
			"<th>reconnects</th><th>fatal</th><th>Little's law</th><th>status</th></tr>\n");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		unsigned long long retried = 0, reconn = 0, fatal = 0;
		char b[64];

		for (size_t k = 0; k < g->nreps; k++) {
			retried += g->reps[k].sample.retried;
			reconn += g->reps[k].sample.reconnects;
			fatal += g->reps[k].sample.fatal;
		}
		strbuf_adds(sb, "<tr>");
		td(sb, g->label);
		snprintf(b, sizeof(b), "%s %s", report_kind_title(g->kind), g->test);
		td(sb, b);
		strbuf_addf(sb, "<td class=\"n\">%lld</td>", (long long)g->vm_count);
		tdn(sb, g->tps.mean, 2);
		tdn(sb, g->avg_ms_mean.mean, 2);
		tdn(sb, g->avg_ms_pooled.mean, 2);
		if (g->has_p99_mean)
			tdn(sb, g->p99_mean.mean, 2);
		else
			td(sb, "–");
		if (g->merged)
			tdn(sb, g->p99_pooled.mean, 2);
		else
			td(sb, "–");
		strbuf_addf(sb, "<td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td>",
			    retried, reconn, fatal);
		switch (g->little) {
		case LITTLE_OK:
			strbuf_addf(sb, "<td>ok (%+.1f%%)</td>", 100.0 * g->little_dev);
			break;
		case LITTLE_WARN:
			strbuf_addf(sb, "<td class=\"warn\">WARNING %+.1f%%</td>", 100.0 * g->little_dev);
			break;
		case LITTLE_NA:
			strbuf_adds(sb, "<td>n/a</td>");
			break;
		}
		if (g->incomplete)
			strbuf_addf(sb, "<td class=\"warn\">INCOMPLETE (%zu of %zu runs complete)</td>", g->n_complete,
				    g->n_runs);
		else
			strbuf_adds(sb, "<td>complete</td>");
		strbuf_adds(sb, "</tr>\n");
	}
	strbuf_adds(sb, "</table>\n");
}

static void instances(struct strbuf *sb, const struct report *rep)
{
	strbuf_adds(sb, "<table>\n<tr><th>file</th><th>drive</th><th>instance</th><th>rep</th><th>status</th>"
			"<th>TPS</th><th>avg ms</th><th>p99 ms</th><th>retried</th><th>reconnects</th><th>fatal</th></tr>\n");
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		strbuf_adds(sb, "<tr>");
		td(sb, r->path);
		td(sb, r->drive);
		td(sb, r->instance);
		strbuf_addf(sb, "<td class=\"n\">%lld</td>", (long long)r->repetition);
		if (run_is_complete(r))
			td(sb, "complete");
		else
			strbuf_addf(sb, "<td class=\"warn\">%s%s</td>",
				    r->status == RESULT_RUN_COMPLETE ? "sample incomplete" : run_status_name(r->status),
				    r->from_journal ? " (from journal)" : "");
		if (r->sample.present) {
			tdn(sb, r->sample.tps, 2);
			tdn(sb, r->sample.lat_avg_ms, 2);
			if (r->sample.has_p99)
				tdn(sb, r->sample.p99_ms, 2);
			else
				td(sb, "–");
			strbuf_addf(sb, "<td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td>",
				    (unsigned long long)r->sample.err_ignored, (unsigned long long)r->sample.err_reconnects,
				    (unsigned long long)r->sample.err_fatal);
		} else {
			strbuf_adds(sb, "<td colspan=\"6\">no sample phase</td>");
		}
		strbuf_adds(sb, "</tr>\n");
	}
	strbuf_adds(sb, "</table>\n");
}

/* Every published row with its Little's law check (docs/reading-reports.md). */
static void published_rows(struct strbuf *sb, const struct report *rep)
{
	struct strbuf t;

	if (!rep->pub || !rep->pub->n)
		return;
	strbuf_init(&t, 0);
	strbuf_adds(sb, "<table>\n<tr><th>drive</th><th>configuration</th><th>workload</th><th>VMs</th>"
			"<th>drives</th><th>TPS</th><th>avg ms</th><th>p99 ms</th><th>Little's law</th>"
			"<th>arithmetic</th></tr>\n");
	for (size_t i = 0; i < rep->pub->n; i++) {
		const struct pub_review *rv = &rep->pub->reviews[i];
		for (size_t k = 0; k < rv->nresults; k++) {
			const struct pub_result *p = &rv->results[k];
			struct pub_little l;

			pub_little(p, &l);
			strbuf_adds(sb, "<tr>");
			td(sb, rv->drive);
			td(sb, p->label);
			td(sb, p->kind);
			strbuf_addf(sb, "<td class=\"n\">%lld</td><td class=\"n\">%lld</td>", (long long)p->vm_count,
				    (long long)p->drives);
			tdn(sb, p->tps, 2);
			tdn(sb, p->avg_ms, 2);
			if (p->has_p99)
				tdn(sb, p->p99_ms, 2);
			else
				td(sb, "–");
			strbuf_reset(&t);
			pub_little_cell(p, &l, &t);
			if (l.check == PUB_LITTLE_OFF) {
				strbuf_adds(sb, "<td class=\"warn\">");
				escape_html(sb, t.buf);
				strbuf_adds(sb, "</td>");
			} else {
				td(sb, t.buf);
			}
			strbuf_reset(&t);
			pub_little_explain(p, &l, &t);
			td(sb, t.buf);
			strbuf_adds(sb, "</tr>\n");
		}
	}
	strbuf_adds(sb, "</table>\n");
	strbuf_release(&t);
}

/* Cut-off attempts kept by `campaign --resume`: listed, never counted. */
static void superseded(struct strbuf *sb, const struct report *rep)
{
	if (!rep->runs->nsuperseded)
		return;
	strbuf_adds(sb, "<h2>Superseded attempts</h2>\n<p>Cut-off attempts that <code>dbrig campaign --resume</code> "
			"kept as <code>&lt;instance&gt;.partial-&lt;n&gt;.*</code> before running them again: history, "
			"not counted in any figure above.</p>\n<table>\n<tr><th>file</th><th>drive</th><th>instance</th>"
			"<th>rep</th><th>status</th><th>TPS</th><th>why it ended</th></tr>\n");
	for (size_t i = 0; i < rep->runs->nsuperseded; i++) {
		const struct run *r = rep->runs->superseded[i];
		strbuf_adds(sb, "<tr>");
		td(sb, r->path);
		td(sb, r->drive);
		td(sb, r->instance);
		strbuf_addf(sb, "<td class=\"n\">%lld</td>", (long long)r->repetition);
		td(sb, run_status_name(r->status));
		if (r->sample.present)
			tdn(sb, r->sample.tps, 2);
		else
			td(sb, "–");
		td(sb, r->error ? r->error : "–");
		strbuf_adds(sb, "</tr>\n");
	}
	strbuf_adds(sb, "</table>\n");
}

static int html_render(const struct report *rep, struct report_files *out)
{
	struct strbuf *sb = report_files_add(out, "report.html");
	int chart_id = 0; /* makes SVG pattern ids unique in the page */

	strbuf_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			"<title>dbrig report</title>\n<style>\n"
			"body{font-family:sans-serif;margin:24px;color:#222;max-width:1400px}\n"
			"table{border-collapse:collapse;margin:8px 0 24px}\n"
			"td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}\n"
			"th{background:#f3f3f3}\ntd.n{text-align:right}\n.warn{color:#b00;font-weight:bold}\n"
			"figure{margin:16px 0 32px;overflow-x:auto}\nfigcaption{font-size:13px;color:#555}\n"
			"</style>\n</head>\n<body>\n<h1>dbrig report</h1>\n");
	if (rep->nwarnings) {
		strbuf_adds(sb, "<h2>Warnings</h2>\n<ul class=\"warnings\">\n");
		for (size_t i = 0; i < rep->nwarnings; i++) {
			strbuf_adds(sb, "<li class=\"warn\">");
			escape_html(sb, rep->warnings[i]);
			strbuf_adds(sb, "</li>\n");
		}
		strbuf_adds(sb, "</ul>\n");
	}
	strbuf_adds(sb, "<h2>Results per drive × run group (sample phase)</h2>\n");
	summary(sb, rep);
	strbuf_adds(sb, "<h2>Beside published figures</h2>\n");
	bars(sb, &chart_id, rep, METRIC_TPS, "Throughput: TPS summed over the VMs of a run group", "TPS (transactions/s)",
	     "Solid: measured (sum over instances). Hatched grey: published review figure with the same workload, "
	     "VM count and number of drives.");
	bars(sb, &chart_id, rep, METRIC_AVG, "Average latency: mean of the VMs' averages", "average latency (ms)",
	     "Measured with the published method: the mean of the instances' average latencies.");
	bars(sb, &chart_id, rep, METRIC_P99, "99th percentile latency", "99th percentile latency (ms)",
	     "Solid: mean of the instances' p99s (the published \"average 99th percentile\", an average of "
	     "percentiles). Light: pooled p99 of every transaction from the merged histograms. Hatched: published.");
	published_rows(sb, rep);
	strbuf_adds(sb, "<h2>TPS over time</h2>\n");
	for (size_t i = 0; i < rep->ngroups; i++)
		if (!rep->groups[i].all_drives)
			tps_over_time(sb, &chart_id, &rep->groups[i]);
	strbuf_adds(sb, "<h2>Latency percentiles</h2>\n");
	percentile_curve(sb, &chart_id, rep);
	strbuf_adds(sb, "<h2>Instances</h2>\n");
	instances(sb, rep);
	superseded(sb, rep);
	strbuf_adds(sb, "<p>Tables with every figure: report.md, report-groups.csv, report-instances.csv, report.json."
			"</p>\n</body>\n</html>\n");
	return 0;
}

const struct report_writer_ops report_html_ops = {
	.name = "html",
	.summary = "report.html: one self-contained page with inline SVG charts",
	.render = html_render,
};
