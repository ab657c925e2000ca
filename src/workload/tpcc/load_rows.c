/*
 * The rows of the TPC-C load (clause 4.3.3.1; load.c hands out the units,
 * load_batch.c sends the rows): ITEM, and per warehouse (1) the warehouse,
 * its districts and its stock, (2) its customers and their history, (3) its
 * orders, order lines and new orders; and tpcc_meta's rows, the first rows
 * loaded. Every unit draws from its own random stream (the load's seed and
 * the unit's number), so the data depends on the seed, not on how units fall
 * to connections. Values go into the batch's next row, strings into its
 * arena.
 */
#include "workload/tpcc/tpcc.h"

#include "workload/tpcc/load_int.h"

#include <stdio.h>
#include <string.h>

static void vi(struct db_value *v, int64_t x)
{
	v->type = DB_TYPE_INT32;
	v->is_null = false;
	v->i = x;
}

static void vnull(struct db_value *v)
{
	v->type = DB_TYPE_INT32;
	v->is_null = true;
}

static void vnulls(struct db_value *v)
{
	v->type = DB_TYPE_STRING;
	v->is_null = true;
}

static void vd(struct db_value *v, double x)
{
	v->type = DB_TYPE_DOUBLE;
	v->is_null = false;
	v->d = x;
}

/* A string value stored in the batch's arena. */
static char *vs(struct batch *b, struct db_value *v, size_t len)
{
	char *p = b->arena + b->used;

	b->used += len;
	v->type = DB_TYPE_STRING;
	v->is_null = false;
	v->s = p;
	v->len = len;
	return p;
}

static void vstr(struct batch *b, struct db_value *v, const char *s)
{
	size_t n = strlen(s);

	memcpy(vs(b, v, n), s, n);
}

/* The load's time, as a DB_TYPE_TIMESTAMP value (its text, b->now). */
static void vtime(struct batch *b, struct db_value *v)
{
	vstr(b, v, b->now);
	v->type = DB_TYPE_TIMESTAMP;
}

/* A random a-string (clause 4.3.2.2) of length in [lo, hi] (rand.c). */
static void vastr(struct batch *b, struct db_value *v, struct rng *r, unsigned lo, unsigned hi)
{
	unsigned n = rng_uniform(r, lo, hi);

	tpcc_astring(r, vs(b, v, n), n);
}

static void vnstr(struct batch *b, struct db_value *v, struct rng *r, unsigned n)
{
	char *p = vs(b, v, n);

	for (unsigned i = 0; i < n; i++)
		p[i] = (char)('0' + rng_uniform(r, 0, 9));
}

/* I_DATA / S_DATA: 26..50 letters, 10% with "ORIGINAL" somewhere. */
static void vdata(struct batch *b, struct db_value *v, struct rng *r)
{
	vastr(b, v, r, 26, 50);
	if (rng_uniform(r, 1, 10) == 1) {
		unsigned at = rng_uniform(r, 0, (unsigned)v->len - 8);
		memcpy((char *)v->s + at, "ORIGINAL", 8);
	}
}

static void vzip(struct batch *b, struct db_value *v, struct rng *r)
{
	char *p;

	vnstr(b, v, r, 4);
	p = vs(b, v, 5);
	memcpy(p, "11111", 5);
	v->s = p - 4;
	v->len = 9;
}

static void vaddress(struct batch *b, struct db_value *v, struct rng *r)
{
	vastr(b, &v[0], r, 10, 20);
	vastr(b, &v[1], r, 10, 20);
	vastr(b, &v[2], r, 10, 20);
	vastr(b, &v[3], r, 2, 2);
	vzip(b, &v[4], r);
}

static int load_items(struct batch *b, struct rng *r)
{
	if (ld_batch_table(b, TS_LD_ITEM) < 0)
		return -1;
	for (unsigned i = 1; i <= 100000; i++) {
		struct db_value *v = ld_batch_row(b);
		vi(&v[0], i);
		vi(&v[1], rng_uniform(r, 1, 10000));
		vastr(b, &v[2], r, 14, 24);
		vd(&v[3], rng_uniform(r, 100, 10000) / 100.0);
		vdata(b, &v[4], r);
		if (ld_batch_row_done(b) < 0)
			return -1;
	}
	return 0;
}

/* Unit 1 of a warehouse: its row, its districts and its stock. */
static int load_stock(struct batch *b, struct rng *r, unsigned w)
{
	struct db_value *v;

	if (ld_batch_table(b, TS_LD_WAREHOUSE) < 0)
		return -1;
	v = ld_batch_row(b);
	vi(&v[0], w);
	vastr(b, &v[1], r, 6, 10);
	vaddress(b, &v[2], r);
	vd(&v[7], rng_uniform(r, 0, 2000) / 10000.0);
	vd(&v[8], 300000.0);
	if (ld_batch_row_done(b) < 0 || ld_batch_table(b, TS_LD_DISTRICT) < 0)
		return -1;
	for (unsigned d = 1; d <= 10; d++) {
		v = ld_batch_row(b);
		vi(&v[0], d);
		vi(&v[1], w);
		vastr(b, &v[2], r, 6, 10);
		vaddress(b, &v[3], r);
		vd(&v[8], rng_uniform(r, 0, 2000) / 10000.0);
		vd(&v[9], 30000.0);
		vi(&v[10], 3001);
		if (ld_batch_row_done(b) < 0)
			return -1;
	}
	if (ld_batch_table(b, TS_LD_STOCK) < 0)
		return -1;
	for (unsigned i = 1; i <= 100000; i++) {
		v = ld_batch_row(b);
		vi(&v[0], i);
		vi(&v[1], w);
		vi(&v[2], rng_uniform(r, 10, 100));
		for (unsigned k = 0; k < 10; k++)
			vastr(b, &v[3 + k], r, 24, 24);
		vi(&v[13], 0);
		vi(&v[14], 0);
		vi(&v[15], 0);
		vdata(b, &v[16], r);
		if (ld_batch_row_done(b) < 0)
			return -1;
	}
	return 0;
}

/* Unit 2: the warehouse's customers and their history rows. */
static int load_customers(struct loader *l, struct batch *b, struct rng *r, unsigned w)
{
	struct db_value *v;

	if (ld_batch_table(b, TS_LD_CUSTOMER) < 0)
		return -1;
	for (unsigned d = 1; d <= 10; d++) {
		for (unsigned c = 1; c <= 3000; c++) {
			char last[16];
			unsigned n = tpcc_last_name(c <= 1000 ? c - 1 : tpcc_nurand(r, 255, 0, 999, l->c_load.c_last), last);
			v = ld_batch_row(b);
			vi(&v[0], c);
			vi(&v[1], d);
			vi(&v[2], w);
			vastr(b, &v[3], r, 8, 16);
			vstr(b, &v[4], "OE");
			memcpy(vs(b, &v[5], n), last, n);
			vaddress(b, &v[6], r);
			vnstr(b, &v[11], r, 16);
			vstr(b, &v[12], rng_uniform(r, 1, 10) == 1 ? "BC" : "GC");
			vd(&v[13], 50000.0);
			vd(&v[14], rng_uniform(r, 0, 5000) / 10000.0);
			vd(&v[15], -10.0);
			vd(&v[16], 10.0);
			vi(&v[17], 1);
			vi(&v[18], 0);
			vastr(b, &v[19], r, 300, 500);
			if (ld_batch_row_done(b) < 0)
				return -1;
		}
	}
	if (ld_batch_table(b, TS_LD_HISTORY) < 0)
		return -1;
	for (unsigned d = 1; d <= 10; d++) {
		for (unsigned c = 1; c <= 3000; c++) {
			v = ld_batch_row(b);
			vi(&v[0], c);
			vi(&v[1], d);
			vi(&v[2], w);
			vi(&v[3], d);
			vi(&v[4], w);
			vd(&v[5], 10.0);
			vastr(b, &v[6], r, 12, 24);
			if (ld_batch_row_done(b) < 0)
				return -1;
		}
	}
	return 0;
}

/* Unit 3: orders with their lines and the new orders, one district at a
 * time; O_C_ID is a random permutation of the customers. */
static int load_orders(struct batch *b, struct rng *r, unsigned w)
{
	struct db_value *v;
	uint32_t perm[3000];

	for (unsigned d = 1; d <= 10; d++) {
		uint8_t ol_cnt[3000];
		for (unsigned i = 0; i < 3000; i++)
			perm[i] = i + 1;
		for (unsigned i = 2999; i > 0; i--) {
			unsigned j = rng_uniform(r, 0, i);
			uint32_t t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		if (ld_batch_table(b, TS_LD_ORDERS) < 0)
			return -1;
		for (unsigned o = 1; o <= 3000; o++) {
			v = ld_batch_row(b);
			ol_cnt[o - 1] = (uint8_t)rng_uniform(r, 5, 15);
			vi(&v[0], o);
			vi(&v[1], d);
			vi(&v[2], w);
			vi(&v[3], perm[o - 1]);
			vtime(b, &v[4]);
			if (o < 2101)
				vi(&v[5], rng_uniform(r, 1, 10));
			else
				vnull(&v[5]);
			vi(&v[6], ol_cnt[o - 1]);
			vi(&v[7], 1);
			if (ld_batch_row_done(b) < 0)
				return -1;
		}
		if (ld_batch_table(b, TS_LD_ORDER_LINE) < 0)
			return -1;
		for (unsigned o = 1; o <= 3000; o++) {
			for (unsigned n = 1; n <= ol_cnt[o - 1]; n++) {
				v = ld_batch_row(b);
				vi(&v[0], o);
				vi(&v[1], d);
				vi(&v[2], w);
				vi(&v[3], n);
				vi(&v[4], rng_uniform(r, 1, 100000));
				vi(&v[5], w);
				if (o < 2101)
					vtime(b, &v[6]);
				else
					vnulls(&v[6]);
				vi(&v[7], 5);
				vd(&v[8], o < 2101 ? 0.0 : rng_uniform(r, 1, 999999) / 100.0);
				vastr(b, &v[9], r, 24, 24);
				if (ld_batch_row_done(b) < 0)
					return -1;
			}
		}
		if (ld_batch_table(b, TS_LD_NEW_ORDER) < 0)
			return -1;
		for (unsigned o = 2101; o <= 3000; o++) {
			v = ld_batch_row(b);
			vi(&v[0], o);
			vi(&v[1], d);
			vi(&v[2], w);
			if (ld_batch_row_done(b) < 0)
				return -1;
		}
	}
	return 0;
}

/* Load unit u (0 = ITEM, then three per warehouse) from its own random
 * stream, and commit. */
int ld_unit(struct loader *l, struct batch *b, unsigned u)
{
	struct rng r;
	unsigned w = u ? (u - 1) / 3 + 1 : 0;
	int rc;

	rng_seed(&r, l->seed ^ (0x9E3779B97F4A7C15ULL * (u + 1)));
	if (u == 0)
		rc = load_items(b, &r);
	else if ((u - 1) % 3 == 0)
		rc = load_stock(b, &r, w);
	else if ((u - 1) % 3 == 1)
		rc = load_customers(l, b, &r, w);
	else
		rc = load_orders(b, &r, w);
	if (rc < 0 || ld_batch_flush(b) < 0)
		return -1;
	if (b->c->ops->commit(b->c) < 0) {
		tpcc_db_fail(b->c, "COMMIT");
		return -1;
	}
	b->since_commit = 0;
	return 0;
}

/* tpcc_meta's rows, the first rows loaded: a server that refuses LOAD DATA
 * LOCAL says so here, and the load switches to multi-row INSERTs. */
int ld_store_meta(struct loader *l, struct db_conn *c)
{
	static const char *const names[] = {"c_load_c_last", "c_load_c_id", "c_load_ol_i_id", "warehouses", "pad_to"};
	uint64_t vals[] = {l->c_load.c_last, l->c_load.c_id, l->c_load.ol_i_id, l->warehouses, l->pad_to};
	struct batch b;
	int ret = -1, rc;

again:
	ld_batch_init(&b, c, l, l->rows);
	b.probe = true;
	if (ld_batch_table(&b, TS_LD_META) < 0)
		goto out;
	/* pad_to only with --pad-to: a database without padding keeps its four rows. */
	for (unsigned i = 0; i < (l->pad_to ? 5u : 4u); i++) {
		struct db_value *v = ld_batch_row(&b);
		vstr(&b, &v[0], names[i]);
		vi(&v[1], (int64_t)vals[i]);
		if (ld_batch_row_done(&b) < 0)
			goto out;
	}
	rc = ld_batch_flush(&b);
	if (rc == -2) {
		printf("The server refuses LOAD DATA LOCAL INFILE (error %d): loading with multi-row INSERTs\n",
		       c->err.native);
		fflush(stdout);
		l->mode = BM_INSERT;
		ld_batch_release(&b);
		goto again;
	}
	if (rc < 0)
		goto out;
	if (c->ops->commit(c) < 0) {
		tpcc_db_fail(c, "COMMIT");
		goto out;
	}
	ret = 0;
out:
	ld_batch_release(&b);
	return ret;
}
