/* Unit tests of workload/tpcc/limits.c: the sessions and statements a run
 * opens against what the server takes, and each dialect's sessions.sql. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "workload/tpcc/sql.h"
#include "workload/tpcc/tpcc.h"

static void test_sessions_fit(void **state)
{
	/* max_connections 1000, 3 open including the one that asked. */
	struct tpcc_limits l = {.max_sessions = 1000, .open_sessions = 3, .max_prepared = -1, .setting = "max_connections"};
	char err[512] = "";

	(void)state;
	assert_int_equal(tpcc_limits_check(&l, "--connections=terminals", 998, 31, err, sizeof(err)), 0);
	assert_int_equal(tpcc_limits_check(&l, "--connections=terminals", 999, 31, err, sizeof(err)), -1);
	assert_string_equal(err, "--connections=terminals: 999 sessions, but the server takes 1000 connections "
				 "(max_connections) and 2 are open: raise it to at least 1001, or use fewer");
	l.setting = "'user connections'";
	assert_int_equal(tpcc_limits_check(&l, "--connections=2000", 2000, 31, err, sizeof(err)), -1);
	assert_string_equal(err, "--connections=2000: 2000 sessions, but the server takes 1000 connections ('user "
				 "connections') and 2 are open: raise it to at least 2002, or use fewer");
	/* A server that does not say (0) is not checked. */
	l.max_sessions = 0;
	assert_int_equal(tpcc_limits_check(&l, "--connections=64", 100000, 31, err, sizeof(err)), 0);
}

static void test_prepared_fit(void **state)
{
	struct tpcc_limits l = {.max_sessions = 100000, .open_sessions = 1, .max_prepared = 16382, .open_prepared = 82};
	char err[512] = "";

	(void)state;
	assert_int_equal(tpcc_limits_check(&l, "--connections=terminals", 525, 31, err, sizeof(err)), 0);
	assert_int_equal(tpcc_limits_check(&l, "--connections=terminals", 526, 31, err, sizeof(err)), -1);
	assert_string_equal(err, "--connections=terminals: 526 sessions prepare 16306 statements, but the server allows "
				 "16382 (max_prepared_stmt_count) and 82 are prepared: raise max_prepared_stmt_count to "
				 "at least 16388, or use fewer sessions");
	l.max_prepared = -1; /* no such limit */
	assert_int_equal(tpcc_limits_check(&l, "--connections=terminals", 50000, 31, err, sizeof(err)), 0);
}

/* Every dialect has its one-row, four-column query. */
static void test_sql_files(void **state)
{
	static const enum tpcc_dialect ds[] = {TPCC_MYSQL, TPCC_POSTGRESQL, TPCC_MSSQL};

	(void)state;
	for (size_t i = 0; i < sizeof(ds) / sizeof(ds[0]); i++) {
		const char *t = tpcc_sql_file_text(ds[i], "sessions.sql");
		assert_non_null(t);
		assert_non_null(strstr(t, "SELECT "));
		assert_null(strchr(t, '?'));
		/* One statement: a single ';', at the end. */
		const char *semi = strchr(t, ';');
		assert_non_null(semi);
		assert_null(strchr(semi + 1, ';'));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sessions_fit),
		cmocka_unit_test(test_prepared_fit),
		cmocka_unit_test(test_sql_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
