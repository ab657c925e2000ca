/*
 * The OLTP event scripts of sysbench 1.0.20 (oltp_common.lua and the
 * oltp_*.lua files), as a workload for the runner. Every transaction is built
 * up front as a list of steps — the same statements with the same random
 * parameters in the same order as the Lua scripts send them — and then
 * executed one step at a time.
 */
#include "workload/sysbench/sysbench.h"

#include "core/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const test_names[SB_TEST_COUNT] = {
	[SB_READ_WRITE] = "oltp_read_write",
	[SB_READ_ONLY] = "oltp_read_only",
	[SB_WRITE_ONLY] = "oltp_write_only",
	[SB_POINT_SELECT] = "oltp_point_select",
	[SB_UPDATE_INDEX] = "oltp_update_index",
	[SB_UPDATE_NON_INDEX] = "oltp_update_non_index",
	[SB_INSERT] = "oltp_insert",
	[SB_DELETE] = "oltp_delete",
};

const char *sb_test_name(enum sb_test t)
{
	return test_names[t];
}

int sb_test_parse(const char *s, enum sb_test *out)
{
	for (int i = 0; i < SB_TEST_COUNT; i++) {
		if (!strcmp(s, test_names[i])) {
			*out = (enum sb_test)i;
			return 0;
		}
	}
	return -EINVAL;
}

static const char *const stmt_formats[SB_STMT_COUNT] = {
	[SB_STMT_POINT] = "SELECT c FROM sbtest%u WHERE id=?",
	[SB_STMT_SIMPLE_RANGE] = "SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ?",
	[SB_STMT_SUM_RANGE] = "SELECT SUM(k) FROM sbtest%u WHERE id BETWEEN ? AND ?",
	[SB_STMT_ORDER_RANGE] = "SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
	[SB_STMT_DISTINCT_RANGE] = "SELECT DISTINCT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
	[SB_STMT_INDEX_UPDATE] = "UPDATE sbtest%u SET k=k+1 WHERE id=?",
	[SB_STMT_NON_INDEX_UPDATE] = "UPDATE sbtest%u SET c=? WHERE id=?",
	[SB_STMT_DELETE] = "DELETE FROM sbtest%u WHERE id=?",
	[SB_STMT_INSERT] = "INSERT INTO sbtest%u (id, k, c, pad) VALUES (?, ?, ?, ?)",
};

static const enum db_type ptypes_1int[] = {DB_TYPE_INT32};
static const enum db_type ptypes_2int[] = {DB_TYPE_INT32, DB_TYPE_INT32};
static const enum db_type ptypes_nonidx[] = {DB_TYPE_STRING, DB_TYPE_INT32};
static const enum db_type ptypes_insert[] = {DB_TYPE_INT32, DB_TYPE_INT32, DB_TYPE_STRING, DB_TYPE_STRING};

static const struct {
	const enum db_type *types;
	unsigned n;
} stmt_params[SB_STMT_COUNT] = {
	[SB_STMT_POINT] = {ptypes_1int, 1},
	[SB_STMT_SIMPLE_RANGE] = {ptypes_2int, 2},
	[SB_STMT_SUM_RANGE] = {ptypes_2int, 2},
	[SB_STMT_ORDER_RANGE] = {ptypes_2int, 2},
	[SB_STMT_DISTINCT_RANGE] = {ptypes_2int, 2},
	[SB_STMT_INDEX_UPDATE] = {ptypes_1int, 1},
	[SB_STMT_NON_INDEX_UPDATE] = {ptypes_nonidx, 2},
	[SB_STMT_DELETE] = {ptypes_1int, 1},
	[SB_STMT_INSERT] = {ptypes_insert, 4},
};

const char *sb_stmt_format(enum sb_stmt s)
{
	return stmt_formats[s];
}

/* 10 and 5 groups of 11 digits joined by '-' (oltp_common.lua). */
#define C_TEMPLATE "###########-###########-###########-###########-###########-" \
		   "###########-###########-###########-###########-###########"
#define PAD_TEMPLATE "###########-###########-###########-###########-###########"
#define C_LEN (sizeof(C_TEMPLATE) - 1)
#define PAD_LEN (sizeof(PAD_TEMPLATE) - 1)

char *sb_create_table_sql(const struct sb_opts *o, unsigned n)
{
	struct strbuf sb;

	/* The exact text of create_table() for the mysql driver, newlines and
	 * all; mysql_table_options is unset in 1.0.20, hence the trailing space. */
	strbuf_init(&sb, 256);
	strbuf_addf(&sb,
		    "CREATE TABLE sbtest%u(\n"
		    "  id %s,\n"
		    "  k INTEGER DEFAULT '0' NOT NULL,\n"
		    "  c CHAR(120) DEFAULT '' NOT NULL,\n"
		    "  pad CHAR(60) DEFAULT '' NOT NULL,\n"
		    "  %s (id)\n"
		    ") /*! ENGINE = %s */ ",
		    n, o->auto_inc ? "INTEGER NOT NULL AUTO_INCREMENT" : "INTEGER NOT NULL",
		    o->secondary ? "KEY xid" : "PRIMARY KEY", o->storage_engine);
	return strbuf_detach(&sb);
}

/* --- the run workload --- */

struct sb_step {
	struct wl_step w;
	char c[C_LEN + 1];
	char pad[PAD_LEN + 1];
};

struct sb_sess {
	const struct sb_opts *o;
	struct db_conn *conn;
	struct db_stmt **stmts;   /* [table * SB_STMT_COUNT + stmt], NULL if not prepared */
	struct db_stmt *begin, *commit;
	struct sb_step *steps;
	unsigned nsteps, maxsteps, pc;
	bool need_build;
	struct strbuf insert_sql; /* oltp_insert's text query */
	_Atomic uint32_t *unique; /* oltp_insert without auto_inc: the run's id sequence */
	unsigned index;
};

static bool uses_trx(const struct sb_opts *o)
{
	switch (o->test) {
	case SB_READ_WRITE:
	case SB_READ_ONLY:
	case SB_WRITE_ONLY:
		return !o->skip_trx;
	case SB_POINT_SELECT:
	case SB_UPDATE_INDEX:
	case SB_UPDATE_NON_INDEX:
	case SB_INSERT:
	case SB_DELETE:
		return false;
	}
	return false;
}

/* Which statements a test prepares, as its prepare_statements() does. */
static void wanted_stmts(const struct sb_opts *o, bool want[SB_STMT_COUNT])
{
	bool ranges = o->range_selects;

	memset(want, 0, sizeof(bool) * SB_STMT_COUNT);
	switch (o->test) {
	case SB_READ_WRITE:
		want[SB_STMT_INDEX_UPDATE] = want[SB_STMT_NON_INDEX_UPDATE] = true;
		want[SB_STMT_DELETE] = want[SB_STMT_INSERT] = true;
		/* fallthrough */
	case SB_READ_ONLY:
		want[SB_STMT_POINT] = true;
		want[SB_STMT_SIMPLE_RANGE] = want[SB_STMT_SUM_RANGE] = ranges;
		want[SB_STMT_ORDER_RANGE] = want[SB_STMT_DISTINCT_RANGE] = ranges;
		break;
	case SB_WRITE_ONLY:
		want[SB_STMT_INDEX_UPDATE] = want[SB_STMT_NON_INDEX_UPDATE] = true;
		want[SB_STMT_DELETE] = want[SB_STMT_INSERT] = true;
		break;
	case SB_POINT_SELECT:
		want[SB_STMT_POINT] = true;
		break;
	case SB_UPDATE_INDEX:
		want[SB_STMT_INDEX_UPDATE] = true;
		break;
	case SB_UPDATE_NON_INDEX:
		want[SB_STMT_NON_INDEX_UPDATE] = true;
		break;
	case SB_DELETE:
		want[SB_STMT_DELETE] = true;
		break;
	case SB_INSERT:
		break;
	}
}

static unsigned max_steps(const struct sb_opts *o)
{
	unsigned n = 2 + o->point_selects + o->simple_ranges + o->sum_ranges + o->order_ranges +
		     o->distinct_ranges + o->index_updates + o->non_index_updates + 2 * o->delete_inserts;
	return n < 2 ? 2 : n;
}

static void sb_session_close(void *p)
{
	struct sb_sess *s = p;

	if (!s)
		return;
	/* Statements belong to the connection and are freed by its disconnect. */
	free(s->stmts);
	free(s->steps);
	strbuf_release(&s->insert_sql);
	free(s);
}

static int prepare_one(struct sb_sess *s, const char *sql, const enum db_type *types, unsigned n,
		       struct db_stmt **out)
{
	return s->conn->ops->prepare(s->conn, sql, types, n, NULL, 0, out);
}

static int sb_session_open(void *wl, struct db_conn *c, unsigned index, void **out)
{
	const struct sb_opts *o = wl;
	struct sb_sess *s = xcalloc(1, sizeof(*s));
	bool want[SB_STMT_COUNT];
	char sql[256];

	s->o = o;
	s->conn = c;
	s->index = index;
	s->need_build = true;
	s->maxsteps = max_steps(o);
	s->steps = xcalloc(s->maxsteps, sizeof(*s->steps));
	s->stmts = xcalloc((size_t)o->tables * SB_STMT_COUNT, sizeof(*s->stmts));
	strbuf_init(&s->insert_sql, 256);
	s->unique = &((struct sb_opts *)wl)->unique_next;
	if (uses_trx(o)) {
		if (prepare_one(s, "BEGIN", NULL, 0, &s->begin) < 0 || prepare_one(s, "COMMIT", NULL, 0, &s->commit) < 0)
			goto fail;
	}
	wanted_stmts(o, want);
	for (unsigned t = 1; t <= o->tables; t++) {
		for (int k = 0; k < SB_STMT_COUNT; k++) {
			if (!want[k])
				continue;
			snprintf(sql, sizeof(sql), stmt_formats[k], t);
			if (prepare_one(s, sql, stmt_params[k].types, stmt_params[k].n,
					&s->stmts[(t - 1) * SB_STMT_COUNT + (unsigned)k]) < 0)
				goto fail;
		}
	}
	*out = s;
	return 0;
fail:
	sb_session_close(s);
	*out = NULL;
	return -1;
}

static struct sb_step *add_step(struct sb_sess *s, struct db_stmt *st)
{
	struct sb_step *p = &s->steps[s->nsteps++];

	p->w.stmt = st;
	return p;
}

static uint32_t get_id(struct sb_sess *s, struct rng *r)
{
	return rand_dist_draw(r, &s->o->dist, 1, s->o->table_size);
}

static unsigned get_table(struct sb_sess *s, struct rng *r)
{
	return rng_uniform(r, 1, s->o->tables);
}

static struct db_stmt *stmt_of(struct sb_sess *s, unsigned table, enum sb_stmt k)
{
	return s->stmts[(table - 1) * SB_STMT_COUNT + k];
}

static void set_int(struct db_value *v, int64_t x)
{
	v->type = DB_TYPE_INT32;
	v->i = x;
}

static void set_str(struct db_value *v, const char *s, size_t len)
{
	v->type = DB_TYPE_STRING;
	v->s = s;
	v->len = len;
}

static void build_ranges(struct sb_sess *s, struct rng *r, enum sb_stmt k, unsigned count)
{
	unsigned t = get_table(s, r);

	for (unsigned i = 0; i < count; i++) {
		uint32_t id = get_id(s, r);
		struct sb_step *p = add_step(s, stmt_of(s, t, k));
		set_int(&p->w.params[0], id);
		set_int(&p->w.params[1], (int64_t)id + s->o->range_size - 1);
	}
}

static void build_point_selects(struct sb_sess *s, struct rng *r, unsigned count)
{
	unsigned t = get_table(s, r);

	for (unsigned i = 0; i < count; i++)
		set_int(&add_step(s, stmt_of(s, t, SB_STMT_POINT))->w.params[0], get_id(s, r));
}

static void build_index_updates(struct sb_sess *s, struct rng *r)
{
	unsigned t = get_table(s, r);

	for (unsigned i = 0; i < s->o->index_updates; i++)
		set_int(&add_step(s, stmt_of(s, t, SB_STMT_INDEX_UPDATE))->w.params[0], get_id(s, r));
}

static void build_non_index_updates(struct sb_sess *s, struct rng *r)
{
	unsigned t = get_table(s, r);

	for (unsigned i = 0; i < s->o->non_index_updates; i++) {
		struct sb_step *p = add_step(s, stmt_of(s, t, SB_STMT_NON_INDEX_UPDATE));
		rand_template(r, C_TEMPLATE, p->c);
		set_str(&p->w.params[0], p->c, C_LEN);
		set_int(&p->w.params[1], get_id(s, r));
	}
}

static void build_delete_inserts(struct sb_sess *s, struct rng *r)
{
	unsigned t = get_table(s, r);

	for (unsigned i = 0; i < s->o->delete_inserts; i++) {
		uint32_t id = get_id(s, r);
		uint32_t k = get_id(s, r);
		struct sb_step *del = add_step(s, stmt_of(s, t, SB_STMT_DELETE));
		struct sb_step *ins = add_step(s, stmt_of(s, t, SB_STMT_INSERT));
		set_int(&del->w.params[0], id);
		set_int(&ins->w.params[0], id);
		set_int(&ins->w.params[1], k);
		rand_template(r, C_TEMPLATE, ins->c);
		rand_template(r, PAD_TEMPLATE, ins->pad);
		set_str(&ins->w.params[2], ins->c, C_LEN);
		set_str(&ins->w.params[3], ins->pad, PAD_LEN);
	}
}

/* A bijection on 32-bit integers: consecutive counter values map to distinct,
 * scattered ids (sysbench's rand.unique, a permutation of 0..2^32-1). */
static uint32_t mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

static void build_insert(struct sb_sess *s, struct rng *r)
{
	unsigned t = get_table(s, r);
	uint32_t k = get_id(s, r);
	char c[C_LEN + 1], pad[PAD_LEN + 1];
	int64_t id = 0;
	struct sb_step *p;

	rand_template(r, C_TEMPLATE, c);
	rand_template(r, PAD_TEMPLATE, pad);
	c[C_LEN] = pad[PAD_LEN] = '\0';
	if (!s->o->auto_inc) {
		/* One counter for the run: 2^32 inserts before an id repeats,
		 * however many connections share it (a per-connection counter
		 * stepping by 65,536 wrapped after 65,536 inserts). */
		uint32_t n = atomic_fetch_add_explicit(s->unique, 1, memory_order_relaxed);
		id = (int64_t)mix32(n) - 2147483648LL;
	}
	strbuf_reset(&s->insert_sql);
	strbuf_addf(&s->insert_sql, "INSERT INTO sbtest%u (id, k, c, pad) VALUES (%lld, %u, '%s', '%s')", t,
		    (long long)id, k, c, pad);
	p = add_step(s, NULL);
	p->w.sql = s->insert_sql.buf;
	p->w.sql_len = s->insert_sql.len;
}

void sb_unique_init(struct sb_opts *o)
{
	uint64_t seed = o->rand_seed ? o->rand_seed : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);

	/* splitmix64's finaliser: nearby seeds start far apart. */
	seed ^= seed >> 30;
	seed *= 0xBF58476D1CE4E5B9ULL;
	seed ^= seed >> 27;
	seed *= 0x94D049BB133111EBULL;
	seed ^= seed >> 31;
	atomic_init(&o->unique_next, (uint32_t)seed);
}

static void build_txn(struct sb_sess *s, struct rng *r)
{
	const struct sb_opts *o = s->o;
	bool trx = uses_trx(o);

	s->nsteps = 0;
	s->pc = 0;
	if (trx)
		add_step(s, s->begin);
	switch (o->test) {
	case SB_READ_WRITE:
	case SB_READ_ONLY:
		build_point_selects(s, r, o->point_selects);
		if (o->range_selects) {
			build_ranges(s, r, SB_STMT_SIMPLE_RANGE, o->simple_ranges);
			build_ranges(s, r, SB_STMT_SUM_RANGE, o->sum_ranges);
			build_ranges(s, r, SB_STMT_ORDER_RANGE, o->order_ranges);
			build_ranges(s, r, SB_STMT_DISTINCT_RANGE, o->distinct_ranges);
		}
		if (o->test == SB_READ_WRITE) {
			build_index_updates(s, r);
			build_non_index_updates(s, r);
			build_delete_inserts(s, r);
		}
		break;
	case SB_WRITE_ONLY:
		build_index_updates(s, r);
		build_non_index_updates(s, r);
		build_delete_inserts(s, r);
		break;
	case SB_POINT_SELECT:
		build_point_selects(s, r, 1);
		break;
	case SB_UPDATE_INDEX:
		build_index_updates(s, r);
		break;
	case SB_UPDATE_NON_INDEX:
		build_non_index_updates(s, r);
		break;
	case SB_DELETE: {
		unsigned t = get_table(s, r);
		set_int(&add_step(s, stmt_of(s, t, SB_STMT_DELETE))->w.params[0], get_id(s, r));
		break;
	}
	case SB_INSERT:
		build_insert(s, r);
		break;
	}
	if (trx)
		add_step(s, s->commit);
}

static int sb_next(void *p, struct rng *r, const struct db_exec_result *last, const struct wl_step **step)
{
	struct sb_sess *s = p;

	(void)last;
	if (s->need_build) {
		build_txn(s, r);
		s->need_build = false;
	}
	if (s->pc < s->nsteps) {
		*step = &s->steps[s->pc++].w;
		return WL_STEP;
	}
	s->need_build = true;
	return WL_DONE;
}

static void sb_restart(void *p)
{
	struct sb_sess *s = p;

	s->need_build = true;
}

static unsigned sb_txn_type(void *p)
{
	(void)p;
	return 0;
}

const struct workload_ops sysbench_workload_ops = {
	.name = "sysbench",
	.session_open = sb_session_open,
	.session_close = sb_session_close,
	.next = sb_next,
	.restart = sb_restart,
	.txn_type = sb_txn_type,
};
