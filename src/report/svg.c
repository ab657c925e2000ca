#include "report/svg.h"

#include "core/escape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Colour-blind safe (Okabe-Ito), then repeats. */
static const char *const palette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
				      "#D55E00", "#F0E442", "#000000"};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

static const char *color(int i)
{
	return palette[(size_t)(i < 0 ? 0 : i) % NPALETTE];
}

void bar_cat_add(struct bar_cat *c, const char *label, double value, enum bar_style st, int col)
{
	c->bars = xrealloc(c->bars, (c->n + 1) * sizeof(*c->bars));
	c->bars[c->n++] = (struct bar){.label = xstrdup(label), .value = value, .style = st, .color = col};
}

void bar_chart_release(struct bar_chart *c)
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

void line_series_add(struct line_series *s, double x, double y)
{
	s->x = xrealloc(s->x, (s->n + 1) * sizeof(*s->x));
	s->y = xrealloc(s->y, (s->n + 1) * sizeof(*s->y));
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->n++;
}

void line_chart_release(struct line_chart *c)
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

static void fmt_value(char *b, size_t n, double v)
{
	if (v >= 100)
		snprintf(b, n, "%.0f", v);
	else
		snprintf(b, n, "%.2f", v);
}

static void title(struct strbuf *sb, const char *t, double x)
{
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"20\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">", x);
	escape_html(sb, t);
	strbuf_adds(sb, "</text>\n");
}

static void y_axis(struct strbuf *sb, double x0, double y0, double h, double w, double ymax, double step,
		   const char *label)
{
	char b[32];

	for (double v = 0; v <= ymax + step * 1e-9; v += step) {
		double y = y0 - v / ymax * h;
		fmt_tick(b, sizeof(b), v);
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%s</text>\n",
			    x0, y, x0 + w, y, x0 - 6, y + 4, b);
	}
	strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", x0, y0, x0, y0 - h);
	strbuf_addf(sb, "<text transform=\"translate(16,%.1f) rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">",
		    y0 - h / 2);
	escape_html(sb, label);
	strbuf_adds(sb, "</text>\n");
}

static void bar_rect(struct strbuf *sb, const struct bar *b, double x, double y, double w, double h, int id)
{
	switch (b->style) {
	case BAR_MEASURED:
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
			    x, y, w, h, color(b->color));
		break;
	case BAR_MEASURED_POOLED:
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
			    "fill-opacity=\"0.4\" stroke=\"%s\"/>\n", x, y, w, h, color(b->color), color(b->color));
		break;
	case BAR_PUBLISHED:
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"url(#hatch%d)\" "
			    "stroke=\"#555\" stroke-dasharray=\"4 2\"/>\n", x, y, w, h, id);
		break;
	}
}

/* Extra width so a category's label (about 6.5 px per character) never overlaps the next one. */
static double cat_pad(const struct bar_cat *cat, double per_bar)
{
	double need = 6.5 * (double)strlen(cat->label), have = (double)cat->n * per_bar + 30;

	return need > have ? need - have : 0;
}

void svg_bar_chart(struct strbuf *sb, const struct bar_chart *c, int id)
{
	const double bw = 28, gap = 6, catgap = 36, left = 80, top = 40, ph = 260, below = 150;
	double ymax = 0, step, width, x, catw_extra = 0;
	size_t nbars = 0;
	char b[32];

	for (size_t i = 0; i < c->ncats; i++) {
		nbars += c->cats[i].n;
		catw_extra += cat_pad(&c->cats[i], bw + gap);
		for (size_t k = 0; k < c->cats[i].n; k++)
			if (c->cats[i].bars[k].value > ymax)
				ymax = c->cats[i].bars[k].value;
	}
	step = nice_step(ymax * 1.1);
	ymax = ymax > 0 ? ceil(ymax * 1.1 / step) * step : 1;
	width = left + (double)nbars * (bw + gap) + (double)c->ncats * catgap + catw_extra + 20;
	if (width < 560)
		width = 560;
	strbuf_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", width, top + ph + below + 30, width,
		    top + ph + below + 30);
	escape_html(sb, c->title);
	strbuf_addf(sb, "\" font-family=\"sans-serif\">\n<defs><pattern id=\"hatch%d\" width=\"6\" height=\"6\" "
		    "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" "
		    "fill=\"#eee\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#777\" stroke-width=\"3\"/>"
		    "</pattern></defs>\n", id);
	title(sb, c->title, width / 2);
	y_axis(sb, left, top + ph, ph, width - left - 10, ymax, step, c->y_label);
	strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", left, top + ph,
		    width - 10, top + ph);
	x = left + catgap / 2;
	for (size_t i = 0; i < c->ncats; i++) {
		const struct bar_cat *cat = &c->cats[i];
		double pad = cat_pad(cat, bw + gap), cx0;

		x += pad / 2;
		cx0 = x;

		for (size_t k = 0; k < cat->n; k++) {
			const struct bar *br = &cat->bars[k];
			double h = br->value / ymax * ph;

			bar_rect(sb, br, x, top + ph - h, bw, h, id);
			fmt_value(b, sizeof(b), br->value);
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%s</text>\n",
				    x + bw / 2, top + ph - h - 3, b);
			strbuf_addf(sb, "<text transform=\"translate(%.1f,%.1f) rotate(-40)\" text-anchor=\"end\" "
				    "font-size=\"10\">", x + bw / 2 + 3, top + ph + 12);
			escape_html(sb, br->label);
			strbuf_adds(sb, "</text>\n");
			x += bw + gap;
		}
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" font-weight=\"bold\">",
			    (cx0 + x - gap) / 2, top + ph + below - 8);
		escape_html(sb, cat->label);
		strbuf_adds(sb, "</text>\n");
		x += catgap + pad / 2;
	}
	/* Legend: what the bar styles mean. */
	{
		double ly = top + ph + below + 8, lx = left;
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">measured (colour per drive)</text>\n",
			    lx, ly, color(0), lx + 18, ly + 9);
		lx += 190;
		if (c->uses_pooled) {
			strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\" fill-opacity=\"0.4\" "
				    "stroke=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">measured, pooled "
				    "(merged histograms)</text>\n", lx, ly, color(0), color(0), lx + 18, ly + 9);
			lx += 230;
		}
		strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"url(#hatch%d)\" "
			    "stroke=\"#555\" stroke-dasharray=\"4 2\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">"
			    "published review (hatched)</text>\n", lx, ly, id, lx + 18, ly + 9);
	}
	strbuf_adds(sb, "</svg>\n");
}

void svg_line_chart(struct strbuf *sb, const struct line_chart *c, int id)
{
	const double left = 80, top = 40, pw = 640, ph = 260, width = 760;
	double xmin = 0, xmax = 0, ymax = 0, ystep, xstep;
	bool any = false;
	size_t npts = 0;
	char b[32];

	(void)id;
	for (size_t i = 0; i < c->nseries; i++) {
		for (size_t k = 0; k < c->series[i].n; k++) {
			double xv = c->series[i].x[k], yv = c->series[i].y[k];
			if (!any || xv < xmin)
				xmin = xv;
			if (!any || xv > xmax)
				xmax = xv;
			if (yv > ymax)
				ymax = yv;
			any = true;
			npts++;
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
	ystep = nice_step(ymax * 1.1);
	ymax = ymax > 0 ? ceil(ymax * 1.1 / ystep) * ystep : 1;
	size_t legend_rows = (c->nseries + 2) / 3;
	double height = top + ph + 50 + 18.0 * (double)(legend_rows ? legend_rows : 1) + 10;

	strbuf_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		    "role=\"img\" aria-label=\"", width, height, width, height);
	escape_html(sb, c->title);
	strbuf_adds(sb, "\" font-family=\"sans-serif\">\n");
	title(sb, c->title, width / 2);
	y_axis(sb, left, top + ph, ph, pw, ymax, ystep, c->y_label);
	strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", left, top + ph,
		    left + pw, top + ph);
#define XP(v) (left + ((v) - xmin) / (xmax - xmin) * pw)
#define YP(v) (top + ph - (v) / ymax * ph)
	if (c->nxticks) {
		for (size_t i = 0; i < c->nxticks; i++)
			strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
				    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n",
				    XP(c->xticks[i]), top, XP(c->xticks[i]), top + ph, XP(c->xticks[i]), top + ph + 16,
				    c->xtick_labels[i]);
	} else {
		xstep = nice_step(xmax - xmin);
		for (double v = ceil(xmin / xstep) * xstep; v <= xmax + xstep * 1e-9; v += xstep) {
			fmt_tick(b, sizeof(b), v);
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n",
				    XP(v), top + ph + 16, b);
		}
	}
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">", left + pw / 2,
		    top + ph + 36);
	escape_html(sb, c->x_label);
	strbuf_adds(sb, "</text>\n");
	if (!any && c->empty_note) {
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\" fill=\"#a00\">",
			    left + pw / 2, top + ph / 2);
		escape_html(sb, c->empty_note);
		strbuf_adds(sb, "</text>\n");
	}
	if (c->has_marker) {
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" "
			    "stroke-dasharray=\"6 3\" stroke-width=\"1.5\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
			    "fill=\"#c00\">", XP(c->marker_x), top, XP(c->marker_x), top + ph, XP(c->marker_x) + 4, top + 12);
		escape_html(sb, c->marker_label ? c->marker_label : "");
		strbuf_adds(sb, "</text>\n");
	}
	for (size_t i = 0; i < c->nseries; i++) {
		const struct line_series *s = &c->series[i];
		double lx = left + (double)(i % 3) * 220, ly = top + ph + 50 + 18.0 * (double)(i / 3);

		if (s->n) {
			strbuf_addf(sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", color((int)i));
			for (size_t k = 0; k < s->n; k++)
				strbuf_addf(sb, "%s%.1f,%.1f", k ? " " : "", XP(s->x[k]), YP(s->y[k]));
			strbuf_adds(sb, "\"/>\n");
		}
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">", lx, ly, lx + 18, ly, color((int)i), lx + 22, ly + 4);
		escape_html(sb, s->name);
		strbuf_adds(sb, "</text>\n");
	}
#undef XP
#undef YP
	(void)npts;
	strbuf_adds(sb, "</svg>\n");
}
