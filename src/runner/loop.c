/*
 * A loop thread: waits at the start gate, then serves its sessions (epoll
 * over their fds, reconnect timers, sessions parked without a due terminal)
 * until all are done; a blocking loop runs its one session. Before the loops
 * start, connector threads open every session, a bounded number at a time.
 */
/* epoll_pwait2 (Linux 5.11, glibc 2.35): a timeout in nanoseconds, so a
 * session parked until --rate's next arrival wakes on time, not up to a
 * millisecond late (that would be added to every measured latency). Only the
 * open loop uses it: closed loops and terminals keep epoll_wait (valgrind
 * 3.19, for one, does not know epoll_pwait2 and reports every call). */
#define _GNU_SOURCE
#include "runner/internal.h"

#include "core/clock.h"
#include "core/units.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

/* How long the loop may sleep: until the next reconnect attempt or the next
 * due terminal / arrival for a parked session, at most LOOP_TICK_MS. */
static uint64_t loop_timeout_ns(struct loop *l)
{
	const uint64_t tick = (uint64_t)LOOP_TICK_MS * NS_PER_MS;
	uint64_t now, next = UINT64_MAX;

	if (l->nidle)
		next = l->rate ? rate_next_due(l->rate) : sched_top_due(l->sched);
	else if (l->sched && l->r->cfg->session_per_terminal && !atomic_load_explicit(&l->r->stop, memory_order_relaxed))
		next = sched_top_due(l->sched); /* bound sessions: their next item (none is handed after a stop) */
	for (unsigned i = 0; l->timers && i < l->n; i++) /* thousands of sessions: only when one reconnects */
		if (l->sess[i]->state == S_RECONNECT && l->sess[i]->reconnect_at < next)
			next = l->sess[i]->reconnect_at;
	if (next == UINT64_MAX)
		return tick;
	now = clock_now_ns();
	if (next <= now)
		return 0;
	return next - now < tick ? next - now : tick;
}

static int loop_wait(struct loop *l, struct epoll_event *evs, int max)
{
	uint64_t ns = loop_timeout_ns(l);
	struct timespec ts = {.tv_sec = (time_t)(ns / NS_PER_SEC), .tv_nsec = (long)(ns % NS_PER_SEC)};
	int n;

	if (l->rate && !l->no_pwait2) {
		n = epoll_pwait2(l->epfd, evs, max, &ts, NULL);
		if (n >= 0 || errno != ENOSYS)
			return n;
		l->no_pwait2 = true; /* an older kernel: whole milliseconds */
	}
	return epoll_wait(l->epfd, evs, max, (int)((ns + NS_PER_MS - 1) / NS_PER_MS));
}

/* Hand due terminals (or --rate's arrivals) to parked sessions; a stop ends
 * parked sessions. */
static void loop_wake_idle(struct loop *l)
{
	while (l->nidle) {
		struct session *s;
		uint64_t due = l->rate ? rate_next_due(l->rate) : sched_top_due(l->sched);
		if (!atomic_load_explicit(&l->r->stop, memory_order_relaxed) && due > clock_now_ns())
			break;
		s = l->idle[--l->nidle];
		s->idle = false;
		s->woken = true;
		if (l->nidle == 0 && l->sched) /* the last free connection is taken */
			l->sched->sat_since = clock_now_ns();
		session_run(s, 0);
	}
}

/* Bound sessions: due items go to their own sessions; a stop ends the
 * parked ones (once: a session that sees the stop never parks again). */
static void loop_wake_bound(struct loop *l)
{
	if (!atomic_load_explicit(&l->r->stop, memory_order_relaxed)) {
		sched_dispatch_bound(l, clock_now_ns());
		return;
	}
	if (l->swept)
		return;
	l->swept = true;
	for (unsigned i = 0; i < l->n; i++)
		if (l->sess[i]->idle) {
			l->sess[i]->idle = false;
			session_finish(l->sess[i]);
		}
}

static void loop_serve(struct loop *l)
{
	struct epoll_event evs[64];
	bool bound = l->sched && l->r->cfg->session_per_terminal;

	for (unsigned i = 0; i < l->n; i++)
		session_run(l->sess[i], 0);
	while (l->active > 0) {
		int n = loop_wait(l, evs, 64);
		if (n < 0 && errno != EINTR) {
			runner_fail(l->r, "epoll_wait: %s", strerror(errno));
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
		if (bound)
			loop_wake_bound(l);
		else
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

void *connector_main(void *arg)
{
	struct runner *r = arg;
	char ep[256];

	for (;;) {
		unsigned i = atomic_fetch_add(&r->next_connect, 1);
		struct session *s;
		if (i >= r->cfg->threads || atomic_load(&r->failed) || atomic_load(&r->stop))
			break;
		s = &r->sessions[i];
		if (session_connect(s) < 0) {
			runner_fail(r, "cannot connect to %s (connection %u): error %d: %s",
				    runner_endpoint(r->cfg, ep, sizeof(ep)), s->index + 1, s->conn.err.native,
				    s->conn.err.msg);
			break;
		}
		s->state = S_START;
	}
	atomic_fetch_add(&r->connectors_done, 1);
	return NULL;
}

void *loop_main(void *arg)
{
	struct loop *l = arg;
	struct runner *r = l->r;

	for (unsigned i = 0; i < l->n; i++)
		if (l->sess[i]->state == S_START)
			l->active++;
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
	/* The main thread closes the connections (runner.c: disconnect_all). */
	for (unsigned i = 0; i < l->n; i++)
		if (l->sess[i]->state != S_DONE)
			session_finish(l->sess[i]);
	/* The last loop to finish wakes the main thread, so a run that ends by
	 * its --events is seen to end at once, not at the next poll. */
	if (atomic_fetch_add(&r->finished, 1) + 1 == r->nloops)
		pthread_kill(r->main_thread, SIGUSR1);
	return NULL;
}

/* Default event loops: one per online CPU, so the client is never the
 * bottleneck of what it measures. Measured on 2 CPUs against a server on
 * loopback (bench/sysbench-compare.sh, oltp_read_write, 32 threads, 3 x 30 s
 * alternating, three runs): 2 loops 1.09-1.16x sysbench's TPS, 1 loop
 * 0.88-0.99x; 1 loop costs 3-10% less CPU per transaction but leaves ~15% of
 * the CPUs idle: connections ready at once wait for the single loop. */
unsigned loop_default_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}
