/* Unit tests of runner/sched.c: think times; terminals over a pool of
 * connections and one session per terminal, through runner_run with an
 * in-process driver (blocking, and non-blocking over an eventfd so the event
 * loop really waits) and a workload that records which session ran which
 * terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "core/clock.h"
#include "core/rng.h"
#include "runner/runner.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

static void test_think_times(void **state)
{
	struct rng r;
	double sum = 0, mx = 0;
	const uint64_t mean = 12 * 1000000000ULL;

	(void)state;
	/* Think times: exponential with the given mean (the cap at 10x trims
	 * e^-10 of the mass, 0.005% of the mean) and never above 10x. Intervals
	 * (seed fixed; chances over seeds): the mean of 400,000 draws has a
	 * standard error of mean / 632, so 1% less the cap's bias is 6.3 of them
	 * (chance 3e-10); none above 8x the mean has a chance of
	 * (1 - e^-8)^400000 = e^-134. */
	rng_seed(&r, 3);
	for (int i = 0; i < 400000; i++) {
		uint64_t t = runner_think_ns(&r, mean, 10);
		sum += (double)t;
		if (t > mx)
			mx = (double)t;
	}
	assert_true(sum / 400000 > 0.99 * mean && sum / 400000 < 1.01 * mean);
	assert_true(mx <= 10.0 * mean);
	assert_true(mx > 8.0 * mean);
	assert_int_equal(runner_think_ns(&r, 0, 10), 0);
}

/* --- an in-process driver --- */

static atomic_uint connects, inflight, max_inflight;

struct fconn {
	int efd;
};

static int f_connect(struct db_conn *c, const struct db_conn_params *p)
{
	struct fconn *f = calloc(1, sizeof(*f));
	unsigned now = atomic_fetch_add(&inflight, 1) + 1, m = atomic_load(&max_inflight);
	struct timespec ts = {0, 200000};

	(void)p;
	while (now > m && !atomic_compare_exchange_weak(&max_inflight, &m, now))
		;
	nanosleep(&ts, NULL); /* a connect takes a while: overlapping ones show */
	atomic_fetch_sub(&inflight, 1);
	f->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	c->priv = f;
	atomic_fetch_add(&connects, 1);
	return 0;
}

static void f_disconnect(struct db_conn *c)
{
	struct fconn *f = c->priv;

	if (f) {
		close(f->efd);
		free(f);
	}
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
	if (r) {
		r->kind = DB_QUERY_OTHER;
		r->rows = 0;
	}
	return 0;
}

static int f_ok(struct db_conn *c)
{
	(void)c;
	return 0;
}

static int f_fd(struct db_conn *c)
{
	return ((struct fconn *)c->priv)->efd;
}

/* Every statement "goes to the server": the fd becomes readable and the
 * loop must wait for it before cont(). */
static int f_query_start(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r, int *wait)
{
	uint64_t one = 1;

	f_query(c, sql, len, r);
	if (write(f_fd(c), &one, sizeof(one)) != sizeof(one))
		return -1;
	*wait = DB_WAIT_READ;
	return 1;
}

static int f_execute_start(struct db_conn *c, struct db_stmt *st, const struct db_value *params,
			   struct db_exec_result *r, int *wait)
{
	(void)st, (void)params;
	return f_query_start(c, "", 0, r, wait);
}

static int f_cont(struct db_conn *c, int ready, int *wait)
{
	uint64_t v;

	(void)ready, (void)wait;
	if (read(f_fd(c), &v, sizeof(v)) != sizeof(v))
		return -1;
	return 0;
}

static const struct db_driver_ops fake_blocking = {
	.name = "fake",
	.connect = f_connect,
	.disconnect = f_disconnect,
	.server_version = f_version,
	.query = f_query,
	.begin = f_ok,
	.commit = f_ok,
	.rollback = f_ok,
};

static const struct db_driver_ops fake_nb = {
	.name = "fake",
	.connect = f_connect,
	.disconnect = f_disconnect,
	.server_version = f_version,
	.query = f_query,
	.begin = f_ok,
	.commit = f_ok,
	.rollback = f_ok,
	.fd = f_fd,
	.execute_start = f_execute_start,
	.query_start = f_query_start,
	.cont = f_cont,
};

/* --- a workload with terminals that notes who ran what --- */

#define NTERM 40
static atomic_uint foreign_runs;   /* a transaction of terminal t on session s != t */
static atomic_uint term_runs[NTERM];
static atomic_uint job_runs;

struct fterm {
	unsigned index;
	unsigned cards;
};

struct fsess {
	unsigned index;
	struct fterm *term;
	unsigned type;
	int step;
	struct wl_step st;
};

static int w_open(void *wl, struct db_conn *c, unsigned index, void **out)
{
	struct fsess *s = calloc(1, sizeof(*s));

	(void)wl, (void)c;
	s->index = index;
	*out = s;
	return 0;
}

static void w_close(void *p)
{
	free(p);
}

static int w_next(void *p, struct rng *r, const struct db_exec_result *last, const struct wl_step **step)
{
	struct fsess *s = p;

	(void)r, (void)last;
	if (s->step == 0) {
		if (s->term->index != s->index)
			atomic_fetch_add(&foreign_runs, 1);
		atomic_fetch_add(&term_runs[s->term->index], 1);
		if (s->type == 1)
			atomic_fetch_add(&job_runs, 1);
	}
	memset(&s->st, 0, sizeof(s->st));
	switch (s->step++) {
	case 0:
		s->st.sql = "SELECT 1";
		s->st.sql_len = 8;
		*step = &s->st;
		return WL_STEP;
	case 1:
		s->st.kind = WL_STEP_COMMIT;
		*step = &s->st;
		return WL_STEP;
	default:
		s->step = 0;
		return WL_DONE;
	}
}

static void w_restart(void *p)
{
	((struct fsess *)p)->step = 0;
}

static unsigned w_type(void *p)
{
	return ((struct fsess *)p)->type;
}

static void w_term_init(void *wl, unsigned index, void *term)
{
	(void)wl;
	((struct fterm *)term)->index = index;
}

/* Every fourth card is deferred (a Delivery-like job), unless no_jobs. */
static bool no_jobs;
static unsigned w_term_next(void *wl, void *term, struct rng *r)
{
	(void)wl, (void)r;
	return !no_jobs && ++((struct fterm *)term)->cards % 4 == 0;
}

static bool w_deferred(void *wl, unsigned type)
{
	(void)wl;
	return type == 1;
}

static void w_bind(void *p, void *term, unsigned type)
{
	struct fsess *s = p;

	s->term = term;
	s->type = type;
	s->step = 0;
}

static const struct workload_ops fake_wl = {
	.name = "fake",
	.session_open = w_open,
	.session_close = w_close,
	.next = w_next,
	.restart = w_restart,
	.txn_type = w_type,
	.term_size = sizeof(struct fterm),
	.term_init = w_term_init,
	.term_next = w_term_next,
	.type_deferred = w_deferred,
	.bind_term = w_bind,
};

/* What the sample phase said about connections. */
static struct {
	unsigned pools;
	double queued_share;
	bool pool_capped;
	uint64_t waits, lat_sum, wait_sum;
} seen;

static void on_phase_end(void *arg, const struct phase_report *pr)
{
	(void)arg;
	if (pr->phase != PHASE_SAMPLE)
		return;
	seen.pools = pr->pools;
	seen.queued_share = pr->queued_share;
	seen.pool_capped = pr->pool_capped;
	seen.waits = pr->s->wait->total;
	seen.lat_sum = (uint64_t)pr->s->lat->sum;
	seen.wait_sum = (uint64_t)pr->s->wait->sum;
}

static uint64_t delay_ns = 200 * 1000;
/* 0: the sample is 3000 transactions; else its length. A sample that ends on
 * its event count ends when the main thread notices, up to 100 ms later, so
 * a share of its time is measured over a fixed length instead. */
static uint64_t sample_ns;

static void run_terminals(const struct db_driver_ops *drv, unsigned sessions, bool bound, unsigned connect_k,
			  struct runner_outcome *out)
{
	struct db_conn_params cp;
	struct runner_config cfg = {
		.drv = drv,
		.conn = &cp,
		.wl = &fake_wl,
		.ntypes = 2,
		.threads = sessions,
		.event_loops = 2,
		.events = sample_ns ? 0 : 3000,
		.time_ns = sample_ns,
		.rand_seed = 5,
		.reconnect_timeout_ns = NS_PER_SEC,
		.terminals = NTERM,
		.think_cap = 10,
		.session_per_terminal = bound,
		.connect_concurrency = connect_k,
		.cb = {.on_phase_end = on_phase_end},
	};

	memset(&cp, 0, sizeof(cp));
	memset(&seen, 0, sizeof(seen));
	for (unsigned k = 0; k < 2; k++) {
		cfg.keying_ns[k] = delay_ns;
		cfg.think_ns[k] = delay_ns * 3 / 2;
	}
	atomic_store(&connects, 0);
	atomic_store(&max_inflight, 0);
	atomic_store(&foreign_runs, 0);
	atomic_store(&job_runs, 0);
	for (unsigned i = 0; i < NTERM; i++)
		atomic_store(&term_runs[i], 0);
	assert_int_equal(runner_run(&cfg, out), 0);
	assert_int_equal(out->status, RUNNER_COMPLETE);
}

/* One session per terminal: as many connections as terminals, and every
 * transaction of a terminal, its deferred jobs included, ran on its own
 * session (event loop and blocking threads alike). */
static void test_session_per_terminal(void **state)
{
	struct runner_outcome out;
	const struct db_driver_ops *drvs[] = {&fake_nb, &fake_blocking};

	(void)state;
	for (unsigned d = 0; d < 2; d++) {
		unsigned total = 0;
		run_terminals(drvs[d], NTERM, true, 3, &out);
		assert_int_equal(atomic_load(&connects), NTERM);
		assert_int_equal(atomic_load(&foreign_runs), 0);
		assert_true(atomic_load(&job_runs) > 0);
		for (unsigned i = 0; i < NTERM; i++)
			total += atomic_load(&term_runs[i]);
		assert_true(total >= 3000);
		/* The ramp-up never had more connects in flight than allowed. */
		assert_true(atomic_load(&max_inflight) <= 3);
	}
}

/* The control: terminals over a pool of 4 connections run on any of them. */
static void test_pool(void **state)
{
	struct runner_outcome out;

	(void)state;
	run_terminals(&fake_nb, 4, false, 0, &out);
	assert_int_equal(atomic_load(&connects), 4);
	assert_true(atomic_load(&foreign_runs) > 0);
}

/* The pool's queued time: the part of each pickup's wait after the
 * saturation began and after what earlier pickups already counted. */
static void test_queue_credit(void **state)
{
	static const struct {
		uint64_t due, sat, covered, freed, credit, covered_after;
	} cases[] = {
		{100, 0, 0, 150, 50, 150},     /* waited from its submit until a connection was free */
		{100, 120, 0, 150, 30, 150},   /* the pool filled up after the submit */
		{100, 0, 130, 150, 20, 150},   /* 100..130 counted by an earlier pickup */
		{100, 0, 160, 150, 0, 160},    /* all of it counted already */
		{150, 0, 0, 150, 0, 0},        /* due when the connection was already free */
		{170, 0, 0, 150, 0, 0},        /* ditto, the loop took it later */
		{100, 200, 0, 150, 0, 0},      /* saturation began after the connection was free */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t cov = cases[i].covered;
		assert_int_equal(runner_queue_credit(cases[i].due, cases[i].sat, &cov, cases[i].freed), cases[i].credit);
		assert_int_equal(cov, cases[i].covered_after);
	}
	/* Three terminals queued at once behind a full pool: the union, not the sum. */
	{
		uint64_t cov = 0, q = 0;
		q += runner_queue_credit(10, 0, &cov, 40);
		q += runner_queue_credit(20, 0, &cov, 50);
		q += runner_queue_credit(30, 0, &cov, 60);
		assert_int_equal(q, 50); /* 10..60 */
	}
}

/* Closed loop (no delays), 40 terminals: over 4 pooled connections they
 * queue all the time and the pool is flagged; over 40 they do not; with one
 * session per terminal there is no pool to flag. */
static void test_pool_capped(void **state)
{
	struct runner_outcome out;

	(void)state;
	delay_ns = 0;
	sample_ns = 300 * NS_PER_MS;
	no_jobs = true;
	run_terminals(&fake_nb, 4, false, 0, &out);
	assert_int_equal(seen.pools, 2); /* one per event loop */
	assert_true(seen.pool_capped);
	assert_true(seen.queued_share > RUNNER_POOL_CAPPED_SHARE);
	assert_true(seen.waits > 0);
	assert_true(seen.wait_sum > 0 && seen.wait_sum < seen.lat_sum);
	run_terminals(&fake_nb, NTERM, false, 0, &out);
	assert_false(seen.pool_capped);
	run_terminals(&fake_blocking, 4, false, 0, &out);
	assert_int_equal(seen.pools, 1); /* the blocking connections share one */
	assert_true(seen.pool_capped);
	no_jobs = false;
	run_terminals(&fake_nb, NTERM, true, 0, &out);
	assert_int_equal(seen.pools, NTERM);
	assert_false(seen.pool_capped);
	delay_ns = 200 * 1000;
	sample_ns = 0;
}

/* The configuration must match: one session per terminal needs as many
 * sessions as terminals. */
static void test_session_per_terminal_mismatch(void **state)
{
	struct db_conn_params cp;
	struct runner_outcome out;
	struct runner_config cfg = {
		.drv = &fake_nb, .conn = &cp, .wl = &fake_wl, .ntypes = 2, .threads = 3, .events = 10,
		.terminals = NTERM, .session_per_terminal = true,
	};

	(void)state;
	memset(&cp, 0, sizeof(cp));
	assert_int_equal(runner_run(&cfg, &out), -1);
	assert_non_null(strstr(out.error, "one session per terminal needs as many sessions (3) as terminals (40)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_think_times),
		cmocka_unit_test(test_session_per_terminal),
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_queue_credit),
		cmocka_unit_test(test_pool_capped),
		cmocka_unit_test(test_session_per_terminal_mismatch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
