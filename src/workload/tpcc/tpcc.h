/*
 * TPC-C-style OLTP (TPC-C rev 5.11 clauses named where they matter): the
 * random inputs (NURand with a stored C-load and a valid C-run, last names,
 * the per-terminal deck), the five transactions as a runner workload with
 * terminals, the loader and the consistency check.
 */
#ifndef DBRIG_WORKLOAD_TPCC_TPCC_H
#define DBRIG_WORKLOAD_TPCC_TPCC_H

#include "core/rng.h"
#include "core/strbuf.h"
#include "db/db.h"
#include "workload/tpcc/sql.h"
#include "workload/workload.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Transaction types as recorded; the first five are the deck's. */
enum tpcc_type {
	TT_NEW_ORDER,
	TT_PAYMENT,
	TT_ORDER_STATUS,
	TT_DELIVERY,
	TT_STOCK_LEVEL,
	TT_NEW_ORDER_ROLLBACK, /* the 1% New-Orders that end by an intended rollback */
};
#define TPCC_DECK_TYPES 5
#define TPCC_TYPES 6
#define TPCC_DECK_MAX 100

const char *tpcc_type_name(enum tpcc_type t);

/* The NURand constants (clause 2.1.6): A = 255 for C_LAST, 1023 for C_ID,
 * 8191 for OL_I_ID. */
struct tpcc_c {
	unsigned c_last, c_id, ol_i_id;
};

uint32_t tpcc_nurand(struct rng *r, uint32_t a, uint32_t x, uint32_t y, uint32_t c);
/* Clause 4.3.2.2's a-strings: 62 alphanumeric characters, each equally likely.
 * tpcc_alnum maps a 6-bit draw to its character, or -1 for 62 and 63, which
 * are drawn again (rejection: no modulo bias); tpcc_astring fills n
 * characters from ten 6-bit draws per 64-bit random word. */
int tpcc_alnum(unsigned bits6);
void tpcc_astring(struct rng *r, char *out, unsigned n);
/* Clause 2.1.6.1: |C_RUN - C_LOAD| for C_LAST in [65, 119], not 96 or 112. */
bool tpcc_c_delta_valid(unsigned c_load, unsigned c_run);
/* A C-run with a valid delta to the stored C-load (C_LAST), random C_ID and
 * OL_I_ID constants. */
void tpcc_pick_c_run(struct rng *r, const struct tpcc_c *load, struct tpcc_c *run);
/* Clause 4.3.2.3: the last name for 0..999 into out (at most 15 chars + NUL);
 * returns the length. */
unsigned tpcc_last_name(unsigned num, char *out);

/* The deck (the spec's shuffled card deck): `weights` cards of each type,
 * shuffled, dealt until empty, reshuffled. */
struct tpcc_deck {
	uint8_t n, pos;
	uint8_t card[TPCC_DECK_MAX];
};
/* Weights must sum to 1..TPCC_DECK_MAX. */
void tpcc_deck_init(struct tpcc_deck *d, const unsigned weights[TPCC_DECK_TYPES]);
enum tpcc_type tpcc_deck_next(struct tpcc_deck *d, const unsigned weights[TPCC_DECK_TYPES], struct rng *r);
/* Do the weights meet the spec's mix minimums (Payment 43%, Order-Status,
 * Delivery and Stock-Level 4% each)? */
bool tpcc_weights_meet_spec(const unsigned weights[TPCC_DECK_TYPES]);

/* Keying and mean think times of the spec (clause 5.2.5), seconds. */
extern const double tpcc_spec_keying_s[TPCC_DECK_TYPES];
extern const double tpcc_spec_think_s[TPCC_DECK_TYPES];
/* The spec's 90th-percentile response time limits, seconds. */
extern const double tpcc_p90_limit_s[TPCC_DECK_TYPES];

/* --delays: spec | scale:F | cycle:SECONDS | off -> factor applied to the
 * spec's keying and think times. cycle:S makes the mean keying + think over
 * the deck S seconds. Returns 0 or -EINVAL. */
int tpcc_delays_parse(const char *s, const unsigned weights[TPCC_DECK_TYPES], double *factor)
	__attribute__((warn_unused_result));
/* The runner's keying and mean think times per type, nanoseconds: the
 * spec's times x factor (--delays). */
void tpcc_spec_delays_ns(double factor, uint64_t keying_ns[TPCC_DECK_TYPES], uint64_t think_ns[TPCC_DECK_TYPES]);
/* Mean keying + think time per transaction over the deck at factor 1. */
double tpcc_spec_mean_cycle_s(const unsigned weights[TPCC_DECK_TYPES]);

/* --- the run workload --- */

/* --mode: how a transaction reaches the server. */
enum tpcc_mode {
	TPCC_STATEMENTS, /* one prepared statement per step, the client commits */
	TPCC_PROCEDURES, /* one call of a server-side procedure (sql/<dialect>/procedures.sql) */
};

/* --isolation=ITEM[,ITEM...] (isolation.c): ITEM is LEVEL, the connections'
 * level (once; default: the server's), or TYPE:LEVEL, a level of that type's
 * own (TYPE neword, payment, ostat, delivery, slev; LEVEL default,
 * read-committed, repeatable-read, serializable, snapshot). */
struct tpcc_isolation {
	enum db_isolation base;                  /* set at connect */
	enum db_isolation level[TPCC_DECK_TYPES]; /* every type's (base unless given) */
	bool given[TPCC_DECK_TYPES];             /* a level other than base's, sent per transaction */
};
/* 0, or -1 with a message in err ("… (expected …)"). */
int tpcc_isolation_parse(const char *s, struct tpcc_isolation *iso, char *err, size_t n);
const char *tpcc_isolation_name(enum db_isolation l);
/* Any type, or the base, at SQL Server's SNAPSHOT. */
bool tpcc_isolation_snapshot(const struct tpcc_isolation *iso);
/* The dialect's default for a type not given: SQL Server's Order-Status at
 * REPEATABLE READ when the base is default or read-committed (clause 3.4).
 * True when it applied one. */
bool tpcc_isolation_dialect_default(struct tpcc_isolation *iso, enum tpcc_dialect d);
/* "neword:LEVEL,payment:LEVEL,ostat:LEVEL,delivery:LEVEL,slev:LEVEL". */
void tpcc_isolation_describe(const struct tpcc_isolation *iso, char *buf, size_t n);
/* The statement to send before a transaction of type t (into buf), or NULL
 * for none; *cur is the session's level where the dialect's setting lasts
 * for the session (SQL Server; PostgreSQL in the procedure mode). */
const char *tpcc_isolation_step(const struct tpcc_isolation *iso, enum tpcc_dialect d, enum tpcc_mode m,
				enum tpcc_type t, enum db_isolation *cur, char *buf, size_t n);

struct tpcc_ctx {
	const struct tpcc_sql *sql;
	enum tpcc_mode mode;
	unsigned warehouses;
	unsigned weights[TPCC_DECK_TYPES];
	struct tpcc_c c_run;
	enum db_isolation isolation; /* applied by the driver's session_setup */
	struct tpcc_isolation iso;   /* per type; iso.base == isolation */
	uint64_t seed;               /* prepare: the load's random seed */
	uint64_t pad_to;             /* prepare: --pad-to bytes per warehouse (0 none); run: from tpcc_meta */
	atomic_ullong skipped_districts; /* Delivery: districts without a new order */
	atomic_ullong remote_lines, by_name;
	atomic_ullong ostat_lines;   /* Order-Status: the order lines read back, both modes */
	struct tpcc_dlog *dlog;      /* --delivery-log, or NULL */
};

/* The Delivery result log (clause 2.7.4.2, --delivery-log; dlog.c): one line
 * per deferred Delivery counted in a phase (its queueing and completion
 * times, warehouse, carrier, each district's delivered order or its skip).
 * tpcc_dlog_open writes the header to `path` (atomically: a path that cannot
 * be written fails before the run) and to "<path>.tmp"; each line is
 * appended to "<path>.tmp" as it comes (a write per line, so a crash, kill
 * or OOM keeps every Delivery logged so far there); tpcc_dlog_finish syncs it
 * and renames it over `path`. Never through a link, never a FIFO or device
 * (core/fileio.c). Returns 0 or -errno. */
struct tpcc_dlog {
	pthread_mutex_t mu;
	int fd;
	int err; /* the first write error, -errno; later lines are dropped */
	char *path, *tmp;
	unsigned long long lines;
};
int tpcc_dlog_open(struct tpcc_dlog *d, const char *path) __attribute__((warn_unused_result));
/* o_id[k]: district k+1's delivered order, 0 = skipped (no new order). */
void tpcc_dlog_add(struct tpcc_dlog *d, unsigned phase, uint64_t latency_ns, bool deferred, uint32_t w,
		   uint32_t carrier, const uint32_t o_id[10]);
int tpcc_dlog_finish(struct tpcc_dlog *d) __attribute__((warn_unused_result));
/* Closes; "<path>.tmp" stays when tpcc_dlog_finish did not succeed. */
void tpcc_dlog_release(struct tpcc_dlog *d);

extern const struct workload_ops tpcc_workload_ops;

/* What the server was (sql/<dialect>/settings.sql), read on a connection set
 * up as the run's: fn gets each (name, value); a statement that fails gives
 * fn(arg, NULL, 0, message) and the next one runs. Returns 0, or -1 when no
 * connection could be made (fn had the message). */
typedef void (*tpcc_setting_fn)(void *arg, const char *name, size_t nlen, const char *value, size_t vlen);
int tpcc_read_settings(const struct tpcc_ctx *x, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		       tpcc_setting_fn fn, void *arg) __attribute__((warn_unused_result));

/* --- padding (pad.c): --pad-to=BYTES per warehouse --- */
#define TPCC_PAD_TABLES 3      /* customer, stock, order_line */
#define TPCC_PAD_MAX_FACTOR 8u /* above 8 times the unpadded size: refused */
#define TPCC_PAD_STMTS_MAX 6
/* The dialect's bytes per warehouse without padding (docs/tpcc.md's table). */
uint64_t tpcc_pad_base(enum tpcc_dialect d);
/* The padding column's width per table for `to` bytes per warehouse (0: none,
 * all widths 0); -1 with the one-line reason in err when `to` is below the
 * unpadded size or above TPCC_PAD_MAX_FACTOR times it. */
int tpcc_pad_widths(enum tpcc_dialect d, uint64_t to, unsigned width[TPCC_PAD_TABLES], char *err, size_t n);
/* The ALTER TABLE statements adding those columns (malloc'd, into out); their count. */
unsigned tpcc_pad_sql(enum tpcc_dialect d, const unsigned width[TPCC_PAD_TABLES], char *out[TPCC_PAD_STMTS_MAX]);

/* --- load (load.c); read_meta, check, cleanup (check.c) --- */

struct tpcc_load_stats {
	uint64_t rows;
	double seconds;
	struct tpcc_c c_load;
};

/* SQL Server's load (bulk copy, else parameter arrays) takes at most this many
 * connections, whatever --threads says (review R6: a campaign's 200 loaders
 * on 8 vCPUs, fully logged, row-locked, never measured). */
#define TPCC_MSSQL_LOADERS_MAX 16
/* The connections prepare loads with: `threads`, at most one per unit of
 * work, at most TPCC_MSSQL_LOADERS_MAX on SQL Server. */
unsigned tpcc_loaders(enum tpcc_dialect d, unsigned threads, unsigned units);
int tpcc_prepare(const struct tpcc_sql *sql, unsigned warehouses, const struct db_driver_ops *drv,
		 const struct db_conn_params *cp, unsigned threads, uint64_t seed, uint64_t pad_to,
		 struct tpcc_load_stats *st);
/* Read tpcc_meta: the C-load constants, the warehouse count and the padding
 * (pad_to: 0 when the database has no pad_to row: no padding). */
int tpcc_read_meta(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		   struct tpcc_c *c_load, unsigned *warehouses, uint64_t *pad_to);
/* The run's C constants (clause 2.1.6.1: one C per field for every terminal): the
 * first run on a database stores `drawn` in tpcc_meta (c_run_c_last, c_run_c_id,
 * c_run_ol_i_id); every later run, and every other driver process on the same
 * database, reads and uses those. Prints which. 0, or -1 with the error logged. */
int tpcc_share_c_run(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		     const struct tpcc_c *c_load, const struct tpcc_c *drawn, struct tpcc_c *run);
/* --- consistency (tpcc_check.c) --- */

/* The tables, in the order of chk_rows's columns. */
enum tpcc_table {
	TB_WAREHOUSE,
	TB_DISTRICT,
	TB_CUSTOMER,
	TB_ORDERS,
	TB_NEW_ORDER,
	TB_ITEM,
	TB_STOCK,
	TB_HISTORY,
	TB_ORDER_LINE,
	TB_META,
};
#define TPCC_TABLES 10
const char *tpcc_table_name(enum tpcc_table t);

#define TPCC_CONDITIONS 12
struct tpcc_cond {
	bool applies; /* condition 11: only before any Delivery */
	int64_t bad;  /* rows (warehouses, districts, orders, ...) that break it */
	int64_t checked;
};
struct tpcc_check_report {
	int64_t rows[TPCC_TABLES];
	struct tpcc_cond cond[TPCC_CONDITIONS]; /* cond[n - 1]: condition n */
	int64_t districts_without_new_orders;  /* exempt from condition 2's NEW-ORDER half */
	int64_t delivered_after_load;          /* orders after 2100 delivered: > 0 once Delivery ran */
	unsigned failed;                       /* conditions that apply and do not hold */
};
/* Clause 3.3.2.n in words, and what its rows are ("districts"). */
const char *tpcc_cond_text(unsigned n);
const char *tpcc_cond_unit(unsigned n);

/* All 12 conditions of clause 3.3.2, every row of every table aggregated.
 * Returns 0 when the check ran (rep->failed says how many fail), -1 on a
 * database error (logged). */
int tpcc_check_run(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		   struct tpcc_check_report *rep) __attribute__((warn_unused_result));
struct strbuf;
/* "rows: warehouse 2, …, order_line N" (every table but tpcc_meta) into sb. */
void tpcc_check_rows(const struct tpcc_check_report *rep, struct strbuf *sb);
/* The rows line, then one line per condition: ok / FAILED / n/a. */
void tpcc_check_print(FILE *f, const struct tpcc_check_report *rep);
/* tpcc_check_run + print; a failure also gets one error line naming the
 * failed conditions. When all hold, the rows line (the fingerprint a
 * campaign compares restores with) goes into fp (may be NULL). Returns 0
 * when all hold, 1 when one fails, -1 on a database error. */
int tpcc_check(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
	       struct strbuf *fp);

/* Helpers shared by the loader and the check: prepare statement k (logs
 * a failure), and read the first row's first n integer columns. */
int tpcc_prepare_stmt(struct db_conn *c, const struct tpcc_sql *sql, enum tpcc_stmt k, struct db_stmt **st)
	__attribute__((warn_unused_result));
int tpcc_select_ints(struct db_conn *c, const struct tpcc_sql *sql, enum tpcc_stmt k, int64_t *out, unsigned n)
	__attribute__((warn_unused_result));
int tpcc_cleanup(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp);

/* Shared by the load (load.c, load_batch.c, load_rows.c) and check.c: one error line
 * "<what> failed: error N (SQLSTATE): msg"; a statement run as text, -1 after that line. */
void tpcc_db_fail(struct db_conn *c, const char *what);
int tpcc_exec_text(struct db_conn *c, const char *sql) __attribute__((warn_unused_result));

/* --- the server's session limits (limits.c, sql/<dialect>/sessions.sql) --- */

struct tpcc_limits {
	long long max_sessions;  /* 0 = not known */
	long long open_sessions; /* including the connection that asked */
	long long max_prepared;  /* -1 = no limit */
	long long open_prepared;
	const char *setting;     /* the server setting that sets max_sessions */
	char error[640];         /* why they could not be read */
};
/* Statements each run session prepares (the transactions'). */
#define TPCC_SESSION_STATEMENTS TS_FIRST_LOAD
/* Read them over a connection of its own: 0, or -1 with out->error set. */
int tpcc_read_limits(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		     struct tpcc_limits *out) __attribute__((warn_unused_result));
/* Do `sessions` more sessions of `stmts_per_session` statements fit? 0, or -1
 * with one line in err ("<what>: 2000 sessions, but the server takes ..."). */
int tpcc_limits_check(const struct tpcc_limits *l, const char *what, unsigned sessions, unsigned stmts_per_session,
		      char *err, size_t errlen) __attribute__((warn_unused_result));

#endif
