/*
 * What a prepared TPC-C database answers: tpcc_meta (the C-load constants and
 * the scale, for run), the row counts and the consistency conditions (check;
 * its "rows:" line is the golden fingerprint a campaign compares after every
 * restore), and dropping the tables (cleanup).
 *
 * The consistency conditions of TPC-C clause 3.3.2, all twelve, each one
 * query that aggregates every row of the tables it names (nothing is
 * sampled) and returns how many rows break it and how many it looked at.
 *
 * Condition 2's NEW-ORDER half does not apply to a district without new
 * orders (the spec says so); such districts are still checked against
 * max(O_ID), and counted. Condition 11 holds only until the first Delivery:
 * the load leaves every order after 2100 undelivered and Delivery takes the
 * oldest new order first, so it applies while no order after 2100 has a
 * carrier.
 */
#include "workload/tpcc/tpcc.h"

#include "core/log.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <string.h>

static const char *const table_names[TPCC_TABLES] = {
	[TB_WAREHOUSE] = "warehouse", [TB_DISTRICT] = "district", [TB_CUSTOMER] = "customer",
	[TB_ORDERS] = "orders",       [TB_NEW_ORDER] = "new_order", [TB_ITEM] = "item",
	[TB_STOCK] = "stock",         [TB_HISTORY] = "history",     [TB_ORDER_LINE] = "order_line",
	[TB_META] = "tpcc_meta",
};

const char *tpcc_table_name(enum tpcc_table t)
{
	return table_names[t];
}

static const struct {
	const char *text, *unit;
} conds[TPCC_CONDITIONS] = {
	{"W_YTD = sum(D_YTD)", "warehouses"},
	{"D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)", "districts"},
	{"max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW-ORDER", "districts with new orders"},
	{"sum(O_OL_CNT) = rows in ORDER-LINE", "districts"},
	{"O_CARRIER_ID is null if and only if the order has a NEW-ORDER row", "orders"},
	{"O_OL_CNT = the order's rows in ORDER-LINE", "orders"},
	{"OL_DELIVERY_D is null if and only if the order's O_CARRIER_ID is null", "order lines"},
	{"W_YTD = sum(H_AMOUNT) of the warehouse", "warehouses"},
	{"D_YTD = sum(H_AMOUNT) of the district", "districts"},
	{"C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT) of the customer", "customers"},
	{"rows in ORDER - rows in NEW-ORDER = 2100 per district", "districts"},
	{"C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT) of the customer", "customers"},
};

const char *tpcc_cond_text(unsigned n)
{
	return n >= 1 && n <= TPCC_CONDITIONS ? conds[n - 1].text : "?";
}

const char *tpcc_cond_unit(unsigned n)
{
	return n >= 1 && n <= TPCC_CONDITIONS ? conds[n - 1].unit : "rows";
}

int tpcc_prepare_stmt(struct db_conn *c, const struct tpcc_sql *sql, enum tpcc_stmt k, struct db_stmt **st)
{
	const struct tpcc_stmt_def *d = tpcc_stmt_def(k);

	if (c->ops->prepare(c, sql->stmt[k], d->params, d->nparams, d->cols, d->ncols, st) < 0) {
		tpcc_db_fail(c, d->name);
		return -1;
	}
	return 0;
}

int tpcc_select_ints(struct db_conn *c, const struct tpcc_sql *sql, enum tpcc_stmt k, int64_t *out, unsigned n)
{
	struct db_stmt *st;
	struct db_exec_result r;
	struct db_value v[16];

	if (tpcc_prepare_stmt(c, sql, k, &st) < 0)
		return -1;
	if (c->ops->execute(c, st, NULL, &r) < 0) {
		tpcc_db_fail(c, tpcc_stmt_def(k)->name);
		return -1;
	}
	if (c->ops->fetch(c, st, v) != 1) {
		log_error("%s returned no row", tpcc_stmt_def(k)->name);
		return -1;
	}
	for (unsigned i = 0; i < n; i++)
		out[i] = v[i].is_null ? 0 : v[i].i;
	while (c->ops->fetch(c, st, v) == 1)
		;
	return 0;
}

int tpcc_check_run(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		   struct tpcc_check_report *rep)
{
	struct db_conn c = {.ops = drv};
	int ret = -1;

	memset(rep, 0, sizeof(*rep));
	if (drv->connect(&c, cp) < 0) {
		tpcc_db_fail(&c, "connect");
		goto out;
	}
	if (tpcc_select_ints(&c, sql, TS_CHK_ROWS, rep->rows, TPCC_TABLES) < 0 ||
	    tpcc_select_ints(&c, sql, TS_CHK_DELIVERED, &rep->delivered_after_load, 1) < 0)
		goto out;
	/* Which query answers condition n, and in which columns (bad, checked). */
	static const struct {
		enum tpcc_stmt k;
		unsigned ncols, bad, checked;
	} q[TPCC_CONDITIONS] = {
		{TS_CHK_1, 2, 0, 1},  {TS_CHK_2, 3, 0, 1},     {TS_CHK_3, 2, 0, 1},     {TS_CHK_4, 2, 0, 1},
		{TS_CHK_5_7, 5, 0, 2}, {TS_CHK_5_7, 5, 1, 2},  {TS_CHK_5_7, 5, 3, 4},  {TS_CHK_8, 2, 0, 1},
		{TS_CHK_9, 2, 0, 1},  {TS_CHK_10_12, 3, 0, 2}, {TS_CHK_11, 2, 0, 1},   {TS_CHK_10_12, 3, 1, 2},
	};
	int64_t v[5] = {0};
	enum tpcc_stmt last = TS_COUNT;
	for (unsigned n = 1; n <= TPCC_CONDITIONS; n++) {
		struct tpcc_cond *k = &rep->cond[n - 1];
		k->applies = n != 11 || rep->delivered_after_load == 0;
		if (!k->applies)
			continue;
		if (q[n - 1].k != last) {
			if (tpcc_select_ints(&c, sql, q[n - 1].k, v, q[n - 1].ncols) < 0)
				goto out;
			last = q[n - 1].k;
		}
		k->bad = v[q[n - 1].bad];
		k->checked = v[q[n - 1].checked];
		if (n == 2)
			rep->districts_without_new_orders = v[2];
		if (k->bad)
			rep->failed++;
	}
	drv->commit(&c);
	ret = 0;
out:
	drv->disconnect(&c);
	return ret;
}

void tpcc_check_rows(const struct tpcc_check_report *rep, struct strbuf *sb)
{
	strbuf_adds(sb, "rows:");
	for (unsigned t = 0; t < TB_META; t++)
		strbuf_addf(sb, "%s %s %lld", t ? "," : "", table_names[t], (long long)rep->rows[t]);
}

void tpcc_check_print(FILE *f, const struct tpcc_check_report *rep)
{
	struct strbuf sb;

	strbuf_init(&sb, 256);
	tpcc_check_rows(rep, &sb);
	fprintf(f, "%s\n", sb.buf);
	strbuf_release(&sb);
	for (unsigned n = 1; n <= TPCC_CONDITIONS; n++) {
		const struct tpcc_cond *k = &rep->cond[n - 1];
		if (!k->applies) {
			fprintf(f, "n/a    condition %u (3.3.2.%u): %s: holds only before the first Delivery "
				   "(%lld orders after 2100 delivered)\n",
				n, n, conds[n - 1].text, (long long)rep->delivered_after_load);
			continue;
		}
		fprintf(f, "%-6s condition %u (3.3.2.%u): %s: %lld of %lld %s break it", k->bad ? "FAILED" : "ok", n, n,
			conds[n - 1].text, (long long)k->bad, (long long)k->checked, conds[n - 1].unit);
		if (n == 2 && rep->districts_without_new_orders)
			fprintf(f, " (%lld without new orders: the NEW-ORDER half does not apply to them)",
				(long long)rep->districts_without_new_orders);
		fprintf(f, "\n");
	}
}

int tpcc_check(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
	       struct strbuf *fp)
{
	struct tpcc_check_report rep;
	struct strbuf sb;

	if (tpcc_check_run(sql, drv, cp, &rep) < 0)
		return -1;
	tpcc_check_print(stdout, &rep);
	fflush(stdout);
	if (!rep.failed) {
		if (fp)
			tpcc_check_rows(&rep, fp);
		return 0;
	}
	strbuf_init(&sb, 128);
	for (unsigned n = 1; n <= TPCC_CONDITIONS; n++)
		if (rep.cond[n - 1].applies && rep.cond[n - 1].bad)
			strbuf_addf(&sb, "%scondition %u (%lld %s)", sb.len ? ", " : "", n, (long long)rep.cond[n - 1].bad,
				    conds[n - 1].unit);
	log_error("consistency check failed: %s", sb.buf);
	strbuf_release(&sb);
	return 1;
}

int tpcc_read_meta(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		   struct tpcc_c *cl, unsigned *warehouses, uint64_t *pad_to)
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
	if (tpcc_prepare_stmt(&c, sql, TS_META_GET, &st) < 0)
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
		else if (!strcmp(name, "pad_to"))
			*pad_to = (uint64_t)v[1].i;
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

/* tpcc_meta's c_run_* rows into *run: 1 all three found, 0 none or some, -1 failed. */
static int read_c_run(struct db_conn *c, const struct tpcc_sql *sql, struct tpcc_c *run)
{
	const struct db_driver_ops *drv = c->ops;
	struct db_stmt *st;
	struct db_exec_result r;
	struct db_value v[2];
	unsigned seen = 0;

	if (tpcc_prepare_stmt(c, sql, TS_META_GET, &st) < 0)
		return -1;
	if (drv->execute(c, st, NULL, &r) < 0) {
		tpcc_db_fail(c, "reading tpcc_meta");
		return -1;
	}
	while (drv->fetch(c, st, v) == 1) {
		char name[40];
		snprintf(name, sizeof(name), "%.*s", (int)v[0].len, v[0].s);
		if (!strcmp(name, "c_run_c_last"))
			run->c_last = (unsigned)v[1].i, seen |= 1;
		else if (!strcmp(name, "c_run_c_id"))
			run->c_id = (unsigned)v[1].i, seen |= 2;
		else if (!strcmp(name, "c_run_ol_i_id"))
			run->ol_i_id = (unsigned)v[1].i, seen |= 4;
	}
	return seen == 7;
}

int tpcc_share_c_run(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		     const struct tpcc_c *c_load, const struct tpcc_c *drawn, struct tpcc_c *run)
{
	static const char *const names[] = {"c_run_c_last", "c_run_c_id", "c_run_ol_i_id"};
	unsigned vals[] = {drawn->c_last, drawn->c_id, drawn->ol_i_id};
	struct db_conn c = {.ops = drv};
	struct db_stmt *ins;
	struct db_exec_result r;
	const char *how = "read from tpcc_meta";
	int found, ret = -1;

	if (drv->connect(&c, cp) < 0) {
		tpcc_db_fail(&c, "connect");
		goto out;
	}
	if ((found = read_c_run(&c, sql, run)) < 0)
		goto out;
	drv->commit(&c);
	if (!found) {
		/* The first run on this database stores what it drew. Another driver
		 * process storing at the same moment wins on the primary key: read its. */
		bool stored = tpcc_prepare_stmt(&c, sql, TS_LD_META, &ins) == 0;
		for (unsigned i = 0; stored && i < 3; i++) {
			struct db_value p[2] = {{.type = DB_TYPE_STRING, .s = names[i], .len = strlen(names[i])},
						{.type = DB_TYPE_INT32, .i = vals[i]}};
			stored = drv->execute(&c, ins, p, &r) == 0;
		}
		if (stored && drv->commit(&c) == 0) {
			*run = *drawn;
			how = "drawn and stored in tpcc_meta";
		} else {
			drv->rollback(&c);
			if ((found = read_c_run(&c, sql, run)) != 1) {
				if (found == 0)
					tpcc_db_fail(&c, "storing the C-run constants in tpcc_meta");
				goto out;
			}
			drv->commit(&c);
		}
	}
	if (!tpcc_c_delta_valid(c_load->c_last, run->c_last)) {
		log_error("tpcc_meta: c_run_c_last %u is not a valid C-run for C-load %u (clause 2.1.6.1: the difference "
			  "must be 65..119, not 96 or 112); run dbrig tpcc cleanup, then prepare",
			  run->c_last, c_load->c_last);
		goto out;
	}
	printf("C-run constants %s (shared by every driver on this database): C_LAST %u, C_ID %u, OL_I_ID %u\n", how,
	       run->c_last, run->c_id, run->ol_i_id);
	fflush(stdout);
	ret = 0;
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
