/* PTS steady state against windows worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "stats/steady.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/*
 * y = 100 104 98 102 101, x = 1..5
 *   mean = 505 / 5 = 101
 *   excursion = (104 - 98) / 101 = 6 / 101 = 5.94%        <= 20%
 *   x - 3 = -2 -1 0 1 2; y - 101 = -1 3 -3 1 0
 *   sxy = 2 - 3 + 0 + 1 + 0 = 0, sxx = 10: slope 0          <= 10%
 *   -> steady
 */
static void steady_flat(void **state)
{
	const double y[] = {100, 104, 98, 102, 101};
	struct steady_result r = steady_check(y, 5);

	(void)state;
	assert_int_equal(r.state, STEADY_YES);
	assert_int_equal(r.rounds, 5);
	NEAR(r.mean, 101);
	NEAR(r.min, 98);
	NEAR(r.max, 104);
	NEAR(r.excursion, 6.0 / 101);
	NEAR(r.slope, 0);
	NEAR(r.slope_excursion, 0);
	assert_true(r.excursion_ok && r.slope_ok);
}

/*
 * y = 90 95 100 105 110: a steady climb
 *   mean = 100, excursion = 20 / 100 = 20%: exactly on the limit, passes
 *   y - 100 = -10 -5 0 5 10; sxy = 20 + 5 + 0 + 5 + 20 = 50, sxx = 10
 *   slope = 5 per round; across the window 5 * 4 = 20 = 20% of the mean > 10%
 *   -> NOT steady (slope only)
 */
static void steady_ramp_fails_slope(void **state)
{
	const double y[] = {90, 95, 100, 105, 110};
	struct steady_result r = steady_check(y, 5);

	(void)state;
	assert_int_equal(r.state, STEADY_NO);
	NEAR(r.mean, 100);
	NEAR(r.excursion, 0.20);
	assert_true(r.excursion_ok);
	NEAR(r.slope, 5);
	NEAR(r.slope_excursion, 0.20);
	assert_false(r.slope_ok);
}

/*
 * y = 100 130 100 100 100: one spike
 *   mean = 530 / 5 = 106, excursion = 30 / 106 = 28.30% > 20%
 *   y - 106 = -6 24 -6 -6 -6; sxy = 12 - 24 + 0 - 6 - 12 = -30, slope = -3
 *   slope excursion = 3 * 4 / 106 = 11.32% > 10%
 *   -> NOT steady (both)
 */
static void steady_spike_fails_both(void **state)
{
	const double y[] = {100, 130, 100, 100, 100};
	struct steady_result r = steady_check(y, 5);

	(void)state;
	assert_int_equal(r.state, STEADY_NO);
	NEAR(r.mean, 106);
	NEAR(r.excursion, 30.0 / 106);
	NEAR(r.slope, -3);
	NEAR(r.slope_excursion, 12.0 / 106);
	assert_false(r.excursion_ok);
	assert_false(r.slope_ok);
}

/*
 * y = 100 110 100 110 100 110: excursion 10 / 105 = 9.52%
 *   x - 3.5 = -2.5 -1.5 -0.5 0.5 1.5 2.5, y - 105 = -5 5 -5 5 -5 5
 *   sxy = 12.5 - 7.5 + 2.5 + 2.5 - 7.5 + 12.5 = 15, sxx = 17.5
 *   slope = 0.857142..., across 5 rounds: 4.2857 / 105 = 4.08% -> steady
 */
static void steady_six_rounds(void **state)
{
	const double y[] = {100, 110, 100, 110, 100, 110};
	struct steady_result r = steady_check(y, 6);

	(void)state;
	assert_int_equal(r.state, STEADY_YES);
	NEAR(r.slope, 15 / 17.5);
	NEAR(r.slope_excursion, 15 / 17.5 * 5 / 105);
}

/* Fewer than 5 rounds, an empty window, or no throughput: not assessed. */
static void steady_not_assessed(void **state)
{
	const double y[] = {100, 100, 100, 100};
	const double zero[] = {0, 0, 0, 0, 0};

	(void)state;
	assert_int_equal(steady_check(y, 4).state, STEADY_NA);
	assert_int_equal(steady_check(y, 0).state, STEADY_NA);
	assert_int_equal(steady_check(zero, 5).state, STEADY_NA);
	assert_int_equal(steady_last_window(y, 4, 5).state, STEADY_NA);
	assert_int_equal(steady_last_window(y, 4, 3).state, STEADY_NA); /* window below the PTS minimum */
}

/*
 * A warm-up then a plateau: 20 40 60 80 100 100 102 98 100 101
 *   last window of 5: 100 102 98 100 101 (mean 100.2, excursion 4/100.2)
 *   -> steady; the first steady window starts at round 6 (index 5):
 *   window at index 4 is 100 100 102 98 100: excursion 4 / 100 = 4%,
 *   y - 100 = 0 0 2 -2 0, sxy = 0 + 0 + 0 - 2 + 0 = -2, slope -0.2,
 *   0.8 / 100 = 0.8% -> steady, so index 4 is the first (index 3 holds 80:
 *   80 100 100 102 98, excursion 22 / 96 = 22.9%, not steady).
 */
static void steady_windows(void **state)
{
	const double y[] = {20, 40, 60, 80, 100, 100, 102, 98, 100, 101};
	struct steady_result r = steady_last_window(y, 10, 5);

	(void)state;
	assert_int_equal(r.state, STEADY_YES);
	NEAR(r.mean, 100.2);
	NEAR(r.excursion, 4 / 100.2);
	assert_int_equal(steady_check(y + 3, 5).state, STEADY_NO);
	NEAR(steady_check(y + 4, 5).slope, -0.2);
	assert_int_equal(steady_first_window(y, 10, 5), 4);
	assert_int_equal(steady_first_window(y, 4, 5), -1);
	/* The whole run as one window: the warm-up makes it not steady. */
	assert_int_equal(steady_check(y, 10).state, STEADY_NO);
	assert_string_equal(steady_state_name(STEADY_NO), "NOT steady");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steady_flat),
		cmocka_unit_test(steady_ramp_fails_slope),
		cmocka_unit_test(steady_spike_fails_both),
		cmocka_unit_test(steady_six_rounds),
		cmocka_unit_test(steady_not_assessed),
		cmocka_unit_test(steady_windows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
