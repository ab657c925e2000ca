/*
 * sysbench 1.0.20's OLTP workloads: the sbtest schema, the loader, and the
 * per-event statement scripts of oltp_*.lua, statement for statement.
 */
#ifndef DBRIG_WORKLOAD_SYSBENCH_SYSBENCH_H
#define DBRIG_WORKLOAD_SYSBENCH_SYSBENCH_H

#include "core/rng.h"
#include "db/db.h"
#include "workload/workload.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum sb_test {
	SB_READ_WRITE,
	SB_READ_ONLY,
	SB_WRITE_ONLY,
	SB_POINT_SELECT,
	SB_UPDATE_INDEX,
	SB_UPDATE_NON_INDEX,
	SB_INSERT,
	SB_DELETE,
};
#define SB_TEST_COUNT 8

struct sb_opts {
	enum sb_test test;
	unsigned tables;
	unsigned table_size;
	unsigned range_size;
	unsigned point_selects;
	unsigned simple_ranges;
	unsigned sum_ranges;
	unsigned order_ranges;
	unsigned distinct_ranges;
	unsigned index_updates;
	unsigned non_index_updates;
	unsigned delete_inserts;
	bool range_selects;
	bool skip_trx;
	bool auto_inc;
	bool secondary;
	bool create_secondary;
	const char *storage_engine; /* --mysql-storage-engine, "innodb" */
	struct rand_dist dist;      /* --rand-type and its parameters */
	uint64_t rand_seed;
	/* oltp_insert --auto-inc=off: the run's id sequence, shared by every
	 * connection (and kept across reconnects), as sysbench's rand.unique():
	 * 2^32 distinct ids per run, starting at a point drawn from the seed so
	 * that a second run into the same tables does not repeat the first. */
	_Atomic uint32_t unique_next;
};

/* Start the id sequence of oltp_insert --auto-inc=off (from --rand-seed, or
 * from the clock when it is 0). */
void sb_unique_init(struct sb_opts *o);

const char *sb_test_name(enum sb_test t);
int sb_test_parse(const char *s, enum sb_test *out) __attribute__((warn_unused_result));

/* The workload for the runner; `wl` is a `const struct sb_opts *`. */
extern const struct workload_ops sysbench_workload_ops;

/* SQL text, exactly as sysbench 1.0.20 sends it. */
enum sb_stmt {
	SB_STMT_POINT,
	SB_STMT_SIMPLE_RANGE,
	SB_STMT_SUM_RANGE,
	SB_STMT_ORDER_RANGE,
	SB_STMT_DISTINCT_RANGE,
	SB_STMT_INDEX_UPDATE,
	SB_STMT_NON_INDEX_UPDATE,
	SB_STMT_DELETE,
	SB_STMT_INSERT,
};
#define SB_STMT_COUNT 9
/* printf format with one %u (table number). */
const char *sb_stmt_format(enum sb_stmt s);
/* CREATE TABLE text for table n (sysbench's create_table for MySQL). */
char *sb_create_table_sql(const struct sb_opts *o, unsigned n);

/* Commands other than run. Each opens its own connections; `threads` as
 * sysbench's --threads. They print what sysbench prints and return 0 or -1
 * (after an error message). */
struct sb_load_stats {
	uint64_t rows;
	double seconds;
};
int sb_prepare(const struct sb_opts *o, const struct db_driver_ops *drv, const struct db_conn_params *cp,
	       unsigned threads, struct sb_load_stats *st);
int sb_prewarm(const struct sb_opts *o, const struct db_driver_ops *drv, const struct db_conn_params *cp,
	       unsigned threads);
int sb_cleanup(const struct sb_opts *o, const struct db_driver_ops *drv, const struct db_conn_params *cp);
/* The database's fingerprint (check.c): "tables=N rows=R sbtest1.rows=R1 checksum=C", C every table's CHECKSUM TABLE folded. */
struct strbuf;
int sb_check(const struct sb_opts *o, const struct db_driver_ops *drv, const struct db_conn_params *cp,
	     struct strbuf *fp) __attribute__((warn_unused_result));

#endif
