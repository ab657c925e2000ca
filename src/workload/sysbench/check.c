/*
 * `dbrig sysbench check`: the fingerprint of a prepared sbtest database, the
 * text a campaign compares after every restore (the golden copy's):
 *   tables=N rows=<all tables> sbtest1.rows=<n> checksum=<C>
 * C folds CHECKSUM TABLE … EXTENDED of every table, in table order. A run
 * changes rows (updates, deletes, inserts) in any table, and oltp_read_write
 * keeps every row count, so a restore that did not bring the golden bytes
 * back shows in the checksums (sbtest1's alone missed sbtest2..N).
 */
#include "workload/sysbench/sysbench.h"

#include "core/log.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <string.h>

static int one_row(struct db_conn *c, const char *sql, const enum db_type *cols, unsigned ncols, struct db_value *v)
{
	struct db_stmt *st = NULL;
	struct db_exec_result r;
	int got;

	if (c->ops->prepare(c, sql, NULL, 0, cols, ncols, &st) < 0 || c->ops->execute(c, st, NULL, &r) < 0) {
		log_error("%s failed: error %d (%s): %s", sql, c->err.native, c->err.sqlstate, c->err.msg);
		return -1;
	}
	got = c->ops->fetch(c, st, v);
	if (got != 1) {
		if (got < 0)
			log_error("%s failed: error %d (%s): %s", sql, c->err.native, c->err.sqlstate, c->err.msg);
		else
			log_error("%s returned no row", sql);
		return -1;
	}
	while (c->ops->fetch(c, st, v + ncols) == 1)
		;
	return 0;
}

int sb_check(const struct sb_opts *o, const struct db_driver_ops *drv, const struct db_conn_params *cp,
	     struct strbuf *fp)
{
	static const enum db_type count[] = {DB_TYPE_INT64};
	static const enum db_type sum[] = {DB_TYPE_STRING, DB_TYPE_INT64};
	struct db_conn c = {.ops = drv};
	struct db_value v[4];
	unsigned long long rows = 0, r1 = 0, folded = 0;
	char sql[96];
	int ret = -1;

	if (drv->connect(&c, cp) < 0) {
		log_error("connect failed: error %d (%s): %s", c.err.native, c.err.sqlstate, c.err.msg);
		goto out;
	}
	for (unsigned t = 1; t <= o->tables; t++) {
		snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM sbtest%u", t);
		if (one_row(&c, sql, count, 1, v) < 0)
			goto out;
		rows += (unsigned long long)v[0].i;
		if (t == 1)
			r1 = (unsigned long long)v[0].i;
	}
	for (unsigned t = 1; t <= o->tables; t++) {
		snprintf(sql, sizeof(sql), "CHECKSUM TABLE sbtest%u EXTENDED", t);
		if (one_row(&c, sql, sum, 2, v) < 0)
			goto out;
		if (v[1].is_null) {
			log_error("%s: no checksum (is the database prepared?)", sql);
			goto out;
		}
		folded = folded * 1000003ULL + (unsigned long long)v[1].i;
	}
	strbuf_addf(fp, "tables=%u rows=%llu sbtest1.rows=%llu checksum=%llu", o->tables, rows, r1, folded);
	ret = 0;
out:
	drv->disconnect(&c);
	return ret;
}
