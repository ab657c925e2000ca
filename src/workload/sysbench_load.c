/*
 * prepare, prewarm and cleanup for the sysbench tables.
 *
 * prepare makes the same data as sysbench 1.0.20 (ids 1..N in order, k drawn
 * from --rand-type, c and pad from the digit templates) but loads it faster:
 * rows carry explicit ids so a table can be split into id ranges loaded by
 * several connections at once, INSERTs are as large as max_allowed_packet
 * allows, unique and foreign-key checks are off for the session, and the
 * k_N index is built after the data.
 *
 * On MariaDB 10.6 and later a table is loaded in one transaction: with
 * unique and foreign-key checks off, an INSERT into an empty table inside a
 * transaction takes InnoDB's bulk path (no undo log per row, index pages built
 * in order, MDEV-24621). That path locks the table, so a table is then loaded
 * by one connection and --threads spread over tables. Other servers commit
 * every 32 MiB and may split a table into id ranges over several connections.
 */
#include "workload/sysbench_oltp.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STMT_BYTES (4u << 20)
#define COMMIT_EVERY_BYTES (32u << 20)
#define MIN_CHUNK_ROWS 50000u

#define C_TEMPLATE "###########-###########-###########-###########-###########-" \
		   "###########-###########-###########-###########-###########"
#define PAD_TEMPLATE "###########-###########-###########-###########-###########"

struct chunk {
	unsigned table;
	uint64_t first, last; /* ids, inclusive */
};

struct loader {
	const struct sb_opts *o;
	const struct db_driver_ops *drv;
	const struct db_conn_params *cp;
	struct chunk *chunks;
	unsigned nchunks;
	atomic_uint next_chunk;
	atomic_uint *chunks_left; /* per table */
	atomic_ullong rows;
	atomic_int failed;
	bool bulk; /* whole table in one transaction (MariaDB's bulk insert path) */
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

static void report_db_error(struct db_conn *c, const char *what)
{
	log_error("%s failed: error %d (%s): %s", what, c->err.native, c->err.sqlstate, c->err.msg);
}

/* Run a statement; on failure say what was being done (`what`, or the
 * statement's first line) and the server's error. */
static int run_sql_as(struct db_conn *c, const char *sql, const char *what)
{
	char first[96];

	if (c->ops->query(c, sql, strlen(sql), NULL) == 0)
		return 0;
	if (!what) {
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(sql, "\n("), sql);
		what = first;
	}
	report_db_error(c, what);
	return -1;
}

static int run_sql(struct db_conn *c, const char *sql)
{
	return run_sql_as(c, sql, NULL);
}

/* Settings that a bulk load deserves; any the server refuses are skipped. */
static void bulk_session(struct db_conn *c)
{
	static const char *const sets[] = {
		"SET SESSION unique_checks=0",
		"SET SESSION foreign_key_checks=0",
		"SET SESSION autocommit=0",
	};

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		c->ops->query(c, sets[i], strlen(sets[i]), NULL);
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

static int load_chunk(struct loader *l, struct db_conn *c, const struct chunk *ch, struct rng *r, uint64_t limit,
		      struct strbuf *sb)
{
	char cval[sizeof(C_TEMPLATE)], pad[sizeof(PAD_TEMPLATE)];
	char head[96];
	size_t head_len;
	uint64_t since_commit = 0;

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
				report_db_error(c, "INSERT");
				return -1;
			}
			since_commit += sb->len;
			strbuf_reset(sb);
			if ((!l->bulk && since_commit >= COMMIT_EVERY_BYTES) || id == ch->last) {
				if (c->ops->commit(c) < 0) {
					report_db_error(c, "COMMIT");
					return -1;
				}
				since_commit = 0;
			}
		}
	}
	atomic_fetch_add(&l->rows, ch->last - ch->first + 1);
	return 0;
}

/* "10.11.6-MariaDB-0+deb12u1" -> true for MariaDB 10.6 and later. */
static bool mariadb_bulk_path(const char *version)
{
	unsigned major = 0, minor = 0;

	if (!version || !strstr(version, "MariaDB") || sscanf(version, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 10 || (major == 10 && minor >= 6);
}

struct worker {
	struct loader *l;
	unsigned index;
	pthread_t th;
};

static void *load_worker(void *arg)
{
	struct worker *w = arg;
	struct loader *l = w->l;
	struct db_conn c = {.ops = l->drv};
	struct strbuf sb;
	struct rng r;
	uint64_t limit;
	char sql[128];

	strbuf_init(&sb, 1 << 20);
	if (l->drv->connect(&c, l->cp) < 0) {
		report_db_error(&c, "connect");
		atomic_store(&l->failed, 1);
		goto out;
	}
	bulk_session(&c);
	limit = packet_limit(&c);
	for (;;) {
		unsigned i = atomic_fetch_add(&l->next_chunk, 1);
		if (i >= l->nchunks || atomic_load(&l->failed))
			break;
		const struct chunk *ch = &l->chunks[i];
		/* Every chunk has its own stream, so the data does not depend
		 * on how chunks fall to workers. */
		rng_seed(&r, l->seed ^ (0x9E3779B97F4A7C15ULL * (ch->table * 1000003ULL + ch->first)));
		if (load_chunk(l, &c, ch, &r, limit, &sb) < 0) {
			atomic_store(&l->failed, 1);
			break;
		}
		if (atomic_fetch_sub(&l->chunks_left[ch->table - 1], 1) == 1 && l->o->create_secondary) {
			say(l, "Creating a secondary index on 'sbtest%u'...\n", ch->table);
			snprintf(sql, sizeof(sql), "CREATE INDEX k_%u ON sbtest%u(k)", ch->table, ch->table);
			if (run_sql(&c, sql) < 0) {
				atomic_store(&l->failed, 1);
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
	struct db_conn c = {.ops = drv};
	struct worker *ws = NULL;
	uint64_t rows = o->test == SB_INSERT && !o->auto_inc ? 0 : o->table_size;
	uint64_t per_chunk;
	uint64_t t0 = clock_now_ns();
	int ret = -1;

	memset(&l, 0, sizeof(l));
	l.o = o;
	l.drv = drv;
	l.cp = cp;
	l.seed = o->rand_seed ? o->rand_seed : (uint64_t)time(NULL);
	pthread_mutex_init(&l.out_mu, NULL);
	if (drv->connect(&c, cp) < 0) {
		report_db_error(&c, "connect");
		goto out;
	}
	l.bulk = mariadb_bulk_path(drv->server_version(&c));
	for (unsigned t = 1; t <= o->tables; t++) {
		char *sql = sb_create_table_sql(o, t);
		char what[64];
		say(&l, "Creating table 'sbtest%u'...\n", t);
		snprintf(what, sizeof(what), "CREATE TABLE sbtest%u", t);
		int rc = run_sql_as(&c, sql, what);
		free(sql);
		if (rc < 0)
			goto out;
	}
	/* Split tables into id ranges so that --threads connections stay busy
	 * even with fewer tables than threads. */
	unsigned chunks_per_table = 1;
	if (rows > 0 && o->tables < threads && !l.bulk)
		chunks_per_table = (threads + o->tables - 1) / o->tables;
	per_chunk = rows / chunks_per_table;
	if (per_chunk < MIN_CHUNK_ROWS && chunks_per_table > 1) {
		chunks_per_table = (unsigned)(rows / MIN_CHUNK_ROWS);
		if (chunks_per_table < 1)
			chunks_per_table = 1;
		per_chunk = rows / chunks_per_table;
	}
	l.chunks = xcalloc((size_t)o->tables * chunks_per_table, sizeof(*l.chunks));
	l.chunks_left = xcalloc(o->tables, sizeof(*l.chunks_left));
	for (unsigned t = 1; t <= o->tables; t++) {
		if (rows == 0) {
			if (o->create_secondary) {
				char sql[128];
				say(&l, "Creating a secondary index on 'sbtest%u'...\n", t);
				snprintf(sql, sizeof(sql), "CREATE INDEX k_%u ON sbtest%u(k)", t, t);
				if (run_sql(&c, sql) < 0)
					goto out;
			}
			continue;
		}
		say(&l, "Inserting %llu records into 'sbtest%u'\n", (unsigned long long)rows, t);
		atomic_store(&l.chunks_left[t - 1], chunks_per_table);
		for (unsigned k = 0; k < chunks_per_table; k++) {
			struct chunk *ch = &l.chunks[l.nchunks++];
			ch->table = t;
			ch->first = 1 + k * per_chunk;
			ch->last = k + 1 == chunks_per_table ? rows : (k + 1) * per_chunk;
		}
	}
	drv->disconnect(&c);
	c.priv = NULL;
	if (l.nchunks) {
		unsigned nw = threads < l.nchunks ? threads : l.nchunks;
		ws = xcalloc(nw, sizeof(*ws));
		for (unsigned i = 0; i < nw; i++) {
			ws[i].l = &l;
			ws[i].index = i;
			if (pthread_create(&ws[i].th, NULL, load_worker, &ws[i]) != 0) {
				log_error("cannot start loader thread");
				atomic_store(&l.failed, 1);
				nw = i;
				break;
			}
		}
		for (unsigned i = 0; i < nw; i++)
			pthread_join(ws[i].th, NULL);
		if (atomic_load(&l.failed))
			goto out;
	}
	if (st) {
		st->rows = atomic_load(&l.rows);
		st->seconds = (double)(clock_now_ns() - t0) / 1e9;
	}
	ret = 0;
out:
	if (c.priv)
		drv->disconnect(&c);
	free(ws);
	free(l.chunks);
	free(l.chunks_left);
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
		report_db_error(&c, "connect");
		w->failed = 1;
		goto out;
	}
	if (run_sql(&c, "SET tmp_table_size=2*1024*1024*1024") < 0 ||
	    run_sql(&c, "SET max_heap_table_size=2*1024*1024*1024") < 0) {
		w->failed = 1;
		goto out;
	}
	for (unsigned t = w->index % w->threads + 1; t <= w->o->tables; t += w->threads) {
		pthread_mutex_lock(w->mu);
		printf("Prewarming table sbtest%u\n", t);
		fflush(stdout);
		pthread_mutex_unlock(w->mu);
		snprintf(sql, sizeof(sql), "ANALYZE TABLE sbtest%u", t);
		if (run_sql(&c, sql) < 0)
			goto fail;
		snprintf(sql, sizeof(sql), "SELECT AVG(id) FROM (SELECT * FROM sbtest%u FORCE KEY (PRIMARY) LIMIT %u) t",
			 t, w->o->table_size);
		if (run_sql(&c, sql) < 0)
			goto fail;
		snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM (SELECT * FROM sbtest%u WHERE k LIKE '%%0%%' LIMIT %u) t",
			 t, w->o->table_size);
		if (run_sql(&c, sql) < 0)
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
		report_db_error(&c, "connect");
		goto out;
	}
	for (unsigned t = 1; t <= o->tables; t++) {
		printf("Dropping table 'sbtest%u'...\n", t);
		fflush(stdout);
		snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS sbtest%u", t);
		if (run_sql(&c, sql) < 0)
			goto out;
	}
	ret = 0;
out:
	drv->disconnect(&c);
	return ret;
}
