/* Unit tests of workload/tpcc/sql.c: the dialect files and their detection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "workload/tpcc/tpcc.h"

static void test_dialects(void **state)
{
	char err[256];

	(void)state;
	for (int d = 0; d < TPCC_DIALECT_COUNT; d++) {
		struct tpcc_sql *s = NULL;
		char *golden = NULL, path[1024], *got = NULL;
		const char *src = getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR;
		size_t glen, gotlen = 0;
		FILE *f;
		assert_int_equal(tpcc_sql_load((enum tpcc_dialect)d, &s, err, sizeof(err)), 0);
		assert_int_equal(s->nschema, 10);
		/* --print-sql output is golden text. */
		f = open_memstream(&got, &gotlen);
		tpcc_sql_print(f, s);
		fclose(f);
		snprintf(path, sizeof(path), "%s/tests/golden/tpcc/print-sql-%s.sql", src,
			 tpcc_dialect_name((enum tpcc_dialect)d));
		assert_int_equal(read_file(path, &golden, &glen), 0);
		assert_string_equal(got, golden);
		free(golden);
		free(got);
		tpcc_sql_free(s);
	}
}

static void test_dialect_text(void **state)
{
	struct tpcc_sql *ms, *my, *pg;
	char err[256];

	(void)state;
	assert_int_equal(tpcc_sql_load(TPCC_MSSQL, &ms, err, sizeof(err)), 0);
	assert_int_equal(tpcc_sql_load(TPCC_MYSQL, &my, err, sizeof(err)), 0);
	assert_int_equal(tpcc_sql_load(TPCC_POSTGRESQL, &pg, err, sizeof(err)), 0);
	assert_string_equal(ms->stmt[TS_OS_LAST_ORDER], "SELECT TOP 1 o_id, o_carrier_id, o_entry_d FROM orders WHERE "
							"o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC");
	assert_string_equal(my->stmt[TS_OS_LAST_ORDER], "SELECT o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = ? "
							"AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1");
	/* Delivery's oldest new order is a locking read in every dialect. */
	assert_non_null(strstr(ms->stmt[TS_DL_OLDEST_NEW_ORDER], "SELECT TOP 1 no_o_id FROM new_order WITH (UPDLOCK, ROWLOCK)"));
	assert_non_null(strstr(my->stmt[TS_DL_OLDEST_NEW_ORDER], "ORDER BY no_o_id LIMIT 1 FOR UPDATE"));
	assert_non_null(strstr(pg->stmt[TS_DL_OLDEST_NEW_ORDER], "ORDER BY no_o_id LIMIT 1 FOR UPDATE"));
	/* The procedure mode: five procedures per dialect, one call each. */
	assert_int_equal(ms->nprocs, 5);
	assert_int_equal(my->nprocs, 5);
	assert_int_equal(pg->nprocs, 5);
	assert_string_equal(ms->proc_names[0], "tpcc_neword");
	assert_non_null(strstr(ms->procs[0], "CREATE PROCEDURE tpcc_neword @w_id INT"));
	assert_null(strstr(ms->procs[4], "-- procedure:"));
	assert_non_null(strstr(pg->procs[1], "CREATE FUNCTION tpcc_payment("));
	assert_string_equal(ms->stmt[TS_PR_DELIVERY], "EXEC tpcc_delivery ?, ?");
	assert_string_equal(my->stmt[TS_PR_DELIVERY], "CALL tpcc_delivery(?, ?)");
	assert_string_equal(pg->stmt[TS_PR_DELIVERY], "SELECT * FROM tpcc_delivery(?, ?)");
	assert_true(ms->nsettings >= 1 && my->nsettings >= 1 && pg->nsettings >= 1);
	assert_int_equal(ms->nsession, 1);
	assert_string_equal(ms->session[0], "SET NOCOUNT OFF");
	assert_non_null(strstr(ms->stmt[TS_NO_STOCK], "FROM stock WITH (UPDLOCK, ROWLOCK) WHERE"));
	assert_null(strstr(ms->stmt[TS_NO_STOCK], "FOR UPDATE"));
	assert_non_null(strstr(pg->stmt[TS_NO_STOCK], "FOR UPDATE"));
	assert_non_null(strstr(my->stmt[TS_PAY_CUST_DATA], "FOR UPDATE"));
	assert_non_null(strstr(ms->schema[1], "PRIMARY KEY (d_w_id, d_id)"));
	assert_null(strstr(pg->schema[1], "PRIMARY KEY"));
	assert_non_null(strstr(pg->indexes[1], "ALTER TABLE district ADD PRIMARY KEY (d_w_id, d_id)"));
	assert_non_null(strstr(my->schema[0], "ENGINE=InnoDB"));
	for (int k = 0; k < TS_COUNT; k++) {
		/* Non-portable spellings stay out of the shared statements. */
		assert_null(strstr(ms->stmt[k], "LIMIT"));
		assert_null(strstr(pg->stmt[k], "GETDATE"));
		assert_null(strstr(my->stmt[k], "TOP "));
	}
	tpcc_sql_free(ms);
	tpcc_sql_free(my);
	tpcc_sql_free(pg);
}

static void test_dialect_detect(void **state)
{
	enum tpcc_dialect d;

	(void)state;
	assert_int_equal(tpcc_dialect_detect("Microsoft SQL Server", &d), 0);
	assert_int_equal(d, TPCC_MSSQL);
	assert_int_equal(tpcc_dialect_detect("MariaDB", &d), 0);
	assert_int_equal(d, TPCC_MYSQL);
	assert_int_equal(tpcc_dialect_detect("MySQL", &d), 0);
	assert_int_equal(d, TPCC_MYSQL);
	assert_int_equal(tpcc_dialect_detect("PostgreSQL", &d), 0);
	assert_int_equal(d, TPCC_POSTGRESQL);
	assert_int_not_equal(tpcc_dialect_detect("Oracle", &d), 0);
	assert_int_not_equal(tpcc_dialect_detect(NULL, &d), 0);
}

/* R6: SQL Server loads with at most TPCC_MSSQL_LOADERS_MAX connections; every
 * dialect with at most one per unit of work. */
static void test_loaders(void **state)
{
	(void)state;
	assert_int_equal(tpcc_loaders(TPCC_MSSQL, 200, 4501), TPCC_MSSQL_LOADERS_MAX);
	assert_int_equal(TPCC_MSSQL_LOADERS_MAX, 16);
	assert_int_equal(tpcc_loaders(TPCC_MSSQL, 8, 4501), 8);
	assert_int_equal(tpcc_loaders(TPCC_MSSQL, 200, 7), 7);
	assert_int_equal(tpcc_loaders(TPCC_MYSQL, 200, 4501), 200);
	assert_int_equal(tpcc_loaders(TPCC_POSTGRESQL, 200, 7), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dialects),
		cmocka_unit_test(test_loaders),
		cmocka_unit_test(test_dialect_text),
		cmocka_unit_test(test_dialect_detect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
