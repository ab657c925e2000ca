/*
 * The five TPC-C transactions as a step machine for the runner. Inputs are
 * drawn when a transaction starts, as the spec describes them; every
 * statement's result decides the next one. New-Order sorts its lines by item
 * so two New-Orders lock stock rows in the same order (fewer deadlocks; the
 * ones left are retried by the runner).
 *
 * A session belongs to one connection; a terminal (home warehouse and
 * district, deck) is bound to it for one transaction at a time.
 */
#include "workload/tpcc/tpcc.h"

#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 15
#define NCOLS_MAX 16 /* the widest result: Payment's customer, 14 columns */

struct tpcc_term {
	uint16_t w;
	uint8_t d;
	struct tpcc_deck deck;
};

struct line {
	uint32_t i_id, supply_w, qty;
	uint8_t number; /* OL_NUMBER: the line's place in the order as entered */
};

struct tpcc_sess {
	struct tpcc_ctx *x;
	struct db_conn *c;
	struct db_stmt *st[TS_FIRST_LOAD]; /* the mode's statements only */
	struct tpcc_term *term;
	struct tpcc_term own; /* without terminals */
	enum tpcc_type type;  /* of the transaction in progress (or next) */
	bool active;
	bool retry;           /* the next start runs the last inputs again */
	unsigned pc;
	struct wl_step step;
	struct db_value cols[NCOLS_MAX];
	/* inputs and carried values */
	uint32_t w, d, c_w, c_d, c_id, o_id, ol_cnt, line, carrier, threshold;
	uint32_t dl_o[10]; /* Delivery: each district's delivered order, 0 = skipped */
	bool by_name, all_local, rollback, bc;
	double amount, sum;
	char c_last[16];
	size_t c_last_len;
	char dist_info[25];
	char data[520];
	size_t data_len;
	char h_data[32];
	size_t h_data_len;
	char pack[4][96]; /* procedure mode: New-Order's lines, packed */
	struct line lines[MAX_LINES];
	uint32_t *ids; /* by-name lookups: every c_id of the name, in c_first order */
	unsigned ids_cap;
	enum db_isolation iso_cur; /* the session's level, where a setting lasts (isolation.c) */
	char iso_sql[80];
};

static void set_i(struct db_value *v, int64_t x)
{
	v->type = DB_TYPE_INT32;
	v->is_null = false;
	v->i = x;
}

static void set_d(struct db_value *v, double x)
{
	v->type = DB_TYPE_DOUBLE;
	v->is_null = false;
	v->d = x;
}

static void set_s(struct db_value *v, const char *s, size_t len)
{
	v->type = DB_TYPE_STRING;
	v->is_null = false;
	v->s = s;
	v->len = len;
}

static const struct wl_step *stmt(struct tpcc_sess *s, enum tpcc_stmt k)
{
	s->step.kind = WL_STEP_SQL;
	s->step.stmt = s->st[k];
	return &s->step;
}

static const struct wl_step *end(struct tpcc_sess *s, enum wl_step_kind k)
{
	s->step.kind = k;
	s->step.stmt = NULL;
	return &s->step;
}

/* First row of the last result into s->cols; false when there is none. */
static bool row(struct tpcc_sess *s, enum tpcc_stmt k)
{
	int rc = s->c->ops->fetch(s->c, s->st[k], s->cols);

	return rc == 1;
}

static void drain(struct tpcc_sess *s, enum tpcc_stmt k)
{
	while (s->c->ops->fetch(s->c, s->st[k], s->cols) == 1)
		;
}

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

/* By-name lookups: the customer at position ceil(n/2) in c_first order,
 * however many share the name (67 were seen in one district at 2 W). */
static bool middle_customer(struct tpcc_sess *s)
{
	unsigned n = 0;

	while (s->c->ops->fetch(s->c, s->st[TS_CUST_BY_NAME], s->cols) == 1) {
		if (n == s->ids_cap) {
			s->ids_cap = s->ids_cap ? 2 * s->ids_cap : 64;
			s->ids = xrealloc(s->ids, s->ids_cap * sizeof(*s->ids));
		}
		s->ids[n++] = (uint32_t)s->cols[0].i;
	}
	if (n == 0)
		return false;
	s->c_id = s->ids[(n + 1) / 2 - 1];
	return true;
}

static int wl_fatal(struct tpcc_sess *s, const char *msg)
{
	memset(&s->c->err, 0, sizeof(s->c->err));
	s->c->err.cls = DB_ERR_FATAL;
	snprintf(s->c->err.sqlstate, sizeof(s->c->err.sqlstate), "HY000");
	snprintf(s->c->err.msg, sizeof(s->c->err.msg), "%s", msg);
	return -1;
}

static int wl_error(struct tpcc_sess *s, const char *what)
{
	char msg[300];

	snprintf(msg, sizeof(msg), "%s (is the database loaded by dbrig tpcc prepare?)", what);
	return wl_fatal(s, msg);
}

static int new_order(struct tpcc_sess *s, const struct db_exec_result *last, const struct wl_step **out)
{
	struct db_value *p = s->step.params;
	struct line *l;

	for (;;) {
		switch (s->pc++) {
		case 0:
			set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->c_id);
			*out = stmt(s, TS_NO_CUST_WH);
			return WL_STEP;
		case 1:
			if (!row(s, TS_NO_CUST_WH))
				return wl_error(s, "New-Order: customer or warehouse not found");
			drain(s, TS_NO_CUST_WH);
			set_i(&p[0], s->w), set_i(&p[1], s->d);
			*out = stmt(s, TS_NO_DIST_UPD);
			return WL_STEP;
		case 2:
			set_i(&p[0], s->w), set_i(&p[1], s->d);
			*out = stmt(s, TS_NO_DIST);
			return WL_STEP;
		case 3:
			if (!row(s, TS_NO_DIST))
				return wl_error(s, "New-Order: district not found");
			s->o_id = (uint32_t)s->cols[0].i;
			drain(s, TS_NO_DIST);
			set_i(&p[0], s->o_id), set_i(&p[1], s->d), set_i(&p[2], s->w), set_i(&p[3], s->c_id);
			set_i(&p[4], s->ol_cnt), set_i(&p[5], s->all_local);
			*out = stmt(s, TS_NO_INS_ORDER);
			return WL_STEP;
		case 4:
			set_i(&p[0], s->o_id), set_i(&p[1], s->d), set_i(&p[2], s->w);
			*out = stmt(s, TS_NO_INS_NEW_ORDER);
			s->line = 0;
			return WL_STEP;
		case 5: /* per line: item */
			if (s->line == s->ol_cnt) {
				s->pc = 10;
				continue;
			}
			set_i(&p[0], s->lines[s->line].i_id);
			*out = stmt(s, TS_NO_ITEM);
			return WL_STEP;
		case 6:
			if (!row(s, TS_NO_ITEM)) {
				/* The unused item: the intended 1% rollback. */
				s->type = TT_NEW_ORDER_ROLLBACK;
				s->pc = 11;
				*out = end(s, WL_STEP_ROLLBACK);
				return WL_STEP;
			}
			s->amount = s->cols[0].d * s->lines[s->line].qty;
			drain(s, TS_NO_ITEM);
			l = &s->lines[s->line];
			set_i(&p[0], s->d), set_i(&p[1], l->i_id), set_i(&p[2], l->supply_w);
			*out = stmt(s, TS_NO_STOCK);
			return WL_STEP;
		case 7: {
			int64_t q;
			l = &s->lines[s->line];
			if (!row(s, TS_NO_STOCK))
				return wl_error(s, "New-Order: stock row not found");
			q = s->cols[0].i;
			memset(s->dist_info, ' ', 24);
			if (!s->cols[2].is_null)
				memcpy(s->dist_info, s->cols[2].s, s->cols[2].len < 24 ? s->cols[2].len : 24);
			drain(s, TS_NO_STOCK);
			q = q >= (int64_t)l->qty + 10 ? q - l->qty : q - l->qty + 91;
			set_i(&p[0], q), set_i(&p[1], l->qty), set_i(&p[2], l->supply_w != s->w);
			set_i(&p[3], l->i_id), set_i(&p[4], l->supply_w);
			*out = stmt(s, TS_NO_STOCK_UPD);
			return WL_STEP;
		}
		case 8:
			l = &s->lines[s->line];
			set_i(&p[0], s->o_id), set_i(&p[1], s->d), set_i(&p[2], s->w), set_i(&p[3], l->number);
			set_i(&p[4], l->i_id), set_i(&p[5], l->supply_w), set_i(&p[6], l->qty);
			set_d(&p[7], s->amount), set_s(&p[8], s->dist_info, 24);
			*out = stmt(s, TS_NO_INS_ORDER_LINE);
			return WL_STEP;
		case 9:
			s->line++;
			s->pc = 5;
			continue;
		case 10:
			s->pc = 11;
			*out = end(s, WL_STEP_COMMIT);
			return WL_STEP;
		default:
			s->active = false;
			return s->type == TT_NEW_ORDER_ROLLBACK ? WL_DONE_ROLLBACK : WL_DONE;
		}
	}
	(void)last;
}

/* The hot rows (the warehouse, then the district) are read first without a
 * lock and updated last, so that their locks are held only from the last
 * statements to the commit, as HammerDB's procedure does (review #9). */
static int payment(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	for (;;) {
		switch (s->pc++) {
		case 0:
			set_i(&p[0], s->w);
			*out = stmt(s, TS_PAY_WH);
			return WL_STEP;
		case 1:
			if (!row(s, TS_PAY_WH))
				return wl_error(s, "Payment: warehouse not found");
			s->h_data_len = (size_t)snprintf(s->h_data, sizeof(s->h_data), "%.*s    ",
							 (int)(s->cols[0].len > 10 ? 10 : s->cols[0].len), s->cols[0].s);
			drain(s, TS_PAY_WH);
			set_i(&p[0], s->w), set_i(&p[1], s->d);
			*out = stmt(s, TS_PAY_DIST);
			return WL_STEP;
		case 2:
			if (!row(s, TS_PAY_DIST))
				return wl_error(s, "Payment: district not found");
			if (s->h_data_len + s->cols[0].len < sizeof(s->h_data)) {
				memcpy(s->h_data + s->h_data_len, s->cols[0].s, s->cols[0].len);
				s->h_data_len += s->cols[0].len;
			}
			drain(s, TS_PAY_DIST);
			if (!s->by_name)
				continue;
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_s(&p[2], s->c_last, s->c_last_len);
			*out = stmt(s, TS_CUST_BY_NAME);
			return WL_STEP;
		case 3:
			if (s->by_name && !middle_customer(s))
				return wl_error(s, "Payment: no customer with the last name");
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_i(&p[2], s->c_id);
			*out = stmt(s, TS_PAY_CUST);
			return WL_STEP;
		case 4:
			if (!row(s, TS_PAY_CUST))
				return wl_error(s, "Payment: customer not found");
			s->bc = s->cols[9].len >= 2 && !memcmp(s->cols[9].s, "BC", 2);
			drain(s, TS_PAY_CUST);
			set_d(&p[0], s->amount), set_d(&p[1], s->amount);
			set_i(&p[2], s->c_w), set_i(&p[3], s->c_d), set_i(&p[4], s->c_id);
			*out = stmt(s, TS_PAY_CUST_UPD);
			return WL_STEP;
		case 5:
			if (!s->bc) {
				s->pc = 7;
				continue;
			}
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_i(&p[2], s->c_id);
			*out = stmt(s, TS_PAY_CUST_DATA);
			return WL_STEP;
		case 6: {
			size_t n;
			const char *old = "";
			size_t oldlen = 0;
			if (row(s, TS_PAY_CUST_DATA) && !s->cols[0].is_null) {
				old = s->cols[0].s;
				oldlen = s->cols[0].len;
			}
			n = (size_t)snprintf(s->data, sizeof(s->data), "%u %u %u %u %u %.2f | ", s->c_id, s->c_d, s->c_w,
					     s->d, s->w, s->amount);
			if (n + oldlen > 500)
				oldlen = 500 - n;
			memcpy(s->data + n, old, oldlen);
			s->data_len = n + oldlen;
			drain(s, TS_PAY_CUST_DATA);
			set_s(&p[0], s->data, s->data_len);
			set_i(&p[1], s->c_w), set_i(&p[2], s->c_d), set_i(&p[3], s->c_id);
			*out = stmt(s, TS_PAY_CUST_DATA_UPD);
			return WL_STEP;
		}
		case 7:
			set_i(&p[0], s->c_id), set_i(&p[1], s->c_d), set_i(&p[2], s->c_w), set_i(&p[3], s->d);
			set_i(&p[4], s->w), set_d(&p[5], s->amount), set_s(&p[6], s->h_data, s->h_data_len);
			*out = stmt(s, TS_PAY_INS_HISTORY);
			return WL_STEP;
		case 8:
			set_d(&p[0], s->amount), set_i(&p[1], s->w), set_i(&p[2], s->d);
			*out = stmt(s, TS_PAY_DIST_UPD);
			return WL_STEP;
		case 9:
			set_d(&p[0], s->amount), set_i(&p[1], s->w);
			*out = stmt(s, TS_PAY_WH_UPD);
			return WL_STEP;
		case 10:
			*out = end(s, WL_STEP_COMMIT);
			return WL_STEP;
		default:
			s->active = false;
			return WL_DONE;
		}
	}
}

static int order_status(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	for (;;) {
		switch (s->pc++) {
		case 0:
			if (!s->by_name)
				continue;
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_s(&p[2], s->c_last, s->c_last_len);
			*out = stmt(s, TS_CUST_BY_NAME);
			return WL_STEP;
		case 1:
			if (s->by_name && !middle_customer(s))
				return wl_error(s, "Order-Status: no customer with the last name");
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_i(&p[2], s->c_id);
			*out = stmt(s, TS_OS_CUST);
			return WL_STEP;
		case 2:
			drain(s, TS_OS_CUST);
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_i(&p[2], s->c_id);
			*out = stmt(s, TS_OS_LAST_ORDER);
			return WL_STEP;
		case 3:
			if (!row(s, TS_OS_LAST_ORDER)) {
				s->o_id = 0; /* no order: no lines to read */
				s->pc = 5;
				*out = end(s, WL_STEP_COMMIT);
				return WL_STEP;
			}
			s->o_id = (uint32_t)s->cols[0].i;
			drain(s, TS_OS_LAST_ORDER);
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_i(&p[2], s->o_id);
			*out = stmt(s, TS_OS_LINES);
			return WL_STEP;
		case 4: {
			/* The order's lines, as the terminal shows them (none when
			 * the customer has no order). */
			uint64_t n = 0;
			while (s->c->ops->fetch(s->c, s->st[TS_OS_LINES], s->cols) == 1)
				n++;
			if (s->o_id && (n < 5 || n > 15))
				return wl_fatal(s, "Order-Status: the customer's last order has fewer than 5 or more than 15 lines");
			atomic_fetch_add_explicit(&s->x->ostat_lines, n, memory_order_relaxed);
			*out = end(s, WL_STEP_COMMIT);
			return WL_STEP;
		}
		default:
			s->active = false;
			return WL_DONE;
		}
	}
}

/* Deferred Delivery: all ten districts of the warehouse in one transaction;
 * a district without an undelivered order is skipped, and counted once the
 * transaction has committed (a retried attempt starts over at district 1 and
 * its skips are not counted twice). */
static int delivery(struct tpcc_sess *s, const struct db_exec_result *last, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	for (;;) {
		switch (s->pc++) {
		case 0:
			if (s->d > 10) {
				s->pc = 8;
				continue;
			}
			set_i(&p[0], s->w), set_i(&p[1], s->d);
			*out = stmt(s, TS_DL_OLDEST_NEW_ORDER);
			return WL_STEP;
		case 1:
			if (!row(s, TS_DL_OLDEST_NEW_ORDER) || s->cols[0].is_null) {
				s->dl_o[s->d - 1] = 0;
				s->d++;
				s->pc = 0;
				continue;
			}
			s->o_id = (uint32_t)s->cols[0].i;
			drain(s, TS_DL_OLDEST_NEW_ORDER);
			set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->o_id);
			*out = stmt(s, TS_DL_DEL_NEW_ORDER);
			return WL_STEP;
		case 2:
			if (last && last->rows == DB_ROWS_UNKNOWN)
				return wl_fatal(s, "Delivery: the server did not say how many rows the DELETE of the oldest "
						   "new order removed (SQLRowCount -1: NOCOUNT on, e.g. SQL Server's "
						   "'user options' 512); dbrig needs that count: turn NOCOUNT off");
			if (!last || last->rows == 0) {
				/* A concurrent Delivery took it after our (snapshot) read:
				 * roll back and run again with a fresh snapshot. */
				wl_error(s, "Delivery: the oldest new order was delivered concurrently");
				s->c->err.cls = DB_ERR_RETRY;
				s->c->err.retry = DB_RETRY_CONFLICT;
				snprintf(s->c->err.sqlstate, sizeof(s->c->err.sqlstate), "40001");
				snprintf(s->c->err.msg, sizeof(s->c->err.msg), "Delivery: new order delivered concurrently");
				return -1;
			}
			set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->o_id);
			*out = stmt(s, TS_DL_ORDER);
			return WL_STEP;
		case 3:
			if (!row(s, TS_DL_ORDER))
				return wl_error(s, "Delivery: order not found");
			s->c_id = (uint32_t)s->cols[0].i;
			drain(s, TS_DL_ORDER);
			set_i(&p[0], s->carrier), set_i(&p[1], s->w), set_i(&p[2], s->d), set_i(&p[3], s->o_id);
			*out = stmt(s, TS_DL_ORDER_UPD);
			return WL_STEP;
		case 4:
			set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->o_id);
			*out = stmt(s, TS_DL_LINES_UPD);
			return WL_STEP;
		case 5:
			set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->o_id);
			*out = stmt(s, TS_DL_LINES_SUM);
			return WL_STEP;
		case 6:
			s->sum = row(s, TS_DL_LINES_SUM) && !s->cols[0].is_null ? s->cols[0].d : 0;
			drain(s, TS_DL_LINES_SUM);
			set_d(&p[0], s->sum), set_i(&p[1], s->w), set_i(&p[2], s->d), set_i(&p[3], s->c_id);
			*out = stmt(s, TS_DL_CUST_UPD);
			return WL_STEP;
		case 7:
			s->dl_o[s->d - 1] = s->o_id;
			s->d++;
			s->pc = 0;
			continue;
		case 8:
			*out = end(s, WL_STEP_COMMIT);
			return WL_STEP;
		default: { /* committed */
			unsigned long long skipped = 0;
			for (unsigned k = 0; k < 10; k++)
				skipped += s->dl_o[k] == 0;
			atomic_fetch_add_explicit(&s->x->skipped_districts, skipped, memory_order_relaxed);
			s->active = false;
			return WL_DONE;
		}
		}
	}
}

static int stock_level(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	switch (s->pc++) {
	case 0:
		set_i(&p[0], s->w), set_i(&p[1], s->d);
		*out = stmt(s, TS_SL_DIST);
		return WL_STEP;
	case 1: {
		uint32_t next;
		if (!row(s, TS_SL_DIST))
			return wl_error(s, "Stock-Level: district not found");
		next = (uint32_t)s->cols[0].i;
		drain(s, TS_SL_DIST);
		set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], next), set_i(&p[3], (int64_t)next - 20);
		set_i(&p[4], s->w), set_i(&p[5], s->threshold);
		*out = stmt(s, TS_SL_COUNT);
		return WL_STEP;
	}
	case 2:
		drain(s, TS_SL_COUNT);
		*out = end(s, WL_STEP_COMMIT);
		return WL_STEP;
	default:
		s->active = false;
		return WL_DONE;
	}
}

/* --- the procedure mode: one call, one result row --- */

static int call_result(struct tpcc_sess *s, enum tpcc_stmt k, const char *what)
{
	char msg[200];

	if (row(s, k))
		return 0;
	snprintf(msg, sizeof(msg), "%s: the procedure returned no row", what);
	return wl_error(s, msg);
}

/* v as exactly `width` decimal digits, zero-padded (v < 10^width). */
static void digits(char *p, uint32_t v, unsigned width)
{
	for (unsigned i = width; i-- > 0; v /= 10)
		p[i] = (char)('0' + v % 10);
}

static int pr_new_order(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;
	int rolled_back;

	if (s->pc++ == 0) {
		for (unsigned i = 0; i < s->ol_cnt; i++) {
			const struct line *l = &s->lines[i];
			digits(s->pack[0] + 6 * i, l->i_id, 6);
			digits(s->pack[1] + 6 * i, l->supply_w, 6);
			digits(s->pack[2] + 2 * i, l->qty, 2);
			digits(s->pack[3] + 2 * i, l->number, 2);
		}
		set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->c_id), set_i(&p[3], s->ol_cnt);
		set_i(&p[4], s->all_local);
		set_s(&p[5], s->pack[0], 6 * s->ol_cnt), set_s(&p[6], s->pack[1], 6 * s->ol_cnt);
		set_s(&p[7], s->pack[2], 2 * s->ol_cnt), set_s(&p[8], s->pack[3], 2 * s->ol_cnt);
		*out = stmt(s, TS_PR_NEWORD);
		return WL_STEP;
	}
	if (call_result(s, TS_PR_NEWORD, "New-Order") < 0)
		return -1;
	rolled_back = s->cols[1].i != 0;
	drain(s, TS_PR_NEWORD);
	s->active = false;
	/* The client knows which New-Orders must roll back: the procedure must
	 * have done exactly that. */
	if (rolled_back != s->rollback)
		return wl_fatal(s, rolled_back ? "New-Order: the procedure rolled back an order whose items all exist"
					       : "New-Order: the procedure committed an order with the unused item");
	if (!rolled_back)
		return WL_DONE;
	s->type = TT_NEW_ORDER_ROLLBACK;
	return WL_DONE_ROLLBACK;
}

static int pr_payment(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	if (s->pc++ == 0) {
		set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->c_w), set_i(&p[3], s->c_d);
		set_i(&p[4], s->by_name ? 0 : s->c_id), set_s(&p[5], s->c_last, s->by_name ? s->c_last_len : 0);
		set_i(&p[6], s->by_name), set_d(&p[7], s->amount);
		*out = stmt(s, TS_PR_PAYMENT);
		return WL_STEP;
	}
	if (call_result(s, TS_PR_PAYMENT, "Payment") < 0)
		return -1;
	if (s->cols[0].i <= 0)
		return wl_error(s, "Payment: no customer with the last name");
	drain(s, TS_PR_PAYMENT);
	s->active = false;
	return WL_DONE;
}

static int pr_order_status(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	if (s->pc++ == 0) {
		set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->by_name ? 0 : s->c_id);
		set_s(&p[3], s->c_last, s->by_name ? s->c_last_len : 0), set_i(&p[4], s->by_name);
		*out = stmt(s, TS_PR_OSTAT);
		return WL_STEP;
	}
	if (call_result(s, TS_PR_OSTAT, "Order-Status") < 0)
		return -1;
	if (s->cols[0].i <= 0)
		return wl_error(s, "Order-Status: no customer with the last name");
	/* A row per line of the order (one without a line when there is no
	 * order), each carrying the count the procedure read. */
	{
		int64_t o_id = s->cols[1].i, count = s->cols[2].i;
		uint64_t n = 0;
		int more = 1;
		for (; more == 1; more = s->c->ops->fetch(s->c, s->st[TS_PR_OSTAT], s->cols))
			n += !s->cols[3].is_null;
		if ((int64_t)n != count || (o_id && (n < 5 || n > 15)))
			return wl_fatal(s, "Order-Status: the procedure's rows are not the order's 5 to 15 lines "
					   "(line_count differs from the rows, or the count is out of range)");
		atomic_fetch_add_explicit(&s->x->ostat_lines, n, memory_order_relaxed);
	}
	s->active = false;
	return WL_DONE;
}

static int pr_delivery(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;
	int64_t delivered, skipped;

	if (s->pc++ == 0) {
		set_i(&p[0], s->w), set_i(&p[1], s->carrier);
		*out = stmt(s, TS_PR_DELIVERY);
		return WL_STEP;
	}
	if (call_result(s, TS_PR_DELIVERY, "Delivery") < 0)
		return -1;
	delivered = s->cols[0].i;
	skipped = s->cols[1].i;
	/* The ten o_ids, space-separated, 0 for a skipped district. */
	{
		const char *q = s->cols[2].is_null ? "" : s->cols[2].s;
		const char *end = q + (s->cols[2].is_null ? 0 : s->cols[2].len);
		unsigned k = 0, zeros = 0;
		while (k < 10 && q < end) {
			uint32_t v = 0;
			while (q < end && *q == ' ')
				q++;
			if (q == end || *q < '0' || *q > '9')
				break;
			while (q < end && *q >= '0' && *q <= '9')
				v = v * 10 + (uint32_t)(*q++ - '0');
			zeros += v == 0;
			s->dl_o[k++] = v;
		}
		if (k != 10 || (int64_t)zeros != skipped) {
			drain(s, TS_PR_DELIVERY);
			return wl_fatal(s, "Delivery: the procedure's order list is not ten orders (0 for each skipped district)");
		}
	}
	drain(s, TS_PR_DELIVERY);
	if (delivered < 0 || skipped < 0 || delivered + skipped != 10)
		return wl_fatal(s, "Delivery: the procedure did not account for the ten districts");
	atomic_fetch_add_explicit(&s->x->skipped_districts, (unsigned long long)skipped, memory_order_relaxed);
	s->active = false;
	return WL_DONE;
}

static int pr_stock_level(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	if (s->pc++ == 0) {
		set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->threshold);
		*out = stmt(s, TS_PR_SLEV);
		return WL_STEP;
	}
	if (call_result(s, TS_PR_SLEV, "Stock-Level") < 0)
		return -1;
	drain(s, TS_PR_SLEV);
	s->active = false;
	return WL_DONE;
}

static int tpcc_next_call(struct tpcc_sess *s, const struct wl_step **out)
{
	switch (s->type) {
	case TT_NEW_ORDER:
	case TT_NEW_ORDER_ROLLBACK:
		return pr_new_order(s, out);
	case TT_PAYMENT:
		return pr_payment(s, out);
	case TT_ORDER_STATUS:
		return pr_order_status(s, out);
	case TT_DELIVERY:
		return pr_delivery(s, out);
	case TT_STOCK_LEVEL:
		return pr_stock_level(s, out);
	}
	return wl_error(s, "unknown transaction type");
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
		return new_order(s, last, out);
	case TT_PAYMENT:
		return payment(s, out);
	case TT_ORDER_STATUS:
		return order_status(s, out);
	case TT_DELIVERY:
		return delivery(s, last, out);
	case TT_STOCK_LEVEL:
		return stock_level(s, out);
	}
	return wl_error(s, "unknown transaction type");
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
			wl_fatal(s, "a TPC-C statement has more result columns or parameters than a session holds");
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
