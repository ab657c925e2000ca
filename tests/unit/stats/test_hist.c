/* Latency histogram: percentile accuracy against exact nearest-rank values,
 * exact merge, bucket geometry, overflow, iteration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"

#define SAMPLES 2000000

/* A generator local to the test, so the histogram tests do not depend on
 * core/rng (and its tests) being right. */
static uint64_t sm_state;

static uint64_t sm_next(void)
{
	uint64_t z = (sm_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static double unit_uniform(void)
{
	return (double)(sm_next() >> 11) * 0x1p-53;
}

static double std_normal(void)
{
	double u1 = 1.0 - unit_uniform(); /* (0, 1] */
	double u2 = unit_uniform();

	return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

static uint64_t to_ns(double v)
{
	return v < 1 ? 1 : (uint64_t)llround(v);
}

static uint64_t gen_uniform_1us_1s(void)
{
	return to_ns(1e3 + unit_uniform() * (1e9 - 1e3));
}

static uint64_t gen_exponential(void)
{
	return to_ns(-1e6 * log(1.0 - unit_uniform())); /* mean 1 ms */
}

static uint64_t gen_lognormal(void)
{
	return to_ns(exp(log(2e6) + 1.0 * std_normal())); /* median 2 ms */
}

static uint64_t gen_bimodal(void)
{
	/* Fast cache hits and slow fsync-bound commits. */
	if (unit_uniform() < 0.9)
		return to_ns(200e3 + 20e3 * std_normal());
	return to_ns(50e6 + 5e6 * std_normal());
}

static uint64_t gen_small(void)
{
	return sm_next() % 20000; /* 0..20 us: the exact buckets and the first octaves */
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

struct dist_case {
	const char *name;
	uint64_t (*gen)(void);
};

static const struct dist_case dist_cases[] = {
	{ "uniform 1us..1s", gen_uniform_1us_1s },
	{ "exponential mean 1ms", gen_exponential },
	{ "lognormal median 2ms", gen_lognormal },
	{ "bimodal 200us/50ms", gen_bimodal },
	{ "uniform 0..20us", gen_small },
};

/* Percentiles in thousandths of a percent, so the exact ranks are computed
 * with integers, independently of the double arithmetic in hist.c. */
static const uint64_t pct_milli[] = { 50000, 90000, 95000, 99000, 99900, 100000 };

static void test_percentiles_vs_exact(void **state)
{
	(void)state;
	uint64_t *v = malloc(SAMPLES * sizeof(*v));
	struct hist *h;
	double worst = 0;

	assert_non_null(v);
	assert_int_equal(hist_init(&h), 0);
	for (size_t c = 0; c < sizeof(dist_cases) / sizeof(dist_cases[0]); c++) {
		double worst_case = 0;
		long double sum = 0;

		sm_state = 1000 + c;
		hist_reset(h);
		for (size_t i = 0; i < SAMPLES; i++) {
			v[i] = dist_cases[c].gen();
			sum += v[i];
			assert_true(hist_record(h, v[i]));
		}
		qsort(v, SAMPLES, sizeof(*v), cmp_u64);
		assert_int_equal(h->total, SAMPLES);
		assert_int_equal(h->min, v[0]);
		assert_int_equal(h->max, v[SAMPLES - 1]);
		assert_true(fabs(hist_mean(h) - (double)(sum / SAMPLES)) <= 1e-9 * hist_mean(h));

		for (size_t j = 0; j < sizeof(pct_milli) / sizeof(pct_milli[0]); j++) {
			uint64_t rank = (pct_milli[j] * SAMPLES + 99999) / 100000;
			uint64_t exact = v[rank - 1];
			uint64_t got = hist_value_at_percentile(h, (double)pct_milli[j] / 1000.0);
			double err = exact ? fabs((double)got - (double)exact) / (double)exact
					   : (double)got;
			if (err > 0.01)
				print_error("%s p%g: exact %llu, histogram %llu (%.3f%%)\n",
					    dist_cases[c].name, (double)pct_milli[j] / 1000.0,
					    (unsigned long long)exact, (unsigned long long)got,
					    100 * err);
			assert_true(err <= 0.01);
			/* The header promises half a bucket: 1/256 of the value. */
			assert_true(err <= 1.0 / 256);
			if (err > worst_case)
				worst_case = err;
		}
		print_message("%-22s max relative percentile error %.4f%%\n", dist_cases[c].name,
			      100 * worst_case);
		if (worst_case > worst)
			worst = worst_case;
	}
	print_message("overall max relative percentile error %.4f%%\n", 100 * worst);
	hist_close(h);
	free(v);
}

/* In the exact region (< 256 ns) the percentile is the nearest-rank value
 * itself, which pins the rank arithmetic, including decimal p. */
struct rank_case {
	double p;
	uint64_t expect;
};

static void test_nearest_rank_exact(void **state)
{
	(void)state;
	static const struct rank_case cases[] = {
		{ 0.1, 1 },    /* rank 1 */
		{ 0.4, 1 },    /* rank 4 */
		{ 0.41, 2 },   /* rank ceil(4.1) = 5 */
		{ 3.6, 9 },    /* 3.6 / 100 * 1000 is 36.00000000000001: rank 36, not 37 */
		{ 14.4, 36 },  /* likewise 144.00000000000003 */
		{ 50, 125 },   /* rank 500 */
		{ 99.6, 249 }, /* rank 996, the last 249 */
		{ 99.7, 250 }, /* rank 997 */
		{ 99.9, 250 },
		{ 100, 250 },
		{ 0, 1 },      /* out of (0, 100]: clamped */
		{ 150, 250 },
	};
	struct hist *h;

	assert_int_equal(hist_init(&h), 0);
	assert_int_equal(hist_value_at_percentile(h, 50), 0);
	for (uint64_t v = 1; v <= 250; v++)
		assert_true(hist_record_n(h, v, 4));
	assert_int_equal(h->total, 1000);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t got = hist_value_at_percentile(h, cases[i].p);
		if (got != cases[i].expect)
			print_error("p%g: expected %llu, got %llu\n", cases[i].p,
				    (unsigned long long)cases[i].expect, (unsigned long long)got);
		assert_int_equal(got, cases[i].expect);
	}
	hist_close(h);
}

static void test_single_value_clamped(void **state)
{
	(void)state;
	struct hist *h;

	assert_int_equal(hist_init(&h), 0);
	assert_true(hist_record(h, 123456789));
	/* The bucket midpoint differs from the value; min/max clamp it back. */
	assert_int_not_equal(hist_bucket_mid(hist_bucket_index(123456789)), 123456789);
	assert_int_equal(hist_value_at_percentile(h, 1), 123456789);
	assert_int_equal(hist_value_at_percentile(h, 100), 123456789);
	assert_true(hist_mean(h) == 123456789.0);
	hist_reset(h);
	assert_int_equal(h->total, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_true(hist_mean(h) == 0);
	hist_close(h);
}

static void test_merge_exact(void **state)
{
	(void)state;
	struct hist *a, *b, *all;

	assert_int_equal(hist_init(&a), 0);
	assert_int_equal(hist_init(&b), 0);
	assert_int_equal(hist_init(&all), 0);
	sm_state = 77;
	for (size_t i = 0; i < SAMPLES; i++) {
		uint64_t v = gen_lognormal();
		/* The extremes go to the second half, so the merge must carry
		 * min, max and the overflow count over. */
		if (i == SAMPLES * 3 / 4)
			v = 1;
		else if (i == SAMPLES * 3 / 4 + 1)
			v = HIST_MAX_NS + 5;
		assert_true(hist_record(i < SAMPLES / 2 ? a : b, v) == (v <= HIST_MAX_NS));
		hist_record(all, v);
	}
	hist_add(a, b);
	for (size_t i = 0; i < HIST_BUCKETS; i++) {
		if (a->counts[i] != all->counts[i])
			print_error("bucket %zu: merged %llu, direct %llu\n", i,
				    (unsigned long long)a->counts[i],
				    (unsigned long long)all->counts[i]);
		assert_int_equal(a->counts[i], all->counts[i]);
	}
	assert_int_equal(a->total, all->total);
	assert_int_equal(a->overflow, 1);
	assert_int_equal(a->overflow, all->overflow);
	assert_int_equal(a->min, 1);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, HIST_MAX_NS + 5);
	assert_int_equal(a->max, all->max);
	assert_true(a->sum == all->sum);
	for (size_t j = 0; j < sizeof(pct_milli) / sizeof(pct_milli[0]); j++) {
		double p = (double)pct_milli[j] / 1000.0;
		assert_int_equal(hist_value_at_percentile(a, p), hist_value_at_percentile(all, p));
	}

	/* Adding an empty histogram changes nothing, min included. */
	hist_reset(b);
	uint64_t min = a->min;
	hist_add(a, b);
	assert_int_equal(a->min, min);
	assert_int_equal(a->total, all->total);
	hist_close(a);
	hist_close(b);
	hist_close(all);
}

static void test_geometry(void **state)
{
	(void)state;
	assert_int_equal(hist_bucket_lowest(0), 0);
	assert_int_equal(hist_bucket_highest(HIST_BUCKETS - 1), HIST_MAX_NS);
	for (size_t i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_lowest(i), hi = hist_bucket_highest(i);
		uint64_t mid = hist_bucket_mid(i);

		assert_true(lo <= mid && mid <= hi);
		if (i > 0)
			assert_int_equal(lo, hist_bucket_highest(i - 1) + 1);
		assert_int_equal(hist_bucket_index(lo), i);
		assert_int_equal(hist_bucket_index(hi), i);
		assert_int_equal(hist_bucket_index(mid), i);
		/* Width: 1 below 256, then at most 1/128 of the lower bound. */
		if (lo < 256)
			assert_int_equal(hi, lo);
		else
			assert_true((hi - lo + 1) * 128 <= lo);
	}
}

struct index_case {
	uint64_t value;
	size_t index;
};

static void test_index_table(void **state)
{
	(void)state;
	static const struct index_case cases[] = {
		{ 0, 0 },
		{ 1, 1 },
		{ 255, 255 },
		{ 256, 256 },
		{ 257, 256 },
		{ 258, 257 },
		{ 511, 383 },
		{ 512, 384 },
		{ 1000000, 1780 }, /* msb 19: octave k = 12, 12 * 128 + (1000000 >> 12) */
		{ HIST_MAX_NS, HIST_BUCKETS - 1 },
		{ HIST_MAX_NS + 1, HIST_BUCKETS - 1 },
		{ UINT64_MAX, HIST_BUCKETS - 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(hist_bucket_index(cases[i].value), cases[i].index);

	/* Random values of every magnitude land in a bucket that holds them. */
	sm_state = 5;
	for (int i = 0; i < 1000000; i++) {
		uint64_t v = sm_next() >> (20 + sm_next() % 44); /* 0 .. 2^44 - 1 */
		size_t idx = hist_bucket_index(v);
		assert_true(idx < HIST_BUCKETS);
		assert_true(hist_bucket_lowest(idx) <= v && v <= hist_bucket_highest(idx));
	}
}

static void test_overflow(void **state)
{
	(void)state;
	struct hist *h;

	assert_int_equal(hist_init(&h), 0);
	assert_true(hist_record(h, HIST_MAX_NS));
	assert_int_equal(h->overflow, 0);
	assert_false(hist_record(h, HIST_MAX_NS + 1));
	assert_false(hist_record_n(h, UINT64_MAX, 3));
	assert_int_equal(h->overflow, 4);
	assert_int_equal(h->total, 5);
	assert_int_equal(h->counts[HIST_BUCKETS - 1], 5);
	assert_int_equal(h->max, UINT64_MAX);
	assert_int_equal(h->min, HIST_MAX_NS);
	/* Saturated: the percentile is the last bucket's, clamped to min. */
	assert_int_equal(hist_value_at_percentile(h, 100), HIST_MAX_NS);
	/* A count of zero records nothing. */
	assert_false(hist_record_n(h, UINT64_MAX, 0));
	assert_true(hist_record_n(h, 7, 0));
	assert_int_equal(h->total, 5);
	assert_int_equal(h->min, HIST_MAX_NS);
	hist_close(h);
}

static void test_iteration(void **state)
{
	(void)state;
	static const uint64_t values[] = { 0, 3, 3, 300, 301, 302, 1000000, 5000000000ULL,
					   HIST_MAX_NS, HIST_MAX_NS + 1 };
	uint64_t expect[HIST_BUCKETS] = { 0 };
	struct hist *h;
	size_t cursor = 0, idx, prev = 0, seen = 0, nonempty = 0;
	uint64_t count;

	assert_int_equal(hist_init(&h), 0);
	assert_false(hist_next_bucket(h, &cursor, &idx, &count));
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		hist_record(h, values[i]);
		expect[hist_bucket_index(values[i])]++;
	}
	for (size_t i = 0; i < HIST_BUCKETS; i++)
		nonempty += expect[i] != 0;
	assert_int_equal(nonempty, 7); /* 0, 3, 300-301, 302, 1ms, 5s, last */

	cursor = 0;
	while (hist_next_bucket(h, &cursor, &idx, &count)) {
		assert_true(seen == 0 || idx > prev);
		assert_true(count > 0);
		assert_int_equal(count, expect[idx]);
		expect[idx] = 0;
		prev = idx;
		seen++;
	}
	assert_int_equal(seen, nonempty);
	for (size_t i = 0; i < HIST_BUCKETS; i++)
		assert_int_equal(expect[i], 0);
	/* Exhausted stays exhausted. */
	assert_false(hist_next_bucket(h, &cursor, &idx, &count));
	hist_close(h);
}

static void test_set_bucket(void **state)
{
	(void)state;
	struct hist *h;

	assert_int_equal(hist_init(&h), 0);
	assert_int_equal(hist_set_bucket(h, HIST_BUCKETS, 1), -EINVAL);
	assert_int_equal(hist_set_bucket(h, SIZE_MAX, 1), -EINVAL);
	assert_int_equal(h->total, 0);
	assert_int_equal(hist_set_bucket(h, 0, 2), 0);
	assert_int_equal(hist_set_bucket(h, HIST_BUCKETS - 1, 3), 0);
	assert_int_equal(h->total, 5);
	assert_int_equal(hist_set_bucket(h, 0, 1), 0); /* replaces, not adds */
	assert_int_equal(h->total, 4);
	assert_int_equal(h->counts[0], 1);

	/* A stored histogram read back gives the same percentiles. */
	struct hist *src, *dst;
	size_t cursor = 0, idx;
	uint64_t count;
	assert_int_equal(hist_init(&src), 0);
	assert_int_equal(hist_init(&dst), 0);
	sm_state = 9;
	for (int i = 0; i < 100000; i++)
		hist_record(src, gen_bimodal());
	while (hist_next_bucket(src, &cursor, &idx, &count))
		assert_int_equal(hist_set_bucket(dst, idx, count), 0);
	dst->min = src->min;
	dst->max = src->max;
	dst->sum = src->sum;
	assert_int_equal(dst->total, src->total);
	assert_int_equal(hist_value_at_percentile(dst, 99), hist_value_at_percentile(src, 99));
	hist_close(src);
	hist_close(dst);
	hist_close(h);
	hist_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles_vs_exact),
		cmocka_unit_test(test_nearest_rank_exact),
		cmocka_unit_test(test_single_value_clamped),
		cmocka_unit_test(test_merge_exact),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_index_table),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_iteration),
		cmocka_unit_test(test_set_bucket),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
