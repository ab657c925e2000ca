/* ODBC connections: connection strings, connect and disconnect, session settings, transactions. */
#include "db/odbc/odbc_int.h"

#include "core/strbuf.h"

#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* --- connection strings --- */

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

/* --- connection --- */

int od_global_init(void)
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

int od_connect(struct db_conn *c, const struct db_conn_params *p)
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
	if (p->allow_copy_rows)
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
	if (p->allow_copy_rows)
		o->bcp = bcp_find(o->dbc);
	ret = 0;
out:
	free(cs);
	return ret;
}

void od_disconnect(struct db_conn *c)
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
		od_stmt_free(o->stmts);
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

const char *od_server_version(struct db_conn *c)
{
	struct od_conn *o = c->priv;

	return o->version;
}

const char *od_dbms_name(struct db_conn *c)
{
	struct od_conn *o = c->priv;

	return o->dbms[0] ? o->dbms : NULL;
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

/* --- transactions --- */

int od_begin(struct db_conn *c)
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

int od_commit(struct db_conn *c)
{
	return end_tran(c, SQL_COMMIT);
}

int od_rollback(struct db_conn *c)
{
	return end_tran(c, SQL_ROLLBACK);
}
