/* The sessions' latency and counting around faults (src/runner/session.c),
 * measured against a fake driver whose errors and delays the test controls,
 * once blocking (one thread per connection, as ODBC) and once on the event
 * loop (as libmysqlclient):
 *   - a retried error (deadlock): the latency includes the failed attempt and
 *     the ignored error is counted once;
 *   - a lost connection while the server stays away: one reconnect counted
 *     (not one per failed attempt), the latency includes the whole outage,
 *     and the attempts follow the backoff of README's "What happens when
 *     things fail": 10 ms doubling to 1 s.
 * Only lower bounds on time are asserted (a sleep never ends early). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "runner/runner.h"

#define MS 1000000ULL

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* --- the fake server: what the next calls do --- */
static struct {
	unsigned fail_retry;      /* statements that fail with a retryable error */
	uint64_t retry_delay_ns;  /* how long such a failing attempt takes */
	unsigned fail_lost;       /* statements that lose the connection */
	unsigned down_connects;   /* connects refused after a lost connection */
	unsigned connects;        /* connect calls */
	uint64_t connect_at[32];  /* when each connect call began */
	int efd;                  /* always readable: the non-blocking path wakes at once */
	int pending;              /* a query started, completed by cont() */
	struct db_exec_result *pending_res;
} fk;

static void set_err(struct db_conn *c, enum db_err_class cls, int native, const char *msg)
{
	c->err.cls = cls;
	c->err.native = native;
	snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "HY000");
	snprintf(c->err.msg, sizeof(c->err.msg), "%s", msg);
}

static int fk_connect(struct db_conn *c, const struct db_conn_params *p)
{
	(void)p;
	if (fk.connects < 32)
		fk.connect_at[fk.connects] = now_ns();
	fk.connects++;
	if (fk.down_connects && fk.connects > 1) {
		fk.down_connects--;
		set_err(c, DB_ERR_RECONNECT, 2003, "Can't connect (fake server away)");
		return -1;
	}
	c->priv = &fk;
	return 0;
}

static void fk_disconnect(struct db_conn *c)
{
	c->priv = NULL;
}

/* One statement's outcome, as the fake server decides it. */
static int fk_outcome(struct db_conn *c, struct db_exec_result *r)
{
	if (fk.fail_retry) {
		fk.fail_retry--;
		struct timespec ts = {(time_t)(fk.retry_delay_ns / 1000000000ULL), (long)(fk.retry_delay_ns % 1000000000ULL)};
		nanosleep(&ts, NULL);
		set_err(c, DB_ERR_RETRY, 1213, "Deadlock found when trying to get lock");
		return -1;
	}
	if (fk.fail_lost) {
		fk.fail_lost--;
		set_err(c, DB_ERR_RECONNECT, 2013, "Lost connection to server during query");
		return -1;
	}
	r->kind = DB_QUERY_READ;
	r->rows = 1;
	return 0;
}

static int fk_query(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r)
{
	(void)len;
	if (!strcmp(sql, "ROLLBACK")) {
		r->kind = DB_QUERY_OTHER;
		return 0;
	}
	return fk_outcome(c, r);
}

static int fk_tx(struct db_conn *c)
{
	(void)c;
	return 0;
}

static int fk_fd(struct db_conn *c)
{
	(void)c;
	return fk.efd;
}

static int fk_query_start(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r, int *wait)
{
	(void)c;
	(void)len;
	fk.pending = strcmp(sql, "ROLLBACK") ? 1 : 2;
	fk.pending_res = r;
	*wait = DB_WAIT_READ;
	return 1;
}

static int fk_execute_start(struct db_conn *c, struct db_stmt *s, const struct db_value *params,
			    struct db_exec_result *r, int *wait)
{
	(void)s;
	(void)params;
	return fk_query_start(c, "x", 1, r, wait);
}

static int fk_cont(struct db_conn *c, int ready, int *wait)
{
	int what = fk.pending;

	(void)ready;
	(void)wait;
	fk.pending = 0;
	if (what == 2) {
		fk.pending_res->kind = DB_QUERY_OTHER;
		return 0;
	}
	return fk_outcome(c, fk.pending_res);
}

static const struct db_driver_ops fake_blocking = {
	.name = "fake",
	.connect = fk_connect,
	.disconnect = fk_disconnect,
	.query = fk_query,
	.commit = fk_tx,
	.rollback = fk_tx,
};

static const struct db_driver_ops fake_evloop = {
	.name = "fake",
	.connect = fk_connect,
	.disconnect = fk_disconnect,
	.query = fk_query,
	.commit = fk_tx,
	.rollback = fk_tx,
	.fd = fk_fd,
	.execute_start = fk_execute_start,
	.query_start = fk_query_start,
	.cont = fk_cont,
};

/* --- the workload: one statement, then commit --- */
static int sess_token;
static struct wl_step q_step = {.sql = "SELECT 1", .sql_len = 8, .kind = WL_STEP_SQL};
static struct wl_step c_step = {.kind = WL_STEP_COMMIT};
static unsigned wl_pos;

static int wl_open(void *wl, struct db_conn *c, unsigned i, void **sess)
{
	(void)wl;
	(void)c;
	(void)i;
	*sess = &sess_token;
	return 0;
}

static void wl_close(void *sess)
{
	(void)sess;
}

static int wl_next(void *sess, struct rng *r, const struct db_exec_result *last, const struct wl_step **step)
{
	(void)sess;
	(void)r;
	if (!last)
		wl_pos = 0;
	switch (wl_pos++) {
	case 0:
		*step = &q_step;
		return WL_STEP;
	case 1:
		*step = &c_step;
		return WL_STEP;
	}
	return WL_DONE;
}

static void wl_restart(void *sess)
{
	(void)sess;
	wl_pos = 0;
}

static unsigned wl_type(void *sess)
{
	(void)sess;
	return 0;
}

static const struct workload_ops one_stmt = {
	.name = "one",
	.session_open = wl_open,
	.session_close = wl_close,
	.next = wl_next,
	.restart = wl_restart,
	.txn_type = wl_type,
};

/* --- what the runner reported for the sample --- */
static struct {
	struct counters c;
	uint64_t n, min_ns, max_ns;
} got;

static void on_phase_end(void *arg, const struct phase_report *pr)
{
	(void)arg;
	if (pr->phase != PHASE_SAMPLE)
		return;
	got.c = pr->s->c;
	got.n = pr->s->lat->total;
	got.min_ns = pr->s->lat->min;
	got.max_ns = pr->s->lat->max;
}

static void run_one_txn(const struct db_driver_ops *drv)
{
	struct db_conn_params cp = {.host = "fake"};
	struct runner_config cfg = {
		.drv = drv,
		.conn = &cp,
		.wl = &one_stmt,
		.ntypes = 1,
		.threads = 1,
		.event_loops = 1,
		.events = 1,
		.rand_seed = 1,
		.reconnect_timeout_ns = 60000 * MS,
		.cb = {.on_phase_end = on_phase_end},
	};
	struct runner_outcome out;

	memset(&got, 0, sizeof(got));
	assert_int_equal(runner_run(&cfg, &out), 0);
	assert_int_equal(out.status, RUNNER_COMPLETE);
	assert_int_equal(got.c.events, 1);
	assert_int_equal(got.n, 1);
}

static void reset_fake(void)
{
	int efd = fk.efd;
	memset(&fk, 0, sizeof(fk));
	fk.efd = efd;
}

/* A deadlock on the first attempt, which took 50 ms: the transaction's latency
 * includes it (sysbench's sb_event_start before the retry loop). */
static void retry_keeps_first_attempt(const struct db_driver_ops *drv)
{
	reset_fake();
	fk.fail_retry = 1;
	fk.retry_delay_ns = 50 * MS;
	run_one_txn(drv);
	assert_int_equal(got.c.errors, 1);
	assert_int_equal(got.c.reconnects, 0);
	assert_true(got.min_ns >= 50 * MS);
}

static void test_retry_latency(void **state)
{
	retry_keeps_first_attempt(*state);
}

/* The connection is lost and the server refuses 8 connects: 1 reconnect is
 * counted, the attempts wait 10, 20, 40 ... ms capped at 1 s, and the
 * transaction's latency holds the whole outage. */
static void reconnect_backoff(const struct db_driver_ops *drv)
{
	static const uint64_t backoff_ms[] = {0, 10, 20, 40, 80, 160, 320, 640, 1000};
	uint64_t outage = 0;

	reset_fake();
	fk.fail_lost = 1;
	fk.down_connects = 8;
	run_one_txn(drv);
	assert_int_equal(got.c.reconnects, 1);
	assert_int_equal(got.c.errors, 0);
	/* connect 1 opened the run; 2 came at once after the loss; 3..10 after backoffs */
	assert_int_equal(fk.connects, 10);
	for (unsigned i = 2; i < fk.connects; i++) {
		uint64_t gap = fk.connect_at[i] - fk.connect_at[i - 1];
		uint64_t want = backoff_ms[i - 1] * MS;
		if (gap + MS < want)
			fail_msg("connect %u came %.1f ms after the one before, the backoff is %llu ms", i + 1,
				 (double)gap / 1e6, (unsigned long long)backoff_ms[i - 1]);
		outage += want;
	}
	assert_true(got.min_ns + MS >= outage);
}

static void test_reconnect(void **state)
{
	reconnect_backoff(*state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* the driver is each test's state: blocking (ODBC's way), then on the event loop */
		cmocka_unit_test_prestate(test_retry_latency, (void *)&fake_blocking),
		cmocka_unit_test_prestate(test_retry_latency, (void *)&fake_evloop),
		cmocka_unit_test_prestate(test_reconnect, (void *)&fake_blocking),
		cmocka_unit_test_prestate(test_reconnect, (void *)&fake_evloop),
	};
	uint64_t one = 1;

	fk.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fk.efd < 0 || write(fk.efd, &one, sizeof(one)) != sizeof(one))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
