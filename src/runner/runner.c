/*
 * Event-loop runner. Each loop thread owns a slice of the connections
 * ("sessions") and an epoll set; every session runs the workload's state
 * machine, issuing one statement at a time with the driver's non-blocking
 * calls, so --threads connections need only a few OS threads and no
 * per-statement thread switch. Drivers without non-blocking calls get one
 * loop thread per session that simply blocks in execute().
 *
 * Recording is per loop thread (counters + histograms under a mutex taken
 * once per transaction, never contended except by the reporter's drain); the
 * main thread drains all loops at every interval tick and phase boundary.
 *
 * Terminals (TPC-C): a terminal is a few dozen bytes, not a connection. Each
 * scheduler holds its terminals in a min-heap keyed by the time of their next
 * submit; the heap is the timer list and, for terminals already due, the
 * ready queue (oldest submit first). A free connection takes the top terminal
 * once it is due, runs its transaction, and puts it back with its next submit
 * time (think, menu, keying). Event loops each own a scheduler and a share of
 * the terminals (no locking between loops); blocking connections (ODBC) share
 * one scheduler and sleep on its condition variable. Deferred transactions
 * (Delivery) become jobs: a copy of the terminal's state pushed into the same
 * heap at its submit time, freed after it ran, while the terminal goes on.
 */
#include "runner/runner.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#define RECONNECT_BACKOFF_MIN_NS (10 * NS_PER_MS)
#define RECONNECT_BACKOFF_MAX_NS (1000 * NS_PER_MS)
#define LOOP_TICK_MS 100

struct term {
	uint64_t due;       /* submit time (heap key) */
	unsigned type;      /* transaction type of the pending submit */
	bool job;           /* a deferred job: freed after it ran */
	struct rng rng;
	void *wl;           /* workload state, term_size bytes */
};

struct sched {
	pthread_mutex_t mu;
	pthread_cond_t cv;  /* blocking connections wait here for a due terminal */
	struct term **heap;
	size_t n, cap;
};

enum sess_state {
	S_START,         /* between transactions */
	S_WAIT_EXEC,     /* a statement is in flight */
	S_WAIT_ROLLBACK, /* rolling back before a retry */
	S_RECONNECT,     /* waiting to try connecting again */
	S_DONE,
};

struct runner;
struct loop;

struct session {
	struct loop *loop;
	unsigned index;
	struct db_conn conn;
	bool connected;
	void *wsess;
	struct rng rng;
	enum sess_state state;
	int fd;
	uint32_t ep_events;  /* what the fd is registered for (0 = not registered) */
	uint64_t txn_start;  /* first attempt of the transaction in progress */
	bool in_txn;
	struct db_exec_result res;
	struct counters pending; /* query and error counts not yet handed to the loop */
	uint64_t reconnect_since;
	uint64_t reconnect_at;
	uint64_t backoff;
	uint64_t events[PHASE_COUNT];
	uint64_t busy_ns[PHASE_COUNT];
	struct term *term;   /* terminal (or job) whose transaction runs here */
	bool idle;           /* parked: no terminal due */
};

struct loop {
	struct runner *r;
	pthread_t th;
	int epfd;
	struct session **sess;
	unsigned n;
	unsigned active;
	unsigned timers;     /* sessions in S_RECONNECT */
	bool blocking;
	pthread_mutex_t mu;
	struct span_stats cur; /* guarded by mu */
	struct sched *sched;   /* terminal mode */
	struct session **idle; /* sessions parked without a due terminal */
	unsigned nidle;
};

struct runner {
	const struct runner_config *cfg;
	struct loop *loops;
	unsigned nloops;
	struct session *sessions;
	atomic_int stop;
	atomic_int phase;
	atomic_llong events_left; /* sample-phase event budget (when limited) */
	atomic_uint ready;       /* loops that finished connecting */
	atomic_uint finished;    /* loops whose sessions are all done */
	atomic_int failed;
	pthread_mutex_t mu;      /* guards error, start gate */
	pthread_cond_t cv;
	bool go;
	char error[768];
	struct sched *scheds;
	unsigned nscheds;
	struct term *terms;
	unsigned char *term_wl;
};

const char *phase_name(enum phase_kind p)
{
	switch (p) {
	case PHASE_PRECONDITION:
		return "precondition";
	case PHASE_SAMPLE:
		return "sample";
	}
	return "?";
}

static int span_init(struct span_stats *s, unsigned ntypes)
{
	memset(s, 0, sizeof(*s));
	if (hist_init(&s->lat) < 0)
		return -1;
	for (unsigned i = 0; i < ntypes && ntypes > 1; i++)
		if (hist_init(&s->type_lat[i]) < 0)
			return -1;
	return 0;
}

static void span_free(struct span_stats *s)
{
	hist_close(s->lat);
	for (unsigned i = 0; i < RUNNER_MAX_TYPES; i++)
		hist_close(s->type_lat[i]);
	memset(s, 0, sizeof(*s));
}

static void span_reset(struct span_stats *s)
{
	memset(&s->c, 0, sizeof(s->c));
	hist_reset(s->lat);
	for (unsigned i = 0; i < RUNNER_MAX_TYPES; i++) {
		if (s->type_lat[i])
			hist_reset(s->type_lat[i]);
		s->type_count[i] = 0;
	}
}

static void span_add(struct span_stats *d, const struct span_stats *s)
{
	counters_add(&d->c, &s->c);
	hist_add(d->lat, s->lat);
	for (unsigned i = 0; i < RUNNER_MAX_TYPES; i++) {
		if (d->type_lat[i] && s->type_lat[i])
			hist_add(d->type_lat[i], s->type_lat[i]);
		d->type_count[i] += s->type_count[i];
	}
}

static void fail_run(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_run(struct runner *r, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&r->mu);
	if (!atomic_load(&r->failed)) {
		va_start(ap, fmt);
		vsnprintf(r->error, sizeof(r->error), fmt, ap);
		va_end(ap);
		atomic_store(&r->failed, 1);
	}
	pthread_mutex_unlock(&r->mu);
	atomic_store(&r->stop, 1);
}

static const char *endpoint(const struct db_conn_params *p, char *buf, size_t n)
{
	if (p->odbc_connect)
		snprintf(buf, n, "the ODBC data source");
	else if (p->socket && *p->socket)
		snprintf(buf, n, "%s", p->socket);
	else
		snprintf(buf, n, "%s:%u", p->host ? p->host : "localhost", p->port);
	return buf;
}

/* --- terminal scheduling --- */

uint64_t runner_think_ns(struct rng *r, uint64_t mean_ns, double cap)
{
	double t;

	if (mean_ns == 0)
		return 0;
	t = rng_exponential(r, (double)mean_ns);
	if (cap > 0 && t > cap * (double)mean_ns)
		t = cap * (double)mean_ns;
	return (uint64_t)t;
}

static void heap_swap(struct sched *sc, size_t a, size_t b)
{
	struct term *t = sc->heap[a];

	sc->heap[a] = sc->heap[b];
	sc->heap[b] = t;
}

static void sched_push_locked(struct sched *sc, struct term *t)
{
	size_t i;

	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? sc->cap * 2 : 64;
		sc->heap = xrealloc(sc->heap, sc->cap * sizeof(*sc->heap));
	}
	i = sc->n++;
	sc->heap[i] = t;
	while (i > 0 && sc->heap[(i - 1) / 2]->due > sc->heap[i]->due) {
		heap_swap(sc, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static struct term *sched_pop_locked(struct sched *sc)
{
	struct term *top = sc->heap[0];
	size_t i = 0;

	sc->heap[0] = sc->heap[--sc->n];
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < sc->n && sc->heap[l]->due < sc->heap[m]->due)
			m = l;
		if (l + 1 < sc->n && sc->heap[l + 1]->due < sc->heap[m]->due)
			m = l + 1;
		if (m == i)
			break;
		heap_swap(sc, i, m);
		i = m;
	}
	return top;
}

static void sched_push(struct sched *sc, struct term *t)
{
	pthread_mutex_lock(&sc->mu);
	sched_push_locked(sc, t);
	if (sc->heap[0] == t)
		pthread_cond_signal(&sc->cv);
	pthread_mutex_unlock(&sc->mu);
}

static uint64_t sched_top_due(struct sched *sc)
{
	uint64_t due;

	pthread_mutex_lock(&sc->mu);
	due = sc->n ? sc->heap[0]->due : UINT64_MAX;
	pthread_mutex_unlock(&sc->mu);
	return due;
}

/* The oldest due terminal, or NULL. With `wait`, sleep until one is due or
 * the run stops. */
static struct term *sched_take(struct runner *r, struct sched *sc, bool wait)
{
	struct term *t = NULL;

	pthread_mutex_lock(&sc->mu);
	for (;;) {
		uint64_t now, until;
		struct timespec ts;
		if (atomic_load_explicit(&r->stop, memory_order_relaxed))
			break;
		now = clock_now_ns();
		if (sc->n && sc->heap[0]->due <= now) {
			t = sched_pop_locked(sc);
			break;
		}
		if (!wait)
			break;
		until = now + 100 * NS_PER_MS;
		if (sc->n && sc->heap[0]->due < until)
			until = sc->heap[0]->due;
		ts.tv_sec = (time_t)(until / NS_PER_SEC);
		ts.tv_nsec = (long)(until % NS_PER_SEC);
		pthread_cond_timedwait(&sc->cv, &sc->mu, &ts);
	}
	/* Another waiter may be able to take the next one right away. */
	if (t && sc->n && sc->heap[0]->due <= clock_now_ns())
		pthread_cond_signal(&sc->cv);
	pthread_mutex_unlock(&sc->mu);
	return t;
}

static bool deferred(const struct runner_config *cfg, unsigned type)
{
	return cfg->wl->type_deferred && cfg->wl->type_deferred(cfg->wl_ctx, type);
}

/* The terminal shows its menu at `at`: pick the next type, key it, submit.
 * Deferred types are queued as jobs and the terminal carries on. */
static void term_cycle(const struct runner_config *cfg, struct sched *sc, struct term *t, uint64_t at)
{
	for (;;) {
		struct term *job;
		t->type = cfg->wl->term_next(cfg->wl_ctx, t->wl, &t->rng);
		if (t->type >= RUNNER_MAX_TYPES)
			t->type = 0;
		at += cfg->keying_ns[t->type];
		if (!deferred(cfg, t->type))
			break;
		job = xmalloc(sizeof(*job) + cfg->wl->term_size);
		*job = *t;
		job->job = true;
		job->due = at;
		job->wl = job + 1;
		memcpy(job->wl, t->wl, cfg->wl->term_size);
		sched_push(sc, job);
		/* The terminal gets its "queued" response at once and thinks. */
		at += runner_think_ns(&t->rng, cfg->think_ns[t->type], cfg->think_cap);
	}
	t->due = at;
	sched_push(sc, t);
}

static void term_complete(struct session *s, uint64_t now)
{
	const struct runner_config *cfg = s->loop->r->cfg;
	struct term *t = s->term;

	s->term = NULL;
	if (!t)
		return;
	if (t->job) {
		free(t);
		return;
	}
	term_cycle(cfg, s->loop->sched, t,
		   now + runner_think_ns(&t->rng, cfg->think_ns[t->type], cfg->think_cap));
}

static void sched_free(struct sched *sc)
{
	for (size_t i = 0; i < sc->n; i++)
		if (sc->heap[i]->job)
			free(sc->heap[i]);
	free(sc->heap);
	pthread_mutex_destroy(&sc->mu);
	pthread_cond_destroy(&sc->cv);
}

/* --- epoll registration --- */

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
			fail_run(l->r, "epoll_ctl: %s", strerror(errno));
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

/* --- connection life --- */

static int session_connect(struct session *s)
{
	struct runner *r = s->loop->r;
	const struct runner_config *cfg = r->cfg;

	s->conn.ops = cfg->drv;
	s->conn.priv = NULL;
	if (cfg->drv->connect(&s->conn, cfg->conn) < 0)
		goto fail;
	if (cfg->wl->session_open(cfg->wl_ctx, &s->conn, s->index, &s->wsess) < 0)
		goto fail;
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
	return -1;
}

static void session_disconnect(struct session *s)
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

/* --- recording --- */

static void flush_pending(struct session *s)
{
	struct loop *l = s->loop;

	pthread_mutex_lock(&l->mu);
	counters_add(&l->cur.c, &s->pending);
	pthread_mutex_unlock(&l->mu);
	memset(&s->pending, 0, sizeof(s->pending));
}

static void record_txn(struct session *s, bool rolled_back)
{
	struct loop *l = s->loop;
	const struct runner_config *cfg = l->r->cfg;
	uint64_t now = clock_now_ns();
	uint64_t lat = now - s->txn_start;
	unsigned type = cfg->ntypes > 1 ? cfg->wl->txn_type(s->wsess) : 0;
	int ph = atomic_load_explicit(&l->r->phase, memory_order_relaxed);

	if (type >= cfg->ntypes)
		type = 0;
	s->pending.events++;
	if (rolled_back)
		s->pending.rollbacks++;
	s->events[ph]++;
	s->busy_ns[ph] += lat;
	pthread_mutex_lock(&l->mu);
	counters_add(&l->cur.c, &s->pending);
	hist_record(l->cur.lat, lat);
	if (l->cur.type_lat[type])
		hist_record(l->cur.type_lat[type], lat);
	l->cur.type_count[type]++;
	pthread_mutex_unlock(&l->mu);
	memset(&s->pending, 0, sizeof(s->pending));
	s->in_txn = false;
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

/* --- the state machine --- */

static void session_run(struct session *s, int ready);

static void session_finish(struct session *s)
{
	if (s->state == S_DONE)
		return;
	if (s->state == S_RECONNECT)
		s->loop->timers--;
	flush_pending(s);
	s->state = S_DONE;
	if (s->ep_events)
		ep_set(s, 0);
	s->loop->active--;
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
	pthread_mutex_lock(&s->loop->mu);
	s->loop->cur.c.reconnects++;
	pthread_mutex_unlock(&s->loop->mu);
	session_disconnect(s);
	if (s->state != S_RECONNECT) {
		s->loop->timers++;
		s->reconnect_since = now;
		s->backoff = 0;
	}
	s->state = S_RECONNECT;
	s->reconnect_at = now + s->backoff;
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
		s->pending.errors++;
		cfg->wl->restart(s->wsess);
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
		s->state = S_START; /* in_txn stays set: the retry keeps txn_start */
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
		fail_run(r, "%s: error %d (%s): %s", endpoint(cfg->conn, ep, sizeof(ep)), s->conn.err.native,
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
		return;
	}
	if (s->conn.err.cls != DB_ERR_RECONNECT || now - s->reconnect_since >= cfg->reconnect_timeout_ns) {
		char waited[32];
		format_duration(cfg->reconnect_timeout_ns, waited, sizeof(waited));
		fail_run(r, "%s: connection lost and not re-established within %s (--reconnect-timeout): error %d: %s",
			 endpoint(cfg->conn, ep, sizeof(ep)), waited, s->conn.err.native, s->conn.err.msg);
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
static void session_run(struct session *s, int ready)
{
	const struct runner_config *cfg = s->loop->r->cfg;
	const struct db_driver_ops *drv = cfg->drv;
	const struct db_exec_result *last = NULL;

	for (;;) {
		const struct wl_step *step = NULL;
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
			s->state = S_START;
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
			if (!s->in_txn && cfg->terminals) {
				struct term *t;
				if (atomic_load_explicit(&s->loop->r->stop, memory_order_relaxed)) {
					session_finish(s);
					return;
				}
				t = sched_take(s->loop->r, s->loop->sched, s->loop->blocking);
				if (!t && !s->loop->blocking &&
				    !atomic_load_explicit(&s->loop->r->stop, memory_order_relaxed)) {
					s->idle = true;
					s->loop->idle[s->loop->nidle++] = s;
					return;
				}
				if (!t || !may_start_txn(s)) {
					if (t)
						sched_push(s->loop->sched, t);
					session_finish(s);
					return;
				}
				s->term = t;
				s->in_txn = true;
				s->txn_start = t->due; /* the submit: waiting for a connection counts */
				last = NULL;
			} else if (!s->in_txn) {
				if (!may_start_txn(s)) {
					session_finish(s);
					return;
				}
				s->in_txn = true;
				s->txn_start = clock_now_ns();
				last = NULL;
			}
			if (s->term && last == NULL)
				cfg->wl->bind_term(s->wsess, s->term->wl, s->term->type);
			break;
		}

		/* Ask the workload for the next step (or the end of the transaction). */
		rc = cfg->wl->next(s->wsess, &s->rng, last, &step);
		last = NULL;
		if (rc < 0) {
			handle_error(s);
			if (s->state != S_START)
				return;
			continue;
		}
		if (rc == WL_DONE || rc == WL_DONE_ROLLBACK) {
			record_txn(s, rc == WL_DONE_ROLLBACK);
			continue;
		}
		if (step->kind != WL_STEP_SQL && (s->loop->blocking || !drv->query_start)) {
			rc = step->kind == WL_STEP_COMMIT ? drv->commit(&s->conn) : drv->rollback(&s->conn);
			s->res.kind = DB_QUERY_OTHER;
			s->res.rows = 0;
		} else if (step->kind != WL_STEP_SQL) {
			bool commit = step->kind == WL_STEP_COMMIT;
			rc = drv->query_start(&s->conn, commit ? "COMMIT" : "ROLLBACK", commit ? 6 : 8, &s->res, &wait);
			if (rc == 1) {
				s->state = S_WAIT_EXEC;
				ep_wait_for(s, wait);
				return;
			}
		} else if (s->loop->blocking || !drv->execute_start) {
			rc = step->stmt ? drv->execute(&s->conn, step->stmt, step->params, &s->res)
					: drv->query(&s->conn, step->sql, step->sql_len, &s->res);
		} else {
			rc = step->stmt ? drv->execute_start(&s->conn, step->stmt, step->params, &s->res, &wait)
					: drv->query_start(&s->conn, step->sql, step->sql_len, &s->res, &wait);
			if (rc == 1) {
				s->state = S_WAIT_EXEC;
				ep_wait_for(s, wait);
				return;
			}
		}
		if (rc < 0) {
			handle_error(s);
			if (s->state != S_START)
				return;
			continue;
		}
		/* Completed without waiting: hand the result straight to next(). */
		count_query(s);
		last = &s->res;
	}
}

/* --- loop threads --- */

static int loop_timeout_ms(struct loop *l)
{
	uint64_t now, next = UINT64_MAX;

	if (l->nidle)
		next = sched_top_due(l->sched);
	if (!l->timers && next == UINT64_MAX)
		return LOOP_TICK_MS;
	now = clock_now_ns();
	for (unsigned i = 0; i < l->n; i++)
		if (l->sess[i]->state == S_RECONNECT && l->sess[i]->reconnect_at < next)
			next = l->sess[i]->reconnect_at;
	if (next <= now)
		return 0;
	if (next - now >= (uint64_t)LOOP_TICK_MS * NS_PER_MS)
		return LOOP_TICK_MS;
	return (int)((next - now + NS_PER_MS - 1) / NS_PER_MS);
}

/* Hand due terminals to parked sessions; a stop ends parked sessions. */
static void loop_wake_idle(struct loop *l)
{
	while (l->nidle) {
		struct session *s;
		if (!atomic_load_explicit(&l->r->stop, memory_order_relaxed) &&
		    sched_top_due(l->sched) > clock_now_ns())
			break;
		s = l->idle[--l->nidle];
		s->idle = false;
		session_run(s, 0);
	}
}

static void loop_serve(struct loop *l)
{
	struct epoll_event evs[64];

	for (unsigned i = 0; i < l->n; i++)
		session_run(l->sess[i], 0);
	while (l->active > 0) {
		int n = epoll_wait(l->epfd, evs, 64, loop_timeout_ms(l));
		if (n < 0 && errno != EINTR) {
			fail_run(l->r, "epoll_wait: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < n; i++) {
			struct session *s = evs[i].data.ptr;
			int ready = 0;
			if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
				ready |= DB_WAIT_READ;
			if (evs[i].events & EPOLLOUT)
				ready |= DB_WAIT_WRITE;
			if (s->state == S_WAIT_EXEC || s->state == S_WAIT_ROLLBACK)
				session_run(s, ready);
		}
		if (l->timers) {
			uint64_t now = clock_now_ns();
			for (unsigned i = 0; i < l->n; i++)
				if (l->sess[i]->state == S_RECONNECT && l->sess[i]->reconnect_at <= now)
					session_run(l->sess[i], 0);
		}
		loop_wake_idle(l);
		/* A stop request ends sessions parked in reconnect right away. */
		if (atomic_load_explicit(&l->r->stop, memory_order_relaxed) && l->timers)
			for (unsigned i = 0; i < l->n; i++)
				if (l->sess[i]->state == S_RECONNECT)
					session_finish(l->sess[i]);
	}
}

static void loop_serve_blocking(struct loop *l)
{
	struct session *s = l->sess[0];

	while (s->state != S_DONE) {
		if (s->state == S_RECONNECT) {
			uint64_t now = clock_now_ns();
			if (atomic_load(&l->r->stop)) {
				session_finish(s);
				break;
			}
			if (s->reconnect_at > now)
				clock_sleep_until(s->reconnect_at);
		}
		session_run(s, 0);
	}
}

static void *loop_main(void *arg)
{
	struct loop *l = arg;
	struct runner *r = l->r;
	char ep[256];
	bool ok = true;

	for (unsigned i = 0; i < l->n; i++) {
		struct session *s = l->sess[i];
		if (!ok || atomic_load(&r->failed)) {
			s->state = S_DONE;
			continue;
		}
		if (session_connect(s) < 0) {
			fail_run(r, "cannot connect to %s (connection %u): error %d: %s",
				 endpoint(r->cfg->conn, ep, sizeof(ep)), s->index + 1, s->conn.err.native, s->conn.err.msg);
			ok = false;
			s->state = S_DONE;
			continue;
		}
		s->state = S_START;
		l->active++;
	}
	/* Barrier: the clock starts when every connection is up (sysbench's
	 * "Threads started!"). */
	pthread_mutex_lock(&r->mu);
	atomic_fetch_add(&r->ready, 1);
	pthread_cond_broadcast(&r->cv);
	while (!r->go)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);

	if (!atomic_load(&r->stop)) {
		for (unsigned i = 0; i < l->n; i++)
			l->sess[i]->txn_start = 0;
		if (l->blocking)
			loop_serve_blocking(l);
		else
			loop_serve(l);
	}
	for (unsigned i = 0; i < l->n; i++) {
		if (l->sess[i]->state != S_DONE)
			session_finish(l->sess[i]);
		session_disconnect(l->sess[i]);
	}
	atomic_fetch_add(&r->finished, 1);
	return NULL;
}

/* --- reporting --- */

static void drain(struct runner *r, struct span_stats *into)
{
	for (unsigned i = 0; i < r->nloops; i++) {
		struct loop *l = &r->loops[i];
		pthread_mutex_lock(&l->mu);
		span_add(into, &l->cur);
		span_reset(&l->cur);
		pthread_mutex_unlock(&l->mu);
	}
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

struct phase_acc {
	struct span_stats total;
	uint64_t start;
	bool active;
};

static void end_phase(struct runner *r, struct phase_acc *pa, enum phase_kind ph, uint64_t now, bool complete)
{
	const struct runner_config *cfg = r->cfg;
	uint64_t *ev = xcalloc(cfg->threads, sizeof(*ev));
	double *busy = xcalloc(cfg->threads, sizeof(*busy));
	struct phase_report pr = {
		.phase = ph,
		.complete = complete,
		.seconds = secs(now - pa->start),
		.threads = cfg->threads,
		.s = &pa->total,
		.session_events = ev,
		.session_seconds = busy,
	};

	/* Fairness counters are written by the loop threads without a lock; at
	 * worst one transaction is attributed to the neighbouring phase. */
	for (unsigned i = 0; i < cfg->threads; i++) {
		ev[i] = r->sessions[i].events[ph];
		busy[i] = secs(r->sessions[i].busy_ns[ph]);
	}
	if (cfg->cb.on_phase_end)
		cfg->cb.on_phase_end(cfg->cb.arg, &pr);
	pa->active = false;
	free(ev);
	free(busy);
}

static void emit_interval(struct runner *r, struct span_stats *iv, enum phase_kind ph, uint64_t run_start,
			  uint64_t phase_start, uint64_t iv_start, uint64_t now, uint64_t stamp, bool partial)
{
	const struct runner_config *cfg = r->cfg;
	struct interval_report ir = {
		.phase = ph,
		.t = secs(stamp - run_start),
		.phase_t = secs(stamp - phase_start),
		.seconds = secs(now - iv_start),
		.partial = partial,
		.threads = cfg->threads,
		.s = iv,
	};

	if (cfg->cb.on_interval && ir.seconds > 0)
		cfg->cb.on_interval(cfg->cb.arg, &ir);
}

/* Default event loops: one per online CPU, so the client is never the
 * bottleneck of what it measures. Measured on 2 CPUs against a server on
 * loopback (bench/sysbench-compare.sh, oltp_read_write, 32 threads, 3 x 30 s
 * alternating, three runs): 2 loops 1.09-1.16x sysbench's TPS, 1 loop
 * 0.88-0.99x; 1 loop costs 3-10% less CPU per transaction but leaves ~15% of
 * the CPUs idle: connections ready at once wait for the single loop. */
static unsigned default_loops(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

/* Terminals and their schedulers: one per event loop, or one shared by
 * blocking connections. */
static int terms_init(struct runner *r, uint64_t seed)
{
	const struct runner_config *cfg = r->cfg;
	const struct workload_ops *wl = cfg->wl;
	size_t tsz = (wl->term_size + 15) & ~(size_t)15;
	bool blocking = r->loops[0].blocking;

	if (!wl->term_init || !wl->term_next || !wl->bind_term || !wl->term_size)
		return -1;
	r->nscheds = blocking ? 1 : r->nloops;
	r->scheds = xcalloc(r->nscheds, sizeof(*r->scheds));
	for (unsigned i = 0; i < r->nscheds; i++) {
		pthread_condattr_t ca;
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_mutex_init(&r->scheds[i].mu, NULL);
		pthread_cond_init(&r->scheds[i].cv, &ca);
		pthread_condattr_destroy(&ca);
	}
	for (unsigned i = 0; i < r->nloops; i++)
		r->loops[i].sched = &r->scheds[blocking ? 0 : i];
	r->terms = xcalloc(cfg->terminals, sizeof(*r->terms));
	r->term_wl = xcalloc(cfg->terminals, tsz);
	for (unsigned i = 0; i < cfg->terminals; i++) {
		struct term *t = &r->terms[i];
		t->wl = r->term_wl + (size_t)i * tsz;
		rng_seed(&t->rng, seed ^ (0xD1B54A32D192ED03ULL * (i + 1)));
		wl->term_init(cfg->wl_ctx, i, t->wl);
	}
	return 0;
}

/* Every terminal shows its first menu at a random point of one mean cycle,
 * so they do not all submit at the same instant. */
static void terms_start(struct runner *r, uint64_t start)
{
	const struct runner_config *cfg = r->cfg;
	uint64_t cycle = 0;

	for (unsigned k = 0; k < RUNNER_MAX_TYPES; k++)
		if (cfg->keying_ns[k] + cfg->think_ns[k] > cycle)
			cycle = cfg->keying_ns[k] + cfg->think_ns[k];
	for (unsigned i = 0; i < cfg->terminals; i++) {
		struct term *t = &r->terms[i];
		uint64_t at = start + (uint64_t)(rng_double(&t->rng) * (double)cycle);
		term_cycle(cfg, &r->scheds[i % r->nscheds], t, at);
	}
}

int runner_run(const struct runner_config *cfg, struct runner_outcome *out)
{
	struct runner r;
	sigset_t sigs, oldsigs;
	struct phase_acc pa[PHASE_COUNT];
	struct span_stats iv;
	unsigned nl;
	int ret = -1;
	bool blocking = !cfg->drv->execute_start || !cfg->drv->fd;
	uint64_t seed = cfg->rand_seed ? cfg->rand_seed : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	memset(pa, 0, sizeof(pa));
	r.cfg = cfg;
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	atomic_store(&r.phase, cfg->precondition_ns ? PHASE_PRECONDITION : PHASE_SAMPLE);
	atomic_store(&r.events_left, (long long)cfg->events);

	nl = blocking ? cfg->threads : (cfg->event_loops ? cfg->event_loops : default_loops());
	if (nl > cfg->threads)
		nl = cfg->threads;
	if (nl == 0)
		nl = 1;
	r.nloops = nl;
	r.loops = xcalloc(nl, sizeof(*r.loops));
	r.sessions = xcalloc(cfg->threads, sizeof(*r.sessions));
	if (span_init(&iv, cfg->ntypes) < 0 || span_init(&pa[0].total, cfg->ntypes) < 0 ||
	    span_init(&pa[1].total, cfg->ntypes) < 0) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		goto out_free;
	}
	for (unsigned i = 0; i < nl; i++) {
		struct loop *l = &r.loops[i];
		l->r = &r;
		l->blocking = blocking;
		l->epfd = -1;
		pthread_mutex_init(&l->mu, NULL);
		if (span_init(&l->cur, cfg->ntypes) < 0) {
			snprintf(out->error, sizeof(out->error), "out of memory");
			goto out_free;
		}
		if (!blocking) {
			l->epfd = epoll_create1(EPOLL_CLOEXEC);
			if (l->epfd < 0) {
				snprintf(out->error, sizeof(out->error), "epoll_create1: %s", strerror(errno));
				goto out_free;
			}
		}
		l->sess = xcalloc(cfg->threads / nl + 1, sizeof(*l->sess));
		l->idle = xcalloc(cfg->threads / nl + 1, sizeof(*l->idle));
	}
	if (cfg->terminals && terms_init(&r, seed) < 0) {
		snprintf(out->error, sizeof(out->error), "the workload has no terminals");
		goto out_free;
	}
	for (unsigned i = 0; i < cfg->threads; i++) {
		struct session *s = &r.sessions[i];
		struct loop *l = &r.loops[i % nl];
		s->index = i;
		s->loop = l;
		s->fd = -1;
		s->state = S_DONE;
		rng_seed(&s->rng, seed + 0x9E3779B97F4A7C15ULL * (i + 1));
		l->sess[l->n++] = s;
	}

	/* Signals are taken by this thread only, with sigtimedwait. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &oldsigs);

	unsigned started = 0;
	for (unsigned i = 0; i < nl; i++) {
		if (pthread_create(&r.loops[i].th, NULL, loop_main, &r.loops[i]) != 0) {
			fail_run(&r, "cannot start thread: %s", strerror(errno));
			break;
		}
		started++;
	}

	/* Wait for every loop to connect (or fail), then start the clock. */
	pthread_mutex_lock(&r.mu);
	while (atomic_load(&r.ready) < started)
		pthread_cond_wait(&r.cv, &r.mu);
	uint64_t run_start = clock_now_ns();
	if (cfg->terminals)
		terms_start(&r, run_start);
	r.go = true;
	pthread_cond_broadcast(&r.cv);
	pthread_mutex_unlock(&r.mu);

	if (atomic_load(&r.failed) || started < nl) {
		atomic_store(&r.stop, 1);
		for (unsigned i = 0; i < started; i++)
			pthread_join(r.loops[i].th, NULL);
		snprintf(out->error, sizeof(out->error), "%s", r.error);
		pthread_sigmask(SIG_SETMASK, &oldsigs, NULL);
		goto out_free;
	}
	out->started = true;
	ret = 0;
	if (cfg->cb.on_start)
		cfg->cb.on_start(cfg->cb.arg, cfg->threads);

	enum phase_kind ph = cfg->precondition_ns ? PHASE_PRECONDITION : PHASE_SAMPLE;
	uint64_t phase_start = run_start;
	uint64_t phase_len = ph == PHASE_PRECONDITION ? cfg->precondition_ns : cfg->time_ns;
	uint64_t iv_start = run_start;
	uint64_t next_tick = cfg->report_interval_ns ? run_start + cfg->report_interval_ns : UINT64_MAX;
	pa[ph].start = run_start;
	pa[ph].active = true;
	if (cfg->cb.on_phase_start)
		cfg->cb.on_phase_start(cfg->cb.arg, ph, secs(phase_len));

	for (;;) {
		uint64_t now = clock_now_ns();
		uint64_t phase_end = phase_len ? phase_start + phase_len : UINT64_MAX;
		uint64_t deadline = next_tick < phase_end ? next_tick : phase_end;
		uint64_t poll_until = now + 100 * NS_PER_MS;
		bool all_done = atomic_load(&r.finished) == nl;

		if (deadline > poll_until)
			deadline = poll_until;
		if (!all_done && deadline > now && !atomic_load(&r.stop)) {
			struct timespec ts = {
				.tv_sec = (time_t)((deadline - now) / NS_PER_SEC),
				.tv_nsec = (long)((deadline - now) % NS_PER_SEC),
			};
			int sig = sigtimedwait(&sigs, NULL, &ts);
			if (sig > 0) {
				out->status = RUNNER_INTERRUPTED;
				out->signal = sig;
				atomic_store(&r.stop, 1);
			}
			now = clock_now_ns();
		}
		if (atomic_load(&r.stop) || all_done) {
			/* Let in-flight transactions finish, then account for them. */
			for (unsigned i = 0; i < nl; i++)
				pthread_join(r.loops[i].th, NULL);
			now = clock_now_ns();
			drain(&r, &iv);
			span_add(&pa[ph].total, &iv);
			emit_interval(&r, &iv, ph, run_start, phase_start, iv_start, now, now, true);
			bool complete = !atomic_load(&r.failed) && out->status != RUNNER_INTERRUPTED &&
					(phase_len == 0 || now >= phase_end ||
					 (ph == PHASE_SAMPLE && cfg->events &&
					  atomic_load(&r.events_left) <= 0));
			end_phase(&r, &pa[ph], ph, now, complete);
			break;
		}
		if (now >= next_tick && next_tick <= phase_end) {
			drain(&r, &iv);
			span_add(&pa[ph].total, &iv);
			/* Stamped with the tick it belongs to (as sysbench prints
			 * multiples of the interval); rates use the real length. */
			emit_interval(&r, &iv, ph, run_start, phase_start, iv_start, now, next_tick, false);
			span_reset(&iv);
			iv_start = now;
			/* A late wake-up skips the missed ticks instead of
			 * emitting near-empty intervals. */
			while (next_tick <= now)
				next_tick += cfg->report_interval_ns;
		}
		if (now >= phase_end) {
			drain(&r, &iv);
			span_add(&pa[ph].total, &iv);
			emit_interval(&r, &iv, ph, run_start, phase_start, iv_start, now, now, true);
			span_reset(&iv);
			if (ph == PHASE_SAMPLE) {
				atomic_store(&r.stop, 1);
				for (unsigned i = 0; i < nl; i++)
					pthread_join(r.loops[i].th, NULL);
				/* Transactions in flight at the deadline finish and count,
				 * as in sysbench; their time is part of the phase. */
				now = clock_now_ns();
				drain(&r, &iv);
				span_add(&pa[ph].total, &iv);
				end_phase(&r, &pa[ph], ph, now, !atomic_load(&r.failed));
				break;
			}
			end_phase(&r, &pa[ph], ph, now, true);
			ph = PHASE_SAMPLE;
			atomic_store(&r.phase, PHASE_SAMPLE);
			phase_start = now;
			phase_len = cfg->time_ns;
			iv_start = now;
			next_tick = cfg->report_interval_ns ? now + cfg->report_interval_ns : UINT64_MAX;
			pa[ph].start = now;
			pa[ph].active = true;
			if (cfg->cb.on_phase_start)
				cfg->cb.on_phase_start(cfg->cb.arg, ph, secs(phase_len));
		}
	}
	if (atomic_load(&r.failed)) {
		out->status = RUNNER_FAILED;
		snprintf(out->error, sizeof(out->error), "%s", r.error);
	}
	/* A signal that arrived after the last wait must not kill the process
	 * once unblocked: the caller still has results to write. */
	for (;;) {
		struct timespec zero = {0, 0};
		int sig = sigtimedwait(&sigs, NULL, &zero);
		if (sig <= 0)
			break;
		out->signal = sig;
	}
	pthread_sigmask(SIG_SETMASK, &oldsigs, NULL);
out_free:
	for (unsigned i = 0; i < nl; i++) {
		struct loop *l = &r.loops[i];
		if (l->epfd >= 0)
			close(l->epfd);
		span_free(&l->cur);
		free(l->sess);
		pthread_mutex_destroy(&l->mu);
	}
	span_free(&iv);
	span_free(&pa[0].total);
	span_free(&pa[1].total);
	for (unsigned i = 0; i < r.nscheds; i++)
		sched_free(&r.scheds[i]);
	for (unsigned i = 0; i < cfg->threads && r.sessions; i++)
		if (r.sessions[i].term && r.sessions[i].term->job)
			free(r.sessions[i].term);
	for (unsigned i = 0; i < nl; i++)
		free(r.loops[i].idle);
	free(r.scheds);
	free(r.terms);
	free(r.term_wl);
	free(r.loops);
	free(r.sessions);
	pthread_mutex_destroy(&r.mu);
	pthread_cond_destroy(&r.cv);
	return ret;
}
