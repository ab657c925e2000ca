/*
 * ODBC backend (unixODBC): the only file that calls SQL*.
 *
 * One environment and one connection handle per db_conn, so connections
 * share nothing in the driver manager (unixODBC's Threading=0 then lets
 * threads run in parallel). A connection runs with autocommit off (unless
 * the caller asks for it on: TPC-C's procedures end their own
 * transactions): a transaction starts implicitly with its first statement
 * and ends with SQLEndTran, which is how SQL Server, MariaDB Connector/ODBC
 * and psqlODBC all agree to behave; begin() therefore sends nothing.
 *
 * Statements are prepared once with parameters bound to storage the
 * statement owns (an execute copies values and calls SQLExecute, no
 * re-binding). Result sets are read to the end at execute and kept
 * client-side, so fetch never talks to the server and the cursor is closed
 * before the next statement (SQL Server's default result sets allow one
 * active statement per connection).
 *
 * execute_batch binds column-wise parameter arrays (SQL_ATTR_PARAMSET_SIZE):
 * MariaDB Connector/ODBC sends them as one bulk command, SQL Server's driver
 * as one batch.
 *
 * psqlODBC must run with Protocol=7.4-1: its default wraps every statement
 * of a manual-commit transaction in a SAVEPOINT (an extra round trip each)
 * and keeps a transaction alive after a deadlock victim's error.
 */
#define _GNU_SOURCE /* dl_iterate_phdr: find the driver library the driver manager loaded */
#include "db/odbc.h"

#include "core/strbuf.h"
#include "db/rows.h"

#include <sql.h>
#include <sqlext.h>

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <locale.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define STR_PARAM_INITIAL 256
#define COL_STR_BUF 1024

struct od_stmt {
	SQLHSTMT h;
	unsigned nparams, ncols;
	enum db_type *ptypes;
	int32_t *pint32;
	int64_t *pint64;
	double *pdbl;
	char **pstr;
	size_t *pstr_cap;
	SQL_TIMESTAMP_STRUCT *pts;
	SQLLEN *pind;
	bool batch_bound;       /* parameters currently bound to the batch arrays */
	/* batch arrays (column-wise), grown on demand */
	unsigned bcap;
	void **barr;
	size_t *bwidth;          /* string width per param (bytes per row) */
	SQLLEN **bind_arr;
	SQLUSMALLINT *bstatus;
	SQLULEN bprocessed;
	/* result columns */
	enum db_type *ctypes;
	int64_t *cint;
	double *cdbl;
	char **cstr;
	SQLLEN *cind;
	/* buffered rows */
	struct db_rows rows;     /* the result, read to the end at execute */
	struct od_stmt *next;
};

/* SQL Server's bulk-copy API, exported by the driver library (msodbcsql's
 * libmsodbcsql-18.*.so; Debian's FreeTDS 1.3.17 exports none through ODBC):
 * found at connect with dlsym, called with the driver's own connection
 * handle (SQL_DRIVER_HDBC). Constants and signatures as in msodbcsql.h. */
#define BCP_COPT_SS_BCP 1219 /* SQL_COPT_SS_BCP */
#define BCP_ON 1L            /* SQL_BCP_ON */
#define BCP_DB_IN 1
#define BCP_SUCCEED 1
#define BCP_SQLINT4 0x38
#define BCP_SQLFLT8 0x3e
#define BCP_SQLINT8 0x7f
#define BCP_SQLCHARACTER 0x2f
#define BCP_SQLDATETIME 0x3d /* DBDATETIME: days since 1900, 300ths of a second */
#define BCP_VARLEN_DATA (-10)
#define BCP_NULL_DATA (-1)
/* Return types as msodbcsql.h declares them: RETCODE (a short) for every
 * call but bcp_done's DBINT. Declared as int, the upper half of the return
 * register would be whatever the callee left there. */
struct bcp_api {
	RETCODE (*init)(void *hdbc, const char *table, const char *file, const char *errfile, int dir);
	RETCODE (*bind)(void *hdbc, const unsigned char *data, int prefix, int32_t len, const unsigned char *term,
			int termlen, int type, int col);
	RETCODE (*colptr)(void *hdbc, const unsigned char *data, int col);
	RETCODE (*collen)(void *hdbc, int32_t len, int col);
	RETCODE (*sendrow)(void *hdbc);
	int32_t (*done)(void *hdbc);
	void *hdbc; /* the driver's connection handle */
	/* The server's column ordinals of the last table copied into. */
	char table[64];
	unsigned ncols;
	char cols[64][64];
	int ord[64];
	bool datetime[64]; /* a DATETIME column (sys.columns system_type_id 61) */
};
/* A bcp call succeeded: its RETCODE compared as the short it is. */
static bool bcp_ok(RETCODE rc)
{
	return rc == (RETCODE)BCP_SUCCEED;
}

static struct bcp_api *bcp_find(SQLHDBC dbc);

struct od_conn {
	SQLHENV env;
	SQLHDBC dbc;
	SQLHSTMT q;             /* for text queries */
	bool connected;
	struct od_stmt *stmts;
	char dbms[128];
	char version[128];
	struct bcp_api *bcp;    /* NULL: no bulk copy on this connection */
};

/* --- classification (no SQL* calls; unit-tested) --- */

static bool state_is(const char *s, const char *want)
{
	return !strcmp(s, want);
}

static enum db_err_class retry(enum db_retry_kind *why, enum db_retry_kind k)
{
	if (why)
		*why = k;
	return DB_ERR_RETRY;
}

enum db_err_class odbc_classify(const char *sqlstate, int native, const struct db_conn_params *p,
				enum db_retry_kind *why)
{
	const char *s = sqlstate ? sqlstate : "";

	if (!strncmp(s, "08", 2) || state_is(s, "57P01") || state_is(s, "57P02") || state_is(s, "57P03"))
		return DB_ERR_RECONNECT;
	if (state_is(s, "40001"))
		return retry(why, native == 1205 || native == 1213 ? DB_RETRY_DEADLOCK : DB_RETRY_SERIALIZATION);
	if (state_is(s, "40P01"))
		return retry(why, DB_RETRY_DEADLOCK);
	if (state_is(s, "55P03"))
		return retry(why, DB_RETRY_LOCK_TIMEOUT);
	/* FreeTDS maps SQL Server's 1205 to no SQLSTATE of its own: severity 13
	 * becomes 42000 (msodbcsql says 40001). */
	if (state_is(s, "42000") && native == 1205)
		return retry(why, DB_RETRY_DEADLOCK);
	/* SQL Server's snapshot update conflict (3960, severity 16: 42000 on
	 * FreeTDS), reachable with --isolation=snapshot. */
	if (state_is(s, "42000") && native == 3960)
		return retry(why, DB_RETRY_SERIALIZATION);
	if (state_is(s, "HY000")) {
		switch (native) {
		case 1213: /* MariaDB ER_LOCK_DEADLOCK */
			return retry(why, DB_RETRY_DEADLOCK);
		case 1205: /* MariaDB ER_LOCK_WAIT_TIMEOUT */
			return retry(why, DB_RETRY_LOCK_TIMEOUT);
		case 2002: /* CR_CONNECTION_ERROR */
		case 2003: /* CR_CONN_HOST_ERROR */
		case 2006: /* CR_SERVER_GONE_ERROR */
		case 2013: /* CR_SERVER_LOST */
		case 1927: /* ER_CONNECTION_KILLED */
		case 1053: /* ER_SERVER_SHUTDOWN */
			return DB_ERR_RECONNECT;
		default:
			break;
		}
	}
	if (p && native && (p->retry_all || db_code_in_list(native, p->retry_codes, p->n_retry_codes)))
		return retry(why, DB_RETRY_LISTED);
	return DB_ERR_FATAL;
}

/*
 * One attribute of a connection string starting at p ("KEY=value" or
 * "KEY={braced value}"): sets *eq to its '=' (NULL if none) and returns
 * where it ends (its ';' or the NUL). A braced value ends at a single '}':
 * "}}" inside braces is an escaped '}', as in ODBC's grammar and in
 * odbc_conn_string below (taking the first '}' of "PWD={se}};cret}" as
 * the end would print "cret}" unredacted).
 */
static const char *attr_end(const char *p, const char **eq)
{
	*eq = NULL;
	for (; *p && *p != ';'; p++) {
		if (*p != '=')
			continue;
		*eq = p++;
		while (*p == ' ')
			p++;
		if (*p == '{') {
			for (p++; *p; p++) {
				if (*p == '}' && p[1] == '}')
					p++;
				else if (*p == '}')
					break;
			}
			if (*p)
				p++;
		}
		while (*p && *p != ';')
			p++;
		break;
	}
	return p;
}

/* Is k (kl bytes, surrounding spaces allowed) the key `key`? */
static bool key_is(const char *k, size_t kl, const char *key)
{
	size_t n = strlen(key);

	while (kl && *k == ' ')
		k++, kl--;
	while (kl && k[kl - 1] == ' ')
		kl--;
	return kl == n && !strncasecmp(k, key, n);
}

static bool has_key(const char *cs, const char *key)
{
	for (const char *p = cs; *p;) {
		const char *eq, *end = attr_end(p, &eq);
		if (eq && key_is(p, (size_t)(eq - p), key))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

char *odbc_conn_string(const char *connect, const char *password)
{
	struct strbuf sb;
	size_t n = strlen(connect);

	strbuf_init(&sb, n + 64);
	strbuf_add(&sb, connect, n);
	if (password && !has_key(connect, "PWD") && !has_key(connect, "Password")) {
		if (n && connect[n - 1] != ';')
			strbuf_addc(&sb, ';');
		strbuf_adds(&sb, "PWD={");
		for (const char *p = password; *p; p++) {
			if (*p == '}')
				strbuf_addc(&sb, '}');
			strbuf_addc(&sb, *p);
		}
		strbuf_addc(&sb, '}');
	}
	return strbuf_detach(&sb);
}

char *odbc_redact(const char *cs)
{
	struct strbuf sb;
	const char *p = cs;

	strbuf_init(&sb, strlen(cs) + 8);
	while (*p) {
		const char *eq, *end = attr_end(p, &eq);
		if (eq && (key_is(p, (size_t)(eq - p), "PWD") || key_is(p, (size_t)(eq - p), "Password"))) {
			strbuf_add(&sb, p, (size_t)(eq - p) + 1);
			strbuf_adds(&sb, "***");
		} else {
			strbuf_add(&sb, p, (size_t)(end - p));
		}
		p = end;
		if (*p == ';') {
			strbuf_addc(&sb, ';');
			p++;
		}
	}
	return strbuf_detach(&sb);
}

/* --- diagnostics --- */

static bool ok(SQLRETURN rc)
{
	return rc == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO;
}

/* Fill c->err from the handle's diagnostic records: the first record that
 * is not a warning (class 01) names the error; messages are joined. */
static int diag(struct db_conn *c, SQLSMALLINT type, SQLHANDLE h, const char *what)
{
	struct od_conn *o = c->priv;
	SQLCHAR state[6], msg[512];
	SQLINTEGER native;
	SQLSMALLINT len;
	bool have = false;

	memset(&c->err, 0, sizeof(c->err));
	for (SQLSMALLINT i = 1; i <= 8; i++) {
		if (!ok(SQLGetDiagRec(type, h, i, state, &native, msg, sizeof(msg), &len)))
			break;
		if (have && !strncmp((char *)state, "01", 2))
			continue;
		if (!have || !strncmp(c->err.sqlstate, "01", 2)) {
			snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "%s", (char *)state);
			c->err.native = (int)native;
			snprintf(c->err.msg, sizeof(c->err.msg), "%s", (char *)msg);
			have = true;
		}
	}
	if (!have) {
		snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "HY000");
		snprintf(c->err.msg, sizeof(c->err.msg), "%s failed without a diagnostic record", what);
	}
	c->err.cls = odbc_classify(c->err.sqlstate, c->err.native, c->params, &c->err.retry);
	if (c->err.cls == DB_ERR_FATAL && o && o->connected) {
		SQLUINTEGER dead = SQL_CD_FALSE;
		if (ok(SQLGetConnectAttr(o->dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL)) && dead == SQL_CD_TRUE)
			c->err.cls = DB_ERR_RECONNECT;
	}
	return -1;
}

static int stmt_diag(struct db_conn *c, SQLHSTMT h, const char *what)
{
	return diag(c, SQL_HANDLE_STMT, h, what);
}

/* --- connection --- */

static int od_global_init(void)
{
	return 0;
}

/* msodbcsql.h's value for SQL Server's SNAPSHOT level (not in unixODBC's
 * headers; FreeTDS takes the same value). */
#ifndef SQL_TXN_SS_SNAPSHOT
#define SQL_TXN_SS_SNAPSHOT 0x00000020L
#endif

static SQLUINTEGER iso_attr(enum db_isolation i)
{
	switch (i) {
	case DB_ISO_DEFAULT:
		return 0;
	case DB_ISO_READ_COMMITTED:
		return SQL_TXN_READ_COMMITTED;
	case DB_ISO_REPEATABLE_READ:
		return SQL_TXN_REPEATABLE_READ;
	case DB_ISO_SERIALIZABLE:
		return SQL_TXN_SERIALIZABLE;
	case DB_ISO_SNAPSHOT:
		return SQL_TXN_SS_SNAPSHOT;
	}
	return 0;
}

/* od_connect: the handshakes of drivers that need it, one at a time. */
static pthread_mutex_t connect_mu = PTHREAD_MUTEX_INITIALIZER;

bool odbc_connect_serialised(const char *connect)
{
	const char *p = connect;

	for (; *p; p++) {
		if ((p == connect || p[-1] == ';' || p[-1] == ' ') && !strncasecmp(p, "DRIVER", 6)) {
			const char *v = p + 6, *end;
			while (*v == ' ')
				v++;
			if (*v != '=')
				continue;
			v++;
			end = v + strcspn(v, ";");
			for (const char *q = v; q < end; q++)
				if (!strncasecmp(q, "psql", 4) || !strncasecmp(q, "postgres", 8))
					return true;
			return false;
		}
	}
	return true; /* a DSN: its driver is not known here */
}

/*
 * The calling thread reads numbers in the "C" locale of its own (uselocale):
 * psqlODBC's statement path calls localeconv() while another thread's connect
 * may be inside setlocale(), which changes only the global locale.
 */
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;
static _Thread_local bool thread_locale;

static void make_c_locale(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

static void own_locale(void)
{
	if (thread_locale)
		return;
	pthread_once(&c_locale_once, make_c_locale);
	if (c_locale)
		uselocale(c_locale);
	thread_locale = true;
}

static int od_connect(struct db_conn *c, const struct db_conn_params *p)
{
	struct od_conn *o = xcalloc(1, sizeof(*o));
	char *cs = NULL;
	SQLSMALLINT outlen;
	SQLRETURN rc;
	int ret = -1;

	c->priv = o;
	c->params = p;
	memset(&c->err, 0, sizeof(c->err));
	if (!p->dsn) {
		snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "HY000");
		snprintf(c->err.msg, sizeof(c->err.msg), "no ODBC connection string (--odbc-connect)");
		c->err.cls = DB_ERR_FATAL;
		goto out;
	}
	if (!ok(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &o->env))) {
		snprintf(c->err.msg, sizeof(c->err.msg), "SQLAllocHandle(ENV) failed: is unixODBC installed?");
		c->err.cls = DB_ERR_FATAL;
		goto out;
	}
	SQLSetEnvAttr(o->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
	if (!ok(SQLAllocHandle(SQL_HANDLE_DBC, o->env, &o->dbc))) {
		diag(c, SQL_HANDLE_ENV, o->env, "SQLAllocHandle(DBC)");
		goto out;
	}
	if (p->connect_timeout_s)
		SQLSetConnectAttr(o->dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)(uintptr_t)p->connect_timeout_s, 0);
	/* The bcp API works only on a connection that asked for it before
	 * connecting; a driver that does not know the attribute refuses it. */
	if (p->bulk_copy)
		SQLSetConnectAttr(o->dbc, BCP_COPT_SS_BCP, (SQLPOINTER)BCP_ON, SQL_IS_INTEGER);
	cs = odbc_conn_string(p->dsn, p->password);
	/*
	 * psqlODBC's SQLDriverConnect, one at a time in the process: it calls
	 * setlocale() while it connects, and setlocale is not thread-safe: two
	 * connector threads connecting at once read the locale name another had
	 * just freed (ASan: heap-use-after-free under strchr in psqlodbcw.so, in
	 * the 250-session run of tpcc_odbc_postgres). Other drivers (MariaDB,
	 * SQL Server) connect in parallel. The wait for the lock is bounded by
	 * the login timeout: a session queued behind handshakes to a host that
	 * drops packets gets a reconnectable error, so the runner's deadline,
	 * --reconnect-timeout and signals are seen between attempts.
	 */
	own_locale();
	{
		bool serial = odbc_connect_serialised(p->dsn);
		if (serial) {
			struct timespec until;
			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_sec += p->connect_timeout_s ? p->connect_timeout_s : 10;
			if (pthread_mutex_timedlock(&connect_mu, &until) != 0) {
				memset(cs, 0, strlen(cs));
				snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "HYT00");
				snprintf(c->err.msg, sizeof(c->err.msg),
					 "waited %us for the connects queued before this one (psqlODBC connects one at a "
					 "time)", p->connect_timeout_s ? p->connect_timeout_s : 10);
				c->err.cls = DB_ERR_RECONNECT;
				goto out;
			}
		}
		rc = SQLDriverConnect(o->dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, &outlen, SQL_DRIVER_NOPROMPT);
		if (serial)
			pthread_mutex_unlock(&connect_mu);
	}
	memset(cs, 0, strlen(cs));
	if (!ok(rc)) {
		diag(c, SQL_HANDLE_DBC, o->dbc, "SQLDriverConnect");
		goto out;
	}
	o->connected = true;
	if (!ok(SQLSetConnectAttr(o->dbc, SQL_ATTR_AUTOCOMMIT,
				  (SQLPOINTER)(uintptr_t)(p->autocommit ? SQL_AUTOCOMMIT_ON : SQL_AUTOCOMMIT_OFF), 0))) {
		diag(c, SQL_HANDLE_DBC, o->dbc, "SQLSetConnectAttr(AUTOCOMMIT)");
		goto out;
	}
	if (p->isolation != DB_ISO_DEFAULT &&
	    !ok(SQLSetConnectAttr(o->dbc, SQL_ATTR_TXN_ISOLATION, (SQLPOINTER)(uintptr_t)iso_attr(p->isolation), 0))) {
		diag(c, SQL_HANDLE_DBC, o->dbc, "SQLSetConnectAttr(TXN_ISOLATION)");
		goto out;
	}
	if (!ok(SQLAllocHandle(SQL_HANDLE_STMT, o->dbc, &o->q))) {
		diag(c, SQL_HANDLE_DBC, o->dbc, "SQLAllocHandle(STMT)");
		goto out;
	}
	SQLGetInfo(o->dbc, SQL_DBMS_NAME, o->dbms, sizeof(o->dbms), NULL);
	SQLGetInfo(o->dbc, SQL_DBMS_VER, o->version, sizeof(o->version), NULL);
	if (p->bulk_copy)
		o->bcp = bcp_find(o->dbc);
	ret = 0;
out:
	free(cs);
	return ret;
}

/* dl_iterate_phdr: the loaded object whose file name is the driver's. */
struct find_lib {
	const char *base;
	char path[1024];
};

static int find_lib_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find_lib *f = arg;
	const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	(void)size;
	if (slash && !strcmp(slash + 1, f->base)) {
		snprintf(f->path, sizeof(f->path), "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

/* The bcp functions of the driver this connection loaded, or NULL. */
static struct bcp_api *bcp_find(SQLHDBC dbc)
{
	struct find_lib f = {.base = NULL, .path = ""};
	char name[256] = "";
	SQLHDBC drv_hdbc = NULL;
	struct bcp_api api, *out;
	void *lib;

	if (!ok(SQLGetInfo(dbc, SQL_DRIVER_NAME, name, sizeof(name), NULL)) ||
	    !ok(SQLGetInfo(dbc, SQL_DRIVER_HDBC, &drv_hdbc, sizeof(drv_hdbc), NULL)) || !drv_hdbc)
		return NULL;
	f.base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	dl_iterate_phdr(find_lib_cb, &f);
	lib = dlopen(f.path[0] ? f.path : name, RTLD_NOW | RTLD_NOLOAD);
	if (!lib)
		return NULL;
	/* dlsym returns object pointers; POSIX lets them be used as functions. */
	*(void **)&api.init = dlsym(lib, "bcp_initA");
	*(void **)&api.bind = dlsym(lib, "bcp_bind");
	*(void **)&api.colptr = dlsym(lib, "bcp_colptr");
	*(void **)&api.collen = dlsym(lib, "bcp_collen");
	*(void **)&api.sendrow = dlsym(lib, "bcp_sendrow");
	*(void **)&api.done = dlsym(lib, "bcp_done");
	dlclose(lib); /* RTLD_NOLOAD took a reference; the driver manager keeps its own */
	if (!api.init || !api.bind || !api.colptr || !api.collen || !api.sendrow || !api.done)
		return NULL;
	api.hdbc = drv_hdbc;
	out = xmalloc(sizeof(*out));
	*out = api;
	return out;
}

static void stmt_free(struct od_stmt *s)
{
	if (s->h)
		SQLFreeHandle(SQL_HANDLE_STMT, s->h);
	for (unsigned i = 0; i < s->nparams; i++) {
		free(s->pstr[i]);
		if (s->barr)
			free(s->barr[i]);
		if (s->bind_arr)
			free(s->bind_arr[i]);
	}
	for (unsigned i = 0; i < s->ncols; i++)
		free(s->cstr[i]);
	free(s->ptypes);
	free(s->pint32);
	free(s->pint64);
	free(s->pdbl);
	free(s->pstr);
	free(s->pstr_cap);
	free(s->pts);
	free(s->pind);
	free(s->barr);
	free(s->bwidth);
	free(s->bind_arr);
	free(s->bstatus);
	free(s->ctypes);
	free(s->cint);
	free(s->cdbl);
	free(s->cstr);
	free(s->cind);
	db_rows_release(&s->rows);
	free(s);
}

static void od_disconnect(struct db_conn *c)
{
	struct od_conn *o = c->priv;

	if (!o)
		return;
	/* SQLDisconnect frees a connection's statements. Freeing them one by
	 * one first costs unixODBC 2.3.11 a scan of every statement handle in
	 * the process for each of a statement's four descriptors
	 * (__release_desc): 10 ms per statement with 800 connections of 31
	 * statements, hours for a run of 15,000 sessions. */
	while (o->stmts) {
		struct od_stmt *n = o->stmts->next;
		if (o->connected)
			o->stmts->h = NULL;
		stmt_free(o->stmts);
		o->stmts = n;
	}
	if (o->q && !o->connected)
		SQLFreeHandle(SQL_HANDLE_STMT, o->q);
	if (o->connected) {
		/* A transaction left open is rolled back, not committed. */
		SQLEndTran(SQL_HANDLE_DBC, o->dbc, SQL_ROLLBACK);
		SQLDisconnect(o->dbc);
	}
	if (o->dbc)
		SQLFreeHandle(SQL_HANDLE_DBC, o->dbc);
	if (o->env)
		SQLFreeHandle(SQL_HANDLE_ENV, o->env);
	free(o->bcp);
	free(o);
	c->priv = NULL;
}

static const char *od_server_version(struct db_conn *c)
{
	struct od_conn *o = c->priv;

	return o->version;
}

static const char *od_dbms_name(struct db_conn *c)
{
	struct od_conn *o = c->priv;

	return o->dbms[0] ? o->dbms : NULL;
}

/* Affected rows or, for a result set, rows read to the end and discarded. */
static int drain_result(struct db_conn *c, SQLHSTMT h, struct db_exec_result *r)
{
	SQLSMALLINT ncols = 0;
	SQLLEN affected = 0;
	SQLRETURN rc;
	uint64_t rows = 0;

	if (!ok(SQLNumResultCols(h, &ncols)))
		return stmt_diag(c, h, "SQLNumResultCols");
	if (ncols > 0) {
		while ((rc = SQLFetch(h)) != SQL_NO_DATA) {
			if (!ok(rc))
				return stmt_diag(c, h, "SQLFetch");
			rows++;
		}
		if (r) {
			r->kind = DB_QUERY_READ;
			r->rows = rows;
		}
	} else if (r) {
		/* -1 is "not known" (NOCOUNT on), not "nothing": callers that
		 * depend on the count (Delivery's DELETE) must not read it as 0. */
		if (!ok(SQLRowCount(h, &affected)) || affected < 0) {
			r->rows = DB_ROWS_UNKNOWN;
			r->kind = DB_QUERY_OTHER;
		} else {
			r->rows = (uint64_t)affected;
			r->kind = affected > 0 ? DB_QUERY_WRITE : DB_QUERY_OTHER;
		}
	}
	/* Further result sets (a batch of several statements) are skipped. */
	while ((rc = SQLMoreResults(h)) != SQL_NO_DATA)
		if (!ok(rc))
			return stmt_diag(c, h, "SQLMoreResults");
	SQLFreeStmt(h, SQL_CLOSE);
	return 0;
}

static int od_query(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r)
{
	struct od_conn *o = c->priv;
	SQLRETURN rc;

	rc = SQLExecDirect(o->q, (SQLCHAR *)sql, (SQLINTEGER)len);
	if (rc == SQL_NO_DATA) {
		if (r) {
			r->kind = DB_QUERY_OTHER;
			r->rows = 0;
		}
		SQLFreeStmt(o->q, SQL_CLOSE);
		return 0;
	}
	if (!ok(rc)) {
		stmt_diag(c, o->q, "SQLExecDirect");
		SQLFreeStmt(o->q, SQL_CLOSE);
		return -1;
	}
	if (drain_result(c, o->q, r) < 0) {
		SQLFreeStmt(o->q, SQL_CLOSE);
		return -1;
	}
	return 0;
}

static SQLSMALLINT c_type(enum db_type t)
{
	switch (t) {
	case DB_TYPE_INT32:
		return SQL_C_SLONG;
	case DB_TYPE_INT64:
		return SQL_C_SBIGINT;
	case DB_TYPE_DOUBLE:
		return SQL_C_DOUBLE;
	case DB_TYPE_STRING:
		return SQL_C_CHAR;
	case DB_TYPE_TIMESTAMP:
		return SQL_C_TYPE_TIMESTAMP;
	}
	return SQL_C_CHAR;
}

static SQLSMALLINT sql_type(enum db_type t)
{
	switch (t) {
	case DB_TYPE_INT32:
		return SQL_INTEGER;
	case DB_TYPE_INT64:
		return SQL_BIGINT;
	case DB_TYPE_DOUBLE:
		return SQL_DOUBLE;
	case DB_TYPE_STRING:
		return SQL_VARCHAR;
	case DB_TYPE_TIMESTAMP:
		return SQL_TYPE_TIMESTAMP;
	}
	return SQL_VARCHAR;
}

/* SQL_TYPE_TIMESTAMP's column size with no fractional seconds
 * ("yyyy-mm-dd hh:mm:ss", ODBC appendix D). */
#define TS_COLUMN_SIZE 19

/* A DB_TYPE_TIMESTAMP value (its text) as the struct ODBC binds. */
static int to_timestamp(struct db_conn *c, const struct db_value *v, unsigned param, SQL_TIMESTAMP_STRUCT *ts)
{
	struct odbc_datetime t;

	if (odbc_datetime_fields(v->s, v->len, &t) < 0) {
		snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "22007");
		snprintf(c->err.msg, sizeof(c->err.msg),
			 "parameter %u: \"%.*s\" is not a date and time (expected YYYY-MM-DD hh:mm:ss)", param + 1,
			 (int)(v->len > 40 ? 40 : v->len), v->s ? v->s : "");
		c->err.native = 0;
		c->err.cls = DB_ERR_FATAL;
		return -1;
	}
	*ts = (SQL_TIMESTAMP_STRUCT){.year = (SQLSMALLINT)t.year,
				     .month = (SQLUSMALLINT)t.month,
				     .day = (SQLUSMALLINT)t.day,
				     .hour = (SQLUSMALLINT)t.hour,
				     .minute = (SQLUSMALLINT)t.minute,
				     .second = (SQLUSMALLINT)t.second,
				     .fraction = 0};
	return 0;
}

/* Bind parameter i to the single-row storage. */
static SQLRETURN bind_one(struct od_stmt *s, unsigned i)
{
	SQLPOINTER buf = NULL;
	SQLULEN size = 0;
	SQLLEN buflen = 0;

	switch (s->ptypes[i]) {
	case DB_TYPE_INT32:
		buf = &s->pint32[i];
		break;
	case DB_TYPE_INT64:
		buf = &s->pint64[i];
		break;
	case DB_TYPE_DOUBLE:
		buf = &s->pdbl[i];
		break;
	case DB_TYPE_STRING:
		buf = s->pstr[i];
		buflen = (SQLLEN)s->pstr_cap[i];
		size = s->pstr_cap[i];
		break;
	case DB_TYPE_TIMESTAMP:
		buf = &s->pts[i];
		buflen = sizeof(s->pts[i]);
		size = TS_COLUMN_SIZE;
		break;
	}
	return SQLBindParameter(s->h, (SQLUSMALLINT)(i + 1), SQL_PARAM_INPUT, c_type(s->ptypes[i]),
				sql_type(s->ptypes[i]), size, 0, buf, buflen, &s->pind[i]);
}

static int bind_single(struct db_conn *c, struct od_stmt *s)
{
	if (s->batch_bound) {
		SQLSetStmtAttr(s->h, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)1, 0);
		SQLSetStmtAttr(s->h, SQL_ATTR_PARAM_STATUS_PTR, NULL, 0);
		SQLSetStmtAttr(s->h, SQL_ATTR_PARAMS_PROCESSED_PTR, NULL, 0);
		s->batch_bound = false;
	}
	for (unsigned i = 0; i < s->nparams; i++)
		if (!ok(bind_one(s, i)))
			return stmt_diag(c, s->h, "SQLBindParameter");
	return 0;
}

static int od_prepare(struct db_conn *c, const char *sql, const enum db_type *params, unsigned nparams,
		      const enum db_type *cols, unsigned ncols, struct db_stmt **out)
{
	struct od_conn *o = c->priv;
	struct od_stmt *s = xcalloc(1, sizeof(*s));
	SQLSMALLINT n = 0;
	int ret = -1;

	db_rows_init(&s->rows, NULL, 0);
	if (!ok(SQLAllocHandle(SQL_HANDLE_STMT, o->dbc, &s->h))) {
		s->h = NULL;
		diag(c, SQL_HANDLE_DBC, o->dbc, "SQLAllocHandle(STMT)");
		goto out;
	}
	if (!ok(SQLPrepare(s->h, (SQLCHAR *)sql, SQL_NTS))) {
		stmt_diag(c, s->h, "SQLPrepare");
		goto out;
	}
	if (ok(SQLNumParams(s->h, &n)) && (unsigned)n != nparams) {
		snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "HY000");
		snprintf(c->err.msg, sizeof(c->err.msg),
			 "prepared statement has %d parameters, the workload binds %u: %.200s", n, nparams, sql);
		c->err.native = 0;
		c->err.cls = DB_ERR_FATAL;
		goto out;
	}
	s->nparams = nparams;
	s->ptypes = xcalloc(nparams, sizeof(*s->ptypes));
	s->pint32 = xcalloc(nparams, sizeof(*s->pint32));
	s->pint64 = xcalloc(nparams, sizeof(*s->pint64));
	s->pdbl = xcalloc(nparams, sizeof(*s->pdbl));
	s->pstr = xcalloc(nparams, sizeof(*s->pstr));
	s->pstr_cap = xcalloc(nparams, sizeof(*s->pstr_cap));
	s->pts = xcalloc(nparams, sizeof(*s->pts));
	s->pind = xcalloc(nparams, sizeof(*s->pind));
	for (unsigned i = 0; i < nparams; i++) {
		s->ptypes[i] = params[i];
		if (params[i] == DB_TYPE_STRING) {
			s->pstr_cap[i] = STR_PARAM_INITIAL;
			s->pstr[i] = xmalloc(STR_PARAM_INITIAL);
		}
	}
	if (bind_single(c, s) < 0)
		goto out;
	if (ncols > 64) {
		snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "HY000");
		snprintf(c->err.msg, sizeof(c->err.msg), "a statement with %u result columns (at most 64)", ncols);
		c->err.native = 0;
		c->err.cls = DB_ERR_FATAL;
		goto out;
	}
	s->ncols = ncols;
	s->ctypes = xcalloc(ncols, sizeof(*s->ctypes));
	s->rows.types = s->ctypes;
	s->rows.ncols = ncols;
	s->cint = xcalloc(ncols, sizeof(*s->cint));
	s->cdbl = xcalloc(ncols, sizeof(*s->cdbl));
	s->cstr = xcalloc(ncols, sizeof(*s->cstr));
	s->cind = xcalloc(ncols, sizeof(*s->cind));
	for (unsigned i = 0; i < ncols; i++) {
		SQLRETURN rc = SQL_SUCCESS;
		SQLUSMALLINT col = (SQLUSMALLINT)(i + 1);
		s->ctypes[i] = cols[i];
		switch (cols[i]) {
		case DB_TYPE_INT32:
		case DB_TYPE_INT64:
			rc = SQLBindCol(s->h, col, SQL_C_SBIGINT, &s->cint[i], 0, &s->cind[i]);
			break;
		case DB_TYPE_DOUBLE:
			rc = SQLBindCol(s->h, col, SQL_C_DOUBLE, &s->cdbl[i], 0, &s->cind[i]);
			break;
		case DB_TYPE_STRING:
		case DB_TYPE_TIMESTAMP: /* read as its text */
			s->cstr[i] = xmalloc(COL_STR_BUF + 1);
			rc = SQLBindCol(s->h, col, SQL_C_CHAR, s->cstr[i], COL_STR_BUF + 1, &s->cind[i]);
			break;
		}
		if (!ok(rc)) {
			stmt_diag(c, s->h, "SQLBindCol");
			goto out;
		}
	}
	s->next = o->stmts;
	o->stmts = s;
	*out = (struct db_stmt *)s;
	s = NULL;
	ret = 0;
out:
	if (s)
		stmt_free(s);
	return ret;
}

static int set_params(struct db_conn *c, struct od_stmt *s, const struct db_value *v)
{
	bool rebind = s->batch_bound;

	for (unsigned i = 0; i < s->nparams; i++) {
		s->pind[i] = v[i].is_null ? SQL_NULL_DATA : 0;
		switch (s->ptypes[i]) {
		case DB_TYPE_INT32:
			s->pint32[i] = (int32_t)v[i].i;
			break;
		case DB_TYPE_INT64:
			s->pint64[i] = v[i].i;
			break;
		case DB_TYPE_DOUBLE:
			s->pdbl[i] = v[i].d;
			break;
		case DB_TYPE_STRING:
			if (v[i].len > s->pstr_cap[i]) {
				s->pstr_cap[i] = v[i].len * 2;
				s->pstr[i] = xrealloc(s->pstr[i], s->pstr_cap[i]);
				rebind = true;
			}
			memcpy(s->pstr[i], v[i].s, v[i].len);
			if (!v[i].is_null)
				s->pind[i] = (SQLLEN)v[i].len;
			break;
		case DB_TYPE_TIMESTAMP:
			if (!v[i].is_null && to_timestamp(c, &v[i], i, &s->pts[i]) < 0)
				return -1;
			break;
		}
	}
	return rebind ? bind_single(c, s) : 0;
}

static void keep_row(struct od_stmt *s)
{
	struct db_value v[64];

	for (unsigned i = 0; i < s->ncols && i < 64; i++) {
		v[i] = (struct db_value){.type = s->ctypes[i], .is_null = s->cind[i] == SQL_NULL_DATA};
		switch (s->ctypes[i]) {
		case DB_TYPE_INT32:
		case DB_TYPE_INT64:
			v[i].i = s->cint[i];
			break;
		case DB_TYPE_DOUBLE:
			v[i].d = s->cdbl[i];
			break;
		case DB_TYPE_STRING:
		case DB_TYPE_TIMESTAMP:
			v[i].s = s->cstr[i];
			if (!v[i].is_null)
				v[i].len = (s->cind[i] < 0 || s->cind[i] > COL_STR_BUF) ? COL_STR_BUF : (size_t)s->cind[i];
			break;
		}
	}
	db_rows_add(&s->rows, v);
}

/* After a successful SQLExecute: read the result set (if any) to the end. */
static int collect(struct db_conn *c, struct od_stmt *s, SQLRETURN xrc, struct db_exec_result *r)
{
	SQLSMALLINT ncols = 0;
	SQLRETURN rc;

	db_rows_reset(&s->rows);
	if (xrc == SQL_NO_DATA) { /* searched UPDATE/DELETE that matched nothing */
		r->kind = DB_QUERY_OTHER;
		r->rows = 0;
		return 0;
	}
	if (s->ncols == 0)
		return drain_result(c, s->h, r);
	if (!ok(SQLNumResultCols(s->h, &ncols)))
		return stmt_diag(c, s->h, "SQLNumResultCols");
	if (ncols == 0)
		return drain_result(c, s->h, r);
	while ((rc = SQLFetch(s->h)) != SQL_NO_DATA) {
		if (!ok(rc)) {
			stmt_diag(c, s->h, "SQLFetch");
			SQLFreeStmt(s->h, SQL_CLOSE);
			return -1;
		}
		keep_row(s);
	}
	SQLFreeStmt(s->h, SQL_CLOSE);
	r->kind = DB_QUERY_READ;
	r->rows = s->rows.nrows;
	return 0;
}

static int od_execute(struct db_conn *c, struct db_stmt *st, const struct db_value *params, struct db_exec_result *r)
{
	struct od_stmt *s = (struct od_stmt *)st;
	SQLRETURN rc;

	db_rows_reset(&s->rows);
	if (s->nparams && set_params(c, s, params) < 0)
		return -1;
	rc = SQLExecute(s->h);
	if (!ok(rc) && rc != SQL_NO_DATA) {
		stmt_diag(c, s->h, "SQLExecute");
		SQLFreeStmt(s->h, SQL_CLOSE);
		return -1;
	}
	return collect(c, s, rc, r);
}

static int od_fetch(struct db_conn *c, struct db_stmt *st, struct db_value *cols)
{
	(void)c;
	return db_rows_next(&((struct od_stmt *)st)->rows, cols);
}

/* Bind the column-wise arrays for `nrows` rows, growing them as needed. */
static int bind_batch(struct db_conn *c, struct od_stmt *s, const struct db_value *rows, unsigned nrows)
{
	bool grow = nrows > s->bcap;

	if (!s->barr) {
		s->barr = xcalloc(s->nparams, sizeof(*s->barr));
		s->bwidth = xcalloc(s->nparams, sizeof(*s->bwidth));
		s->bind_arr = xcalloc(s->nparams, sizeof(*s->bind_arr));
	}
	if (grow) {
		s->bcap = nrows;
		s->bstatus = xrealloc(s->bstatus, nrows * sizeof(*s->bstatus));
	}
	for (unsigned i = 0; i < s->nparams; i++) {
		size_t width = 0, elem = 0;
		switch (s->ptypes[i]) {
		case DB_TYPE_INT32:
			elem = sizeof(int32_t);
			break;
		case DB_TYPE_INT64:
			elem = sizeof(int64_t);
			break;
		case DB_TYPE_DOUBLE:
			elem = sizeof(double);
			break;
		case DB_TYPE_STRING:
			for (unsigned k = 0; k < nrows; k++)
				if (rows[(size_t)k * s->nparams + i].len > width)
					width = rows[(size_t)k * s->nparams + i].len;
			width = width < 16 ? 16 : width;
			elem = width;
			break;
		case DB_TYPE_TIMESTAMP:
			elem = sizeof(SQL_TIMESTAMP_STRUCT);
			break;
		}
		if (grow || width > s->bwidth[i]) {
			if (width > s->bwidth[i])
				s->bwidth[i] = width;
			if (s->ptypes[i] == DB_TYPE_STRING)
				elem = s->bwidth[i];
			s->barr[i] = xrealloc(s->barr[i], (size_t)s->bcap * elem);
			s->bind_arr[i] = xrealloc(s->bind_arr[i], (size_t)s->bcap * sizeof(SQLLEN));
		}
		if (s->ptypes[i] == DB_TYPE_STRING)
			elem = s->bwidth[i];
		for (unsigned k = 0; k < nrows; k++) {
			const struct db_value *v = &rows[(size_t)k * s->nparams + i];
			char *dst = (char *)s->barr[i] + (size_t)k * elem;
			s->bind_arr[i][k] = v->is_null ? SQL_NULL_DATA : 0;
			switch (s->ptypes[i]) {
			case DB_TYPE_INT32: {
				int32_t x = (int32_t)v->i;
				memcpy(dst, &x, sizeof(x));
				break;
			}
			case DB_TYPE_INT64:
				memcpy(dst, &v->i, sizeof(v->i));
				break;
			case DB_TYPE_DOUBLE:
				memcpy(dst, &v->d, sizeof(v->d));
				break;
			case DB_TYPE_STRING:
				memcpy(dst, v->s, v->len);
				if (!v->is_null)
					s->bind_arr[i][k] = (SQLLEN)v->len;
				break;
			case DB_TYPE_TIMESTAMP: {
				SQL_TIMESTAMP_STRUCT ts = {0};
				if (!v->is_null && to_timestamp(c, v, i, &ts) < 0)
					return -1;
				memcpy(dst, &ts, sizeof(ts));
				break;
			}
			}
		}
		if (!ok(SQLBindParameter(s->h, (SQLUSMALLINT)(i + 1), SQL_PARAM_INPUT, c_type(s->ptypes[i]),
					 sql_type(s->ptypes[i]),
					 s->ptypes[i] == DB_TYPE_STRING ? elem
					 : s->ptypes[i] == DB_TYPE_TIMESTAMP ? TS_COLUMN_SIZE
									     : 0,
					 0,
					 s->barr[i], s->ptypes[i] == DB_TYPE_STRING || s->ptypes[i] == DB_TYPE_TIMESTAMP ? (SQLLEN)elem : 0,
					 s->bind_arr[i])))
			return stmt_diag(c, s->h, "SQLBindParameter");
	}
	SQLSetStmtAttr(s->h, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)SQL_PARAM_BIND_BY_COLUMN, 0);
	SQLSetStmtAttr(s->h, SQL_ATTR_PARAM_STATUS_PTR, s->bstatus, 0);
	SQLSetStmtAttr(s->h, SQL_ATTR_PARAMS_PROCESSED_PTR, &s->bprocessed, 0);
	if (!ok(SQLSetStmtAttr(s->h, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(uintptr_t)nrows, 0)))
		return stmt_diag(c, s->h, "SQLSetStmtAttr(PARAMSET_SIZE)");
	s->batch_bound = true;
	return 0;
}

/* A parameter array is checked row by row: the status of every row (a
 * driver may carry on past a failed row, or skip the rest: SQL_PARAM_ERROR,
 * SQL_PARAM_UNUSED), the rows processed, SQLRowCount's return code (SQL
 * Server's driver gives SQL_ERROR there when a row failed), and the row
 * counts of every result (one per row with SQL_PARC_BATCH drivers, one total
 * otherwise), whose sum must be the rows sent. */
static int batch_fail(struct db_conn *c, struct od_stmt *s, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int batch_fail(struct db_conn *c, struct od_stmt *s, const char *what, const char *fmt, ...)
{
	char detail[200], diagmsg[300];
	va_list ap;

	stmt_diag(c, s->h, what); /* the driver's own record, when it left one */
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (strstr(c->err.msg, "without a diagnostic record"))
		diagmsg[0] = '\0';
	else
		snprintf(diagmsg, sizeof(diagmsg), ": %.290s", c->err.msg);
	snprintf(c->err.msg, sizeof(c->err.msg), "%s%s", detail, diagmsg);
	c->err.cls = DB_ERR_FATAL;
	SQLFreeStmt(s->h, SQL_CLOSE);
	return -1;
}

static int od_execute_batch(struct db_conn *c, struct db_stmt *st, const struct db_value *rows, unsigned nrows,
			    struct db_exec_result *r)
{
	struct od_stmt *s = (struct od_stmt *)st;
	SQLRETURN rc;
	SQLLEN affected = 0;
	uint64_t total = 0;
	bool known = true;

	r->kind = DB_QUERY_OTHER;
	r->rows = 0;
	if (nrows == 0)
		return 0;
	if (bind_batch(c, s, rows, nrows) < 0)
		return -1;
	s->bprocessed = 0;
	for (unsigned k = 0; k < nrows; k++)
		s->bstatus[k] = SQL_PARAM_UNUSED;
	rc = SQLExecute(s->h);
	if (!ok(rc) && rc != SQL_NO_DATA) {
		stmt_diag(c, s->h, "SQLExecute (parameter array)");
		SQLFreeStmt(s->h, SQL_CLOSE);
		return -1;
	}
	for (unsigned k = 0; k < nrows; k++) {
		if (s->bstatus[k] == SQL_PARAM_ERROR || s->bstatus[k] == SQL_PARAM_UNUSED)
			return batch_fail(c, s, "SQLExecute (parameter array)",
					  "parameter array: row %u of %u %s (status %u, %lu rows processed)", k + 1, nrows,
					  s->bstatus[k] == SQL_PARAM_ERROR ? "failed" : "was not processed",
					  (unsigned)s->bstatus[k], (unsigned long)s->bprocessed);
	}
	if (s->bprocessed != nrows)
		return batch_fail(c, s, "SQLExecute (parameter array)",
				  "parameter array: the driver processed %lu rows of %u", (unsigned long)s->bprocessed, nrows);
	do {
		rc = SQLRowCount(s->h, &affected);
		if (!ok(rc))
			return batch_fail(c, s, "SQLRowCount (parameter array)",
					  "parameter array of %u rows: SQLRowCount failed (a row was not inserted)", nrows);
		if (affected < 0)
			known = false;
		else
			total += (uint64_t)affected;
		rc = SQLMoreResults(s->h);
		if (!ok(rc) && rc != SQL_NO_DATA)
			return batch_fail(c, s, "SQLMoreResults (parameter array)",
					  "parameter array of %u rows: a later result failed", nrows);
	} while (rc != SQL_NO_DATA);
	SQLFreeStmt(s->h, SQL_CLOSE);
	if (known && total != nrows) {
		snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "HY000");
		snprintf(c->err.msg, sizeof(c->err.msg), "parameter array of %u rows: the server counted %llu rows affected",
			 nrows, (unsigned long long)total);
		c->err.native = 0;
		c->err.cls = DB_ERR_FATAL;
		return -1;
	}
	r->rows = known ? total : DB_ROWS_UNKNOWN;
	r->kind = DB_QUERY_WRITE;
	return 0;
}

int odbc_driver_installed(const char *name)
{
	SQLHENV env = SQL_NULL_HENV;
	SQLCHAR desc[256], attrs[4096];
	SQLSMALLINT dlen = 0, alen = 0;
	SQLUSMALLINT dir = SQL_FETCH_FIRST;
	SQLRETURN rc;
	int found = 0;

	if (!ok(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &env)))
		return -EIO;
	SQLSetEnvAttr(env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
	while (!found && ok(rc = SQLDrivers(env, dir, desc, sizeof(desc), &dlen, attrs, sizeof(attrs), &alen))) {
		found = !strcmp((const char *)desc, name);
		dir = SQL_FETCH_NEXT;
	}
	SQLFreeHandle(SQL_HANDLE_ENV, env);
	return found;
}

static int digits(const char *s, size_t n, int *out)
{
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

int odbc_datetime_fields(const char *s, size_t len, struct odbc_datetime *t)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int y, m, d, hh, mi, ss;

	if (len != 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':' ||
	    digits(s, 4, &y) < 0 || digits(s + 5, 2, &m) < 0 || digits(s + 8, 2, &d) < 0 ||
	    digits(s + 11, 2, &hh) < 0 || digits(s + 14, 2, &mi) < 0 || digits(s + 17, 2, &ss) < 0)
		return -EINVAL;
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (y < 1753 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap) || hh > 23 || mi > 59 ||
	    ss > 59)
		return -EINVAL;
	*t = (struct odbc_datetime){.year = y, .month = m, .day = d, .hour = hh, .minute = mi, .second = ss};
	return 0;
}

int odbc_bcp_datetime(const char *s, size_t len, int32_t *days, uint32_t *ticks)
{
	struct odbc_datetime t;
	int y, m, d, hh, mi, ss;
	long yy, era, yoe, doy, doe, civil;

	if (odbc_datetime_fields(s, len, &t) < 0)
		return -EINVAL;
	y = t.year, m = t.month, d = t.day, hh = t.hour, mi = t.minute, ss = t.second;
	/* Days from 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
	 * days_from_civil), then from 1900-01-01 (25,567 days earlier). */
	yy = m <= 2 ? y - 1 : y;
	era = yy / 400;
	yoe = yy - era * 400;
	doy = (153L * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	civil = era * 146097 + doe - 719468;
	*days = (int32_t)(civil + 25567);
	*ticks = (uint32_t)(((hh * 60 + mi) * 60 + ss) * 300);
	return 0;
}

static int bcp_fail(struct db_conn *c, const char *what)
{
	struct od_conn *o = c->priv;

	diag(c, SQL_HANDLE_DBC, o->dbc, what);
	c->err.cls = DB_ERR_FATAL;
	return -1;
}

/* One bulk operation: bcp_init, a column binding per value (the server's
 * column ordinal from sys.columns), each row's values pointed at with
 * bcp_colptr / bcp_collen, bcp_sendrow, bcp_done (which commits the rows
 * and says how many the server took). */
static int od_copy_rows(struct db_conn *c, const char *table, const char *const *cols, const enum db_type *types,
			unsigned ncols, const struct db_value *rows, unsigned nrows, struct db_exec_result *r)
{
	struct od_conn *o = c->priv;
	struct bcp_api *b = o->bcp;
	int *ord;
	unsigned char dummy[8] = {0};
	int32_t done;
	bool cached;

	r->kind = DB_QUERY_OTHER;
	r->rows = 0;
	if (!b || ncols > 64 || strlen(table) >= sizeof(b->table))
		return -ENOTSUP;
	ord = b->ord;
	cached = !strcmp(b->table, table) && b->ncols == ncols;
	for (unsigned k = 0; cached && k < ncols; k++)
		cached = strlen(cols[k]) < sizeof(b->cols[k]) && !strcmp(b->cols[k], cols[k]);
	b->table[0] = '\0';
	/* Column ordinals by name, from the table itself. */
	for (unsigned k = 0; !cached && k < ncols; k++) {
		char q[256];
		SQLLEN ind = 0, tind = 0;
		SQLINTEGER id = 0, type = 0;
		snprintf(q, sizeof(q),
			 "SELECT column_id, CAST(system_type_id AS INT) FROM sys.columns WHERE object_id = OBJECT_ID('%s') AND name = '%s'",
			 table, cols[k]);
		ord[k] = 0;
		if (ok(SQLExecDirect(o->q, (SQLCHAR *)q, SQL_NTS)) && ok(SQLBindCol(o->q, 1, SQL_C_SLONG, &id, 0, &ind)) &&
		    ok(SQLBindCol(o->q, 2, SQL_C_SLONG, &type, 0, &tind)) && ok(SQLFetch(o->q)))
			ord[k] = (int)id;
		/* 61: DATETIME. Its values travel as DBDATETIME, not as text for
		 * the client library to parse in a format of its choosing. */
		b->datetime[k] = type == 61;
		SQLFreeStmt(o->q, SQL_CLOSE);
		SQLFreeStmt(o->q, SQL_UNBIND);
		if (ord[k] <= 0 || strlen(cols[k]) >= sizeof(b->cols[k])) {
			snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "HY000");
			snprintf(c->err.msg, sizeof(c->err.msg), "bulk copy: %s has no column %s", table, cols[k]);
			c->err.native = 0;
			c->err.cls = DB_ERR_FATAL;
			return -1;
		}
		snprintf(b->cols[k], sizeof(b->cols[k]), "%s", cols[k]);
	}
	snprintf(b->table, sizeof(b->table), "%s", table);
	b->ncols = ncols;
	/* The lookups opened an implicit transaction (autocommit is off): end
	 * it, so no lock on the catalogue is held across the bulk copy (R6). */
	if (!cached && !ok(SQLEndTran(SQL_HANDLE_DBC, o->dbc, SQL_COMMIT)))
		return bcp_fail(c, "SQLEndTran(COMMIT) before bcp_init");
	if (!bcp_ok(b->init(b->hdbc, table, NULL, NULL, BCP_DB_IN)))
		return bcp_fail(c, "bcp_init");
	for (unsigned k = 0; k < ncols; k++) {
		int type = BCP_SQLCHARACTER;
		int32_t len = BCP_VARLEN_DATA;
		switch (types[k]) {
		case DB_TYPE_INT32:
			type = BCP_SQLINT4, len = 4;
			break;
		case DB_TYPE_INT64:
			type = BCP_SQLINT8, len = 8;
			break;
		case DB_TYPE_DOUBLE:
			type = BCP_SQLFLT8, len = 8;
			break;
		case DB_TYPE_STRING:
		case DB_TYPE_TIMESTAMP:
			if (b->datetime[k])
				type = BCP_SQLDATETIME, len = 8;
			break;
		}
		if (!bcp_ok(b->bind(b->hdbc, dummy, 0, len, NULL, 0, type, ord[k])))
			return bcp_fail(c, "bcp_bind");
	}
	for (unsigned i = 0; i < nrows; i++) {
		int32_t i4[64];
		unsigned char dt[64][8];
		for (unsigned k = 0; k < ncols; k++) {
			const struct db_value *v = &rows[(size_t)i * ncols + k];
			const void *data = dummy;
			int32_t len = 0;
			switch (types[k]) {
			case DB_TYPE_INT32:
				i4[k] = (int32_t)v->i;
				data = &i4[k], len = 4;
				break;
			case DB_TYPE_INT64:
				data = &v->i, len = 8;
				break;
			case DB_TYPE_DOUBLE:
				data = &v->d, len = 8;
				break;
			case DB_TYPE_STRING:
			case DB_TYPE_TIMESTAMP:
				if (b->datetime[k] && !v->is_null) {
					int32_t days;
					uint32_t ticks;
					if (odbc_bcp_datetime(v->s, v->len, &days, &ticks) < 0) {
						snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "22007");
						snprintf(c->err.msg, sizeof(c->err.msg),
							 "bulk copy: %s.%s: \"%.*s\" is not a date and time (expected YYYY-MM-DD hh:mm:ss)",
							 table, cols[k], (int)(v->len > 40 ? 40 : v->len), v->s);
						c->err.native = 0;
						c->err.cls = DB_ERR_FATAL;
						b->done(b->hdbc);
						return -1;
					}
					memcpy(dt[k], &days, 4);
					memcpy(dt[k] + 4, &ticks, 4);
					data = dt[k], len = 8;
					break;
				}
				data = v->len ? (const void *)v->s : (const void *)dummy, len = (int32_t)v->len;
				break;
			}
			if (!bcp_ok(b->colptr(b->hdbc, data, ord[k])) ||
			    !bcp_ok(b->collen(b->hdbc, v->is_null ? BCP_NULL_DATA : len, ord[k])))
				return bcp_fail(c, "bcp_colptr");
		}
		if (!bcp_ok(b->sendrow(b->hdbc))) {
			bcp_fail(c, "bcp_sendrow");
			b->done(b->hdbc);
			return -1;
		}
	}
	done = b->done(b->hdbc);
	if (done < 0)
		return bcp_fail(c, "bcp_done");
	r->rows = (uint64_t)done;
	r->kind = done ? DB_QUERY_WRITE : DB_QUERY_OTHER;
	return 0;
}

static int od_begin(struct db_conn *c)
{
	(void)c; /* autocommit is off: the first statement starts the transaction */
	return 0;
}

static int end_tran(struct db_conn *c, SQLSMALLINT how)
{
	struct od_conn *o = c->priv;

	if (!ok(SQLEndTran(SQL_HANDLE_DBC, o->dbc, how)))
		return diag(c, SQL_HANDLE_DBC, o->dbc, how == SQL_COMMIT ? "SQLEndTran(COMMIT)" : "SQLEndTran(ROLLBACK)");
	return 0;
}

static int od_commit(struct db_conn *c)
{
	return end_tran(c, SQL_COMMIT);
}

static int od_rollback(struct db_conn *c)
{
	return end_tran(c, SQL_ROLLBACK);
}

static void od_describe(const struct db_conn_params *p, char *buf, size_t n)
{
	char *r = p->dsn ? odbc_redact(p->dsn) : NULL;

	snprintf(buf, n, "%s", r ? r : "the ODBC data source");
	free(r);
}

const struct db_driver_ops db_odbc_ops = {
	.name = "odbc",
	.uses_dsn = true,
	.option_prefix = "odbc-",
	.describe = od_describe,
	.global_init = od_global_init,
	.connect = od_connect,
	.disconnect = od_disconnect,
	.server_version = od_server_version,
	.query = od_query,
	.prepare = od_prepare,
	.execute = od_execute,
	.fetch = od_fetch,
	.begin = od_begin,
	.commit = od_commit,
	.rollback = od_rollback,
	.execute_batch = od_execute_batch,
	.copy_rows = od_copy_rows,
	.dbms_name = od_dbms_name,
};
