/* Unit tests of workload/tpcc/rand.c: NURand, C-delta, last names, the deck, delays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "core/fileio.h"
#include "db/bulk.h"
#include "db/odbc.h"
#include "runner/runner.h"
#include "workload/tpcc/tpcc.h"

static void test_nurand_bounds(void **state)
{
	struct rng r;
	static const uint32_t a[] = {255, 1023, 8191};
	static const uint32_t lo[] = {0, 1, 1}, hi[] = {999, 3000, 100000};

	(void)state;
	/* Both ends are reached: the rarest end is 3000 in NURand(1023, 1,
	 * 3000) with C = 341, drawn when (a | b) = 2658, 81 of the 1024 x 3000
	 * pairs (p = 2.6e-5): 13.2 expected in 500,000 draws, missed with a
	 * chance of e^-13.2 = 1.8e-6 (the other ends are likelier): a correct
	 * build fails the test with a chance below 6 x 1.8e-6 = 1.1e-5 (the seed
	 * is fixed, so the outcome is too). */
	rng_seed(&r, 42);
	for (int k = 0; k < 3; k++) {
		uint32_t mn = UINT32_MAX, mx = 0;
		for (int i = 0; i < 500000; i++) {
			uint32_t v = tpcc_nurand(&r, a[k], lo[k], hi[k], a[k] / 3);
			mn = v < mn ? v : mn;
			mx = v > mx ? v : mx;
		}
		assert_int_equal(mn, lo[k]);
		assert_int_equal(mx, hi[k]);
	}
}

static void test_c_delta(void **state)
{
	struct rng r;

	(void)state;
	assert_true(tpcc_c_delta_valid(0, 65));
	assert_true(tpcc_c_delta_valid(200, 81));
	assert_false(tpcc_c_delta_valid(0, 64));
	assert_false(tpcc_c_delta_valid(0, 120));
	assert_false(tpcc_c_delta_valid(100, 196));
	assert_false(tpcc_c_delta_valid(112, 0));
	rng_seed(&r, 7);
	for (unsigned load = 0; load <= 255; load++) {
		for (int i = 0; i < 20; i++) {
			struct tpcc_c l = {load, 5, 6}, run;
			tpcc_pick_c_run(&r, &l, &run);
			assert_true(run.c_last <= 255);
			assert_true(tpcc_c_delta_valid(load, run.c_last));
			assert_true(run.c_id <= 1023 && run.ol_i_id <= 8191);
		}
	}
}

static void test_last_name(void **state)
{
	char b[16];

	(void)state;
	assert_int_equal(tpcc_last_name(0, b), 9);
	assert_string_equal(b, "BARBARBAR");
	tpcc_last_name(371, b);
	assert_string_equal(b, "PRICALLYOUGHT");
	tpcc_last_name(999, b);
	assert_string_equal(b, "EINGEINGEING");
}

static void test_deck_mix(void **state)
{
	static const unsigned w[5] = {10, 10, 1, 1, 1};
	struct tpcc_deck d;
	struct rng r;
	unsigned cnt[5] = {0};

	(void)state;
	rng_seed(&r, 1);
	tpcc_deck_init(&d, w);
	/* Every full deck holds exactly the weights. */
	for (int deck = 0; deck < 1000; deck++) {
		unsigned one[5] = {0};
		for (int i = 0; i < 23; i++)
			one[tpcc_deck_next(&d, w, &r)]++;
		for (int t = 0; t < 5; t++) {
			assert_int_equal(one[t], w[t]);
			cnt[t] += one[t];
		}
	}
	assert_true(tpcc_weights_meet_spec(w));
	assert_false(tpcc_weights_meet_spec((const unsigned[5]){10, 8, 1, 1, 1}));
	assert_false(tpcc_weights_meet_spec((const unsigned[5]){45, 43, 4, 4, 3}));
	assert_true(tpcc_weights_meet_spec((const unsigned[5]){45, 43, 4, 4, 4}));
}

static void test_delays(void **state)
{
	static const unsigned w[5] = {10, 10, 1, 1, 1};
	double f;

	(void)state;
	assert_int_equal(tpcc_delays_parse("spec", w, &f), 0);
	assert_true(f == 1);
	assert_int_equal(tpcc_delays_parse("off", w, &f), 0);
	assert_true(f == 0);
	assert_int_equal(tpcc_delays_parse("scale:0.5", w, &f), 0);
	assert_true(f == 0.5);
	assert_int_equal(tpcc_delays_parse("cycle:4.75", w, &f), 0);
	assert_true(f * tpcc_spec_mean_cycle_s(w) > 4.7499 && f * tpcc_spec_mean_cycle_s(w) < 4.7501);
	assert_int_not_equal(tpcc_delays_parse("cycle:", w, &f), 0);
	assert_int_not_equal(tpcc_delays_parse("scale:-1", w, &f), 0);
	assert_int_not_equal(tpcc_delays_parse("fast", w, &f), 0);
	/* Spec mean cycle (keying + think) over 10/10/1/1/1 is about 21 s. */
	assert_true(tpcc_spec_mean_cycle_s(w) > 20.5 && tpcc_spec_mean_cycle_s(w) < 21.5);
}

/* a-strings (clause 4.3.2.2): over all 64 values of a 6-bit draw, each of
 * the 62 alphanumeric characters comes from exactly one, and the other two
 * are rejected, so with uniform draws every character has probability 1/62
 * exactly (the old (bits & 63) % 26 gave a-l 3/64 and m-z 2/64). Then
 * tpcc_astring: only those characters, every one of them. */
static void test_astring(void **state)
{
	unsigned hits[256] = {0}, rejected = 0, distinct = 0;
	static char s[62000];
	struct rng r;

	(void)state;
	for (unsigned v = 0; v < 64; v++) {
		int c = tpcc_alnum(v);
		if (c < 0)
			rejected++;
		else
			hits[(unsigned char)c]++;
	}
	assert_int_equal(rejected, 2);
	for (unsigned c = 0; c < 256; c++) {
		bool alnum = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
		assert_int_equal(hits[c], alnum ? 1 : 0);
		distinct += hits[c];
	}
	assert_int_equal(distinct, 62);
	memset(hits, 0, sizeof(hits));
	rng_seed(&r, 7);
	tpcc_astring(&r, s, sizeof(s));
	for (size_t i = 0; i < sizeof(s); i++)
		hits[(unsigned char)s[i]]++;
	for (unsigned c = 0; c < 256; c++) {
		bool alnum = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
		if (alnum)
			assert_true(hits[c] > 0);
		else
			assert_int_equal(hits[c], 0);
	}
}

/* Keying and mean think times are the spec's per transaction type (clause
 * 5.2.5.7: keying 18/3/2/2/2 s, mean think 12/12/10/5/5 s for New-Order,
 * Payment, Order-Status, Delivery, Stock-Level), as tables and as the
 * runner's nanoseconds at --delays factors 1 and 0.5. */
static void test_delay_tables(void **state)
{
	static const double keying[TPCC_DECK_TYPES] = {18, 3, 2, 2, 2}, think[TPCC_DECK_TYPES] = {12, 12, 10, 5, 5};
	uint64_t k_ns[TPCC_DECK_TYPES], t_ns[TPCC_DECK_TYPES];

	(void)state;
	assert_int_equal(TT_NEW_ORDER, 0);
	assert_int_equal(TT_PAYMENT, 1);
	assert_int_equal(TT_ORDER_STATUS, 2);
	assert_int_equal(TT_DELIVERY, 3);
	assert_int_equal(TT_STOCK_LEVEL, 4);
	for (unsigned t = 0; t < TPCC_DECK_TYPES; t++) {
		assert_true(tpcc_spec_keying_s[t] == keying[t]);
		assert_true(tpcc_spec_think_s[t] == think[t]);
	}
	tpcc_spec_delays_ns(1, k_ns, t_ns);
	for (unsigned t = 0; t < TPCC_DECK_TYPES; t++) {
		assert_int_equal(k_ns[t], (uint64_t)keying[t] * 1000000000ULL);
		assert_int_equal(t_ns[t], (uint64_t)think[t] * 1000000000ULL);
	}
	tpcc_spec_delays_ns(0.5, k_ns, t_ns);
	for (unsigned t = 0; t < TPCC_DECK_TYPES; t++) {
		assert_int_equal(k_ns[t], (uint64_t)keying[t] * 500000000ULL);
		assert_int_equal(t_ns[t], (uint64_t)think[t] * 500000000ULL);
	}
}

/* The drawn think times (runner_think_ns with the spec's cap of 10 x the
 * mean, clause 5.2.5.4): per type, the mean of N = 100,000 draws is the
 * capped exponential's, mean x (1 - e^-10), within 5 standard errors (the
 * capped draw's standard deviation is below the mean's, so 5 x mean /
 * sqrt(N) bounds it); no draw exceeds 10 x the mean, and the cap is reached
 * (a draw at exactly 10 x the mean: probability e^-10 each, 22.7 expected
 * over the 500,000 draws). A correct build fails the means with a chance
 * below 5 x 5.8e-7 = 3e-6 (normal tail at 5 standard errors, five types) and
 * the cap with e^-22.7 = 1.4e-10. */
static void test_think_draws(void **state)
{
	enum { N = 100000 };
	uint64_t k_ns[TPCC_DECK_TYPES], t_ns[TPCC_DECK_TYPES];
	unsigned capped = 0;
	struct rng r;

	(void)state;
	rng_seed(&r, 2026);
	tpcc_spec_delays_ns(1, k_ns, t_ns);
	for (unsigned t = 0; t < TPCC_DECK_TYPES; t++) {
		double mean = (double)t_ns[t], sum = 0, want = mean * (1 - exp(-10.0)), se = mean / sqrt(N);
		for (unsigned i = 0; i < N; i++) {
			uint64_t v = runner_think_ns(&r, t_ns[t], 10);
			assert_true(v <= t_ns[t] * 10);
			capped += v == t_ns[t] * 10;
			sum += (double)v;
		}
		if (fabs(sum / N - want) > 5 * se)
			fprintf(stderr, "type %u: mean think %.4f s, expected %.4f +- %.4f s\n", t, sum / N / 1e9, want / 1e9,
				5 * se / 1e9);
		assert_true(fabs(sum / N - want) <= 5 * se);
	}
	assert_true(capped > 0);
	/* A zero mean (--delays off) draws no think time. */
	assert_int_equal(runner_think_ns(&r, 0, 10), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nurand_bounds),  cmocka_unit_test(test_c_delta),
		cmocka_unit_test(test_last_name),      cmocka_unit_test(test_deck_mix),
		cmocka_unit_test(test_delays),         cmocka_unit_test(test_astring),
		cmocka_unit_test(test_delay_tables),   cmocka_unit_test(test_think_draws),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
