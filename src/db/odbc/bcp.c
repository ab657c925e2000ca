/* SQL Server's bulk copy through the driver library's bcp_* functions, and date and time text converted. */
#define _GNU_SOURCE /* dl_iterate_phdr: find the driver library the driver manager loaded */
#include "db/odbc/odbc_int.h"

#include "core/strbuf.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bcp call succeeded: its RETCODE compared as the short it is. */
static bool bcp_ok(RETCODE rc)
{
	return rc == (RETCODE)BCP_SUCCEED;
}

/* dl_iterate_phdr: the loaded object whose file name is the driver's. */
struct find_lib {
	const char *base;
	char path[1024];
};

static int find_lib_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find_lib *f = arg;
	const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	(void)size;
	if (slash && !strcmp(slash + 1, f->base)) {
		snprintf(f->path, sizeof(f->path), "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

/* The bcp functions of the driver this connection loaded, or NULL. */
struct bcp_api *bcp_find(SQLHDBC dbc)
{
	struct find_lib f = {.base = NULL, .path = ""};
	char name[256] = "";
	SQLHDBC drv_hdbc = NULL;
	struct bcp_api api, *out;
	void *lib;

	if (!ok(SQLGetInfo(dbc, SQL_DRIVER_NAME, name, sizeof(name), NULL)) ||
	    !ok(SQLGetInfo(dbc, SQL_DRIVER_HDBC, &drv_hdbc, sizeof(drv_hdbc), NULL)) || !drv_hdbc)
		return NULL;
	f.base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	dl_iterate_phdr(find_lib_cb, &f);
	lib = dlopen(f.path[0] ? f.path : name, RTLD_NOW | RTLD_NOLOAD);
	if (!lib)
		return NULL;
	/* dlsym returns object pointers; POSIX lets them be used as functions. */
	*(void **)&api.init = dlsym(lib, "bcp_initA");
	*(void **)&api.bind = dlsym(lib, "bcp_bind");
	*(void **)&api.colptr = dlsym(lib, "bcp_colptr");
	*(void **)&api.collen = dlsym(lib, "bcp_collen");
	*(void **)&api.sendrow = dlsym(lib, "bcp_sendrow");
	*(void **)&api.done = dlsym(lib, "bcp_done");
	dlclose(lib); /* RTLD_NOLOAD took a reference; the driver manager keeps its own */
	if (!api.init || !api.bind || !api.colptr || !api.collen || !api.sendrow || !api.done)
		return NULL;
	api.hdbc = drv_hdbc;
	out = xmalloc(sizeof(*out));
	*out = api;
	return out;
}

static int digits(const char *s, size_t n, int *out)
{
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

int odbc_datetime_fields(const char *s, size_t len, struct odbc_datetime *t)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int y, m, d, hh, mi, ss;

	if (len != 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':' ||
	    digits(s, 4, &y) < 0 || digits(s + 5, 2, &m) < 0 || digits(s + 8, 2, &d) < 0 ||
	    digits(s + 11, 2, &hh) < 0 || digits(s + 14, 2, &mi) < 0 || digits(s + 17, 2, &ss) < 0)
		return -EINVAL;
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (y < 1753 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap) || hh > 23 || mi > 59 ||
	    ss > 59)
		return -EINVAL;
	*t = (struct odbc_datetime){.year = y, .month = m, .day = d, .hour = hh, .minute = mi, .second = ss};
	return 0;
}

int odbc_bcp_datetime(const char *s, size_t len, int32_t *days, uint32_t *ticks)
{
	struct odbc_datetime t;
	int y, m, d, hh, mi, ss;
	long yy, era, yoe, doy, doe, civil;

	if (odbc_datetime_fields(s, len, &t) < 0)
		return -EINVAL;
	y = t.year, m = t.month, d = t.day, hh = t.hour, mi = t.minute, ss = t.second;
	/* Days from 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
	 * days_from_civil), then from 1900-01-01 (25,567 days earlier). */
	yy = m <= 2 ? y - 1 : y;
	era = yy / 400;
	yoe = yy - era * 400;
	doy = (153L * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	civil = era * 146097 + doe - 719468;
	*days = (int32_t)(civil + 25567);
	*ticks = (uint32_t)(((hh * 60 + mi) * 60 + ss) * 300);
	return 0;
}

static int bcp_fail(struct db_conn *c, const char *what)
{
	struct od_conn *o = c->priv;

	diag(c, SQL_HANDLE_DBC, o->dbc, what);
	c->err.cls = DB_ERR_FATAL;
	return -1;
}

/* The server's ordinal of each of cols (and whether it is a DATETIME) from
 * sys.columns, unless b already holds them for this table and these
 * columns; then the implicit transaction the lookups opened is ended. 0, or
 * -1 with c->err set. */
static int bcp_columns(struct db_conn *c, struct bcp_api *b, const char *table, const char *const *cols,
		       unsigned ncols)
{
	struct od_conn *o = c->priv;
	int *ord = b->ord;
	bool cached = !strcmp(b->table, table) && b->ncols == ncols;

	for (unsigned k = 0; cached && k < ncols; k++)
		cached = strlen(cols[k]) < sizeof(b->cols[k]) && !strcmp(b->cols[k], cols[k]);
	b->table[0] = '\0';
	/* Column ordinals by name, from the table itself. */
	for (unsigned k = 0; !cached && k < ncols; k++) {
		char q[256];
		SQLLEN ind = 0, tind = 0;
		SQLINTEGER id = 0, type = 0;
		snprintf(q, sizeof(q),
			 "SELECT column_id, CAST(system_type_id AS INT) FROM sys.columns WHERE object_id = OBJECT_ID('%s') AND name = '%s'",
			 table, cols[k]);
		ord[k] = 0;
		if (ok(SQLExecDirect(o->q, (SQLCHAR *)q, SQL_NTS)) && ok(SQLBindCol(o->q, 1, SQL_C_SLONG, &id, 0, &ind)) &&
		    ok(SQLBindCol(o->q, 2, SQL_C_SLONG, &type, 0, &tind)) && ok(SQLFetch(o->q)))
			ord[k] = (int)id;
		/* 61: DATETIME. Its values travel as DBDATETIME, not as text for
		 * the client library to parse in a format of its choosing. */
		b->datetime[k] = type == 61;
		SQLFreeStmt(o->q, SQL_CLOSE);
		SQLFreeStmt(o->q, SQL_UNBIND);
		if (ord[k] <= 0 || strlen(cols[k]) >= sizeof(b->cols[k])) {
			snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "HY000");
			snprintf(c->err.msg, sizeof(c->err.msg), "bulk copy: %s has no column %s", table, cols[k]);
			c->err.native = 0;
			c->err.cls = DB_ERR_FATAL;
			return -1;
		}
		snprintf(b->cols[k], sizeof(b->cols[k]), "%s", cols[k]);
	}
	snprintf(b->table, sizeof(b->table), "%s", table);
	b->ncols = ncols;
	/* The lookups opened an implicit transaction (autocommit is off): end
	 * it, so no lock on the catalogue is held across the bulk copy (R6). */
	if (!cached && !ok(SQLEndTran(SQL_HANDLE_DBC, o->dbc, SQL_COMMIT)))
		return bcp_fail(c, "SQLEndTran(COMMIT) before bcp_init");
	return 0;
}

/* A bcp_bind per column, after bcp_init: the wire type of each value (a
 * DATETIME column's as DBDATETIME), its data pointed at per row later. 0, or
 * -1 with c->err set. */
static int bcp_bind_columns(struct db_conn *c, struct bcp_api *b, const enum db_type *types, unsigned ncols,
			    unsigned char *dummy)
{
	for (unsigned k = 0; k < ncols; k++) {
		int type = BCP_SQLCHARACTER;
		int32_t len = BCP_VARLEN_DATA;
		switch (types[k]) {
		case DB_TYPE_INT32:
			type = BCP_SQLINT4, len = 4;
			break;
		case DB_TYPE_INT64:
			type = BCP_SQLINT8, len = 8;
			break;
		case DB_TYPE_DOUBLE:
			type = BCP_SQLFLT8, len = 8;
			break;
		case DB_TYPE_STRING:
		case DB_TYPE_TIMESTAMP:
			if (b->datetime[k])
				type = BCP_SQLDATETIME, len = 8;
			break;
		}
		if (!bcp_ok(b->bind(b->hdbc, dummy, 0, len, NULL, 0, type, b->ord[k])))
			return bcp_fail(c, "bcp_bind");
	}
	return 0;
}

/* Where value v of column k is (*data, *len bytes) as bcp_colptr takes it:
 * an INT32 widened into *i4, a DATETIME column's text as DBDATETIME in dt.
 * 0, or -1 with c->err set (text that is not a date and time). */
static int bcp_value(struct db_conn *c, const struct bcp_api *b, const char *table, const char *col, unsigned k,
		     enum db_type type, const struct db_value *v, int32_t *i4, unsigned char dt[8],
		     const unsigned char *dummy, const void **data, int32_t *len)
{
	*data = dummy;
	*len = 0;
	switch (type) {
	case DB_TYPE_INT32:
		*i4 = (int32_t)v->i;
		*data = i4, *len = 4;
		break;
	case DB_TYPE_INT64:
		*data = &v->i, *len = 8;
		break;
	case DB_TYPE_DOUBLE:
		*data = &v->d, *len = 8;
		break;
	case DB_TYPE_STRING:
	case DB_TYPE_TIMESTAMP:
		if (b->datetime[k] && !v->is_null) {
			int32_t days;
			uint32_t ticks;
			if (odbc_bcp_datetime(v->s, v->len, &days, &ticks) < 0) {
				snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "22007");
				snprintf(c->err.msg, sizeof(c->err.msg),
					 "bulk copy: %s.%s: \"%.*s\" is not a date and time (expected YYYY-MM-DD hh:mm:ss)",
					 table, col, (int)(v->len > 40 ? 40 : v->len), v->s);
				c->err.native = 0;
				c->err.cls = DB_ERR_FATAL;
				return -1;
			}
			memcpy(dt, &days, 4);
			memcpy(dt + 4, &ticks, 4);
			*data = dt, *len = 8;
			break;
		}
		*data = v->len ? (const void *)v->s : (const void *)dummy, *len = (int32_t)v->len;
		break;
	}
	return 0;
}

/* One row: each value pointed at with bcp_colptr / bcp_collen, then
 * bcp_sendrow (the widened and converted values live here until it has
 * read them). 0, or -1 with c->err set (the bulk operation ended with
 * bcp_done when the row's text or bcp_sendrow failed). */
static int bcp_send_row(struct db_conn *c, struct bcp_api *b, const char *table, const char *const *cols,
			const enum db_type *types, unsigned ncols, const struct db_value *row,
			const unsigned char *dummy)
{
	int32_t i4[64];
	unsigned char dt[64][8];

	for (unsigned k = 0; k < ncols; k++) {
		const struct db_value *v = &row[k];
		const void *data;
		int32_t len;
		if (bcp_value(c, b, table, cols[k], k, types[k], v, &i4[k], dt[k], dummy, &data, &len) < 0) {
			b->done(b->hdbc);
			return -1;
		}
		if (!bcp_ok(b->colptr(b->hdbc, data, b->ord[k])) ||
		    !bcp_ok(b->collen(b->hdbc, v->is_null ? BCP_NULL_DATA : len, b->ord[k])))
			return bcp_fail(c, "bcp_colptr");
	}
	if (!bcp_ok(b->sendrow(b->hdbc))) {
		bcp_fail(c, "bcp_sendrow");
		b->done(b->hdbc);
		return -1;
	}
	return 0;
}

/* One bulk operation: bcp_init, a column binding per value (the server's
 * column ordinal from sys.columns), each row's values pointed at with
 * bcp_colptr / bcp_collen, bcp_sendrow, bcp_done (which commits the rows
 * and says how many the server took). */
int od_copy_rows(struct db_conn *c, const char *table, const char *const *cols, const enum db_type *types,
		 unsigned ncols, const struct db_value *rows, unsigned nrows, struct db_exec_result *r)
{
	struct od_conn *o = c->priv;
	struct bcp_api *b = o->bcp;
	unsigned char dummy[8] = {0};
	int32_t done;

	r->kind = DB_QUERY_OTHER;
	r->rows = 0;
	if (!b || ncols > 64 || strlen(table) >= sizeof(b->table))
		return -ENOTSUP;
	if (bcp_columns(c, b, table, cols, ncols) < 0)
		return -1;
	if (!bcp_ok(b->init(b->hdbc, table, NULL, NULL, BCP_DB_IN)))
		return bcp_fail(c, "bcp_init");
	if (bcp_bind_columns(c, b, types, ncols, dummy) < 0)
		return -1;
	for (unsigned i = 0; i < nrows; i++)
		if (bcp_send_row(c, b, table, cols, types, ncols, &rows[(size_t)i * ncols], dummy) < 0)
			return -1;
	done = b->done(b->hdbc);
	if (done < 0)
		return bcp_fail(c, "bcp_done");
	r->rows = (uint64_t)done;
	r->kind = done ? DB_QUERY_WRITE : DB_QUERY_OTHER;
	return 0;
}
