/* Little's law for published rows (report/pub_little.h): every verdict, with the figures worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "report/pub_little.h"

static struct pub_result row(int64_t vms, int64_t threads, int64_t users, double tps, double avg_ms)
{
	struct pub_result p = {.label = "x", .kind = users ? "tpcc" : "sysbench", .test = "t", .vm_count = vms,
			       .drives = 1, .threads_per_vm = threads, .users_per_vm = users, .tps = tps, .avg_ms = avg_ms};
	return p;
}

static void expect_cell(const struct pub_result *p, const char *want)
{
	struct pub_little l;
	struct strbuf sb;

	strbuf_init(&sb, 0);
	pub_little(p, &l);
	pub_little_cell(p, &l, &sb);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_closed_loop(void **state)
{
	(void)state;
	struct pub_little l;
	struct pub_result p;

	/* 128 / 13,579 = 9.4263 ms: 0.0037 ms from 9.43, within 0.005 + 9.4263 x 0.5 / 13579 = 0.00535 ms. */
	p = row(4, 32, 0, 13579, 9.43);
	pub_little(&p, &l);
	assert_int_equal(l.kind, PUB_LITTLE_CLOSED);
	assert_int_equal(l.check, PUB_LITTLE_ROUNDING);
	assert_int_equal(l.clients, 128);
	assert_true(fabs(l.implied_ms - 9.42632) < 1e-5);
	assert_true(fabs(l.rounding_ms - 0.0053471) < 1e-6);
	expect_cell(&p, "yes, within the rounding: 9.43 ms (-0.04%)");
	/* 128 / 7,869.21 = 16.2659 ms: 0.0059 ms from 16.26, beyond the 0.0050 ms rounding, +0.04%. */
	p = row(4, 32, 0, 7869.21, 16.26);
	pub_little(&p, &l);
	assert_int_equal(l.check, PUB_LITTLE_TOLERANCE);
	expect_cell(&p, "yes, within 5%: 16.27 ms (+0.04%)");
	/* Three published decimals narrow the rounding to 0.0005 ms: 16.266 is 0.00007 from 16.26593. */
	p = row(4, 32, 0, 7869.21, 16.266);
	pub_little(&p, &l);
	assert_int_equal(l.lat_decimals, 3);
	assert_int_equal(l.check, PUB_LITTLE_ROUNDING);
	/* 100 threads / 1,000 TPS = 100 ms: 95.3 ms is +4.93% off (within 5%), 95.2 ms +5.04% (not). */
	p = row(1, 100, 0, 1000, 95.3);
	pub_little(&p, &l);
	assert_int_equal(l.check, PUB_LITTLE_TOLERANCE);
	p = row(1, 100, 0, 1000, 95.2);
	pub_little(&p, &l);
	assert_int_equal(l.check, PUB_LITTLE_OFF);
	/* TPS per VM published as if it were the sum: 128 / 1,967.30 = 65.064 ms against 16.26 ms, +300.146%. */
	p = row(4, 32, 0, 1967.30, 16.26);
	expect_cell(&p, "NO: 65.06 ms (+300.15%)");
}

static void test_think_time_and_unknown(void **state)
{
	(void)state;
	struct pub_little l;
	struct pub_result p;
	struct strbuf sb;

	/* 4 x 15,000 / 12,625.56 = 4.7523 s per user; 12,625.56 / 4 x 0.01125 s = 35.51 in flight per VM. */
	p = row(4, 0, 15000, 12625.56, 11.25);
	pub_little(&p, &l);
	assert_int_equal(l.kind, PUB_LITTLE_THINK);
	assert_int_equal(l.check, PUB_LITTLE_NA);
	assert_int_equal(l.clients, 60000);
	assert_true(fabs(l.cycle_s - 4.752264) < 1e-6);
	assert_true(fabs(l.in_flight_per_vm - 35.509388) < 1e-6);
	expect_cell(&p, "think times: 4.75 s cycle, 35.5 in flight per VM");
	p = row(4, 0, 0, 12625.56, 11.25);
	pub_little(&p, &l);
	assert_int_equal(l.kind, PUB_LITTLE_UNKNOWN);
	assert_int_equal(l.check, PUB_LITTLE_NA);
	expect_cell(&p, "n/a: threads not published");
	strbuf_init(&sb, 0);
	pub_little_explain(&p, &l, &sb);
	assert_non_null(strstr(sb.buf, "nothing to check"));
	strbuf_release(&sb);
}

/*
 * tps 1e308 with avg 5e-324 ms was "yes, within the rounding: 0.00 ms
 * (+25907488423335757348864.00%)": a latency printed as 0.00 got the
 * rounding allowance (security review N9). Only nonzero printed values do.
 */
static void test_zero_printed_latency_gets_no_allowance(void **state)
{
	(void)state;
	struct pub_little l;
	struct pub_result p = row(1, 1, 0, 1e308, 5e-324);

	pub_little(&p, &l);
	assert_int_equal(l.check, PUB_LITTLE_OFF);
	/* 1 thread / 1e6 TPS = 0.001 ms: prints as 0.00 against a published 0.001 (three decimals: 0.001): agrees. */
	p = row(1, 1, 0, 1e6, 0.001);
	pub_little(&p, &l);
	assert_int_equal(l.check, PUB_LITTLE_ROUNDING);
	/* A published 0.004 ms printed with two decimals would be 0.00: a row of 0.004 against 0.0001 implied is off. */
	p = row(1, 1, 0, 1e7, 0.004);
	pub_little(&p, &l);
	assert_int_not_equal(l.check, PUB_LITTLE_ROUNDING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closed_loop),
		cmocka_unit_test(test_think_time_and_unknown),
		cmocka_unit_test(test_zero_printed_latency_gets_no_allowance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
