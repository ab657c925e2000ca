/* Unit tests of db/bulk.c: LOAD DATA statements derived from the dialects' INSERTs, and the rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "db/bulk.h"
#include "workload/tpcc/tpcc.h"

/* The loader's LOAD DATA statements and text rows (db/bulk.c). */
static void test_bulk_load(void **state)
{
	struct tpcc_sql *sql;
	struct strbuf sb;
	char err[256], *t;
	struct db_value v[] = {
		{.type = DB_TYPE_INT32, .i = -42},
		{.type = DB_TYPE_DOUBLE, .d = 12.5},
		{.type = DB_TYPE_DOUBLE, .d = -0.0731},
		{.type = DB_TYPE_DOUBLE, .d = 300000.0},
		{.type = DB_TYPE_STRING, .s = "a\tb\\c\nd", .len = 7},
		{.type = DB_TYPE_INT32, .is_null = true},
		{.type = DB_TYPE_DOUBLE, .d = 0.00004},
	};

	(void)state;
	t = db_bulk_load_sql("INSERT INTO t (a, b, c) VALUES (?, CURRENT_TIMESTAMP, CASE WHEN ? = 1 THEN 'x,?' END)");
	assert_non_null(t);
	assert_string_equal(t, "LOAD DATA LOCAL INFILE 'dbrig-rows' INTO TABLE t (a,@p1) SET b = CURRENT_TIMESTAMP, "
			       "c = CASE WHEN @p1 = 1 THEN 'x,?' END");
	free(t);
	assert_null(db_bulk_load_sql("SELECT 1"));
	assert_null(db_bulk_load_sql("INSERT"));
	assert_null(db_bulk_load_sql("INSERT INTO t (a) VALUES (CURRENT_TIMESTAMP)"));
	t = db_bulk_load_sql("insert into\tt(a) values\n(?)");
	assert_non_null(t);
	assert_string_equal(t, "LOAD DATA LOCAL INFILE 'dbrig-rows' INTO TABLE t (a)");
	free(t);
	assert_null(db_bulk_load_sql("INSERT INTO t (a, b) VALUES (?)"));
	assert_null(db_bulk_load_sql("INSERT INTO t (a VALUES (?"));
	/* Every loader INSERT of the mysql dialect has a LOAD form with one
	 * field per parameter. */
	assert_int_equal(tpcc_sql_load(TPCC_MYSQL, &sql, err, sizeof(err)), 0);
	for (unsigned k = TS_LD_ITEM; k <= TS_LD_META; k++) {
		unsigned fields = 1;
		t = db_bulk_load_sql(sql->stmt[k]);
		assert_non_null(t);
		for (const char *p = strchr(t, '('); *p != ')'; p++)
			fields += *p == ',';
		assert_int_equal(fields, tpcc_stmt_def(k)->nparams);
		free(t);
	}
	t = db_bulk_load_sql("INSERT INTO t (a, b, c) VALUES (?, CASE WHEN ? = 1 THEN CURRENT_TIMESTAMP END, ?)");
	assert_string_equal(t, "LOAD DATA LOCAL INFILE 'dbrig-rows' INTO TABLE t (a,@p1,c) SET b = CASE WHEN @p1 = 1 THEN CURRENT_TIMESTAMP END");
	free(t);
	tpcc_sql_free(sql);
	strbuf_init(&sb, 64);
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		if (i)
			strbuf_addc(&sb, '|');
		db_bulk_field(&sb, &v[i]);
	}
	assert_string_equal(sb.buf, "-42|12.5000|-0.0731|300000.0000|a\\tb\\\\c\\nd|\\N|0.0000");
	strbuf_release(&sb);
}

/* The bulk copy's plan: every loader INSERT of the SQL Server dialect maps
 * to parameters and the two loader expressions; anything else is refused. */
static void test_copy_plan(void **state)
{
	struct tpcc_sql *ms;
	struct db_copy_col cols[24];
	unsigned n;
	char table[64], err[256];

	(void)state;
	assert_int_equal(tpcc_sql_load(TPCC_MSSQL, &ms, err, sizeof(err)), 0);
	for (unsigned k = TS_LD_ITEM; k <= TS_LD_META; k++) {
		const struct tpcc_stmt_def *d = tpcc_stmt_def((enum tpcc_stmt)k);
		unsigned params = 0;
		assert_int_equal(db_bulk_copy_plan(ms->stmt[k], table, sizeof(table), cols, 24, &n), 0);
		for (unsigned i = 0; i < n; i++)
			if (cols[i].kind == DB_COPY_PARAM)
				assert_int_equal(cols[i].param, params++);
		assert_int_equal(params, d->nparams); /* every parameter lands in a column */
	}
	assert_int_equal(db_bulk_copy_plan(ms->stmt[TS_LD_ORDER_LINE], table, sizeof(table), cols, 24, &n), 0);
	assert_string_equal(table, "order_line");
	assert_int_equal(n, 10);
	assert_string_equal(cols[6].name, "ol_delivery_d");
	assert_int_equal(cols[6].kind, DB_COPY_PARAM); /* the load's time, or NULL: clause 4.3.3.1 */
	assert_int_equal(cols[6].param, 6);
	assert_string_equal(cols[9].name, "ol_dist_info");
	assert_int_equal(cols[9].param, 9);
	assert_int_equal(db_bulk_copy_plan(ms->stmt[TS_LD_CUSTOMER], table, sizeof(table), cols, 24, &n), 0);
	assert_string_equal(cols[12].name, "c_since");
	assert_int_equal(cols[12].kind, DB_COPY_NOW);
	assert_int_equal(db_bulk_copy_plan("INSERT INTO t (a, b) VALUES (?, NULL)", table, sizeof(table), cols, 24, &n), 0);
	assert_int_equal(cols[1].kind, DB_COPY_NULL);
	assert_int_equal(db_bulk_copy_plan("INSERT INTO t (a, b) VALUES (?, ? + 1)", table, sizeof(table), cols, 24, &n),
			 -EINVAL);
	assert_int_equal(db_bulk_copy_plan("INSERT INTO t (a, b) VALUES (?)", table, sizeof(table), cols, 24, &n), -EINVAL);
	assert_int_equal(db_bulk_copy_plan("UPDATE t SET a = ?", table, sizeof(table), cols, 24, &n), -EINVAL);
	tpcc_sql_free(ms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bulk_load),
		cmocka_unit_test(test_copy_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
