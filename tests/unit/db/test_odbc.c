/* Unit tests of db/odbc.c that need no driver: error classes, connection-string redaction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "db/odbc.h"

static void test_odbc_classify(void **state)
{
	static const struct {
		const char *state;
		int native;
		enum db_err_class want;
		enum db_retry_kind why;
	} cases[] = {
		{"40001", 1205, DB_ERR_RETRY, DB_RETRY_DEADLOCK},       /* SQL Server deadlock victim (msodbcsql) */
		{"42000", 1205, DB_ERR_RETRY, DB_RETRY_DEADLOCK},       /* the same through FreeTDS */
		{"42000", 3960, DB_ERR_RETRY, DB_RETRY_SERIALIZATION},  /* SQL Server snapshot update conflict (FreeTDS) */
		{"40001", 1213, DB_ERR_RETRY, DB_RETRY_DEADLOCK},       /* MariaDB C/ODBC deadlock */
		{"40001", 1, DB_ERR_RETRY, DB_RETRY_SERIALIZATION},     /* psqlODBC serialization failure */
		{"HY000", 1213, DB_ERR_RETRY, DB_RETRY_DEADLOCK},
		{"HY000", 1205, DB_ERR_RETRY, DB_RETRY_LOCK_TIMEOUT},   /* MariaDB lock wait timeout */
		{"40P01", 1, DB_ERR_RETRY, DB_RETRY_DEADLOCK},          /* psqlODBC deadlock */
		{"55P03", 1, DB_ERR_RETRY, DB_RETRY_LOCK_TIMEOUT},      /* psqlODBC lock_timeout */
		{"08S01", 2013, DB_ERR_RECONNECT, 0},
		{"08S01", 35, DB_ERR_RECONNECT, 0},
		{"08003", 0, DB_ERR_RECONNECT, 0},
		{"08001", 101, DB_ERR_RECONNECT, 0},
		{"57P01", 35, DB_ERR_RECONNECT, 0},
		{"HY000", 2002, DB_ERR_RECONNECT, 0},
		{"HY000", 2006, DB_ERR_RECONNECT, 0},
		{"HY000", 2013, DB_ERR_RECONNECT, 0},
		{"42000", 1064, DB_ERR_FATAL, 0},
		{"42000", 1213, DB_ERR_FATAL, 0},  /* only SQL Server's 1205 is a deadlock under 42000 */
		{"23000", 1062, DB_ERR_FATAL, 0},
		{"23505", 1, DB_ERR_FATAL, 0},
		{"42S02", 1146, DB_ERR_FATAL, 0},
		{"28000", 18456, DB_ERR_FATAL, 0},
		{"HY000", 1969, DB_ERR_FATAL, 0},
	};
	static const int extra[] = {1969};
	struct db_conn_params p = {.retry_codes = extra, .n_retry_codes = 1};
	enum db_retry_kind why;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why = DB_RETRY_LISTED;
		assert_int_equal(odbc_classify(cases[i].state, cases[i].native, NULL, &why), cases[i].want);
		if (cases[i].want == DB_ERR_RETRY)
			assert_int_equal(why, cases[i].why);
		/* A retry list without them (--retry-errors=1969) changes nothing. */
		if (cases[i].native != 1969)
			assert_int_equal(odbc_classify(cases[i].state, cases[i].native, &p, NULL), cases[i].want);
	}
	assert_int_equal(odbc_classify("HY000", 1969, &p, &why), DB_ERR_RETRY);
	assert_int_equal(why, DB_RETRY_LISTED);
	assert_int_equal(odbc_classify("", 0, NULL, NULL), DB_ERR_FATAL);
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

static void check_redact(const char *in, const char *want)
{
	char *got = odbc_redact(in);
	assert_string_equal(got, want);
	free(got);
}

/*
 * Security review finding 16: inside braces "}}" is an escaped '}', so a
 * braced password ends only at a single '}'. The part after "}}" was printed
 * in messages and stored in the result's engine.endpoint.
 */
static void test_redact_braced_password(void **state)
{
	(void)state;
	check_redact("Driver={NoSuchDriver};Server=127.0.0.1;PWD={se}};cret-tail};UID=u",
		     "Driver={NoSuchDriver};Server=127.0.0.1;PWD=***;UID=u");
	check_redact("PWD={a;b}};c}}}", "PWD=***");
	check_redact("UID=u;Password = {x}}y};Server=s", "UID=u;Password =***;Server=s");
}

static void test_redact_plain(void **state)
{
	(void)state;
	check_redact("DSN=x;UID=u;PWD=secret;Database=d", "DSN=x;UID=u;PWD=***;Database=d");
	check_redact("Driver={MariaDB Unicode};Server=h", "Driver={MariaDB Unicode};Server=h");
	check_redact("pwd=a;;x=y", "pwd=***;;x=y");
	check_redact("", "");
}

/* The password dbrig appends is braced with '}' doubled, and read back whole by the redaction. */
static void test_conn_string_round_trip(void **state)
{
	(void)state;
	char *cs = odbc_conn_string("Driver={D};Server=s", "p}w;d");
	assert_string_equal(cs, "Driver={D};Server=s;PWD={p}}w;d}");
	char *r = odbc_redact(cs);
	assert_string_equal(r, "Driver={D};Server=s;PWD=***");
	free(r);
	free(cs);
	/* A PWD the string already has (even braced with "}}") is not added twice. */
	cs = odbc_conn_string("Driver={D};PWD={a}};b}", "other");
	assert_string_equal(cs, "Driver={D};PWD={a}};b}");
	free(cs);
	/* "PWD" inside a braced value is not a key. */
	cs = odbc_conn_string("Driver={x;PWD=1}", "pw");
	assert_string_equal(cs, "Driver={x;PWD=1};PWD={pw}");
	free(cs);
}

/*
 * security review N6: every driver's connect waited on one process-wide lock,
 * across network timeouts. Only psqlODBC (setlocale() in its connect), or a
 * DSN whose driver is not known, is serialised now.
 */
static void test_connect_serialised(void **state)
{
	(void)state;
	assert_true(odbc_connect_serialised("Driver=PostgreSQL Unicode;Server=127.0.0.1;Port=5432;Database=tpcc"));
	assert_true(odbc_connect_serialised("DRIVER={psqlODBC};SERVER=h"));
	assert_true(odbc_connect_serialised("Server=h;driver = /usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so"));
	assert_true(odbc_connect_serialised("DSN=tpcc;UID=u"));
	assert_false(odbc_connect_serialised("Driver=MariaDB Unicode;Server=127.0.0.1;Database=tpcc"));
	assert_false(odbc_connect_serialised("Driver={ODBC Driver 18 for SQL Server};Server=127.0.0.1,1433"));
	/* a value that only mentions postgres elsewhere does not count */
	assert_false(odbc_connect_serialised("Driver=MariaDB;Database=postgres_copy"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odbc_classify),
		cmocka_unit_test(test_odbc_strings),
		cmocka_unit_test(test_redact_braced_password),
		cmocka_unit_test(test_redact_plain),
		cmocka_unit_test(test_conn_string_round_trip),
		cmocka_unit_test(test_connect_serialised),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
