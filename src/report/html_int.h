/*
 * What the parts of report.html share (report/html_*.c, and report/lb_render.c
 * for the leaderboard's tables): html_out.c writes the page (head, headline,
 * test bed, warnings, contents) and the helpers below; html_tables.c its
 * tables; html_charts.c its charts. Each appends to the page's strbuf;
 * *chart_id numbers the charts so that their SVG pattern ids stay unique in
 * the page.
 */
#ifndef DBRIG_REPORT_HTML_INT_H
#define DBRIG_REPORT_HTML_INT_H

#include "core/strbuf.h"
#include "report/aggregate.h"

#include <stddef.h>

struct report_table; /* report/tables.h */

/* The figure a bar chart or a scaling chart draws. */
enum metric {
	METRIC_TPS,
	METRIC_AVG,
	METRIC_P99,
};

/* html_out.c: `s` escaped for HTML. */
void html_esc(struct strbuf *sb, const char *s);
/* html_out.c: "VM" for 1, else "VMs". */
const char *html_vms_word(long long n);
/* html_out.c: "drive-3-pm1743-a", the id of the drive's section, unique in the page. */
void html_drive_anchor(struct strbuf *sb, const char *drive, size_t nth);

/* html_tables.c: a table built by report/tables.c, its report.html columns. */
void html_table(struct strbuf *sb, const struct report_table *t);
/* html_tables.c: a name or a path, escaped, broken at spaces only. */
void html_name_text(struct strbuf *sb, const char *s);
/* html_tables.c: results per drive x run group. */
void html_summary(struct strbuf *sb, const struct report *rep);
/* html_tables.c: steady state and bottleneck per drive x run group. */
void html_verdicts(struct strbuf *sb, const struct report *rep);
/* html_tables.c: the drives of each run group ranked (with --drive: against the drives left out). */
void html_comparison(struct strbuf *sb, const struct report *rep);
/* html_tables.c: one row per result file. */
void html_instances(struct strbuf *sb, const struct report *rep);
/* html_tables.c: every published reference loaded, then their chart. */
void html_published_section(struct strbuf *sb, int *chart_id, const struct report *rep);
/* html_tables.c: one drive over every run group: its figures, verdicts and telemetry charts. */
void html_drive_section(struct strbuf *sb, int *chart_id, const struct report *rep, const char *drive, size_t nth);
/* html_tables.c: the attempts `campaign --resume` kept (nothing when there are none). */
void html_superseded(struct strbuf *sb, const struct report *rep);

/* html_charts.c: one bar chart of metric `m`, a category per run group, published bars beside. */
void html_bars(struct strbuf *sb, int *chart_id, const struct report *rep, enum metric m, const char *title,
	       const char *ylabel, const char *caption);
/* html_charts.c: every published reference, by workload and configuration. */
void html_published_chart(struct strbuf *sb, int *chart_id, const struct report *rep);
/* html_charts.c: a drive x run group's TPS per interval (id "tps-<gi>"). */
void html_tps_over_time(struct strbuf *sb, int *chart_id, const struct report *rep, const struct agg_group *g,
			size_t gi);
/* html_charts.c: a drive x run group's drive utilisation and host CPU per interval. */
void html_telemetry_over_time(struct strbuf *sb, int *chart_id, const struct agg_group *g);
/* html_charts.c: latency by percentile from the merged histograms. */
void html_percentile_curve(struct strbuf *sb, int *chart_id, const struct report *rep);
/* html_charts.c: --drive: the drive's scaling against VM count and threads. */
void html_scaling_section(struct strbuf *sb, int *chart_id, const struct report *rep);

#endif
