/*
 * The TPC-C session the runner drives (the transactions' steps are txn.c).
 * Inputs are drawn when a transaction starts, as the spec describes them
 * (a retry keeps them); then the type's own isolation statement, if it has
 * one, and the mode's step machine. A session belongs to one connection; a
 * terminal (home warehouse and district, deck) is bound to it for one
 * transaction at a time.
 */
#include "workload/tpcc/tpcc.h"

#include "core/strbuf.h"
#include "workload/tpcc/txn_int.h"

#include <stdlib.h>
#include <string.h>

static uint32_t other_warehouse(struct tpcc_sess *s, struct rng *r)
{
	uint32_t w;

	if (s->x->warehouses < 2)
		return s->w;
	w = rng_uniform(r, 1, s->x->warehouses - 1);
	return w >= s->w ? w + 1 : w;
}

static void pick_customer(struct tpcc_sess *s, struct rng *r)
{
	s->by_name = rng_uniform(r, 1, 100) <= 60;
	if (s->by_name) {
		s->c_last_len = tpcc_last_name(tpcc_nurand(r, 255, 0, 999, s->x->c_run.c_last), s->c_last);
		atomic_fetch_add_explicit(&s->x->by_name, 1, memory_order_relaxed);
	} else {
		s->c_id = tpcc_nurand(r, 1023, 1, 3000, s->x->c_run.c_id);
	}
}

static int cmp_line(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->i_id != y->i_id)
		return x->i_id < y->i_id ? -1 : 1;
	return x->supply_w < y->supply_w ? -1 : x->supply_w > y->supply_w;
}

static void start(struct tpcc_sess *s, struct rng *r)
{
	s->pc = 0;
	s->active = true;
	if (s->retry) {
		/* A retried transaction is the same business transaction: the
		 * inputs drawn for it stay, only its progress starts over. */
		s->retry = false;
		if (s->type == TT_NEW_ORDER_ROLLBACK)
			s->type = TT_NEW_ORDER;
		if (s->type == TT_DELIVERY)
			s->d = 1;
		return;
	}
	s->w = s->term->w;
	switch (s->type) {
	case TT_NEW_ORDER:
	case TT_NEW_ORDER_ROLLBACK:
		s->type = TT_NEW_ORDER;
		s->d = rng_uniform(r, 1, 10);
		s->c_id = tpcc_nurand(r, 1023, 1, 3000, s->x->c_run.c_id);
		s->ol_cnt = rng_uniform(r, 5, 15);
		s->rollback = rng_uniform(r, 1, 100) == 1;
		s->all_local = true;
		for (unsigned i = 0; i < s->ol_cnt; i++) {
			struct line *l = &s->lines[i];
			l->i_id = tpcc_nurand(r, 8191, 1, 100000, s->x->c_run.ol_i_id);
			l->supply_w = s->w;
			if (s->x->warehouses > 1 && rng_uniform(r, 1, 100) == 1) {
				l->supply_w = other_warehouse(s, r);
				s->all_local = false;
				atomic_fetch_add_explicit(&s->x->remote_lines, 1, memory_order_relaxed);
			}
			l->qty = rng_uniform(r, 1, 10);
			l->number = (uint8_t)(i + 1);
		}
		if (s->rollback)
			s->lines[s->ol_cnt - 1].i_id = 100001; /* unused: the item lookup fails */
		qsort(s->lines, s->ol_cnt, sizeof(s->lines[0]), cmp_line);
		break;
	case TT_PAYMENT:
		s->d = rng_uniform(r, 1, 10);
		if (s->x->warehouses > 1 && rng_uniform(r, 1, 100) <= 15) {
			s->c_w = other_warehouse(s, r);
			s->c_d = rng_uniform(r, 1, 10);
		} else {
			s->c_w = s->w;
			s->c_d = s->d;
		}
		pick_customer(s, r);
		s->amount = rng_uniform(r, 100, 500000) / 100.0;
		break;
	case TT_ORDER_STATUS:
		s->d = rng_uniform(r, 1, 10);
		s->c_w = s->w;
		s->c_d = s->d;
		pick_customer(s, r);
		break;
	case TT_DELIVERY:
		s->carrier = rng_uniform(r, 1, 10);
		s->d = 1;
		break;
	case TT_STOCK_LEVEL:
		s->d = s->term->d;
		s->threshold = rng_uniform(r, 10, 20);
		break;
	}
}

static int tpcc_next(void *p, struct rng *r, const struct db_exec_result *last, const struct wl_step **out)
{
	struct tpcc_sess *s = p;

	if (!s->active) {
		if (s->term == &s->own && !s->retry) /* no terminals: draw from the session's own deck */
			s->type = tpcc_deck_next(&s->own.deck, s->x->weights, r);
		start(s, r);
		/* The type's own isolation level: one statement first (a round trip
		 * of the transaction's). */
		const char *q = tpcc_isolation_step(&s->x->iso, s->x->sql->dialect, s->x->mode, s->type, &s->iso_cur,
						    s->iso_sql, sizeof(s->iso_sql));
		if (q) {
			s->step.kind = WL_STEP_SQL;
			s->step.stmt = NULL;
			s->step.sql = q;
			s->step.sql_len = strlen(q);
			*out = &s->step;
			return WL_STEP;
		}
	}
	if (s->x->mode == TPCC_PROCEDURES)
		return tpcc_next_call(s, out);
	switch (s->type) {
	case TT_NEW_ORDER:
	case TT_NEW_ORDER_ROLLBACK:
		return tx_new_order(s, last, out);
	case TT_PAYMENT:
		return tx_payment(s, out);
	case TT_ORDER_STATUS:
		return tx_order_status(s, out);
	case TT_DELIVERY:
		return tx_delivery(s, last, out);
	case TT_STOCK_LEVEL:
		return tx_stock_level(s, out);
	}
	return tx_error(s, "unknown transaction type");
}

static void tpcc_restart(void *p)
{
	struct tpcc_sess *s = p;

	/* The retry runs the same transaction again: same type, same inputs. */
	s->active = false;
	s->retry = true;
}

static unsigned tpcc_txn_type(void *p)
{
	return ((struct tpcc_sess *)p)->type;
}

static void tpcc_session_close(void *p)
{
	struct tpcc_sess *s = p;

	if (s)
		free(s->ids);
	free(p);
}

/* What every run connection sends before its first transaction. */
static int session_prologue(const struct tpcc_ctx *x, struct db_conn *c)
{
	/* Every statement inside a transaction at the chosen isolation (db.h);
	 * the procedure mode's connections have autocommit on instead
	 * (db_conn_params.autocommit): each procedure ends its own transaction,
	 * so a call is the transaction's one round trip. */
	if (c->ops->session_setup && c->ops->session_setup(c, x->isolation) < 0)
		return -1;
	/* The dialect's session settings (SQL Server: SET NOCOUNT OFF, so that
	 * Delivery's DELETE reports its row count whatever the server's
	 * 'user options' say). */
	for (unsigned i = 0; i < x->sql->nsession; i++)
		if (c->ops->query(c, x->sql->session[i], strlen(x->sql->session[i]), NULL) < 0)
			return -1;
	return 0;
}

int tpcc_read_settings(const struct tpcc_ctx *x, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		       tpcc_setting_fn fn, void *arg)
{
	static const enum db_type cols[2] = {DB_TYPE_STRING, DB_TYPE_STRING};
	struct db_conn c = {.ops = drv};
	int ret = -1;

	if (drv->connect(&c, cp) < 0 || session_prologue(x, &c) < 0) {
		fn(arg, NULL, 0, c.err.msg, strlen(c.err.msg));
		goto out;
	}
	for (unsigned i = 0; i < x->sql->nsettings; i++) {
		struct db_stmt *st;
		struct db_exec_result r;
		struct db_value v[2];
		if (drv->prepare(&c, x->sql->settings[i], NULL, 0, cols, 2, &st) < 0 ||
		    drv->execute(&c, st, NULL, &r) < 0) {
			/* This server has no such setting, or the user may not read it. */
			fn(arg, NULL, 0, c.err.msg, strlen(c.err.msg));
			drv->rollback(&c);
			continue;
		}
		while (drv->fetch(&c, st, v) == 1)
			if (!v[0].is_null)
				fn(arg, v[0].s, v[0].len, v[1].is_null ? "" : v[1].s, v[1].is_null ? 0 : v[1].len);
	}
	drv->rollback(&c);
	ret = 0;
out:
	drv->disconnect(&c);
	return ret;
}

static int tpcc_session_open(void *wl, struct db_conn *c, unsigned index, void **out)
{
	struct tpcc_ctx *x = wl;
	struct tpcc_sess *s = xcalloc(1, sizeof(*s));

	s->x = x;
	s->c = c;
	s->own.w = (uint16_t)(index % x->warehouses + 1);
	s->own.d = (uint8_t)(index / x->warehouses % 10 + 1);
	tpcc_deck_init(&s->own.deck, x->weights);
	s->term = &s->own;
	s->iso_cur = x->iso.base;
	if (session_prologue(x, c) < 0)
		goto fail;
	for (unsigned k = x->mode == TPCC_PROCEDURES ? TS_FIRST_PROC : 0;
	     k < (x->mode == TPCC_PROCEDURES ? TS_FIRST_LOAD : TS_FIRST_PROC); k++) {
		const struct tpcc_stmt_def *d = tpcc_stmt_def((enum tpcc_stmt)k);
		/* A fetch fills d->ncols values of s->cols, a step d->nparams. */
		if (d->ncols > NCOLS_MAX || d->nparams > WL_MAX_PARAMS) {
			tx_fatal(s, "a TPC-C statement has more result columns or parameters than a session holds");
			goto fail;
		}
		if (c->ops->prepare(c, x->sql->stmt[k], d->params, d->nparams, d->cols, d->ncols, &s->st[k]) < 0)
			goto fail;
	}
	*out = s;
	return 0;
fail:
	free(s);
	*out = NULL;
	return -1;
}

static void tpcc_term_init(void *wl, unsigned index, void *term)
{
	struct tpcc_ctx *x = wl;
	struct tpcc_term *t = term;

	/* Ten terminals per warehouse, one per district: each has a home
	 * warehouse and district for its whole life. */
	t->w = (uint16_t)(index / 10 % x->warehouses + 1);
	t->d = (uint8_t)(index % 10 + 1);
	tpcc_deck_init(&t->deck, x->weights);
}

static bool tpcc_type_deferred(void *wl, unsigned type)
{
	(void)wl;
	return type == TT_DELIVERY;
}

static void tpcc_bind_term(void *p, void *term, unsigned type)
{
	struct tpcc_sess *s = p;

	if (s->retry && s->term == term)
		return; /* the retry of the terminal's transaction */
	s->term = term;
	s->type = (enum tpcc_type)type;
	s->active = false;
	s->retry = false;
}

/* --delivery-log: each Delivery as it is counted. */
static void tpcc_txn_recorded(void *p, unsigned phase, uint64_t latency_ns, bool deferred)
{
	struct tpcc_sess *s = p;

	if (s->x->dlog && s->type == TT_DELIVERY)
		tpcc_dlog_add(s->x->dlog, phase, latency_ns, deferred, s->w, s->carrier, s->dl_o);
}

static unsigned tpcc_term_next(void *wl, void *term, struct rng *r)
{
	struct tpcc_term *t = term;

	return tpcc_deck_next(&t->deck, ((struct tpcc_ctx *)wl)->weights, r);
}

const struct workload_ops tpcc_workload_ops = {
	.name = "tpcc",
	.session_open = tpcc_session_open,
	.session_close = tpcc_session_close,
	.next = tpcc_next,
	.restart = tpcc_restart,
	.txn_type = tpcc_txn_type,
	.term_size = sizeof(struct tpcc_term),
	.term_init = tpcc_term_init,
	.term_next = tpcc_term_next,
	.type_deferred = tpcc_type_deferred,
	.bind_term = tpcc_bind_term,
	.txn_recorded = tpcc_txn_recorded,
};
