/*
 * libmysqlclient (MariaDB Connector/C) backend: the only file that calls mysql_*.
 *
 * Statements are server-side prepared with parameters bound once to storage
 * owned by the statement, so an execute only copies values and never re-sends
 * parameter types (what sysbench's drv_mysql does). Result sets whose columns
 * the caller bound are buffered with mysql_stmt_store_result; the others (all
 * of sysbench's) are drained with mysql_stmt_free_result, which reads the same
 * rows off the connection without copying them (-13.5% client instructions
 * per oltp_read_write transaction). Results are classified the way sysbench
 * counts queries: a result set is a read, otherwise affected rows > 0 is a
 * write, anything else is "other".
 *
 * The non-blocking forms use Connector/C's mysql_*_start/_cont API; a
 * connection is always opened with MYSQL_OPT_NONBLOCK so either form works.
 */
#include "db/db.h"

#include "core/strbuf.h"
#include "db/rows.h"

#include <mysql.h>
#include <errmsg.h>
#include <mysqld_error.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STR_BUF_INITIAL 256
#define COL_STR_BUF 1024

struct my_stmt {
	MYSQL_STMT *st;
	unsigned nparams, ncols;
	enum db_type *ptypes;
	MYSQL_BIND *pbind;
	int64_t *pint;          /* int storage per param (INT32 uses the low half via int32 view) */
	int32_t *pint32;
	double *pdbl;
	char **pstr;            /* string storage per param */
	size_t *pstr_cap;
	unsigned long *plen;
	MYSQL_BIND *cbind;      /* result columns, NULL when ncols == 0 */
	enum db_type *ctypes;
	int64_t *cint;
	double *cdbl;
	char **cstr;
	unsigned long *clen;
	my_bool *cnull;
	my_bool *cerr;
	bool has_result;        /* a stored result is pending for fetch */
	/* A result followed by more results (a CALL: its SELECT, then the
	 * CALL's own status) is copied here, so that the rest can be read off
	 * the connection before the next statement. */
	struct db_rows cache;
	bool cached;
	bool bind_late;         /* bind the result columns after each execute */
	struct my_stmt *next;   /* every statement of the connection, freed at disconnect */
};


enum my_op {
	OP_NONE,
	OP_STMT_EXEC,
	OP_STMT_STORE,
	OP_STMT_DRAIN,
	OP_QUERY,
	OP_QUERY_STORE,
	OP_STMT_NEXT,  /* reading the results after a CALL's result set */
};

struct my_conn {
	MYSQL *mysql;
	struct my_stmt *stmts;
	enum my_op op;
	struct my_stmt *cur;
	struct db_exec_result *res;
};

static int is_reconnect_code(unsigned code)
{
	switch (code) {
	case CR_CONNECTION_ERROR:
	case CR_CONN_HOST_ERROR:
	case CR_SERVER_GONE_ERROR:
	case CR_SERVER_LOST:
	case CR_SERVER_LOST_EXTENDED:
	case CR_TCP_CONNECTION:
	case 1927: /* ER_CONNECTION_KILLED (MariaDB) */
	case ER_SERVER_SHUTDOWN:
	case 4031: /* ER_CLIENT_INTERACTION_TIMEOUT */
		return 1;
	default:
		return 0;
	}
}

static int infile_refuse(void **ptr, const char *name, void *userdata);
static int infile_read(void *ptr, char *buf, unsigned int len);
static void infile_end(void *ptr);
static int infile_error(void *ptr, char *msg, unsigned int len);

static void set_error(struct db_conn *c, unsigned code, const char *state, const char *msg)
{
	const struct db_conn_params *p = c->params;

	c->err.native = (int)code;
	snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "%s", state ? state : "");
	snprintf(c->err.msg, sizeof(c->err.msg), "%s", msg ? msg : "unknown error");
	c->err.retry = code == ER_LOCK_DEADLOCK ? DB_RETRY_DEADLOCK
		       : code == ER_LOCK_WAIT_TIMEOUT ? DB_RETRY_LOCK_TIMEOUT
		       : !strcmp(c->err.sqlstate, "40001") ? DB_RETRY_SERIALIZATION
							 : DB_RETRY_LISTED;
	if (is_reconnect_code(code))
		c->err.cls = DB_ERR_RECONNECT;
	else if (p && p->retry_deadlocks && (code == ER_LOCK_DEADLOCK || !strcmp(c->err.sqlstate, "40001")))
		c->err.cls = DB_ERR_RETRY;
	else if (p && (p->retry_all || db_code_in_list((int)code, p->retry_codes, p->n_retry_codes)))
		c->err.cls = DB_ERR_RETRY;
	else
		c->err.cls = DB_ERR_FATAL;
}

static int conn_error(struct db_conn *c)
{
	struct my_conn *m = c->priv;

	set_error(c, mysql_errno(m->mysql), mysql_sqlstate(m->mysql), mysql_error(m->mysql));
	return -1;
}

static int stmt_error(struct db_conn *c, struct my_stmt *s)
{
	unsigned code = mysql_stmt_errno(s->st);

	if (code == 0) /* some failures are only recorded on the connection */
		return conn_error(c);
	set_error(c, code, mysql_stmt_sqlstate(s->st), mysql_stmt_error(s->st));
	return -1;
}

static int my_global_init(void)
{
	return mysql_library_init(0, NULL, NULL) ? -1 : 0;
}

/* TLS by mode (db.h): --mysql-ssl=on alone encrypts without authenticating the server. */
static void ssl_setup(MYSQL *my, const struct db_conn_params *p)
{
	my_bool enforce = 1, verify = 0;
	const char *key = p->ssl_key, *cert = p->ssl_cert, *ca = p->ssl_ca;
	const char *cipher = p->ssl_cipher && *p->ssl_cipher ? p->ssl_cipher : NULL;

	switch (p->ssl) {
	case DB_SSL_OFF:
		return;
	case DB_SSL_COMPAT:
		/* sysbench 1.0 reads client-key.pem, client-cert.pem and cacert.pem
		 * from the current directory when --mysql-ssl=on; do the same when
		 * they exist (a CA there verifies the chain, as libmariadb does). */
		key = access("client-key.pem", R_OK) == 0 ? "client-key.pem" : NULL;
		cert = access("client-cert.pem", R_OK) == 0 ? "client-cert.pem" : NULL;
		ca = access("cacert.pem", R_OK) == 0 ? "cacert.pem" : NULL;
		break;
	case DB_SSL_REQUIRED:
	case DB_SSL_VERIFY_CA:
		break;
	case DB_SSL_VERIFY_IDENTITY:
		verify = 1;
		break;
	}
	/* libmariadb verifies the chain whenever a CA is set; the host name only with VERIFY_SERVER_CERT. */
	mysql_ssl_set(my, key, cert, ca, NULL, cipher);
	mysql_options(my, MYSQL_OPT_SSL_ENFORCE, &enforce);
	mysql_options(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &verify);
}

static int my_connect(struct db_conn *c, const struct db_conn_params *p)
{
	struct my_conn *m = xcalloc(1, sizeof(*m));
	unsigned timeout = p->connect_timeout_s ? p->connect_timeout_s : 10;

	c->priv = m;
	c->params = p;
	memset(&c->err, 0, sizeof(c->err));
	m->mysql = mysql_init(NULL);
	if (!m->mysql) {
		set_error(c, CR_OUT_OF_MEMORY, "HY000", "mysql_init failed: out of memory");
		return -1;
	}
	mysql_options(m->mysql, MYSQL_OPT_NONBLOCK, 0);
	if (p->allow_load_stream) {
		unsigned int on = 1;
		mysql_options(m->mysql, MYSQL_OPT_LOCAL_INFILE, &on);
	}
	/* Local infile requests are only ever answered from our own generator
	 * (load_stream); otherwise a server could make the client read files. */
	mysql_set_local_infile_handler(m->mysql, infile_refuse, infile_read, infile_end, infile_error, NULL);
	mysql_options(m->mysql, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	ssl_setup(m->mysql, p);
	if (p->compress)
		mysql_options(m->mysql, MYSQL_OPT_COMPRESS, NULL);
	if (!mysql_real_connect(m->mysql, p->host, p->user, p->password ? p->password : "", p->database,
				p->port, p->socket, 0))
		return conn_error(c);
	return 0;
}

static void stmt_free(struct my_stmt *s)
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

static void my_disconnect(struct db_conn *c)
{
	struct my_conn *m = c->priv;

	if (!m)
		return;
	while (m->stmts) {
		struct my_stmt *n = m->stmts->next;
		stmt_free(m->stmts);
		m->stmts = n;
	}
	if (m->mysql)
		mysql_close(m->mysql);
	free(m);
	c->priv = NULL;
}

static const char *my_server_version(struct db_conn *c)
{
	struct my_conn *m = c->priv;

	return mysql_get_server_info(m->mysql);
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

static int my_query(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r)
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

static int my_prepare(struct db_conn *c, const char *sql, const enum db_type *params, unsigned nparams,
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
	stmt_free(s);
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

static int my_execute(struct db_conn *c, struct db_stmt *st, const struct db_value *params, struct db_exec_result *r)
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

static int my_fetch(struct db_conn *c, struct db_stmt *st, struct db_value *cols)
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

static int my_begin(struct db_conn *c)
{
	return my_query(c, "BEGIN", 5, NULL);
}

static int my_commit(struct db_conn *c)
{
	return my_query(c, "COMMIT", 6, NULL);
}

static int my_rollback(struct db_conn *c)
{
	return my_query(c, "ROLLBACK", 8, NULL);
}

/* --- non-blocking forms --- */

static int my_fd(struct db_conn *c)
{
	struct my_conn *m = c->priv;

	return (int)mysql_get_socket(m->mysql);
}

static unsigned my_timeout_ms(struct db_conn *c)
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

static int my_execute_start(struct db_conn *c, struct db_stmt *st, const struct db_value *params,
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

static int my_query_start(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r, int *wait)
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

static int my_cont(struct db_conn *c, int ready, int *wait)
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

/* --- LOAD DATA LOCAL INFILE from a generator --- */

struct stream {
	long (*fill)(void *arg, char *buf, size_t cap);
	void *arg;
	int failed;
};

static int infile_init(void **ptr, const char *name, void *userdata)
{
	(void)name;
	*ptr = userdata;
	return 0;
}

static int infile_refuse(void **ptr, const char *name, void *userdata)
{
	(void)name;
	(void)userdata;
	*ptr = NULL;
	return 1;
}

static int infile_read(void *ptr, char *buf, unsigned int len)
{
	struct stream *st = ptr;
	long n;

	if (!st)
		return -1;
	n = st->fill(st->arg, buf, len);

	if (n < 0)
		st->failed = 1;
	return (int)n;
}

static void infile_end(void *ptr)
{
	(void)ptr;
}

static int infile_error(void *ptr, char *msg, unsigned int len)
{
	snprintf(msg, len, ptr ? "row generator failed" : "LOCAL INFILE request refused by dbrig");
	return CR_UNKNOWN_ERROR;
}

static int my_load_stream(struct db_conn *c, const char *sql, long (*fill)(void *arg, char *buf, size_t cap),
			  void *arg, struct db_exec_result *r)
{
	struct my_conn *m = c->priv;
	struct stream st = {fill, arg, 0};
	int ret;

	mysql_set_local_infile_handler(m->mysql, infile_init, infile_read, infile_end, infile_error, &st);
	ret = my_query(c, sql, strlen(sql), r);
	mysql_set_local_infile_handler(m->mysql, infile_refuse, infile_read, infile_end, infile_error, NULL);
	return ret;
}

static const char *iso_sql(enum db_isolation i)
{
	switch (i) {
	case DB_ISO_DEFAULT:
		return NULL;
	case DB_ISO_READ_COMMITTED:
		return "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED";
	case DB_ISO_REPEATABLE_READ:
		return "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ";
	case DB_ISO_SERIALIZABLE:
		return "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE";
	case DB_ISO_SNAPSHOT: /* SQL Server's, through ODBC only: the caller refuses it here */
		return NULL;
	}
	return NULL;
}

/* Transactions start implicitly, like ODBC's manual-commit mode, so no BEGIN
 * round trip; with db_conn_params.autocommit every statement (a CALL) is its
 * own transaction instead. */
static int my_session_setup(struct db_conn *c, enum db_isolation isolation)
{
	const char *iso = iso_sql(isolation);
	const char *ac = c->params && c->params->autocommit ? "SET autocommit=1" : "SET autocommit=0";

	if (my_query(c, ac, strlen(ac), NULL) < 0 || (iso && my_query(c, iso, strlen(iso), NULL) < 0))
		return -1;
	return 0;
}

/*
 * unique_checks=0 / foreign_key_checks=0 skip work a loader does not need
 * (MariaDB 10.11 then takes its bulk-insert path for a transaction into an
 * empty table); autocommit=0 lets the loader commit in batches.
 */
static void my_bulk_session(struct db_conn *c)
{
	static const char *const sets[] = {
		"SET SESSION unique_checks=0",
		"SET SESSION foreign_key_checks=0",
		"SET SESSION autocommit=0",
	};

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if (my_query(c, sets[i], strlen(sets[i]), NULL) < 0) {
			/* ignored: a slower load still loads */
		}
}

static void my_describe(const struct db_conn_params *p, char *buf, size_t n)
{
	if (p->socket && *p->socket)
		snprintf(buf, n, "%s", p->socket);
	else
		snprintf(buf, n, "%s:%u", p->host ? p->host : "localhost", p->port);
}

const struct db_driver_ops db_mysql_ops = {
	.name = "mysql",
	.option_prefix = "mysql-",
	.dialect = "mysql",
	.describe = my_describe,
	.global_init = my_global_init,
	.connect = my_connect,
	.disconnect = my_disconnect,
	.server_version = my_server_version,
	.query = my_query,
	.prepare = my_prepare,
	.execute = my_execute,
	.fetch = my_fetch,
	.begin = my_begin,
	.commit = my_commit,
	.rollback = my_rollback,
	.fd = my_fd,
	.timeout_ms = my_timeout_ms,
	.execute_start = my_execute_start,
	.query_start = my_query_start,
	.cont = my_cont,
	.load_stream = my_load_stream,
	.session_setup = my_session_setup,
	.bulk_session = my_bulk_session,
};
