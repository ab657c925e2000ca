/*
 * What the parts of the Markdown report share (report/md_out.c and
 * report/md_detail.c, and report/lb_render.c for the leaderboard's tables):
 * md_out.c writes the page, its cells and the tables a review would print;
 * md_detail.c the sections behind them. Each appends to sb; a cell is
 * "| text " (report_md_cell), a row ends with md_endrow.
 */
#ifndef DBRIG_REPORT_MD_INT_H
#define DBRIG_REPORT_MD_INT_H

#include "report/tables.h"
#include "report/writer.h"

#include <stdbool.h>

/* md_out.c: the cells. */
void md_celln(struct strbuf *sb, double v, int decimals); /* "7,869.21" */
void md_cellf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The row's drive, machine-translated sources marked (report/published.c). */
void md_pub_name_cell(struct strbuf *sb, const struct pub_result *p);
/* The header row of the NULL-terminated cols and its |---| line. */
void md_header(struct strbuf *sb, const char *const *cols);
void md_endrow(struct strbuf *sb);
void md_little_cell(struct strbuf *sb, enum little_state st, double dev);
void md_opt_ms(struct strbuf *sb, bool has, double v); /* "–" without */
/* "14,077.29", or "14,077.29 ± 830.99" (95% CI half-width) over repetitions. */
void md_spread_cell(struct strbuf *sb, const struct spread *s);
void md_steady_cell(struct strbuf *sb, enum steady_state st, const struct steady_result *r);
void md_bottleneck_cell(struct strbuf *sb, bool has, const struct verdict_in *in, const struct verdict *v);
void md_dev_cell(struct strbuf *sb, const struct tel_dev *d);
void md_pct_cell(struct strbuf *sb, bool has, double frac);
void md_range_cell(struct strbuf *sb, double lo, double hi); /* "lo – hi" */
/* A table built by report/tables.c: its header and its rows, then a blank line. */
void md_table(struct strbuf *sb, const struct report_table *t);
/* Little's law for a published row (report/pub_little.h). */
void md_pub_little(struct strbuf *sb, const struct pub_result *p);

/* md_detail.c: the sections behind the tables, in the page's order. */
void md_little_table(struct strbuf *sb, const struct report *rep);
void md_repetitions(struct strbuf *sb, const struct report *rep);
void md_tpcc(struct strbuf *sb, const struct report *rep);
void md_precondition(struct strbuf *sb, const struct report *rep);
void md_per_drive(struct strbuf *sb, const struct report *rep);
void md_instances(struct strbuf *sb, const struct report *rep);
void md_superseded(struct strbuf *sb, const struct report *rep);
void md_keys(struct strbuf *sb, const struct report *rep);
void md_references(struct strbuf *sb, const struct report *rep);

#endif
