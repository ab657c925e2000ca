#include "stats/ci.h"

#include <math.h>

struct ci_summary ci_summarize(const double *v, size_t n)
{
	struct ci_summary s = {.n = n};
	double ss = 0;

	if (!n)
		return s;
	for (size_t i = 0; i < n; i++)
		s.mean += v[i];
	s.mean /= (double)n;
	if (n < 2) {
		s.lo = s.hi = s.mean;
		return s;
	}
	/* Two passes: the sum of squares about the mean, not sum(x^2) - n mean^2,
	 * which cancels badly for TPS figures that differ in the 5th digit. */
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - s.mean) * (v[i] - s.mean);
	s.sd = sqrt(ss / (double)(n - 1));
	s.half = ci_t_quantile(1 - CI_ALPHA / 2, (double)(n - 1)) * s.sd / sqrt((double)n);
	s.lo = s.mean - s.half;
	s.hi = s.mean + s.half;
	s.has_ci = true;
	return s;
}

/*
 * Continued fraction of the incomplete beta function, evaluated with the
 * modified Lentz method; converges quickly for x < (a + 1) / (a + b + 2),
 * the caller uses the symmetry I_x(a, b) = 1 - I_(1-x)(b, a) otherwise.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		double m2 = 2.0 * m, num, del;

		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b), 0 <= x <= 1. */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(a * log(x) + b * log1p(-x) - (lgamma(a) + lgamma(b) - lgamma(a + b)));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double ci_t_cdf(double t, double df)
{
	double tail;

	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	if (isinf(df))
		return 0.5 * erfc(-t / sqrt(2.0));
	/* P(|T| > |t|) = I_(df / (df + t^2))(df / 2, 1 / 2). */
	tail = beta_inc(df / 2, 0.5, df / (df + t * t));
	return t >= 0 ? 1 - tail / 2 : tail / 2;
}

double ci_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;
	bool upper;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	upper = p > 0.5;
	if (!upper)
		p = 1 - p;
	/* Bracket, then bisect: the CDF is monotonic, and 200 halvings reach
	 * the resolution of a double whatever the bracket. */
	while (ci_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (ci_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return upper ? (lo + hi) / 2 : -(lo + hi) / 2;
}

/* Welch-Satterthwaite degrees of freedom for variance terms va, vb. */
static double welch_df(double va, double vb, size_t na, size_t nb)
{
	double den = va * va / (double)(na - 1) + vb * vb / (double)(nb - 1);

	return den > 0 ? (va + vb) * (va + vb) / den : INFINITY;
}

struct ci_welch ci_welch_test(const struct ci_summary *a, const struct ci_summary *b)
{
	struct ci_welch w = {0};
	double va, vb;

	if (a->n < 2 || b->n < 2)
		return w;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	if (va + vb <= 0)
		return w;
	w.valid = true;
	w.t = (a->mean - b->mean) / sqrt(va + vb);
	w.df = welch_df(va, vb, a->n, b->n);
	w.p = 2 * (1 - ci_t_cdf(fabs(w.t), w.df));
	w.significant = w.p < CI_ALPHA;
	return w;
}

struct ci_ratio ci_ratio_of_means(const struct ci_summary *a, const struct ci_summary *b)
{
	struct ci_ratio r = {0};
	double ra, rb, k;

	if (b->mean > 0)
		r.ratio = r.lo = r.hi = a->mean / b->mean;
	if (a->n < 2 || b->n < 2 || !(a->mean > 0) || !(b->mean > 0))
		return r;
	ra = a->sd * a->sd / ((double)a->n * a->mean * a->mean);
	rb = b->sd * b->sd / ((double)b->n * b->mean * b->mean);
	r.valid = true;
	r.se_log = sqrt(ra + rb);
	if (r.se_log == 0) {
		r.df = INFINITY;
		return r;
	}
	r.df = welch_df(ra, rb, a->n, b->n);
	k = ci_t_quantile(1 - CI_ALPHA / 2, r.df) * r.se_log;
	r.lo = r.ratio * exp(-k);
	r.hi = r.ratio * exp(k);
	return r;
}
