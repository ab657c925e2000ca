/* TPC-C inputs (NURand, C-delta, deck, delays), dialect SQL and ODBC error classes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	rng_seed(&r, 42);
	for (int k = 0; k < 3; k++) {
		uint32_t mn = UINT32_MAX, mx = 0;
		for (int i = 0; i < 200000; i++) {
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
	struct rng r;
	double sum = 0, mx = 0;
	const uint64_t mean = 12 * 1000000000ULL;

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
	assert_string_equal(ms->stmt[TS_OS_LAST_ORDER], "SELECT TOP 1 o_id, o_carrier_id FROM orders WHERE o_w_id = ? AND "
							"o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC");
	assert_string_equal(my->stmt[TS_OS_LAST_ORDER], "SELECT o_id, o_carrier_id FROM orders WHERE o_w_id = ? AND "
							"o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1");
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

static void test_odbc_classify(void **state)
{
	static const struct {
		const char *state;
		int native;
		enum db_err_class want;
	} cases[] = {
		{"40001", 1205, DB_ERR_RETRY},    /* SQL Server deadlock victim */
		{"40001", 1213, DB_ERR_RETRY},    /* MariaDB C/ODBC deadlock */
		{"HY000", 1213, DB_ERR_RETRY},
		{"HY000", 1205, DB_ERR_RETRY},    /* MariaDB lock wait timeout */
		{"40P01", 1, DB_ERR_RETRY},       /* psqlODBC deadlock */
		{"55P03", 1, DB_ERR_RETRY},       /* psqlODBC lock_timeout */
		{"08S01", 2013, DB_ERR_RECONNECT},
		{"08S01", 35, DB_ERR_RECONNECT},
		{"08003", 0, DB_ERR_RECONNECT},
		{"08001", 101, DB_ERR_RECONNECT},
		{"57P01", 35, DB_ERR_RECONNECT},
		{"HY000", 2002, DB_ERR_RECONNECT},
		{"HY000", 2006, DB_ERR_RECONNECT},
		{"HY000", 2013, DB_ERR_RECONNECT},
		{"42000", 1064, DB_ERR_FATAL},
		{"23000", 1062, DB_ERR_FATAL},
		{"23505", 1, DB_ERR_FATAL},
		{"42S02", 1146, DB_ERR_FATAL},
		{"28000", 18456, DB_ERR_FATAL},
		{"HY000", 1969, DB_ERR_FATAL},
		{"42000", 1205, DB_ERR_FATAL},    /* native codes count under HY000 only */
	};
	static const int extra[] = {1969};
	struct db_conn_params p = {.retry_codes = extra, .n_retry_codes = 1};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(odbc_classify(cases[i].state, cases[i].native, NULL), cases[i].want);
	assert_int_equal(odbc_classify("HY000", 1969, &p), DB_ERR_RETRY);
	assert_int_equal(odbc_classify("", 0, NULL), DB_ERR_FATAL);
}

static void test_odbc_strings(void **state)
{
	char *s;

	(void)state;
	s = odbc_conn_string("Driver={X};Server=h", "p;w}d");
	assert_string_equal(s, "Driver={X};Server=h;PWD={p;w}}d}");
	free(s);
	s = odbc_conn_string("Driver={X};UID=u;", NULL);
	assert_string_equal(s, "Driver={X};UID=u;");
	free(s);
	s = odbc_conn_string("DSN=x;pwd=already", "other");
	assert_string_equal(s, "DSN=x;pwd=already");
	free(s);
	s = odbc_redact("Driver={ODBC Driver 18 for SQL Server};Server=h,1433;UID=u;PWD={se;cret};Encrypt=yes");
	assert_string_equal(s, "Driver={ODBC Driver 18 for SQL Server};Server=h,1433;UID=u;PWD=***;Encrypt=yes");
	free(s);
	s = odbc_redact("Servername=h;Password=x");
	assert_string_equal(s, "Servername=h;Password=***");
	free(s);
}

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
	t = db_bulk_load_sql(sql->stmt[TS_LD_ORDER_LINE]);
	assert_non_null(strstr(t, "SET ol_delivery_d = CASE WHEN @p1 = 1 THEN CURRENT_TIMESTAMP END"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nurand_bounds),  cmocka_unit_test(test_c_delta),
		cmocka_unit_test(test_last_name),      cmocka_unit_test(test_deck_mix),
		cmocka_unit_test(test_delays),         cmocka_unit_test(test_dialects),
		cmocka_unit_test(test_dialect_text),   cmocka_unit_test(test_dialect_detect),
		cmocka_unit_test(test_odbc_classify),  cmocka_unit_test(test_odbc_strings),
		cmocka_unit_test(test_bulk_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
