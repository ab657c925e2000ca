/*
 * Workload interface: what one connection sends, one transaction at a time.
 *
 * The runner owns connections and time; a workload owns statements and
 * randomness. A transaction is a sequence of steps the runner executes one by
 * one (blocking, or without blocking on an event loop); after each step the
 * workload sees its result and names the next step, so workloads whose next
 * statement depends on the last result (TPC-C) fit the same shape as
 * sysbench's fixed scripts.
 */
#ifndef DBRIG_WORKLOAD_WORKLOAD_H
#define DBRIG_WORKLOAD_WORKLOAD_H

#include "core/rng.h"
#include "db/db.h"

#define WL_MAX_PARAMS 16

struct wl_step {
	struct db_stmt *stmt; /* prepared statement, or NULL for a text query */
	const char *sql;      /* text query when stmt == NULL */
	size_t sql_len;
	struct db_value params[WL_MAX_PARAMS];
};

enum wl_next {
	WL_STEP = 1,          /* execute *step next */
	WL_DONE = 0,          /* the transaction committed */
	WL_DONE_ROLLBACK = 2, /* finished by an intended rollback (TPC-C's 1% New-Orders) */
};

struct workload_ops {
	const char *name;
	/* Per connection: prepare statements (blocking). Called again after a reconnect. */
	int (*session_open)(void *wl, struct db_conn *c, unsigned session_index, void **sess);
	void (*session_close)(void *sess);
	/* Name the next step of the current transaction. `last` is the result of
	 * the previous step (NULL at the start of a transaction). Returns an
	 * enum wl_next value, or <0 with c->err set for a workload-level failure. */
	int (*next)(void *sess, struct rng *r, const struct db_exec_result *last, const struct wl_step **step);
	/* Forget the transaction in progress: the next next() starts a new one. */
	void (*restart)(void *sess);
	/* Which transaction type the current one is (index into the type names
	 * given to the runner); workloads with one type return 0. */
	unsigned (*txn_type)(void *sess);
};

#endif
