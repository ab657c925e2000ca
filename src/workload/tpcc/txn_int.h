/*
 * What the two parts of the TPC-C run workload share (workload/tpcc/txn*.c
 * only): txn.c runs the five transactions step by step, in the statement
 * mode and in the procedure mode; txn_session.c is the session the runner
 * drives (its inputs drawn at each start, the next step, the terminals, the
 * workload's ops).
 */
#ifndef DBRIG_WORKLOAD_TPCC_TXN_INT_H
#define DBRIG_WORKLOAD_TPCC_TXN_INT_H

#include "db/db.h"
#include "workload/tpcc/tpcc.h"
#include "workload/workload.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_LINES 15
#define NCOLS_MAX 16 /* the widest result: Payment's customer, 14 columns */

/* A terminal: its home warehouse and district for its whole life, its deck. */
struct tpcc_term {
	uint16_t w;
	uint8_t d;
	struct tpcc_deck deck;
};

/* A New-Order line as drawn. */
struct line {
	uint32_t i_id, supply_w, qty;
	uint8_t number; /* OL_NUMBER: the line's place in the order as entered */
};

/* One run connection's session: the transaction in progress, its inputs and
 * the values carried from step to step. */
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

/* txn.c, the statement mode: the next step of the transaction in progress
 * (WL_STEP with *out set, WL_DONE / WL_DONE_ROLLBACK when it has ended, -1
 * with s->c->err set on an error). */
int tx_new_order(struct tpcc_sess *s, const struct db_exec_result *last, const struct wl_step **out);
int tx_payment(struct tpcc_sess *s, const struct wl_step **out);
int tx_order_status(struct tpcc_sess *s, const struct wl_step **out);
int tx_delivery(struct tpcc_sess *s, const struct db_exec_result *last, const struct wl_step **out);
int tx_stock_level(struct tpcc_sess *s, const struct wl_step **out);
/* txn.c, the procedure mode: the same for the one call of s->type. */
int tpcc_next_call(struct tpcc_sess *s, const struct wl_step **out);
/* txn.c: a fatal error with message msg in s->c->err; -1. */
int tx_fatal(struct tpcc_sess *s, const char *msg);
/* txn.c: tx_fatal with "(is the database loaded by dbrig tpcc prepare?)" after what. */
int tx_error(struct tpcc_sess *s, const char *what);

#endif
