/* Mean, sd, Student's t, Welch's test and the ratio CI against figures worked
 * out by hand (closed forms of the t distribution for 1, 2 and 4 degrees of
 * freedom, given beside each check). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "stats/ci.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/*
 * Closed forms: df 1 is Cauchy, F(t) = 1/2 + atan(t)/pi, so the 97.5% point is
 * tan(0.475 pi) = 12.706205; df 2: F(t) = 1/2 + t / (2 sqrt(2 + t^2)), so
 * t / sqrt(2 + t^2) = 0.95, t^2 = 0.9025 * 2 / 0.0975 = 18.51282, t = 4.302653;
 * df 4: with x = t / sqrt(4 + t^2), F(t) = 1/2 + (x/2)(1 + (1 - x^2)/2), which
 * is 0.975 at t = 2.776445. Tables: 12.706, 4.303, 2.776, 2.262 (df 9), 1.960.
 */
static void t_quantiles(void **state)
{
	(void)state;
	NEAR(ci_t_quantile(0.975, 1), 12.706204736, 1e-8);
	NEAR(ci_t_quantile(0.975, 2), 4.302652730, 1e-8);
	NEAR(ci_t_quantile(0.975, 4), 2.776445105, 1e-8);
	NEAR(ci_t_quantile(0.975, 9), 2.262157163, 1e-8);
	NEAR(ci_t_quantile(0.975, 1e9), 1.959963985, 1e-6);
	NEAR(ci_t_quantile(0.975, INFINITY), 1.959963985, 1e-8);
	NEAR(ci_t_quantile(0.025, 4), -2.776445105, 1e-8);
	NEAR(ci_t_quantile(0.5, 3), 0, 0);
	assert_true(isnan(ci_t_quantile(1, 3)));
	assert_true(isnan(ci_t_quantile(0.9, 0)));
}

static void t_cdf(void **state)
{
	(void)state;
	NEAR(ci_t_cdf(1, 1), 0.75, 1e-12);                      /* 1/2 + atan(1)/pi */
	NEAR(ci_t_cdf(-1, 1), 0.25, 1e-12);
	NEAR(ci_t_cdf(2, 2), 0.5 + 2 / (2 * sqrt(6)), 1e-12);   /* 0.908248 */
	NEAR(ci_t_cdf(0, 7.5), 0.5, 1e-15);
	/* df 4 at t = 1.5: x = 1.5 / sqrt(4 + 2.25) = 3/5, F = 1/2 + 0.3 * (1 + 0.32) = 0.896 */
	NEAR(ci_t_cdf(1.5, 4), 0.896, 1e-12);
	/* Non-integer df lies between its integer neighbours. */
	assert_true(ci_t_cdf(2, 2) < ci_t_cdf(2, 2.5) && ci_t_cdf(2, 2.5) < ci_t_cdf(2, 3));
}

/*
 * 10 12 14: mean 12; deviations -2 0 2, sum of squares 8, variance 8 / 2 = 4,
 * sd 2; standard error 2 / sqrt(3) = 1.154701; half-width 4.302653 * 1.154701
 * = 4.968275; 95% CI 7.031725 .. 16.968275.
 */
static void summary_three(void **state)
{
	const double v[] = {10, 12, 14};
	struct ci_summary s = ci_summarize(v, 3);

	(void)state;
	assert_int_equal(s.n, 3);
	NEAR(s.mean, 12, 1e-12);
	NEAR(s.sd, 2, 1e-12);
	assert_true(s.has_ci);
	NEAR(s.half, 4.968275424, 1e-8);
	NEAR(s.lo, 7.031724576, 1e-8);
	NEAR(s.hi, 16.968275424, 1e-8);
}

/* One value: a mean, no spread, no interval; none: zeros. Large equal
 * figures keep an exact zero sd (two-pass sum of squares). */
static void summary_edges(void **state)
{
	const double one[] = {42};
	const double same[] = {29086.123456, 29086.123456, 29086.123456, 29086.123456};
	struct ci_summary s = ci_summarize(one, 1);

	(void)state;
	assert_false(s.has_ci);
	NEAR(s.mean, 42, 0);
	NEAR(s.sd, 0, 0);
	s = ci_summarize(NULL, 0);
	assert_int_equal(s.n, 0);
	assert_false(s.has_ci);
	s = ci_summarize(same, 4);
	NEAR(s.sd, 0, 0);
	NEAR(s.half, 0, 0);
}

/*
 * Welch, equal n and sd: a = 10 12 14, b = 4 6 8 (both sd 2).
 *   va = vb = 4 / 3; t = (12 - 6) / sqrt(8 / 3) = 3.674235
 *   df = (8/3)^2 / ((4/3)^2 / 2 + (4/3)^2 / 2) = (64/9) / (16/9) = 4
 *   df 4 at t: x = 3.674235 / sqrt(17.5) = 0.878310, 1 - x^2 = 4 / 17.5,
 *   F = 1/2 + 0.439155 * (1 + 0.114286) = 0.989344, p = 2 (1 - F) = 0.021312
 *   -> significant at 5%.
 */
static void welch_equal(void **state)
{
	const double a[] = {10, 12, 14}, b[] = {4, 6, 8};
	struct ci_summary sa = ci_summarize(a, 3), sb = ci_summarize(b, 3);
	struct ci_welch w = ci_welch_test(&sa, &sb);

	(void)state;
	assert_true(w.valid);
	NEAR(w.t, 3.674234614, 1e-8);
	NEAR(w.df, 4, 1e-12);
	NEAR(w.p, 0.021311641, 1e-8);
	assert_true(w.significant);
}

/*
 * Welch, unequal variances: a = 104.4 116 127.6 (sd 11.6), b = 9 10 11 (sd 1).
 *   va = 134.56 / 3 = 44.853333, vb = 1 / 3
 *   t = 106 / sqrt(45.186667) = 15.768875
 *   df = 45.186667^2 / (44.853333^2 / 2 + 0.333333^2 / 2) = 2.029725
 *   p: with df 2, 1 - F = 1/2 - t / (2 sqrt(2 + t^2)) = 0.001999, p = 0.0040;
 *   df 2.03 gives a little less.
 * And 10 11 12 against 10.5 11.5 12.5: t = -0.6124, not significant.
 */
static void welch_unequal(void **state)
{
	const double a[] = {104.4, 116, 127.6}, b[] = {9, 10, 11};
	const double c[] = {10, 11, 12}, d[] = {10.5, 11.5, 12.5};
	struct ci_summary sa = ci_summarize(a, 3), sb = ci_summarize(b, 3);
	struct ci_summary sc = ci_summarize(c, 3), sd = ci_summarize(d, 3);
	struct ci_welch w = ci_welch_test(&sa, &sb);

	(void)state;
	assert_true(w.valid);
	NEAR(w.t, 15.768875073, 1e-8);
	NEAR(w.df, 2.029724874, 1e-8);
	assert_true(w.p > 0.0030 && w.p < 0.0040);
	assert_true(w.significant);
	w = ci_welch_test(&sc, &sd);
	NEAR(w.t, -0.5 / sqrt(2.0 / 3), 1e-12);
	assert_false(w.significant);
	/* One repetition: no test. */
	sc = ci_summarize(c, 1);
	assert_false(ci_welch_test(&sc, &sd).valid);
}

/*
 * Ratio of means: a = 104.4 116 127.6 (mean 116, sd 11.6), b = 9 10 11 (mean
 * 10, sd 1): ratio 11.6.
 *   ra = 11.6^2 / (3 * 116^2) = 1/300, rb = 1 / (3 * 10^2) = 1/300
 *   se = sqrt(2/300) = 0.081650; df = (2/300)^2 / (2 (1/300)^2 / 2) = 4
 *   k = 2.776445 * 0.081650 = 0.226697
 *   CI = 11.6 e^-k .. 11.6 e^k = 9.2471 .. 14.5516
 */
static void ratio_ci(void **state)
{
	const double a[] = {104.4, 116, 127.6}, b[] = {9, 10, 11};
	struct ci_summary sa = ci_summarize(a, 3), sb = ci_summarize(b, 3);
	struct ci_ratio r = ci_ratio_of_means(&sa, &sb);

	(void)state;
	assert_true(r.valid);
	NEAR(r.ratio, 11.6, 1e-12);
	NEAR(r.se_log, 0.081649658, 1e-8);
	NEAR(r.df, 4, 1e-9);
	NEAR(r.lo, 9.247093672, 1e-7);
	NEAR(r.hi, 14.551599104, 1e-7);
	/* No spread: the interval is the ratio itself. */
	const double e[] = {5, 5}, f[] = {2, 2};
	sa = ci_summarize(e, 2);
	sb = ci_summarize(f, 2);
	r = ci_ratio_of_means(&sa, &sb);
	assert_true(r.valid);
	NEAR(r.lo, 2.5, 0);
	NEAR(r.hi, 2.5, 0);
	sb.mean = 0;
	assert_false(ci_ratio_of_means(&sa, &sb).valid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_quantiles),
		cmocka_unit_test(t_cdf),
		cmocka_unit_test(summary_three),
		cmocka_unit_test(summary_edges),
		cmocka_unit_test(welch_equal),
		cmocka_unit_test(welch_unequal),
		cmocka_unit_test(ratio_ci),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
