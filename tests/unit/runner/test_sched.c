/* Unit tests of runner/sched.c: think times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "core/rng.h"
#include "runner/runner.h"

static void test_think_times(void **state)
{
	struct rng r;
	double sum = 0, mx = 0;
	const uint64_t mean = 12 * 1000000000ULL;

	(void)state;
	/* Think times: exponential with the given mean (the cap at 10x trims
	 * e^-10 of the mass, 0.05% of the mean) and never above 10x. */
	rng_seed(&r, 3);
	for (int i = 0; i < 400000; i++) {
		uint64_t t = runner_think_ns(&r, mean, 10);
		sum += (double)t;
		if (t > mx)
			mx = (double)t;
	}
	assert_true(sum / 400000 > 0.99 * mean && sum / 400000 < 1.01 * mean);
	assert_true(mx <= 10.0 * mean);
	assert_true(mx > 8.0 * mean);
	assert_int_equal(runner_think_ns(&r, 0, 10), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_think_times),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
