/*
 * Unit tests of workload/tpcc/txn.c and txn_session.c against a scripted
 * in-memory driver (no server): a retried transaction sends the same inputs
 * again, New-Order's lines lock stock in item order and keep their entered
 * OL_NUMBER, and the procedure mode packs New-Order's lines into one call and
 * checks the procedure's rollback against the client's; a by-name lookup
 * takes the customer at ceil(n/2) however many share the name; a Delivery
 * that fails at any of its statements starts over and logs only what
 * committed; remote warehouses are uniform over the others.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#include "core/fileio.h"
#include "db/db.h"
#include "workload/tpcc/tpcc.h"

/* The fake driver: every statement returns one row of harmless values (the
 * item lookup of the unused item 100001 returns none), and every executed
 * step is logged with its parameters. */
struct fake_stmt {
	unsigned k;
	const enum db_type *cols;
	unsigned ncols, nparams;
	int left;
	int64_t rolled_back; /* what the New-Order procedure answers */
	int64_t oid;         /* what Delivery's oldest-new-order lookup answers */
};

#define LOG_MAX 256
static struct {
	unsigned k[LOG_MAX];
	char params[LOG_MAX][512];
	unsigned n;
} steplog;

static const struct tpcc_sql *cur_sql;
static int64_t proc_rolled_back;
static int by_name_rows; /* > 0: the by-name lookup returns c_id 1..by_name_rows */
/* Order-Status: the rows of the order's lines (os_lines, pr_ostat) and the
 * line_count the procedure's rows carry. */
static int ostat_rows = 7, ostat_count = 7;
/* Text statements the transactions sent (the isolation steps). */
static char text_log[8][96];
static unsigned ntext;
/* Delivery: with dl_skip_district > 0, that district has no new order and the
 * others answer a new o_id at every lookup (2001, 2002, ...), so each
 * attempt's orders differ; otherwise every lookup answers order 1. */
static int64_t dl_skip_district;
static int64_t dl_serial;

static unsigned stmt_index(const char *sql)
{
	for (unsigned k = 0; k < TS_COUNT; k++)
		if (cur_sql->stmt[k] && !strcmp(cur_sql->stmt[k], sql))
			return k;
	return TS_COUNT;
}

static int f_connect(struct db_conn *c, const struct db_conn_params *p)
{
	(void)p;
	c->priv = c;
	return 0;
}

/* The statements f_prepare made: a connection's disconnect frees them (db.h). */
static void *fake_stmts[64];
static unsigned nfake_stmts;

static void f_disconnect(struct db_conn *c)
{
	for (unsigned i = 0; i < nfake_stmts; i++)
		free(fake_stmts[i]);
	nfake_stmts = 0;
	c->priv = NULL;
}

static const char *f_version(struct db_conn *c)
{
	(void)c;
	return "fake";
}

static int f_query(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r)
{
	(void)c, (void)sql, (void)len;
	if (r)
		*r = (struct db_exec_result){DB_QUERY_OTHER, 0};
	return 0;
}

static int f_prepare(struct db_conn *c, const char *sql, const enum db_type *params, unsigned nparams,
		     const enum db_type *cols, unsigned ncols, struct db_stmt **out)
{
	struct fake_stmt *s = calloc(1, sizeof(*s));

	(void)c, (void)params;
	assert_true(nfake_stmts < sizeof(fake_stmts) / sizeof(fake_stmts[0]));
	fake_stmts[nfake_stmts++] = s;
	s->k = stmt_index(sql);
	s->cols = cols;
	s->ncols = ncols;
	s->nparams = nparams;
	*out = (struct db_stmt *)s;
	return 0;
}

static int f_execute(struct db_conn *c, struct db_stmt *st, const struct db_value *p, struct db_exec_result *r)
{
	struct fake_stmt *s = (struct fake_stmt *)st;
	char *out = steplog.params[steplog.n % LOG_MAX];
	size_t used = 0;

	(void)c;
	for (unsigned i = 0; i < s->nparams && used < 480; i++) {
		if (p[i].type == DB_TYPE_STRING)
			used += (size_t)snprintf(out + used, 512 - used, "%.*s|", (int)p[i].len, p[i].s);
		else if (p[i].type == DB_TYPE_DOUBLE)
			used += (size_t)snprintf(out + used, 512 - used, "%.2f|", p[i].d);
		else
			used += (size_t)snprintf(out + used, 512 - used, "%lld|", (long long)p[i].i);
	}
	steplog.k[steplog.n % LOG_MAX] = s->k;
	steplog.n++;
	s->left = s->ncols ? 1 : 0;
	if (s->k == TS_NO_ITEM && p[0].i == 100001)
		s->left = 0;
	if (s->k == TS_CUST_BY_NAME && by_name_rows > 0)
		s->left = by_name_rows;
	if (s->k == TS_OS_LINES || s->k == TS_PR_OSTAT)
		s->left = ostat_rows;
	s->rolled_back = proc_rolled_back;
	if (s->k == TS_DL_OLDEST_NEW_ORDER) {
		s->left = p[1].i == dl_skip_district ? 0 : 1;
		s->oid = dl_skip_district ? 2000 + ++dl_serial : 1;
	}
	*r = (struct db_exec_result){s->ncols ? DB_QUERY_READ : DB_QUERY_WRITE, 1};
	return 0;
}

static int f_fetch(struct db_conn *c, struct db_stmt *st, struct db_value *cols)
{
	struct fake_stmt *s = (struct fake_stmt *)st;

	(void)c;
	if (s->left <= 0)
		return 0;
	s->left--;
	for (unsigned i = 0; i < s->ncols; i++) {
		cols[i] = (struct db_value){.type = s->cols[i], .i = 1, .d = 1.0, .s = "GC", .len = 2};
		if (s->k == TS_PR_NEWORD && i == 1)
			cols[i].i = s->rolled_back;
		if (s->k == TS_PR_DELIVERY) {
			cols[i].i = i == 0 ? 10 : 0; /* 10 delivered, 0 skipped */
			if (i == 2) /* the ten order ids, as the procedures return them */
				cols[i].s = "2101 2102 2103 2104 2105 2106 2107 2108 2109 2110 ", cols[i].len = 50;
		}
		if (s->k == TS_CUST_BY_NAME && by_name_rows > 0 && i == 0)
			cols[i].i = by_name_rows - s->left; /* 1, 2, ... in c_first order */
		if (s->k == TS_DL_OLDEST_NEW_ORDER && i == 0)
			cols[i].i = s->oid;
		if (s->k == TS_PR_OSTAT && i == 2)
			cols[i].i = ostat_count;
	}
	return 1;
}

static int f_end(struct db_conn *c)
{
	(void)c;
	return 0;
}

static const struct db_driver_ops fake_ops = {
	.name = "fake",
	.connect = f_connect,
	.disconnect = f_disconnect,
	.server_version = f_version,
	.query = f_query,
	.prepare = f_prepare,
	.execute = f_execute,
	.fetch = f_fetch,
	.begin = f_end,
	.commit = f_end,
	.rollback = f_end,
};

struct harness {
	struct tpcc_sql *sql;
	struct tpcc_ctx x;
	struct db_conn c;
	void *sess;
	unsigned char term[256];
	struct rng r;
};

static void harness_open(struct harness *h, enum tpcc_mode mode)
{
	char err[256];

	memset(h, 0, sizeof(*h));
	assert_int_equal(tpcc_sql_load(TPCC_MYSQL, &h->sql, err, sizeof(err)), 0);
	cur_sql = h->sql;
	h->x.sql = h->sql;
	h->x.mode = mode;
	h->x.warehouses = 4;
	h->x.weights[0] = h->x.weights[1] = 10;
	h->x.weights[2] = h->x.weights[3] = h->x.weights[4] = 1;
	h->c.ops = &fake_ops;
	h->c.priv = &h->c;
	assert_true(tpcc_workload_ops.term_size <= sizeof(h->term));
	tpcc_workload_ops.term_init(&h->x, 0, h->term);
	assert_int_equal(tpcc_workload_ops.session_open(&h->x, &h->c, 0, &h->sess), 0);
	rng_seed(&h->r, 12345);
	steplog.n = 0;
}

static void harness_close(struct harness *h)
{
	tpcc_workload_ops.session_close(h->sess);
	fake_ops.disconnect(&h->c);
	tpcc_sql_free(h->sql);
}

/* Run one transaction of `type` to its end; returns the WL_ value. With
 * fail_at > 0, the fail_at-th step fails as a retryable error first: the
 * transaction is restarted and run to its end. */
static int run_txn(struct harness *h, unsigned type, unsigned fail_at)
{
	const struct wl_step *step;
	struct db_exec_result res, *last = NULL;
	unsigned steps = 0;
	int rc;

	tpcc_workload_ops.bind_term(h->sess, h->term, type);
	for (;;) {
		rc = tpcc_workload_ops.next(h->sess, &h->r, last, &step);
		if (rc != WL_STEP)
			return rc;
		if (++steps == fail_at) {
			tpcc_workload_ops.restart(h->sess); /* the runner rolls back and retries */
			tpcc_workload_ops.bind_term(h->sess, h->term, type);
			last = NULL;
			continue;
		}
		if (step->kind == WL_STEP_SQL && !step->stmt) { /* a text statement: logged as such */
			snprintf(text_log[ntext++ % 8], sizeof(text_log[0]), "%.*s", (int)step->sql_len, step->sql);
			res = (struct db_exec_result){DB_QUERY_OTHER, 0};
		} else if (step->kind == WL_STEP_SQL) {
			assert_int_equal(fake_ops.execute(&h->c, step->stmt, step->params, &res), 0);
		} else {
			res = (struct db_exec_result){DB_QUERY_OTHER, 0};
		}
		last = &res;
	}
}

/* A retried transaction sends exactly what its first attempt sent. */
static void test_retry_same_inputs(void **state)
{
	struct harness h;
	static const unsigned types[] = {TT_NEW_ORDER, TT_PAYMENT, TT_ORDER_STATUS, TT_DELIVERY, TT_STOCK_LEVEL};

	(void)state;
	harness_open(&h, TPCC_STATEMENTS);
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		for (int round = 0; round < 20; round++) {
			char first[8][512];
			unsigned k0[8], n0;
			steplog.n = 0;
			/* Fail at the 3rd step: the two before were sent once. */
			run_txn(&h, types[t], 3);
			n0 = steplog.n;
			assert_true(n0 >= 2);
			/* Steps 1 and 2 of the attempt, then the retry from step 1. */
			for (unsigned i = 0; i < 2; i++) {
				k0[i] = steplog.k[i];
				memcpy(first[i], steplog.params[i], sizeof(first[i]));
			}
			assert_int_equal(steplog.k[2], k0[0]);
			assert_string_equal(steplog.params[2], first[0]);
			if (n0 > 3) {
				assert_int_equal(steplog.k[3], k0[1]);
				assert_string_equal(steplog.params[3], first[1]);
			}
		}
	}
	harness_close(&h);
}

/* New-Order: stock rows in item order, OL_NUMBER a permutation of 1..n. */
static void test_new_order_lines(void **state)
{
	struct harness h;

	(void)state;
	harness_open(&h, TPCC_STATEMENTS);
	for (int round = 0; round < 50; round++) {
		long last_item = -1;
		unsigned seen = 0, nlines = 0;
		int rc;
		steplog.n = 0;
		rc = run_txn(&h, TT_NEW_ORDER, 0);
		for (unsigned i = 0; i < steplog.n; i++) {
			long d, item, w, o, dd, ww, num;
			if (steplog.k[i] == TS_NO_STOCK) {
				assert_int_equal(sscanf(steplog.params[i], "%ld|%ld|%ld|", &d, &item, &w), 3);
				assert_true(item >= last_item);
				last_item = item;
			}
			if (steplog.k[i] == TS_NO_INS_ORDER_LINE) {
				assert_int_equal(sscanf(steplog.params[i], "%ld|%ld|%ld|%ld|", &o, &dd, &ww, &num), 4);
				assert_true(num >= 1 && num <= 15);
				assert_false(seen & (1u << num));
				seen |= 1u << num;
				nlines++;
			}
		}
		if (rc == WL_DONE) /* not the intended rollback: every line number once */
			assert_int_equal(seen, ((1u << (nlines + 1)) - 1) & ~1u);
	}
	harness_close(&h);
}

/* The procedure mode: one call per transaction; New-Order's lines packed
 * (6 + 6 + 2 + 2 digits each); the procedure's rollback must be the client's. */
static void test_procedure_calls(void **state)
{
	struct harness h;
	static const unsigned types[] = {TT_NEW_ORDER, TT_PAYMENT, TT_ORDER_STATUS, TT_DELIVERY, TT_STOCK_LEVEL};
	static const unsigned calls[] = {TS_PR_NEWORD, TS_PR_PAYMENT, TS_PR_OSTAT, TS_PR_DELIVERY, TS_PR_SLEV};
	int rollbacks = 0;

	(void)state;
	harness_open(&h, TPCC_PROCEDURES);
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		steplog.n = 0;
		proc_rolled_back = 0;
		int rc = run_txn(&h, types[t], 0);
		assert_int_equal(steplog.n, 1);
		assert_int_equal(steplog.k[0], calls[t]);
		if (types[t] == TT_NEW_ORDER && rc == WL_DONE) {
			long w, d, c, cnt, local;
			char items[128], supply[128], qty[64], num[64];
			assert_int_equal(sscanf(steplog.params[0], "%ld|%ld|%ld|%ld|%ld|%127[^|]|%127[^|]|%63[^|]|%63[^|]|", &w, &d,
						&c, &cnt, &local, items, supply, qty, num),
					 9);
			assert_true(cnt >= 5 && cnt <= 15);
			assert_int_equal(strlen(items), 6 * cnt);
			assert_int_equal(strlen(supply), 6 * cnt);
			assert_int_equal(strlen(qty), 2 * cnt);
			assert_int_equal(strlen(num), 2 * cnt);
		}
	}
	/* Draw New-Orders until one must roll back: the procedure answering
	 * "committed" for it is a fatal mismatch, "rolled back" is the rollback. */
	for (int i = 0; i < 2000 && !rollbacks; i++) {
		steplog.n = 0;
		proc_rolled_back = 0;
		int rc = run_txn(&h, TT_NEW_ORDER, 0);
		if (rc < 0) {
			assert_int_equal(h.c.err.cls, DB_ERR_FATAL);
			assert_non_null(strstr(h.c.err.msg, "committed an order with the unused item"));
			rollbacks++;
		}
	}
	assert_int_equal(rollbacks, 1);
	harness_close(&h);
}

/* Payment and Order-Status by name: the customer at ceil(n/2) of the n that
 * share the name, for n past the 64 the lookup once kept (review #12: 67
 * share a name in some districts). */
static void test_by_name_middle(void **state)
{
	struct harness h;
	static const int ns[] = {1, 2, 3, 64, 65, 66, 67, 200};
	static const unsigned types[] = {TT_PAYMENT, TT_ORDER_STATUS};
	static const unsigned next[] = {TS_PAY_CUST, TS_OS_CUST};

	(void)state;
	harness_open(&h, TPCC_STATEMENTS);
	for (size_t t = 0; t < 2; t++) {
		for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
			int found = 0;
			by_name_rows = ns[i];
			for (int round = 0; round < 200 && !found; round++) {
				steplog.n = 0;
				assert_int_equal(run_txn(&h, types[t], 0), WL_DONE);
				for (unsigned j = 0; j + 1 < steplog.n && j + 1 < LOG_MAX; j++) {
					long w, d, c;
					if (steplog.k[j] != TS_CUST_BY_NAME)
						continue;
					assert_int_equal(steplog.k[j + 1], next[t]);
					assert_int_equal(sscanf(steplog.params[j + 1], "%ld|%ld|%ld|", &w, &d, &c), 3);
					assert_int_equal(c, (ns[i] + 1) / 2);
					found = 1;
				}
			}
			assert_true(found);
		}
	}
	by_name_rows = 0;
	harness_close(&h);
}

/* A retried Delivery delivers all ten districts: whichever of its steps
 * fails once (a deadlock or a conflict at step k, for every k up to the
 * commit), the retry starts over at district 1 and runs a whole attempt, the
 * district without a new order is counted once (not once per attempt), and
 * the Delivery log lists the orders of the attempt that committed. */
static void test_delivery_retry(void **state)
{
	struct harness h;
	unsigned full;

	(void)state;
	harness_open(&h, TPCC_STATEMENTS);
	dl_skip_district = 5;
	assert_int_equal(run_txn(&h, TT_DELIVERY, 0), WL_DONE);
	full = steplog.n; /* the statements of one attempt; its commit is step full + 1 */
	assert_int_equal(atomic_load(&h.x.skipped_districts), 1);
	for (unsigned k = 1; k <= full + 1; k++) {
		struct tpcc_dlog dlog;
		char want[256] = "", path[] = "/tmp/dbrig-test-txn-dlog.XXXXXX";
		char *text = NULL;
		const char *line;
		int fd = mkstemp(path);
		unsigned next_d = 1;
		int tabs = 0;

		atomic_store(&h.x.skipped_districts, 0);
		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(tpcc_dlog_open(&dlog, path), 0);
		h.x.dlog = &dlog;
		steplog.n = 0;
		assert_int_equal(run_txn(&h, TT_DELIVERY, k), WL_DONE);
		/* The k - 1 steps sent before the failure, then a whole attempt. */
		assert_int_equal(steplog.n, k - 1 + full);
		for (unsigned i = k - 1; i < steplog.n; i++) {
			long w, d, o;
			if (steplog.k[i] != TS_DL_DEL_NEW_ORDER)
				continue;
			assert_int_equal(sscanf(steplog.params[i], "%ld|%ld|%ld|", &w, &d, &o), 3);
			if (next_d == 5)
				next_d++;
			assert_int_equal(d, next_d++);
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%ld:%ld", want[0] ? "," : "", d, o);
		}
		assert_int_equal(next_d, 11);
		assert_int_equal(atomic_load(&h.x.skipped_districts), 1);
		/* The log line (after the header): its 7th field lists the
		 * committed attempt's orders, the 8th the skipped district. */
		tpcc_workload_ops.txn_recorded(h.sess, 1, 0, true);
		assert_int_equal(dlog.lines, 1);
		/* Each line is in "<path>.tmp" as soon as it is logged. */
		assert_int_equal(read_file(dlog.tmp, &text, NULL), 0);
		line = strchr(text, '\n') + 1;
		for (; *line && tabs < 6; line++)
			tabs += *line == '\t';
		assert_memory_equal(line, want, strlen(want));
		assert_string_equal(line + strlen(want), "\t5\n");
		h.x.dlog = NULL;
		free(text);
		unlink(dlog.tmp);
		tpcc_dlog_release(&dlog);
		unlink(path);
	}
	dl_skip_district = 0;
	harness_close(&h);
}

/* Is `count` of n draws with probability p within k standard deviations? */
static bool within(unsigned long count, unsigned long n, double p, double k)
{
	double mean = n * p, sd = sqrt(n * p * (1 - p));

	if (count < mean - k * sd || count > mean + k * sd)
		fprintf(stderr, "count %lu of %lu: expected %.1f +- %.1f\n", count, n, mean, k * sd);
	return count >= mean - k * sd && count <= mean + k * sd;
}

/* A remote warehouse is never the home one and every other warehouse can be
 * drawn. For W = 2, 3 and 10 and every home warehouse, New-Orders and
 * Payments as the spec draws them (clauses 2.4.1.5 and 2.5.1.2): a remote
 * line's supplying warehouse and a remote Payment's customer warehouse are
 * uniform over the W - 1 others, the highest included; a line is remote with
 * probability 1% and a Payment with 15%; every remote line the session counts
 * (what the run reports as remote_lines) has a supplier other than the home.
 *
 * The interval: each count (one per home and other warehouse, and each share)
 * must lie within 6 standard deviations of its binomial mean. The smallest
 * expected count is 72 (a remote line's cell at W = 10: about 650 remote
 * lines, p = 1/9), where the exact binomial chance of leaving that interval
 * is 1.2e-8; the larger counts have less. There are 2 x 98 cells and 6
 * shares: a correct build fails with a chance below 3e-6 per seed (the
 * test's seed is fixed, so its outcome is too). */
static void test_remote_warehouses(void **state)
{
	struct harness h;
	static const unsigned ws[] = {2, 3, 10};

	(void)state;
	harness_open(&h, TPCC_STATEMENTS);
	for (size_t wi = 0; wi < sizeof(ws) / sizeof(ws[0]); wi++) {
		unsigned W = ws[wi];
		unsigned long lines = 0, remote_lines = 0, pays = 0, remote_pays = 0;

		h.x.warehouses = W;
		for (unsigned home = 1; home <= W; home++) {
			unsigned long line_to[11] = {0}, pay_to[11] = {0}, home_lines = 0, home_pays = 0;
			unsigned n_no = 500 * (W - 1) + 2000, n_pay = 400 * (W - 1) + 3600;

			tpcc_workload_ops.term_init(&h.x, (home - 1) * 10, h.term);
			for (unsigned i = 0; i < n_no; i++) {
				unsigned long before = atomic_load(&h.x.remote_lines), seen = 0, nl = 0;
				steplog.n = 0;
				if (run_txn(&h, TT_NEW_ORDER, 0) != WL_DONE)
					continue; /* the intended rollback: not all its lines were sent */
				for (unsigned j = 0; j < steplog.n; j++) {
					long d, item, w;
					if (steplog.k[j] != TS_NO_STOCK)
						continue;
					assert_int_equal(sscanf(steplog.params[j], "%ld|%ld|%ld|", &d, &item, &w), 3);
					assert_true(w >= 1 && w <= (long)W);
					nl++;
					if (w != (long)home) {
						line_to[w]++;
						seen++;
					}
				}
				/* Every remote line counted went elsewhere than home. */
				assert_int_equal(atomic_load(&h.x.remote_lines) - before, seen);
				lines += nl;
				home_lines += seen;
			}
			for (unsigned i = 0; i < n_pay; i++) {
				long w, d;
				steplog.n = 0;
				assert_int_equal(run_txn(&h, TT_PAYMENT, 0), WL_DONE);
				for (unsigned j = 0; j < steplog.n; j++) {
					long c, cd, cw, hd, hw;
					if (steplog.k[j] == TS_PAY_INS_HISTORY) {
						/* The history row: the home warehouse and a district (a
						 * 14-column customer row once overran the session's 13
						 * columns into w, d, c_d and c_id). */
						assert_int_equal(sscanf(steplog.params[j], "%ld|%ld|%ld|%ld|%ld|", &c, &cd, &cw, &hd, &hw), 5);
						assert_int_equal(hw, home);
						assert_true(hd >= 1 && hd <= 10);
					}
				}
				for (unsigned j = 0; j < steplog.n; j++) {
					if (steplog.k[j] != TS_PAY_CUST && steplog.k[j] != TS_CUST_BY_NAME)
						continue;
					assert_int_equal(sscanf(steplog.params[j], "%ld|%ld|", &w, &d), 2);
					assert_true(w >= 1 && w <= (long)W);
					if (w != (long)home) {
						pay_to[w]++;
						home_pays++;
					}
					break;
				}
				pays++;
			}
			for (unsigned o = 1; o <= W; o++) {
				if (o == home)
					continue;
				assert_true(within(line_to[o], home_lines, 1.0 / (W - 1), 6));
				assert_true(within(pay_to[o], home_pays, 1.0 / (W - 1), 6));
			}
			remote_lines += home_lines;
			remote_pays += home_pays;
		}
		assert_true(within(remote_lines, lines, 0.01, 6));
		assert_true(within(remote_pays, pays, 0.15, 6));
	}
	harness_close(&h);
}

/* Order-Status reads every line of the order back, in both modes (the
 * procedure returns them as rows), counts them, and refuses an order whose
 * lines are not 5 to 15 or, from the procedure, not its own line_count. */
static void test_order_status_lines(void **state)
{
	struct harness h;

	(void)state;
	for (int m = 0; m < 2; m++) {
		harness_open(&h, m ? TPCC_PROCEDURES : TPCC_STATEMENTS);
		ostat_rows = ostat_count = 7;
		assert_int_equal(run_txn(&h, TT_ORDER_STATUS, 0), WL_DONE);
		assert_int_equal(atomic_load(&h.x.ostat_lines), 7);
		ostat_rows = ostat_count = 4;
		assert_true(run_txn(&h, TT_ORDER_STATUS, 0) < 0);
		assert_int_equal(h.c.err.cls, DB_ERR_FATAL);
		harness_close(&h);
	}
	harness_open(&h, TPCC_PROCEDURES);
	ostat_rows = 7, ostat_count = 6;
	assert_true(run_txn(&h, TT_ORDER_STATUS, 0) < 0);
	assert_non_null(strstr(h.c.err.msg, "line_count differs"));
	harness_close(&h);
	ostat_rows = ostat_count = 7;
}

/* --isolation=ostat:LEVEL: Order-Status's transactions begin with the
 * dialect's statement for the level (MySQL: for that transaction alone),
 * the other types send none. */
static void test_isolation_per_type(void **state)
{
	struct harness h;
	char err[200];

	(void)state;
	for (int m = 0; m < 2; m++) {
		harness_open(&h, m ? TPCC_PROCEDURES : TPCC_STATEMENTS);
		assert_int_equal(tpcc_isolation_parse("ostat:serializable", &h.x.iso, err, sizeof(err)), 0);
		ntext = 0;
		assert_int_equal(run_txn(&h, TT_PAYMENT, 0), WL_DONE);
		assert_int_equal(ntext, 0);
		for (int k = 1; k <= 2; k++) {
			assert_int_equal(run_txn(&h, TT_ORDER_STATUS, 0), WL_DONE);
			assert_int_equal(ntext, k);
			assert_string_equal(text_log[k - 1], "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
		}
		assert_int_equal(run_txn(&h, TT_STOCK_LEVEL, 0), WL_DONE);
		assert_int_equal(ntext, 2);
		harness_close(&h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_retry_same_inputs),
		cmocka_unit_test(test_new_order_lines),
		cmocka_unit_test(test_procedure_calls),
		cmocka_unit_test(test_by_name_middle),
		cmocka_unit_test(test_delivery_retry),
		cmocka_unit_test(test_remote_warehouses),
		cmocka_unit_test(test_order_status_lines),
		cmocka_unit_test(test_isolation_per_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
