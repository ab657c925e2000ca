/*
 * prepare, prewarm and cleanup for the sysbench tables.
 *
 * prepare makes the same data as sysbench 1.0.20 (ids 1..N in order, k drawn
 * from --rand-type, c and pad from the digit templates, the k_N index built
 * after the data) but loads it faster:
 *  - rows are streamed with LOAD DATA LOCAL INFILE from an in-memory
 *    generator (no file is written), which costs the server less per row
 *    than parsing INSERT literals; a server that refuses local loads gets
 *    multi-row INSERTs as large as max_allowed_packet allows instead;
 *  - rows carry explicit ids, so a table can be split into id ranges loaded
 *    by several connections at once: --threads stay busy even with fewer
 *    tables than threads;
 *  - the generator is C, not Lua, and leaves the CPU to the server.
 * MariaDB's bulk-insert path (unique_checks=0 in one transaction) was tried
 * and measured slower here, so session settings are left as they are.
 */
#include "workload/sysbench/sysbench.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "db/bulk.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STMT_BYTES (4u << 20)
#define MIN_CHUNK_ROWS 50000u
#define MAX_CHUNK_ROWS 1000000u

#define C_TEMPLATE "###########-###########-###########-###########-###########-" \
		   "###########-###########-###########-###########-###########"
#define PAD_TEMPLATE "###########-###########-###########-###########-###########"

struct chunk {
	unsigned table;
	uint64_t first, last;  /* ids, inclusive; last = 0 for a table without rows */
	uint64_t rows_in_table;
};

struct loader {
	const struct sb_opts *o;
	const struct db_driver_ops *drv;
	const struct db_conn_params *cp;
	struct chunk *chunks;
	unsigned nchunks;
	atomic_uint next_chunk;
	atomic_uint *chunks_left; /* per table */
	bool *created;            /* per table, under out_mu: CREATE TABLE done */
	pthread_cond_t created_cv;
	atomic_ullong rows;
	atomic_int failed;
	atomic_int no_local; /* the server refused LOAD DATA LOCAL: use INSERTs */
	pthread_mutex_t out_mu;
	uint64_t seed;
};

static void say(struct loader *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct loader *l, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&l->out_mu);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
	pthread_mutex_unlock(&l->out_mu);
}

/* A failed statement, in sysbench's two lines (drv_mysql.c, then the Lua
 * frame's SQL error); statements beyond 4,000 bytes (bulk loads) are cut,
 * as sysbench's 4 KiB message buffer cuts them. */
static void report_db_error(struct db_conn *c, const char *test, const char *sql)
{
	if (c->err.native)
		log_error("mysql_drv_query() returned error %d (%s) for query '%.4000s%s'", c->err.native, c->err.msg, sql,
			  strlen(sql) > 4000 ? "..." : "");
	log_error("`sysbench.cmdline.call_command' function failed: %s: SQL error, errno = %d, state = '%s': %s",
		  test, c->err.native, c->err.sqlstate, c->err.msg);
}

static int run_sql(struct db_conn *c, const struct sb_opts *o, const char *sql)
{
	if (c->ops->query(c, sql, strlen(sql), NULL) == 0)
		return 0;
	report_db_error(c, sb_test_name(o->test), sql);
	return -1;
}

static uint64_t packet_limit(struct db_conn *c)
{
	/* max_allowed_packet is read through a prepared statement's result. */
	static const enum db_type col[] = {DB_TYPE_INT64};
	struct db_stmt *st = NULL;
	struct db_exec_result r;
	struct db_value v;
	uint64_t lim = 1u << 20;

	if (c->ops->prepare(c, "SELECT @@max_allowed_packet", NULL, 0, col, 1, &st) == 0 &&
	    c->ops->execute(c, st, NULL, &r) == 0 && c->ops->fetch(c, st, &v) == 1 && v.i > 65536)
		lim = (uint64_t)v.i - 16384;
	if (st)
		while (c->ops->fetch(c, st, &v) == 1)
			;
	return lim < MAX_STMT_BYTES ? lim : MAX_STMT_BYTES;
}

/* Row text for LOAD DATA: "id\tk\tc\tpad\n" (digits and dashes only, so no
 * escaping is needed). */
struct row_gen {
	struct loader *l;
	const struct chunk *ch;
	struct rng *r;
	uint64_t next_id;
	char row[256];
	size_t row_len, row_off;
};

static void gen_row(struct row_gen *g)
{
	char cval[sizeof(C_TEMPLATE)], pad[sizeof(PAD_TEMPLATE)];

	cval[sizeof(cval) - 1] = pad[sizeof(pad) - 1] = '\0';
	rand_template(g->r, C_TEMPLATE, cval);
	rand_template(g->r, PAD_TEMPLATE, pad);
	g->row_len = (size_t)snprintf(g->row, sizeof(g->row), "%llu\t%u\t%s\t%s\n", (unsigned long long)g->next_id,
				      rand_dist_draw(g->r, &g->l->o->dist, 1, g->l->o->table_size), cval, pad);
	g->row_off = 0;
	g->next_id++;
}

static long gen_fill(void *arg, char *buf, size_t cap)
{
	struct row_gen *g = arg;
	size_t n = 0;

	while (n < cap) {
		if (g->row_off == g->row_len) {
			if (g->next_id > g->ch->last)
				break;
			gen_row(g);
		}
		size_t take = g->row_len - g->row_off;
		if (take > cap - n)
			take = cap - n;
		memcpy(buf + n, g->row + g->row_off, take);
		g->row_off += take;
		n += take;
	}
	return (long)n;
}

/* Stream the chunk through LOAD DATA LOCAL INFILE: the server parses plain
 * tab-separated rows instead of SQL literals (measured here: about 1.5x less
 * server CPU per row than multi-row INSERTs). Returns 0, -1 on error, or 1
 * when the server refuses local loads (nothing was loaded). */
static int load_chunk_stream(struct loader *l, struct db_conn *c, const struct chunk *ch, struct rng *r)
{
	struct row_gen g = {.l = l, .ch = ch, .r = r, .next_id = ch->first};
	struct db_exec_result res;
	char sql[160];

	snprintf(sql, sizeof(sql),
		 "LOAD DATA LOCAL INFILE 'dbrig-rows' INTO TABLE sbtest%u FIELDS TERMINATED BY '\\t' (id, k, c, pad)",
		 ch->table);
	if (c->ops->load_stream(c, sql, gen_fill, &g, &res) < 0) {
		if (db_bulk_refused(c))
			return 1;
		report_db_error(c, sb_test_name(l->o->test), sql);
		return -1;
	}
	if (res.rows != ch->last - ch->first + 1) {
		log_error("LOAD DATA into sbtest%u: %llu rows loaded, %llu expected (are there warnings on the server?)",
			  ch->table, (unsigned long long)res.rows, (unsigned long long)(ch->last - ch->first + 1));
		return -1;
	}
	atomic_fetch_add(&l->rows, res.rows);
	return 0;
}

/* Multi-row INSERTs as large as max_allowed_packet allows (up to 4 MiB),
 * each its own transaction, as sysbench's bulk insert but larger. */
static int load_chunk_insert(struct loader *l, struct db_conn *c, const struct chunk *ch, struct rng *r,
			     uint64_t limit, struct strbuf *sb)
{
	char cval[sizeof(C_TEMPLATE)], pad[sizeof(PAD_TEMPLATE)];
	char head[96];
	size_t head_len;

	head_len = (size_t)snprintf(head, sizeof(head), "INSERT INTO sbtest%u(id, k, c, pad) VALUES", ch->table);
	cval[sizeof(cval) - 1] = pad[sizeof(pad) - 1] = '\0';
	strbuf_reset(sb);
	for (uint64_t id = ch->first; id <= ch->last; id++) {
		if (sb->len == 0)
			strbuf_add(sb, head, head_len);
		else
			strbuf_addc(sb, ',');
		rand_template(r, C_TEMPLATE, cval);
		rand_template(r, PAD_TEMPLATE, pad);
		strbuf_addf(sb, "(%llu, %u, '%s', '%s')", (unsigned long long)id,
			    rand_dist_draw(r, &l->o->dist, 1, l->o->table_size), cval, pad);
		if (sb->len + 256 >= limit || id == ch->last) {
			if (c->ops->query(c, sb->buf, sb->len, NULL) < 0) {
				report_db_error(c, sb_test_name(l->o->test), sb->buf);
				return -1;
			}
			strbuf_reset(sb);
		}
	}
	atomic_fetch_add(&l->rows, ch->last - ch->first + 1);
	return 0;
}

struct worker {
	struct loader *l;
	unsigned index;
	pthread_t th;
};

/* The first chunk of a table creates it, as sysbench's create_table() does
 * before its rows ("Creating table", "Inserting N records"); the other chunks
 * of that table wait for it; the last one to finish builds the index. With
 * --threads=1 every table is created, loaded and indexed in turn, so the
 * lines come out in sysbench's order. */
static int create_table(struct loader *l, struct db_conn *c, const struct chunk *ch, uint64_t rows)
{
	char *sql = sb_create_table_sql(l->o, ch->table);
	int rc;

	say(l, "Creating table 'sbtest%u'...\n", ch->table);
	rc = run_sql(c, l->o, sql);
	free(sql);
	if (rc == 0 && rows > 0)
		say(l, "Inserting %llu records into 'sbtest%u'\n", (unsigned long long)rows, ch->table);
	pthread_mutex_lock(&l->out_mu);
	l->created[ch->table - 1] = true;
	pthread_cond_broadcast(&l->created_cv);
	pthread_mutex_unlock(&l->out_mu);
	return rc;
}

static void wait_created(struct loader *l, unsigned table)
{
	pthread_mutex_lock(&l->out_mu);
	while (!l->created[table - 1] && !atomic_load(&l->failed))
		pthread_cond_wait(&l->created_cv, &l->out_mu);
	pthread_mutex_unlock(&l->out_mu);
}

static void fail_load(struct loader *l)
{
	pthread_mutex_lock(&l->out_mu);
	atomic_store(&l->failed, 1);
	pthread_cond_broadcast(&l->created_cv);
	pthread_mutex_unlock(&l->out_mu);
}

static void *load_worker(void *arg)
{
	struct worker *w = arg;
	struct loader *l = w->l;
	struct db_conn c = {.ops = l->drv};
	struct strbuf sb;
	struct rng r;
	uint64_t limit = 0;
	char sql[128];

	strbuf_init(&sb, 1 << 20);
	if (l->drv->connect(&c, l->cp) < 0) {
		log_error("unable to connect to MySQL server, aborting...");
		log_error("error %d: %s", c.err.native, c.err.msg);
		fail_load(l);
		goto out;
	}
	for (;;) {
		unsigned i = atomic_fetch_add(&l->next_chunk, 1);
		int rc = 1;
		if (i >= l->nchunks || atomic_load(&l->failed))
			break;
		const struct chunk *ch = &l->chunks[i];
		if (ch->first == 1) {
			if (create_table(l, &c, ch, ch->rows_in_table) < 0) {
				fail_load(l);
				break;
			}
		} else {
			wait_created(l, ch->table);
			if (atomic_load(&l->failed))
				break;
		}
		if (ch->last >= ch->first) {
			/* Every chunk has its own stream, so the data does not
			 * depend on how chunks fall to workers. */
			rng_seed(&r, l->seed ^ (0x9E3779B97F4A7C15ULL * (ch->table * 1000003ULL + ch->first)));
			if (l->drv->load_stream && !atomic_load(&l->no_local))
				rc = load_chunk_stream(l, &c, ch, &r);
			if (rc == 1) {
				atomic_store(&l->no_local, 1);
				if (!limit)
					limit = packet_limit(&c);
				rng_seed(&r, l->seed ^ (0x9E3779B97F4A7C15ULL * (ch->table * 1000003ULL + ch->first)));
				rc = load_chunk_insert(l, &c, ch, &r, limit, &sb);
			}
			if (rc < 0) {
				fail_load(l);
				break;
			}
		}
		if (atomic_fetch_sub(&l->chunks_left[ch->table - 1], 1) == 1 && l->o->create_secondary) {
			say(l, "Creating a secondary index on 'sbtest%u'...\n", ch->table);
			snprintf(sql, sizeof(sql), "CREATE INDEX k_%u ON sbtest%u(k)", ch->table, ch->table);
			if (run_sql(&c, l->o, sql) < 0) {
				fail_load(l);
				break;
			}
		}
	}
out:
	l->drv->disconnect(&c);
	strbuf_release(&sb);
	return NULL;
}

int sb_prepare(const struct sb_opts *o, const struct db_driver_ops *drv, const struct db_conn_params *cp,
	       unsigned threads, struct sb_load_stats *st)
{
	struct loader l;
	struct worker *ws = NULL;
	uint64_t rows = o->test == SB_INSERT && !o->auto_inc ? 0 : o->table_size;
	uint64_t per_chunk;
	uint64_t t0 = clock_now_ns();
	int ret = -1;

	struct db_conn_params lcp = *cp;

	lcp.allow_load_stream = true; /* loader connections stream rows (load_stream) */
	memset(&l, 0, sizeof(l));
	l.o = o;
	l.drv = drv;
	l.cp = &lcp;
	l.seed = o->rand_seed ? o->rand_seed : (uint64_t)time(NULL);
	pthread_mutex_init(&l.out_mu, NULL);
	pthread_cond_init(&l.created_cv, NULL);
	/* Split tables into id ranges so that --threads connections stay busy
	 * even with fewer tables than threads. */
	unsigned chunks_per_table = 1;
	if (rows > 0 && o->tables < threads)
		chunks_per_table = (threads + o->tables - 1) / o->tables;
	per_chunk = rows / chunks_per_table;
	if (per_chunk < MIN_CHUNK_ROWS && chunks_per_table > 1) {
		chunks_per_table = (unsigned)(rows / MIN_CHUNK_ROWS);
		if (chunks_per_table < 1)
			chunks_per_table = 1;
		per_chunk = rows / chunks_per_table;
	}
	/* Bounded transactions: a 10M-row table is loaded 1M rows at a time. */
	if (rows > 0 && rows / chunks_per_table > MAX_CHUNK_ROWS) {
		chunks_per_table = (unsigned)((rows + MAX_CHUNK_ROWS - 1) / MAX_CHUNK_ROWS);
		per_chunk = rows / chunks_per_table;
	}
	l.chunks = xcalloc((size_t)o->tables * chunks_per_table, sizeof(*l.chunks));
	l.chunks_left = xcalloc(o->tables, sizeof(*l.chunks_left));
	l.created = xcalloc(o->tables, sizeof(*l.created));
	/* Table by table, first chunk first: the chunk that creates a table is
	 * always taken before the chunks that wait for it. */
	for (unsigned t = 1; t <= o->tables; t++) {
		atomic_store(&l.chunks_left[t - 1], chunks_per_table);
		for (unsigned k = 0; k < chunks_per_table; k++) {
			struct chunk *ch = &l.chunks[l.nchunks++];
			ch->table = t;
			ch->rows_in_table = rows;
			ch->first = 1 + k * per_chunk;
			ch->last = k + 1 == chunks_per_table ? rows : (k + 1) * per_chunk;
		}
	}
	unsigned nw = threads < l.nchunks ? threads : l.nchunks;
	ws = xcalloc(nw, sizeof(*ws));
	for (unsigned i = 0; i < nw; i++) {
		ws[i].l = &l;
		ws[i].index = i;
		if (pthread_create(&ws[i].th, NULL, load_worker, &ws[i]) != 0) {
			log_error("sb_thread_create() for thread #%u failed.", i);
			fail_load(&l);
			nw = i;
			break;
		}
	}
	for (unsigned i = 0; i < nw; i++)
		pthread_join(ws[i].th, NULL);
	if (atomic_load(&l.failed))
		goto out;
	if (st) {
		st->rows = atomic_load(&l.rows);
		st->seconds = (double)(clock_now_ns() - t0) / 1e9;
	}
	ret = 0;
out:
	free(ws);
	free(l.chunks);
	free(l.chunks_left);
	free(l.created);
	pthread_cond_destroy(&l.created_cv);
	pthread_mutex_destroy(&l.out_mu);
	return ret;
}

struct prewarm_worker {
	const struct sb_opts *o;
	const struct db_driver_ops *drv;
	const struct db_conn_params *cp;
	unsigned index, threads;
	pthread_mutex_t *mu;
	int failed;
	pthread_t th;
};

static void *prewarm_main(void *arg)
{
	struct prewarm_worker *w = arg;
	struct db_conn c = {.ops = w->drv};
	char sql[256];

	if (w->drv->connect(&c, w->cp) < 0) {
		log_error("unable to connect to MySQL server, aborting...");
		log_error("error %d: %s", c.err.native, c.err.msg);
		w->failed = 1;
		goto out;
	}
	if (run_sql(&c, w->o, "SET tmp_table_size=2*1024*1024*1024") < 0 ||
	    run_sql(&c, w->o, "SET max_heap_table_size=2*1024*1024*1024") < 0) {
		w->failed = 1;
		goto out;
	}
	for (unsigned t = w->index % w->threads + 1; t <= w->o->tables; t += w->threads) {
		pthread_mutex_lock(w->mu);
		printf("Prewarming table sbtest%u\n", t);
		fflush(stdout);
		pthread_mutex_unlock(w->mu);
		snprintf(sql, sizeof(sql), "ANALYZE TABLE sbtest%u", t);
		if (run_sql(&c, w->o, sql) < 0)
			goto fail;
		snprintf(sql, sizeof(sql), "SELECT AVG(id) FROM (SELECT * FROM sbtest%u FORCE KEY (PRIMARY) LIMIT %u) t",
			 t, w->o->table_size);
		if (run_sql(&c, w->o, sql) < 0)
			goto fail;
		snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM (SELECT * FROM sbtest%u WHERE k LIKE '%%0%%' LIMIT %u) t",
			 t, w->o->table_size);
		if (run_sql(&c, w->o, sql) < 0)
			goto fail;
	}
	goto out;
fail:
	w->failed = 1;
out:
	w->drv->disconnect(&c);
	return NULL;
}

int sb_prewarm(const struct sb_opts *o, const struct db_driver_ops *drv, const struct db_conn_params *cp,
	       unsigned threads)
{
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	unsigned n = threads < o->tables ? threads : o->tables;
	struct prewarm_worker *ws = xcalloc(n ? n : 1, sizeof(*ws));
	int ret = 0;

	for (unsigned i = 0; i < n; i++) {
		ws[i] = (struct prewarm_worker){.o = o, .drv = drv, .cp = cp, .index = i, .threads = n, .mu = &mu};
		if (pthread_create(&ws[i].th, NULL, prewarm_main, &ws[i]) != 0) {
			n = i;
			ret = -1;
			break;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		pthread_join(ws[i].th, NULL);
		if (ws[i].failed)
			ret = -1;
	}
	free(ws);
	return ret;
}

int sb_cleanup(const struct sb_opts *o, const struct db_driver_ops *drv, const struct db_conn_params *cp)
{
	struct db_conn c = {.ops = drv};
	char sql[64];
	int ret = -1;

	if (drv->connect(&c, cp) < 0) {
		log_error("unable to connect to MySQL server, aborting...");
		log_error("error %d: %s", c.err.native, c.err.msg);
		goto out;
	}
	for (unsigned t = 1; t <= o->tables; t++) {
		printf("Dropping table 'sbtest%u'...\n", t);
		fflush(stdout);
		snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS sbtest%u", t);
		if (run_sql(&c, o, sql) < 0)
			goto out;
	}
	ret = 0;
out:
	drv->disconnect(&c);
	return ret;
}
