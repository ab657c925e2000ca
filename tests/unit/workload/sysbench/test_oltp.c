/* The statement templates dbrig prepares are sysbench 1.0.20's text (a table copied from
 * oltp_common.lua). What goes on the wire, values, ranges and tables included, is
 * compared with sysbench's own run in the server's general log by
 * tests/integration/sysbench_com_counters.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "workload/sysbench/sysbench.h"

static void test_statement_text(void **state)
{
	(void)state;
	static const char *const want[SB_STMT_COUNT] = {
		"SELECT c FROM sbtest%u WHERE id=?",
		"SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ?",
		"SELECT SUM(k) FROM sbtest%u WHERE id BETWEEN ? AND ?",
		"SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
		"SELECT DISTINCT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
		"UPDATE sbtest%u SET k=k+1 WHERE id=?",
		"UPDATE sbtest%u SET c=? WHERE id=?",
		"DELETE FROM sbtest%u WHERE id=?",
		"INSERT INTO sbtest%u (id, k, c, pad) VALUES (?, ?, ?, ?)",
	};
	for (int i = 0; i < SB_STMT_COUNT; i++)
		assert_string_equal(sb_stmt_format((enum sb_stmt)i), want[i]);
}

static void test_create_table(void **state)
{
	(void)state;
	struct sb_opts o = {.auto_inc = true, .storage_engine = "innodb"};
	char *sql = sb_create_table_sql(&o, 7);
	assert_string_equal(sql, "CREATE TABLE sbtest7(\n"
				 "  id INTEGER NOT NULL AUTO_INCREMENT,\n"
				 "  k INTEGER DEFAULT '0' NOT NULL,\n"
				 "  c CHAR(120) DEFAULT '' NOT NULL,\n"
				 "  pad CHAR(60) DEFAULT '' NOT NULL,\n"
				 "  PRIMARY KEY (id)\n"
				 ") /*! ENGINE = innodb */ ");
	free(sql);
	o.auto_inc = false;
	o.secondary = true;
	o.storage_engine = "myisam";
	sql = sb_create_table_sql(&o, 1);
	assert_non_null(strstr(sql, "  id INTEGER NOT NULL,\n"));
	assert_non_null(strstr(sql, "  KEY xid (id)\n"));
	assert_non_null(strstr(sql, "/*! ENGINE = myisam */"));
	free(sql);
}

static void test_test_names(void **state)
{
	(void)state;
	static const char *const names[] = {"oltp_read_write", "oltp_read_only", "oltp_write_only",
					    "oltp_point_select", "oltp_update_index", "oltp_update_non_index",
					    "oltp_insert", "oltp_delete"};
	for (size_t i = 0; i < 8; i++) {
		enum sb_test t;
		assert_int_equal(sb_test_parse(names[i], &t), 0);
		assert_string_equal(sb_test_name(t), names[i]);
	}
	enum sb_test t;
	assert_int_not_equal(sb_test_parse("oltp_read", &t), 0);
	assert_int_not_equal(sb_test_parse("select_random_points", &t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statement_text),
		cmocka_unit_test(test_create_table),
		cmocka_unit_test(test_test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
