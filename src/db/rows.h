/*
 * A result set kept on the client: rows of typed values, the strings copied
 * into one arena, read back in order. Used by the drivers that read a result
 * to the end before the next statement (ODBC always, libmysqlclient after a
 * CALL, whose status result follows its rows).
 */
#ifndef DBRIG_DB_ROWS_H
#define DBRIG_DB_ROWS_H

#include "core/strbuf.h"
#include "db/db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct db_row_val {
	int64_t i;
	double d;
	size_t off, len; /* STRING: bytes in the arena */
	bool null;
};

struct db_rows {
	const enum db_type *types; /* ncols, as the statement was prepared */
	unsigned ncols;
	struct db_row_val *v;      /* nrows × ncols */
	size_t nrows, cap, pos;
	struct strbuf arena;
};

void db_rows_init(struct db_rows *r, const enum db_type *types, unsigned ncols);
void db_rows_release(struct db_rows *r);
/* Forget the rows (the next result starts empty). */
void db_rows_reset(struct db_rows *r);
/* Append a row of ncols values (strings are copied). */
void db_rows_add(struct db_rows *r, const struct db_value *vals);
/* The next row into cols (strings point into the arena, valid until the
 * next reset): 1, or 0 when there is no more. */
int db_rows_next(struct db_rows *r, struct db_value *cols);

#endif
