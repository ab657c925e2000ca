/* ODBC statements: text queries, prepared statements, parameters (single rows and arrays), results. */
#include "db/odbc/odbc_int.h"

#include "core/strbuf.h"
#include "db/rows.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR_PARAM_INITIAL 256
#define COL_STR_BUF 1024

void od_stmt_free(struct od_stmt *s)
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

int od_query(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r)
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

int od_prepare(struct db_conn *c, const char *sql, const enum db_type *params, unsigned nparams,
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
		od_stmt_free(s);
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

int od_execute(struct db_conn *c, struct db_stmt *st, const struct db_value *params, struct db_exec_result *r)
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

int od_fetch(struct db_conn *c, struct db_stmt *st, struct db_value *cols)
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

int od_execute_batch(struct db_conn *c, struct db_stmt *st, const struct db_value *rows, unsigned nrows,
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
