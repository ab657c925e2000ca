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

#include <stdbool.h>
#include <stddef.h>

#define WL_MAX_PARAMS 16

enum wl_step_kind {
	WL_STEP_SQL = 0,  /* stmt or sql below */
	WL_STEP_COMMIT,   /* end the transaction: the driver's commit */
	WL_STEP_ROLLBACK, /* end it with the driver's rollback */
};

struct wl_step {
	struct db_stmt *stmt; /* prepared statement, or NULL for a text query */
	const char *sql;      /* text query when stmt == NULL */
	size_t sql_len;
	struct db_value params[WL_MAX_PARAMS];
	enum wl_step_kind kind;
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

	/* Terminals (optional, TPC-C): state the runner keeps per terminal
	 * (term_size bytes each) and hands to a session for one transaction. */
	size_t term_size;
	void (*term_init)(void *wl, unsigned index, void *term);
	/* Draw the terminal's next transaction type (its deck). */
	unsigned (*term_next)(void *wl, void *term, struct rng *r);
	/* Does the terminal queue this type and go on without waiting (TPC-C's
	 * deferred Delivery)? The runner then runs it later as a job. */
	bool (*type_deferred)(void *wl, unsigned type);
	/* The next transaction of `sess` is `type` for terminal `term`. */
	void (*bind_term)(void *sess, void *term, unsigned type);
	/* Optional: the transaction just finished was counted in `phase` (enum
	 * runner_phase) with this latency, from its scheduled submit (a deferred
	 * job's: its queueing) to its commit, which was just now; `deferred`: it
	 * ran as a job, its terminal answered at the queueing. */
	void (*txn_recorded)(void *sess, unsigned phase, uint64_t latency_ns, bool deferred);
};

#endif
