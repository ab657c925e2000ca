/* dbrig tpcc's --connections and its connection-wait lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/tpcc_conn.h"
#include "stats/hist.h"

static void test_parse(void **state)
{
	unsigned n = 7;
	bool per = true;

	(void)state;
	assert_int_equal(tpcc_conn_parse("64", &n, &per), 0);
	assert_int_equal(n, 64);
	assert_false(per);
	assert_int_equal(tpcc_conn_parse("terminals", &n, &per), 0);
	assert_true(per);
	assert_int_equal(tpcc_conn_parse("0", &n, &per), -1);
	assert_int_equal(tpcc_conn_parse("100001", &n, &per), -1);
	assert_int_equal(tpcc_conn_parse("terminal", &n, &per), -1);
	assert_int_equal(tpcc_conn_parse("", &n, &per), -1);
	assert_int_equal(tpcc_conn_parse("8x", &n, &per), -1);
}

static void test_print(void **state)
{
	struct span_stats s;
	struct phase_report pr = {.phase = PHASE_SAMPLE, .s = &s, .pools = 2, .queued_share = 0.372};
	static const char *const names[] = {"new_order", "payment"};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(hist_init(&s.lat), 0);
	assert_int_equal(hist_init(&s.wait), 0);
	hist_record(s.lat, 12000000);
	hist_record(s.wait, 2000000);
	hist_record(s.lat, 8000000);
	hist_record(s.wait, 0);
	s.type_count[0] = s.type_count[1] = 1;
	s.type_wait_ns[0] = 2000000;
	f = open_memstream(&buf, &len);
	tpcc_conn_print(f, &pr, names, 2, false);
	pr.pools = 0;
	tpcc_conn_print(f, &pr, names, 2, false); /* no terminals: nothing */
	fclose(f);
	assert_non_null(strstr(buf, "connection wait (ms, submit to pickup): avg 1.00, p90 2.00, p99 2.00, max 2.00; "
				    "service avg 9.00\n"));
	assert_non_null(strstr(buf, "wait avg ms by type: new_order 2.00, payment 0.00\n"));
	assert_non_null(strstr(buf, "terminals queued for a connection 37.2% of the phase (per pool; 2 pools)\n"));
	assert_int_equal(strstr(buf, "connection wait") - buf, 4);
	assert_null(strstr(strstr(buf, "connection wait") + 1, "connection wait"));
	free(buf);
	hist_close(s.lat);
	hist_close(s.wait);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_print),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
