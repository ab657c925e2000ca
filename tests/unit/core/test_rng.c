/* Generator, bounded uniform, and sysbench 1.0.20's distributions. Every test
 * uses fixed seeds, so the statistical bounds are checked against the same
 * draws on every run; they are wide enough to survive a change of seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

#define DRAWS 1000000

/* Pinned outputs: a change here changes every seeded run that users may
 * compare against. The seeded state for seed 0 is splitmix64's published
 * test vector; the outputs were cross-checked with an independent
 * implementation of the reference algorithm. */
static void test_known_answers(void **state)
{
	(void)state;
	static const struct {
		uint64_t seed;
		uint64_t s[4];
		uint64_t out[4];
	} cases[] = {
		{ 0,
		  { UINT64_C(0xe220a8397b1dcdaf), UINT64_C(0x6e789e6aa1b965f4),
		    UINT64_C(0x06c45d188009454f), UINT64_C(0xf88bb8a8724c81ec) },
		  { UINT64_C(0x99ec5f36cb75f2b4), UINT64_C(0xbf6e1f784956452a),
		    UINT64_C(0x1a5f849d4933e6e0), UINT64_C(0x6aa594f1262d2d2c) } },
		{ 42,
		  { UINT64_C(0xbdd732262feb6e95), UINT64_C(0x28efe333b266f103),
		    UINT64_C(0x47526757130f9f52), UINT64_C(0x581ce1ff0e4ae394) },
		  { UINT64_C(0x15780b2e0c2ec716), UINT64_C(0x6104d9866d113a7e),
		    UINT64_C(0xae17533239e499a1), UINT64_C(0xecb8ad4703b360a1) } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rng r;
		rng_seed(&r, cases[i].seed);
		for (int j = 0; j < 4; j++)
			assert_int_equal(r.s[j], cases[i].s[j]);
		for (int j = 0; j < 4; j++)
			assert_int_equal(rng_next(&r), cases[i].out[j]);
	}
}

static void test_determinism(void **state)
{
	(void)state;
	static const enum rand_type types[] = { RAND_UNIFORM, RAND_GAUSSIAN, RAND_SPECIAL,
						RAND_PARETO, RAND_ZIPFIAN };
	struct rand_dist d;

	rand_dist_defaults(&d);
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		struct rng r1, r2, r3;
		int differ = 0;

		d.type = types[t];
		rng_seed(&r1, 2024);
		rng_seed(&r2, 2024);
		rng_seed(&r3, 2025);
		for (int i = 0; i < 100000; i++) {
			uint32_t x = rand_dist_draw(&r1, &d, 1, 1000000);
			assert_int_equal(x, rand_dist_draw(&r2, &d, 1, 1000000));
			differ += x != rand_dist_draw(&r3, &d, 1, 1000000);
		}
		/* Two seeds draw the same value with a chance of at most 0.03 (Pareto's
		 * spike at a: sum of p_k^2 = 0.022; the others' are smaller), so differ
		 * is binomial with a mean above 97,000 of 100,000: 1,000 is hundreds of
		 * standard deviations below it (chance far below 1e-100). */
		assert_true(differ > 1000);
	}
}

static void test_double_and_exponential(void **state)
{
	(void)state;
	struct rng r;
	double sum = 0, esum = 0;
	int above = 0;

	rng_seed(&r, 7);
	for (int i = 0; i < DRAWS; i++) {
		double u = rng_double(&r);
		assert_true(u >= 0 && u < 1);
		sum += u;
	}
	/* Intervals (each test's seed is fixed, so its outcome is; the chances
	 * are over seeds): the mean of 10^6 uniforms has a standard error of
	 * 0.000289, so 0.002 is 6.9 of them (chance outside 5e-12); the
	 * exponential's mean 3 has 0.003 (0.03 is 10); the share above the mean,
	 * 1/e, has 0.00048 (0.003 is 6.2: 6e-10). */
	assert_true(fabs(sum / DRAWS - 0.5) < 0.002);

	for (int i = 0; i < DRAWS; i++) {
		double e = rng_exponential(&r, 3.0);
		assert_true(e >= 0 && isfinite(e));
		esum += e;
		above += e > 3.0;
	}
	assert_true(fabs(esum / DRAWS - 3.0) < 0.03);
	/* P(X > mean) = 1/e for an exponential. */
	assert_true(fabs((double)above / DRAWS - exp(-1)) < 0.003);
}

struct range_case {
	uint32_t a, b;
};

static void test_uniform_bounds(void **state)
{
	(void)state;
	static const struct range_case cases[] = {
		{ 0, 0 },
		{ 5, 5 },
		{ 0, 1 },
		{ 1, 10 },
		{ 'a', 'z' },
		{ UINT32_MAX - 1, UINT32_MAX },
		{ 100, 3000000000u },
		{ 0, UINT32_MAX },
	};
	struct rng r;

	rng_seed(&r, 11);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t a = cases[i].a, b = cases[i].b;
		uint64_t n = (uint64_t)b - a + 1;
		int seen[32] = { 0 };
		uint32_t lo = UINT32_MAX, hi = 0;

		for (int j = 0; j < 100000; j++) {
			uint32_t v = rng_uniform(&r, a, b);
			assert_true(v >= a && v <= b);
			if (n <= 32)
				seen[v - a] = 1;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		/* Small ranges are covered, large ones reach near both ends
		 * (a correct build misses a value of a 32-value range with a
		 * chance below 32 x (31/32)^100000, the last 1/1000 of a
		 * large one below 0.999^100000 = e^-100). */
		if (n <= 32) {
			for (uint64_t k = 0; k < n; k++)
				assert_true(seen[k]);
		} else {
			assert_true(lo - a < n / 1000 && b - hi < n / 1000);
		}
	}
	/* Reversed bounds are accepted as the same range. */
	for (int j = 0; j < 1000; j++) {
		uint32_t v = rng_uniform(&r, 20, 10);
		assert_true(v >= 10 && v <= 20);
	}
}

#define BINS 100

/* Pearson's chi-square over BINS equal bins; df = 99 has mean 99 and
 * standard deviation 14; a correct build exceeds 175 with a chance of 3.9e-6
 * (the chi-square tail), 3.1e-5 over the test's 8 statistics, while the
 * modulo bias of `x % 3000000000` would put it in the hundreds of thousands. */
static double chi_square(const uint64_t *count, uint64_t total)
{
	double expect = (double)total / BINS, chi = 0;

	for (int i = 0; i < BINS; i++)
		chi += ((double)count[i] - expect) * ((double)count[i] - expect) / expect;
	return chi;
}

static void test_uniform_chi_square(void **state)
{
	(void)state;
	static const struct range_case cases[] = {
		{ 0, 99 },
		{ 1, 3000000000u },
		{ 0, UINT32_MAX },
		{ 1000, 10999 },
	};
	struct rand_dist d;
	struct rng r;

	rand_dist_defaults(&d);
	d.type = RAND_UNIFORM;
	rng_seed(&r, 12345);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t n = (uint64_t)cases[i].b - cases[i].a + 1;
		uint64_t direct[BINS] = { 0 }, via_dist[BINS] = { 0 };

		for (int j = 0; j < DRAWS; j++) {
			uint32_t v = rng_uniform(&r, cases[i].a, cases[i].b);
			direct[(uint64_t)(v - cases[i].a) * BINS / n]++;
			v = rand_dist_draw(&r, &d, cases[i].a, cases[i].b);
			assert_true(v >= cases[i].a && v <= cases[i].b);
			via_dist[(uint64_t)(v - cases[i].a) * BINS / n]++;
		}
		double c1 = chi_square(direct, DRAWS), c2 = chi_square(via_dist, DRAWS);
		print_message("uniform [%u, %u]: chi-square %.1f / %.1f (df 99)\n", cases[i].a,
			      cases[i].b, c1, c2);
		assert_true(c1 < 175);
		assert_true(c2 < 175);
	}

	/*
	 * For range 3 * 2^30 a 32-bit multiply-shift maps 4 inputs onto 3
	 * outputs, so without the rejection step every value with v % 3 == 0
	 * would be twice as likely as the others: 1/2, 1/4, 1/4 instead of
	 * thirds. Equal bins cannot see that; residues can.
	 */
	uint64_t res[3] = { 0 };
	for (int j = 0; j < DRAWS; j++)
		res[rng_uniform(&r, 0, 3u * (1u << 30) - 1) % 3]++;
	for (int k = 0; k < 3; k++)
		assert_true(fabs((double)res[k] / DRAWS - 1.0 / 3) < 0.01 / 3);

	/* Three values: each a third, within 1% (the share's standard error
	 * is 0.00047 at 10^6 draws: 0.01 / 3 is 7 of them, chance 1.5e-12; the
	 * residues above likewise). */
	uint64_t c[3] = { 0 };
	for (int j = 0; j < DRAWS; j++)
		c[rng_uniform(&r, 0, 2)]++;
	for (int k = 0; k < 3; k++)
		assert_true(fabs((double)c[k] / DRAWS - 1.0 / 3) < 0.01 / 3);
}

/*
 * sysbench measured 76% of k values in the middle 1% with the defaults. Of
 * that, 75% comes from the special branch and the rest from the gaussian
 * branch. 1.0.20 reuses the branch-selecting uniform as the position in the
 * window, so the special draws only reach the upper three quarters of it:
 * 4975..5051 for 1..10000; the lower quarter gets only gaussian draws.
 */
static void test_special(void **state)
{
	(void)state;
	struct rand_dist d;
	struct rng r;
	uint64_t window = 0, low_quarter = 0, at_5000 = 0, below = 0, above = 0;

	rand_dist_defaults(&d);
	assert_int_equal(d.type, RAND_SPECIAL);
	rng_seed(&r, 99);
	for (int i = 0; i < DRAWS; i++) {
		uint32_t v = rand_dist_draw(&r, &d, 1, 10000);
		assert_true(v >= 1 && v <= 10000);
		window += v >= 4950 && v <= 5051;
		low_quarter += v >= 4950 && v <= 4974;
		at_5000 += v == 5000;
		below += v < 4950;
		above += v > 5051;
	}
	/*
	 * Intervals (seed fixed, so the outcome is; the chances are over seeds),
	 * each share binomial over 10^6 draws, the gaussian branch's density at
	 * the middle g = 1 / (833.25 sqrt(2 pi)) = 4.79e-4 per value: the window
	 * holds 0.75 + 0.25 x 102 g = 0.7622 (standard error 0.00043: 0.75 and
	 * 0.78 are 29 and 42 of them away); its lower quarter 0.25 x 25 g =
	 * 0.0030 (0.01 is 128 standard errors above); 5000 is drawn with 1/100.99
	 * + 0.25 g = 0.010022 (standard error 0.0000996: 0.0005 is 5.0 of them,
	 * two-sided chance 5.2e-7); below and above the window 237,800 draws
	 * split evenly (sd of the difference 488: 2% is 9.8 sd); with no special
	 * draws the window gets 4,884 of 100,000 (sd 70: 6,000 is 16 sd above).
	 * A correct build fails the test with a chance below 1e-6.
	 */
	double fw = (double)window / DRAWS;
	print_message("special: %.2f%% in the middle 1%%, %.2f%% in its lower quarter\n",
		      100 * fw, 100.0 * (double)low_quarter / DRAWS);
	assert_true(fw >= 0.75 && fw <= 0.78);
	assert_true((double)low_quarter / DRAWS < 0.01);
	/* Inside the window each value covers 1/(d + 1) = 1/100.99 of the
	 * selecting uniform's range, plus a sliver of gaussian (0.25 g). */
	assert_true(fabs((double)at_5000 / DRAWS - (1 / 100.99 + 0.25 / (833.25 * 2.5066282746310002))) < 0.0005);
	/* The gaussian remainder is symmetric around the middle. */
	assert_true(fabs((double)below - (double)above) < 0.02 * (double)(below + above));

	/* All special: the window only; none special: no spike at the middle. */
	d.spec_res = 100;
	for (int i = 0; i < 100000; i++) {
		uint32_t v = rand_dist_draw(&r, &d, 1, 10000);
		assert_true(v >= 4950 && v <= 5051);
	}
	d.spec_res = 0;
	window = 0;
	for (int i = 0; i < 100000; i++) {
		uint32_t v = rand_dist_draw(&r, &d, 1, 10000);
		window += v >= 4950 && v <= 5051;
	}
	assert_true(window < 6000); /* gaussian density alone: about 4.9% */
}

static void test_gaussian(void **state)
{
	(void)state;
	static const struct range_case cases[] = {
		{ 1, 10000 },
		{ 0, 99 },
		{ 1000000, 3000000000u },
	};
	struct rand_dist d;
	struct rng r;

	rand_dist_defaults(&d);
	d.type = RAND_GAUSSIAN;
	rng_seed(&r, 3);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double a = cases[i].a, b = cases[i].b, n = b - a + 1;
		double mid = (a + b) / 2, sd = n / 12; /* mean of 12 uniforms */
		double sum = 0, sq = 0;
		int within = 0;

		for (int j = 0; j < DRAWS; j++) {
			uint32_t v = rand_dist_draw(&r, &d, cases[i].a, cases[i].b);
			assert_true(v >= cases[i].a && v <= cases[i].b);
			sum += v;
			sq += ((double)v - mid) * ((double)v - mid);
			within += fabs((double)v - mid) <= sd;
		}
		/* Intervals over 10^6 draws: the mean's standard error is
		 * sd / 1000 = n / 12,000, so 0.002 n is 24 of them; the sample sd's
		 * relative standard error is sqrt((kurtosis - 1) / 4N) = 0.0007 (3% is
		 * 43); the Irwin-Hall(12) share within one sd is 0.67855 (0.0042 below
		 * the normal's 0.6827), standard error 0.00047, so the 0.01 margin
		 * leaves 12.5 of them. A correct build fails with a chance below 1e-30. */
		double mean = sum / DRAWS, got_sd = sqrt(sq / DRAWS);
		assert_true(fabs(mean - mid) < 0.002 * n);
		assert_true(fabs(got_sd - sd) < 0.03 * sd);
		/* Close to normal: 68% within one standard deviation (on a
		 * range this wide rounding to integers does not matter). */
		if (n >= 10000)
			assert_true(fabs((double)within / DRAWS - 0.6827) < 0.01);
	}
}

static void test_pareto(void **state)
{
	(void)state;
	struct rand_dist d;
	struct rng r;
	uint64_t low20 = 0, at_a = 0, decile[10] = { 0 };

	rand_dist_defaults(&d);
	d.type = RAND_PARETO;
	rng_seed(&r, 17);
	for (int i = 0; i < DRAWS; i++) {
		uint32_t v = rand_dist_draw(&r, &d, 1, 10000);
		assert_true(v >= 1 && v <= 10000);
		low20 += v - 1 < 2000;
		at_a += v == 1;
		decile[(v - 1) / 1000]++;
	}
	/* Intervals over 10^6 draws (binomial shares; chances over seeds): the
	 * 80/20 share's standard error is 0.0004 (0.005 is 12.5 of them), P(v = a)
	 * = 0.27888's is 0.00045 (11 of them), h = 0.5's half 0.0005 (10); the
	 * smallest gap between neighbouring deciles (the last two: 1.450% vs
	 * 1.595%) is 8.4 standard deviations of the difference. A correct build
	 * fails with a chance below 1e-16. */
	/* h = 0.2: the 80/20 rule, exactly in expectation. */
	assert_true(fabs((double)low20 / DRAWS - 0.8) < 0.005);
	/* P(v = a) = 10000^(-log 0.8 / log 0.2) = 0.2789. */
	assert_true(fabs((double)at_a / DRAWS - 0.2789) < 0.005);
	for (int k = 1; k < 10; k++)
		assert_true(decile[k] < decile[k - 1]);

	/* h = 0.5 makes the power 1: uniform. */
	uint64_t half = 0;
	d.pareto_h = 0.5;
	for (int i = 0; i < DRAWS; i++)
		half += rand_dist_draw(&r, &d, 1, 10000) <= 5000;
	assert_true(fabs((double)half / DRAWS - 0.5) < 0.005);
}

struct zipf_case {
	double s;
	uint32_t a, b;
};

static void test_zipfian(void **state)
{
	(void)state;
	static const struct zipf_case cases[] = {
		{ 0.8, 1, 1000 },
		{ 0.8, 100, 1099 },
		{ 1.0, 1, 100 },
		{ 1.5, 0, 49 },
		{ 0.3, 1, 20 },
		{ 0.0, 1, 10 }, /* exponent 0: uniform */
	};
	struct rand_dist d;
	struct rng r;
	uint64_t *count = calloc(1000, sizeof(*count));

	assert_non_null(count);
	rand_dist_defaults(&d);
	d.type = RAND_ZIPFIAN;
	assert_true(d.zipf_exp == 0.8);
	rng_seed(&r, 23);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t a = cases[i].a, n = cases[i].b - cases[i].a + 1;
		double norm = 0;

		memset(count, 0, 1000 * sizeof(*count));
		d.zipf_exp = cases[i].s;
		for (uint32_t k = 1; k <= n; k++)
			norm += pow(k, -cases[i].s);
		for (int j = 0; j < DRAWS; j++) {
			uint32_t v = rand_dist_draw(&r, &d, a, cases[i].b);
			assert_true(v >= a && v <= cases[i].b);
			count[v - a]++;
		}
		/* The first values follow k^-s / H within 5.5 binomial standard
		 * errors (at most 0.00073 here, 4.1% of the smallest share, s = 0.8's
		 * fifth value, 1.78%; 3% of it had been 4.0 of them, a chance of
		 * 1.3e-4 over the test), so a is the most frequent and frequencies
		 * decrease (the closest neighbours, s = 0.3's 4th and 5th, are 11.9
		 * standard deviations apart; a vs the next of every case 42 or more).
		 * A correct build fails with a chance below 30 x 3.8e-8 = 1.2e-6 (the
		 * seed is fixed, so the outcome is too). */
		for (uint32_t k = 1; k <= 5 && k <= n; k++) {
			double expect = pow(k, -cases[i].s) / norm;
			double got = (double)count[k - 1] / DRAWS, se = sqrt(expect * (1 - expect) / DRAWS);
			if (fabs(got - expect) >= 5.5 * se)
				print_error("s=%g k=%u: %.5f, expected %.5f +- %.5f\n", cases[i].s, k, got,
					    expect, 5.5 * se);
			assert_true(fabs(got - expect) < 5.5 * se);
			if (k > 1 && cases[i].s > 0)
				assert_true(count[k - 1] < count[k - 2]);
		}
		for (uint32_t k = 1; k < n && cases[i].s > 0; k++)
			assert_true(count[k] <= count[0]);
	}

	/* A range too large for a table: still in range, a still on top (of
	 * 200,000 draws about 509 at a and 292 at a + 1: 7.7 standard deviations
	 * of the difference apart, chance below 1e-14). */
	uint64_t at_a = 0, at_next = 0;
	d.zipf_exp = 0.8;
	for (int j = 0; j < 200000; j++) {
		uint32_t v = rand_dist_draw(&r, &d, 5, 3000000005u);
		assert_true(v >= 5 && v <= 3000000005u);
		at_a += v == 5;
		at_next += v == 6;
	}
	assert_true(at_a > at_next && at_next > 0);
	free(count);
}

static void test_degenerate_ranges(void **state)
{
	(void)state;
	static const enum rand_type types[] = { RAND_UNIFORM, RAND_GAUSSIAN, RAND_SPECIAL,
						RAND_PARETO, RAND_ZIPFIAN };
	struct rand_dist d;
	struct rng r;

	rand_dist_defaults(&d);
	rng_seed(&r, 1);
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		d.type = types[t];
		for (int i = 0; i < 1000; i++) {
			assert_int_equal(rand_dist_draw(&r, &d, 7, 7), 7);
			uint32_t v = rand_dist_draw(&r, &d, 7, 8);
			assert_true(v == 7 || v == 8);
			v = rand_dist_draw(&r, &d, 0, UINT32_MAX);
			(void)v; /* any value is in range; must not trap under UBSan */
			v = rand_dist_draw(&r, &d, 10, 1); /* reversed */
			assert_true(v >= 1 && v <= 10);
		}
	}
}

static void test_template(void **state)
{
	(void)state;
	/* sysbench's c column: 10 groups of 11 '#' joined by '-'. */
	static const char c_tmpl[] = "###########-###########-###########-###########-"
				     "###########-###########-###########-###########-"
				     "###########-###########";
	static const char mixed[] = "#@-x ##@@";
	char out[160];
	uint64_t digits[10] = { 0 }, letters[26] = { 0 }, pairs[100] = { 0 };
	struct rng r;

	assert_int_equal(strlen(c_tmpl), 119);
	rng_seed(&r, 5);
	for (int i = 0; i < 10000; i++) {
		memset(out, '!', sizeof(out));
		rand_template(&r, c_tmpl, out);
		for (int j = 0; j < 119; j++) {
			if (j % 12 == 11) {
				assert_int_equal(out[j], '-');
			} else {
				assert_true(isdigit((unsigned char)out[j]));
				digits[out[j] - '0']++;
			}
		}
		/* Neighbouring digits (drawn from the same random word or not) are
		 * independent: every pair of a group of 11 is as likely as any other. */
		for (int j = 0; j < 119; j++)
			if (j % 12 < 10)
				pairs[(out[j] - '0') * 10 + (out[j + 1] - '0')]++;
		assert_int_equal(out[119], '!'); /* no terminator written */

		memset(out, '!', sizeof(out));
		rand_template(&r, mixed, out);
		assert_true(isdigit((unsigned char)out[0]));
		assert_true(out[1] >= 'a' && out[1] <= 'z');
		letters[out[1] - 'a']++;
		assert_memory_equal(out + 2, "-x ", 3);
		assert_true(isdigit((unsigned char)out[5]) && isdigit((unsigned char)out[6]));
		assert_true(out[7] >= 'a' && out[7] <= 'z' && out[8] >= 'a' && out[8] <= 'z');
		assert_int_equal(out[9], '!');
	}
	for (int k = 0; k < 10; k++)
		assert_true(fabs((double)digits[k] / (10000.0 * 110) - 0.1) < 0.002);
	for (int k = 0; k < 26; k++)
		assert_true(letters[k] > 250); /* 10000 / 26 = 385 expected, sd 19.2: 7 sd below */
	/* Digits: each a tenth of 1.1 million, standard error 0.00029 (0.002 is
	 * 7 of them); letters: 385 expected, sd 19.2 (250 is 7 sd below). 1,000,000
	 * pairs: 10,000 expected each, standard deviation 99.5: 6 sd either
	 * side, a chance of 2e-9 each, 2e-7 over the 100; with the digits'
	 * 10 x 1e-11 and the letters' 26 x 1e-12, a correct build fails the
	 * test with a chance below 3e-7. */
	for (int k = 0; k < 100; k++)
		assert_true(pairs[k] > 9400 && pairs[k] < 10600);

	rand_template(&r, "", out); /* nothing to write */
}

static void test_type_names(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		enum rand_type type;
	} cases[] = {
		{ "uniform", RAND_UNIFORM }, { "gaussian", RAND_GAUSSIAN },
		{ "special", RAND_SPECIAL }, { "pareto", RAND_PARETO },
		{ "zipfian", RAND_ZIPFIAN },
	};
	static const char *const bad[] = { "", "Uniform", "zipf", "special ", "normal", NULL };
	enum rand_type t;
	struct rand_dist d;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(rand_type_parse(cases[i].name, &t), 0);
		assert_int_equal(t, cases[i].type);
		assert_string_equal(rand_type_name(cases[i].type), cases[i].name);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rand_type_parse(bad[i], &t), -EINVAL);

	rand_dist_defaults(&d);
	assert_int_equal(d.type, RAND_SPECIAL);
	assert_int_equal(d.spec_iter, 12);
	assert_true(d.spec_pct == 1 && d.spec_res == 75);
	assert_true(d.pareto_h == 0.2 && d.zipf_exp == 0.8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_double_and_exponential),
		cmocka_unit_test(test_uniform_bounds),
		cmocka_unit_test(test_uniform_chi_square),
		cmocka_unit_test(test_special),
		cmocka_unit_test(test_gaussian),
		cmocka_unit_test(test_pareto),
		cmocka_unit_test(test_zipfian),
		cmocka_unit_test(test_degenerate_ranges),
		cmocka_unit_test(test_template),
		cmocka_unit_test(test_type_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
