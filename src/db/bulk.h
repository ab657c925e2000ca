/*
 * Bulk loading through a backend's load_stream (MySQL/MariaDB's LOAD DATA
 * LOCAL INFILE), shared by the sysbench and TPC-C loaders: the refusal test
 * that sends a loader to its INSERT fallback, the text row format, a LOAD
 * statement derived from a parameterised INSERT, and a stream fed from memory.
 *
 * Text rows are LOAD DATA's defaults: fields separated by a tab, rows ended by
 * a newline, NULL written as \N, backslash, tab and newline escaped by a
 * backslash.
 */
#ifndef DBRIG_DB_BULK_H
#define DBRIG_DB_BULK_H

#include "core/strbuf.h"
#include "db/db.h"

#include <stdbool.h>

/* Did the server (or the client library) refuse a local load? 1148
 * ER_NOT_ALLOWED_COMMAND, 2068 CR_LOAD_DATA_LOCAL_INFILE_REJECTED, 3948
 * ER_CLIENT_LOCAL_FILES_DISABLED (MySQL 8), 4166
 * ER_LOAD_INFILE_CAPABILITY_DISABLED (MariaDB). Nothing was loaded then; the
 * caller loads the same rows another way. */
bool db_bulk_refused(const struct db_conn *c);

/* Append one value as a LOAD DATA text field (no separator). Doubles are
 * written with four decimals, as "%.4f". */
void db_bulk_field(struct strbuf *sb, const struct db_value *v);

/* "INSERT INTO t (c1, c2, c3) VALUES (?, CURRENT_TIMESTAMP, CASE WHEN ? = 1 THEN X END)"
 * → "LOAD DATA LOCAL INFILE 'dbrig-rows' INTO TABLE t (c1, @p2) SET c2 =
 * CURRENT_TIMESTAMP, c3 = CASE WHEN @p2 = 1 THEN X END": a column whose value
 * is a bare ? is read from the row, any other expression becomes a SET with
 * its ? read into a variable, so one text row carries the INSERT's parameters
 * in order. Returns a malloc'd statement, or NULL when the INSERT does not
 * have that shape. */
char *db_bulk_load_sql(const char *insert);

/* A bulk copy (SQL Server's bcp API) takes every column's value from the
 * client: the plan of a parameterised INSERT says, per column, which
 * parameter holds it or which of the loader's expressions it is. */
enum db_copy_kind {
	DB_COPY_PARAM,       /* the parameter `param` (0-based) */
	DB_COPY_NOW,         /* CURRENT_TIMESTAMP: the copy's time */
	DB_COPY_NULL,        /* NULL */
};
struct db_copy_col {
	char name[64];
	enum db_copy_kind kind;
	unsigned param;
};
/* The plan of "INSERT INTO t (c1, …) VALUES (?, CURRENT_TIMESTAMP, …)": the
 * table name into `table` and one entry per column. Returns 0, or -EINVAL
 * when a value is another expression (no bulk copy for that INSERT). */
int db_bulk_copy_plan(const char *insert, char *table, size_t table_size, struct db_copy_col *cols, unsigned max,
		      unsigned *ncols) __attribute__((warn_unused_result));

/* Run a LOAD statement whose rows are the `len` bytes at `rows`. Returns 0
 * with r->rows = rows loaded, or <0 with c->err set (db_bulk_refused tells a
 * refusal apart). */
int db_bulk_load_buffer(struct db_conn *c, const char *sql, const char *rows, size_t len, struct db_exec_result *r);

#endif
