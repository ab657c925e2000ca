/*
 * One connection's life: connect (driver + workload session), the statement
 * state machine over the driver's non-blocking calls (or blocking ones on a
 * thread of its own), the retry / reconnect / fatal decision on a classified
 * error, and the recording of each finished transaction into its loop's span.
 */
#include "runner/internal.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/units.h"

#include <errno.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

const char *runner_endpoint(const struct runner_config *cfg, char *buf, size_t n)
{
	if (cfg->drv->describe)
		cfg->drv->describe(cfg->conn, buf, n);
	else
		snprintf(buf, n, "the %s server", cfg->drv->name);
	return buf;
}

static void ep_set(struct session *s, uint32_t want)
{
	struct epoll_event ev = {.events = want, .data.ptr = s};
	struct loop *l = s->loop;

	if (l->blocking || s->ep_events == want)
		return;
	if (want == 0) {
		epoll_ctl(l->epfd, EPOLL_CTL_DEL, s->fd, NULL);
	} else if (s->ep_events == 0) {
		if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, s->fd, &ev) < 0)
			runner_fail(l->r, "epoll_ctl: %s", strerror(errno));
	} else {
		epoll_ctl(l->epfd, EPOLL_CTL_MOD, s->fd, &ev);
	}
	s->ep_events = want;
}

static void ep_wait_for(struct session *s, int wait)
{
	uint32_t want = EPOLLIN;

	if (wait & DB_WAIT_WRITE)
		want |= EPOLLOUT;
	ep_set(s, want);
}

int session_connect(struct session *s)
{
	struct runner *r = s->loop->r;
	const struct runner_config *cfg = r->cfg;

	s->conn.ops = cfg->drv;
	s->conn.priv = NULL;
	/* A bounded number of connects (and their statement preparation) at a
	 * time: thousands of sessions must not stampede the server. */
	while (sem_wait(&r->connect_slots) < 0 && errno == EINTR)
		;
	if (cfg->drv->connect(&s->conn, cfg->conn) < 0)
		goto fail;
	if (cfg->wl->session_open(cfg->wl_ctx, &s->conn, s->index, &s->wsess) < 0)
		goto fail;
	sem_post(&r->connect_slots);
	s->connected = true;
	s->fd = (!s->loop->blocking && cfg->drv->fd) ? cfg->drv->fd(&s->conn) : -1;
	s->ep_events = 0;
	if (!s->loop->blocking)
		ep_set(s, EPOLLIN);
	return 0;
fail:
	if (s->wsess) {
		cfg->wl->session_close(s->wsess);
		s->wsess = NULL;
	}
	cfg->drv->disconnect(&s->conn);
	sem_post(&r->connect_slots);
	return -1;
}

void session_disconnect(struct session *s)
{
	const struct runner_config *cfg = s->loop->r->cfg;

	if (s->ep_events)
		ep_set(s, 0);
	if (s->wsess) {
		cfg->wl->session_close(s->wsess);
		s->wsess = NULL;
	}
	if (s->connected || s->conn.priv)
		cfg->drv->disconnect(&s->conn);
	s->connected = false;
	s->fd = -1;
}

/* The span of the phase in progress; the caller holds l->rec->mu. */
static struct span_stats *cur_span(struct loop *l)
{
	return &l->rec->cur[atomic_load(&l->r->phase)];
}

static void flush_pending(struct session *s)
{
	struct loop *l = s->loop;

	pthread_mutex_lock(&l->rec->mu);
	counters_add(&cur_span(l)->c, &s->pending);
	pthread_mutex_unlock(&l->rec->mu);
	memset(&s->pending, 0, sizeof(s->pending));
}

static void record_txn(struct session *s, bool rolled_back)
{
	struct loop *l = s->loop;
	const struct runner_config *cfg = l->r->cfg;
	uint64_t now = clock_now_ns();
	uint64_t lat = now - s->txn_start;
	unsigned type = cfg->ntypes > 1 ? cfg->wl->txn_type(s->wsess) : 0;
	struct span_stats *cur;
	int ph;

	if (type >= cfg->ntypes)
		type = 0;
	s->pending.events++;
	if (rolled_back)
		s->pending.rollbacks++;
	if (cfg->rate > 0)
		atomic_fetch_sub_explicit(&l->r->concurrency, 1, memory_order_relaxed);
	pthread_mutex_lock(&l->rec->mu);
	ph = atomic_load(&l->r->phase);
	cur = &l->rec->cur[ph];
	s->events[ph]++;
	s->busy_ns[ph] += lat;
	if (now > l->rec->last_done)
		l->rec->last_done = now;
	counters_add(&cur->c, &s->pending);
	hist_record(cur->lat, lat);
	if (cur->type_lat[type])
		hist_record(cur->type_lat[type], lat);
	cur->type_count[type]++;
	cur->type_rt[type] += s->rt;
	cur->round_trips += s->rt;
	if (cfg->terminals) {
		hist_record(cur->wait, s->wait_ns);
		cur->type_wait_ns[type] += s->wait_ns;
		cur->queued_ns += s->queued_add;
	}
	pthread_mutex_unlock(&l->rec->mu);
	if (cfg->wl->txn_recorded)
		cfg->wl->txn_recorded(s->wsess, (unsigned)ph, lat, s->term && s->term->job);
	s->rt = 0;
	memset(&s->pending, 0, sizeof(s->pending));
	s->in_txn = false;
	s->freed = now;
	if (cfg->terminals)
		term_complete(s, now);
}

static void count_query(struct session *s)
{
	switch (s->res.kind) {
	case DB_QUERY_READ:
		s->pending.reads++;
		break;
	case DB_QUERY_WRITE:
		s->pending.writes++;
		break;
	case DB_QUERY_OTHER:
		s->pending.others++;
		break;
	}
}

void session_finish(struct session *s)
{
	if (s->state == S_DONE)
		return;
	if (s->state == S_RECONNECT || s->state == S_BACKOFF) {
		if (s->state == S_RECONNECT) {
			unsigned long long cur = atomic_load(&s->loop->r->lost_since);
			while ((cur == 0 || s->reconnect_since < cur) &&
			       !atomic_compare_exchange_weak(&s->loop->r->lost_since, &cur, s->reconnect_since))
				;
		}
		s->loop->timers--;
	}
	flush_pending(s);
	s->state = S_DONE;
	if (s->ep_events)
		ep_set(s, 0);
	s->loop->active--;
}

bool session_take_arrival(struct session *s, uint64_t *next)
{
	struct runner *r = s->loop->r;

	switch (rate_take(s->loop->rate, clock_now_ns(), next)) {
	case RATE_ARRIVAL:
		atomic_fetch_add_explicit(&r->concurrency, 1, memory_order_relaxed);
		return true;
	case RATE_NONE:
		return false;
	case RATE_OVERFLOW:
		runner_fail(r, "%s", RATE_OVERFLOW_MESSAGE);
		return false;
	}
	return false;
}

static bool may_start_txn(struct session *s)
{
	struct runner *r = s->loop->r;

	if (atomic_load_explicit(&r->stop, memory_order_relaxed))
		return false;
	if (r->cfg->events && atomic_load_explicit(&r->phase, memory_order_relaxed) == PHASE_SAMPLE) {
		if (atomic_fetch_sub(&r->events_left, 1) <= 0)
			return false;
	}
	return true;
}

static void begin_reconnect(struct session *s)
{
	uint64_t now = clock_now_ns();

	/* Counted now, not with the transaction's other counters when it
	 * commits: the interval in which the connection was lost is the one
	 * the fault belongs to (a server may stay away for many intervals). */
	pthread_mutex_lock(&s->loop->rec->mu);
	cur_span(s->loop)->c.reconnects++;
	pthread_mutex_unlock(&s->loop->rec->mu);
	session_disconnect(s);
	if (s->state != S_RECONNECT) {
		s->loop->timers++;
		s->reconnect_since = now;
		s->backoff = 0;
		runner_outage_begin(s->loop->r, now);
	}
	s->state = S_RECONNECT;
	s->reconnect_at = now + s->backoff;
}

/* The transaction was rolled back: run it again now, or after a backoff. */
static void retry_later(struct session *s)
{
	const struct runner_config *cfg = s->loop->r->cfg;
	uint64_t b;

	s->state = S_START; /* in_txn stays set: the retry keeps txn_start */
	if (!cfg->retry_backoff_ns || s->attempts == 0)
		return;
	b = cfg->retry_backoff_ns << (s->attempts - 1 < 6 ? s->attempts - 1 : 6);
	s->retry_at = clock_now_ns() + b / 2 + (uint64_t)(rng_double(&s->rng) * (double)(b / 2));
	s->state = S_BACKOFF;
	s->loop->timers++;
}

/* Called for a failed step: decide between retry, reconnect and stop. */
static void handle_error(struct session *s)
{
	struct runner *r = s->loop->r;
	const struct runner_config *cfg = r->cfg;
	char ep[256];

	switch (s->conn.err.cls) {
	case DB_ERR_RETRY: {
		int wait = 0;
		int rc;
		unsigned type = cfg->ntypes > 1 ? cfg->wl->txn_type(s->wsess) : 0;
		if (type >= cfg->ntypes)
			type = 0;
		s->pending.errors++;
		s->attempts++;
		pthread_mutex_lock(&s->loop->rec->mu);
		cur_span(s->loop)->type_retries[type]++;
		if ((unsigned)s->conn.err.retry < DB_RETRY_KINDS)
			cur_span(s->loop)->retry_kind[s->conn.err.retry]++;
		pthread_mutex_unlock(&s->loop->rec->mu);
		if (cfg->max_retries && s->attempts > cfg->max_retries) {
			runner_fail(r, "%s: a %s transaction failed %u times in a row (--max-retries=%u); the last error %d (%s): %s",
				 runner_endpoint(cfg, ep, sizeof(ep)), cfg->type_names ? cfg->type_names[type] : "workload's",
				 s->attempts, cfg->max_retries, s->conn.err.native, s->conn.err.sqlstate, s->conn.err.msg);
			session_finish(s);
			return;
		}
		if (cfg->max_retries && atomic_load_explicit(&r->stop, memory_order_relaxed)) {
			session_finish(s); /* the run is over: not run again */
			return;
		}
		cfg->wl->restart(s->wsess);
		s->rt++; /* the rollback */
		if (s->loop->blocking || !cfg->drv->query_start) {
			rc = cfg->drv->rollback(&s->conn);
		} else {
			rc = cfg->drv->query_start(&s->conn, "ROLLBACK", 8, &s->res, &wait);
			if (rc == 1) {
				s->state = S_WAIT_ROLLBACK;
				ep_wait_for(s, wait);
				return;
			}
		}
		if (rc < 0) {
			handle_error(s);
			return;
		}
		retry_later(s);
		return;
	}
	case DB_ERR_RECONNECT:
		if (log_verbosity() >= 4)
			log_info("connection %u lost (%d: %s); reconnecting", s->index, s->conn.err.native, s->conn.err.msg);
		cfg->wl->restart(s->wsess);
		begin_reconnect(s);
		return;
	case DB_ERR_FATAL:
	case DB_ERR_NONE:
		runner_fail(r, "%s: error %d (%s): %s", runner_endpoint(cfg, ep, sizeof(ep)), s->conn.err.native,
			 s->conn.err.sqlstate, s->conn.err.msg);
		session_finish(s);
		return;
	}
}

static void try_reconnect(struct session *s)
{
	struct runner *r = s->loop->r;
	const struct runner_config *cfg = r->cfg;
	uint64_t now = clock_now_ns();
	char ep[256];

	if (atomic_load(&r->stop)) {
		session_finish(s);
		return;
	}
	if (session_connect(s) == 0) {
		s->loop->timers--;
		s->state = S_START;
		runner_outage_end(r, clock_now_ns());
		return;
	}
	if (s->conn.err.cls != DB_ERR_RECONNECT || now - s->reconnect_since >= cfg->reconnect_timeout_ns) {
		char waited[32];
		format_duration(cfg->reconnect_timeout_ns, waited, sizeof(waited));
		runner_fail(r, "%s: connection lost and not re-established within %s (--reconnect-timeout): error %d: %s",
			 runner_endpoint(cfg, ep, sizeof(ep)), waited, s->conn.err.native, s->conn.err.msg);
		session_finish(s);
		return;
	}
	s->backoff = s->backoff ? s->backoff * 2 : RECONNECT_BACKOFF_MIN_NS;
	if (s->backoff > RECONNECT_BACKOFF_MAX_NS)
		s->backoff = RECONNECT_BACKOFF_MAX_NS;
	s->reconnect_at = now + s->backoff;
}

/* Issue steps until one has to wait (or the transaction ends). `ready` is
 * the readiness that woke the session (0 when not woken by its fd). */
/* What starting a transaction came to: one began, the session stopped or
 * parked (session_run returns), or an arrival is not due yet (look again). */
enum take { TAKE_GO, TAKE_STOP, TAKE_AGAIN };

/* A terminal's next due transaction (TPC-C): from the session's own backlog
 * (one session per terminal) or the loop's schedule (a pool). */
static enum take take_terminal(struct session *s)
{
	const struct runner_config *cfg = s->loop->r->cfg;
	struct term *t;
	if (atomic_load_explicit(&s->loop->r->stop, memory_order_relaxed)) {
		session_finish(s);
		return TAKE_STOP;
	}
	uint64_t now = clock_now_ns(), queued = 0;
	if (cfg->session_per_terminal && !s->loop->blocking) {
		t = backlog_pop(s);
		if (t && !s->woken)
			queued = runner_queue_credit(t->due, s->busy_since, &s->covered, s->freed);
		s->busy_since = now;
	} else {
		t = sched_take(s->loop->r, s->loop->sched, s->loop->blocking,
			       !s->woken && s->loop->nidle == 0, s->freed, &queued);
	}
	s->woken = false;
	if (!t && !s->loop->blocking &&
	    !atomic_load_explicit(&s->loop->r->stop, memory_order_relaxed)) {
		/* Parked until a terminal is due: any of the loop's
		 * (pool), or its own (bound: handed by the loop). */
		s->idle = true;
		if (!cfg->session_per_terminal)
			s->loop->idle[s->loop->nidle++] = s;
		return TAKE_STOP;
	}
	if (!t || !may_start_txn(s)) {
		if (t && cfg->session_per_terminal) {
			if (t->job) /* nobody else would run it */
				free(t);
		} else if (t) {
			sched_push(s->loop->sched, t);
		}
		session_finish(s);
		return TAKE_STOP;
	}
	s->term = t;
	s->attempts = 0;
	s->rt = 0;
	s->in_txn = true;
	s->txn_start = t->due; /* the submit: waiting for a connection counts */
	s->wait_ns = now > t->due ? now - t->due : 0;
	s->queued_add = queued;
	return TAKE_GO;
}

/* The next transaction of a closed loop, or the oldest due arrival of --rate. */
static enum take take_arrival(struct session *s)
{
	const struct runner_config *cfg = s->loop->r->cfg;
	uint64_t start = 0;
	if (cfg->rate > 0) {
		/* Open loop: the oldest due arrival; its
		 * latency runs from when it arrived. */
		struct runner *r = s->loop->r;
		if (atomic_load_explicit(&r->stop, memory_order_relaxed)) {
			session_finish(s);
			return TAKE_STOP;
		}
		if (!session_take_arrival(s, &start)) {
			if (atomic_load(&r->stop)) {
				session_finish(s);
				return TAKE_STOP;
			}
			if (!s->loop->blocking) {
				s->idle = true;
				s->loop->idle[s->loop->nidle++] = s;
				return TAKE_STOP;
			}
			uint64_t now = clock_now_ns(), until = now + 100 * NS_PER_MS;
			clock_sleep_until(start < until ? start : until);
			return TAKE_AGAIN;
		}
	}
	if (!may_start_txn(s)) {
		if (cfg->rate > 0)
			atomic_fetch_sub(&s->loop->r->concurrency, 1);
		session_finish(s);
		return TAKE_STOP;
	}
	s->attempts = 0;
	s->rt = 0;
	s->in_txn = true;
	s->txn_start = cfg->rate > 0 ? start : clock_now_ns();
	return TAKE_GO;
}

/*
 * Send a step to the server: commit or rollback, a prepared statement or a
 * query, blocking or started on the connector's non-blocking API. Returns <0
 * on error, 0 when done, 1 while a started step waits for the socket (*wait:
 * what for).
 */
static int issue_step(struct session *s, const struct wl_step *step, int *wait)
{
	const struct db_driver_ops *drv = s->loop->r->cfg->drv;

	int rc;

	if (step->kind != WL_STEP_SQL && (s->loop->blocking || !drv->query_start)) {
		rc = step->kind == WL_STEP_COMMIT ? drv->commit(&s->conn) : drv->rollback(&s->conn);
		s->res.kind = DB_QUERY_OTHER;
		s->res.rows = 0;
		return rc < 0 ? rc : 0; /* a blocking call never waits */
	}
	if (step->kind != WL_STEP_SQL) {
		bool commit = step->kind == WL_STEP_COMMIT;
		return drv->query_start(&s->conn, commit ? "COMMIT" : "ROLLBACK", commit ? 6 : 8, &s->res, wait);
	}
	if (s->loop->blocking || !drv->execute_start) {
		rc = step->stmt ? drv->execute(&s->conn, step->stmt, step->params, &s->res)
				: drv->query(&s->conn, step->sql, step->sql_len, &s->res);
		return rc < 0 ? rc : 0;
	}
	return step->stmt ? drv->execute_start(&s->conn, step->stmt, step->params, &s->res, wait)
			  : drv->query_start(&s->conn, step->sql, step->sql_len, &s->res, wait);
}

/*
 * Asks the workload for the next step and issues it, *last being the result handed to next() and then the one for
 * its next call; false when session_run is to return (the session waits on the server, or is no longer starting).
 */
static bool next_step(struct session *s, const struct db_exec_result **last, int *wait)
{
	const struct runner_config *cfg = s->loop->r->cfg;
	const struct wl_step *step = NULL;
	int rc;

	/* Ask the workload for the next step (or the end of the transaction). */
	rc = cfg->wl->next(s->wsess, &s->rng, *last, &step);
	*last = NULL;
	if (rc < 0) {
		handle_error(s);
		if (s->state != S_START)
			return false;
		return true;
	}
	if (rc == WL_DONE || rc == WL_DONE_ROLLBACK) {
		record_txn(s, rc == WL_DONE_ROLLBACK);
		return true;
	}
	s->rt++; /* this step goes to the server */
	rc = issue_step(s, step, wait);
	if (rc == 1) {
		s->state = S_WAIT_EXEC;
		ep_wait_for(s, *wait);
		return false;
	}
	if (rc < 0) {
		handle_error(s);
		if (s->state != S_START)
			return false;
		return true;
	}
	/* Completed without waiting: hand the result straight to next(). */
	count_query(s);
	*last = &s->res;
	return true;
}

void session_run(struct session *s, int ready)
{
	const struct runner_config *cfg = s->loop->r->cfg;
	const struct db_driver_ops *drv = cfg->drv;
	const struct db_exec_result *last = NULL;

	for (;;) {
		int rc, wait = 0;

		switch (s->state) {
		case S_DONE:
			return;
		case S_RECONNECT:
			if (clock_now_ns() < s->reconnect_at)
				return;
			try_reconnect(s);
			if (s->state != S_START)
				return;
			last = NULL;
			continue;
		case S_WAIT_ROLLBACK:
			rc = drv->cont(&s->conn, ready, &wait);
			if (rc == 1) {
				ep_wait_for(s, wait);
				return;
			}
			last = NULL;
			if (rc < 0) {
				handle_error(s);
				if (s->state != S_START)
					return;
				continue;
			}
			retry_later(s);
			if (s->state != S_START)
				return;
			continue;
		case S_BACKOFF:
			if (clock_now_ns() < s->retry_at)
				return;
			s->loop->timers--;
			s->state = S_START;
			last = NULL;
			continue;
		case S_WAIT_EXEC:
			rc = drv->cont(&s->conn, ready, &wait);
			if (rc == 1) {
				ep_wait_for(s, wait);
				return;
			}
			s->state = S_START;
			if (rc < 0) {
				last = NULL;
				handle_error(s);
				if (s->state != S_START)
					return;
				continue;
			}
			count_query(s);
			last = &s->res;
			break;
		case S_START:
			if (!s->in_txn) {
				enum take k = cfg->terminals ? take_terminal(s) : take_arrival(s);
				if (k == TAKE_STOP)
					return;
				if (k == TAKE_AGAIN)
					continue;
				last = NULL;
			}
			if (s->term && last == NULL)
				cfg->wl->bind_term(s->wsess, s->term->wl, s->term->type);
			break;
		}

		if (!next_step(s, &last, &wait))
			return;
	}
}
