/*
 * prepare for TPC-C (check, cleanup and the tpcc_meta reader are check.c;
 * the rows are load_rows.c, the batches they go in load_batch.c).
 *
 * prepare creates the tables and splits the load into units: ITEM, and per
 * warehouse (1) the warehouse, its districts and its stock, (2) its customers
 * and their history, (3) its orders, order lines and new orders. --threads
 * connections take units one at a time; every unit draws from its own random
 * stream, so the data depends on the seed, not on how units fall to
 * connections. Indexes are built after the data. Rows go in batches, through
 * the backend's fastest path (load_batch.c): LOAD DATA LOCAL INFILE where the
 * backend streams (multi-row INSERTs where the server refuses local loads),
 * ODBC parameter arrays, SQL Server's bulk copy.
 * The C-load constants are drawn here and stored in tpcc_meta so that run
 * can pick a C-run with a valid delta. After the indexes, prepare creates
 * the procedure mode's procedures and checks every table's row count.
 */
#include "workload/tpcc/tpcc.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "db/bulk.h"
#include "workload/tpcc/load_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

	ld_batch_init(&b, &c, l, l->rows);
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
		if (ld_unit(l, &b, u) < 0) {
			atomic_store(&l->failed, 1);
			break;
		}
	}
out:
	ld_batch_release(&b);
	l->drv->disconnect(&c);
	return NULL;
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

/* The loader's path for this backend (its mode, the LOAD DATA statements of
 * a backend that streams, the connection parameters that allow it) and the
 * load's one client time. 0, or -1 with the error logged. */
static int loader_setup(struct loader *l, struct db_conn_params *lcp, const struct tpcc_sql *sql,
			const struct db_driver_ops *drv)
{
	l->sql = sql;
	l->drv = drv;
	l->cp = lcp;
	l->mode = drv->execute_batch ? BM_ARRAY : BM_INSERT;
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
		strftime(l->now, sizeof(l->now), "%Y-%m-%dT%H:%M:%S", &tm);
	}
	/* SQL Server: the driver's bulk copy where it has one (msodbcsql's bcp
	 * API; a connection without it falls back to parameter arrays). */
	if (drv->copy_rows && drv->execute_batch && sql->dialect == TPCC_MSSQL) {
		lcp->allow_copy_rows = true;
		l->mode = BM_COPY;
	}
	if (drv->load_stream) {
		lcp->allow_load_stream = true;
		l->mode = BM_STREAM;
		for (unsigned k = TS_LD_ITEM; k <= TS_LD_META; k++) {
			l->load_sql[k] = db_bulk_load_sql(sql->stmt[k]);
			if (!l->load_sql[k]) {
				log_error("%s: cannot make a LOAD DATA statement of: %s", tpcc_stmt_def(k)->name, sql->stmt[k]);
				return -1;
			}
		}
	}
	return 0;
}

/* The units loaded by `threads` connections (at most tpcc_loaders of them),
 * each taking the next unit until none is left. 0, or -1 when a loader
 * failed (logged). */
static int run_loaders(struct loader *l, unsigned threads, unsigned units)
{
	struct worker *wk;
	unsigned asked = threads > units ? units : threads;

	threads = tpcc_loaders(l->sql->dialect, threads, units);
	if (threads < asked)
		printf("SQL Server: loading with %u connections, not %u (at most %u: docs/tpcc.md, \"Load on "
		       "SQL Server\")\n", threads, asked, TPCC_MSSQL_LOADERS_MAX);
	printf("Loading %u warehouses with %u connections...\n", l->warehouses, threads);
	fflush(stdout);
	wk = xcalloc(threads, sizeof(*wk));
	for (unsigned i = 0; i < threads; i++) {
		wk[i].l = l;
		wk[i].index = i;
		if (pthread_create(&wk[i].th, NULL, load_worker, &wk[i]) != 0) {
			log_error("cannot start loader thread");
			atomic_store(&l->failed, 1);
			threads = i;
			break;
		}
	}
	for (unsigned i = 0; i < threads; i++)
		pthread_join(wk[i].th, NULL);
	free(wk);
	return atomic_load(&l->failed) ? -1 : 0;
}

int tpcc_prepare(const struct tpcc_sql *sql, unsigned warehouses, const struct db_driver_ops *drv,
		 const struct db_conn_params *cp, unsigned threads, uint64_t seed, uint64_t pad_to,
		 struct tpcc_load_stats *st)
{
	struct loader l;
	struct db_conn c = {.ops = drv};
	struct db_conn_params lcp = *cp;
	struct rng r;
	uint64_t t0 = clock_now_ns();
	unsigned units = 1 + 3 * warehouses;
	int ret = -1;

	memset(&l, 0, sizeof(l));
	memset(st, 0, sizeof(*st));
	if (loader_setup(&l, &lcp, sql, drv) < 0)
		goto out;
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
	if (pad_columns(&c, sql->dialect, pad_to) < 0 || drv->commit(&c) < 0 || ld_store_meta(&l, &c) < 0)
		goto out;
	if (run_loaders(&l, threads, units) < 0)
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
	for (unsigned k = 0; k < TS_COUNT; k++)
		free(l.load_sql[k]);
	drv->disconnect(&c);
	return ret;
}
