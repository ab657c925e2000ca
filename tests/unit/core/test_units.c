/* Strict parsers for durations, sizes, integers and doubles; duration format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "core/units.h"

#define S UINT64_C(1000000000)
#define MAX_NS (UINT64_C(315576000) * S)

/* The messages are part of the contract: users read them. */
#define WHY_DUR_EMPTY "expected a duration such as 10, 30m, 1h30m or 250ms, not an empty string"
#define WHY_DUR_SPACE "expected a duration without spaces, such as 1h30m"
#define WHY_DUR_SIGN "expected a non-negative duration without a sign"
#define WHY_DUR_NUMBER "expected a number such as 10 or 1.5 (digits on both sides of the point)"
#define WHY_DUR_UNIT "expected a number with unit ms, s, m, h or d"
#define WHY_DUR_BARE "expected a unit after every number of a combined duration, as in 1h30m"
#define WHY_DUR_ORDER "expected each unit at most once, largest first, as in 1h30m"
#define WHY_DUR_RANGE "expected a duration of at most 10 years"

#define WHY_SIZE_EMPTY "expected a size such as 100, 4KiB, 512M or 1.5T, not an empty string"
#define WHY_SIZE_SPACE "expected a size without spaces, such as 512M"
#define WHY_SIZE_SIGN "expected a non-negative size without a sign"
#define WHY_SIZE_NUMBER "expected a number such as 24 or 1.5 (digits on both sides of the point)"
#define WHY_SIZE_UNIT "expected a number with unit B, K, KiB, M, MiB, G, GiB, T or TiB"
#define WHY_SIZE_WHOLE "expected a whole number of bytes"
#define WHY_SIZE_RANGE "expected a size below 16 EiB (2^64 bytes)"

struct ok_case {
	const char *in;
	uint64_t out;
};

struct bad_case {
	const char *in;
	const char *why;
};

static const struct ok_case dur_ok[] = {
	{ "10", 10 * S },
	{ "0", 0 },
	{ "0s", 0 },
	{ "2h", 7200 * S },
	{ "30m", 1800 * S },
	{ "1h30m", 5400 * S },
	{ "250ms", 250000000 },
	{ "1.5s", 1500000000 },
	{ "1.5", 1500000000 },
	{ "2d", 172800 * S },
	{ "0.5ms", 500000 },
	{ "0.1s", 100000000 },
	{ "1.25h", 4500 * S },
	{ "1d2h3m4s5ms", (86400 + 7200 + 180 + 4) * S + 5000000 },
	{ "1m30.5s", 90 * S + 500000000 },
	{ "1h0m", 3600 * S },
	{ "0.000000001s", 1 },
	{ "1.0000000009s", S },        /* below a nanosecond: truncated */
	{ "0.000001ms", 1 },
	{ "007s", 7 * S },
	{ "315576000", MAX_NS },       /* exactly 10 years */
	{ "3652d12h", MAX_NS },
};

static const struct bad_case dur_bad[] = {
	{ "", WHY_DUR_EMPTY },
	{ NULL, WHY_DUR_EMPTY },
	{ " 10", WHY_DUR_SPACE },
	{ "10 ", WHY_DUR_SPACE },
	{ "1h 30m", WHY_DUR_SPACE },
	{ "\t5s", WHY_DUR_SPACE },
	{ "5s\n", WHY_DUR_SPACE },
	{ "-1", WHY_DUR_SIGN },
	{ "-1h", WHY_DUR_SIGN },
	{ "+5s", WHY_DUR_SIGN },
	{ "1x", WHY_DUR_UNIT },
	{ "2x", WHY_DUR_UNIT },
	{ "10y", WHY_DUR_UNIT },
	{ "5S", WHY_DUR_UNIT },       /* units are case-sensitive: M could be months */
	{ "1e3", WHY_DUR_UNIT },
	{ "5us", WHY_DUR_UNIT },
	{ "h", WHY_DUR_NUMBER },
	{ "ms", WHY_DUR_NUMBER },
	{ "1.5.2", WHY_DUR_NUMBER },
	{ ".5s", WHY_DUR_NUMBER },
	{ "1.s", WHY_DUR_NUMBER },
	{ "1.", WHY_DUR_NUMBER },
	{ "1hh", WHY_DUR_NUMBER },
	{ "1h30", WHY_DUR_BARE },
	{ "30m1h", WHY_DUR_ORDER },
	{ "1s1s", WHY_DUR_ORDER },
	{ "1ms1s", WHY_DUR_ORDER },
	{ "315576000.000000001s", WHY_DUR_RANGE },
	{ "315576001", WHY_DUR_RANGE },
	{ "3653d", WHY_DUR_RANGE },
	{ "3652d12h1ms", WHY_DUR_RANGE },
	{ "99999999999999999999999s", WHY_DUR_RANGE },
	{ "18446744073709551616ms", WHY_DUR_RANGE },
};

static void test_duration_ok(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(dur_ok) / sizeof(dur_ok[0]); i++) {
		uint64_t ns = 12345;
		const char *why = NULL;
		int rc = parse_duration_ns(dur_ok[i].in, &ns, &why);
		if (rc || ns != dur_ok[i].out)
			print_error("\"%s\": rc %d, %llu ns, expected %llu (%s)\n", dur_ok[i].in, rc,
				    (unsigned long long)ns, (unsigned long long)dur_ok[i].out,
				    why ? why : "");
		assert_int_equal(rc, 0);
		assert_int_equal(ns, dur_ok[i].out);
	}
}

static void test_duration_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(dur_bad) / sizeof(dur_bad[0]); i++) {
		uint64_t ns = 12345;
		const char *why = NULL;
		int rc = parse_duration_ns(dur_bad[i].in, &ns, &why);
		if (rc != -EINVAL || !why || strcmp(why, dur_bad[i].why))
			print_error("\"%s\": rc %d, why \"%s\", expected \"%s\"\n",
				    dur_bad[i].in ? dur_bad[i].in : "(null)", rc, why ? why : "(null)",
				    dur_bad[i].why);
		assert_int_equal(rc, -EINVAL);
		assert_non_null(why);
		assert_string_equal(why, dur_bad[i].why);
		assert_int_equal(ns, 12345); /* untouched on failure */
		/* why may be NULL. */
		assert_int_equal(parse_duration_ns(dur_bad[i].in, &ns, NULL), -EINVAL);
	}
}

static const struct ok_case size_ok[] = {
	{ "24G", UINT64_C(24) << 30 },
	{ "512M", UINT64_C(512) << 20 },
	{ "1.5T", UINT64_C(3) << 39 },
	{ "100", 100 },
	{ "0", 0 },
	{ "4KiB", 4096 },
	{ "4kib", 4096 },
	{ "4K", 4096 },
	{ "4kb", 4096 },
	{ "2MB", UINT64_C(2) << 20 },
	{ "2mib", UINT64_C(2) << 20 },
	{ "3GiB", UINT64_C(3) << 30 },
	{ "7tb", UINT64_C(7) << 40 },
	{ "10B", 10 },
	{ "10b", 10 },
	{ "1.0", 1 },
	{ "0.5K", 512 },
	{ "1.3K", 1331 },              /* 1331.2: the fraction of a byte is dropped */
	{ "0.1G", 107374182 },         /* 107374182.4 */
	{ "18446744073709551615", UINT64_MAX },
	{ "16777215T", UINT64_MAX - (UINT64_C(1) << 40) + 1 },
	{ "16777215.999999999999T", UINT64_MAX - 1 }, /* 2^64 - 1.0995 */
};

static const struct bad_case size_bad[] = {
	{ "", WHY_SIZE_EMPTY },
	{ NULL, WHY_SIZE_EMPTY },
	{ " 1G", WHY_SIZE_SPACE },
	{ "1 G", WHY_SIZE_SPACE },
	{ "1G ", WHY_SIZE_SPACE },
	{ "-1G", WHY_SIZE_SIGN },
	{ "+1", WHY_SIZE_SIGN },
	{ "1x", WHY_SIZE_UNIT },
	{ "1P", WHY_SIZE_UNIT },
	{ "1GiBs", WHY_SIZE_UNIT },
	{ "1e3", WHY_SIZE_UNIT },
	{ "1Ki", WHY_SIZE_UNIT },
	{ "G", WHY_SIZE_NUMBER },
	{ "1.5.2", WHY_SIZE_NUMBER },
	{ ".5G", WHY_SIZE_NUMBER },
	{ "1.G", WHY_SIZE_NUMBER },
	{ "1.5", WHY_SIZE_WHOLE },
	{ "2.5B", WHY_SIZE_WHOLE },
	{ "18446744073709551616", WHY_SIZE_RANGE },
	{ "16777216T", WHY_SIZE_RANGE },
	{ "16384P", WHY_SIZE_UNIT },
	{ "99999999999999999999999G", WHY_SIZE_RANGE },
};

static void test_size_ok(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(size_ok) / sizeof(size_ok[0]); i++) {
		uint64_t b = 12345;
		const char *why = NULL;
		int rc = parse_size_bytes(size_ok[i].in, &b, &why);
		if (rc || b != size_ok[i].out)
			print_error("\"%s\": rc %d, %llu bytes, expected %llu (%s)\n", size_ok[i].in,
				    rc, (unsigned long long)b, (unsigned long long)size_ok[i].out,
				    why ? why : "");
		assert_int_equal(rc, 0);
		assert_int_equal(b, size_ok[i].out);
	}
}

static void test_size_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(size_bad) / sizeof(size_bad[0]); i++) {
		uint64_t b = 12345;
		const char *why = NULL;
		int rc = parse_size_bytes(size_bad[i].in, &b, &why);
		if (rc != -EINVAL || !why || strcmp(why, size_bad[i].why))
			print_error("\"%s\": rc %d, why \"%s\", expected \"%s\"\n",
				    size_bad[i].in ? size_bad[i].in : "(null)", rc,
				    why ? why : "(null)", size_bad[i].why);
		assert_int_equal(rc, -EINVAL);
		assert_non_null(why);
		assert_string_equal(why, size_bad[i].why);
		assert_int_equal(b, 12345);
	}
}

struct int_case {
	const char *in;
	int64_t min, max;
	int rc;
	int64_t out;
};

static void test_parse_int64(void **state)
{
	(void)state;
	static const struct int_case cases[] = {
		{ "0", INT64_MIN, INT64_MAX, 0, 0 },
		{ "42", 0, 100, 0, 42 },
		{ "-5", -10, 10, 0, -5 },
		{ "+7", 0, 10, 0, 7 },
		{ "0010", 0, 100, 0, 10 },
		{ "9223372036854775807", INT64_MIN, INT64_MAX, 0, INT64_MAX },
		{ "-9223372036854775808", INT64_MIN, INT64_MAX, 0, INT64_MIN },
		{ "100", 0, 100, 0, 100 },
		{ "101", 0, 100, -EINVAL, 0 },
		{ "-1", 0, 100, -EINVAL, 0 },
		{ "9223372036854775808", INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ "-9223372036854775809", INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ "", INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ NULL, INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ " 1", INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ "1 ", INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ "1x", INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ "1.0", INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ "0x10", INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ "-", INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ "--1", INT64_MIN, INT64_MAX, -EINVAL, 0 },
		{ "- 1", INT64_MIN, INT64_MAX, -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 777;
		int rc = parse_int64(cases[i].in, cases[i].min, cases[i].max, &v);
		if (rc != cases[i].rc)
			print_error("\"%s\": rc %d, expected %d\n",
				    cases[i].in ? cases[i].in : "(null)", rc, cases[i].rc);
		assert_int_equal(rc, cases[i].rc);
		assert_int_equal(v, cases[i].rc ? 777 : cases[i].out);
	}
}

struct double_case {
	const char *in;
	int rc;
	double out;
};

static void test_parse_double(void **state)
{
	(void)state;
	static const struct double_case cases[] = {
		{ "1.5", 0, 1.5 },
		{ "-2", 0, -2 },
		{ "0", 0, 0 },
		{ "1e3", 0, 1000 },
		{ "2.5E-1", 0, 0.25 },
		{ ".5", 0, 0.5 },
		{ "", -EINVAL, 0 },
		{ NULL, -EINVAL, 0 },
		{ "inf", -EINVAL, 0 },
		{ "nan", -EINVAL, 0 },
		{ "1e999", -EINVAL, 0 },
		{ "-1e999", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },
		{ "1 ", -EINVAL, 0 },
		{ "1.5x", -EINVAL, 0 },
		{ "0x1p3", -EINVAL, 0 },
		{ "1.5.2", -EINVAL, 0 },
		{ "e5", -EINVAL, 0 },
		{ ".", -EINVAL, 0 },
		{ "1e", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = 777;
		int rc = parse_double(cases[i].in, &v);
		if (rc != cases[i].rc)
			print_error("\"%s\": rc %d, expected %d\n",
				    cases[i].in ? cases[i].in : "(null)", rc, cases[i].rc);
		assert_int_equal(rc, cases[i].rc);
		assert_true(v == (cases[i].rc ? 777 : cases[i].out));
	}
}

static void test_format_duration(void **state)
{
	(void)state;
	static const struct {
		uint64_t ns;
		const char *out;
	} cases[] = {
		{ 0, "0s" },
		{ 7200 * S, "2h" },
		{ 5400 * S, "1h30m" },
		{ 45 * S, "45s" },
		{ 1500000000, "1.5s" },
		{ 250000000, "250ms" },
		{ 1500000, "1.5ms" },
		{ 1, "0.000001ms" },
		{ 172800 * S, "2d" },
		{ 90061 * S, "1d1h1m1s" },
		{ 61 * S + 250000000, "1m1.25s" },
		{ 86400 * S + 1, "1d0.000000001s" },
		{ 3600 * S + 5, "1h0.000000005s" },
		{ MAX_NS, "3652d12h" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t back = 0;
		format_duration(cases[i].ns, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].out);
		/* What we print, we parse back to the same value. */
		assert_int_equal(parse_duration_ns(buf, &back, NULL), 0);
		assert_int_equal(back, cases[i].ns);
	}

	/* Truncated, but always terminated; a zero size writes nothing. */
	format_duration(5400 * S, buf, 4);
	assert_string_equal(buf, "1h3");
	buf[0] = 'x';
	format_duration(5400 * S, buf, 0);
	assert_int_equal(buf[0], 'x');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration_ok),
		cmocka_unit_test(test_duration_bad),
		cmocka_unit_test(test_size_ok),
		cmocka_unit_test(test_size_bad),
		cmocka_unit_test(test_parse_int64),
		cmocka_unit_test(test_parse_double),
		cmocka_unit_test(test_format_duration),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
