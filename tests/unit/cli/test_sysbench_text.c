/* The interval line keeps sysbench 1.0's exact format, so its parsers work. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
