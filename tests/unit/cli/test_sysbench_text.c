/* The interval line keeps sysbench 1.0's exact format, so its parsers work. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sysbench_text.h"

static void test_interval_line(void **state)
{
	(void)state;
	char buf[512];
	struct counters c = {.events = 7220, .reads = 101777, .writes = 28970, .others = 14490, .errors = 10};
	sb_text_format_interval(buf, sizeof(buf), 5, 4, &c, 10.0, 95, 11.45);
	assert_string_equal(buf, "thds: 4 tps: 722.00 qps: 14523.70 (r/w/o: 10177.70/2897.00/1449.00) lat (ms,95%): "
				 "11.45 err/s: 1.00 reconn/s: 0.00");
	sb_text_format_interval(buf, sizeof(buf), 5, 32, &c, 10.0, 99.9, 1.5);
	assert_non_null(strstr(buf, "lat (ms,99.9%): 1.50 "));
}

/* sysbench prints "         min: %39.2f" and "        %3dth percentile: %27.2f":
 * every value column ends at character 53, whatever the percentile. */
static void test_percentile_labels(void **state)
{
	(void)state;
	char buf[128];
	sb_text_format_percentile(buf, sizeof(buf), 95, 12.3456);
	assert_string_equal(buf, "         95th percentile:                       12.35");
	sb_text_format_percentile(buf, sizeof(buf), 100, 1.5);
	assert_string_equal(buf, "        100th percentile:                        1.50");
	sb_text_format_percentile(buf, sizeof(buf), 5, 0.25);
	assert_string_equal(buf, "          5th percentile:                        0.25");
	sb_text_format_percentile(buf, sizeof(buf), 99.9, 7);
	assert_string_equal(buf, "       99.9th percentile:                        7.00");
	assert_int_equal(strlen(buf), strlen("         min:                                    0.80"));
}

/* --histogram rows in sysbench's own buckets and format. */
static void test_histogram_rows(void **state)
{
	(void)state;
	struct hist *h;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(hist_init(&h), 0);
	hist_record_n(h, 1000000, 3); /* 1 ms: sysbench's bucket 384, shown as 1.007 */
	hist_record(h, 2000000);      /* 2 ms: bucket 422, 1.996 */
	sb_text_print_histogram(f, h);
	fclose(f);
	assert_string_equal(text, "       value  ------------- distribution ------------- count\n"
				  "       1.007 |**************************************** 3\n"
				  "       1.996 |*************                            1\n");
	free(text);
	hist_reset(h);
	text = NULL;
	f = open_memstream(&text, &len);
	sb_text_print_histogram(f, h); /* nothing at all when empty, as sysbench */
	fclose(f);
	assert_string_equal(text, "");
	free(text);
	hist_close(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_line),
		cmocka_unit_test(test_percentile_labels),
		cmocka_unit_test(test_histogram_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
