/*
 * The five TPC-C transactions as step machines for the runner (the session
 * that drives them, and draws their inputs, is txn_session.c): in the
 * statement mode one prepared statement per step, every statement's result
 * deciding the next one; in the procedure mode one call of the dialect's
 * procedure per transaction, and its result row checked.
 * New-Order's lines come sorted by item (txn_session.c) so two New-Orders
 * lock stock rows in the same order (fewer deadlocks; the ones left are
 * retried by the runner).
 */
#include "workload/tpcc/tpcc.h"

#include "core/strbuf.h"
#include "workload/tpcc/txn_int.h"

#include <stdio.h>
#include <string.h>

/*
 * The steps of each transaction in the statement mode, in order: a step reads
 * the result of the one before it (when it needs it) and sends what it is
 * named after; s->pc holds the next one (0, the first, when a transaction or
 * its retry starts: txn_session.c). A step with nothing to send moves on
 * (continue); *_DONE is after the commit or rollback.
 */
enum no_step {
	NO_CUST_WH,        /* the customer and the warehouse */
	NO_DIST_UPD,       /* d_next_o_id + 1 */
	NO_DIST,           /* the district's order number */
	NO_INS_ORDER,
	NO_INS_NEW_ORDER,
	NO_ITEM,           /* per line from here to NO_NEXT_LINE: the item (none: the rollback) */
	NO_STOCK,
	NO_STOCK_UPD,
	NO_INS_ORDER_LINE,
	NO_NEXT_LINE,      /* back to NO_ITEM, or NO_COMMIT after the last line */
	NO_COMMIT,
	NO_DONE,
};

enum pay_step {
	PAY_WH,
	PAY_DIST,
	PAY_BY_NAME,       /* the customers of the last name (by-name only) */
	PAY_CUST,
	PAY_CUST_UPD,
	PAY_CUST_DATA,     /* bad credit ("BC") only: c_data, else on to PAY_INS_HISTORY */
	PAY_CUST_DATA_UPD,
	PAY_INS_HISTORY,
	PAY_DIST_UPD,
	PAY_WH_UPD,
	PAY_COMMIT,
	PAY_DONE,
};

enum os_step {
	OS_BY_NAME,        /* the customers of the last name (by-name only) */
	OS_CUST,
	OS_LAST_ORDER,
	OS_LINES,          /* no order: the commit, then OS_DONE */
	OS_COMMIT,         /* after counting the lines */
	OS_DONE,
};

enum dl_step {
	DL_OLDEST_NEW_ORDER, /* per district s->d from here to DL_NEXT_DISTRICT; after the tenth: DL_COMMIT */
	DL_DEL_NEW_ORDER,    /* none undelivered: the district is skipped */
	DL_ORDER,
	DL_ORDER_UPD,
	DL_LINES_UPD,
	DL_LINES_SUM,
	DL_CUST_UPD,
	DL_NEXT_DISTRICT,
	DL_COMMIT,
	DL_DONE,             /* committed: the skipped districts counted */
};

enum sl_step {
	SL_DIST,
	SL_COUNT,
	SL_COMMIT,
	SL_DONE,
};

/* The procedure mode: one call, then its result. */
enum call_step {
	CALL_SEND,
	CALL_RESULT,
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

int tx_fatal(struct tpcc_sess *s, const char *msg)
{
	memset(&s->c->err, 0, sizeof(s->c->err));
	s->c->err.cls = DB_ERR_FATAL;
	snprintf(s->c->err.sqlstate, sizeof(s->c->err.sqlstate), "HY000");
	snprintf(s->c->err.msg, sizeof(s->c->err.msg), "%s", msg);
	return -1;
}

int tx_error(struct tpcc_sess *s, const char *what)
{
	char msg[300];

	snprintf(msg, sizeof(msg), "%s (is the database loaded by dbrig tpcc prepare?)", what);
	return tx_fatal(s, msg);
}

int tx_new_order(struct tpcc_sess *s, const struct db_exec_result *last, const struct wl_step **out)
{
	struct db_value *p = s->step.params;
	struct line *l;

	for (;;) {
		switch ((enum no_step)s->pc++) {
		case NO_CUST_WH:
			set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->c_id);
			*out = stmt(s, TS_NO_CUST_WH);
			return WL_STEP;
		case NO_DIST_UPD:
			if (!row(s, TS_NO_CUST_WH))
				return tx_error(s, "New-Order: customer or warehouse not found");
			drain(s, TS_NO_CUST_WH);
			set_i(&p[0], s->w), set_i(&p[1], s->d);
			*out = stmt(s, TS_NO_DIST_UPD);
			return WL_STEP;
		case NO_DIST:
			set_i(&p[0], s->w), set_i(&p[1], s->d);
			*out = stmt(s, TS_NO_DIST);
			return WL_STEP;
		case NO_INS_ORDER:
			if (!row(s, TS_NO_DIST))
				return tx_error(s, "New-Order: district not found");
			s->o_id = (uint32_t)s->cols[0].i;
			drain(s, TS_NO_DIST);
			set_i(&p[0], s->o_id), set_i(&p[1], s->d), set_i(&p[2], s->w), set_i(&p[3], s->c_id);
			set_i(&p[4], s->ol_cnt), set_i(&p[5], s->all_local);
			*out = stmt(s, TS_NO_INS_ORDER);
			return WL_STEP;
		case NO_INS_NEW_ORDER:
			set_i(&p[0], s->o_id), set_i(&p[1], s->d), set_i(&p[2], s->w);
			*out = stmt(s, TS_NO_INS_NEW_ORDER);
			s->line = 0;
			return WL_STEP;
		case NO_ITEM: /* per line: item */
			if (s->line == s->ol_cnt) {
				s->pc = NO_COMMIT;
				continue;
			}
			set_i(&p[0], s->lines[s->line].i_id);
			*out = stmt(s, TS_NO_ITEM);
			return WL_STEP;
		case NO_STOCK:
			if (!row(s, TS_NO_ITEM)) {
				/* The unused item: the intended 1% rollback. */
				s->type = TT_NEW_ORDER_ROLLBACK;
				s->pc = NO_DONE;
				*out = end(s, WL_STEP_ROLLBACK);
				return WL_STEP;
			}
			s->amount = s->cols[0].d * s->lines[s->line].qty;
			drain(s, TS_NO_ITEM);
			l = &s->lines[s->line];
			set_i(&p[0], s->d), set_i(&p[1], l->i_id), set_i(&p[2], l->supply_w);
			*out = stmt(s, TS_NO_STOCK);
			return WL_STEP;
		case NO_STOCK_UPD: {
			int64_t q;
			l = &s->lines[s->line];
			if (!row(s, TS_NO_STOCK))
				return tx_error(s, "New-Order: stock row not found");
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
		case NO_INS_ORDER_LINE:
			l = &s->lines[s->line];
			set_i(&p[0], s->o_id), set_i(&p[1], s->d), set_i(&p[2], s->w), set_i(&p[3], l->number);
			set_i(&p[4], l->i_id), set_i(&p[5], l->supply_w), set_i(&p[6], l->qty);
			set_d(&p[7], s->amount), set_s(&p[8], s->dist_info, 24);
			*out = stmt(s, TS_NO_INS_ORDER_LINE);
			return WL_STEP;
		case NO_NEXT_LINE:
			s->line++;
			s->pc = NO_ITEM;
			continue;
		case NO_COMMIT:
			s->pc = NO_DONE;
			*out = end(s, WL_STEP_COMMIT);
			return WL_STEP;
		case NO_DONE:
		default:
			s->active = false;
			return s->type == TT_NEW_ORDER_ROLLBACK ? WL_DONE_ROLLBACK : WL_DONE;
		}
	}
	(void)last;
}

/* The hot rows (the warehouse, then the district) are read first without a
 * lock and updated last, so that their locks are held only from the last
 * statements to the commit, as HammerDB's procedure does. */
int tx_payment(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	for (;;) {
		switch ((enum pay_step)s->pc++) {
		case PAY_WH:
			set_i(&p[0], s->w);
			*out = stmt(s, TS_PAY_WH);
			return WL_STEP;
		case PAY_DIST:
			if (!row(s, TS_PAY_WH))
				return tx_error(s, "Payment: warehouse not found");
			s->h_data_len = (size_t)snprintf(s->h_data, sizeof(s->h_data), "%.*s    ",
							 (int)(s->cols[0].len > 10 ? 10 : s->cols[0].len), s->cols[0].s);
			drain(s, TS_PAY_WH);
			set_i(&p[0], s->w), set_i(&p[1], s->d);
			*out = stmt(s, TS_PAY_DIST);
			return WL_STEP;
		case PAY_BY_NAME:
			if (!row(s, TS_PAY_DIST))
				return tx_error(s, "Payment: district not found");
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
		case PAY_CUST:
			if (s->by_name && !middle_customer(s))
				return tx_error(s, "Payment: no customer with the last name");
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_i(&p[2], s->c_id);
			*out = stmt(s, TS_PAY_CUST);
			return WL_STEP;
		case PAY_CUST_UPD:
			if (!row(s, TS_PAY_CUST))
				return tx_error(s, "Payment: customer not found");
			s->bc = s->cols[9].len >= 2 && !memcmp(s->cols[9].s, "BC", 2);
			drain(s, TS_PAY_CUST);
			set_d(&p[0], s->amount), set_d(&p[1], s->amount);
			set_i(&p[2], s->c_w), set_i(&p[3], s->c_d), set_i(&p[4], s->c_id);
			*out = stmt(s, TS_PAY_CUST_UPD);
			return WL_STEP;
		case PAY_CUST_DATA:
			if (!s->bc) {
				s->pc = PAY_INS_HISTORY;
				continue;
			}
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_i(&p[2], s->c_id);
			*out = stmt(s, TS_PAY_CUST_DATA);
			return WL_STEP;
		case PAY_CUST_DATA_UPD: {
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
		case PAY_INS_HISTORY:
			set_i(&p[0], s->c_id), set_i(&p[1], s->c_d), set_i(&p[2], s->c_w), set_i(&p[3], s->d);
			set_i(&p[4], s->w), set_d(&p[5], s->amount), set_s(&p[6], s->h_data, s->h_data_len);
			*out = stmt(s, TS_PAY_INS_HISTORY);
			return WL_STEP;
		case PAY_DIST_UPD:
			set_d(&p[0], s->amount), set_i(&p[1], s->w), set_i(&p[2], s->d);
			*out = stmt(s, TS_PAY_DIST_UPD);
			return WL_STEP;
		case PAY_WH_UPD:
			set_d(&p[0], s->amount), set_i(&p[1], s->w);
			*out = stmt(s, TS_PAY_WH_UPD);
			return WL_STEP;
		case PAY_COMMIT:
			*out = end(s, WL_STEP_COMMIT);
			return WL_STEP;
		case PAY_DONE:
		default:
			s->active = false;
			return WL_DONE;
		}
	}
}

int tx_order_status(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	for (;;) {
		switch ((enum os_step)s->pc++) {
		case OS_BY_NAME:
			if (!s->by_name)
				continue;
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_s(&p[2], s->c_last, s->c_last_len);
			*out = stmt(s, TS_CUST_BY_NAME);
			return WL_STEP;
		case OS_CUST:
			if (s->by_name && !middle_customer(s))
				return tx_error(s, "Order-Status: no customer with the last name");
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_i(&p[2], s->c_id);
			*out = stmt(s, TS_OS_CUST);
			return WL_STEP;
		case OS_LAST_ORDER:
			drain(s, TS_OS_CUST);
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_i(&p[2], s->c_id);
			*out = stmt(s, TS_OS_LAST_ORDER);
			return WL_STEP;
		case OS_LINES:
			if (!row(s, TS_OS_LAST_ORDER)) {
				s->o_id = 0; /* no order: no lines to read */
				s->pc = OS_DONE;
				*out = end(s, WL_STEP_COMMIT);
				return WL_STEP;
			}
			s->o_id = (uint32_t)s->cols[0].i;
			drain(s, TS_OS_LAST_ORDER);
			set_i(&p[0], s->c_w), set_i(&p[1], s->c_d), set_i(&p[2], s->o_id);
			*out = stmt(s, TS_OS_LINES);
			return WL_STEP;
		case OS_COMMIT: {
			/* The order's lines, as the terminal shows them (none when
			 * the customer has no order). */
			uint64_t n = 0;
			while (s->c->ops->fetch(s->c, s->st[TS_OS_LINES], s->cols) == 1)
				n++;
			if (s->o_id && (n < 5 || n > 15))
				return tx_fatal(s, "Order-Status: the customer's last order has fewer than 5 or more than 15 lines");
			atomic_fetch_add_explicit(&s->x->ostat_lines, n, memory_order_relaxed);
			*out = end(s, WL_STEP_COMMIT);
			return WL_STEP;
		}
		case OS_DONE:
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
int tx_delivery(struct tpcc_sess *s, const struct db_exec_result *last, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	for (;;) {
		switch ((enum dl_step)s->pc++) {
		case DL_OLDEST_NEW_ORDER:
			if (s->d > 10) {
				s->pc = DL_COMMIT;
				continue;
			}
			set_i(&p[0], s->w), set_i(&p[1], s->d);
			*out = stmt(s, TS_DL_OLDEST_NEW_ORDER);
			return WL_STEP;
		case DL_DEL_NEW_ORDER:
			if (!row(s, TS_DL_OLDEST_NEW_ORDER) || s->cols[0].is_null) {
				s->dl_o[s->d - 1] = 0;
				s->d++;
				s->pc = DL_OLDEST_NEW_ORDER;
				continue;
			}
			s->o_id = (uint32_t)s->cols[0].i;
			drain(s, TS_DL_OLDEST_NEW_ORDER);
			set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->o_id);
			*out = stmt(s, TS_DL_DEL_NEW_ORDER);
			return WL_STEP;
		case DL_ORDER:
			if (last && last->rows == DB_ROWS_UNKNOWN)
				return tx_fatal(s, "Delivery: the server did not say how many rows the DELETE of the oldest "
						   "new order removed (SQLRowCount -1: NOCOUNT on, e.g. SQL Server's "
						   "'user options' 512); dbrig needs that count: turn NOCOUNT off");
			if (!last || last->rows == 0) {
				/* A concurrent Delivery took it after our (snapshot) read:
				 * roll back and run again with a fresh snapshot. */
				tx_error(s, "Delivery: the oldest new order was delivered concurrently");
				s->c->err.cls = DB_ERR_RETRY;
				s->c->err.retry = DB_RETRY_CONFLICT;
				snprintf(s->c->err.sqlstate, sizeof(s->c->err.sqlstate), "40001");
				snprintf(s->c->err.msg, sizeof(s->c->err.msg), "Delivery: new order delivered concurrently");
				return -1;
			}
			set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->o_id);
			*out = stmt(s, TS_DL_ORDER);
			return WL_STEP;
		case DL_ORDER_UPD:
			if (!row(s, TS_DL_ORDER))
				return tx_error(s, "Delivery: order not found");
			s->c_id = (uint32_t)s->cols[0].i;
			drain(s, TS_DL_ORDER);
			set_i(&p[0], s->carrier), set_i(&p[1], s->w), set_i(&p[2], s->d), set_i(&p[3], s->o_id);
			*out = stmt(s, TS_DL_ORDER_UPD);
			return WL_STEP;
		case DL_LINES_UPD:
			set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->o_id);
			*out = stmt(s, TS_DL_LINES_UPD);
			return WL_STEP;
		case DL_LINES_SUM:
			set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->o_id);
			*out = stmt(s, TS_DL_LINES_SUM);
			return WL_STEP;
		case DL_CUST_UPD:
			s->sum = row(s, TS_DL_LINES_SUM) && !s->cols[0].is_null ? s->cols[0].d : 0;
			drain(s, TS_DL_LINES_SUM);
			set_d(&p[0], s->sum), set_i(&p[1], s->w), set_i(&p[2], s->d), set_i(&p[3], s->c_id);
			*out = stmt(s, TS_DL_CUST_UPD);
			return WL_STEP;
		case DL_NEXT_DISTRICT:
			s->dl_o[s->d - 1] = s->o_id;
			s->d++;
			s->pc = DL_OLDEST_NEW_ORDER;
			continue;
		case DL_COMMIT:
			*out = end(s, WL_STEP_COMMIT);
			return WL_STEP;
		case DL_DONE:
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

int tx_stock_level(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	switch ((enum sl_step)s->pc++) {
	case SL_DIST:
		set_i(&p[0], s->w), set_i(&p[1], s->d);
		*out = stmt(s, TS_SL_DIST);
		return WL_STEP;
	case SL_COUNT: {
		uint32_t next;
		if (!row(s, TS_SL_DIST))
			return tx_error(s, "Stock-Level: district not found");
		next = (uint32_t)s->cols[0].i;
		drain(s, TS_SL_DIST);
		set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], next), set_i(&p[3], (int64_t)next - 20);
		set_i(&p[4], s->w), set_i(&p[5], s->threshold);
		*out = stmt(s, TS_SL_COUNT);
		return WL_STEP;
	}
	case SL_COMMIT:
		drain(s, TS_SL_COUNT);
		*out = end(s, WL_STEP_COMMIT);
		return WL_STEP;
	case SL_DONE:
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
	return tx_error(s, msg);
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

	if (s->pc++ == CALL_SEND) {
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
		return tx_fatal(s, rolled_back ? "New-Order: the procedure rolled back an order whose items all exist"
					       : "New-Order: the procedure committed an order with the unused item");
	if (!rolled_back)
		return WL_DONE;
	s->type = TT_NEW_ORDER_ROLLBACK;
	return WL_DONE_ROLLBACK;
}

static int pr_payment(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	if (s->pc++ == CALL_SEND) {
		set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->c_w), set_i(&p[3], s->c_d);
		set_i(&p[4], s->by_name ? 0 : s->c_id), set_s(&p[5], s->c_last, s->by_name ? s->c_last_len : 0);
		set_i(&p[6], s->by_name), set_d(&p[7], s->amount);
		*out = stmt(s, TS_PR_PAYMENT);
		return WL_STEP;
	}
	if (call_result(s, TS_PR_PAYMENT, "Payment") < 0)
		return -1;
	if (s->cols[0].i <= 0)
		return tx_error(s, "Payment: no customer with the last name");
	drain(s, TS_PR_PAYMENT);
	s->active = false;
	return WL_DONE;
}

static int pr_order_status(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	if (s->pc++ == CALL_SEND) {
		set_i(&p[0], s->w), set_i(&p[1], s->d), set_i(&p[2], s->by_name ? 0 : s->c_id);
		set_s(&p[3], s->c_last, s->by_name ? s->c_last_len : 0), set_i(&p[4], s->by_name);
		*out = stmt(s, TS_PR_OSTAT);
		return WL_STEP;
	}
	if (call_result(s, TS_PR_OSTAT, "Order-Status") < 0)
		return -1;
	if (s->cols[0].i <= 0)
		return tx_error(s, "Order-Status: no customer with the last name");
	/* A row per line of the order (one without a line when there is no
	 * order), each carrying the count the procedure read. */
	{
		int64_t o_id = s->cols[1].i, count = s->cols[2].i;
		uint64_t n = 0;
		int more = 1;
		for (; more == 1; more = s->c->ops->fetch(s->c, s->st[TS_PR_OSTAT], s->cols))
			n += !s->cols[3].is_null;
		if ((int64_t)n != count || (o_id && (n < 5 || n > 15)))
			return tx_fatal(s, "Order-Status: the procedure's rows are not the order's 5 to 15 lines "
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

	if (s->pc++ == CALL_SEND) {
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
			return tx_fatal(s, "Delivery: the procedure's order list is not ten orders (0 for each skipped district)");
		}
	}
	drain(s, TS_PR_DELIVERY);
	if (delivered < 0 || skipped < 0 || delivered + skipped != 10)
		return tx_fatal(s, "Delivery: the procedure did not account for the ten districts");
	atomic_fetch_add_explicit(&s->x->skipped_districts, (unsigned long long)skipped, memory_order_relaxed);
	s->active = false;
	return WL_DONE;
}

static int pr_stock_level(struct tpcc_sess *s, const struct wl_step **out)
{
	struct db_value *p = s->step.params;

	if (s->pc++ == CALL_SEND) {
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

int tpcc_next_call(struct tpcc_sess *s, const struct wl_step **out)
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
	return tx_error(s, "unknown transaction type");
}
