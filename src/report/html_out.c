/*
 * One self-contained HTML file: inline CSS and SVG, no scripts, nothing
 * fetched from anywhere. A table of contents, then the results, the verdicts
 * (steady state, bottleneck), the drive comparison, the charts beside the published
 * figures that match, the published references on their own, TPS over time
 * per drive x run group, the latency percentile curve, one section per drive
 * and the instances. html_tables.c writes its tables and html_charts.c its
 * charts (html_int.h).
 *
 * Every chart scales to the page (svg.h); wide tables scroll inside their
 * own box, so the page itself is never wider than the window.
 */
#include "report/writer.h"

#include "core/escape.h"
#include "report/html_int.h"
#include "report/leaderboard.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void html_esc(struct strbuf *sb, const char *s)
{
	escape_html(sb, s);
}

/* "drive-3-pm1743-a": an id for the drive's section, unique in the page. */
void html_drive_anchor(struct strbuf *sb, const char *drive, size_t nth)
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
const char *html_vms_word(long long n)
{
	return n == 1 ? "VM" : "VMs";
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
		html_drive_anchor(&id, drives[i], i);
		strbuf_adds(sb, "<li><a href=\"#");
		html_esc(sb, id.buf);
		strbuf_adds(sb, "\">");
		html_esc(sb, drives[i]);
		strbuf_adds(sb, "</a></li>\n");
		strbuf_release(&id);
	}
	strbuf_adds(sb, "</ol></li>\n<li><a href=\"#instances\">Instances</a></li>\n");
	if (rep->runs->nsuperseded)
		strbuf_addf(sb, "<li><a href=\"#superseded\">Superseded attempts (%zu)</a></li>\n", rep->runs->nsuperseded);
	strbuf_adds(sb, "</ol></nav>\n");
}

/* A row of the test-bed table: a name and text (escaped), "not recorded" when empty. */
static void bed_row(struct strbuf *sb, const char *name, const char *text)
{
	strbuf_addf(sb, "<tr><th>%s</th><td>", name);
	if (*text)
		html_name_text(sb, text);
	else
		strbuf_adds(sb, "<small>not recorded in these results</small>");
	strbuf_adds(sb, "</td></tr>\n");
}

static void headline_li(void *ctx, const char *lead, const char *text, bool warn)
{
	struct strbuf *sb = ctx;

	strbuf_addf(sb, "<li%s><b>", warn ? " class=\"warn\"" : "");
	html_name_text(sb, lead);
	strbuf_adds(sb, "</b>: ");
	html_name_text(sb, text);
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
				html_name_text(sb, t.buf);
			}
			head = true;
		}
		for (size_t k = 0; k < r->ndrive_ids; k++) {
			strbuf_reset(&t);
			strbuf_addf(&t, "%s, %s: ", r->path, r->drive_ids[k].id.dev);
			drive_change_text(&t, &r->drive_ids[k]);
			strbuf_adds(sb, "<small>");
			html_name_text(sb, t.buf);
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
		html_name_text(sb, t.buf);
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
		html_name_text(sb, drives[d]);
		strbuf_adds(sb, "</th><td>");
		drive_bed(sb, rep, drives[d]);
		if (*bd->storage) {
			strbuf_adds(sb, "<small>volume: ");
			html_name_text(sb, bd->storage);
			strbuf_adds(sb, "</small>");
		}
		if (bd->stack) {
			strbuf_adds(sb, "<small>block devices: ");
			html_name_text(sb, bd->stack);
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
			html_esc(sb, rep->warnings[i]);
		} else {
			strbuf_addf(sb, "%s (%zu×): ", ci.buf, n);
			for (size_t k = i, m = 0; k < rep->nwarnings; k++) {
				warning_cause(rep->warnings[k], &ck, &wk);
				if (strcmp(ck.buf, ci.buf))
					continue;
				done[k] = true;
				strbuf_adds(sb, m++ ? "; " : "");
				html_name_text(sb, wk.buf);
			}
			strbuf_adds(sb, "<small>first: ");
			html_esc(sb, rep->warnings[i]);
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

/* The page up to its title: the <head> with the inline CSS, then the <h1> left open for html_render. */
static void page_head(struct strbuf *sb, const struct report *rep)
{
	strbuf_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>dbrig report");
	if (rep->drive) {
		strbuf_adds(sb, ": ");
		html_esc(sb, rep->drive);
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
		html_esc(sb, rep->drive);
	}
}

static int html_render(const struct report *rep, struct report_files *out)
{
	struct strbuf *sb = report_files_add(out, "report.html");
	const char **drives = xcalloc(rep->ngroups + 1, sizeof(*drives));
	size_t ndrives = drive_list(rep, drives), complete = 0;
	int chart_id = 0; /* makes SVG pattern ids unique in the page */

	for (size_t i = 0; i < rep->runs->n; i++)
		complete += run_is_complete(rep->runs->runs[i]);
	page_head(sb, rep);
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
	html_bars(sb, &chart_id, rep, METRIC_TPS, "Throughput: TPS summed over the VMs of a run group", "TPS (transactions/s)",
		  "Solid: measured (sum over instances; whiskers: 95% CI over repetitions). Hatched grey: a published "
		  "review figure with the same workload, VM count, number of drives and protocol (Leaderboard).");
	html_bars(sb, &chart_id, rep, METRIC_AVG, "Average latency: mean of the VMs' averages", "average latency (ms)",
		  "Measured with the published method: the mean of the instances' average latencies.");
	html_bars(sb, &chart_id, rep, METRIC_P99, "99th percentile latency", "99th percentile latency (ms)",
		  "Solid: mean of the instances' p99s (the published \"average 99th percentile\", an average of "
		  "percentiles). Light: pooled p99 of every transaction from the merged histograms. Hatched: published.");
	strbuf_adds(sb, "</div>\n");
	toc(sb, rep, drives, ndrives);
	if (rep->nwarnings)
		warnings(sb, rep);
	strbuf_adds(sb, "<h2 id=\"results\">Results per drive × run group (sample phase)</h2>\n"
			"<p>With several repetitions each figure is their mean, and below it \"± half-width of its 95% "
			"confidence interval (Student's t), sd standard deviation, n repetitions\".</p>\n");
	html_summary(sb, rep);
	strbuf_adds(sb, "<h2 id=\"steady\">Verdicts: steady state and bottleneck</h2>\n");
	html_verdicts(sb, rep);
	strbuf_adds(sb, "<h2 id=\"compare\">Drive comparison</h2>\n");
	html_comparison(sb, rep);
	strbuf_adds(sb, "<h2 id=\"published\">Published references</h2>\n");
	html_published_section(sb, &chart_id, rep);
	lb_html_section(sb, rep); /* report/lb_render.c */
	strbuf_adds(sb, "<h2 id=\"over-time\">TPS over time</h2>\n<p>One chart per drive × run group: a thin line per "
			"instance and a thick one, in the drive's colour, for their sum (the figure reviews plot). The "
			"charts of one run group's drives share one TPS scale, so they compare side by side. The dashed "
			"red line marks the end of the precondition (left) and the start of the "
			"measured sample (right). A dip or a slow decline after it means the drive had not reached "
			"steady state (see <a href=\"#steady\">Steady state</a>).</p>\n<div class=\"grid\">\n");
	for (size_t i = 0; i < rep->ngroups; i++)
		if (!rep->groups[i].all_drives)
			html_tps_over_time(sb, &chart_id, rep, &rep->groups[i], i);
	strbuf_adds(sb, "</div>\n<h2 id=\"percentiles\">Latency percentiles</h2>\n<div class=\"grid\">\n");
	html_percentile_curve(sb, &chart_id, rep);
	strbuf_adds(sb, "</div>\n");
	if (rep->drive)
		html_scaling_section(sb, &chart_id, rep);
	strbuf_adds(sb, "<h2 id=\"drives\">Per drive</h2>\n<p>One drive's results over every run group (VM count) "
			"with its verdicts and telemetry; the run group links to its TPS-over-time chart. Where the "
			"results carry telemetry, a chart per run group shows the drive's busiest device's utilisation "
			"(solid) and the host CPU (dashed) per interval. <code>dbrig report --drive NAME</code> writes a "
			"report of one drive alone.</p>\n");
	for (size_t i = 0; i < ndrives; i++)
		html_drive_section(sb, &chart_id, rep, drives[i], i);
	strbuf_adds(sb, "<h2 id=\"instances\">Instances</h2>\n");
	html_instances(sb, rep);
	html_superseded(sb, rep);
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
