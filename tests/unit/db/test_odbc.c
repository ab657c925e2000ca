/* Unit tests of db/odbc/ that need no driver: error classes, connection-string redaction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "db/db.h"
#include "db/engine.h"
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

/* A bulk copy sends DATETIME values as DBDATETIME (days since 1900-01-01,
 * 300ths of a second since midnight), not as text; day numbers as SQL Server's
 * CAST(CAST('…' AS DATETIME) AS INT) gives them. */
static void test_bcp_datetime(void **state)
{
	static const struct {
		const char *s;
		int32_t days;
		uint32_t ticks;
	} good[] = {
		{"1900-01-01T00:00:00", 0, 0},
		{"1900-01-02 00:00:01", 1, 300},
		{"1899-12-31T00:00:00", -1, 0},
		{"1753-01-01T00:00:00", -53690, 0},
		{"2000-01-01T00:00:00", 36524, 0},
		{"2024-01-01T00:00:00", 45290, 0},
		{"2024-02-29T12:00:00", 45349, 12960000},
		{"2026-12-02T00:43:50", 46356, (43 * 60 + 50) * 300},
		{"9999-12-31T23:59:59", 2958463, 25919700},
	};
	static const char *const bad[] = {
		"2023-02-29T00:00:00", "1752-12-31T00:00:00", "2024-01-01T24:00:00", "2024-13-01T00:00:00",
		"2024-1-01T00:00:00",  "2024-01-01X00:00:00", "2024-01-01T00:00:0a", "2024-01-01T00:60:00",
		"2024-04-31T00:00:00", "2024-01-00T00:00:00",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int32_t days = 7;
		uint32_t ticks = 7;
		assert_int_equal(odbc_bcp_datetime(good[i].s, strlen(good[i].s), &days, &ticks), 0);
		assert_int_equal(days, good[i].days);
		assert_int_equal(ticks, good[i].ticks);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int32_t days;
		uint32_t ticks;
		assert_int_equal(odbc_bcp_datetime(bad[i], strlen(bad[i]), &days, &ticks), -EINVAL);
	}
	/* Length, not a NUL, ends the value. */
	int32_t days;
	uint32_t ticks;
	assert_int_equal(odbc_bcp_datetime("2000-01-01T00:00:00Z", 19, &days, &ticks), 0);
	assert_int_equal(days, 36524);
	assert_int_equal(odbc_bcp_datetime("2000-01-01T00:00:00Z", 20, &days, &ticks), -EINVAL);
}

/* A DB_TYPE_TIMESTAMP parameter's fields, as ODBC binds them
 * (SQL_TIMESTAMP_STRUCT): each field in its place, both separators. */
static void test_datetime_fields(void **state)
{
	struct odbc_datetime t = {0};

	(void)state;
	assert_int_equal(odbc_datetime_fields("2026-12-02 04:37:59", 19, &t), 0);
	assert_int_equal(t.year, 2026);
	assert_int_equal(t.month, 12);
	assert_int_equal(t.day, 2);
	assert_int_equal(t.hour, 4);
	assert_int_equal(t.minute, 37);
	assert_int_equal(t.second, 59);
	assert_int_equal(odbc_datetime_fields("2024-02-29T23:01:02", 19, &t), 0);
	assert_int_equal(t.month, 2);
	assert_int_equal(t.day, 29);
	assert_int_equal(t.hour, 23);
	assert_int_equal(t.minute, 1);
	assert_int_equal(t.second, 2);
	assert_int_equal(odbc_datetime_fields("2023-02-29 00:00:00", 19, &t), -EINVAL);
	assert_int_equal(odbc_datetime_fields("2024-01-01", 10, &t), -EINVAL);
}

/* The driver check before a campaign boots anything: SQLDrivers over a private
 * odbcinst.ini (ODBCSYSINI); libmysqlclient engines need none. */
static void test_driver_present(void **state)
{
	char dir[] = "/tmp/dbrig-ut-odbcinst.XXXXXX", path[64];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/odbcinst.ini", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[FreeTDS]\nDriver=/nonexistent/libtdsodbc.so\n[ODBC Driver 18 for SQL Server]\nDriver=/nonexistent/x.so\n", f);
	assert_int_equal(fclose(f), 0);
	setenv("ODBCSYSINI", dir, 1);
	assert_int_equal(odbc_driver_installed("FreeTDS"), 1);
	assert_int_equal(odbc_driver_installed("ODBC Driver 17 for SQL Server"), 0);
	assert_int_equal(db_engine_driver_present(&db_engine_sqlserver, NULL), 1);
	assert_int_equal(db_engine_driver_present(&db_engine_sqlserver, "FreeTDS"), 1);
	assert_int_equal(db_engine_driver_present(&db_engine_postgresql, NULL), 0);
	assert_int_equal(db_engine_driver_present(&db_engine_mariadb, NULL), 1);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[FreeTDS]\nDriver=/nonexistent/libtdsodbc.so\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(db_engine_driver_present(&db_engine_sqlserver, NULL), 0);
	unlink(path);
	rmdir(dir);
	unsetenv("ODBCSYSINI");
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

/*
 * A session queued behind psqlODBC handshakes waits for its turn no longer
 * than its login timeout, then gets a reconnectable error (the runner's
 * deadline, --reconnect-timeout and signals are seen between attempts). A
 * holds the connect lock inside a handshake with a server that accepted the
 * TCP connection and never answers; B, with a 1 s login timeout, must give up
 * while A is still inside. Before, B waited on a plain mutex until A's
 * handshake ended (here: until the test released A after 30 s, then B's own
 * connect failed as refused).
 */
struct connect_job {
	const struct db_driver_ops *ops;
	struct db_conn c;
	struct db_conn_params p;
	int rc;
	int done;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *connect_job_run(void *arg)
{
	struct connect_job *j = arg;
	int rc = j->ops->connect(&j->c, &j->p);

	pthread_mutex_lock(&j->mu);
	j->rc = rc;
	j->done = 1;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

static void test_connect_wait_bounded(void **state)
{
	static const char *const libs[] = {"/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so", "/usr/lib/odbc/psqlodbcw.so",
					    "/usr/local/lib/psqlodbcw.so"};
	const char *lib = NULL;
	char dsn[512];
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t salen = sizeof(sa);
	struct connect_job a = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	struct connect_job b = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
	struct timespec until;
	pthread_t ta, tb;
	struct stat st;
	int ls, conn;

	(void)state;
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]) && !lib; i++)
		if (stat(libs[i], &st) == 0)
			lib = libs[i];
	if (!lib)
		fail_msg("psqlodbcw.so is not installed (odbc-postgresql, scripts/deps-tpcc.txt)");
	/* A listener that takes the connection and never answers it. */
	ls = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(ls >= 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(ls, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(ls, 4), 0);
	assert_int_equal(getsockname(ls, (struct sockaddr *)&sa, &salen), 0);
	/* The driver named by its library (no odbcinst.ini: the driver manager
	 * reads that once per process, and another test of this file changed it). */
	snprintf(dsn, sizeof(dsn), "Driver=%s;Server=127.0.0.1;Port=%d;Database=x;UID=u;SSLmode=disable", lib,
		 ntohs(sa.sin_port));
	assert_true(odbc_connect_serialised(dsn));
	a.ops = b.ops = db_driver_find("odbc");
	assert_non_null(a.ops);
	a.p = (struct db_conn_params){.dsn = dsn, .password = "p", .connect_timeout_s = 120};
	b.p = (struct db_conn_params){.dsn = dsn, .password = "p", .connect_timeout_s = 1};
	assert_int_equal(pthread_create(&ta, NULL, connect_job_run, &a), 0);
	/* A is inside its handshake, holding the lock, once its connection is here
	 * (a watchdog of 30 s in case A fails before it connects). */
	{
		struct pollfd pfd = {.fd = ls, .events = POLLIN};
		if (poll(&pfd, 1, 30000) != 1) {
			pthread_join(ta, NULL);
			fail_msg("A never connected: rc %d, %s %s", a.rc, a.c.err.sqlstate, a.c.err.msg);
		}
	}
	conn = accept(ls, NULL, NULL);
	assert_true(conn >= 0);
	assert_int_equal(pthread_create(&tb, NULL, connect_job_run, &b), 0);
	/* A watchdog, not a bound: on the old code B never returned while A waited. */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 30;
	pthread_mutex_lock(&b.mu);
	while (!b.done && pthread_cond_timedwait(&b.cv, &b.mu, &until) == 0)
		;
	pthread_mutex_unlock(&b.mu);
	pthread_mutex_lock(&a.mu);
	assert_false(a.done); /* the answerless handshake still holds A */
	pthread_mutex_unlock(&a.mu);
	close(conn); /* A's handshake ends (EOF), then B's if it was still waiting */
	close(ls);
	assert_int_equal(pthread_join(ta, NULL), 0);
	assert_int_equal(pthread_join(tb, NULL), 0);
	assert_true(a.rc < 0);
	assert_true(b.rc < 0);
	assert_string_equal(b.c.err.sqlstate, "HYT00");
	assert_int_equal(b.c.err.cls, DB_ERR_RECONNECT);
	a.ops->disconnect(&a.c);
	b.ops->disconnect(&b.c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odbc_classify),
		cmocka_unit_test(test_odbc_strings),
		cmocka_unit_test(test_redact_braced_password),
		cmocka_unit_test(test_redact_plain),
		cmocka_unit_test(test_conn_string_round_trip),
		cmocka_unit_test(test_bcp_datetime),
		cmocka_unit_test(test_datetime_fields),
		cmocka_unit_test(test_driver_present),
		cmocka_unit_test(test_connect_serialised),
		cmocka_unit_test(test_connect_wait_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
