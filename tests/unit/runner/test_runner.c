/*
 * Unit tests of the runner (runner.c, phases.c, loop.c, session.c) on the null driver
 * (db/null.c): the dry run's blocking path, closed-loop transactions to an event limit, intervals and
 * phases, retried deadlocks, lost connections that come back, a fatal error,
 * a server that refuses connections, and terminals sharing connections.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdio.h>

#include "core/clock.h"
#include "db/db.h"
#include "runner/runner.h"
#include "workload/workload.h"

/* A workload of two statements and a commit per transaction. */
struct tw_sess {
	struct db_stmt *st;
	unsigned step;
};

static int tw_open(void *wl, struct db_conn *c, unsigned index, void **out)
{
	static const enum db_type cols[] = {DB_TYPE_INT64};
	struct tw_sess *s = calloc(1, sizeof(*s));

	(void)wl;
	(void)index;
	if (c->ops->prepare(c, "SELECT ?", NULL, 0, cols, 1, &s->st) < 0) {
		free(s);
		return -1;
	}
	*out = s;
	return 0;
}

static void tw_close(void *sess)
{
	free(sess);
}

static int tw_next(void *sess, struct rng *r, const struct db_exec_result *last, const struct wl_step **step)
{
	static struct wl_step read_step = {.kind = WL_STEP_SQL};
	static struct wl_step update_step = {.sql = "UPDATE t SET x = x + 1", .sql_len = 22, .kind = WL_STEP_SQL};
	static struct wl_step commit = {.kind = WL_STEP_COMMIT};
	struct tw_sess *s = sess;

	(void)r;
	if (!last)
		s->step = 0;
	switch (s->step++) {
	case 0:
		read_step.stmt = s->st;
		*step = &read_step;
		return WL_STEP;
	case 1:
		*step = &update_step;
		return WL_STEP;
	case 2:
		*step = &commit;
		return WL_STEP;
	default:
		return WL_DONE;
	}
}

static void tw_restart(void *sess)
{
	((struct tw_sess *)sess)->step = 0;
}

static unsigned tw_type(void *sess)
{
	(void)sess;
	return 0;
}

/* Terminals: one word of state each, one type; bind_term just counts. */
struct tw_term {
	unsigned binds;
};

static void tw_term_init(void *wl, unsigned index, void *term)
{
	(void)wl;
	(void)index;
	memset(term, 0, sizeof(struct tw_term));
}

static unsigned tw_term_next(void *wl, void *term, struct rng *r)
{
	(void)wl;
	(void)term;
	(void)r;
	return 0;
}

static void tw_bind(void *sess, void *term, unsigned type)
{
	(void)sess;
	(void)type;
	((struct tw_term *)term)->binds++;
}

static const struct workload_ops tw_ops = {
	.name = "test",
	.session_open = tw_open,
	.session_close = tw_close,
	.next = tw_next,
	.restart = tw_restart,
	.txn_type = tw_type,
	.term_size = sizeof(struct tw_term),
	.term_init = tw_term_init,
	.term_next = tw_term_next,
	.bind_term = tw_bind,
};

struct seen {
	unsigned starts, intervals, phase_ends;
	uint64_t sample_events, sample_errors, sample_reconnects, sample_reads, sample_writes, sample_others;
	uint64_t interval_events;
	uint64_t last_queue_length; /* --rate: arrivals not taken at the last interval's end */
	double last_t;              /* that end, seconds since the run started */
	bool sample_complete;
	uint64_t fairness_sum;
};

static void on_start(void *arg, unsigned threads)
{
	(void)threads;
	((struct seen *)arg)->starts++;
}

static void on_interval(void *arg, const struct interval_report *ir)
{
	struct seen *s = arg;

	s->intervals++;
	s->interval_events += ir->s->c.events;
	s->last_queue_length = ir->queue_length;
	s->last_t = ir->t;
}

static void on_phase_end(void *arg, const struct phase_report *pr)
{
	struct seen *s = arg;

	s->phase_ends++;
	if (pr->phase != PHASE_SAMPLE)
		return;
	s->sample_events = pr->s->c.events;
	s->sample_errors = pr->s->c.errors;
	s->sample_reconnects = pr->s->c.reconnects;
	s->sample_reads = pr->s->c.reads;
	s->sample_writes = pr->s->c.writes;
	s->sample_others = pr->s->c.others;
	s->sample_complete = pr->complete;
	for (unsigned i = 0; i < pr->threads; i++)
		s->fairness_sum += pr->session_events[i];
}

extern const struct db_driver_ops db_null_ops;

static void base(struct runner_config *cfg, struct db_conn_params *cp, struct seen *seen, const char *dsn)
{
	memset(cp, 0, sizeof(*cp));
	memset(seen, 0, sizeof(*seen));
	cp->dsn = dsn;
	memset(cfg, 0, sizeof(*cfg));
	cfg->drv = &db_null_ops;
	cfg->conn = cp;
	cfg->wl = &tw_ops;
	cfg->ntypes = 1;
	cfg->threads = 4;
	cfg->event_loops = 2;
	cfg->events = 2000;
	cfg->rand_seed = 7;
	cfg->reconnect_timeout_ns = 5 * NS_PER_SEC;
	cfg->cb = (struct runner_callbacks){
		.arg = seen, .on_start = on_start, .on_interval = on_interval, .on_phase_end = on_phase_end};
}

static void test_closed_loop_to_event_limit(void **state)
{
	struct runner_config cfg;
	struct db_conn_params cp;
	struct runner_outcome out;
	struct seen seen;

	(void)state;
	base(&cfg, &cp, &seen, "null:poll;kinds");
	assert_int_equal(runner_run(&cfg, &out), 0);
	assert_int_equal(out.status, RUNNER_COMPLETE);
	assert_true(out.started);
	assert_int_equal(seen.starts, 1);
	assert_int_equal(seen.phase_ends, 1);
	/* Exactly the event budget, each with one read, one statement that
	 * changed nothing and a commit (sysbench's query classes). */
	assert_int_equal(seen.sample_events, 2000);
	assert_true(seen.sample_complete);
	assert_int_equal(seen.sample_reads, 2000);
	assert_int_equal(seen.sample_others, 4000);
	assert_int_equal(seen.sample_writes, 0);
	assert_int_equal(seen.sample_errors, 0);
	assert_int_equal(seen.fairness_sum, 2000);
	/* The closing interval holds what the phase did (no report interval set). */
	assert_int_equal(seen.interval_events, 2000);
}

/*
 * sysbench's --mysql-dry-run (no connection string): one thread per
 * connection, every statement "other", as sysbench counts a dry run.
 */
static void test_dry_run(void **state)
{
	struct runner_config cfg;
	struct db_conn_params cp;
	struct runner_outcome out;
	struct seen seen;

	(void)state;
	base(&cfg, &cp, &seen, NULL);
	cp.host = "127.0.0.1";
	cp.port = 3306;
	assert_false(db_null_ops.polls(&cp));
	assert_int_equal(runner_run(&cfg, &out), 0);
	assert_int_equal(out.status, RUNNER_COMPLETE);
	assert_int_equal(seen.sample_events, 2000);
	assert_int_equal(seen.sample_reads, 0);
	assert_int_equal(seen.sample_others, 6000);
	assert_int_equal(seen.sample_errors, 0);
	assert_int_equal(seen.fairness_sum, 2000);
}

static void test_retries_and_reconnects(void **state)
{
	struct runner_config cfg;
	struct db_conn_params cp;
	struct runner_outcome out;
	struct seen seen;

	(void)state;
	base(&cfg, &cp, &seen, "null:poll;kinds;retry_every=7;lost_every=101");
	assert_int_equal(runner_run(&cfg, &out), 0);
	assert_int_equal(out.status, RUNNER_COMPLETE);
	assert_int_equal(seen.sample_events, 2000);
	assert_true(seen.sample_errors > 0);
	assert_true(seen.sample_reconnects > 0);
}

static void test_fatal_error_fails_the_run(void **state)
{
	struct runner_config cfg;
	struct db_conn_params cp;
	struct runner_outcome out;
	struct seen seen;

	(void)state;
	base(&cfg, &cp, &seen, "null:poll;kinds;fatal_at=50");
	assert_int_equal(runner_run(&cfg, &out), 0);
	assert_int_equal(out.status, RUNNER_FAILED);
	assert_non_null(strstr(out.error, "the null server (null:poll;kinds;fatal_at=50): error 1064 (42000)"));
	assert_false(seen.sample_complete);
}

static void test_refused_connection(void **state)
{
	struct runner_config cfg;
	struct db_conn_params cp;
	struct runner_outcome out;
	struct seen seen;

	(void)state;
	base(&cfg, &cp, &seen, "null:poll;kinds;fail_connect");
	assert_int_equal(runner_run(&cfg, &out), -1);
	assert_false(out.started);
	/* Whichever loop thread connects first reports its connection. */
	assert_non_null(strstr(out.error, "cannot connect to the null server (null:poll;kinds;fail_connect) (connection "));
	assert_non_null(strstr(out.error, "): error 2003: the null server refuses connections"));
	assert_int_equal(seen.starts, 0);
}

static void test_terminals_share_connections(void **state)
{
	struct runner_config cfg;
	struct db_conn_params cp;
	struct runner_outcome out;
	struct seen seen;

	(void)state;
	base(&cfg, &cp, &seen, "null:poll;kinds");
	cfg.terminals = 40;
	cfg.events = 500;
	/* Short keying and think times: terminals wait, connections do not. */
	cfg.keying_ns[0] = 100 * 1000;
	cfg.think_ns[0] = 200 * 1000;
	cfg.think_cap = 10;
	assert_int_equal(runner_run(&cfg, &out), 0);
	assert_int_equal(out.status, RUNNER_COMPLETE);
	assert_int_equal(seen.sample_events, 500);
}

/*
 * --rate=R offers R transactions per second in total, whatever the number of
 * event loops (each loop's scheduler gets R / loops): a 1 s run at R = 4,000
 * on the null driver's event-loop path, with 1 and with 4 loops. The
 * arrivals due by the last interval's end, t seconds after the start (the
 * schedulers' clock start), are the transactions taken (the sample's events)
 * plus those still queued then (the interval's queue length), give or take
 * one per connection racing the stop: their count is Poisson with mean R x t.
 * The check: within 4.5 standard deviations (sqrt(R x t), about 63), widened
 * by the 8 connections. A correct build fails it with a chance below 1e-5
 * per run (normal tail 6.8e-6 at 4.5 sd, the Poisson's skew at a mean of
 * 4,000 adds less than a tenth of that; two runs). Four loops each at R
 * would offer 16,000 per second; one loop at R / 4, 1,000.
 */
static void test_rate_total_over_loops(void **state)
{
	static const unsigned loops[] = {1, 4};

	(void)state;
	for (unsigned i = 0; i < 2; i++) {
		struct runner_config cfg;
		struct db_conn_params cp;
		struct runner_outcome out;
		struct seen seen;
		double want, got, sd;

		base(&cfg, &cp, &seen, "null:poll;kinds");
		cfg.threads = 8;
		cfg.event_loops = loops[i];
		cfg.events = 0;
		cfg.time_ns = NS_PER_SEC;
		cfg.rate = 4000;
		assert_int_equal(runner_run(&cfg, &out), 0);
		assert_int_equal(out.status, RUNNER_COMPLETE);
		want = cfg.rate * seen.last_t;
		got = (double)(seen.sample_events + seen.last_queue_length);
		sd = sqrt(want);
		if (fabs(got - want) > 4.5 * sd + cfg.threads)
			fprintf(stderr, "%u loops: %.0f arrivals in %.3f s, expected %.0f +- %.0f\n", loops[i], got,
				seen.last_t, want, 4.5 * sd + cfg.threads);
		assert_true(seen.last_t >= 1);
		assert_true(fabs(got - want) <= 4.5 * sd + cfg.threads);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closed_loop_to_event_limit),
		cmocka_unit_test(test_dry_run),
		cmocka_unit_test(test_retries_and_reconnects),
		cmocka_unit_test(test_fatal_error_fails_the_run),
		cmocka_unit_test(test_refused_connection),
		cmocka_unit_test(test_terminals_share_connections),
		cmocka_unit_test(test_rate_total_over_loops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
