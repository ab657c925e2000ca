/*
 * Markdown report: the tables a review would print, then everything behind
 * them. Here the page, the cells every table uses, the rendering of the
 * tables report/tables.c builds (md_table) and the sections up front
 * (results, verdicts, drive comparison, beside published); md_detail.c the
 * sections behind them (report/md_int.h).
 */
#include "report/writer.h"
#include "report/md_int.h"

#include "report/leaderboard.h"
#include "report/pub_little.h"
#include "report/tables.h"
#include "stats/hist.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>


void md_celln(struct strbuf *sb, double v, int decimals)
{
	char b[64];

	report_fmt_num(b, sizeof(b), v, decimals);
	report_md_cell(sb, b);
}

void md_cellf(struct strbuf *sb, const char *fmt, ...)
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
void md_pub_name_cell(struct strbuf *sb, const struct pub_result *p)
{
	struct strbuf t;

	strbuf_init(&t, 0);
	pub_row_name(p, &t);
	report_md_cell(sb, t.buf);
	strbuf_release(&t);
}

void md_header(struct strbuf *sb, const char *const *cols)
{
	size_t n = 0;

	for (const char *const *c = cols; *c; c++, n++)
		report_md_cell(sb, *c);
	strbuf_adds(sb, "|\n");
	for (size_t i = 0; i < n; i++)
		strbuf_adds(sb, "|---");
	strbuf_adds(sb, "|\n");
}

void md_endrow(struct strbuf *sb)
{
	strbuf_adds(sb, "|\n");
}

void md_little_cell(struct strbuf *sb, enum little_state st, double dev)
{
	switch (st) {
	case LITTLE_OK:
		md_cellf(sb, "%s (%+.1f%%)", little_state_word(st), 100.0 * dev);
		break;
	case LITTLE_WARN:
		md_cellf(sb, "**%s %+.1f%%**", little_state_word(st), 100.0 * dev);
		break;
	case LITTLE_NA:
		report_md_cell(sb, little_state_word(st));
		break;
	}
}

void md_opt_ms(struct strbuf *sb, bool has, double v)
{
	if (has)
		md_celln(sb, v, 2);
	else
		report_md_cell(sb, "–");
}

/* "14,077.29", or "14,077.29 ± 830.99" (95% CI half-width) over repetitions. */
void md_spread_cell(struct strbuf *sb, const struct spread *s)
{
	char a[32], b[32];

	report_fmt_num(a, sizeof(a), s->mean, 2);
	if (!s->ci.has_ci) {
		report_md_cell(sb, a);
		return;
	}
	report_fmt_num(b, sizeof(b), s->ci.half, 2);
	md_cellf(sb, "%s ± %s", a, b);
}

void md_steady_cell(struct strbuf *sb, enum steady_state st, const struct steady_result *r)
{
	switch (st) {
	case STEADY_YES:
	case STEADY_NO:
		if (r && r->state != STEADY_NA)
			md_cellf(sb, "%s%s%s (%zu rounds: excursion %.1f%%%s, slope %.1f%%%s)", st == STEADY_NO ? "**" : "",
			      steady_state_name(st), st == STEADY_NO ? "**" : "", r->rounds, 100 * r->excursion,
			      r->excursion_ok ? "" : " > 20%", 100 * r->slope_excursion, r->slope_ok ? "" : " > 10%");
		else
			report_md_cell(sb, steady_state_name(st));
		break;
	case STEADY_NA:
		md_cellf(sb, "n/a (%zu round%s, need %d)", r ? r->rounds : 0, r && r->rounds == 1 ? "" : "s",
		      STEADY_MIN_WINDOW);
		break;
	}
}

void md_bottleneck_cell(struct strbuf *sb, bool has, const struct verdict_in *in, const struct verdict *v)
{
	char why[300];

	if (!has) {
		report_md_cell(sb, "– (no telemetry)");
		return;
	}
	verdict_explain(in, v, why, sizeof(why));
	md_cellf(sb, "**%s**: %s", bottleneck_name(v->bottleneck), why);
}

void md_dev_cell(struct strbuf *sb, const struct tel_dev *d)
{
	char b[300];

	if (!d) {
		report_md_cell(sb, "–");
		return;
	}
	report_dev_text(d, b, sizeof(b));
	report_md_cell(sb, b);
}

void md_pct_cell(struct strbuf *sb, bool has, double frac)
{
	if (has)
		md_cellf(sb, "%.0f%%", 100 * frac);
	else
		report_md_cell(sb, "–");
}

void md_range_cell(struct strbuf *sb, double lo, double hi)
{
	char a[32], b[32];

	report_fmt_num(a, sizeof(a), lo, 2);
	report_fmt_num(b, sizeof(b), hi, 2);
	md_cellf(sb, "%s – %s", a, b);
}

/* The header of a table built by report/tables.c: report.md's name, or the common one on one line. */
static void md_table_header(struct strbuf *sb, const struct report_table *t)
{
	struct strbuf name;
	size_t n = 0;

	strbuf_init(&name, 0);
	for (size_t c = 0; c < t->ncols; c++) {
		const char *s = t->cols[c].md_name ? t->cols[c].md_name : t->cols[c].name;

		if (!(t->cols[c].in & RT_MD))
			continue;
		n++;
		strbuf_reset(&name);
		for (; *s; s++)
			strbuf_addc(&name, *s == '\n' ? ' ' : *s);
		report_md_cell(sb, name.buf);
	}
	strbuf_adds(sb, "|\n");
	for (size_t c = 0; c < n; c++)
		strbuf_adds(sb, "|---");
	strbuf_adds(sb, "|\n");
	strbuf_release(&name);
}

static void md_spread_of(struct strbuf *sb, const struct rt_cell *c)
{
	if (!c->has)
		report_md_cell(sb, "–");
	else if (c->terse)
		md_celln(sb, c->spread->mean, 2);
	else
		md_spread_cell(sb, c->spread);
}

static void md_status_of(struct strbuf *sb, const struct rt_cell *c)
{
	if (!c->has)
		report_md_cell(sb, rt_status_word(false));
	else if (c->terse)
		md_cellf(sb, "**%s**", rt_status_word(true));
	else
		md_cellf(sb, "**%s** (%zu of %zu runs complete)", rt_status_word(true), c->n, c->n2);
}

static void md_host_cpu(struct strbuf *sb, const struct verdict_in *in)
{
	/* A hypervisor host's node statistics are named; this machine's /proc/stat is the default. */
	if (in->has_host_cpu && in->host_cpu_src && strcmp(in->host_cpu_src, "/proc/stat"))
		md_cellf(sb, "%.0f%% (%s)", 100 * in->host_cpu_busy, in->host_cpu_src);
	else
		md_pct_cell(sb, in->has_host_cpu, in->host_cpu_busy);
}

static void md_driver_cpu(struct strbuf *sb, const struct verdict_in *in, const struct verdict *v)
{
	if (in->has_driver_cpu)
		md_cellf(sb, "%.2f (%u loop%s)%s", v->driver.per_loop, in->driver_loops, in->driver_loops == 1 ? "" : "s",
			 v->driver.saturated ? " **SATURATED**" : "");
	else
		report_md_cell(sb, "–");
}

static void md_welch(struct strbuf *sb, const struct ci_welch *w)
{
	if (w->valid)
		md_cellf(sb, "t = %.2f, df = %.1f, p = %.3g: %s", w->t, w->df, w->p,
			 w->significant ? "significant" : "**NOT significant**");
	else
		report_md_cell(sb, "n/a (needs 2 repetitions on both drives)");
}

/* A leaderboard's drive, in bold when measured, or its figure, said to be missing when the row states none. */
static void md_board_cell(struct strbuf *sb, const struct rt_cell *c)
{
	if (c->kind == RT_BOARD_DRIVE && c->has)
		md_cellf(sb, "**%s**", c->text);
	else if (c->kind == RT_BOARD_DRIVE)
		report_md_cell(sb, c->text);
	else if (c->has)
		md_celln(sb, c->a, (int)c->n);
	else
		report_md_cell(sb, "not published");
}

/* One cell of a table built by report/tables.c. */
static void md_cell(struct strbuf *sb, const struct rt_cell *c)
{
	switch (c->kind) {
	case RT_TEXT:
	case RT_NAME:
	case RT_GROUP_LINK:
		report_md_cell(sb, c->text);
		break;
	case RT_INT:
		md_cellf(sb, "%lld", c->i);
		break;
	case RT_COUNT:
		md_celln(sb, (double)c->i, 0);
		break;
	case RT_MISSING:
	case RT_SPAN:
	case RT_SPANNED:
	case RT_RATIO:
	case RT_LAT_RATIO:
	case RT_CI:
		report_md_cell(sb, "–");
		break;
	case RT_NUM:
		if (c->has)
			md_celln(sb, c->a, (int)c->n);
		else
			report_md_cell(sb, "–");
		break;
	case RT_FIXED:
		if (c->has)
			md_cellf(sb, "%.*f", (int)c->n, c->a);
		else
			report_md_cell(sb, "–");
		break;
	case RT_LATENCY:
		md_cellf(sb, "%.2f%s", c->a, c->has ? " ≈" : "");
		break;
	case RT_SPREAD:
		md_spread_of(sb, c);
		break;
	case RT_RANGE:
		md_range_cell(sb, c->a, c->b);
		break;
	case RT_INSTANCES:
		if (c->n2 > 1)
			md_cellf(sb, "%zu (%zu reps)", c->n, c->n2);
		else
			md_cellf(sb, "%zu", c->n);
		break;
	case RT_LITTLE:
		md_little_cell(sb, c->little, c->a);
		break;
	case RT_STATUS:
		md_status_of(sb, c);
		break;
	case RT_RUN_STATUS:
		if (c->terse)
			md_cellf(sb, "%s%s", c->text, c->note);
		else if (c->has)
			md_cellf(sb, "**%s**%s", c->text, c->note);
		else
			report_md_cell(sb, c->text);
		break;
	case RT_STEADY:
		md_steady_cell(sb, c->steady, c->steady_r);
		break;
	case RT_BOTTLENECK:
		md_bottleneck_cell(sb, c->has, c->vin, c->verdict);
		break;
	case RT_DEVICE:
		md_dev_cell(sb, c->dev);
		break;
	case RT_PCT:
		md_pct_cell(sb, c->has, c->a);
		break;
	case RT_HOST_CPU:
		md_host_cpu(sb, c->vin);
		break;
	case RT_DRIVER_CPU:
		md_driver_cpu(sb, c->vin, c->verdict);
		break;
	case RT_RUN_GROUP:
		md_cellf(sb, "%s (%s, %lld VMs)", c->text, report_kind_title(c->kind_name), c->i);
		break;
	case RT_RANKS:
		md_cellf(sb, "%zu–%zu", c->n, c->n2);
		break;
	case RT_WELCH:
		md_welch(sb, c->welch);
		break;
	case RT_BOARD_DRIVE:
	case RT_BOARD_NUM:
		md_board_cell(sb, c);
		break;
	}
}

/* A table built by report/tables.c: its header and its rows, then a blank line. */
void md_table(struct strbuf *sb, const struct report_table *t)
{
	md_table_header(sb, t);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			if (t->cols[c].in & RT_MD)
				md_cell(sb, rt_at(t, r, c));
		md_endrow(sb);
	}
	strbuf_addc(sb, '\n');
}

static void summary_table(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	strbuf_adds(sb, "## Results per drive × run group (sample phase)\n\n"
			"TPS is the sum over the instances that ran together; with several repetitions each figure "
			"is the mean over repetitions, TPS with ± the half-width of its 95% confidence interval "
			"(see *Repetitions*). \"mean of instance p99s\" is the published "
			"\"average 99th percentile\" (an average of percentiles, not a percentile); \"pooled\" p99 comes "
			"from the merged histograms of every transaction.\n\n");
	report_table_summary(rep, &t);
	md_table(sb, &t);
	report_table_release(&t);
}

void md_pub_little(struct strbuf *sb, const struct pub_result *p)
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
		md_header(sb, cols);
		report_md_cell(sb, "**measured**");
		report_md_cell(sb, "this run");
		report_md_cell(sb, g->drive);
		report_md_cell(sb, "");
		md_cellf(sb, "%lld", (long long)g->vm_count);
		md_cellf(sb, "%zu", g->ndrives);
		md_celln(sb, g->tps.mean, 2);
		md_celln(sb, g->avg_ms_mean.mean, 2);
		md_opt_ms(sb, g->has_p99_mean, g->p99_mean.mean);
		report_md_cell(sb, "");
		md_little_cell(sb, g->little, g->little_dev);
		md_endrow(sb);
		for (size_t k = 0; k < g->nrefs; k++) {
			const struct pub_result *p = g->refs[k];
			report_md_cell(sb, "published");
			md_cellf(sb, "%s: %s", p->review->publisher, p->review->title);
			md_pub_name_cell(sb, p);
			report_md_cell(sb, p->review->platform);
			md_cellf(sb, "%lld", (long long)p->vm_count);
			md_cellf(sb, "%lld", (long long)p->drives);
			md_celln(sb, p->tps, 2);
			md_celln(sb, p->avg_ms, 2);
			md_opt_ms(sb, p->has_p99, p->p99_ms);
			md_cellf(sb, "%.2f×", g->tps.mean / p->tps);
			md_pub_little(sb, p);
			md_endrow(sb);
		}
		strbuf_addc(sb, '\n');
	}
}

static void verdicts(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	strbuf_addf(sb, "## Verdicts: steady state and bottleneck\n\n"
		    "**Steady state**: SNIA PTS rule on the TPS of each report interval (a round), summed over the "
		    "instances that ran together: over a window of rounds, max − min within 20%% of the window's mean "
		    "(excursion) and the least-squares line moving at most 10%% of the mean across the window (slope). "
		    "Precondition: its last %zu rounds; sample: all its rounds. A group shows its worst repetition.\n\n"
		    "**Bottleneck** from the sample's telemetry, first rule that holds: driver saturated (>= 0.90 core "
		    "per event loop, or terminals waiting >= 10%% of their response time for a connection), host CPU "
		    ">= 90%% busy, guest vCPUs >= 90%% busy, the drive's busiest device >= 80%% utilised, else unknown. "
		    "A group takes the busiest of each resource over its runs.\n\n", rep->steady_window);
	report_table_verdicts(rep, &t);
	md_table(sb, &t);
	report_table_release(&t);
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
	struct report_table t;

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
	report_table_compare(rep, &t);
	md_table(sb, &t);
	report_table_release(&t);
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
	md_endrow(sb);
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
	lb_md_section(sb, rep); /* report/lb_render.c */
	md_little_table(sb, rep);
	md_repetitions(sb, rep);
	md_tpcc(sb, rep);
	md_precondition(sb, rep);
	md_per_drive(sb, rep);
	md_instances(sb, rep);
	md_superseded(sb, rep);
	md_keys(sb, rep);
	md_references(sb, rep);
	return 0;
}

const struct report_writer_ops report_md_ops = {
	.name = "md",
	.summary = "report.md: Markdown tables",
	.render = md_render,
};
