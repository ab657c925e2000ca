/*
 * The batches the TPC-C load sends its rows in (load.c runs the load,
 * load_rows.c makes the rows). A batch holds one table's rows at a time and
 * goes through the backend's fastest path:
 *  - a backend with load_stream (libmysqlclient) streams tab-separated rows
 *    through LOAD DATA LOCAL INFILE (the server parses plain fields instead
 *    of SQL literals); the LOAD statement is derived from the dialect's
 *    INSERT (db_bulk_load_sql), so CURRENT_TIMESTAMP is the same; a server
 *    that refuses local loads (found while storing tpcc_meta, before any
 *    other row) gets multi-row INSERTs;
 *  - ODBC binds parameter arrays (execute_batch, SQL_ATTR_PARAMSET_SIZE);
 *  - SQL Server's bulk copy (copy_rows) where the driver has one; a table
 *    whose INSERT has an expression the copy cannot send, and a connection
 *    whose driver turns out to have no bulk copy, get parameter arrays.
 * A batch commits once COMMIT_ROWS rows have gone since its last commit.
 */
#include "workload/tpcc/tpcc.h"

#include "core/log.h"
#include "core/strbuf.h"
#include "db/bulk.h"
#include "workload/tpcc/load_int.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_ROWS 1000          /* ODBC parameter array rows */
#define ARENA_BYTES (BATCH_ROWS * 1200)
#define INSERT_BYTES (1u << 20)  /* one multi-row INSERT (below any max_allowed_packet) */
#define STREAM_BYTES (4u << 20)  /* rows of one LOAD DATA statement */
#define COMMIT_ROWS 20000

/* The table an ld_* statement fills. */
static enum tpcc_table ld_table(enum tpcc_stmt k)
{
	static const enum tpcc_table tables[TS_LD_META - TS_LD_ITEM + 1] = {
		[TS_LD_ITEM - TS_LD_ITEM] = TB_ITEM,
		[TS_LD_WAREHOUSE - TS_LD_ITEM] = TB_WAREHOUSE,
		[TS_LD_DISTRICT - TS_LD_ITEM] = TB_DISTRICT,
		[TS_LD_CUSTOMER - TS_LD_ITEM] = TB_CUSTOMER,
		[TS_LD_HISTORY - TS_LD_ITEM] = TB_HISTORY,
		[TS_LD_ORDERS - TS_LD_ITEM] = TB_ORDERS,
		[TS_LD_NEW_ORDER - TS_LD_ITEM] = TB_NEW_ORDER,
		[TS_LD_ORDER_LINE - TS_LD_ITEM] = TB_ORDER_LINE,
		[TS_LD_STOCK - TS_LD_ITEM] = TB_STOCK,
		[TS_LD_META - TS_LD_ITEM] = TB_META,
	};

	return tables[k - TS_LD_ITEM];
}

void ld_batch_init(struct batch *b, struct db_conn *c, const struct loader *l, atomic_ullong *rows)
{
	memset(b, 0, sizeof(*b));
	b->c = c;
	b->sql = l->sql;
	b->load_sql = l->load_sql;
	b->mode = l->mode;
	b->rows = rows;
	b->v = xcalloc(b->mode == BM_ARRAY || b->mode == BM_COPY ? (size_t)BATCH_ROWS * 24 : 24, sizeof(*b->v));
	if (b->mode == BM_COPY)
		b->cv = xcalloc((size_t)BATCH_ROWS * COPY_COLS, sizeof(*b->cv));
	b->now = l->now;
	b->no_copy_said = (atomic_int *)&l->no_copy_said;
	b->arena = xmalloc(ARENA_BYTES);
	strbuf_init(&b->text, (b->mode == BM_STREAM ? STREAM_BYTES : INSERT_BYTES) + 8192);
}

void ld_batch_release(struct batch *b)
{
	free(b->v);
	free(b->cv);
	free(b->arena);
	strbuf_release(&b->text);
}

/* Append one value as an SQL literal. */
static void add_literal(struct strbuf *sb, const struct db_value *v)
{
	if (v->is_null) {
		strbuf_adds(sb, "NULL");
		return;
	}
	switch (v->type) {
	case DB_TYPE_INT32:
	case DB_TYPE_INT64:
	case DB_TYPE_DOUBLE:
		db_bulk_field(sb, v); /* digits, '-' and '.' */
		break;
	case DB_TYPE_TIMESTAMP:
	case DB_TYPE_STRING:
		strbuf_addc(sb, '\'');
		for (size_t i = 0; i < v->len; i++) {
			if (v->s[i] == '\'' || v->s[i] == '\\')
				strbuf_addc(sb, v->s[i]);
			strbuf_addc(sb, v->s[i]);
		}
		strbuf_addc(sb, '\'');
		break;
	}
}

/* Format the row in b->v[0..np) onto b->text. */
static void batch_format_row(struct batch *b)
{
	const struct db_value *v = b->v;

	if (b->mode == BM_STREAM) {
		for (unsigned i = 0; i < b->np; i++) {
			if (i)
				strbuf_addc(&b->text, '\t');
			db_bulk_field(&b->text, &v[i]);
		}
		strbuf_addc(&b->text, '\n');
		return;
	}
	/* "INSERT INTO t (…) VALUES (?, …)" → "… VALUES (1, …),(2, …)" */
	if (b->n == 0)
		strbuf_add(&b->text, b->sql->stmt[b->k], (size_t)(b->tuple - b->sql->stmt[b->k]));
	else
		strbuf_addc(&b->text, ',');
	unsigned k = 0;
	for (const char *p = b->tuple, *run = p;; p++) {
		if (*p == '?' || !*p) {
			strbuf_add(&b->text, run, (size_t)(p - run));
			if (!*p)
				break;
			add_literal(&b->text, &v[k++]);
			run = p + 1;
		}
	}
}

/* BM_COPY: every column's value of the held rows, from the plan. */
static int copy_flush(struct batch *b, struct db_exec_result *r)
{
	const struct tpcc_stmt_def *d = tpcc_stmt_def(b->k);

	for (unsigned i = 0; i < b->n; i++) {
		const struct db_value *row = &b->v[(size_t)i * b->np];
		struct db_value *out = &b->cv[(size_t)i * b->nplan];
		for (unsigned j = 0; j < b->nplan; j++) {
			const struct db_copy_col *pc = &b->plan[j];
			struct db_value now = {.type = DB_TYPE_TIMESTAMP, .s = b->now, .len = strlen(b->now)};
			struct db_value null = {.type = DB_TYPE_STRING, .is_null = true};
			switch (pc->kind) {
			case DB_COPY_PARAM:
				out[j] = row[pc->param];
				break;
			case DB_COPY_NOW:
				out[j] = now;
				break;
			case DB_COPY_NULL:
				out[j] = null;
				break;
			}
		}
	}
	for (unsigned j = 0; j < b->nplan; j++) {
		b->copy_cols[j] = b->plan[j].name;
		b->copy_types[j] = b->plan[j].kind == DB_COPY_PARAM ? d->params[b->plan[j].param]
				    : b->plan[j].kind == DB_COPY_NOW ? DB_TYPE_TIMESTAMP
								      : DB_TYPE_STRING;
	}
	return b->c->ops->copy_rows(b->c, b->copy_name, b->copy_cols, b->copy_types, b->nplan, b->cv, b->n, r);
}

int ld_batch_flush(struct batch *b)
{
	struct db_conn *c = b->c;
	struct db_exec_result r;
	int rc;

	if (b->n == 0)
		return 0;
	if (b->mode == BM_COPY && b->copy_table) {
		rc = copy_flush(b, &r);
		if (rc == -ENOTSUP) {
			/* This connection has no bulk copy after all: parameter
			 * arrays from now on, these rows first. */
			const struct tpcc_stmt_def *d = tpcc_stmt_def(b->k);
			if (atomic_exchange(b->no_copy_said, 1) == 0) {
				printf("The ODBC driver offers no bulk-copy API (bcp): loading with parameter arrays\n");
				fflush(stdout);
			}
			b->mode = BM_ARRAY;
			b->copy_table = false;
			if (c->ops->prepare(c, b->sql->stmt[b->k], d->params, d->nparams, NULL, 0, &b->st) < 0) {
				tpcc_db_fail(c, d->name);
				return -1;
			}
			rc = c->ops->execute_batch(c, b->st, b->v, b->n, &r);
		} else if (rc == 0 && r.rows != b->n) {
			log_error("%s: the bulk copy took %llu rows of %u", tpcc_stmt_def(b->k)->name,
				  (unsigned long long)r.rows, b->n);
			return -1;
		}
	} else if (b->mode == BM_ARRAY || b->mode == BM_COPY)
		rc = c->ops->execute_batch(c, b->st, b->v, b->n, &r);
	else if (b->mode == BM_INSERT)
		rc = c->ops->query(c, b->text.buf, b->text.len, &r);
	else
		rc = db_bulk_load_buffer(c, b->load_sql[b->k], b->text.buf, b->text.len, &r);
	if (rc < 0) {
		if (b->mode == BM_STREAM && db_bulk_refused(c) && b->probe)
			return -2;
		tpcc_db_fail(c, tpcc_stmt_def(b->k)->name);
		return -1;
	}
	if (b->mode == BM_STREAM && r.rows != b->n) {
		log_error("%s: LOAD DATA loaded %llu rows of %u (warnings on the server?)", tpcc_stmt_def(b->k)->name,
			  (unsigned long long)r.rows, b->n);
		return -1;
	}
	atomic_fetch_add(&b->rows[ld_table(b->k)], b->n);
	b->since_commit += b->n;
	b->n = 0;
	b->used = 0;
	strbuf_reset(&b->text);
	if (b->since_commit >= COMMIT_ROWS) {
		if (c->ops->commit(c) < 0) {
			tpcc_db_fail(c, "COMMIT");
			return -1;
		}
		b->since_commit = 0;
	}
	return 0;
}

/* Switch the batch to another table (flushing what it holds). */
int ld_batch_table(struct batch *b, enum tpcc_stmt k)
{
	const struct tpcc_stmt_def *d = tpcc_stmt_def(k);

	if (ld_batch_flush(b) < 0)
		return -1;
	b->k = k;
	b->np = d->nparams;
	b->st = NULL;
	if (b->mode == BM_INSERT)
		b->tuple = strstr(b->sql->stmt[k], "VALUES ") + 7;
	b->copy_table = b->mode == BM_COPY &&
			db_bulk_copy_plan(b->sql->stmt[k], b->copy_name, sizeof(b->copy_name), b->plan, COPY_COLS,
					  &b->nplan) == 0;
	if ((b->mode == BM_ARRAY || (b->mode == BM_COPY && !b->copy_table)) &&
	    b->c->ops->prepare(b->c, b->sql->stmt[k], d->params, d->nparams, NULL, 0, &b->st) < 0) {
		tpcc_db_fail(b->c, d->name);
		return -1;
	}
	return 0;
}

/* The next row's values; call ld_batch_row_done after filling them. */
struct db_value *ld_batch_row(struct batch *b)
{
	return b->mode == BM_ARRAY || b->mode == BM_COPY ? &b->v[(size_t)b->n * b->np] : b->v;
}

int ld_batch_row_done(struct batch *b)
{
	if (b->mode == BM_ARRAY || b->mode == BM_COPY) {
		b->n++;
		if (b->n == BATCH_ROWS || b->used > ARENA_BYTES - 2048)
			return ld_batch_flush(b);
		return 0;
	}
	batch_format_row(b);
	b->n++;
	b->used = 0;
	if (b->text.len >= (b->mode == BM_STREAM ? STREAM_BYTES : INSERT_BYTES))
		return ld_batch_flush(b);
	return 0;
}
