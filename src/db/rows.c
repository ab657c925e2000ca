#include "db/rows.h"

#include <stdlib.h>

void db_rows_init(struct db_rows *r, const enum db_type *types, unsigned ncols)
{
	r->types = types;
	r->ncols = ncols;
	r->v = NULL;
	r->nrows = r->cap = r->pos = 0;
	strbuf_init(&r->arena, 256);
}

void db_rows_release(struct db_rows *r)
{
	free(r->v);
	r->v = NULL;
	strbuf_release(&r->arena);
}

void db_rows_reset(struct db_rows *r)
{
	r->nrows = r->pos = 0;
	strbuf_reset(&r->arena);
}

void db_rows_add(struct db_rows *r, const struct db_value *vals)
{
	struct db_row_val *row;

	if (r->nrows == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->v = xrealloc(r->v, r->cap * (r->ncols ? r->ncols : 1) * sizeof(*r->v));
	}
	row = &r->v[r->nrows * r->ncols];
	for (unsigned i = 0; i < r->ncols; i++) {
		row[i].null = vals[i].is_null;
		row[i].i = vals[i].i;
		row[i].d = vals[i].d;
		row[i].off = r->arena.len;
		row[i].len = (r->types[i] == DB_TYPE_STRING || r->types[i] == DB_TYPE_TIMESTAMP) && !vals[i].is_null ? vals[i].len : 0;
		if (row[i].len)
			strbuf_add(&r->arena, vals[i].s, row[i].len);
	}
	r->nrows++;
}

int db_rows_next(struct db_rows *r, struct db_value *cols)
{
	const struct db_row_val *row;

	if (r->pos >= r->nrows)
		return 0;
	row = &r->v[r->pos++ * r->ncols];
	for (unsigned i = 0; i < r->ncols; i++) {
		cols[i].type = r->types[i];
		cols[i].is_null = row[i].null;
		cols[i].i = row[i].i;
		cols[i].d = row[i].d;
		cols[i].s = r->types[i] == DB_TYPE_STRING || r->types[i] == DB_TYPE_TIMESTAMP ? r->arena.buf + row[i].off : NULL;
		cols[i].len = row[i].len;
	}
	return 1;
}
