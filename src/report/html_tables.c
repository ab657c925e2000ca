/*
 * The tables of report.html (html_out.c writes the page): results and
 * verdicts per drive x run group, the drive comparison, the published
 * references, one section per drive, the instances and the superseded
 * attempts; all but the published references are report/tables.c's tables,
 * rendered cell by cell (html_table, td_cell). Wide tables scroll inside their own
 * box (table_open), so the page itself is never wider than the window.
 */
#include "report/writer.h"

#include "core/escape.h"
#include "report/html_int.h"
#include "report/pub_little.h"
#include "report/tables.h"

#include <stdio.h>
#include <string.h>

static void td(struct strbuf *sb, const char *s)
{
	strbuf_adds(sb, "<td>");
	html_esc(sb, s);
	strbuf_adds(sb, "</td>");
}

/*
 * A name or a path: it breaks at spaces only, never at a hyphen or a slash
 * ("pm1735-a", "1-instance-1-drive/drive-a/vm1.json" stay whole).
 */
void html_name_text(struct strbuf *sb, const char *s)
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
			html_esc(sb, w.buf);
			strbuf_adds(sb, "</span>");
		} else {
			html_esc(sb, w.buf);
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
	html_name_text(sb, s);
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
		strbuf_addf(sb, "<td>%s", steady_state_name(st));
		break;
	case STEADY_NO:
		strbuf_addf(sb, "<td class=\"warn\">%s", steady_state_name(st));
		break;
	case STEADY_NA:
		strbuf_addf(sb, "<td>%s<small>%zu round%s, need %d</small></td>", steady_state_name(st),
			    r ? r->rounds : 0, r && r->rounds == 1 ? "" : "s", STEADY_MIN_WINDOW);
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
	html_esc(sb, why);
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

/* A table in its scrolling box; one with a class (the leaderboard's) has its header in a thead and its rows in a
 * tbody. */
static void table_open(struct strbuf *sb, const char *header, const char *cls)
{
	if (cls)
		strbuf_addf(sb, "<div class=\"scroll\"><table class=\"%s\"><thead><tr>%s</tr></thead><tbody>\n", cls, header);
	else
		strbuf_addf(sb, "<div class=\"scroll\"><table>\n<tr>%s</tr>\n", header);
}

static void table_close(struct strbuf *sb, const char *cls)
{
	strbuf_adds(sb, cls ? "</tbody></table></div>\n" : "</table></div>\n");
}

/* The header row of a table built by report/tables.c (names as written, "\n" a line break). */
static void html_table_open(struct strbuf *sb, const struct report_table *t)
{
	struct strbuf h;

	strbuf_init(&h, 0);
	for (size_t c = 0; c < t->ncols; c++) {
		if (!(t->cols[c].in & RT_HTML))
			continue;
		strbuf_adds(&h, "<th>");
		for (const char *s = t->cols[c].name; *s; s++)
			if (*s == '\n')
				strbuf_adds(&h, "<br>");
			else
				strbuf_addc(&h, *s);
		strbuf_adds(&h, "</th>");
	}
	table_open(sb, h.buf, t->html_class);
	strbuf_release(&h);
}

static void td_status(struct strbuf *sb, const struct rt_cell *c)
{
	if (!c->has)
		strbuf_addf(sb, "<td>%s</td>", rt_status_word(false));
	else if (c->terse)
		strbuf_addf(sb, "<td>%s</td>", rt_status_word(true));
	else
		strbuf_addf(sb, "<td class=\"warn\">%s (%zu of %zu runs complete)</td>", rt_status_word(true), c->n, c->n2);
}

static void td_little(struct strbuf *sb, enum little_state st, double dev)
{
	switch (st) {
	case LITTLE_OK:
		strbuf_addf(sb, "<td>%s (%+.1f%%)</td>", little_state_word(st), 100.0 * dev);
		break;
	case LITTLE_WARN:
		strbuf_addf(sb, "<td class=\"warn\">%s %+.1f%%</td>", little_state_word(st), 100.0 * dev);
		break;
	case LITTLE_NA:
		strbuf_addf(sb, "<td>%s</td>", little_state_word(st));
		break;
	}
}

static void td_host_cpu(struct strbuf *sb, const struct verdict_in *in)
{
	/* A hypervisor host's node statistics are named; this machine's /proc/stat is the default. */
	if (in->has_host_cpu && in->host_cpu_src && strcmp(in->host_cpu_src, "/proc/stat")) {
		strbuf_addf(sb, "<td class=\"n\">%.0f%% <small>(", 100 * in->host_cpu_busy);
		escape_html(sb, in->host_cpu_src);
		strbuf_adds(sb, ")</small></td>");
	} else {
		td_pct(sb, in->has_host_cpu, in->host_cpu_busy);
	}
}

static void td_welch(struct strbuf *sb, const struct ci_welch *w)
{
	if (w->valid)
		strbuf_addf(sb, "<td%s>t = %.2f, df = %.1f, p = %.3g: %s</td>", w->significant ? "" : " class=\"warn\"",
			    w->t, w->df, w->p, w->significant ? "significant" : "NOT significant");
	else
		strbuf_adds(sb, "<td>n/a (needs 2 repetitions on both drives)</td>");
}

/* A number with c->n decimals, its digits grouped unless RT_FIXED; "–" without one. */
static void td_num(struct strbuf *sb, const struct rt_cell *c)
{
	if (!c->has)
		td(sb, "–");
	else if (c->kind == RT_FIXED)
		strbuf_addf(sb, "<td class=\"n\">%.*f</td>", (int)c->n, c->a);
	else
		tdn(sb, c->a, (int)c->n);
}

/* "run group (TPC-C, 2 VMs)". */
static void td_run_group(struct strbuf *sb, const struct rt_cell *c)
{
	strbuf_adds(sb, "<td>");
	html_esc(sb, c->text);
	strbuf_adds(sb, " (");
	html_esc(sb, report_kind_title(c->kind_name));
	strbuf_addf(sb, ", %lld %s)</td>", c->i, html_vms_word(c->i));
}

/* A leaderboard's drive, in bold when measured, or its figure, said to be missing when the row states none. */
static void td_board(struct strbuf *sb, const struct rt_cell *c)
{
	if (c->kind == RT_BOARD_DRIVE && c->has) {
		strbuf_adds(sb, "<td><strong>");
		html_esc(sb, c->text);
		strbuf_adds(sb, "</strong></td>");
	} else if (c->kind == RT_BOARD_DRIVE) {
		td(sb, c->text);
	} else if (c->has) {
		tdn(sb, c->a, (int)c->n);
	} else {
		strbuf_adds(sb, "<td class=\"n\">not published</td>");
	}
}

/* One cell of a table built by report/tables.c. */
static void td_cell(struct strbuf *sb, const struct rt_cell *c)
{
	char lo[64], hi[64];

	switch (c->kind) {
	case RT_TEXT:
		td(sb, c->text);
		break;
	case RT_NAME:
		td_name(sb, c->text);
		break;
	case RT_INT:
		strbuf_addf(sb, "<td class=\"n\">%lld</td>", c->i);
		break;
	case RT_COUNT:
		strbuf_addf(sb, "<td class=\"n\">%llu</td>", (unsigned long long)c->i);
		break;
	case RT_MISSING:
	case RT_RATIO:
	case RT_LAT_RATIO:
	case RT_CI:
		td(sb, "–");
		break;
	case RT_NUM:
	case RT_FIXED:
		td_num(sb, c);
		break;
	case RT_LATENCY:
		tdn(sb, c->a, 2);
		break;
	case RT_RUN_STATUS:
		if (c->has && !c->terse)
			strbuf_addf(sb, "<td class=\"warn\">%s%s</td>", c->text, c->note);
		else
			td(sb, c->text);
		break;
	case RT_SPAN:
	case RT_SPANNED:
		break; /* html_table joins them */
	case RT_GROUP_LINK:
		strbuf_addf(sb, "<td><a href=\"#tps-%zu\">", c->n);
		html_esc(sb, c->text);
		strbuf_adds(sb, "</a></td>");
		break;
	case RT_SPREAD:
		td_spread(sb, c->spread, c->has);
		break;
	case RT_RANGE:
		report_fmt_num(lo, sizeof(lo), c->a, 2);
		report_fmt_num(hi, sizeof(hi), c->b, 2);
		strbuf_addf(sb, "<td class=\"n\"><span class=\"nw\">%s–%s</span></td>", lo, hi);
		break;
	case RT_INSTANCES:
		if (c->n2 > 1)
			strbuf_addf(sb, "<td class=\"n\">%zu<small>%zu reps</small></td>", c->n, c->n2);
		else
			strbuf_addf(sb, "<td class=\"n\">%zu</td>", c->n);
		break;
	case RT_LITTLE:
		td_little(sb, c->little, c->a);
		break;
	case RT_STATUS:
		td_status(sb, c);
		break;
	case RT_STEADY:
		td_steady(sb, c->steady, c->steady_r);
		break;
	case RT_BOTTLENECK:
		td_bottleneck(sb, c->has, c->vin, c->verdict);
		break;
	case RT_DEVICE:
		td_dev(sb, c->dev);
		break;
	case RT_PCT:
		td_pct(sb, c->has, c->a);
		break;
	case RT_HOST_CPU:
		td_host_cpu(sb, c->vin);
		break;
	case RT_DRIVER_CPU:
		td_driver(sb, c->vin, c->verdict);
		break;
	case RT_RUN_GROUP:
		td_run_group(sb, c);
		break;
	case RT_RANKS:
		strbuf_addf(sb, "<td class=\"n\">%zu–%zu</td>", c->n, c->n2);
		break;
	case RT_WELCH:
		td_welch(sb, c->welch);
		break;
	case RT_BOARD_DRIVE:
	case RT_BOARD_NUM:
		td_board(sb, c);
		break;
	}
}

/* A leaderboard's row of a measured drive is marked (RT_BOARD_DRIVE). */
static bool row_measured(const struct report_table *t, size_t row)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (rt_at(t, row, c)->kind == RT_BOARD_DRIVE && rt_at(t, row, c)->has)
			return true;
	return false;
}

/* A table built by report/tables.c, its report.html columns. */
void html_table(struct strbuf *sb, const struct report_table *t)
{
	html_table_open(sb, t);
	for (size_t r = 0; r < t->nrows; r++) {
		strbuf_adds(sb, row_measured(t, r) ? "<tr class=\"measured\">" : "<tr>");
		for (size_t c = 0; c < t->ncols; c++) {
			const struct rt_cell *cell = rt_at(t, r, c);
			size_t span = 0;

			if (cell->kind == RT_SPAN) {
				for (size_t k = c; k < c + cell->n && k < t->ncols; k++)
					span += (t->cols[k].in & RT_HTML) != 0;
				strbuf_addf(sb, "<td colspan=\"%zu\">", span);
				html_esc(sb, cell->text);
				strbuf_adds(sb, "</td>");
			} else if (t->cols[c].in & RT_HTML) {
				td_cell(sb, cell);
			}
		}
		strbuf_adds(sb, "</tr>\n");
	}
	table_close(sb, t->html_class);
}

void html_summary(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	report_table_summary(rep, &t);
	html_table(sb, &t);
	report_table_release(&t);
}

void html_verdicts(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	strbuf_addf(sb, "<p><b>Steady state</b> by the SNIA PTS rule on the TPS of each report interval (summed over "
			"the instances that ran together): over a window of rounds, max − min within 20%% of the "
			"window's mean and the least-squares line moving at most 10%% of it. Precondition: its last %zu "
			"rounds; sample: all its rounds. A group shows its worst repetition. <b>Bottleneck</b> from the "
			"sample's telemetry, first rule that holds: driver saturated (≥ 0.90 core per event loop, or "
			"terminals waiting ≥ 10%% of their response time for a connection), host CPU ≥ 90%% busy, guest "
			"vCPUs ≥ 90%% busy, the drive's busiest device ≥ 80%% utilised, else unknown. A group takes the "
			"busiest of each resource over its runs.</p>\n", rep->steady_window);
	report_table_verdicts(rep, &t);
	html_table(sb, &t);
	report_table_release(&t);
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
		html_esc(sb, rep->drive);
		strbuf_adds(sb, " ran on another drive.</p>\n");
		return;
	}
	strbuf_adds(sb, "Drive ");
	html_esc(sb, rep->drive);
	strbuf_adds(sb, " against the other drives of its run groups (they are left out of this page):</p>\n<ul>\n");
	for (size_t i = 0; i < rep->ngroups; i++) {
		if (!rep->groups[i].rank_text)
			continue;
		strbuf_adds(sb, "<li>");
		html_esc(sb, rep->groups[i].run_group);
		strbuf_adds(sb, ": ");
		html_esc(sb, rep->groups[i].rank_text);
		strbuf_adds(sb, "</li>\n");
	}
	strbuf_adds(sb, "</ul>\n");
}

void html_comparison(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

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
	report_table_compare(rep, &t);
	html_table(sb, &t);
	report_table_release(&t);
}

void html_instances(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	report_table_instances(rep, &t);
	html_table(sb, &t);
	report_table_release(&t);
}

void html_published_section(struct strbuf *sb, int *chart_id, const struct report *rep)
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
		       "<th>beside</th><th>platform</th><th>source</th>",
		   NULL);
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
				html_esc(sb, t.buf);
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
	table_close(sb, NULL);
	strbuf_release(&t);
	html_published_chart(sb, chart_id, rep);
}

/* One drive over every run group (VM count): its figures, verdicts and charts. */
void html_drive_section(struct strbuf *sb, int *chart_id, const struct report *rep, const char *drive, size_t nth)
{
	struct report_table t;
	struct strbuf id;

	strbuf_init(&id, 0);
	html_drive_anchor(&id, drive, nth);
	strbuf_adds(sb, "<section class=\"drive\" id=\"");
	html_esc(sb, id.buf);
	strbuf_adds(sb, "\">\n<h3>Drive ");
	html_esc(sb, drive);
	strbuf_adds(sb, "</h3>\n");
	report_table_drive(rep, drive, &t);
	html_table(sb, &t);
	report_table_release(&t);
	/* Where its I/O goes, as the sampler resolved it. */
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		if (strcmp(r->drive, drive) || !r->drive_stack)
			continue;
		strbuf_adds(sb, "<p>Block devices: ");
		html_esc(sb, r->drive_stack);
		strbuf_adds(sb, "</p>\n");
		break;
	}
	struct strbuf src;
	strbuf_init(&src, 0);
	if (report_tel_sources_text(rep, drive, &src)) {
		strbuf_adds(sb, "<p>Telemetry sources: ");
		html_esc(sb, src.buf);
		strbuf_adds(sb, "</p>\n");
	}
	strbuf_release(&src);
	strbuf_adds(sb, "<div class=\"grid\">\n");
	for (size_t i = 0; i < rep->ngroups; i++)
		if (!rep->groups[i].all_drives && !strcmp(rep->groups[i].drive, drive) && rep->groups[i].has_verdict)
			html_telemetry_over_time(sb, chart_id, &rep->groups[i]);
	strbuf_adds(sb, "</div>\n</section>\n");
	strbuf_release(&id);
}

/* Cut-off attempts kept by `campaign --resume`: listed, never counted. */
void html_superseded(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	if (!rep->runs->nsuperseded)
		return;
	strbuf_adds(sb, "<h2 id=\"superseded\">Superseded attempts</h2>\n<p>Cut-off attempts that <code>dbrig campaign --resume</code> "
			"kept as <code>&lt;instance&gt;.partial-&lt;n&gt;.*</code> before running them again: history, "
			"not counted in any figure above.</p>\n");
	report_table_superseded(rep, &t);
	html_table(sb, &t);
	report_table_release(&t);
}
