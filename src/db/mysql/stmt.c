/* MySQL statements: text queries, prepared statements, results, transactions, and their non-blocking forms. */
#include "db/mysql/mysql_int.h"

#include "core/strbuf.h"
#include "db/rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR_BUF_INITIAL 256
#define COL_STR_BUF 1024

void my_stmt_free(struct my_stmt *s)
{
	if (s->st)
		mysql_stmt_close(s->st);
	for (unsigned i = 0; i < s->nparams; i++)
		free(s->pstr[i]);
	for (unsigned i = 0; i < s->ncols; i++)
		free(s->cstr[i]);
	free(s->ptypes);
	free(s->pbind);
	free(s->pint);
	free(s->pint32);
	free(s->pdbl);
	free(s->pstr);
	free(s->pstr_cap);
	free(s->plen);
	free(s->cbind);
	free(s->ctypes);
	free(s->cint);
	free(s->cdbl);
	free(s->cstr);
	free(s->clen);
	free(s->cnull);
	free(s->cerr);
	db_rows_release(&s->cache);
	free(s);
}

static void classify_noresult(struct db_exec_result *r, uint64_t affected)
{
	r->rows = affected;
	r->kind = affected > 0 ? DB_QUERY_WRITE : DB_QUERY_OTHER;
}

/* Classify a text query's stored result (NULL: none, or an error) and free it. */
static int query_stored(struct db_conn *c, MYSQL_RES *res, struct db_exec_result *r)
{
	struct my_conn *m = c->priv;

	if (!res) {
		if (mysql_field_count(m->mysql) != 0)
			return conn_error(c);
		classify_noresult(r, (uint64_t)mysql_affected_rows(m->mysql));
		return 0;
	}
	r->kind = DB_QUERY_READ;
	r->rows = (uint64_t)mysql_num_rows(res);
	mysql_free_result(res);
	return 0;
}

int my_query(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r)
{
	struct my_conn *m = c->priv;
	MYSQL_RES *res;

	struct db_exec_result ignored;

	if (mysql_real_query(m->mysql, sql, (unsigned long)len))
		return conn_error(c);
	res = mysql_store_result(m->mysql);
	return query_stored(c, res, r ? r : &ignored);
}

static enum enum_field_types mysql_type_of(enum db_type t)
{
	switch (t) {
	case DB_TYPE_INT32:
		return MYSQL_TYPE_LONG;
	case DB_TYPE_INT64:
		return MYSQL_TYPE_LONGLONG;
	case DB_TYPE_DOUBLE:
		return MYSQL_TYPE_DOUBLE;
	case DB_TYPE_STRING:
	case DB_TYPE_TIMESTAMP:
		return MYSQL_TYPE_STRING;
	}
	return MYSQL_TYPE_NULL;
}

static void bind_params(struct my_stmt *s)
{
	for (unsigned i = 0; i < s->nparams; i++) {
		MYSQL_BIND *b = &s->pbind[i];
		memset(b, 0, sizeof(*b));
		b->buffer_type = mysql_type_of(s->ptypes[i]);
		switch (s->ptypes[i]) {
		case DB_TYPE_INT32:
			b->buffer = &s->pint32[i];
			break;
		case DB_TYPE_INT64:
			b->buffer = &s->pint[i];
			break;
		case DB_TYPE_DOUBLE:
			b->buffer = &s->pdbl[i];
			break;
		case DB_TYPE_TIMESTAMP:
		case DB_TYPE_STRING:
			b->buffer = s->pstr[i];
			b->buffer_length = s->pstr_cap[i];
			b->length = &s->plen[i];
			break;
		}
	}
}

int my_prepare(struct db_conn *c, const char *sql, const enum db_type *params, unsigned nparams,
	       const enum db_type *cols, unsigned ncols, struct db_stmt **out)
{
	struct my_conn *m = c->priv;
	struct my_stmt *s = xcalloc(1, sizeof(*s));
	int ret = -1;

	db_rows_init(&s->cache, NULL, 0);
	s->st = mysql_stmt_init(m->mysql);
	if (!s->st) {
		conn_error(c);
		goto fail;
	}
	if (mysql_stmt_prepare(s->st, sql, (unsigned long)strlen(sql))) {
		stmt_error(c, s);
		goto fail;
	}
	if (mysql_stmt_param_count(s->st) != nparams) {
		set_error(c, 0, "HY000", "prepared statement parameter count differs from the workload's");
		c->err.cls = DB_ERR_FATAL;
		goto fail;
	}
	s->nparams = nparams;
	s->ptypes = xcalloc(nparams, sizeof(*s->ptypes));
	s->pbind = xcalloc(nparams, sizeof(*s->pbind));
	s->pint = xcalloc(nparams, sizeof(*s->pint));
	s->pint32 = xcalloc(nparams, sizeof(*s->pint32));
	s->pdbl = xcalloc(nparams, sizeof(*s->pdbl));
	s->pstr = xcalloc(nparams, sizeof(*s->pstr));
	s->pstr_cap = xcalloc(nparams, sizeof(*s->pstr_cap));
	s->plen = xcalloc(nparams, sizeof(*s->plen));
	for (unsigned i = 0; i < nparams; i++) {
		/* a TIMESTAMP parameter goes as its text: the server parses it */
		s->ptypes[i] = params[i] == DB_TYPE_TIMESTAMP ? DB_TYPE_STRING : params[i];
		if (s->ptypes[i] == DB_TYPE_STRING) {
			s->pstr_cap[i] = STR_BUF_INITIAL;
			s->pstr[i] = xmalloc(STR_BUF_INITIAL);
		}
	}
	bind_params(s);
	if (nparams && mysql_stmt_bind_param(s->st, s->pbind)) {
		stmt_error(c, s);
		goto fail;
	}
	s->ncols = ncols;
	if (ncols) {
		s->cbind = xcalloc(ncols, sizeof(*s->cbind));
		s->ctypes = xcalloc(ncols, sizeof(*s->ctypes));
		s->cint = xcalloc(ncols, sizeof(*s->cint));
		s->cdbl = xcalloc(ncols, sizeof(*s->cdbl));
		s->cstr = xcalloc(ncols, sizeof(*s->cstr));
		s->clen = xcalloc(ncols, sizeof(*s->clen));
		s->cnull = xcalloc(ncols, sizeof(*s->cnull));
		s->cerr = xcalloc(ncols, sizeof(*s->cerr));
		for (unsigned i = 0; i < ncols; i++) {
			MYSQL_BIND *b = &s->cbind[i];
			s->ctypes[i] = cols[i];
			b->buffer_type = mysql_type_of(cols[i]);
			b->is_null = &s->cnull[i];
			b->error = &s->cerr[i];
			b->length = &s->clen[i];
			switch (cols[i]) {
			case DB_TYPE_INT32:
			case DB_TYPE_INT64:
				b->buffer_type = MYSQL_TYPE_LONGLONG;
				b->buffer = &s->cint[i];
				break;
			case DB_TYPE_DOUBLE:
				b->buffer = &s->cdbl[i];
				break;
			case DB_TYPE_TIMESTAMP:
			case DB_TYPE_STRING:
				s->cstr[i] = xmalloc(COL_STR_BUF);
				b->buffer = s->cstr[i];
				b->buffer_length = COL_STR_BUF;
				break;
			}
		}
		/* A CALL has no result metadata before it runs: its columns are
		 * bound once its result set has arrived (bind_late). */
		if (mysql_stmt_field_count(s->st) == 0)
			s->bind_late = true;
		else if (mysql_stmt_bind_result(s->st, s->cbind)) {
			stmt_error(c, s);
			goto fail;
		}
	}
	s->next = m->stmts;
	m->stmts = s;
	*out = (struct db_stmt *)s;
	return 0;
fail:
	my_stmt_free(s);
	return ret;
}

/* Copy the caller's values into the statement's bound storage. A string that
 * outgrows its buffer forces a re-bind (and types are sent again, once). */
static void set_params(struct my_stmt *s, const struct db_value *v)
{
	bool rebind = false;

	for (unsigned i = 0; i < s->nparams; i++) {
		switch (s->ptypes[i]) {
		case DB_TYPE_INT32:
			s->pint32[i] = (int32_t)v[i].i;
			break;
		case DB_TYPE_INT64:
			s->pint[i] = v[i].i;
			break;
		case DB_TYPE_DOUBLE:
			s->pdbl[i] = v[i].d;
			break;
		case DB_TYPE_TIMESTAMP:
		case DB_TYPE_STRING:
			if (v[i].len > s->pstr_cap[i]) {
				s->pstr_cap[i] = v[i].len * 2;
				s->pstr[i] = xrealloc(s->pstr[i], s->pstr_cap[i]);
				rebind = true;
			}
			memcpy(s->pstr[i], v[i].s, v[i].len);
			s->plen[i] = (unsigned long)v[i].len;
			break;
		}
	}
	if (rebind) {
		bind_params(s);
		mysql_stmt_bind_param(s->st, s->pbind);
	}
}

static int after_store(struct db_conn *c, struct my_stmt *s, struct db_exec_result *r)
{
	(void)c;
	r->kind = DB_QUERY_READ;
	r->rows = (uint64_t)mysql_stmt_num_rows(s->st);
	if (s->ncols)
		s->has_result = true;
	else
		mysql_stmt_free_result(s->st);
	return 0;
}

static int fetch_bound(struct db_conn *c, struct my_stmt *s, struct db_value *cols);

/* bind_late: the result set of this execution is here, bind its columns. */
static int bind_now(struct db_conn *c, struct my_stmt *s)
{
	if (!s->bind_late)
		return 0;
	if (mysql_stmt_field_count(s->st) != s->ncols) {
		set_error(c, 0, "HY000", "the procedure's result has another number of columns than the workload reads");
		c->err.cls = DB_ERR_FATAL;
		return -1;
	}
	if (mysql_stmt_bind_result(s->st, s->cbind))
		return stmt_error(c, s);
	return 0;
}

/* More results follow the stored one (a CALL): copy its rows out, free it. */
static int cache_rows(struct db_conn *c, struct my_stmt *s)
{
	struct db_value v[32];
	int rc;

	if (s->ncols > sizeof(v) / sizeof(v[0])) {
		set_error(c, 0, "HY000", "a CALL result with more than 32 columns");
		return -1;
	}
	s->cache.types = s->ctypes;
	s->cache.ncols = s->ncols;
	db_rows_reset(&s->cache);
	while ((rc = fetch_bound(c, s, v)) == 1)
		db_rows_add(&s->cache, v);
	if (rc < 0)
		return -1;
	s->cached = true;
	return 0;
}

/* After the next result of a CALL arrived (rc of mysql_stmt_next_result):
 * 1 = more to read, 0 = done, <0 = error. Only a final status may follow
 * the one result set a dbrig procedure returns. */
static int next_result_done(struct db_conn *c, struct my_stmt *s, int rc)
{
	if (rc > 0)
		return stmt_error(c, s);
	if (rc < 0)
		return 0;
	if (mysql_stmt_field_count(s->st) > 0) {
		set_error(c, 0, "HY000", "the procedure returned more than one result set");
		c->err.cls = DB_ERR_FATAL;
		return -1;
	}
	return mysql_stmt_more_results(s->st) ? 1 : 0;
}

/* Blocking: the result is stored; read what follows it. */
static int drain_more(struct db_conn *c, struct my_stmt *s)
{
	int rc = 1;

	if (!mysql_stmt_more_results(s->st))
		return 0;
	if (cache_rows(c, s) < 0)
		return -1;
	while (rc == 1)
		rc = next_result_done(c, s, mysql_stmt_next_result(s->st));
	return rc;
}

/* A result set whose columns nobody bound (the sysbench statements) is read
 * off the connection and dropped row by row instead of being stored: the
 * server sends the same rows either way, the client copies none of them.
 * Its row count is not known then. */
static int drained(struct db_exec_result *r)
{
	r->kind = DB_QUERY_READ;
	r->rows = 0;
	return 0;
}

int my_execute(struct db_conn *c, struct db_stmt *st, const struct db_value *params, struct db_exec_result *r)
{
	struct my_stmt *s = (struct my_stmt *)st;

	s->has_result = false;
	s->cached = false;
	if (s->nparams)
		set_params(s, params);
	if (mysql_stmt_execute(s->st))
		return stmt_error(c, s);
	if (mysql_stmt_field_count(s->st) == 0) {
		classify_noresult(r, (uint64_t)mysql_stmt_affected_rows(s->st));
		return 0;
	}
	if (s->ncols == 0)
		return mysql_stmt_free_result(s->st) ? stmt_error(c, s) : drained(r);
	if (bind_now(c, s) < 0)
		return -1;
	if (mysql_stmt_store_result(s->st))
		return stmt_error(c, s);
	after_store(c, s, r);
	return drain_more(c, s);
}

int my_fetch(struct db_conn *c, struct db_stmt *st, struct db_value *cols)
{
	struct my_stmt *s = (struct my_stmt *)st;

	return s->cached ? db_rows_next(&s->cache, cols) : fetch_bound(c, s, cols);
}

static int fetch_bound(struct db_conn *c, struct my_stmt *s, struct db_value *cols)
{
	int rc;

	if (!s->has_result)
		return 0;
	rc = mysql_stmt_fetch(s->st);
	if (rc == MYSQL_NO_DATA) {
		mysql_stmt_free_result(s->st);
		s->has_result = false;
		return 0;
	}
	if (rc == 1)
		return stmt_error(c, s);
	/* MYSQL_DATA_TRUNCATED: a string longer than COL_STR_BUF is cut; the
	 * workloads never read such columns in full. */
	for (unsigned i = 0; i < s->ncols; i++) {
		cols[i].type = s->ctypes[i];
		cols[i].is_null = s->cnull[i];
		switch (s->ctypes[i]) {
		case DB_TYPE_INT32:
		case DB_TYPE_INT64:
			cols[i].i = s->cint[i];
			break;
		case DB_TYPE_DOUBLE:
			cols[i].d = s->cdbl[i];
			break;
		case DB_TYPE_TIMESTAMP:
		case DB_TYPE_STRING:
			cols[i].s = s->cstr[i];
			cols[i].len = s->clen[i] < COL_STR_BUF ? s->clen[i] : COL_STR_BUF;
			break;
		}
	}
	return 1;
}

int my_begin(struct db_conn *c)
{
	return my_query(c, "BEGIN", 5, NULL);
}

int my_commit(struct db_conn *c)
{
	return my_query(c, "COMMIT", 6, NULL);
}

int my_rollback(struct db_conn *c)
{
	return my_query(c, "ROLLBACK", 8, NULL);
}

/* --- non-blocking forms --- */

int my_fd(struct db_conn *c)
{
	struct my_conn *m = c->priv;

	return (int)mysql_get_socket(m->mysql);
}

unsigned my_timeout_ms(struct db_conn *c)
{
	struct my_conn *m = c->priv;

	return mysql_get_timeout_value_ms(m->mysql);
}

static int to_wait(int status)
{
	int w = 0;

	if (status & MYSQL_WAIT_READ)
		w |= DB_WAIT_READ;
	if (status & MYSQL_WAIT_WRITE)
		w |= DB_WAIT_WRITE;
	if (status & MYSQL_WAIT_TIMEOUT)
		w |= DB_WAIT_TIMEOUT;
	if (status & MYSQL_WAIT_EXCEPT)
		w |= DB_WAIT_READ;
	return w;
}

static int from_ready(int ready)
{
	int s = 0;

	if (ready & DB_WAIT_READ)
		s |= MYSQL_WAIT_READ;
	if (ready & DB_WAIT_WRITE)
		s |= MYSQL_WAIT_WRITE;
	if (ready & DB_WAIT_TIMEOUT)
		s |= MYSQL_WAIT_TIMEOUT;
	return s;
}

/* Non-blocking: read the results that follow a CALL's result set. */
static int next_loop(struct db_conn *c, struct my_stmt *s, int *wait)
{
	struct my_conn *m = c->priv;
	int rc = 1;

	while (rc == 1) {
		int iret = 0;
		int status = mysql_stmt_next_result_start(&iret, s->st);
		if (status) {
			m->op = OP_STMT_NEXT;
			*wait = to_wait(status);
			return 1;
		}
		rc = next_result_done(c, s, iret);
	}
	return rc;
}

/* Non-blocking: the result is stored; start reading what follows it. */
static int more_start(struct db_conn *c, struct my_stmt *s, int *wait)
{
	if (!mysql_stmt_more_results(s->st))
		return 0;
	if (cache_rows(c, s) < 0)
		return -1;
	return next_loop(c, s, wait);
}

/* Advance the connection's operation after its last step completed. */
static int step_done(struct db_conn *c, int *wait)
{
	struct my_conn *m = c->priv;
	struct my_stmt *s = m->cur;
	int status;

	switch (m->op) {
	case OP_NONE:
		return 0;
	case OP_STMT_EXEC:
		if (mysql_stmt_field_count(s->st) == 0) {
			classify_noresult(m->res, (uint64_t)mysql_stmt_affected_rows(s->st));
			m->op = OP_NONE;
			return 0;
		} else if (s->ncols == 0) {
			my_bool bret = 0;
			m->op = OP_STMT_DRAIN;
			status = mysql_stmt_free_result_start(&bret, s->st);
			if (status) {
				*wait = to_wait(status);
				return 1;
			}
			m->op = OP_NONE;
			return bret ? stmt_error(c, s) : drained(m->res);
		} else {
			int iret = 0;
			if (bind_now(c, s) < 0) {
				m->op = OP_NONE;
				return -1;
			}
			m->op = OP_STMT_STORE;
			status = mysql_stmt_store_result_start(&iret, s->st);
			if (status) {
				*wait = to_wait(status);
				return 1;
			}
			if (iret) {
				m->op = OP_NONE;
				return stmt_error(c, s);
			}
		}
		/* fallthrough: stored without waiting */
		m->op = OP_NONE;
		after_store(c, s, m->res);
		return more_start(c, s, wait);
	case OP_STMT_STORE:
		m->op = OP_NONE;
		after_store(c, s, m->res);
		return more_start(c, s, wait);
	case OP_STMT_NEXT:
		/* handled in my_cont, which has the call's return value */
		return 0;
	case OP_STMT_DRAIN:
		m->op = OP_NONE;
		return drained(m->res);
	case OP_QUERY: {
		MYSQL_RES *res = NULL;
		m->op = OP_QUERY_STORE;
		status = mysql_store_result_start(&res, m->mysql);
		if (status) {
			*wait = to_wait(status);
			return 1;
		}
		m->op = OP_NONE;
		return query_stored(c, res, m->res);
	}
	case OP_QUERY_STORE:
		/* handled in my_cont, which owns the MYSQL_RES pointer */
		return 0;
	}
	return 0;
}

int my_execute_start(struct db_conn *c, struct db_stmt *st, const struct db_value *params,
		     struct db_exec_result *r, int *wait)
{
	struct my_conn *m = c->priv;
	struct my_stmt *s = (struct my_stmt *)st;
	int iret = 0;
	int status;

	s->has_result = false;
	s->cached = false;
	if (s->nparams)
		set_params(s, params);
	m->cur = s;
	m->res = r;
	m->op = OP_STMT_EXEC;
	status = mysql_stmt_execute_start(&iret, s->st);
	if (status) {
		*wait = to_wait(status);
		return 1;
	}
	if (iret) {
		m->op = OP_NONE;
		return stmt_error(c, s);
	}
	return step_done(c, wait);
}

int my_query_start(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r, int *wait)
{
	struct my_conn *m = c->priv;
	int iret = 0;
	int status;

	m->cur = NULL;
	m->res = r;
	m->op = OP_QUERY;
	status = mysql_real_query_start(&iret, m->mysql, sql, (unsigned long)len);
	if (status) {
		*wait = to_wait(status);
		return 1;
	}
	if (iret) {
		m->op = OP_NONE;
		return conn_error(c);
	}
	return step_done(c, wait);
}

int my_cont(struct db_conn *c, int ready, int *wait)
{
	struct my_conn *m = c->priv;
	int iret = 0;
	my_bool bret = 0;
	int status = 0;

	switch (m->op) {
	case OP_NONE:
		return 0;
	case OP_STMT_EXEC:
		status = mysql_stmt_execute_cont(&iret, m->cur->st, from_ready(ready));
		break;
	case OP_STMT_STORE:
		status = mysql_stmt_store_result_cont(&iret, m->cur->st, from_ready(ready));
		break;
	case OP_STMT_DRAIN:
		status = mysql_stmt_free_result_cont(&bret, m->cur->st, from_ready(ready));
		iret = bret;
		break;
	case OP_QUERY:
		status = mysql_real_query_cont(&iret, m->mysql, from_ready(ready));
		break;
	case OP_STMT_NEXT: {
		int rc;
		status = mysql_stmt_next_result_cont(&iret, m->cur->st, from_ready(ready));
		if (status) {
			*wait = to_wait(status);
			return 1;
		}
		m->op = OP_NONE;
		rc = next_result_done(c, m->cur, iret);
		return rc == 1 ? next_loop(c, m->cur, wait) : rc;
	}
	case OP_QUERY_STORE: {
		MYSQL_RES *res = NULL;
		status = mysql_store_result_cont(&res, m->mysql, from_ready(ready));
		if (status) {
			*wait = to_wait(status);
			return 1;
		}
		m->op = OP_NONE;
		return query_stored(c, res, m->res);
	}
	}
	(void)bret;
	if (status) {
		*wait = to_wait(status);
		return 1;
	}
	if (iret) {
		enum my_op op = m->op;
		m->op = OP_NONE;
		return (op == OP_QUERY) ? conn_error(c) : stmt_error(c, m->cur);
	}
	return step_done(c, wait);
}
