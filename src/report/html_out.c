/*
 * One self-contained HTML file: inline CSS and SVG, no scripts, nothing
 * fetched from anywhere. A table of contents, then the results, the verdicts
 * (steady state, bottleneck), the drive comparison, the charts beside the published
 * figures that match, the published references on their own, TPS over time
 * per drive x run group, the latency percentile curve, one section per drive
 * and the instances.
 *
 * Every chart scales to the page (svg.h); wide tables scroll inside their
 * own box, so the page itself is never wider than the window.
 */
#include "report/writer.h"

#include "core/escape.h"
#include "report/leaderboard.h"
#include "report/pub_little.h"
#include "report/svg.h"
#include "stats/hist.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum metric {
	METRIC_TPS,
	METRIC_AVG,
	METRIC_P99,
};

static void esc(struct strbuf *sb, const char *s)
{
	escape_html(sb, s);
}

/*
 * One colour per drive name, the same in every chart; the total of a run
 * group over several drives ("all 8 drives") is grey (-1), so the twelve
 * palette colours go to drives.
 */
static int drive_color(const struct report *rep, const char *drive)
{
	int n = 0;

	for (size_t i = 0; i < rep->ngroups; i++) {
		bool seen = false;
		if (!strcmp(rep->groups[i].drive, drive))
			return rep->groups[i].all_drives ? -1 : n;
		if (rep->groups[i].all_drives)
			continue;
		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(rep->groups[j].drive, rep->groups[i].drive);
		n += !seen;
	}
	return n;
}

/* "drive-3-pm1743-a": an id for the drive's section, unique in the page. */
static void drive_anchor(struct strbuf *sb, const char *drive, size_t nth)
{
	strbuf_addf(sb, "drive-%zu-", nth);
	for (const char *p = drive; *p; p++)
		strbuf_addc(sb, isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : '-');
}

/* The distinct drives of the per-drive groups, in report order. */
static size_t drive_list(const struct report *rep, const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->ngroups; i++) {
		bool seen = false;
		if (rep->groups[i].all_drives)
			continue;
		for (size_t k = 0; k < n; k++)
			seen |= !strcmp(out[k], rep->groups[i].drive);
		if (!seen)
			out[n++] = rep->groups[i].drive;
	}
	return n;
}

/* "1 VM", "4 VMs". */
static const char *vms_word(long long n)
{
	return n == 1 ? "VM" : "VMs";
}

static void pub_bar(struct bar_cat *cat, const struct pub_result *p, enum metric m)
{
	char label[160];

	snprintf(label, sizeof(label), "%s (published%s)", p->x.drive,
		 p->x.machine_translated ? ", machine-translated" : "");
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

static struct bar_cat *new_cat(struct bar_chart *c, const char *label)
{
	struct bar_cat *cat;

	c->cats = xrealloc(c->cats, (c->ncats + 1) * sizeof(*c->cats));
	cat = &c->cats[c->ncats++];
	memset(cat, 0, sizeof(*cat));
	cat->label = xstrdup(label);
	return cat;
}

static void measured_bar(struct bar_cat *cat, struct bar_chart *c, const struct agg_group *h, enum metric m, int col)
{
	const struct spread *s = NULL;
	char label[256];

	snprintf(label, sizeof(label), "%s%s", h->drive, h->incomplete ? " (incomplete)" : "");
	switch (m) {
	case METRIC_TPS:
		s = &h->tps;
		break;
	case METRIC_AVG:
		s = &h->avg_ms_mean;
		break;
	case METRIC_P99:
		s = &h->p99_mean;
		break;
	}
	/* A group without any instance p99 has no p99 bar (only the pooled one, if merged). */
	if (m != METRIC_P99 || h->has_p99_mean) {
		bar_cat_add(cat, label, s->mean, BAR_MEASURED, col);
		if (s->ci.has_ci)
			bar_cat_set_err(cat, s->ci.lo, s->ci.hi);
	}
	if (m == METRIC_P99 && h->merged) {
		snprintf(label, sizeof(label), "%s pooled", h->drive);
		bar_cat_add(cat, label, h->p99_pooled.mean, BAR_MEASURED_POOLED, col);
		if (h->p99_pooled.ci.has_ci)
			bar_cat_set_err(cat, h->p99_pooled.ci.lo, h->p99_pooled.ci.hi);
		c->uses_pooled = true;
	}
}

/* One category per run group: its drives, its total, then the references that match one of its groups. */
static void build_bars(const struct report *rep, enum metric m, struct bar_chart *c)
{
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		struct bar_cat *cat;
		bool first = true;
		char label[256];

		for (size_t j = 0; j < i; j++)
			first &= !agg_same_run_group(&rep->groups[j], g);
		if (!first)
			continue;
		/* Groups that differ only in params carry the difference in their label: "[threads=16]". */
		snprintf(label, sizeof(label), "%s (%s, %lld %s)%s%s", *g->run_group ? g->run_group : "(no run group)",
			 report_kind_title(g->kind), (long long)g->vm_count, vms_word(g->vm_count),
			 strchr(g->label, '[') ? " " : "",
			 strchr(g->label, '[') ? strchr(g->label, '[') : "");
		cat = new_cat(c, label);
		for (size_t j = i; j < rep->ngroups; j++)
			if (agg_same_run_group(&rep->groups[j], g))
				measured_bar(cat, c, &rep->groups[j], m, drive_color(rep, rep->groups[j].drive));
		for (size_t j = i; j < rep->ngroups; j++) {
			const struct agg_group *h = &rep->groups[j];
			if (!agg_same_run_group(h, g))
				continue;
			for (size_t k = 0; k < h->nrefs; k++) {
				bool dup = false;
				for (size_t q = i; q < j; q++)
					for (size_t r = 0; r < rep->groups[q].nrefs; r++)
						dup |= agg_same_run_group(&rep->groups[q], g) && rep->groups[q].refs[r] == h->refs[k];
				if (!dup)
					pub_bar(cat, h->refs[k], m);
			}
		}
	}
}

static void figure_open(struct strbuf *sb, const char *id)
{
	if (id) {
		strbuf_adds(sb, "<figure id=\"");
		esc(sb, id);
		strbuf_adds(sb, "\">\n");
	} else {
		strbuf_adds(sb, "<figure>\n");
	}
}

static void bars(struct strbuf *sb, int *chart_id, const struct report *rep, enum metric m, const char *title,
		 const char *ylabel, const char *caption)
{
	struct bar_chart c = {.title = title, .y_label = ylabel, .shared_axis = rep->shared_axis};
	struct legend_entry *leg = xcalloc(rep->ngroups + 1, sizeof(*leg));

	/* One swatch per drive (and per "all N drives" total), in its colour. */
	for (size_t i = 0; i < rep->ngroups; i++) {
		bool seen = false;
		for (size_t k = 0; k < c.nlegend; k++)
			seen |= !strcmp(leg[k].name, rep->groups[i].drive);
		if (!seen)
			leg[c.nlegend++] = (struct legend_entry){rep->groups[i].drive, drive_color(rep, rep->groups[i].drive)};
	}
	c.legend = leg;
	build_bars(rep, m, &c);
	figure_open(sb, NULL);
	svg_bar_chart(sb, &c, (*chart_id)++);
	strbuf_addf(sb, "<figcaption>%s</figcaption>\n</figure>\n", caption);
	bar_chart_release(&c);
	free(leg);
}

/* Every reference, by workload and configuration: the published figures on their own. */
static void published_chart(struct strbuf *sb, int *chart_id, const struct report *rep)
{
	struct bar_chart c = {.title = "Published references: TPS summed over the VMs", .y_label = "TPS (transactions/s)"};
	char label[256];

	for (size_t i = 0; i < rep->pub->n; i++) {
		const struct pub_review *rv = &rep->pub->reviews[i];
		for (size_t k = 0; k < rv->nresults; k++) {
			const struct pub_result *p = &rv->results[k];
			struct bar_cat *cat = NULL;

			snprintf(label, sizeof(label), "%s %s, %s", report_kind_title(p->kind), p->test, p->label);
			for (size_t q = 0; q < c.ncats; q++)
				if (!strcmp(c.cats[q].label, label))
					cat = &c.cats[q];
			if (!cat)
				cat = new_cat(&c, label);
			pub_bar(cat, p, METRIC_TPS);
		}
	}
	figure_open(sb, NULL);
	svg_bar_chart(sb, &c, (*chart_id)++);
	strbuf_adds(sb, "<figcaption>Every loaded reference, grouped by workload and configuration (VMs, drives); "
			"platforms differ between reviews.</figcaption>\n</figure>\n");
	bar_chart_release(&c);
}

/*
 * The TPS of a repetition's instances summed per report interval (the figure
 * reviews plot): over the intervals every instance has, at the first
 * instance's times.
 */
static void rep_sum(const struct agg_rep *rp, struct line_series *s)
{
	size_t n = rp->n ? rp->runs[0]->nintervals : 0;

	for (size_t i = 1; i < rp->n; i++)
		if (rp->runs[i]->nintervals < n)
			n = rp->runs[i]->nintervals;
	for (size_t t = 0; t < n; t++) {
		double sum = 0;
		for (size_t i = 0; i < rp->n; i++)
			sum += rp->runs[i]->intervals[t].tps;
		line_series_add(s, rp->runs[0]->intervals[t].t, sum);
	}
}

/* The highest TPS a group's TPS-over-time chart draws: an instance's or a sum's. */
static double tps_chart_max(const struct agg_group *g)
{
	double m = 0;

	for (size_t k = 0; k < g->nreps; k++) {
		struct line_series s = {0};

		rep_sum(&g->reps[k], &s);
		for (size_t t = 0; t < s.n; t++)
			m = s.y[t] > m ? s.y[t] : m;
		free(s.x);
		free(s.y);
		for (size_t i = 0; i < g->reps[k].n; i++)
			for (size_t t = 0; t < g->reps[k].runs[i]->nintervals; t++)
				m = g->reps[k].runs[i]->intervals[t].tps > m ? g->reps[k].runs[i]->intervals[t].tps : m;
	}
	return m;
}

/* One y scale for the drives of a run group, so their charts side by side compare. */
static double tps_chart_top(const struct report *rep, const struct agg_group *g)
{
	double m = 0;

	for (size_t j = 0; j < rep->ngroups; j++) {
		const struct agg_group *h = &rep->groups[j];
		if (!h->all_drives && agg_same_run_group(h, g)) {
			double v = tps_chart_max(h);
			m = v > m ? v : m;
		}
	}
	return m > 0 ? svg_axis_top(m) : 0;
}

static struct line_series *new_series(struct line_chart *c)
{
	struct line_series *s;

	c->series = xrealloc(c->series, (c->nseries + 1) * sizeof(*c->series));
	s = &c->series[c->nseries++];
	memset(s, 0, sizeof(*s));
	return s;
}

static void tps_over_time(struct strbuf *sb, int *chart_id, const struct report *rep, const struct agg_group *g,
			  size_t gi)
{
	struct line_chart c = {.x_label = "time since run start (s)", .y_label = "TPS (transactions/s)",
			       .marker_label = "precondition | sample",
			       .empty_note = "no interval data in the results or journals"};
	struct strbuf title, id;

	strbuf_init(&title, 0);
	strbuf_init(&id, 0);
	strbuf_adds(&title, "TPS over time: ");
	strbuf_adds(&title, g->label);
	strbuf_addf(&id, "tps-%zu", gi);
	c.title = title.buf;
	c.ymax = tps_chart_top(rep, g);
	for (size_t k = 0; k < g->nreps; k++) {
		for (size_t i = 0; i < g->reps[k].n; i++) {
			const struct run *r = g->reps[k].runs[i];
			struct line_series *s = new_series(&c);
			char name[200];

			snprintf(name, sizeof(name), "%s%s", *r->instance ? r->instance : r->path,
				 run_is_complete(r) ? "" : " (incomplete)");
			if (g->nreps > 1) {
				size_t len = strlen(name);
				snprintf(name + len, sizeof(name) - len, " rep %lld", (long long)r->repetition);
			}
			s->name = xstrdup(name);
			/* Instances in the palette after the drive's own colour, which the sum takes. */
			s->has_color = true;
			s->color = drive_color(rep, g->drive) + 1 + (int)(c.nseries - 1);
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
	/* The sum over the instances that ran together, drawn last (on top), thick, in the drive's colour. */
	for (size_t k = 0; k < g->nreps; k++) {
		struct line_series *s;
		char name[200];

		if (g->reps[k].n < 2)
			continue;
		s = new_series(&c);
		snprintf(name, sizeof(name), "sum of %zu instances", g->reps[k].n);
		if (g->nreps > 1) {
			size_t len = strlen(name);
			snprintf(name + len, sizeof(name) - len, " rep %lld", (long long)g->reps[k].repetition);
		}
		s->name = xstrdup(name);
		s->bold = s->has_color = true;
		s->color = drive_color(rep, g->drive);
		s->dashed = k > 0;
		rep_sum(&g->reps[k], s);
	}
	figure_open(sb, id.buf);
	svg_line_chart(sb, &c, (*chart_id)++);
	strbuf_adds(sb, "</figure>\n");
	line_chart_release(&c);
	strbuf_release(&title);
	strbuf_release(&id);
}

/* Host CPU and the busiest device's utilisation per interval, one pair of lines per instance. */
static void telemetry_over_time(struct strbuf *sb, int *chart_id, const struct agg_group *g)
{
	struct line_chart c = {.x_label = "time since run start (s)", .y_label = "busy / utilised (%)", .ymax = 100,
			       .marker_label = "precondition | sample", .empty_note = "no telemetry in the intervals"};
	struct strbuf title;

	strbuf_init(&title, 0);
	strbuf_adds(&title, "Drive utilisation and host CPU: ");
	strbuf_adds(&title, g->label);
	c.title = title.buf;
	/*
	 * The instances of a drive x run group share the drive and the host: one
	 * drive line and one host CPU line per repetition (the first instance
	 * that sampled each), not the same series once per instance.
	 */
	for (size_t k = 0; k < g->nreps; k++) {
		const struct run *dr = NULL, *hr = NULL;
		struct line_series *dev, *cpu;
		char rep_s[40] = "", name[200];

		for (size_t i = 0; i < g->reps[k].n; i++) {
			const struct run *r = g->reps[k].runs[i];
			for (size_t t = 0; t < r->nintervals; t++) {
				if (!dr && r->intervals[t].has_dev)
					dr = r;
				if (!hr && r->intervals[t].has_host)
					hr = r;
			}
		}
		if (g->nreps > 1)
			snprintf(rep_s, sizeof(rep_s), " rep %lld", (long long)g->reps[k].repetition);
		new_series(&c);
		cpu = new_series(&c);
		dev = cpu - 1; /* both added first: new_series moves the array */
		snprintf(name, sizeof(name), "drive util%s", rep_s);
		dev->name = xstrdup(name);
		snprintf(name, sizeof(name), "host CPU%s", rep_s);
		cpu->name = xstrdup(name);
		cpu->dashed = true;
		/* One colour per repetition: solid drive, dashed CPU. */
		dev->has_color = cpu->has_color = true;
		dev->color = cpu->color = (int)k;
		for (size_t t = 0; dr && t < dr->nintervals; t++)
			if (dr->intervals[t].has_dev)
				line_series_add(dev, dr->intervals[t].t, 100 * dr->intervals[t].dev_util);
		for (size_t t = 0; hr && t < hr->nintervals; t++)
			if (hr->intervals[t].has_host)
				line_series_add(cpu, hr->intervals[t].t, 100 * hr->intervals[t].host_busy);
		for (size_t i = 0; i < g->reps[k].n; i++) {
			const struct run *r = g->reps[k].runs[i];
			for (size_t t = 0; t < r->nintervals; t++)
				if (r->intervals[t].phase == RESULT_PHASE_PRECONDITION &&
				    (!c.has_marker || r->intervals[t].t > c.marker_x)) {
					c.has_marker = true;
					c.marker_x = r->intervals[t].t;
				}
		}
	}
	figure_open(sb, NULL);
	svg_line_chart(sb, &c, (*chart_id)++);
	strbuf_adds(sb, "</figure>\n");
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
	figure_open(sb, NULL);
	svg_line_chart(sb, &c, (*chart_id)++);
	strbuf_adds(sb, "<figcaption>Every transaction of the sample, per drive × run group, from the merged "
			"histograms (≤ 1% error). A flat curve that rises late means a short tail.</figcaption>\n</figure>\n");
	line_chart_release(&c);
}

static void td(struct strbuf *sb, const char *s)
{
	strbuf_adds(sb, "<td>");
	esc(sb, s);
	strbuf_adds(sb, "</td>");
}

/*
 * A name or a path: it breaks at spaces only, never at a hyphen or a slash
 * ("pm1735-a", "1-instance-1-drive/drive-a/vm1.json" stay whole).
 */
static void name_text(struct strbuf *sb, const char *s)
{
	struct strbuf w;

	strbuf_init(&w, 0);
	while (*s) {
		size_t n = strcspn(s, " ");

		strbuf_reset(&w);
		for (size_t i = 0; i < n; i++)
			strbuf_addc(&w, s[i]);
		if (strpbrk(w.buf, "-/")) {
			strbuf_adds(sb, "<span class=\"nw\">");
			esc(sb, w.buf);
			strbuf_adds(sb, "</span>");
		} else {
			esc(sb, w.buf);
		}
		s += n;
		for (; *s == ' '; s++)
			strbuf_addc(sb, ' ');
	}
	strbuf_release(&w);
}

static void td_name(struct strbuf *sb, const char *s)
{
	strbuf_adds(sb, "<td>");
	name_text(sb, s);
	strbuf_adds(sb, "</td>");
}

static void tdn(struct strbuf *sb, double v, int dec)
{
	char b[64];

	report_fmt_num(b, sizeof(b), v, dec);
	strbuf_addf(sb, "<td class=\"n\">%s</td>", b);
}

/* A figure over repetitions: the mean, and below it "± half-width (95% CI, n)". */
static void td_spread(struct strbuf *sb, const struct spread *s, bool has)
{
	char b[64], h[64];

	if (!has) {
		strbuf_adds(sb, "<td class=\"n\">–</td>");
		return;
	}
	report_fmt_num(b, sizeof(b), s->mean, 2);
	if (!s->ci.has_ci) {
		strbuf_addf(sb, "<td class=\"n\">%s</td>", b);
		return;
	}
	report_fmt_num(h, sizeof(h), s->ci.half, 2);
	strbuf_addf(sb, "<td class=\"n\">%s<small>± %s, sd ", b, h);
	report_fmt_num(h, sizeof(h), s->ci.sd, 2);
	strbuf_addf(sb, "%s, n %zu</small></td>", h, s->ci.n);
}

static void td_steady(struct strbuf *sb, enum steady_state st, const struct steady_result *r)
{
	switch (st) {
	case STEADY_YES:
		strbuf_adds(sb, "<td>steady");
		break;
	case STEADY_NO:
		strbuf_adds(sb, "<td class=\"warn\">NOT steady");
		break;
	case STEADY_NA:
		strbuf_addf(sb, "<td>n/a<small>%zu round%s, need %d</small></td>", r ? r->rounds : 0,
			    r && r->rounds == 1 ? "" : "s", STEADY_MIN_WINDOW);
		return;
	}
	if (r && r->state != STEADY_NA)
		strbuf_addf(sb, "<small>%zu rounds: excursion %.1f%%%s, slope %.1f%%%s</small>", r->rounds,
			    100 * r->excursion, r->excursion_ok ? "" : " &gt; 20%", 100 * r->slope_excursion,
			    r->slope_ok ? "" : " &gt; 10%");
	strbuf_adds(sb, "</td>");
}

/* The bottleneck, and the rule's figures below it; "–" without telemetry. */
static void td_bottleneck(struct strbuf *sb, bool has, const struct verdict_in *in, const struct verdict *v)
{
	char why[300];

	if (!has) {
		strbuf_adds(sb, "<td>–<small>no telemetry</small></td>");
		return;
	}
	verdict_explain(in, v, why, sizeof(why));
	strbuf_addf(sb, "<td%s><b>%s</b><small>", bottleneck_is_storage(v->bottleneck) ? "" : " class=\"warn\"",
		    bottleneck_name(v->bottleneck));
	esc(sb, why);
	strbuf_adds(sb, "</small></td>");
}

static void td_dev(struct strbuf *sb, const struct tel_dev *d)
{
	char b[300];

	if (!d) {
		strbuf_adds(sb, "<td>–</td>");
		return;
	}
	report_dev_text(d, b, sizeof(b));
	td(sb, b);
}

static void td_pct(struct strbuf *sb, bool has, double frac)
{
	if (has)
		strbuf_addf(sb, "<td class=\"n\">%.0f%%</td>", 100 * frac);
	else
		strbuf_adds(sb, "<td class=\"n\">–</td>");
}

static void td_driver(struct strbuf *sb, const struct verdict_in *in, const struct verdict *v)
{
	if (!in->has_driver_cpu) {
		strbuf_adds(sb, "<td>–</td>");
		return;
	}
	strbuf_addf(sb, "<td class=\"n%s\">%.2f<small>core per loop (%u loop%s)%s</small></td>",
		    v->driver.saturated ? " warn" : "", v->driver.per_loop, in->driver_loops,
		    in->driver_loops == 1 ? "" : "s", v->driver.saturated ? ": SATURATED" : "");
}

static void table_open(struct strbuf *sb, const char *header)
{
	strbuf_addf(sb, "<div class=\"scroll\"><table>\n<tr>%s</tr>\n", header);
}

static void table_close(struct strbuf *sb)
{
	strbuf_adds(sb, "</table></div>\n");
}

static void summary(struct strbuf *sb, const struct report *rep)
{
	table_open(sb, "<th>drive × run group</th><th>workload</th><th>VMs</th><th>instances</th><th>TPS (sum)</th>"
		       "<th>TPS per instance<br>min–max</th>"
		       "<th>avg latency ms<br>(mean of instances)</th><th>avg latency ms<br>(pooled)</th>"
		       "<th>p99 ms<br>(mean of instance p99s)</th><th>p99 ms<br>(pooled)</th><th>retried</th>"
		       "<th>reconnects</th><th>fatal</th><th>Little's law</th><th>status</th><th>bottleneck</th>");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		unsigned long long retried = 0, reconn = 0, fatal = 0;
		size_t ninst = 0;
		double tmin = 0, tmax = 0;
		char b[64], lo[32], hi[32];

		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].sample;
			if (k == 0 || f->tps_min < tmin)
				tmin = f->tps_min;
			if (k == 0 || f->tps_max > tmax)
				tmax = f->tps_max;
			ninst += g->reps[k].n;
			retried += g->reps[k].sample.retried;
			reconn += g->reps[k].sample.reconnects;
			fatal += g->reps[k].sample.fatal;
		}
		strbuf_adds(sb, "<tr>");
		td_name(sb, g->label);
		snprintf(b, sizeof(b), "%s %s", report_kind_title(g->kind), g->test);
		td(sb, b);
		strbuf_addf(sb, "<td class=\"n\">%lld</td>", (long long)g->vm_count);
		/* Instances beside VMs: "8 VMs, 1 instance" is one drive's share of an 8-drive group. */
		if (g->nreps > 1)
			strbuf_addf(sb, "<td class=\"n\">%zu<small>%zu reps</small></td>", ninst, g->nreps);
		else
			strbuf_addf(sb, "<td class=\"n\">%zu</td>", ninst);
		td_spread(sb, &g->tps, true);
		report_fmt_num(lo, sizeof(lo), tmin, 2);
		report_fmt_num(hi, sizeof(hi), tmax, 2);
		strbuf_addf(sb, "<td class=\"n\"><span class=\"nw\">%s–%s</span></td>", lo, hi);
		td_spread(sb, &g->avg_ms_mean, true);
		td_spread(sb, &g->avg_ms_pooled, true);
		td_spread(sb, &g->p99_mean, g->has_p99_mean);
		td_spread(sb, &g->p99_pooled, g->merged != NULL);
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
		td_bottleneck(sb, g->has_verdict, &g->vin, &g->verdict);
		strbuf_adds(sb, "</tr>\n");
	}
	table_close(sb);
}

static void verdicts(struct strbuf *sb, const struct report *rep)
{
	strbuf_addf(sb, "<p><b>Steady state</b> by the SNIA PTS rule on the TPS of each report interval (summed over "
			"the instances that ran together): over a window of rounds, max − min within 20%% of the "
			"window's mean and the least-squares line moving at most 10%% of it. Precondition: its last %zu "
			"rounds; sample: all its rounds. A group shows its worst repetition. <b>Bottleneck</b> from the "
			"sample's telemetry, first rule that holds: driver saturated (≥ 0.90 core per event loop, or "
			"terminals waiting ≥ 10%% of their response time for a connection), host CPU ≥ 90%% busy, guest "
			"vCPUs ≥ 90%% busy, the drive's busiest device ≥ 80%% utilised, else unknown. A group takes the "
			"busiest of each resource over its runs.</p>\n", rep->steady_window);
	table_open(sb, "<th>drive × run group</th><th>precondition (last window)</th><th>sample</th><th>bottleneck</th>"
		       "<th>drive (busiest device, sample)</th><th>host CPU</th><th>guest vCPUs</th><th>driver CPU</th>");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];

		strbuf_adds(sb, "<tr>");
		td_name(sb, g->label);
		td_steady(sb, g->pre_steady, agg_group_steady(g, RESULT_PHASE_PRECONDITION));
		td_steady(sb, g->sample_steady, agg_group_steady(g, RESULT_PHASE_SAMPLE));
		td_bottleneck(sb, g->has_verdict, &g->vin, &g->verdict);
		td_dev(sb, g->dev);
		/* A hypervisor host's node statistics are named; this machine's /proc/stat is the default. */
		if (g->vin.has_host_cpu && g->vin.host_cpu_src && strcmp(g->vin.host_cpu_src, "/proc/stat")) {
			strbuf_addf(sb, "<td class=\"n\">%.0f%% <small>(", 100 * g->vin.host_cpu_busy);
			escape_html(sb, g->vin.host_cpu_src);
			strbuf_adds(sb, ")</small></td>");
		} else {
			td_pct(sb, g->vin.has_host_cpu, g->vin.host_cpu_busy);
		}
		td_pct(sb, g->vin.has_guest_cpu, g->vin.guest_cpu_busy);
		td_driver(sb, &g->vin, &g->verdict);
		strbuf_adds(sb, "</tr>\n");
	}
	table_close(sb);
}

/* --drive: this drive against the drives the page leaves out, per run group. */
static void drive_ranks_html(struct strbuf *sb, const struct report *rep)
{
	bool any = false;

	for (size_t i = 0; i < rep->ngroups; i++)
		any |= rep->groups[i].rank_text != NULL;
	strbuf_adds(sb, "<p>");
	if (!any) {
		strbuf_adds(sb, "No run group of drive ");
		esc(sb, rep->drive);
		strbuf_adds(sb, " ran on another drive.</p>\n");
		return;
	}
	strbuf_adds(sb, "Drive ");
	esc(sb, rep->drive);
	strbuf_adds(sb, " against the other drives of its run groups (they are left out of this page):</p>\n<ul>\n");
	for (size_t i = 0; i < rep->ngroups; i++) {
		if (!rep->groups[i].rank_text)
			continue;
		strbuf_adds(sb, "<li>");
		esc(sb, rep->groups[i].run_group);
		strbuf_adds(sb, ": ");
		esc(sb, rep->groups[i].rank_text);
		strbuf_adds(sb, "</li>\n");
	}
	strbuf_adds(sb, "</ul>\n");
}

static void comparison(struct strbuf *sb, const struct report *rep)
{
	char line[512];

	if (!rep->ncmps && rep->drive) {
		drive_ranks_html(sb, rep);
		return;
	}
	if (!rep->ncmps) {
		strbuf_adds(sb, "<p>No run group ran on more than one drive.</p>\n");
		return;
	}
	strbuf_adds(sb, "<p>The drives of each run group ranked by mean TPS. Each neighbouring pair: the ratio of "
			"mean TPS with its 95% confidence interval (delta method on the log ratio) and Welch's "
			"t-test over the repetitions' TPS; the difference is significant when p &lt; 0.05. With "
			"one repetition there is no interval and no test.</p>\n");
	table_open(sb, "<th>run group</th><th>faster</th><th>TPS</th><th>slower</th><th>TPS</th><th>comparison</th>"
		       "<th>Welch's t-test</th>");
	for (size_t i = 0; i < rep->ncmps; i++) {
		const struct agg_cmp *c = &rep->cmps[i];
		const struct agg_group *a = &rep->groups[c->faster], *b = &rep->groups[c->slower];

		strbuf_adds(sb, "<tr>");
		snprintf(line, sizeof(line), "%s (%s, %lld %s)", a->run_group, report_kind_title(a->kind),
			 (long long)a->vm_count, vms_word(a->vm_count));
		td(sb, line);
		td_name(sb, a->drive);
		td_spread(sb, &a->tps, true);
		td_name(sb, b->drive);
		td_spread(sb, &b->tps, true);
		report_compare_sentence(c, a, b, line, sizeof(line));
		td(sb, line);
		if (c->welch.valid)
			strbuf_addf(sb, "<td%s>t = %.2f, df = %.1f, p = %.3g: %s</td>", c->welch.significant ? "" :
				    " class=\"warn\"", c->welch.t, c->welch.df, c->welch.p,
				    c->welch.significant ? "significant" : "NOT significant");
		else
			strbuf_adds(sb, "<td>n/a (needs 2 repetitions on both drives)</td>");
		strbuf_adds(sb, "</tr>\n");
	}
	table_close(sb);
}

static void instances(struct strbuf *sb, const struct report *rep)
{
	table_open(sb, "<th>file</th><th>drive</th><th>instance</th><th>rep</th><th>status</th><th>TPS</th>"
		       "<th>avg ms</th><th>p99 ms</th><th>retried</th><th>reconnects</th><th>fatal</th>"
		       "<th>precondition</th><th>sample</th><th>bottleneck</th>");
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		strbuf_adds(sb, "<tr>");
		td_name(sb, r->path);
		td_name(sb, r->drive);
		td_name(sb, r->instance);
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
		td_steady(sb, rep->rv[i].pre.state, &rep->rv[i].pre);
		td_steady(sb, rep->rv[i].sample.state, &rep->rv[i].sample);
		td_bottleneck(sb, rep->rv[i].has_verdict, &rep->rv[i].vin, &rep->rv[i].verdict);
		strbuf_adds(sb, "</tr>\n");
	}
	table_close(sb);
}

/* Why the bar charts have no published bar, when none matches. */
static void beside_note(struct strbuf *sb, const struct report *rep)
{
	bool any = false;

	for (size_t i = 0; i < rep->ngroups; i++)
		any |= rep->groups[i].nrefs > 0;
	if (any)
		strbuf_adds(sb, "<p>Each run group on its own value axis (<code>report --shared-axis</code> draws one "
				"axis for all); one colour per drive. Hatched grey bars are published figures with the same "
				"workload, VM count and number of drives; platforms differ, so compare with care.</p>\n");
	else
		strbuf_adds(sb, "<p>No published reference has the same workload, VM count and number of drives as any "
				"measured group, so no published bar stands beside these. Each run group on its own value "
				"axis (<code>report --shared-axis</code> draws one axis for all); one colour per drive.</p>\n");
}

static void published_section(struct strbuf *sb, int *chart_id, const struct report *rep)
{
	struct strbuf t;

	if (!rep->pub || !rep->pub->n) {
		strbuf_adds(sb, "<p>None loaded (<code>--compare none</code>, or an empty folder).</p>\n");
		return;
	}
	strbuf_init(&t, 0);
	strbuf_adds(sb, "<p>Every reference loaded, with its Little's law check. Each appears in the charts above "
			"only beside the run groups it matches: same workload and test, same number of VMs and of "
			"drives, same load per instance, and the same scale where both state it.</p>\n");
	table_open(sb, "<th>drive</th><th>configuration</th><th>workload</th><th>VMs</th><th>drives</th><th>TPS</th>"
		       "<th>avg latency ms</th><th>p99 ms<br>(mean of VM p99s)</th><th>Little's law</th><th>arithmetic</th>"
		       "<th>beside</th><th>platform</th><th>source</th>");
	for (size_t i = 0; i < rep->pub->n; i++) {
		const struct pub_review *rv = &rep->pub->reviews[i];
		for (size_t k = 0; k < rv->nresults; k++) {
			const struct pub_result *p = &rv->results[k];
			struct pub_little l;
			struct strbuf beside;
			char b[200];

			strbuf_init(&beside, 0);
			for (size_t g = 0; g < rep->ngroups; g++)
				for (size_t r = 0; r < rep->groups[g].nrefs; r++)
					if (rep->groups[g].refs[r] == p)
						strbuf_addf(&beside, "%s%s", beside.len ? "; " : "", rep->groups[g].label);
			strbuf_adds(sb, "<tr>");
			strbuf_reset(&t);
			pub_row_name(p, &t);
			td_name(sb, t.buf);
			td(sb, p->label);
			snprintf(b, sizeof(b), "%s %s", report_kind_title(p->kind), p->test);
			td(sb, b);
			strbuf_addf(sb, "<td class=\"n\">%lld</td><td class=\"n\">%lld</td>", (long long)p->vm_count,
				    (long long)p->drives);
			tdn(sb, p->tps, 2);
			tdn(sb, p->avg_ms, 2);
			if (p->has_p99)
				tdn(sb, p->p99_ms, 2);
			else
				td(sb, "–");
			pub_little(p, &l);
			strbuf_reset(&t);
			pub_little_cell(p, &l, &t);
			if (l.check == PUB_LITTLE_OFF) {
				strbuf_adds(sb, "<td class=\"warn\">");
				esc(sb, t.buf);
				strbuf_adds(sb, "</td>");
			} else {
				td(sb, t.buf);
			}
			strbuf_reset(&t);
			pub_little_explain(p, &l, &t);
			td(sb, t.buf);
			td(sb, beside.len ? beside.buf : "no measured group");
			td(sb, rv->platform);
			snprintf(b, sizeof(b), "%s: %s", rv->publisher, rv->title);
			td(sb, b);
			strbuf_adds(sb, "</tr>\n");
			strbuf_release(&beside);
		}
	}
	table_close(sb);
	strbuf_release(&t);
	published_chart(sb, chart_id, rep);
}

/* One drive over every run group (VM count): its figures, verdicts and charts. */
/* threads=N of a group's params, or 0. */
static long params_threads(const char *params)
{
	const char *t = strstr(params, "threads=");

	while (t && t != params && t[-1] != ' ')
		t = strstr(t + 1, "threads=");
	return t ? strtol(t + 8, NULL, 10) : 0;
}

/* The params without threads=N: what a thread sweep's points share. */
static void params_without_threads(const char *params, struct strbuf *sb)
{
	char *copy = xstrdup(params), *save = NULL;

	for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (strncmp(tok, "threads=", 8))
			strbuf_addf(sb, "%s%s", sb->len ? " " : "", tok);
	free(copy);
}

/*
 * --drive: the drive's scaling, one chart per metric, against VM count (the
 * groups that differ in VM count only) or against threads (that differ in
 * threads only); a line per such series, drawn when it has 2 points or more.
 * Returns the charts drawn.
 */
static int scaling_chart(struct strbuf *sb, int *chart_id, const struct report *rep, bool by_threads, enum metric m)
{
	static const char *const ylab[] = {"TPS (transactions/s)", "average latency (ms, mean of instances)",
					   "p99 latency (ms, mean of instance p99s)"};
	struct line_chart c = {.x_label = by_threads ? "threads per instance" : "VMs (instances at once)",
			       .y_label = ylab[m]};
	struct strbuf title, key, other;
	size_t nseries = 0, drawn = 0;
	char **keys = xcalloc(rep->ngroups + 1, sizeof(*keys));

	strbuf_init(&title, 0);
	strbuf_init(&key, 0);
	strbuf_init(&other, 0);
	c.series = xcalloc(rep->ngroups + 1, sizeof(*c.series));
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		double x = by_threads ? (double)params_threads(g->params) : (double)g->vm_count, y;
		size_t s;

		if (g->all_drives || g->slice || x <= 0)
			continue;
		y = m == METRIC_TPS ? g->tps.mean : m == METRIC_AVG ? g->avg_ms_mean.mean : g->p99_mean.mean;
		if (m == METRIC_P99 && !g->has_p99_mean)
			continue;
		strbuf_reset(&key);
		strbuf_reset(&other);
		params_without_threads(g->params, &other);
		strbuf_addf(&key, "%s|%s|%s|%s|%s|", g->campaign, g->run_id, g->kind, g->test,
			    by_threads ? other.buf : g->params);
		if (by_threads)
			strbuf_addf(&key, "%lld", (long long)g->vm_count);
		for (s = 0; s < nseries && strcmp(keys[s], key.buf); s++)
			;
		if (s == nseries) {
			char name[160];
			keys[nseries++] = xstrdup(key.buf);
			if (by_threads)
				snprintf(name, sizeof(name), "%s, %lld VM%s", report_kind_title(g->kind), (long long)g->vm_count,
					 g->vm_count == 1 ? "" : "s");
			else
				snprintf(name, sizeof(name), "%s, %ld threads", report_kind_title(g->kind), params_threads(g->params));
			c.series[s].name = xstrdup(name);
		}
		/* Points in x order. */
		struct line_series *ls = &c.series[s];
		line_series_add(ls, x, y);
		for (size_t k = ls->n - 1; k > 0 && ls->x[k - 1] > ls->x[k]; k--) {
			double tx = ls->x[k], ty = ls->y[k];
			ls->x[k] = ls->x[k - 1];
			ls->y[k] = ls->y[k - 1];
			ls->x[k - 1] = tx;
			ls->y[k - 1] = ty;
		}
	}
	/* Only series with 2 points or more are a scaling curve. */
	for (size_t s = 0; s < nseries; s++) {
		if (c.series[s].n >= 2)
			c.series[drawn++] = c.series[s];
		else {
			free(c.series[s].name);
			free(c.series[s].x);
			free(c.series[s].y);
		}
		free(keys[s]);
	}
	free(keys);
	c.nseries = drawn;
	if (drawn) {
		strbuf_addf(&title, "%s of %s against %s", m == METRIC_TPS ? "TPS" : m == METRIC_AVG ? "Average latency" :
			    "p99 latency", rep->drive, by_threads ? "threads" : "VM count");
		c.title = title.buf;
		figure_open(sb, NULL);
		svg_line_chart(sb, &c, (*chart_id)++);
		strbuf_adds(sb, "</figure>\n");
	}
	line_chart_release(&c);
	strbuf_release(&title);
	strbuf_release(&key);
	strbuf_release(&other);
	return drawn ? 1 : 0;
}

static void scaling_section(struct strbuf *sb, int *chart_id, const struct report *rep)
{
	int n = 0;

	strbuf_adds(sb, "<h2 id=\"scaling\">Scaling</h2>\n<div class=\"grid\">\n");
	for (int by = 0; by < 2; by++)
		for (enum metric m = METRIC_TPS; m <= METRIC_P99; m++)
			n += scaling_chart(sb, chart_id, rep, by == 1, m);
	strbuf_adds(sb, "</div>\n");
	if (!n)
		strbuf_adds(sb, "<p>No scaling chart: this drive ran no run groups that differ only in VM count or only in "
				"threads (sweep them with <code>\"vms\": [1, 2, 4, 8]</code> or <code>\"threads\": [8, 16, 32]"
				"</code>).</p>\n");
}

static void drive_section(struct strbuf *sb, int *chart_id, const struct report *rep, const char *drive, size_t nth)
{
	struct strbuf id;

	strbuf_init(&id, 0);
	drive_anchor(&id, drive, nth);
	strbuf_adds(sb, "<section class=\"drive\" id=\"");
	esc(sb, id.buf);
	strbuf_adds(sb, "\">\n<h3>Drive ");
	esc(sb, drive);
	strbuf_adds(sb, "</h3>\n");
	table_open(sb, "<th>run group</th><th>workload</th><th>VMs</th><th>repetitions</th><th>TPS (sum)</th>"
		       "<th>avg latency ms<br>(mean of instances)</th><th>p99 ms<br>(mean of instance p99s)</th>"
		       "<th>rank in run group</th><th>precondition</th><th>sample</th><th>bottleneck</th>"
		       "<th>drive (busiest device)</th><th>host CPU</th><th>status</th>");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		char b[128];

		if (g->all_drives || strcmp(g->drive, drive))
			continue;
		strbuf_addf(sb, "<tr><td><a href=\"#tps-%zu\">", i);
		esc(sb, *g->run_group ? g->run_group : "(no run group)");
		strbuf_adds(sb, "</a></td>");
		snprintf(b, sizeof(b), "%s %s", report_kind_title(g->kind), g->test);
		td(sb, b);
		strbuf_addf(sb, "<td class=\"n\">%lld</td><td class=\"n\">%zu</td>", (long long)g->vm_count, g->nreps);
		td_spread(sb, &g->tps, true);
		td_spread(sb, &g->avg_ms_mean, true);
		td_spread(sb, &g->p99_mean, true);
		if (g->rank)
			strbuf_addf(sb, "<td class=\"n\">%zu</td>", g->rank);
		else
			td(sb, "–");
		td_steady(sb, g->pre_steady, agg_group_steady(g, RESULT_PHASE_PRECONDITION));
		td_steady(sb, g->sample_steady, agg_group_steady(g, RESULT_PHASE_SAMPLE));
		td_bottleneck(sb, g->has_verdict, &g->vin, &g->verdict);
		td_dev(sb, g->dev);
		td_pct(sb, g->vin.has_host_cpu, g->vin.host_cpu_busy);
		td(sb, g->incomplete ? "INCOMPLETE" : "complete");
		strbuf_adds(sb, "</tr>\n");
	}
	table_close(sb);
	/* Where its I/O goes, as the sampler resolved it. */
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		if (strcmp(r->drive, drive) || !r->drive_stack)
			continue;
		strbuf_adds(sb, "<p>Block devices: ");
		esc(sb, r->drive_stack);
		strbuf_adds(sb, "</p>\n");
		break;
	}
	struct strbuf src;
	strbuf_init(&src, 0);
	if (report_tel_sources_text(rep, drive, &src)) {
		strbuf_adds(sb, "<p>Telemetry sources: ");
		esc(sb, src.buf);
		strbuf_adds(sb, "</p>\n");
	}
	strbuf_release(&src);
	strbuf_adds(sb, "<div class=\"grid\">\n");
	for (size_t i = 0; i < rep->ngroups; i++)
		if (!rep->groups[i].all_drives && !strcmp(rep->groups[i].drive, drive) && rep->groups[i].has_verdict)
			telemetry_over_time(sb, chart_id, &rep->groups[i]);
	strbuf_adds(sb, "</div>\n</section>\n");
	strbuf_release(&id);
}

static void toc(struct strbuf *sb, const struct report *rep, const char **drives, size_t ndrives)
{
	strbuf_adds(sb, "<nav class=\"toc\"><h2>Contents</h2>\n<ol>\n");
	if (rep->nwarnings)
		strbuf_addf(sb, "<li><a href=\"#warnings\">Warnings (%zu)</a></li>\n", rep->nwarnings);
	strbuf_adds(sb, "<li><a href=\"#headline\">Headline</a>, <a href=\"#test-bed\">test bed</a> and "
			"<a href=\"#beside\">the bar charts beside published figures</a></li>\n"
			"<li><a href=\"#results\">Results per drive × run group</a></li>\n"
			"<li><a href=\"#steady\">Verdicts: steady state and bottleneck</a></li>\n"
			"<li><a href=\"#compare\">Drive comparison</a></li>\n"
			"<li><a href=\"#published\">Published references</a></li>\n");
	if (rep->pub) /* lb_html_section writes it only with references loaded */
		strbuf_adds(sb, "<li><a href=\"#leaderboard\">Leaderboard</a></li>\n");
	strbuf_adds(sb, "<li><a href=\"#over-time\">TPS over time</a></li>\n"
			"<li><a href=\"#percentiles\">Latency percentiles</a></li>\n"
			"<li><a href=\"#drives\">Per drive</a><ol>\n");
	for (size_t i = 0; i < ndrives; i++) {
		struct strbuf id;
		strbuf_init(&id, 0);
		drive_anchor(&id, drives[i], i);
		strbuf_adds(sb, "<li><a href=\"#");
		esc(sb, id.buf);
		strbuf_adds(sb, "\">");
		esc(sb, drives[i]);
		strbuf_adds(sb, "</a></li>\n");
		strbuf_release(&id);
	}
	strbuf_adds(sb, "</ol></li>\n<li><a href=\"#instances\">Instances</a></li>\n");
	if (rep->runs->nsuperseded)
		strbuf_addf(sb, "<li><a href=\"#superseded\">Superseded attempts (%zu)</a></li>\n", rep->runs->nsuperseded);
	strbuf_adds(sb, "</ol></nav>\n");
}

/* Cut-off attempts kept by `campaign --resume`: listed, never counted. */
static void superseded(struct strbuf *sb, const struct report *rep)
{
	if (!rep->runs->nsuperseded)
		return;
	strbuf_adds(sb, "<h2 id=\"superseded\">Superseded attempts</h2>\n<p>Cut-off attempts that <code>dbrig campaign --resume</code> "
			"kept as <code>&lt;instance&gt;.partial-&lt;n&gt;.*</code> before running them again: history, "
			"not counted in any figure above.</p>\n");
	table_open(sb, "<th>file</th><th>drive</th><th>instance</th><th>rep</th><th>status</th><th>TPS</th>"
		       "<th>why it ended</th>");
	for (size_t i = 0; i < rep->runs->nsuperseded; i++) {
		const struct run *r = rep->runs->superseded[i];
		strbuf_adds(sb, "<tr>");
		td_name(sb, r->path);
		td_name(sb, r->drive);
		td_name(sb, r->instance);
		strbuf_addf(sb, "<td class=\"n\">%lld</td>", (long long)r->repetition);
		td(sb, run_status_name(r->status));
		if (r->sample.present)
			tdn(sb, r->sample.tps, 2);
		else
			td(sb, "–");
		td(sb, r->error ? r->error : "–");
		strbuf_adds(sb, "</tr>\n");
	}
	table_close(sb);
}

/* A row of the test-bed table: a name and text (escaped), "not recorded" when empty. */
static void bed_row(struct strbuf *sb, const char *name, const char *text)
{
	strbuf_addf(sb, "<tr><th>%s</th><td>", name);
	if (*text)
		name_text(sb, text);
	else
		strbuf_adds(sb, "<small>not recorded in these results</small>");
	strbuf_adds(sb, "</td></tr>\n");
}

static void headline_li(void *ctx, const char *lead, const char *text, bool warn)
{
	struct strbuf *sb = ctx;

	strbuf_addf(sb, "<li%s><b>", warn ? " class=\"warn\"" : "");
	name_text(sb, lead);
	strbuf_adds(sb, "</b>: ");
	name_text(sb, text);
	strbuf_adds(sb, "</li>\n");
}

/*
 * The answer first: one sentence per run group compared over drives (the Drive
 * comparison's figures), or per group when no run group ran on two drives
 * (report_headlines, the same sentences as report.md).
 */
static void headline(struct strbuf *sb, const struct report *rep)
{
	strbuf_adds(sb, "<section id=\"headline\" class=\"headline\">\n<h2>Headline</h2>\n<ul>\n");
	report_headlines(rep, headline_li, sb);
	strbuf_adds(sb, "</ul>\n");
	if (!rep->ncmps && rep->drive)
		strbuf_adds(sb, "<p>Only this drive's runs: its rank against the other drives is under "
				"<a href=\"#compare\">Drive comparison</a>.</p>\n");
	else if (!rep->ncmps)
		strbuf_adds(sb, "<p>No run group ran on more than one drive, so nothing is compared.</p>\n");
	strbuf_adds(sb, "</section>\n");
}

/* What a run did to the drive: "SMART passed, 38 → 51 °C (+13), wear 2 → 2% (+0), 6.40 GB written". */
static void drive_change_text(struct strbuf *t, const struct run_drive *d)
{
	int64_t dw;
	int dwear;
	size_t n0 = t->len;

	if (d->before.has_passed || d->after.has_passed)
		strbuf_addf(t, "SMART %s → %s", d->before.has_passed ? (d->before.passed ? "passed" : "FAILED") : "?",
			    d->after.has_passed ? (d->after.passed ? "passed" : "FAILED") : "?");
	if (d->before.has_temp && d->after.has_temp)
		strbuf_addf(t, "%s%d → %d °C (%+d)", t->len > n0 ? ", " : "", d->before.temp_c, d->after.temp_c,
			    d->after.temp_c - d->before.temp_c);
	if (drive_health_wear_delta(&d->before, &d->after, &dwear))
		strbuf_addf(t, "%swear %d → %d%% (%+d)", t->len > n0 ? ", " : "", d->before.wear_pct, d->after.wear_pct,
			    dwear);
	if (drive_health_written_delta(&d->before, &d->after, &dw)) {
		char b[64];
		report_fmt_num(b, sizeof(b), (double)dw / 1e9, 2);
		strbuf_addf(t, "%s%s GB written", t->len > n0 ? ", " : "", b);
	}
	if (t->len == n0)
		strbuf_adds(t, "no SMART figures (none reported)");
}

/* The drive's identity (the first run that recorded it) and the change of its health per run. */
static void drive_bed(struct strbuf *sb, const struct report *rep, const char *drive)
{
	struct strbuf t;
	bool head = false;

	strbuf_init(&t, 0);
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];

		if (strcmp(r->drive, drive) || !r->ndrive_ids)
			continue;
		if (!head) {
			for (size_t k = 0; k < r->ndrive_ids; k++) {
				strbuf_reset(&t);
				report_drive_id_text(&t, &r->drive_ids[k].id);
				strbuf_adds(sb, k ? "<br>" : "");
				name_text(sb, t.buf);
			}
			head = true;
		}
		for (size_t k = 0; k < r->ndrive_ids; k++) {
			strbuf_reset(&t);
			strbuf_addf(&t, "%s, %s: ", r->path, r->drive_ids[k].id.dev);
			drive_change_text(&t, &r->drive_ids[k]);
			strbuf_adds(sb, "<small>");
			name_text(sb, t.buf);
			strbuf_adds(sb, "</small>");
		}
	}
	strbuf_release(&t);
}

/* What was measured, with what, where: from the results themselves (report_bed_build, as report.md and .json). */
static void test_bed(struct strbuf *sb, const struct report *rep, const char **drives, size_t ndrives)
{
	struct report_bed bed;
	struct strbuf t;

	report_bed_build(rep, &bed);
	strbuf_init(&t, 0);
	strbuf_adds(sb, "<details id=\"test-bed\" class=\"bed\" open><summary>Test bed</summary>\n<div class=\"scroll\"><table>\n");
	report_bed_rows(&bed, sb, bed_row);
	/* Drives without recorded block devices or volume share one row. */
	strbuf_reset(&t);
	for (size_t d = 0; d < ndrives; d++) {
		const struct report_bed_drive *bd = NULL;
		for (size_t k = 0; k < bed.ndrives; k++)
			if (!strcmp(bed.drives[k].name, drives[d]))
				bd = &bed.drives[k];
		if (bd && (bd->run || bd->stack || *bd->storage))
			continue;
		strbuf_addf(&t, "%s%s", t.len ? "; " : "", drives[d]);
	}
	if (t.len) {
		strbuf_adds(sb, "<tr><th>drives</th><td>");
		name_text(sb, t.buf);
		strbuf_adds(sb, "<small>block devices not recorded in these results</small></td></tr>\n");
	}
	for (size_t d = 0; d < ndrives; d++) {
		const struct report_bed_drive *bd = NULL;
		for (size_t k = 0; k < bed.ndrives; k++)
			if (!strcmp(bed.drives[k].name, drives[d]))
				bd = &bed.drives[k];
		if (!bd || !(bd->run || bd->stack || *bd->storage))
			continue;
		strbuf_adds(sb, "<tr><th>drive ");
		name_text(sb, drives[d]);
		strbuf_adds(sb, "</th><td>");
		drive_bed(sb, rep, drives[d]);
		if (*bd->storage) {
			strbuf_adds(sb, "<small>volume: ");
			name_text(sb, bd->storage);
			strbuf_adds(sb, "</small>");
		}
		if (bd->stack) {
			strbuf_adds(sb, "<small>block devices: ");
			name_text(sb, bd->stack);
			strbuf_adds(sb, "</small>");
		}
		strbuf_adds(sb, "</td></tr>\n");
	}
	strbuf_adds(sb, "</table></div></details>\n");
	strbuf_release(&t);
	report_bed_release(&bed);
}

/*
 * Warnings by cause: "bottleneck host CPU in A: …" and "… in B: …" make one
 * line naming A and B. The cause is the text before the first ':' (without
 * " in <where>"); the where is that " in " part, else the text up to the next ':'.
 */
static void warning_cause(const char *w, struct strbuf *cause, struct strbuf *where)
{
	const char *colon = strchr(w, ':'), *in;
	size_t n = colon ? (size_t)(colon - w) : strlen(w);

	strbuf_reset(cause);
	strbuf_reset(where);
	for (size_t i = 0; i < n; i++)
		strbuf_addc(cause, w[i]);
	in = strstr(cause->buf, " in ");
	if (in) {
		strbuf_adds(where, in + 4);
		cause->buf[in - cause->buf] = '\0';
		cause->len = (size_t)(in - cause->buf);
	} else if (colon) {
		const char *p = colon + 1, *e;
		while (*p == ' ')
			p++;
		e = strchr(p, ':');
		for (; *p && p != e; p++)
			strbuf_addc(where, *p);
	}
}

static void warnings(struct strbuf *sb, const struct report *rep)
{
	struct strbuf ci, wi, ck, wk;
	bool *done = xcalloc(rep->nwarnings + 1, sizeof(*done));

	strbuf_init(&ci, 0);
	strbuf_init(&wi, 0);
	strbuf_init(&ck, 0);
	strbuf_init(&wk, 0);
	strbuf_adds(sb, "<h2 id=\"warnings\">Warnings</h2>\n<ul class=\"warnings\">\n");
	for (size_t i = 0; i < rep->nwarnings; i++) {
		size_t n = 1;

		if (done[i])
			continue;
		warning_cause(rep->warnings[i], &ci, &wi);
		for (size_t k = i + 1; k < rep->nwarnings; k++) {
			warning_cause(rep->warnings[k], &ck, &wk);
			n += !strcmp(ck.buf, ci.buf);
		}
		strbuf_adds(sb, "<li class=\"warn\">");
		if (n == 1) {
			esc(sb, rep->warnings[i]);
		} else {
			strbuf_addf(sb, "%s (%zu×): ", ci.buf, n);
			for (size_t k = i, m = 0; k < rep->nwarnings; k++) {
				warning_cause(rep->warnings[k], &ck, &wk);
				if (strcmp(ck.buf, ci.buf))
					continue;
				done[k] = true;
				strbuf_adds(sb, m++ ? "; " : "");
				name_text(sb, wk.buf);
			}
			strbuf_adds(sb, "<small>first: ");
			esc(sb, rep->warnings[i]);
			strbuf_adds(sb, "</small>");
		}
		strbuf_adds(sb, "</li>\n");
	}
	strbuf_adds(sb, "</ul>\n");
	free(done);
	strbuf_release(&ci);
	strbuf_release(&wi);
	strbuf_release(&ck);
	strbuf_release(&wk);
}

static int html_render(const struct report *rep, struct report_files *out)
{
	struct strbuf *sb = report_files_add(out, "report.html");
	const char **drives = xcalloc(rep->ngroups + 1, sizeof(*drives));
	size_t ndrives = drive_list(rep, drives), complete = 0;
	int chart_id = 0; /* makes SVG pattern ids unique in the page */

	for (size_t i = 0; i < rep->runs->n; i++)
		complete += run_is_complete(rep->runs->runs[i]);
	strbuf_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>dbrig report");
	if (rep->drive) {
		strbuf_adds(sb, ": ");
		esc(sb, rep->drive);
	}
	strbuf_adds(sb, "</title>\n<style>\n"
			"html{box-sizing:border-box}*,*::before,*::after{box-sizing:inherit}\n"
			"body{font-family:sans-serif;margin:0 auto;padding:16px 24px;color:#222;max-width:1400px}\n"
			"h1,h2,h3{overflow-wrap:anywhere}\np,li{overflow-wrap:anywhere;max-width:110ch}\n"
			".scroll{overflow-x:auto;max-width:100%;margin:8px 0 24px}\n"
			"table{border-collapse:separate;border-spacing:0}\n"
			"td,th{border:1px solid #ccc;border-width:0 1px 1px 0;padding:3px 8px;font-size:13px;"
			"vertical-align:top;background:#fff}\n"
			"tr:first-child>*{border-top-width:1px}\ntr>:first-child{border-left-width:1px;position:sticky;left:0;"
			"z-index:1}\n.nw{white-space:nowrap}\n"
			"th{background:#f3f3f3}\ntd.n{text-align:right}\ntd small{display:block;color:#555;font-size:11px}\n"
			".warn{color:#b00;font-weight:bold}\ntd.warn small{font-weight:normal}\n"
			"figure{margin:16px 0 32px;max-width:100%}\nfigcaption{font-size:13px;color:#555}\n"
			"svg.chart{display:block;width:100%;height:auto}\n"
			".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,400px),1fr));"
			"gap:0 24px}\n.grid figure{margin:8px 0 24px;min-width:0}\n"
			"@media (max-width:600px){body{padding:8px}td,th{padding:3px 5px}}\n"
			".headline{background:#eef5fb;border-left:4px solid #0072B2;padding:2px 16px;margin:8px 0 16px}\n"
			".headline h2{margin:8px 0 4px;font-size:18px}.headline ul{margin:4px 0 8px;padding-left:20px}\n"
			"details.bed summary{font-weight:bold;cursor:pointer;margin:8px 0}\n"
			".bed th{text-align:left}\n"
			"nav.toc{background:#f7f7f7;border:1px solid #ddd;padding:4px 16px;margin:8px 0 24px}\n"
			"nav.toc ol ol{columns:14em;margin:4px 0}\n"
			"</style>\n</head>\n<body>\n<h1>dbrig report");
	if (rep->drive) {
		strbuf_adds(sb, ": drive ");
		esc(sb, rep->drive);
	}
	strbuf_addf(sb, "</h1>\n<p>%zu result%s (%zu complete), %zu group%s, %zu published reference file%s.",
		    rep->runs->n, rep->runs->n == 1 ? "" : "s", complete, rep->ngroups, rep->ngroups == 1 ? "" : "s",
		    rep->pub ? rep->pub->n : 0, rep->pub && rep->pub->n == 1 ? "" : "s");
	if (rep->drive)
		strbuf_adds(sb, " Only this drive's runs (<code>report --drive</code>).");
	strbuf_adds(sb, "</p>\n");
	headline(sb, rep);
	test_bed(sb, rep, drives, ndrives);
	strbuf_adds(sb, "<h2 id=\"beside\">Beside published figures</h2>\n");
	beside_note(sb, rep);
	strbuf_adds(sb, "<div class=\"grid\">\n");
	bars(sb, &chart_id, rep, METRIC_TPS, "Throughput: TPS summed over the VMs of a run group", "TPS (transactions/s)",
	     "Solid: measured (sum over instances; whiskers: 95% CI over repetitions). Hatched grey: a published "
	     "review figure with the same workload, VM count, number of drives and protocol (Leaderboard).");
	bars(sb, &chart_id, rep, METRIC_AVG, "Average latency: mean of the VMs' averages", "average latency (ms)",
	     "Measured with the published method: the mean of the instances' average latencies.");
	bars(sb, &chart_id, rep, METRIC_P99, "99th percentile latency", "99th percentile latency (ms)",
	     "Solid: mean of the instances' p99s (the published \"average 99th percentile\", an average of "
	     "percentiles). Light: pooled p99 of every transaction from the merged histograms. Hatched: published.");
	strbuf_adds(sb, "</div>\n");
	toc(sb, rep, drives, ndrives);
	if (rep->nwarnings)
		warnings(sb, rep);
	strbuf_adds(sb, "<h2 id=\"results\">Results per drive × run group (sample phase)</h2>\n"
			"<p>With several repetitions each figure is their mean, and below it \"± half-width of its 95% "
			"confidence interval (Student's t), sd standard deviation, n repetitions\".</p>\n");
	summary(sb, rep);
	strbuf_adds(sb, "<h2 id=\"steady\">Verdicts: steady state and bottleneck</h2>\n");
	verdicts(sb, rep);
	strbuf_adds(sb, "<h2 id=\"compare\">Drive comparison</h2>\n");
	comparison(sb, rep);
	strbuf_adds(sb, "<h2 id=\"published\">Published references</h2>\n");
	published_section(sb, &chart_id, rep);
	lb_html_section(sb, rep); /* report/leaderboard.c */
	strbuf_adds(sb, "<h2 id=\"over-time\">TPS over time</h2>\n<p>One chart per drive × run group: a thin line per "
			"instance and a thick one, in the drive's colour, for their sum (the figure reviews plot). The "
			"charts of one run group's drives share one TPS scale, so they compare side by side. The dashed "
			"red line marks the end of the precondition (left) and the start of the "
			"measured sample (right). A dip or a slow decline after it means the drive had not reached "
			"steady state (see <a href=\"#steady\">Steady state</a>).</p>\n<div class=\"grid\">\n");
	for (size_t i = 0; i < rep->ngroups; i++)
		if (!rep->groups[i].all_drives)
			tps_over_time(sb, &chart_id, rep, &rep->groups[i], i);
	strbuf_adds(sb, "</div>\n<h2 id=\"percentiles\">Latency percentiles</h2>\n<div class=\"grid\">\n");
	percentile_curve(sb, &chart_id, rep);
	strbuf_adds(sb, "</div>\n");
	if (rep->drive)
		scaling_section(sb, &chart_id, rep);
	strbuf_adds(sb, "<h2 id=\"drives\">Per drive</h2>\n<p>One drive's results over every run group (VM count) "
			"with its verdicts and telemetry; the run group links to its TPS-over-time chart. Where the "
			"results carry telemetry, a chart per run group shows the drive's busiest device's utilisation "
			"(solid) and the host CPU (dashed) per interval. <code>dbrig report --drive NAME</code> writes a "
			"report of one drive alone.</p>\n");
	for (size_t i = 0; i < ndrives; i++)
		drive_section(sb, &chart_id, rep, drives[i], i);
	strbuf_adds(sb, "<h2 id=\"instances\">Instances</h2>\n");
	instances(sb, rep);
	superseded(sb, rep);
	strbuf_adds(sb, "<p>Tables with every figure: report.md, report-groups.csv, report-instances.csv, report.json."
			"</p>\n</body>\n</html>\n");
	free(drives);
	return 0;
}

const struct report_writer_ops report_html_ops = {
	.name = "html",
	.summary = "report.html: one self-contained page with inline SVG charts",
	.render = html_render,
};
