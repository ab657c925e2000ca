/* Unit tests of report/svg.c: the palette, the minimum text size, per-run-group axes, the legend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/svg.h"

/* Twelve distinct colours before a repeat, none of them black (a black bar hides its whisker). */
static void test_palette_twelve_distinct_no_black(void **state)
{
	(void)state;
	assert_int_equal(SVG_NPALETTE, 12);
	for (int i = 0; i < SVG_NPALETTE; i++) {
		unsigned rgb = (unsigned)strtoul(svg_color(i) + 1, NULL, 16);
		unsigned r = rgb >> 16, g = (rgb >> 8) & 0xff, b = rgb & 0xff;

		assert_true(r + g + b > 0x60); /* not black, nor nearly */
		for (int k = 0; k < i; k++)
			assert_string_not_equal(svg_color(i), svg_color(k));
	}
	assert_string_equal(svg_color(SVG_NPALETTE), svg_color(0));
	assert_string_equal(svg_color(-1), "#666666");
}

/* Every font-size="N" in the SVG is at least SVG_MIN_FONT; returns how many texts. */
static int check_fonts(const char *svg)
{
	int n = 0;

	for (const char *p = strstr(svg, "font-size=\""); p; p = strstr(p + 1, "font-size=\"")) {
		double f = strtod(p + 11, NULL);
		assert_true(f >= SVG_MIN_FONT);
		n++;
	}
	return n;
}

static int count(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The x of the bar (class-less rect with a palette fill) after `label`. */
static double bar_width_after(const char *svg, const char *label)
{
	const char *p = strstr(svg, label), *w;

	assert_non_null(p);
	p = strstr(p, "<rect ");
	assert_non_null(p);
	w = strstr(p, "width=\"");
	assert_non_null(w);
	return strtod(w + 7, NULL);
}

static void two_groups(struct bar_chart *c, struct bar_cat *cats)
{
	memset(cats, 0, 2 * sizeof(*cats));
	cats[0].label = strdup("fast group");
	svg_bar_cat_add(&cats[0], "drive-a", 30000, BAR_MEASURED, 0);
	svg_bar_cat_add(&cats[0], "drive-b", 15000, BAR_MEASURED, 1);
	cats[1].label = strdup("slow group");
	svg_bar_cat_add(&cats[1], "drive-c", 99, BAR_MEASURED, 2);
	svg_bar_cat_set_err(&cats[1], 90, 108);
	c->ncats = 2;
	c->cats = cats;
}

/* Each run group on its own axis: the 99-TPS bar is as long as its group's largest, not a sliver. */
static void test_bar_chart_own_axis(void **state)
{
	static const struct legend_entry leg[] = {{"drive-a", 0}, {"drive-b", 1}, {"drive-c", 2}};
	struct bar_chart c = {.title = "TPS", .y_label = "TPS (transactions/s)", .nlegend = 3, .legend = leg};
	struct bar_cat *cats = calloc(2, sizeof(*cats));
	struct strbuf sb;
	double wa, wc;

	(void)state;
	two_groups(&c, cats);
	strbuf_init(&sb, 0);
	svg_bar_chart(&sb, &c, 0);
	assert_true(check_fonts(sb.buf) > 10);
	wa = bar_width_after(sb.buf, ">drive-a<");
	wc = bar_width_after(sb.buf, ">drive-c<");
	assert_true(wc > 0.5 * wa); /* 99 on an axis to 120 (whisker 108) vs 30,000 on one to 30,000 */
	/* One swatch per drive, each in its colour. */
	assert_int_equal(count(sb.buf, "class=\"swatch\""), 3);
	for (int i = 0; i < 3; i++) {
		char want[64];
		snprintf(want, sizeof(want), "class=\"swatch\" x=");
		assert_non_null(strstr(sb.buf, want));
		snprintf(want, sizeof(want), "height=\"10\" fill=\"%s\"", svg_color(i));
		assert_non_null(strstr(sb.buf, want));
	}
	/* The whisker: a white halo, then the dark line. */
	assert_non_null(strstr(sb.buf, "stroke=\"#fff\" stroke-width=\"3\""));
	strbuf_release(&sb);

	/* --shared-axis: one axis, the slow bar a sliver again. */
	c.shared_axis = true;
	strbuf_init(&sb, 0);
	svg_bar_chart(&sb, &c, 1);
	check_fonts(sb.buf);
	wa = bar_width_after(sb.buf, ">drive-a<");
	wc = bar_width_after(sb.buf, ">drive-c<");
	assert_true(wc < 0.01 * wa);
	strbuf_release(&sb);
	svg_bar_chart_release(&c);
}

/* Line charts too: no text under the minimum, and a bold series is thicker. */
static void test_line_chart_fonts_and_bold(void **state)
{
	struct line_chart c = {.title = "TPS over time", .x_label = "s", .y_label = "TPS"};
	struct strbuf sb;

	(void)state;
	c.series = calloc(2, sizeof(*c.series));
	c.nseries = 2;
	c.series[0].name = strdup("vm1");
	c.series[1].name = strdup("sum of 2 instances");
	c.series[1].bold = true;
	for (int t = 0; t < 5; t++) {
		svg_line_series_add(&c.series[0], t, 100 + t);
		svg_line_series_add(&c.series[1], t, 200 + t);
	}
	strbuf_init(&sb, 0);
	svg_line_chart(&sb, &c, 0);
	assert_true(check_fonts(sb.buf) > 5);
	assert_int_equal(count(sb.buf, "stroke-width=\"2.8\""), 1);
	assert_int_equal(count(sb.buf, "stroke-width=\"1.3\""), 1);
	strbuf_release(&sb);
	svg_line_chart_release(&c);
	assert_true(svg_axis_top(905) >= 905 * 1.1 - 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_palette_twelve_distinct_no_black),
		cmocka_unit_test(test_bar_chart_own_axis),
		cmocka_unit_test(test_line_chart_fonts_and_bold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
