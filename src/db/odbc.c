/*
 * ODBC backend (unixODBC): the only file that calls SQL*.
 *
 * One environment and one connection handle per db_conn, so connections
 * share nothing in the driver manager (unixODBC's Threading=0 then lets
 * threads run in parallel). A connection runs with autocommit off: a
 * transaction starts implicitly with its first statement and ends with
 * SQLEndTran, which is how SQL Server, MariaDB Connector/ODBC and psqlODBC
 * all agree to behave; begin() therefore sends nothing.
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
#include "db/odbc.h"

#include "core/strbuf.h"

#include <sql.h>
#include <sqlext.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR_PARAM_INITIAL 256
#define COL_STR_BUF 1024

struct od_row_val {
	int64_t i;
	double d;
	size_t off, len;
	bool null;
};

struct od_stmt {
	SQLHSTMT h;
	unsigned nparams, ncols;
	enum db_type *ptypes;
	int32_t *pint32;
	int64_t *pint64;
	double *pdbl;
	char **pstr;
	size_t *pstr_cap;
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
	struct od_row_val *rows; /* nrows × ncols */
	size_t nrows, rows_cap, pos;
	struct strbuf arena;
	struct od_stmt *next;
};

struct od_conn {
	SQLHENV env;
	SQLHDBC dbc;
	SQLHSTMT q;             /* for text queries */
	bool connected;
	struct od_stmt *stmts;
	char dbms[128];
	char version[128];
};

/* --- classification (no SQL* calls; unit-tested) --- */

static bool state_is(const char *s, const char *want)
{
	return !strcmp(s, want);
}

enum db_err_class odbc_classify(const char *sqlstate, int native, const struct db_conn_params *p)
{
	const char *s = sqlstate ? sqlstate : "";

	if (!strncmp(s, "08", 2) || state_is(s, "57P01") || state_is(s, "57P02") || state_is(s, "57P03"))
		return DB_ERR_RECONNECT;
	if (state_is(s, "40001") || state_is(s, "40P01") || state_is(s, "55P03"))
		return DB_ERR_RETRY;
	if (state_is(s, "HY000")) {
		switch (native) {
		case 1213: /* MariaDB ER_LOCK_DEADLOCK */
		case 1205: /* MariaDB ER_LOCK_WAIT_TIMEOUT */
			return DB_ERR_RETRY;
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
		return DB_ERR_RETRY;
	return DB_ERR_FATAL;
}

/*
 * One attribute of a connection string starting at p ("KEY=value" or
 * "KEY={braced value}"): sets *eq to its '=' (NULL if none) and returns
 * where it ends (its ';' or the NUL). A braced value ends at a single '}':
 * "}}" inside braces is an escaped '}', as in ODBC's grammar and in
 * odbc_conn_string below (security review finding 16: the first '}' of
 * "PWD={se}};cret}" was taken as the end, and "cret}" was printed).
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
	c->err.cls = odbc_classify(c->err.sqlstate, c->err.native, c->params);
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
	}
	return 0;
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
	cs = odbc_conn_string(p->dsn, p->password);
	rc = SQLDriverConnect(o->dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, &outlen, SQL_DRIVER_NOPROMPT);
	memset(cs, 0, strlen(cs));
	if (!ok(rc)) {
		diag(c, SQL_HANDLE_DBC, o->dbc, "SQLDriverConnect");
		goto out;
	}
	o->connected = true;
	if (!ok(SQLSetConnectAttr(o->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0))) {
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
	ret = 0;
out:
	free(cs);
	return ret;
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
	free(s->rows);
	strbuf_release(&s->arena);
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
		if (!ok(SQLRowCount(h, &affected)) || affected < 0)
			affected = 0;
		r->rows = (uint64_t)affected;
		r->kind = affected > 0 ? DB_QUERY_WRITE : DB_QUERY_OTHER;
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
	}
	return SQL_VARCHAR;
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

	strbuf_init(&s->arena, 256);
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
	s->ncols = ncols;
	s->ctypes = xcalloc(ncols, sizeof(*s->ctypes));
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
		}
	}
	return rebind ? bind_single(c, s) : 0;
}

static void keep_row(struct od_stmt *s)
{
	struct od_row_val *row;

	if (s->nrows == s->rows_cap) {
		s->rows_cap = s->rows_cap ? s->rows_cap * 2 : 16;
		s->rows = xrealloc(s->rows, s->rows_cap * s->ncols * sizeof(*s->rows));
	}
	row = &s->rows[s->nrows * s->ncols];
	for (unsigned i = 0; i < s->ncols; i++) {
		row[i].null = s->cind[i] == SQL_NULL_DATA;
		switch (s->ctypes[i]) {
		case DB_TYPE_INT32:
		case DB_TYPE_INT64:
			row[i].i = s->cint[i];
			break;
		case DB_TYPE_DOUBLE:
			row[i].d = s->cdbl[i];
			break;
		case DB_TYPE_STRING: {
			size_t len = 0;
			if (!row[i].null)
				len = (s->cind[i] < 0 || s->cind[i] > COL_STR_BUF) ? COL_STR_BUF : (size_t)s->cind[i];
			row[i].off = s->arena.len;
			row[i].len = len;
			strbuf_add(&s->arena, s->cstr[i], len);
			break;
		}
		}
	}
	s->nrows++;
}

/* After a successful SQLExecute: read the result set (if any) to the end. */
static int collect(struct db_conn *c, struct od_stmt *s, SQLRETURN xrc, struct db_exec_result *r)
{
	SQLSMALLINT ncols = 0;
	SQLRETURN rc;

	s->nrows = 0;
	s->pos = 0;
	strbuf_reset(&s->arena);
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
	r->rows = s->nrows;
	return 0;
}

static int od_execute(struct db_conn *c, struct db_stmt *st, const struct db_value *params, struct db_exec_result *r)
{
	struct od_stmt *s = (struct od_stmt *)st;
	SQLRETURN rc;

	s->nrows = s->pos = 0;
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
	struct od_stmt *s = (struct od_stmt *)st;
	const struct od_row_val *row;

	(void)c;
	if (s->pos >= s->nrows)
		return 0;
	row = &s->rows[s->pos * s->ncols];
	for (unsigned i = 0; i < s->ncols; i++) {
		cols[i].type = s->ctypes[i];
		cols[i].is_null = row[i].null;
		cols[i].i = row[i].i;
		cols[i].d = row[i].d;
		cols[i].s = s->ctypes[i] == DB_TYPE_STRING ? s->arena.buf + row[i].off : NULL;
		cols[i].len = row[i].len;
	}
	s->pos++;
	return 1;
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
			}
		}
		if (!ok(SQLBindParameter(s->h, (SQLUSMALLINT)(i + 1), SQL_PARAM_INPUT, c_type(s->ptypes[i]),
					 sql_type(s->ptypes[i]), s->ptypes[i] == DB_TYPE_STRING ? elem : 0, 0,
					 s->barr[i], s->ptypes[i] == DB_TYPE_STRING ? (SQLLEN)elem : 0,
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

static int od_execute_batch(struct db_conn *c, struct db_stmt *st, const struct db_value *rows, unsigned nrows,
			    struct db_exec_result *r)
{
	struct od_stmt *s = (struct od_stmt *)st;
	SQLRETURN rc;
	SQLLEN affected = 0;

	r->kind = DB_QUERY_OTHER;
	r->rows = 0;
	if (nrows == 0)
		return 0;
	if (bind_batch(c, s, rows, nrows) < 0)
		return -1;
	rc = SQLExecute(s->h);
	if (!ok(rc) && rc != SQL_NO_DATA) {
		stmt_diag(c, s->h, "SQLExecute (parameter array)");
		SQLFreeStmt(s->h, SQL_CLOSE);
		return -1;
	}
	if (ok(SQLRowCount(s->h, &affected)) && affected > 0)
		r->rows = (uint64_t)affected;
	while ((rc = SQLMoreResults(s->h)) != SQL_NO_DATA && ok(rc))
		;
	SQLFreeStmt(s->h, SQL_CLOSE);
	r->kind = r->rows ? DB_QUERY_WRITE : DB_QUERY_OTHER;
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
	.dbms_name = od_dbms_name,
};
