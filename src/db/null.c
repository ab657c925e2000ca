/*
 * The null driver (fio's engines/null.c): every call succeeds at once and
 * nothing leaves the process. Two users, one driver:
 *
 * - sysbench's --mysql-dry-run ("pretend that all MySQL client API calls are
 *   successful without executing them"): no connection string. What a run
 *   measures is the harness's own cost per transaction (building the
 *   statements, the runner's bookkeeping, the statistics). As in sysbench's
 *   dry run, every statement counts as "other" (no result set, nothing
 *   affected) and a prepared statement's fetch returns no row. It has no
 *   socket, so the runner drives each connection from its own thread (the
 *   blocking path), as sysbench runs one thread per connection.
 *
 * - the runner's unit test (tests/unit/runner/test_runner.c): a connection
 *   string "null:OPTION;OPTION=N;..." (params->dsn) asks for
 *     poll               the non-blocking forms on an fd that is always
 *                        readable (an eventfd), so the runner's event loops
 *                        run as they do over libmysqlclient
 *     kinds              a SELECT, and a prepared statement with result
 *                        columns, counts as a read (else "other")
 *     fail_connect       every connect fails (FATAL, native 2003)
 *     retry_every=N      every Nth statement of a connection fails with a
 *                        deadlock (RETRY, native 1213, SQLSTATE 40001)
 *     lost_every=N       every Nth statement loses the connection
 *                        (RECONNECT, native 2013); the next connect succeeds
 *     fatal_at=N         the Nth statement of a connection fails (FATAL, 1064)
 */
#include "db/db.h"

#include "core/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct db_stmt {
	unsigned ncols;
	struct db_stmt *next; /* the connection's statements, freed on disconnect */
};

struct null_conn {
	int fd; /* "poll": an always-readable eventfd; else -1 */
	bool kinds;
	struct db_stmt *stmts;
	unsigned long statements;
	unsigned long retry_every, lost_every, fatal_at;
	int pending; /* the result of the statement in flight (non-blocking form) */
};

/* Is `name` one of dsn's options (alone or as name=N)? */
static const char *option(const char *dsn, const char *name)
{
	size_t n = strlen(name);

	if (!dsn || strncmp(dsn, "null:", 5))
		return NULL;
	for (const char *p = dsn + 5; *p; p += strcspn(p, ";"), p += *p == ';')
		if (!strncmp(p, name, n) && (p[n] == '\0' || p[n] == ';' || p[n] == '='))
			return p + n;
	return NULL;
}

static unsigned long number(const char *dsn, const char *name)
{
	const char *v = option(dsn, name);

	return v && *v == '=' ? strtoul(v + 1, NULL, 10) : 0;
}

static bool null_polls(const struct db_conn_params *p)
{
	return option(p->dsn, "poll") != NULL;
}

static int fail(struct db_conn *c, enum db_err_class cls, int native, const char *sqlstate, const char *msg)
{
	c->err.cls = cls;
	c->err.native = native;
	snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "%s", sqlstate);
	snprintf(c->err.msg, sizeof(c->err.msg), "%s", msg);
	return -1;
}

static int null_connect(struct db_conn *c, const struct db_conn_params *p)
{
	struct null_conn *n;

	memset(&c->err, 0, sizeof(c->err));
	c->params = p;
	if (option(p->dsn, "fail_connect"))
		return fail(c, DB_ERR_FATAL, 2003, "HY000", "the null server refuses connections (fail_connect)");
	n = xcalloc(1, sizeof(*n));
	n->fd = -1;
	if (null_polls(p) && (n->fd = eventfd(1, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
		free(n);
		return fail(c, DB_ERR_FATAL, 0, "HY000", strerror(errno));
	}
	n->kinds = option(p->dsn, "kinds") != NULL;
	n->retry_every = number(p->dsn, "retry_every");
	n->lost_every = number(p->dsn, "lost_every");
	n->fatal_at = number(p->dsn, "fatal_at");
	c->priv = n;
	return 0;
}

static void null_disconnect(struct db_conn *c)
{
	struct null_conn *n = c->priv;

	if (n) {
		while (n->stmts) {
			struct db_stmt *s = n->stmts;
			n->stmts = s->next;
			free(s);
		}
		if (n->fd >= 0)
			close(n->fd);
		free(n);
	}
	c->priv = NULL;
}

static const char *null_server_version(struct db_conn *c)
{
	(void)c;
	return "dry run";
}

/* One statement: its outcome by the connection's fault plan. */
static int statement(struct db_conn *c, bool reads, struct db_exec_result *r)
{
	struct null_conn *n = c->priv;
	unsigned long k;

	if (!n)
		return fail(c, DB_ERR_RECONNECT, 2006, "08S01", "not connected");
	k = ++n->statements;
	if (n->fatal_at && k == n->fatal_at)
		return fail(c, DB_ERR_FATAL, 1064, "42000", "the null server rejects this statement (fatal_at)");
	if (n->lost_every && k % n->lost_every == 0)
		return fail(c, DB_ERR_RECONNECT, 2013, "08S01", "lost connection to the null server (lost_every)");
	if (n->retry_every && k % n->retry_every == 0)
		return fail(c, DB_ERR_RETRY, 1213, "40001", "deadlock found (retry_every)");
	if (r) {
		r->kind = reads && n->kinds ? DB_QUERY_READ : DB_QUERY_OTHER;
		r->rows = 0;
	}
	return 0;
}

static int null_query(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r)
{
	return statement(c, len >= 6 && !strncmp(sql, "SELECT", 6), r);
}

static int null_prepare(struct db_conn *c, const char *sql, const enum db_type *params, unsigned nparams,
			const enum db_type *cols, unsigned ncols, struct db_stmt **out)
{
	struct null_conn *n = c->priv;

	(void)sql;
	(void)params;
	(void)nparams;
	(void)cols;
	if (!n)
		return fail(c, DB_ERR_RECONNECT, 2006, "08S01", "not connected");
	*out = xcalloc(1, sizeof(**out));
	(*out)->ncols = ncols;
	(*out)->next = n->stmts;
	n->stmts = *out;
	return 0;
}

static int null_execute(struct db_conn *c, struct db_stmt *s, const struct db_value *params, struct db_exec_result *r)
{
	(void)params;
	return statement(c, s->ncols > 0, r);
}

static int null_execute_batch(struct db_conn *c, struct db_stmt *s, const struct db_value *rows, unsigned nrows,
			      struct db_exec_result *r)
{
	(void)rows;
	(void)nrows;
	return statement(c, s->ncols > 0, r);
}

static int null_fetch(struct db_conn *c, struct db_stmt *s, struct db_value *cols)
{
	(void)c;
	(void)s;
	(void)cols;
	return 0;
}

static int null_txn(struct db_conn *c)
{
	return c->priv ? 0 : fail(c, DB_ERR_RECONNECT, 2006, "08S01", "not connected");
}

static int null_fd(struct db_conn *c)
{
	struct null_conn *n = c->priv;

	return n ? n->fd : -1;
}

static unsigned null_timeout_ms(struct db_conn *c)
{
	(void)c;
	return 0;
}

/* The non-blocking forms ("poll" only): "in flight" until the (always ready) fd is seen. */
static int start(struct db_conn *c, int rc, int *wait)
{
	struct null_conn *n = c->priv;

	if (rc < 0)
		return rc;
	n->pending = rc;
	*wait = DB_WAIT_READ;
	return 1;
}

static int null_execute_start(struct db_conn *c, struct db_stmt *s, const struct db_value *params,
			      struct db_exec_result *r, int *wait)
{
	return start(c, null_execute(c, s, params, r), wait);
}

static int null_query_start(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r, int *wait)
{
	return start(c, null_query(c, sql, len, r), wait);
}

static int null_cont(struct db_conn *c, int ready, int *wait)
{
	struct null_conn *n = c->priv;

	(void)ready;
	*wait = 0;
	return n ? n->pending : -1;
}

static void null_describe(const struct db_conn_params *p, char *buf, size_t n)
{
	if (p->dsn)
		snprintf(buf, n, "the null server (%s)", p->dsn);
	else if (p->socket && *p->socket)
		snprintf(buf, n, "%s", p->socket);
	else
		snprintf(buf, n, "%s:%u", p->host ? p->host : "", p->port);
}

const struct db_driver_ops db_null_ops = {
	.name = "null",
	.dialect = "mysql", /* it stands in for the mysql driver (--mysql-dry-run) */
	.describe = null_describe,
	.connect = null_connect,
	.disconnect = null_disconnect,
	.server_version = null_server_version,
	.query = null_query,
	.prepare = null_prepare,
	.execute = null_execute,
	.fetch = null_fetch,
	.begin = null_txn,
	.commit = null_txn,
	.rollback = null_txn,
	.execute_batch = null_execute_batch,
	.polls = null_polls,
	.fd = null_fd,
	.timeout_ms = null_timeout_ms,
	.execute_start = null_execute_start,
	.query_start = null_query_start,
	.cont = null_cont,
};
