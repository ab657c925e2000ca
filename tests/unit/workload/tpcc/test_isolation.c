/* --isolation per transaction type (workload/tpcc/isolation.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "workload/tpcc/tpcc.h"

static void test_parse(void **state)
{
	struct tpcc_isolation iso;
	char err[300], d[200];

	(void)state;
	assert_int_equal(tpcc_isolation_parse("default", &iso, err, sizeof(err)), 0);
	tpcc_isolation_describe(&iso, d, sizeof(d));
	assert_string_equal(d, "neword:default,payment:default,ostat:default,delivery:default,slev:default");
	assert_int_equal(tpcc_isolation_parse("read-committed,ostat:repeatable-read,stock_level:serializable", &iso, err,
						sizeof(err)), 0);
	assert_int_equal(iso.base, DB_ISO_READ_COMMITTED);
	tpcc_isolation_describe(&iso, d, sizeof(d));
	assert_string_equal(d, "neword:read-committed,payment:read-committed,ostat:repeatable-read,"
			       "delivery:read-committed,slev:serializable");
	assert_true(iso.given[TT_ORDER_STATUS] && iso.given[TT_STOCK_LEVEL] && !iso.given[TT_PAYMENT]);
	assert_int_equal(tpcc_isolation_parse("ostat:snapshot", &iso, err, sizeof(err)), 0);
	assert_true(tpcc_isolation_snapshot(&iso));
	/* refusals, each naming what it expected */
	static const char *const bad[] = {"", "serial", "ostat:", "x:serializable", "ostat:serializable,ostat:default",
					  "serializable,read-committed", "serializable,ostat:default", "ostat"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (tpcc_isolation_parse(bad[i], &iso, err, sizeof(err)) != -1 || !strstr(err, "(expected "))
			fail_msg("\"%s\": accepted, or \"%s\" says nothing expected", bad[i], err);
	}
}

/* SQL Server's Order-Status defaults to REPEATABLE READ unless given or the
 * base is already above read committed; no other dialect gets a default. */
static void test_dialect_default(void **state)
{
	struct tpcc_isolation iso;
	char err[300];

	(void)state;
	assert_int_equal(tpcc_isolation_parse("default", &iso, err, sizeof(err)), 0);
	assert_false(tpcc_isolation_dialect_default(&iso, TPCC_MYSQL));
	assert_false(tpcc_isolation_dialect_default(&iso, TPCC_POSTGRESQL));
	assert_int_equal(iso.level[TT_ORDER_STATUS], DB_ISO_DEFAULT);
	assert_true(tpcc_isolation_dialect_default(&iso, TPCC_MSSQL));
	assert_int_equal(iso.level[TT_ORDER_STATUS], DB_ISO_REPEATABLE_READ);
	assert_int_equal(tpcc_isolation_parse("ostat:snapshot", &iso, err, sizeof(err)), 0);
	assert_false(tpcc_isolation_dialect_default(&iso, TPCC_MSSQL));
	assert_int_equal(iso.level[TT_ORDER_STATUS], DB_ISO_SNAPSHOT);
	assert_int_equal(tpcc_isolation_parse("serializable", &iso, err, sizeof(err)), 0);
	assert_false(tpcc_isolation_dialect_default(&iso, TPCC_MSSQL));
}

/* The statement before each transaction: per transaction on MySQL and on
 * PostgreSQL's statement mode; on SQL Server (and PostgreSQL's procedure
 * mode) only when the session's level changes, and back again. */
static void test_steps(void **state)
{
	struct tpcc_isolation iso;
	enum db_isolation cur;
	char err[300], buf[80];
	const char *q;

	(void)state;
	assert_int_equal(tpcc_isolation_parse("ostat:repeatable-read", &iso, err, sizeof(err)), 0);
	cur = iso.base;
	assert_null(tpcc_isolation_step(&iso, TPCC_MYSQL, TPCC_STATEMENTS, TT_NEW_ORDER, &cur, buf, sizeof(buf)));
	for (int k = 0; k < 2; k++) {
		q = tpcc_isolation_step(&iso, TPCC_MYSQL, TPCC_PROCEDURES, TT_ORDER_STATUS, &cur, buf, sizeof(buf));
		assert_non_null(q);
		assert_string_equal(q, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
	}
	q = tpcc_isolation_step(&iso, TPCC_POSTGRESQL, TPCC_STATEMENTS, TT_ORDER_STATUS, &cur, buf, sizeof(buf));
	assert_string_equal(q, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
	/* session-wide: once, then nothing, then back to the base */
	cur = iso.base;
	q = tpcc_isolation_step(&iso, TPCC_MSSQL, TPCC_STATEMENTS, TT_ORDER_STATUS, &cur, buf, sizeof(buf));
	assert_string_equal(q, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
	assert_null(tpcc_isolation_step(&iso, TPCC_MSSQL, TPCC_STATEMENTS, TT_ORDER_STATUS, &cur, buf, sizeof(buf)));
	q = tpcc_isolation_step(&iso, TPCC_MSSQL, TPCC_STATEMENTS, TT_NEW_ORDER_ROLLBACK, &cur, buf, sizeof(buf));
	assert_string_equal(q, "SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
	assert_null(tpcc_isolation_step(&iso, TPCC_MSSQL, TPCC_STATEMENTS, TT_PAYMENT, &cur, buf, sizeof(buf)));
	cur = iso.base;
	q = tpcc_isolation_step(&iso, TPCC_POSTGRESQL, TPCC_PROCEDURES, TT_ORDER_STATUS, &cur, buf, sizeof(buf));
	assert_string_equal(q, "SET default_transaction_isolation = 'REPEATABLE READ'");
	q = tpcc_isolation_step(&iso, TPCC_POSTGRESQL, TPCC_PROCEDURES, TT_DELIVERY, &cur, buf, sizeof(buf));
	assert_string_equal(q, "SET default_transaction_isolation TO DEFAULT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_dialect_default),
		cmocka_unit_test(test_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
