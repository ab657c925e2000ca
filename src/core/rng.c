#include "core/rng.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* splitmix64 spreads any seed, including 0 and small integers, over the
 * whole state, as xoshiro's authors recommend; an all-zero state (the one
 * fixed point of xoshiro) cannot come out of it in practice. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double rng_double(struct rng *r)
{
	/* The top 53 bits fill a double's mantissa exactly. */
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/*
 * Lemire's multiply-shift: the high half of x * range is uniform except for
 * the (2^32 mod range) lowest products, which are redrawn. The modulo is only
 * computed in the rare case that the low half falls below range.
 */
uint32_t rng_uniform(struct rng *r, uint32_t a, uint32_t b)
{
	if (b < a) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	uint32_t range = b - a + 1;
	if (!range) /* [0, 2^32 - 1]: every 32-bit value */
		return (uint32_t)(rng_next(r) >> 32);

	uint64_t m = (rng_next(r) >> 32) * (uint64_t)range;
	uint32_t low = (uint32_t)m;
	if (low < range) {
		uint32_t threshold = (uint32_t)-range % range;
		while (low < threshold) {
			m = (rng_next(r) >> 32) * (uint64_t)range;
			low = (uint32_t)m;
		}
	}
	return a + (uint32_t)(m >> 32);
}

double rng_exponential(struct rng *r, double mean)
{
	/* 1 - u lies in (0, 1], so the log is finite. */
	return -mean * log(1.0 - rng_double(r));
}

void rand_dist_defaults(struct rand_dist *d)
{
	d->type = RAND_SPECIAL; /* sysbench 1.0.20's default */
	d->spec_iter = 12;
	d->spec_pct = 1;
	d->spec_res = 75;
	d->pareto_h = 0.2;
	d->zipf_exp = 0.8;
}

static const char *const type_names[] = {
	[RAND_UNIFORM] = "uniform",
	[RAND_GAUSSIAN] = "gaussian",
	[RAND_SPECIAL] = "special",
	[RAND_PARETO] = "pareto",
	[RAND_ZIPFIAN] = "zipfian",
};

int rand_type_parse(const char *s, enum rand_type *out)
{
	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++) {
		if (s && !strcmp(s, type_names[i])) {
			*out = (enum rand_type)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *rand_type_name(enum rand_type t)
{
	if ((size_t)t >= sizeof(type_names) / sizeof(type_names[0]))
		return "?";
	return type_names[t];
}

/*
 * The distributions below compute in double and convert with truncation, as
 * sysbench 1.0.20 does. Unlike sysbench they compute the range width in
 * double (so [0, 2^32 - 1] does not wrap to 0) and clamp to [a, b], because
 * out-of-range parameters (spec_pct > 100, pareto_h outside (0, 1)) would
 * otherwise give values past b or a NaN whose conversion is undefined.
 */
static uint32_t clamp_offset(uint32_t a, uint32_t b, double off)
{
	if (!(off > 0)) /* also catches NaN */
		return a;
	if (off >= (double)(b - a))
		return b;
	return a + (uint32_t)off;
}

static int iterations(const struct rand_dist *d)
{
	return d->spec_iter > 0 ? d->spec_iter : 1;
}

/* Mean of spec_iter uniforms over the b - a + 1 values (Irwin-Hall). */
static uint32_t draw_gaussian(struct rng *r, const struct rand_dist *d, uint32_t a, uint32_t b)
{
	double t = (double)b - (double)a + 1;
	double sum = 0;
	int iter = iterations(d);

	for (int i = 0; i < iter; i++)
		sum += rng_double(r) * t;
	return clamp_offset(a, b, sum / iter);
}

/*
 * sysbench 1.0.20's "special", including its quirk: one uniform u picks the
 * branch (gaussian when u < 1 - res/100) and is then reused as the position
 * inside the special window, so special values land only in the upper
 * res/100 of the middle pct percent of the range (for 1..10000 with the
 * defaults: 4975..5051, not 4950..5051). Keeping it keeps data and access
 * patterns identical to a sysbench-prepared database. Note also that the
 * gaussian branch spans b - a, not b - a + 1, as in 1.0.20.
 */
static uint32_t draw_special(struct rng *r, const struct rand_dist *d, uint32_t a, uint32_t b)
{
	double t = (double)b - (double)a;
	double u = rng_double(r);

	if (u * t * (100.0 / (100.0 - d->spec_res)) < t) {
		double sum = 0;
		int iter = iterations(d);
		for (int i = 0; i < iter; i++)
			sum += rng_double(r);
		return clamp_offset(a, b, sum * t / iter);
	}

	double window = t * d->spec_pct / 100.0;
	double off = u * (window + 1) + t / 2 - t * d->spec_pct / 200.0;
	return clamp_offset(a, b, off);
}

/* a + (b - a + 1) * u^(log h / log(1 - h)): with h = 0.2, 80% of the draws
 * fall in the lowest 20% of the range. */
static uint32_t draw_pareto(struct rng *r, const struct rand_dist *d, uint32_t a, uint32_t b)
{
	double power = log(d->pareto_h) / log(1.0 - d->pareto_h);
	double t = (double)b - (double)a + 1;

	return clamp_offset(a, b, t * pow(rng_double(r), power));
}

/*
 * Zipf by rejection-inversion (Hormann and Derflinger 1996, in the variant of
 * Apache Commons RNG that sysbench master also follows): the hat function
 * h(x) = x^-e has integral H(x) = (x^(1-e) - 1) / (1 - e), written with
 * expm1/log1p so that e = 1 (where H is log x) needs no special case and
 * e = 0 gives the uniform distribution. Draw u uniform between H(1.5) - 1
 * and H(n + 0.5), invert, round to k, and accept k when u lies under the
 * step of height h(k); value 1 is always accepted.
 */
static double expm1_over_x(double x)
{
	if (fabs(x) > 1e-8)
		return expm1(x) / x;
	return 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

static double log1p_over_x(double x)
{
	if (fabs(x) > 1e-8)
		return log1p(x) / x;
	return 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double zipf_h(double x, double e)
{
	return exp(-e * log(x));
}

static double zipf_H(double x, double e)
{
	double lx = log(x);

	return expm1_over_x((1 - e) * lx) * lx;
}

static double zipf_H_inv(double y, double e)
{
	double t = y * (1 - e);

	if (t < -1) /* only reachable through rounding */
		t = -1;
	return exp(log1p_over_x(t) * y);
}

static uint32_t draw_zipfian(struct rng *r, const struct rand_dist *d, uint32_t a, uint32_t b)
{
	double e = d->zipf_exp > 0 ? d->zipf_exp : 0;
	double n = (double)b - (double)a + 1;
	double h_x1 = zipf_H(1.5, e) - 1;
	double h_n = zipf_H(n + 0.5, e);
	/* Below this distance from x, k is accepted without evaluating H. */
	double shortcut = 2 - zipf_H_inv(zipf_H(2.5, e) - zipf_h(2, e), e);

	for (;;) {
		double u = h_n + rng_double(r) * (h_x1 - h_n);
		double x = zipf_H_inv(u, e);
		double k = floor(x + 0.5);

		if (!(k >= 1))
			k = 1;
		else if (k > n)
			k = n;
		if (k - x <= shortcut || u >= zipf_H(k + 0.5, e) - zipf_h(k, e))
			return a + (uint32_t)(k - 1);
	}
}

uint32_t rand_dist_draw(struct rng *r, const struct rand_dist *d, uint32_t a, uint32_t b)
{
	if (b < a) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	if (a == b)
		return a;

	switch (d->type) {
	case RAND_UNIFORM:
		return rng_uniform(r, a, b);
	case RAND_GAUSSIAN:
		return draw_gaussian(r, d, a, b);
	case RAND_SPECIAL:
		return draw_special(r, d, a, b);
	case RAND_PARETO:
		return draw_pareto(r, d, a, b);
	case RAND_ZIPFIAN:
		return draw_zipfian(r, d, a, b);
	}
	return rng_uniform(r, a, b); /* not a valid enum rand_type */
}

/*
 * Digits come three at a time from each 32-bit half of one 64-bit draw: the
 * digits of u / 2^32 in base 10, read off by multiplying the fraction by 10.
 * The first three are uniform to within 10^3 / 2^32 (2.3e-7) of 1/10 each, and
 * a c value (110 digits) costs 19 draws instead of 110: this is the hot part
 * of every write transaction and of the loader.
 */
#define DIGITS_PER_HALF 3

void rand_template(struct rng *r, const char *tmpl, char *out)
{
	uint64_t bits = 0;
	uint32_t frac = 0;
	unsigned left = 0, halves = 0;

	for (size_t i = 0; tmpl[i]; i++) {
		if (tmpl[i] == '#') {
			if (left == 0) {
				if (halves == 0) {
					bits = rng_next(r);
					halves = 2;
				}
				frac = (uint32_t)(bits >> 32);
				bits <<= 32;
				halves--;
				left = DIGITS_PER_HALF;
			}
			uint64_t m = (uint64_t)frac * 10;
			out[i] = (char)('0' + (m >> 32));
			frac = (uint32_t)m;
			left--;
		} else if (tmpl[i] == '@') {
			out[i] = (char)('a' + rng_uniform(r, 0, 25));
		} else {
			out[i] = tmpl[i];
		}
	}
}
