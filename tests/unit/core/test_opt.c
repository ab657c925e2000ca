/* Option tables: defaults, '-'/'_' equivalence, booleans, durations, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/opt.h"

struct cfg {
	unsigned threads;
	uint64_t time_ns;
	bool flag;
	const char *name;
	double ratio;
	uint64_t big;
};

static const struct opt_def defs[] = {
	{"threads", "num-threads", OPT_UINT, offsetof(struct cfg, threads), "1", "threads", 1, 100, "G", 0},
	{"time", "max-time", OPT_DURATION, offsetof(struct cfg, time_ns), "10", "time", 0, 0, "G", 0},
	{"skip-trx", NULL, OPT_BOOL, offsetof(struct cfg, flag), "off", "flag", 0, 0, "G", 0},
	{"mysql-user", NULL, OPT_STRING, offsetof(struct cfg, name), "sbtest", "user", 0, 0, "G", 0},
	{"ratio", NULL, OPT_DOUBLE, offsetof(struct cfg, ratio), "0.5", "ratio", 0, 0, "G", 0},
	{"events", NULL, OPT_U64, offsetof(struct cfg, big), "0", "events", 0, INT64_MAX, "G", 0},
};
#define N (sizeof(defs) / sizeof(defs[0]))

static int parse(struct cfg *c, int argc, char **argv, const char **pos, int *npos)
{
	memset(c, 0, sizeof(*c));
	return opt_parse(defs, N, c, argc, argv, pos, 2, npos, NULL);
}

static void test_defaults(void **state)
{
	(void)state;
	struct cfg c;
	const char *pos[2];
	int npos;
	char *argv[] = {"x", NULL};
	assert_int_equal(parse(&c, 1, argv, pos, &npos), 0);
	assert_int_equal(c.threads, 1);
	assert_true(c.time_ns == 10ULL * 1000000000ULL);
	assert_false(c.flag);
	assert_string_equal(c.name, "sbtest");
	assert_true(c.ratio == 0.5);
	assert_int_equal(npos, 0);
}

static void test_values_and_spellings(void **state)
{
	(void)state;
	struct cfg c;
	const char *pos[2];
	int npos;
	char *argv[] = {"x", "--num_threads=32", "--time=2h", "--skip_trx", "--mysql_user=bob", "oltp_read_write",
			"run", "--events=5000000000", NULL};
	assert_int_equal(parse(&c, 8, argv, pos, &npos), 0);
	assert_int_equal(c.threads, 32);
	assert_true(c.time_ns == 7200ULL * 1000000000ULL);
	assert_true(c.flag);
	assert_string_equal(c.name, "bob");
	assert_true(c.big == 5000000000ULL);
	assert_int_equal(npos, 2);
	assert_string_equal(pos[0], "oltp_read_write");
	assert_string_equal(pos[1], "run");
}

static void test_bools(void **state)
{
	(void)state;
	static const char *on[] = {"on", "true", "yes", "1"};
	static const char *off[] = {"off", "false", "no", "0"};
	struct cfg c;
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(opt_set(&defs[2], &c, on[i]), 0);
		assert_true(c.flag);
		assert_int_equal(opt_set(&defs[2], &c, off[i]), 0);
		assert_false(c.flag);
	}
	assert_int_equal(opt_set(&defs[2], &c, "maybe"), -1);
}

static void test_errors(void **state)
{
	(void)state;
	struct cfg c;
	const char *pos[2];
	int npos;
	char *bad[][2] = {
		{"x", "--threads=0"},    {"x", "--threads=101"}, {"x", "--threads=abc"}, {"x", "--threads"},
		{"x", "--time=2x"},      {"x", "--nope=1"},      {"x", "--ratio=1e"},    {"x", "--events=-1"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse(&c, 2, bad[i], pos, &npos), -1);
	char *toomany[] = {"x", "a", "b", "c"};
	assert_int_equal(parse(&c, 4, toomany, pos, &npos), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values_and_spellings),
		cmocka_unit_test(test_bools),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
