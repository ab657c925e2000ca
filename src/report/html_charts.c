/*
 * The charts of report.html (html_out.c writes the page): the bar charts
 * beside the published figures that match, the published references on
 * their own, TPS over time per drive x run group, drive utilisation and host
 * CPU over time, the latency percentile curve and, with --drive, the scaling
 * charts. Each builds a bar_chart or line_chart and draws it with svg.h, so
 * every chart scales to the page.
 */
#include "report/writer.h"

#include "report/html_int.h"
#include "report/svg.h"
#include "stats/hist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void pub_bar(struct bar_cat *cat, const struct pub_result *p, enum metric m)
{
	char label[160];

	snprintf(label, sizeof(label), "%s (published%s)", p->x.drive,
		 p->x.machine_translated ? ", machine-translated" : "");
	switch (m) {
	case METRIC_TPS:
		svg_bar_cat_add(cat, label, p->tps, BAR_PUBLISHED, 0);
		break;
	case METRIC_AVG:
		svg_bar_cat_add(cat, label, p->avg_ms, BAR_PUBLISHED, 0);
		break;
	case METRIC_P99:
		if (p->has_p99)
			svg_bar_cat_add(cat, label, p->p99_ms, BAR_PUBLISHED, 0);
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
		svg_bar_cat_add(cat, label, s->mean, BAR_MEASURED, col);
		if (s->ci.has_ci)
			svg_bar_cat_set_err(cat, s->ci.lo, s->ci.hi);
	}
	if (m == METRIC_P99 && h->merged) {
		snprintf(label, sizeof(label), "%s pooled", h->drive);
		svg_bar_cat_add(cat, label, h->p99_pooled.mean, BAR_MEASURED_POOLED, col);
		if (h->p99_pooled.ci.has_ci)
			svg_bar_cat_set_err(cat, h->p99_pooled.ci.lo, h->p99_pooled.ci.hi);
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
			 report_kind_title(g->kind), (long long)g->vm_count, html_vms_word(g->vm_count),
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
		html_esc(sb, id);
		strbuf_adds(sb, "\">\n");
	} else {
		strbuf_adds(sb, "<figure>\n");
	}
}

void html_bars(struct strbuf *sb, int *chart_id, const struct report *rep, enum metric m, const char *title,
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
	svg_bar_chart_release(&c);
	free(leg);
}

/* Every reference, by workload and configuration: the published figures on their own. */
void html_published_chart(struct strbuf *sb, int *chart_id, const struct report *rep)
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
	svg_bar_chart_release(&c);
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
		svg_line_series_add(s, rp->runs[0]->intervals[t].t, sum);
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

void html_tps_over_time(struct strbuf *sb, int *chart_id, const struct report *rep, const struct agg_group *g,
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
				svg_line_series_add(s, pt->t, pt->tps);
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
	svg_line_chart_release(&c);
	strbuf_release(&title);
	strbuf_release(&id);
}

/* Host CPU and the busiest device's utilisation per interval, one pair of lines per instance. */
void html_telemetry_over_time(struct strbuf *sb, int *chart_id, const struct agg_group *g)
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
				svg_line_series_add(dev, dr->intervals[t].t, 100 * dr->intervals[t].dev_util);
		for (size_t t = 0; hr && t < hr->nintervals; t++)
			if (hr->intervals[t].has_host)
				svg_line_series_add(cpu, hr->intervals[t].t, 100 * hr->intervals[t].host_busy);
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
	svg_line_chart_release(&c);
	strbuf_release(&title);
}

void html_percentile_curve(struct strbuf *sb, int *chart_id, const struct report *rep)
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
			svg_line_series_add(s, x, (double)hist_value_at_percentile(g->merged, p) / 1e6);
		}
	}
	figure_open(sb, NULL);
	svg_line_chart(sb, &c, (*chart_id)++);
	strbuf_adds(sb, "<figcaption>Every transaction of the sample, per drive × run group, from the merged "
			"histograms (≤ 1% error). A flat curve that rises late means a short tail.</figcaption>\n</figure>\n");
	svg_line_chart_release(&c);
}

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
		svg_line_series_add(ls, x, y);
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
	svg_line_chart_release(&c);
	strbuf_release(&title);
	strbuf_release(&key);
	strbuf_release(&other);
	return drawn ? 1 : 0;
}

void html_scaling_section(struct strbuf *sb, int *chart_id, const struct report *rep)
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
