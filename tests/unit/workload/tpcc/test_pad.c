/* --pad-to (pad.c): the padding widths per table, the refusals, the DDL per dialect. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workload/tpcc/tpcc.h"

/* The rows the widths add, per warehouse: customer 30,000, stock 100,000, order_line 300,000. */
static double added(const unsigned w[TPCC_PAD_TABLES])
{
	return 30000.0 * w[0] + 100000.0 * w[1] + 300000.0 * w[2];
}

static void test_widths(void **state)
{
	static const enum tpcc_dialect ds[] = {TPCC_MYSQL, TPCC_POSTGRESQL, TPCC_MSSQL};
	unsigned w[TPCC_PAD_TABLES];
	char err[256] = "";

	(void)state;
	assert_int_equal(tpcc_pad_base(TPCC_MYSQL), 86507520);
	assert_int_equal(tpcc_pad_base(TPCC_POSTGRESQL), 104333312);
	assert_int_equal(tpcc_pad_base(TPCC_MSSQL), 80740352);
	/* MariaDB at the published ~222 MB a warehouse: the three tables (77.3 MiB) grow by 1.6716
	 * times: customer 1.6716 * 681.6 B a row, stock * 351.3 B, order_line * 84.9 B. */
	assert_int_equal(tpcc_pad_widths(TPCC_MYSQL, 222000000, w, err, sizeof(err)), 0);
	assert_int_equal(w[0], 1139);
	assert_int_equal(w[1], 587);
	assert_int_equal(w[2], 142);
	for (size_t i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
		uint64_t base = tpcc_pad_base(ds[i]);
		/* What the widths add is the target less the unpadded size, within a byte a row. */
		assert_int_equal(tpcc_pad_widths(ds[i], 2 * base, w, err, sizeof(err)), 0);
		assert_true(added(w) > base - 430000.0 && added(w) < base + 430000.0);
		/* Each table by the same factor: customer's rows are the widest, order_line's the narrowest. */
		assert_true(w[0] > w[1] && w[1] > w[2] && w[2] > 0);
		/* At the unpadded size nothing, and 0 is no padding. */
		assert_int_equal(tpcc_pad_widths(ds[i], base, w, err, sizeof(err)), 0);
		assert_int_equal(w[0] + w[1] + w[2], 0);
		assert_int_equal(tpcc_pad_widths(ds[i], 0, w, err, sizeof(err)), 0);
		assert_int_equal(w[0] + w[1] + w[2], 0);
		assert_int_equal(tpcc_pad_widths(ds[i], TPCC_PAD_MAX_FACTOR * base, w, err, sizeof(err)), 0);
		/* Refused: below the unpadded size, above 8 times it. */
		assert_int_equal(tpcc_pad_widths(ds[i], base - 1, w, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "smaller than"));
		assert_int_equal(tpcc_pad_widths(ds[i], TPCC_PAD_MAX_FACTOR * base + 1, w, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "absurdly larger than"));
	}
	assert_int_equal(tpcc_pad_widths(TPCC_MYSQL, 1000, w, err, sizeof(err)), -1);
	assert_string_equal(err, "--pad-to=1000: smaller than the mysql dialect's 86507520 bytes per warehouse "
				 "without padding (expected 0 for none or 86507520..692060160, at most 8 times that)");
}

static void test_sql(void **state)
{
	unsigned w[TPCC_PAD_TABLES] = {600, 10, 0};
	char *s[TPCC_PAD_STMTS_MAX];
	unsigned n;

	(void)state;
	/* MySQL: CHAR holds 255 characters, so 600 is three columns of 200. */
	n = tpcc_pad_sql(TPCC_MYSQL, w, s);
	assert_int_equal(n, 2);
	assert_string_equal(s[0], "ALTER TABLE customer ADD COLUMN c_pad1 CHAR(200) CHARACTER SET latin1 NOT NULL "
				  "DEFAULT '', ADD COLUMN c_pad2 CHAR(200) CHARACTER SET latin1 NOT NULL DEFAULT '', "
				  "ADD COLUMN c_pad3 CHAR(200) CHARACTER SET latin1 NOT NULL DEFAULT ''");
	assert_string_equal(s[1], "ALTER TABLE stock ADD COLUMN s_pad1 CHAR(10) CHARACTER SET latin1 NOT NULL DEFAULT ''");
	for (unsigned i = 0; i < n; i++)
		free(s[i]);
	n = tpcc_pad_sql(TPCC_POSTGRESQL, w, s);
	assert_int_equal(n, 4);
	assert_string_equal(s[0], "ALTER TABLE customer ADD COLUMN c_pad CHAR(600) NOT NULL DEFAULT ''");
	assert_string_equal(s[1], "ALTER TABLE customer ALTER COLUMN c_pad SET STORAGE PLAIN");
	for (unsigned i = 0; i < n; i++)
		free(s[i]);
	w[2] = 7;
	n = tpcc_pad_sql(TPCC_MSSQL, w, s);
	assert_int_equal(n, 3);
	assert_string_equal(s[2], "ALTER TABLE order_line ADD ol_pad CHAR(7) NOT NULL DEFAULT ''");
	for (unsigned i = 0; i < n; i++)
		free(s[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widths),
		cmocka_unit_test(test_sql),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
