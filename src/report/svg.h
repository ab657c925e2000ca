/*
 * Inline SVG charts for the HTML report: no scripts, no fonts or files from
 * the network. Every chart has a title, axis labels with units and a legend.
 *
 * Layout: each chart has a fixed coordinate system (viewBox) and is drawn at
 * width="100%", so it scales to the width of whatever holds it and never
 * makes the page wider. Bar charts are horizontal (one row per bar, grouped
 * by category), so their width does not grow with the number of drives, only
 * their height; legends wrap onto as many rows as they need inside the
 * viewBox. Text widths are estimated (SVG_CHAR_EM of the font size per
 * character, generous for sans-serif), labels longer than their column are
 * cut with an ellipsis and keep their full text in a <title> tooltip.
 */
#ifndef DBRIG_REPORT_SVG_H
#define DBRIG_REPORT_SVG_H

#include "core/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * The viewBoxes are narrow so that the smallest text, SVG_MIN_FONT units,
 * still renders at 9 px or more on a 390 px phone (a chart about 370 px
 * wide: 370 / 440 x 11 = 9.3 px); on a desktop the charts stand side by side
 * in a grid (html_out.c), each about as wide as its viewBox.
 */
#define SVG_BAR_WIDTH 440.0   /* viewBox width of bar charts */
#define SVG_LINE_WIDTH 440.0  /* viewBox width of line charts */
#define SVG_MIN_FONT 11.0     /* no text of a chart is smaller (viewBox units) */
#define SVG_CHAR_EM 0.58      /* estimated width of a character, in font sizes */

enum bar_style {
	BAR_MEASURED,         /* solid, colour of the drive */
	BAR_MEASURED_POOLED,  /* same colour, lighter: pooled figure */
	BAR_PUBLISHED,        /* grey, hatched, dashed outline */
};

struct bar {
	char *label;          /* left of the bar */
	double value;
	enum bar_style style;
	int color;            /* palette index for measured bars */
	bool has_err;         /* a whisker: the 95% confidence interval */
	double err_lo, err_hi;
};

struct bar_cat {
	char *label;
	size_t n;
	struct bar *bars;
};

/* One legend entry: a drive and its palette colour. */
struct legend_entry {
	const char *name;
	int color;
};

struct bar_chart {
	const char *title;
	const char *y_label;  /* the value axis, with unit, e.g. "TPS (transactions/s)" */
	size_t ncats;
	struct bar_cat *cats;
	bool uses_pooled;     /* show the pooled style in the legend */
	/* false: each category (run group) is drawn on its own value axis, so a
	 * 99-TPS group is as readable as a 30,000-TPS one; true: one axis for all. */
	bool shared_axis;
	size_t nlegend;       /* one swatch per drive, in its colour */
	const struct legend_entry *legend;
};

struct line_series {
	char *name;
	size_t n;
	double *x, *y;
	bool dashed;
	bool has_color;       /* use `color`, else the series' index picks the palette colour */
	int color;
	bool bold;            /* a thick line: e.g. the sum over instances */
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
	double ymax;          /* > 0: fixed top of the y axis (e.g. 100 for a percentage) */
	const char *empty_note; /* shown when there is no data */
};

void svg_bar_cat_add(struct bar_cat *c, const char *label, double value, enum bar_style st, int color);
/* The last bar added gets a whisker from lo to hi. */
void svg_bar_cat_set_err(struct bar_cat *c, double lo, double hi);
void svg_bar_chart_release(struct bar_chart *c);
void svg_line_series_add(struct line_series *s, double x, double y);
void svg_line_chart_release(struct line_chart *c);

/* Append one <svg> element. `id` makes pattern ids unique in the page. */
void svg_bar_chart(struct strbuf *sb, const struct bar_chart *c, int id);
void svg_line_chart(struct strbuf *sb, const struct line_chart *c, int id);

/* The palette colour of index i ("#0072B2"), for HTML legends beside charts:
 * SVG_NPALETTE colour-blind-safe colours, none black, before any repeats;
 * a negative index is a neutral grey (a total over several drives). */
#define SVG_NPALETTE 12
const char *svg_color(int i);

/* The top of a value axis showing `max` with a 10% margin, on a tick. */
double svg_axis_top(double max);

#endif
