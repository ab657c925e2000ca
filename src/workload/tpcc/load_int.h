/*
 * What the parts of the TPC-C load share (workload/tpcc/load*.c only):
 * load.c runs prepare (the tables, the loader connections that take the
 * units, the indexes, procedures and the row check), load_batch.c sends the
 * rows in batches through the backend's fastest path, load_rows.c makes the
 * rows of each unit of work and of tpcc_meta.
 */
#ifndef DBRIG_WORKLOAD_TPCC_LOAD_INT_H
#define DBRIG_WORKLOAD_TPCC_LOAD_INT_H

#include "db/bulk.h"
#include "workload/tpcc/tpcc.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum batch_mode {
	BM_ARRAY,  /* ODBC parameter arrays */
	BM_STREAM, /* LOAD DATA LOCAL INFILE text rows */
	BM_INSERT, /* multi-row INSERT text */
	BM_COPY,   /* SQL Server's bulk copy (copy_rows); rows held as for BM_ARRAY */
};
#define COPY_COLS 24

/* One connection's rows on their way to one table at a time (load_batch.c). */
struct batch {
	struct db_conn *c;
	const struct tpcc_sql *sql;
	char *const *load_sql;   /* BM_STREAM: LOAD statement per table */
	enum batch_mode mode;
	enum tpcc_stmt k;
	struct db_stmt *st;      /* BM_ARRAY: prepared INSERT */
	unsigned np, n;
	struct db_value *v;      /* BM_ARRAY: BATCH_ROWS × np; else one row */
	char *arena;
	size_t used;
	struct strbuf text;      /* BM_STREAM / BM_INSERT: the batch's rows */
	const char *tuple;       /* BM_INSERT: "(?, …)" of the INSERT */
	uint64_t since_commit;
	atomic_ullong *rows;     /* rows sent, per enum tpcc_table */
	bool probe;              /* a refused LOAD DATA returns -2, unreported */
	/* BM_COPY: the table's plan (db_bulk_copy_plan), or copy_table false
	 * when its INSERT has another expression (then a parameter array). */
	bool copy_table;
	char copy_name[64];
	struct db_copy_col plan[COPY_COLS];
	unsigned nplan;
	const char *copy_cols[COPY_COLS];
	enum db_type copy_types[COPY_COLS];
	struct db_value *cv;     /* BATCH_ROWS × nplan: the values per column */
	const char *now;         /* the load's time, "YYYY-MM-DDTHH:MM:SS" (ISO 8601) */
	atomic_int *no_copy_said;
};

/* The load: what every loader connection shares (load.c sets it up). */
struct loader {
	const struct tpcc_sql *sql;
	const struct db_driver_ops *drv;
	const struct db_conn_params *cp;
	unsigned warehouses;
	struct tpcc_c c_load;
	enum batch_mode mode;
	char *load_sql[TS_COUNT];
	atomic_uint next_unit;
	atomic_ullong rows[TPCC_TABLES]; /* rows sent per table */
	atomic_int failed;
	uint64_t seed;
	uint64_t pad_to; /* --pad-to, stored in tpcc_meta */
	char now[24];            /* O_ENTRY_D = OL_DELIVERY_D; BM_COPY: CURRENT_TIMESTAMP too */
	atomic_int no_copy_said; /* "no bulk copy: parameter arrays" printed once */
};

/* load_batch.c: a batch over connection c for loader l's mode; rows counts the
 * rows sent per table. Released by ld_batch_release. */
void ld_batch_init(struct batch *b, struct db_conn *c, const struct loader *l, atomic_ullong *rows);
void ld_batch_release(struct batch *b);
/* load_batch.c: send the rows the batch holds (a COMMIT every COMMIT_ROWS):
 * 0, -1 with the error logged, or -2 for a LOAD DATA refused while b->probe. */
int ld_batch_flush(struct batch *b);
/* load_batch.c: switch the batch to table k's statement (flushing what it holds). */
int ld_batch_table(struct batch *b, enum tpcc_stmt k);
/* load_batch.c: the next row's values; ld_batch_row_done after filling them
 * (which flushes a full batch). */
struct db_value *ld_batch_row(struct batch *b);
int ld_batch_row_done(struct batch *b);

/* load_rows.c: unit u's rows (0 = ITEM, then three per warehouse), committed. */
int ld_unit(struct loader *l, struct batch *b, unsigned u);
/* load_rows.c: tpcc_meta's rows, the first loaded (a refused LOAD DATA
 * switches l->mode to multi-row INSERTs). */
int ld_store_meta(struct loader *l, struct db_conn *c);

#endif
