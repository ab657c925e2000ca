/*
 * What a prepared TPC-C database answers: tpcc_meta (the C-load constants and
 * the scale, for run), the row counts and consistency conditions 1-4 of
 * clause 3.3.2 (check; its "rows:" line is the golden fingerprint a campaign
 * compares after every restore), and dropping the tables (cleanup).
 */
#include "workload/tpcc/tpcc.h"

#include "core/log.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <string.h>

static int prep1(struct db_conn *c, const struct tpcc_sql *sql, enum tpcc_stmt k, struct db_stmt **st)
{
	const struct tpcc_stmt_def *d = tpcc_stmt_def(k);

	if (c->ops->prepare(c, sql->stmt[k], d->params, d->nparams, d->cols, d->ncols, st) < 0) {
		tpcc_db_fail(c, d->name);
		return -1;
	}
	return 0;
}

int tpcc_read_meta(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		   struct tpcc_c *cl, unsigned *warehouses)
{
	struct db_conn c = {.ops = drv};
	struct db_stmt *st;
	struct db_exec_result r;
	struct db_value v[2];
	unsigned seen = 0;
	int ret = -1;

	if (drv->connect(&c, cp) < 0) {
		tpcc_db_fail(&c, "connect");
		goto out;
	}
	if (prep1(&c, sql, TS_META_GET, &st) < 0)
		goto out;
	if (drv->execute(&c, st, NULL, &r) < 0) {
		tpcc_db_fail(&c, "reading tpcc_meta (is the database prepared?)");
		goto out;
	}
	while (drv->fetch(&c, st, v) == 1) {
		char name[40];
		snprintf(name, sizeof(name), "%.*s", (int)v[0].len, v[0].s);
		if (!strcmp(name, "c_load_c_last"))
			cl->c_last = (unsigned)v[1].i, seen |= 1;
		else if (!strcmp(name, "c_load_c_id"))
			cl->c_id = (unsigned)v[1].i, seen |= 2;
		else if (!strcmp(name, "c_load_ol_i_id"))
			cl->ol_i_id = (unsigned)v[1].i, seen |= 4;
		else if (!strcmp(name, "warehouses"))
			*warehouses = (unsigned)v[1].i, seen |= 8;
	}
	drv->commit(&c);
	if (seen != 15) {
		log_error("tpcc_meta is incomplete: the load did not finish (run dbrig tpcc cleanup, then prepare)");
		goto out;
	}
	ret = 0;
out:
	drv->disconnect(&c);
	return ret;
}

static int count1(struct db_conn *c, const struct tpcc_sql *sql, enum tpcc_stmt k, int64_t *out, unsigned n)
{
	struct db_stmt *st;
	struct db_exec_result r;
	struct db_value v[8];

	if (prep1(c, sql, k, &st) < 0)
		return -1;
	if (c->ops->execute(c, st, NULL, &r) < 0) {
		tpcc_db_fail(c, tpcc_stmt_def(k)->name);
		return -1;
	}
	if (c->ops->fetch(c, st, v) != 1)
		return -1;
	for (unsigned i = 0; i < n; i++)
		out[i] = v[i].i;
	while (c->ops->fetch(c, st, v) == 1)
		;
	return 0;
}

int tpcc_check(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
	       struct strbuf *fp)
{
	static const struct {
		enum tpcc_stmt k;
		const char *what;
	} conds[] = {
		{TS_CHK_1, "condition 1 (3.3.2.1): W_YTD = sum(D_YTD)"},
		{TS_CHK_2_ORDERS, "condition 2 (3.3.2.2): D_NEXT_O_ID - 1 = max(O_ID)"},
		{TS_CHK_2_NEW_ORDER, "condition 2 (3.3.2.2): D_NEXT_O_ID - 1 = max(NO_O_ID)"},
		{TS_CHK_3, "condition 3 (3.3.2.3): max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW-ORDER"},
		{TS_CHK_4, "condition 4 (3.3.2.4): sum(O_OL_CNT) = rows in ORDER-LINE"},
	};
	struct db_conn c = {.ops = drv};
	int64_t rows[7];
	int ret = -1, failed = 0;

	if (drv->connect(&c, cp) < 0) {
		tpcc_db_fail(&c, "connect");
		goto out;
	}
	if (count1(&c, sql, TS_CHK_ROWS, rows, 7) < 0)
		goto out;
	strbuf_addf(fp, "rows: warehouse %lld, district %lld, customer %lld, orders %lld, new_order %lld, item %lld, "
		    "stock %lld", (long long)rows[0], (long long)rows[1], (long long)rows[2], (long long)rows[3],
		    (long long)rows[4], (long long)rows[5], (long long)rows[6]);
	printf("%s\n", fp->buf);
	for (size_t i = 0; i < sizeof(conds) / sizeof(conds[0]); i++) {
		int64_t bad;
		if (count1(&c, sql, conds[i].k, &bad, 1) < 0)
			goto out;
		if (bad) {
			printf("FAILED %s: %lld %s violate it\n", conds[i].what, (long long)bad,
			       conds[i].k == TS_CHK_1 ? "warehouses" : "districts");
			log_error("consistency check failed: %s", conds[i].what);
			failed = 1;
		} else {
			printf("ok     %s\n", conds[i].what);
		}
	}
	drv->commit(&c);
	ret = failed;
out:
	drv->disconnect(&c);
	return ret;
}

int tpcc_cleanup(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp)
{
	struct db_conn c = {.ops = drv};
	int ret = -1;

	if (drv->connect(&c, cp) < 0) {
		tpcc_db_fail(&c, "connect");
		goto out;
	}
	for (unsigned i = 0; i < sql->ndrop; i++)
		if (tpcc_exec_text(&c, sql->drop[i]) < 0)
			goto out;
	if (drv->commit(&c) < 0) {
		tpcc_db_fail(&c, "COMMIT");
		goto out;
	}
	ret = 0;
out:
	drv->disconnect(&c);
	return ret;
}
