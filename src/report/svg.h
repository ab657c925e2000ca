/*
 * Inline SVG charts for the HTML report: no scripts, no fonts or files from
 * the network. Every chart has a title, axis labels with units and a legend.
 */
#ifndef DBRIG_REPORT_SVG_H
#define DBRIG_REPORT_SVG_H

#include "core/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

enum bar_style {
	BAR_MEASURED,         /* solid, colour of the drive */
	BAR_MEASURED_POOLED,  /* same colour, lighter: pooled figure */
	BAR_PUBLISHED,        /* grey, hatched, dashed outline */
};

struct bar {
	char *label;          /* under the bar */
	double value;
	enum bar_style style;
	int color;            /* palette index for measured bars */
};

struct bar_cat {
	char *label;
	size_t n;
	struct bar *bars;
};

struct bar_chart {
	const char *title;
	const char *y_label;  /* with unit, e.g. "TPS (transactions/s)" */
	size_t ncats;
	struct bar_cat *cats;
	bool uses_pooled;     /* show the pooled style in the legend */
};

struct line_series {
	char *name;
	size_t n;
	double *x, *y;
};

struct line_chart {
	const char *title;
	const char *x_label, *y_label;
	size_t nseries;
	struct line_series *series;
	bool has_marker;      /* vertical line, e.g. precondition -> sample */
	double marker_x;
	const char *marker_label;
	/* Custom x ticks (n == 0: automatic). */
	size_t nxticks;
	const double *xticks;
	const char *const *xtick_labels;
	const char *empty_note; /* shown when there is no data */
};

void bar_cat_add(struct bar_cat *c, const char *label, double value, enum bar_style st, int color);
void bar_chart_release(struct bar_chart *c);
void line_series_add(struct line_series *s, double x, double y);
void line_chart_release(struct line_chart *c);

/* Append one <svg> element. `id` makes pattern ids unique in the page. */
void svg_bar_chart(struct strbuf *sb, const struct bar_chart *c, int id);
void svg_line_chart(struct strbuf *sb, const struct line_chart *c, int id);

#endif
