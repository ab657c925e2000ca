/*
 * The null driver: every call succeeds at once and nothing leaves the
 * process (sysbench's --mysql-dry-run: "pretend that all MySQL client API
 * calls are successful without executing them"). What a run measures with it
 * is the harness's own cost per transaction: building the statements, the
 * runner's bookkeeping and the statistics. As in sysbench's dry run, every
 * statement counts as "other" (no result set, nothing affected) and a
 * prepared statement's fetch returns no row.
 *
 * It has no socket, so the runner drives each connection from its own
 * thread (the blocking path), as sysbench runs one thread per connection.
 */
#include "db/db.h"

#include "core/strbuf.h"

#include <stdlib.h>

struct db_stmt {
	unsigned nparams;
	struct db_stmt *next; /* the connection's statements, freed on disconnect */
};

struct null_conn {
	struct db_stmt *stmts;
};

static int null_connect(struct db_conn *c, const struct db_conn_params *p)
{
	c->priv = xcalloc(1, sizeof(struct null_conn));
	c->params = p;
	c->err.cls = DB_ERR_NONE;
	return 0;
}

static void null_disconnect(struct db_conn *c)
{
	struct null_conn *nc = c->priv;

	if (!nc)
		return;
	while (nc->stmts) {
		struct db_stmt *s = nc->stmts;
		nc->stmts = s->next;
		free(s);
	}
	free(nc);
	c->priv = NULL;
}

static const char *null_server_version(struct db_conn *c)
{
	(void)c;
	return "dry run";
}

static void other(struct db_exec_result *r)
{
	if (r) {
		r->kind = DB_QUERY_OTHER;
		r->rows = 0;
	}
}

static int null_query(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r)
{
	(void)c;
	(void)sql;
	(void)len;
	other(r);
	return 0;
}

static int null_prepare(struct db_conn *c, const char *sql, const enum db_type *params, unsigned nparams,
			const enum db_type *cols, unsigned ncols, struct db_stmt **out)
{
	struct null_conn *nc = c->priv;
	struct db_stmt *s = xcalloc(1, sizeof(*s));

	(void)sql;
	(void)params;
	(void)cols;
	(void)ncols;
	s->nparams = nparams;
	s->next = nc->stmts;
	nc->stmts = s;
	*out = s;
	return 0;
}

static int null_execute(struct db_conn *c, struct db_stmt *s, const struct db_value *params, struct db_exec_result *r)
{
	(void)c;
	(void)s;
	(void)params;
	other(r);
	return 0;
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
	(void)c;
	return 0;
}

static int null_execute_batch(struct db_conn *c, struct db_stmt *s, const struct db_value *rows, unsigned nrows,
			      struct db_exec_result *r)
{
	(void)c;
	(void)s;
	(void)rows;
	(void)nrows;
	other(r);
	return 0;
}

const struct db_driver_ops db_null_ops = {
	.name = "null",
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
};
