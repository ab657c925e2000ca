/*
 * prepare for TPC-C (check, cleanup and the tpcc_meta reader are check.c).
 *
 * prepare creates the tables and splits the load into units: ITEM, and per
 * warehouse (1) the warehouse, its districts and its stock, (2) its customers
 * and their history, (3) its orders, order lines and new orders. --threads
 * connections take units one at a time; every unit draws from its own random
 * stream, so the data depends on the seed, not on how units fall to
 * connections. Indexes are built after the data. Rows go in batches, through
 * the backend's fastest path:
 *  - a backend with load_stream (libmysqlclient) streams tab-separated rows
 *    through LOAD DATA LOCAL INFILE (the server parses plain fields instead
 *    of SQL literals); the LOAD statement is derived from the dialect's
 *    INSERT (db_bulk_load_sql), so CURRENT_TIMESTAMP is the same; a server
 *    that refuses local loads (found while storing tpcc_meta, before any
 *    other row) gets multi-row INSERTs;
 *  - ODBC binds parameter arrays (execute_batch, SQL_ATTR_PARAMSET_SIZE).
 * The C-load constants are drawn here and stored in tpcc_meta so that run
 * can pick a C-run with a valid delta. After the indexes, prepare creates
 * the procedure mode's procedures and checks every table's row count.
 */
#include "workload/tpcc/tpcc.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "db/bulk.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH_ROWS 1000          /* ODBC parameter array rows */
#define ARENA_BYTES (BATCH_ROWS * 1200)
#define INSERT_BYTES (1u << 20)  /* one multi-row INSERT (below any max_allowed_packet) */
#define STREAM_BYTES (4u << 20)  /* rows of one LOAD DATA statement */
#define COMMIT_ROWS 20000

enum batch_mode {
	BM_ARRAY,  /* ODBC parameter arrays */
	BM_STREAM, /* LOAD DATA LOCAL INFILE text rows */
	BM_INSERT, /* multi-row INSERT text */
	BM_COPY,   /* SQL Server's bulk copy (copy_rows); rows held as for BM_ARRAY */
};
#define COPY_COLS 24

struct batch {
	struct db_conn *c;
	const struct tpcc_sql *sql;
	char *const *load_sql;   /* BM_STREAM: LOAD statement per table */
	enum batch_mode mode;
	enum tpcc_stmt k;
	struct db_stmt *st;      /* BM_ARRAY: prepared INSERT */
	unsigned np, n;
	struct db_value *v;      /* BM_ARRAY: BATCH_ROWS × np; else one row */
	char *arena;
	size_t used;
	struct strbuf text;      /* BM_STREAM / BM_INSERT: the batch's rows */
	const char *tuple;       /* BM_INSERT: "(?, …)" of the INSERT */
	uint64_t since_commit;
	atomic_ullong *rows;     /* rows sent, per enum tpcc_table */
	bool probe;              /* a refused LOAD DATA returns -2, unreported */
	/* BM_COPY: the table's plan (db_bulk_copy_plan), or copy_table false
	 * when its INSERT has another expression (then a parameter array). */
	bool copy_table;
	char copy_name[64];
	struct db_copy_col plan[COPY_COLS];
	unsigned nplan;
	const char *copy_cols[COPY_COLS];
	enum db_type copy_types[COPY_COLS];
	struct db_value *cv;     /* BATCH_ROWS × nplan: the values per column */
	const char *now;         /* the load's time, "YYYY-MM-DDTHH:MM:SS" (ISO 8601) */
	atomic_int *no_copy_said;
};

struct loader {
	const struct tpcc_sql *sql;
	const struct db_driver_ops *drv;
	const struct db_conn_params *cp;
	unsigned warehouses;
	struct tpcc_c c_load;
	enum batch_mode mode;
	char *load_sql[TS_COUNT];
	atomic_uint next_unit;
	atomic_ullong rows[TPCC_TABLES]; /* rows sent per table */
	atomic_int failed;
	uint64_t seed;
	uint64_t pad_to; /* --pad-to, stored in tpcc_meta */
	char now[24];            /* O_ENTRY_D = OL_DELIVERY_D; BM_COPY: CURRENT_TIMESTAMP too */
	atomic_int no_copy_said; /* "no bulk copy: parameter arrays" printed once */
};

void tpcc_db_fail(struct db_conn *c, const char *what)
{
	log_error("%s failed: error %d (%s): %s", what, c->err.native, c->err.sqlstate, c->err.msg);
}

int tpcc_exec_text(struct db_conn *c, const char *sql)
{
	char what[100];

	if (c->ops->query(c, sql, strlen(sql), NULL) == 0)
		return 0;
	snprintf(what, sizeof(what), "%.*s", (int)strcspn(sql, "\n("), sql);
	tpcc_db_fail(c, what);
	return -1;
}

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

static void batch_init(struct batch *b, struct db_conn *c, const struct loader *l, atomic_ullong *rows)
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

static void batch_release(struct batch *b)
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

static int batch_flush(struct batch *b)
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
static int batch_table(struct batch *b, enum tpcc_stmt k)
{
	const struct tpcc_stmt_def *d = tpcc_stmt_def(k);

	if (batch_flush(b) < 0)
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

/* The next row's values; call batch_row_done after filling them. */
static struct db_value *batch_row(struct batch *b)
{
	return b->mode == BM_ARRAY || b->mode == BM_COPY ? &b->v[(size_t)b->n * b->np] : b->v;
}

static int batch_row_done(struct batch *b)
{
	if (b->mode == BM_ARRAY || b->mode == BM_COPY) {
		b->n++;
		if (b->n == BATCH_ROWS || b->used > ARENA_BYTES - 2048)
			return batch_flush(b);
		return 0;
	}
	batch_format_row(b);
	b->n++;
	b->used = 0;
	if (b->text.len >= (b->mode == BM_STREAM ? STREAM_BYTES : INSERT_BYTES))
		return batch_flush(b);
	return 0;
}

static void vi(struct db_value *v, int64_t x)
{
	v->type = DB_TYPE_INT32;
	v->is_null = false;
	v->i = x;
}

static void vnull(struct db_value *v)
{
	v->type = DB_TYPE_INT32;
	v->is_null = true;
}

static void vnulls(struct db_value *v)
{
	v->type = DB_TYPE_STRING;
	v->is_null = true;
}

static void vd(struct db_value *v, double x)
{
	v->type = DB_TYPE_DOUBLE;
	v->is_null = false;
	v->d = x;
}

/* A string value stored in the batch's arena. */
static char *vs(struct batch *b, struct db_value *v, size_t len)
{
	char *p = b->arena + b->used;

	b->used += len;
	v->type = DB_TYPE_STRING;
	v->is_null = false;
	v->s = p;
	v->len = len;
	return p;
}

static void vstr(struct batch *b, struct db_value *v, const char *s)
{
	size_t n = strlen(s);

	memcpy(vs(b, v, n), s, n);
}

/* The load's time, as a DB_TYPE_TIMESTAMP value (its text, b->now). */
static void vtime(struct batch *b, struct db_value *v)
{
	vstr(b, v, b->now);
	v->type = DB_TYPE_TIMESTAMP;
}

/* A random a-string (clause 4.3.2.2) of length in [lo, hi] (rand.c). */
static void vastr(struct batch *b, struct db_value *v, struct rng *r, unsigned lo, unsigned hi)
{
	unsigned n = rng_uniform(r, lo, hi);

	tpcc_astring(r, vs(b, v, n), n);
}

static void vnstr(struct batch *b, struct db_value *v, struct rng *r, unsigned n)
{
	char *p = vs(b, v, n);

	for (unsigned i = 0; i < n; i++)
		p[i] = (char)('0' + rng_uniform(r, 0, 9));
}

/* I_DATA / S_DATA: 26..50 letters, 10% with "ORIGINAL" somewhere. */
static void vdata(struct batch *b, struct db_value *v, struct rng *r)
{
	vastr(b, v, r, 26, 50);
	if (rng_uniform(r, 1, 10) == 1) {
		unsigned at = rng_uniform(r, 0, (unsigned)v->len - 8);
		memcpy((char *)v->s + at, "ORIGINAL", 8);
	}
}

static void vzip(struct batch *b, struct db_value *v, struct rng *r)
{
	char *p;

	vnstr(b, v, r, 4);
	p = vs(b, v, 5);
	memcpy(p, "11111", 5);
	v->s = p - 4;
	v->len = 9;
}

static void vaddress(struct batch *b, struct db_value *v, struct rng *r)
{
	vastr(b, &v[0], r, 10, 20);
	vastr(b, &v[1], r, 10, 20);
	vastr(b, &v[2], r, 10, 20);
	vastr(b, &v[3], r, 2, 2);
	vzip(b, &v[4], r);
}

static int load_items(struct batch *b, struct rng *r)
{
	if (batch_table(b, TS_LD_ITEM) < 0)
		return -1;
	for (unsigned i = 1; i <= 100000; i++) {
		struct db_value *v = batch_row(b);
		vi(&v[0], i);
		vi(&v[1], rng_uniform(r, 1, 10000));
		vastr(b, &v[2], r, 14, 24);
		vd(&v[3], rng_uniform(r, 100, 10000) / 100.0);
		vdata(b, &v[4], r);
		if (batch_row_done(b) < 0)
			return -1;
	}
	return 0;
}

/* Unit 1 of a warehouse: its row, its districts and its stock. */
static int load_stock(struct batch *b, struct rng *r, unsigned w)
{
	struct db_value *v;

	if (batch_table(b, TS_LD_WAREHOUSE) < 0)
		return -1;
	v = batch_row(b);
	vi(&v[0], w);
	vastr(b, &v[1], r, 6, 10);
	vaddress(b, &v[2], r);
	vd(&v[7], rng_uniform(r, 0, 2000) / 10000.0);
	vd(&v[8], 300000.0);
	if (batch_row_done(b) < 0 || batch_table(b, TS_LD_DISTRICT) < 0)
		return -1;
	for (unsigned d = 1; d <= 10; d++) {
		v = batch_row(b);
		vi(&v[0], d);
		vi(&v[1], w);
		vastr(b, &v[2], r, 6, 10);
		vaddress(b, &v[3], r);
		vd(&v[8], rng_uniform(r, 0, 2000) / 10000.0);
		vd(&v[9], 30000.0);
		vi(&v[10], 3001);
		if (batch_row_done(b) < 0)
			return -1;
	}
	if (batch_table(b, TS_LD_STOCK) < 0)
		return -1;
	for (unsigned i = 1; i <= 100000; i++) {
		v = batch_row(b);
		vi(&v[0], i);
		vi(&v[1], w);
		vi(&v[2], rng_uniform(r, 10, 100));
		for (unsigned k = 0; k < 10; k++)
			vastr(b, &v[3 + k], r, 24, 24);
		vi(&v[13], 0);
		vi(&v[14], 0);
		vi(&v[15], 0);
		vdata(b, &v[16], r);
		if (batch_row_done(b) < 0)
			return -1;
	}
	return 0;
}

/* Unit 2: the warehouse's customers and their history rows. */
static int load_customers(struct loader *l, struct batch *b, struct rng *r, unsigned w)
{
	struct db_value *v;

	if (batch_table(b, TS_LD_CUSTOMER) < 0)
		return -1;
	for (unsigned d = 1; d <= 10; d++) {
		for (unsigned c = 1; c <= 3000; c++) {
			char last[16];
			unsigned n = tpcc_last_name(c <= 1000 ? c - 1 : tpcc_nurand(r, 255, 0, 999, l->c_load.c_last), last);
			v = batch_row(b);
			vi(&v[0], c);
			vi(&v[1], d);
			vi(&v[2], w);
			vastr(b, &v[3], r, 8, 16);
			vstr(b, &v[4], "OE");
			memcpy(vs(b, &v[5], n), last, n);
			vaddress(b, &v[6], r);
			vnstr(b, &v[11], r, 16);
			vstr(b, &v[12], rng_uniform(r, 1, 10) == 1 ? "BC" : "GC");
			vd(&v[13], 50000.0);
			vd(&v[14], rng_uniform(r, 0, 5000) / 10000.0);
			vd(&v[15], -10.0);
			vd(&v[16], 10.0);
			vi(&v[17], 1);
			vi(&v[18], 0);
			vastr(b, &v[19], r, 300, 500);
			if (batch_row_done(b) < 0)
				return -1;
		}
	}
	if (batch_table(b, TS_LD_HISTORY) < 0)
		return -1;
	for (unsigned d = 1; d <= 10; d++) {
		for (unsigned c = 1; c <= 3000; c++) {
			v = batch_row(b);
			vi(&v[0], c);
			vi(&v[1], d);
			vi(&v[2], w);
			vi(&v[3], d);
			vi(&v[4], w);
			vd(&v[5], 10.0);
			vastr(b, &v[6], r, 12, 24);
			if (batch_row_done(b) < 0)
				return -1;
		}
	}
	return 0;
}

/* Unit 3: orders with their lines and the new orders, one district at a
 * time; O_C_ID is a random permutation of the customers. */
static int load_orders(struct batch *b, struct rng *r, unsigned w)
{
	struct db_value *v;
	uint32_t perm[3000];

	for (unsigned d = 1; d <= 10; d++) {
		uint8_t ol_cnt[3000];
		for (unsigned i = 0; i < 3000; i++)
			perm[i] = i + 1;
		for (unsigned i = 2999; i > 0; i--) {
			unsigned j = rng_uniform(r, 0, i);
			uint32_t t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		if (batch_table(b, TS_LD_ORDERS) < 0)
			return -1;
		for (unsigned o = 1; o <= 3000; o++) {
			v = batch_row(b);
			ol_cnt[o - 1] = (uint8_t)rng_uniform(r, 5, 15);
			vi(&v[0], o);
			vi(&v[1], d);
			vi(&v[2], w);
			vi(&v[3], perm[o - 1]);
			vtime(b, &v[4]);
			if (o < 2101)
				vi(&v[5], rng_uniform(r, 1, 10));
			else
				vnull(&v[5]);
			vi(&v[6], ol_cnt[o - 1]);
			vi(&v[7], 1);
			if (batch_row_done(b) < 0)
				return -1;
		}
		if (batch_table(b, TS_LD_ORDER_LINE) < 0)
			return -1;
		for (unsigned o = 1; o <= 3000; o++) {
			for (unsigned n = 1; n <= ol_cnt[o - 1]; n++) {
				v = batch_row(b);
				vi(&v[0], o);
				vi(&v[1], d);
				vi(&v[2], w);
				vi(&v[3], n);
				vi(&v[4], rng_uniform(r, 1, 100000));
				vi(&v[5], w);
				if (o < 2101)
					vtime(b, &v[6]);
				else
					vnulls(&v[6]);
				vi(&v[7], 5);
				vd(&v[8], o < 2101 ? 0.0 : rng_uniform(r, 1, 999999) / 100.0);
				vastr(b, &v[9], r, 24, 24);
				if (batch_row_done(b) < 0)
					return -1;
			}
		}
		if (batch_table(b, TS_LD_NEW_ORDER) < 0)
			return -1;
		for (unsigned o = 2101; o <= 3000; o++) {
			v = batch_row(b);
			vi(&v[0], o);
			vi(&v[1], d);
			vi(&v[2], w);
			if (batch_row_done(b) < 0)
				return -1;
		}
	}
	return 0;
}

/* Load unit u (0 = ITEM, then three per warehouse) from its own random
 * stream, and commit. */
static int load_unit(struct loader *l, struct batch *b, unsigned u)
{
	struct rng r;
	unsigned w = u ? (u - 1) / 3 + 1 : 0;
	int rc;

	rng_seed(&r, l->seed ^ (0x9E3779B97F4A7C15ULL * (u + 1)));
	if (u == 0)
		rc = load_items(b, &r);
	else if ((u - 1) % 3 == 0)
		rc = load_stock(b, &r, w);
	else if ((u - 1) % 3 == 1)
		rc = load_customers(l, b, &r, w);
	else
		rc = load_orders(b, &r, w);
	if (rc < 0 || batch_flush(b) < 0)
		return -1;
	if (b->c->ops->commit(b->c) < 0) {
		tpcc_db_fail(b->c, "COMMIT");
		return -1;
	}
	b->since_commit = 0;
	return 0;
}

/* The driver's settings for a loader (db.h); on MariaDB 10.11 they were
 * measured with LOAD DATA and the units above (2 CPUs, a loaded machine,
 * alternating rounds) at no difference beyond the noise, and stay. */
static void bulk_session(struct db_conn *c)
{
	if (c->ops->bulk_session)
		c->ops->bulk_session(c);
}

struct worker {
	struct loader *l;
	unsigned index;
	pthread_t th;
};

static void *load_worker(void *arg)
{
	struct worker *wk = arg;
	struct loader *l = wk->l;
	struct db_conn c = {.ops = l->drv};
	struct batch b;
	unsigned units = 1 + 3 * l->warehouses;

	batch_init(&b, &c, l, l->rows);
	if (l->drv->connect(&c, l->cp) < 0) {
		tpcc_db_fail(&c, "connect");
		atomic_store(&l->failed, 1);
		goto out;
	}
	bulk_session(&c);
	for (;;) {
		unsigned u = atomic_fetch_add(&l->next_unit, 1);
		if (u >= units || atomic_load(&l->failed))
			break;
		if (load_unit(l, &b, u) < 0) {
			atomic_store(&l->failed, 1);
			break;
		}
	}
out:
	batch_release(&b);
	l->drv->disconnect(&c);
	return NULL;
}

/* tpcc_meta's rows, the first rows loaded: a server that refuses LOAD DATA
 * LOCAL says so here, and the load switches to multi-row INSERTs. */
static int store_meta(struct loader *l, struct db_conn *c)
{
	static const char *const names[] = {"c_load_c_last", "c_load_c_id", "c_load_ol_i_id", "warehouses", "pad_to"};
	uint64_t vals[] = {l->c_load.c_last, l->c_load.c_id, l->c_load.ol_i_id, l->warehouses, l->pad_to};
	struct batch b;
	int ret = -1, rc;

again:
	batch_init(&b, c, l, l->rows);
	b.probe = true;
	if (batch_table(&b, TS_LD_META) < 0)
		goto out;
	/* pad_to only with --pad-to: a database without padding keeps its four rows. */
	for (unsigned i = 0; i < (l->pad_to ? 5u : 4u); i++) {
		struct db_value *v = batch_row(&b);
		vstr(&b, &v[0], names[i]);
		vi(&v[1], (int64_t)vals[i]);
		if (batch_row_done(&b) < 0)
			goto out;
	}
	rc = batch_flush(&b);
	if (rc == -2) {
		printf("The server refuses LOAD DATA LOCAL INFILE (error %d): loading with multi-row INSERTs\n",
		       c->err.native);
		fflush(stdout);
		l->mode = BM_INSERT;
		batch_release(&b);
		goto again;
	}
	if (rc < 0)
		goto out;
	if (c->ops->commit(c) < 0) {
		tpcc_db_fail(c, "COMMIT");
		goto out;
	}
	ret = 0;
out:
	batch_release(&b);
	return ret;
}

/* The load's last step, whatever path the rows took: every table holds the
 * rows the loader sent, and those are what the scale requires (clause
 * 4.3.3.1: 30,000 customers, history rows and orders per warehouse, 9,000 new
 * orders, 100,000 stock rows; 100,000 items; 5 to 15 lines per order). */
static int verify_rows(struct loader *l, struct db_conn *c)
{
	uint64_t w = l->warehouses;
	const uint64_t want[TPCC_TABLES] = {
		[TB_WAREHOUSE] = w,          [TB_DISTRICT] = 10 * w,   [TB_CUSTOMER] = 30000 * w,
		[TB_ORDERS] = 30000 * w,     [TB_NEW_ORDER] = 9000 * w, [TB_ITEM] = 100000,
		[TB_STOCK] = 100000 * w,     [TB_HISTORY] = 30000 * w, [TB_ORDER_LINE] = 0,
		[TB_META] = l->pad_to ? 5 : 4,
	};
	int64_t got[TPCC_TABLES], ol_cnt = 0;
	struct strbuf lost, scale, sb;
	int ret = 0;

	if (tpcc_select_ints(c, l->sql, TS_CHK_ROWS, got, TPCC_TABLES) < 0 ||
	    tpcc_select_ints(c, l->sql, TS_CHK_OL_CNT, &ol_cnt, 1) < 0)
		return -1;
	c->ops->commit(c);
	strbuf_init(&lost, 128);
	strbuf_init(&scale, 128);
	strbuf_init(&sb, 256);
	for (unsigned i = 0; i < TPCC_TABLES; i++) {
		uint64_t sent = atomic_load(&l->rows[i]);
		const char *name = tpcc_table_name((enum tpcc_table)i);
		if ((uint64_t)got[i] != sent)
			strbuf_addf(&lost, "%s%s %lld of %llu", lost.len ? ", " : "", name, (long long)got[i],
				    (unsigned long long)sent);
		else if (i == TB_ORDER_LINE ? sent < 5 * want[TB_ORDERS] || sent > 15 * want[TB_ORDERS] ||
						      (int64_t)sent != ol_cnt
					    : sent != want[i])
			strbuf_addf(&scale, "%s%s %lld, not %llu", scale.len ? ", " : "", name, (long long)got[i],
				    (unsigned long long)(i == TB_ORDER_LINE ? (uint64_t)ol_cnt : want[i]));
		else if (i != TB_META)
			strbuf_addf(&sb, "%s %s %lld", sb.len ? "," : "", name, (long long)got[i]);
	}
	if (lost.len) {
		log_error("prepare: rows were lost without an error (rows in the table of rows sent): %s", lost.buf);
		ret = -1;
	} else if (scale.len) {
		log_error("prepare: the tables do not have the rows %u warehouses need: %s", l->warehouses, scale.buf);
		ret = -1;
	} else {
		printf("Verified the row counts against the scale:%s\n", sb.buf);
		fflush(stdout);
	}
	strbuf_release(&lost);
	strbuf_release(&scale);
	strbuf_release(&sb);
	return ret;
}

/* --pad-to: the padding columns, after the tables and before the load (which does not name them). */
static int pad_columns(struct db_conn *c, enum tpcc_dialect d, uint64_t pad_to)
{
	unsigned width[TPCC_PAD_TABLES];
	char err[256], *stmts[TPCC_PAD_STMTS_MAX];
	unsigned n;
	int ret = 0;

	if (!pad_to)
		return 0;
	if (tpcc_pad_widths(d, pad_to, width, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	printf("Padding to %llu bytes per warehouse: CHAR(%u) on customer, CHAR(%u) on stock, CHAR(%u) on "
	       "order_line\n", (unsigned long long)pad_to, width[0], width[1], width[2]);
	fflush(stdout);
	n = tpcc_pad_sql(d, width, stmts);
	for (unsigned i = 0; i < n; i++) {
		if (!ret && tpcc_exec_text(c, stmts[i]) < 0)
			ret = -1;
		free(stmts[i]);
	}
	return ret;
}

unsigned tpcc_loaders(enum tpcc_dialect d, unsigned threads, unsigned units)
{
	if (d == TPCC_MSSQL && threads > TPCC_MSSQL_LOADERS_MAX)
		threads = TPCC_MSSQL_LOADERS_MAX;
	return threads > units ? units : threads;
}

int tpcc_prepare(const struct tpcc_sql *sql, unsigned warehouses, const struct db_driver_ops *drv,
		 const struct db_conn_params *cp, unsigned threads, uint64_t seed, uint64_t pad_to,
		 struct tpcc_load_stats *st)
{
	struct loader l;
	struct db_conn c = {.ops = drv};
	struct worker *wk = NULL;
	struct db_conn_params lcp = *cp;
	struct rng r;
	uint64_t t0 = clock_now_ns();
	unsigned units = 1 + 3 * warehouses;
	int ret = -1;

	memset(&l, 0, sizeof(l));
	memset(st, 0, sizeof(*st));
	l.sql = sql;
	l.drv = drv;
	l.cp = &lcp;
	l.mode = drv->execute_batch ? BM_ARRAY : BM_INSERT;
	/* SQL Server: the driver's bulk copy where it has one (msodbcsql's bcp
	 * API; a connection without it falls back to parameter arrays). */
	/* One client time for the whole load: every order's O_ENTRY_D and every
	 * delivered line's OL_DELIVERY_D (clause 4.3.3.1: equal), on every
	 * path. ISO 8601 with the T: SQL Server reads that text whatever
	 * DATEFORMAT the login has (the ODBC canonical "YYYY-MM-DD hh:mm:ss"
	 * it reads as YYYY-DD-MM under DATEFORMAT dmy); MariaDB and PostgreSQL
	 * read it too. On ODBC the parameters are DB_TYPE_TIMESTAMP: the text
	 * is parsed here and bound as SQL_TYPE_TIMESTAMP (parameter arrays)
	 * or SQLDATETIME (bulk copy), so no driver reads it. */
	{
		time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		strftime(l.now, sizeof(l.now), "%Y-%m-%dT%H:%M:%S", &tm);
	}
	if (drv->copy_rows && drv->execute_batch && sql->dialect == TPCC_MSSQL) {
		lcp.bulk_copy = true;
		l.mode = BM_COPY;
	}
	if (drv->load_stream) {
		lcp.allow_load_stream = true;
		l.mode = BM_STREAM;
		for (unsigned k = TS_LD_ITEM; k <= TS_LD_META; k++) {
			l.load_sql[k] = db_bulk_load_sql(sql->stmt[k]);
			if (!l.load_sql[k]) {
				log_error("%s: cannot make a LOAD DATA statement of: %s", tpcc_stmt_def(k)->name, sql->stmt[k]);
				goto out;
			}
		}
	}
	l.warehouses = warehouses;
	l.seed = seed;
	l.pad_to = pad_to;
	rng_seed(&r, seed);
	l.c_load.c_last = rng_uniform(&r, 0, 255);
	l.c_load.c_id = rng_uniform(&r, 0, 1023);
	l.c_load.ol_i_id = rng_uniform(&r, 0, 8191);
	if (drv->connect(&c, &lcp) < 0) {
		tpcc_db_fail(&c, "connect");
		goto out;
	}
	printf("Creating tables (dialect %s)...\n", tpcc_dialect_name(sql->dialect));
	fflush(stdout);
	for (unsigned i = 0; i < sql->nschema; i++)
		if (tpcc_exec_text(&c, sql->schema[i]) < 0) {
			log_error("is the database already prepared? (dbrig tpcc cleanup removes the tables)");
			goto out;
		}
	if (pad_columns(&c, sql->dialect, pad_to) < 0 || drv->commit(&c) < 0 || store_meta(&l, &c) < 0)
		goto out;
	{
		unsigned asked = threads > units ? units : threads;
		threads = tpcc_loaders(sql->dialect, threads, units);
		if (threads < asked)
			printf("SQL Server: loading with %u connections, not %u (at most %u: docs/tpcc.md, \"Load on "
			       "SQL Server\")\n", threads, asked, TPCC_MSSQL_LOADERS_MAX);
	}
	printf("Loading %u warehouses with %u connections...\n", warehouses, threads);
	fflush(stdout);
	wk = xcalloc(threads, sizeof(*wk));
	for (unsigned i = 0; i < threads; i++) {
		wk[i].l = &l;
		wk[i].index = i;
		if (pthread_create(&wk[i].th, NULL, load_worker, &wk[i]) != 0) {
			log_error("cannot start loader thread");
			atomic_store(&l.failed, 1);
			threads = i;
			break;
		}
	}
	for (unsigned i = 0; i < threads; i++)
		pthread_join(wk[i].th, NULL);
	if (atomic_load(&l.failed))
		goto out;
	printf("Creating indexes...\n");
	fflush(stdout);
	for (unsigned i = 0; i < sql->nindexes; i++)
		if (tpcc_exec_text(&c, sql->indexes[i]) < 0)
			goto out;
	if (drv->commit(&c) < 0) {
		tpcc_db_fail(&c, "COMMIT");
		goto out;
	}
	/* The procedure mode's procedures (sql/<dialect>/procedures.sql). */
	printf("Creating procedures...\n");
	fflush(stdout);
	for (unsigned i = 0; i < sql->nprocs; i++)
		if (tpcc_exec_text(&c, sql->procs[i]) < 0)
			goto out;
	if (drv->commit(&c) < 0) {
		tpcc_db_fail(&c, "COMMIT");
		goto out;
	}
	if (verify_rows(&l, &c) < 0)
		goto out;
	for (unsigned i = 0; i < TPCC_TABLES; i++)
		st->rows += atomic_load(&l.rows[i]);
	st->seconds = (double)(clock_now_ns() - t0) / 1e9;
	st->c_load = l.c_load;
	ret = 0;
out:
	free(wk);
	for (unsigned k = 0; k < TS_COUNT; k++)
		free(l.load_sql[k]);
	drv->disconnect(&c);
	return ret;
}
