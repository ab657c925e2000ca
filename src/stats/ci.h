/*
 * Confidence over repetitions: mean, sample standard deviation and the 95%
 * confidence interval of the mean with Student's t; Welch's t-test for two
 * samples of unequal variance; a confidence interval for the ratio of two
 * means. Pure arithmetic on doubles, no allocation, thread-safe.
 *
 * Definitions (n values x_i):
 *   mean  = sum(x_i) / n
 *   sd    = sqrt(sum((x_i - mean)^2) / (n - 1))        (0 when n < 2)
 *   CI95  = mean -/+ t(0.975, n - 1) * sd / sqrt(n)    (none when n < 2)
 * Welch (samples a, b):
 *   va = sd_a^2 / n_a, vb = sd_b^2 / n_b
 *   t  = (mean_a - mean_b) / sqrt(va + vb)
 *   df = (va + vb)^2 / (va^2 / (n_a - 1) + vb^2 / (n_b - 1))   (Welch-Satterthwaite)
 *   p  = 2 * (1 - T_df(|t|)), two-sided; significant when p < 0.05
 * Ratio mean_a / mean_b (both means > 0), by the delta method on the log:
 *   ra = sd_a^2 / (n_a mean_a^2), rb = sd_b^2 / (n_b mean_b^2)
 *   se = sqrt(ra + rb), df as Welch's with ra, rb in place of va, vb
 *   CI95 = ratio * exp(-/+ t(0.975, df) * se)
 * The t distribution is evaluated through the regularized incomplete beta
 * function (relative error < 1e-12 over the df and t a benchmark meets), so
 * non-integer degrees of freedom (Welch's) are exact too.
 */
#ifndef DBRIG_STATS_CI_H
#define DBRIG_STATS_CI_H

#include <stdbool.h>
#include <stddef.h>

#define CI_LEVEL 0.95
#define CI_ALPHA 0.05

struct ci_summary {
	size_t n;
	double mean;
	double sd;        /* sample standard deviation (n - 1); 0 when n < 2 */
	bool has_ci;      /* n >= 2 */
	double lo, hi;    /* 95% confidence interval of the mean */
	double half;      /* hi - mean */
};

/* Summary of v[0..n). n == 0 gives an all-zero summary. */
struct ci_summary ci_summarize(const double *v, size_t n);

/* P(T <= t) for Student's t with df > 0 degrees of freedom. */
double ci_t_cdf(double t, double df);
/* The t with P(T <= t) = p, 0 < p < 1, df > 0 (NaN outside). */
double ci_t_quantile(double p, double df);

struct ci_welch {
	bool valid;       /* both n >= 2 and not both variances 0 */
	double t, df, p;  /* two-sided p */
	bool significant; /* p < CI_ALPHA */
};

struct ci_welch ci_welch_test(const struct ci_summary *a, const struct ci_summary *b);

struct ci_ratio {
	bool valid;       /* both n >= 2, both means > 0 */
	double ratio;     /* mean_a / mean_b (also set when !valid, if mean_b > 0) */
	double lo, hi;    /* 95% confidence interval of the ratio */
	double se_log, df;
};

struct ci_ratio ci_ratio_of_means(const struct ci_summary *a, const struct ci_summary *b);

#endif
