#include "report/svg.h"

#include "core/escape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Colour-blind safe: Okabe-Ito's seven colours without its black (a black
 * bar hides its whisker), then five of Paul Tol's muted and bright sets that
 * stay apart from them (indigo, wine, olive, green, purple). Twelve drives
 * before a colour repeats.
 */
static const char *const palette[SVG_NPALETTE] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
						  "#D55E00", "#F0E442", "#332288", "#882255", "#999933",
						  "#117733", "#AA4499"};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

const char *svg_color(int i)
{
	return i < 0 ? "#666666" : palette[(size_t)i % NPALETTE];
}

static void esc(struct strbuf *sb, const char *s)
{
	escape_html(sb, s);
}

void svg_bar_cat_add(struct bar_cat *c, const char *label, double value, enum bar_style st, int col)
{
	c->bars = xrealloc(c->bars, (c->n + 1) * sizeof(*c->bars));
	c->bars[c->n++] = (struct bar){.label = xstrdup(label), .value = value, .style = st, .color = col};
}

void svg_bar_cat_set_err(struct bar_cat *c, double lo, double hi)
{
	if (!c->n)
		return;
	c->bars[c->n - 1].has_err = true;
	c->bars[c->n - 1].err_lo = lo;
	c->bars[c->n - 1].err_hi = hi;
}

void svg_bar_chart_release(struct bar_chart *c)
{
	for (size_t i = 0; i < c->ncats; i++) {
		for (size_t k = 0; k < c->cats[i].n; k++)
			free(c->cats[i].bars[k].label);
		free(c->cats[i].bars);
		free(c->cats[i].label);
	}
	free(c->cats);
	c->cats = NULL;
	c->ncats = 0;
}

void svg_line_series_add(struct line_series *s, double x, double y)
{
	s->x = xrealloc(s->x, (s->n + 1) * sizeof(*s->x));
	s->y = xrealloc(s->y, (s->n + 1) * sizeof(*s->y));
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->n++;
}

void svg_line_chart_release(struct line_chart *c)
{
	for (size_t i = 0; i < c->nseries; i++) {
		free(c->series[i].name);
		free(c->series[i].x);
		free(c->series[i].y);
	}
	free(c->series);
	c->series = NULL;
	c->nseries = 0;
}

/* Characters of UTF-8 text (continuation bytes do not count). */
static size_t u8len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static double text_w(const char *s, double font)
{
	return (double)u8len(s) * font * SVG_CHAR_EM;
}

/*
 * <text> with `s`, cut to fit `maxw` (an ellipsis, and the full text as a
 * tooltip). `attrs` are the element's attributes.
 */
static void fit_text(struct strbuf *sb, const char *attrs, const char *s, double font, double maxw)
{
	size_t fit = maxw > 0 ? (size_t)(maxw / (font * SVG_CHAR_EM)) : 0;

	strbuf_addf(sb, "<text %s font-size=\"%.0f\">", attrs, font);
	if (u8len(s) <= fit || fit < 2) {
		esc(sb, s);
	} else {
		struct strbuf cut;
		size_t chars = 0;
		const char *p = s;

		strbuf_init(&cut, 0);
		for (; *p; p++) {
			if (((unsigned char)*p & 0xC0) != 0x80 && ++chars > fit - 1)
				break;
			strbuf_addc(&cut, *p);
		}
		esc(sb, cut.buf);
		strbuf_adds(sb, "…<title>");
		esc(sb, s);
		strbuf_adds(sb, "</title>");
		strbuf_release(&cut);
	}
	strbuf_adds(sb, "</text>\n");
}

/* A "nice" step (1, 2 or 5 x 10^k) giving about 5 ticks up to max. */
static double nice_step(double max)
{
	double raw, mag, f;

	if (max <= 0)
		return 1;
	raw = max / 5;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void fmt_tick(char *b, size_t n, double v)
{
	if (fabs(v) >= 1000 || v == floor(v))
		snprintf(b, n, "%.0f", v);
	else if (fabs(v) >= 1)
		snprintf(b, n, "%.1f", v);
	else
		snprintf(b, n, "%.2g", v);
}

/* Decimals for the values of one category: the same for every bar of it. */
static int value_decimals(double max)
{
	return max >= 100 ? 0 : max >= 10 ? 1 : 2;
}

double svg_axis_top(double max)
{
	double step = nice_step(max * 1.1);

	return max > 0 ? ceil(max * 1.1 / step) * step : 1;
}

static void svg_open(struct strbuf *sb, double w, double h, const char *title)
{
	strbuf_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"100%%\" "
		    "viewBox=\"0 0 %.0f %.0f\" preserveAspectRatio=\"xMinYMin meet\" role=\"img\" aria-label=\"", w, h);
	esc(sb, title);
	strbuf_adds(sb, "\" font-family=\"sans-serif\">\n");
}

static void title(struct strbuf *sb, const char *t, double w)
{
	char attrs[96];

	snprintf(attrs, sizeof(attrs), "x=\"%.1f\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\"", w / 2);
	fit_text(sb, attrs, t, 13, w - 20);
}

/* Legend entries laid out left to right, wrapping inside [x0, x1]. */
struct legend {
	struct strbuf *sb;
	double x0, x1, x, y;
	int rows;
};

static void legend_start(struct legend *l, struct strbuf *sb, double x0, double x1, double y)
{
	*l = (struct legend){.sb = sb, .x0 = x0, .x1 = x1, .x = x0, .y = y, .rows = 1};
}

/* Room for an entry of text `t` with a 14-unit swatch; returns the swatch x. */
static double legend_place(struct legend *l, const char *t)
{
	double w = 18 + text_w(t, SVG_MIN_FONT) + 14, x;

	if (l->x > l->x0 && l->x + w > l->x1) {
		l->x = l->x0;
		l->y += 18;
		l->rows++;
	}
	x = l->x;
	l->x += w;
	return x;
}

static void legend_text(struct legend *l, double x, const char *t)
{
	char attrs[64];

	snprintf(attrs, sizeof(attrs), "x=\"%.1f\" y=\"%.1f\"", x + 18, l->y + 9);
	fit_text(l->sb, attrs, t, SVG_MIN_FONT, l->x1 - x - 18);
}

/* Rows a legend of these texts needs inside a width. */
static int legend_rows(const char *const *texts, size_t n, double width)
{
	struct legend l;
	struct strbuf none;

	strbuf_init(&none, 0);
	legend_start(&l, &none, 0, width, 0);
	for (size_t i = 0; i < n; i++)
		legend_place(&l, texts[i]);
	strbuf_release(&none);
	return l.rows;
}

static void bar_rect(struct strbuf *sb, const struct bar *b, double x, double y, double w, double h, int id)
{
	switch (b->style) {
	case BAR_MEASURED:
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", x, y, w, h,
			    svg_color(b->color));
		break;
	case BAR_MEASURED_POOLED:
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
			    "fill-opacity=\"0.4\" stroke=\"%s\"/>\n", x, y, w, h, svg_color(b->color), svg_color(b->color));
		break;
	case BAR_PUBLISHED:
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"url(#hatch%d)\" "
			    "stroke=\"#555\" stroke-dasharray=\"4 2\"/>\n", x, y, w, h, id);
		break;
	}
}

#define CAT_H 22.0
#define TICK_H 14.0
#define ROW_H 18.0
#define CAT_GAP 10.0

/* The largest value (or whisker end) of bars [0, n). */
static double bars_max(const struct bar *bars, size_t n)
{
	double m = 0;

	for (size_t k = 0; k < n; k++) {
		double v = bars[k].has_err && bars[k].err_hi > bars[k].value ? bars[k].err_hi : bars[k].value;
		if (v > m)
			m = v;
	}
	return m;
}

/* Tick labels of a value axis at `ty` and grid lines from gy0 to gy1; the axis spans x0..x1 for 0..top. */
static void value_axis(struct strbuf *sb, double x0, double x1, double top, double step, double ty, double gy0,
		       double gy1)
{
	char b[32];

	for (double v = 0; v <= top + step * 1e-9; v += step) {
		double x = x0 + v / top * (x1 - x0);
		fmt_tick(b, sizeof(b), v);
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"%.0f\">%s</text>\n",
			    x, gy0, x, gy1, x, ty, SVG_MIN_FONT, b);
	}
}

/* The top of an axis for values up to max, on a nice step; *step gets the step. */
static double bar_top(double max, double *step)
{
	*step = nice_step(max);
	return max > 0 ? ceil(max / *step) * *step : 1;
}

/* One bar's row at y: its label, its bar, its whisker and its value; the axis spans x0..x1 for 0..top. */
static void bar_row(struct strbuf *sb, const struct bar *br, double x0, double x1, double top, double lw, double y,
		    int dec, int id)
{
	char b[32], attrs[160];
#define XP(v) (x0 + (v) / top * (x1 - x0))
	double bw = XP(br->value) - x0;

	snprintf(attrs, sizeof(attrs), "class=\"bar-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"", x0 - 5,
		 y + 12.5);
	fit_text(sb, attrs, br->label, SVG_MIN_FONT, lw - 8);
	bar_rect(sb, br, x0, y + 2, bw > 0 ? bw : 0, ROW_H - 5, id);
	if (br->has_err) {
		double cy = y + 2 + (ROW_H - 5) / 2;
		/* A white halo keeps the whisker visible on a dark bar. */
		for (int pass = 0; pass < 2; pass++)
			strbuf_addf(sb, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" stroke=\"%s\" "
				    "stroke-width=\"%s\" fill=\"none\"/>\n", XP(br->err_lo), cy, XP(br->err_hi),
				    XP(br->err_lo), cy - 4, cy + 4, XP(br->err_hi), cy - 4, cy + 4,
				    pass ? "#222" : "#fff", pass ? "1.2" : "3");
	}
	snprintf(b, sizeof(b), "%.*f", dec, br->value);
	strbuf_addf(sb, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\">%s</text>\n",
		    (br->has_err && br->err_hi > br->value ? XP(br->err_hi) : x0 + (bw > 0 ? bw : 0)) + 4,
		    y + 12, SVG_MIN_FONT, b);
#undef XP
}

/* The legend under a bar chart: a swatch per legend entry, then the pooled and published keys. */
static void bar_legend(struct strbuf *sb, const struct bar_chart *c, const char **legend_texts, size_t nleg, double w,
		       double yend, int id)
{
	struct legend l;
	legend_start(&l, sb, 8, w - 8, yend + (c->shared_axis ? 20 : 0) + 10);
	for (size_t i = 0; i < nleg; i++) {
		double lx = legend_place(&l, legend_texts[i]);
		if (i < c->nlegend)
			strbuf_addf(sb, "<rect class=\"swatch\" x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>",
				    lx, l.y, svg_color(c->legend[i].color));
		else if (!strncmp(legend_texts[i], "published", 9))
			strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"url(#hatch%d)\" "
				    "stroke=\"#555\" stroke-dasharray=\"4 2\"/>", lx, l.y, id);
		else
			strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"#999\" "
				    "fill-opacity=\"0.4\" stroke=\"#555\"/>", lx, l.y);
		legend_text(&l, lx, legend_texts[i]);
	}
}

void svg_bar_chart(struct strbuf *sb, const struct bar_chart *c, int id)
{
	const double w = SVG_BAR_WIDTH, y0 = c->shared_axis ? 60 : 44;
	double lw = 90, x0, x1, all_max = 0, top = 1, step = 1, y, yend, h;
	bool any_pub = false;
	size_t nleg = 0;
	const char **legend_texts = xcalloc(c->nlegend + 3, sizeof(*legend_texts));
	char attrs[160];

	for (size_t i = 0; i < c->ncats; i++) {
		double m = bars_max(c->cats[i].bars, c->cats[i].n);
		if (m > all_max)
			all_max = m;
		for (size_t k = 0; k < c->cats[i].n; k++) {
			const struct bar *br = &c->cats[i].bars[k];
			if (text_w(br->label, SVG_MIN_FONT) + 16 > lw)
				lw = text_w(br->label, SVG_MIN_FONT) + 16;
			any_pub |= br->style == BAR_PUBLISHED;
		}
	}
	if (lw > 150)
		lw = 150;
	x0 = lw + 6;
	x1 = w - 48; /* room for the value after the longest bar */
	for (size_t i = 0; i < c->nlegend; i++)
		legend_texts[nleg++] = c->legend[i].name;
	if (c->uses_pooled)
		legend_texts[nleg++] = "pooled (merged histograms)";
	if (any_pub)
		legend_texts[nleg++] = "published review (hatched)";
	yend = y0;
	for (size_t i = 0; i < c->ncats; i++)
		yend += CAT_H + (c->shared_axis ? 0 : TICK_H) + ROW_H * (double)c->cats[i].n + CAT_GAP;
	h = yend + (c->shared_axis ? 20 : 0) + 10 + 18.0 * legend_rows(legend_texts, nleg, w - 16) + 6;

	svg_open(sb, w, h, c->title);
	strbuf_addf(sb, "<defs><pattern id=\"hatch%d\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
		    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#eee\"/><line x1=\"0\" y1=\"0\" "
		    "x2=\"0\" y2=\"6\" stroke=\"#777\" stroke-width=\"3\"/></pattern></defs>\n", id);
	title(sb, c->title, w);
	snprintf(attrs, sizeof(attrs), "x=\"%.1f\" y=\"36\" text-anchor=\"middle\"", w / 2);
	fit_text(sb, attrs, c->y_label, 12, w - 20);
	if (c->shared_axis) {
		top = bar_top(all_max, &step);
		value_axis(sb, x0, x1, top, step, y0 - 8, y0 - 2, yend);
	}
	y = y0;
	for (size_t i = 0; i < c->ncats; i++) {
		const struct bar_cat *cat = &c->cats[i];
		double cmax = bars_max(cat->bars, cat->n);
		int dec = value_decimals(cmax);

		snprintf(attrs, sizeof(attrs), "class=\"cat\" x=\"8\" y=\"%.1f\" font-weight=\"bold\"", y + 15);
		fit_text(sb, attrs, cat->label, 12, w - 16);
		y += CAT_H;
		if (!c->shared_axis) {
			top = bar_top(cmax, &step);
			value_axis(sb, x0, x1, top, step, y + 10, y + 12, y + TICK_H + ROW_H * (double)cat->n);
			y += TICK_H;
		}
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", x0, y, x0,
			    y + ROW_H * (double)cat->n);
		for (size_t k = 0; k < cat->n; k++) {
			bar_row(sb, &cat->bars[k], x0, x1, top, lw, y, dec, id);
			y += ROW_H;
		}
		y += CAT_GAP;
	}
	if (c->shared_axis)
		value_axis(sb, x0, x1, top, step, yend + 14, yend, yend);
	bar_legend(sb, c, legend_texts, nleg, w, yend, id);
	free(legend_texts);
	strbuf_adds(sb, "</svg>\n");
}

/* A tick label centred on x, shifted inward when it would reach past the chart's edges. */
static void x_tick(struct strbuf *sb, double x, double y, const char *label, double w)
{
	double half = text_w(label, SVG_MIN_FONT) / 2;
	const char *anchor = "middle";

	if (x + half > w - 2) {
		x = w - 2;
		anchor = "end";
	} else if (x - half < 2) {
		x = 2;
		anchor = "start";
	}
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\">", x, y, anchor, SVG_MIN_FONT);
	esc(sb, label);
	strbuf_adds(sb, "</text>\n");
}

/* Each series' line and its legend entry; the plot is pw by ph at (left, top), for xmin..xmax and 0..ymax. */
static void line_series_draw(struct strbuf *sb, const struct line_chart *c, double left, double pw, double top,
			     double ph, double xmin, double xmax, double ymax)
{
#define XP(v) (left + ((v) - xmin) / (xmax - xmin) * pw)
#define YP(v) (top + ph - ((v) > ymax ? ymax : (v)) / ymax * ph)
	struct legend l;
	legend_start(&l, sb, left, left + pw, top + ph + 48);
	for (size_t i = 0; i < c->nseries; i++) {
		const struct line_series *s = &c->series[i];
		const char *col = svg_color(s->has_color ? s->color : (int)i);
		double lx;

		if (s->n) {
			strbuf_addf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"", col,
				    s->bold ? "2.8" : "1.3", s->dashed ? " stroke-dasharray=\"5 3\"" : "");
			for (size_t k = 0; k < s->n; k++)
				strbuf_addf(sb, "%s%.1f,%.1f", k ? " " : "", XP(s->x[k]), YP(s->y[k]));
			strbuf_adds(sb, "\"/>\n");
		}
		lx = legend_place(&l, s->name);
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"%s/>",
			    lx, l.y + 5, lx + 14, l.y + 5, col, s->dashed ? " stroke-dasharray=\"4 2\"" : "");
		legend_text(&l, lx, s->name);
	}
#undef XP
#undef YP
}

void svg_line_chart(struct strbuf *sb, const struct line_chart *c, int id)
{
	const double w = SVG_LINE_WIDTH, left = 50, top = 32, ph = 200, pw = w - left - 12;
	double xmin = 0, xmax = 0, ymax = 0, ystep, xstep, h;
	const char **names = xcalloc(c->nseries + 1, sizeof(*names));
	bool any = false;
	char b[32], attrs[128];

	(void)id;
	for (size_t i = 0; i < c->nseries; i++) {
		names[i] = c->series[i].name;
		for (size_t k = 0; k < c->series[i].n; k++) {
			double xv = c->series[i].x[k], yv = c->series[i].y[k];
			if (!any || xv < xmin)
				xmin = xv;
			if (!any || xv > xmax)
				xmax = xv;
			if (yv > ymax)
				ymax = yv;
			any = true;
		}
	}
	if (c->has_marker && c->marker_x > xmax)
		xmax = c->marker_x;
	if (c->nxticks) {
		xmin = c->xticks[0];
		xmax = c->xticks[c->nxticks - 1];
	}
	if (xmin > 0 && !c->nxticks)
		xmin = 0;
	if (xmax <= xmin)
		xmax = xmin + 1;
	if (c->ymax > 0) {
		ymax = c->ymax;
		ystep = nice_step(ymax);
	} else {
		ystep = nice_step(ymax * 1.1);
		ymax = ymax > 0 ? ceil(ymax * 1.1 / ystep) * ystep : 1;
	}
	h = top + ph + 52 + 18.0 * legend_rows(names, c->nseries, pw) + 6;

	svg_open(sb, w, h, c->title);
	title(sb, c->title, w);
	for (double v = 0; v <= ymax + ystep * 1e-9; v += ystep) {
		double y = top + ph - v / ymax * ph;
		fmt_tick(b, sizeof(b), v);
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"%.0f\">%s</text>\n",
			    left, y, left + pw, y, left - 4, y + 4, SVG_MIN_FONT, b);
	}
	strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", left, top + ph,
		    left, top);
	snprintf(attrs, sizeof(attrs), "transform=\"translate(12,%.1f) rotate(-90)\" text-anchor=\"middle\"",
		 top + ph / 2);
	fit_text(sb, attrs, c->y_label, 12, ph);
	strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", left, top + ph,
		    left + pw, top + ph);
#define XP(v) (left + ((v) - xmin) / (xmax - xmin) * pw)
	if (c->nxticks) {
		for (size_t i = 0; i < c->nxticks; i++) {
			strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>",
				    XP(c->xticks[i]), top, XP(c->xticks[i]), top + ph);
			x_tick(sb, XP(c->xticks[i]), top + ph + 16, c->xtick_labels[i], w);
		}
	} else {
		xstep = nice_step(xmax - xmin);
		for (double v = ceil(xmin / xstep) * xstep; v <= xmax + xstep * 1e-9; v += xstep) {
			fmt_tick(b, sizeof(b), v);
			x_tick(sb, XP(v), top + ph + 16, b, w);
		}
	}
	snprintf(attrs, sizeof(attrs), "x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\"", left + pw / 2, top + ph + 34);
	fit_text(sb, attrs, c->x_label, 12, pw);
	if (!any && c->empty_note) {
		snprintf(attrs, sizeof(attrs), "x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#a00\"", left + pw / 2,
			 top + ph / 2);
		fit_text(sb, attrs, c->empty_note, 13, pw);
	}
	if (c->has_marker) {
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" "
			    "stroke-dasharray=\"6 3\" stroke-width=\"1.5\"/>\n", XP(c->marker_x), top, XP(c->marker_x),
			    top + ph);
		snprintf(attrs, sizeof(attrs), "x=\"%.1f\" y=\"%.1f\" fill=\"#c00\"", XP(c->marker_x) + 4, top + 12);
		fit_text(sb, attrs, c->marker_label ? c->marker_label : "", SVG_MIN_FONT, left + pw - XP(c->marker_x) - 6);
	}
#undef XP
	line_series_draw(sb, c, left, pw, top, ph, xmin, xmax, ymax);
	free(names);
	strbuf_adds(sb, "</svg>\n");
}
