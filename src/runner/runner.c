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
 * Terminals (TPC-C) share the connections through schedulers (sched.c).
 * This file is the run from setup to teardown (runner_run): the loops,
 * sessions and terminals set up, every connection opened before the clock
 * starts, the loops started at the gate, the outcome, everything closed;
 * phases.c is the clock in between. The files of the runner and what they
 * share: internal.h.
 */
#include "runner/internal.h"

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
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

void runner_fail(struct runner *r, const char *fmt, ...)
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

/* Blocking sessions share this many recorders at most (see struct recorder). */
#define MAX_SHARED_RECORDERS 32
/* Connects in flight at once when the configuration does not say. */
#define DEFAULT_CONNECT_CONCURRENCY 16
/* Stack of a blocking session's thread when every terminal has one:
 * glibc's default (RLIMIT_STACK, 8 MiB) times 15,000 threads is 120 GB of
 * address space; Microsoft names 2 MiB as the usual glibc default its ODBC
 * driver runs on. */
#define BOUND_THREAD_STACK (2u << 20)

/* Every connection is a descriptor: raise the soft limit to what the run
 * needs, or say in one line why it cannot start. */
static int fd_limit(unsigned sessions, unsigned loops, struct runner_outcome *out)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)sessions + loops + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		snprintf(out->error, sizeof(out->error),
			 "%u connections need about %llu open files, but the hard limit is %llu (ulimit -Hn): raise it "
			 "(e.g. LimitNOFILE= or /etc/security/limits.conf) or use fewer connections",
			 sessions, (unsigned long long)need, (unsigned long long)rl.rlim_max);
		return -1;
	}
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		snprintf(out->error, sizeof(out->error), "%u connections need about %llu open files: setrlimit: %s",
			 sessions, (unsigned long long)need, strerror(errno));
		return -1;
	}
	return 0;
}

/* Loops, sessions and terminals; -1 with out->error set. */
static int runner_setup(struct runner *r, const struct runner_config *cfg, struct run_clock *rc, uint64_t seed,
			struct runner_outcome *out)
{
	bool blocking = !cfg->drv->execute_start || !cfg->drv->fd || (cfg->drv->polls && !cfg->drv->polls(cfg->conn));
	unsigned nl, k;

	pthread_mutex_init(&r->mu, NULL);
	pthread_mutex_init(&r->outage_mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	atomic_store(&r->phase, cfg->precondition_ns ? PHASE_PRECONDITION : PHASE_SAMPLE);
	atomic_store(&r->events_left, (long long)cfg->events);
	k = cfg->connect_concurrency ? cfg->connect_concurrency : DEFAULT_CONNECT_CONCURRENCY;
	if (sem_init(&r->connect_slots, 0, k) < 0) {
		snprintf(out->error, sizeof(out->error), "sem_init: %s", strerror(errno));
		return -1;
	}
	r->have_slots = true;
	if (cfg->session_per_terminal && (!cfg->terminals || cfg->threads != cfg->terminals)) {
		snprintf(out->error, sizeof(out->error), "one session per terminal needs as many sessions (%u) as terminals (%u)",
			 cfg->threads, cfg->terminals);
		return -1;
	}

	nl = blocking ? cfg->threads : (cfg->event_loops ? cfg->event_loops : loop_default_count());
	if (nl > cfg->threads)
		nl = cfg->threads;
	if (nl == 0)
		nl = 1;
	if (fd_limit(cfg->threads, blocking ? 0 : nl, out) < 0)
		return -1;
	r->nloops = nl;
	r->nrecs = blocking && nl > MAX_SHARED_RECORDERS ? MAX_SHARED_RECORDERS : nl;
	r->recs = xcalloc(r->nrecs, sizeof(*r->recs));
	for (unsigned i = 0; i < r->nrecs; i++) {
		pthread_mutex_init(&r->recs[i].mu, NULL);
		if (span_init(&r->recs[i].cur[0], cfg->ntypes) < 0 || span_init(&r->recs[i].cur[1], cfg->ntypes) < 0) {
			snprintf(out->error, sizeof(out->error), "out of memory");
			return -1;
		}
	}
	r->loops = xcalloc(nl, sizeof(*r->loops));
	for (unsigned i = 0; i < nl; i++)
		r->loops[i].epfd = -1; /* a failed setup closes only what it opened */
	r->sessions = xcalloc(cfg->threads, sizeof(*r->sessions));
	if (span_init(&rc->iv, cfg->ntypes) < 0 || span_init(&rc->pa[0].total, cfg->ntypes) < 0 ||
	    span_init(&rc->pa[1].total, cfg->ntypes) < 0) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < nl; i++) {
		struct loop *l = &r->loops[i];
		l->r = r;
		l->blocking = blocking;
		l->epfd = -1;
		l->rec = &r->recs[i % r->nrecs];
		if (!blocking) {
			l->epfd = epoll_create1(EPOLL_CLOEXEC);
			if (l->epfd < 0) {
				snprintf(out->error, sizeof(out->error), "epoll_create1: %s", strerror(errno));
				return -1;
			}
		}
		l->sess = xcalloc(cfg->threads / nl + 1, sizeof(*l->sess));
		l->idle = xcalloc(cfg->threads / nl + 1, sizeof(*l->idle));
	}
	if (cfg->terminals && terms_init(r, seed) < 0) {
		snprintf(out->error, sizeof(out->error), "the workload has no terminals");
		return -1;
	}
	if (span_init(&rc->ck, cfg->ntypes) < 0) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		return -1;
	}
	if (cfg->rate > 0) {
		/* One scheduler per event loop with its share of the rate (the
		 * sum of Poisson processes is one of the summed rate), or one
		 * shared by blocking connections; sysbench's queue limit split
		 * among them. They start at the start gate (runner_run). */
		r->nrates = blocking ? 1 : nl;
		r->rates = xcalloc(r->nrates, sizeof(*r->rates));
		for (unsigned i = 0; i < nl; i++)
			r->loops[i].rate = &r->rates[blocking ? 0 : i];
	}
	for (unsigned i = 0; i < cfg->threads; i++) {
		struct session *s = &r->sessions[i];
		struct loop *l = &r->loops[i % nl];
		s->index = i;
		s->loop = l;
		s->fd = -1;
		s->state = S_DONE;
		s->woken = true; /* every connection is free when the clock starts */
		rng_seed(&s->rng, seed + 0x9E3779B97F4A7C15ULL * (i + 1));
		l->sess[l->n++] = s;
	}
	return 0;
}

static void runner_teardown(struct runner *r, struct run_clock *rc)
{
	const struct runner_config *cfg = r->cfg;

	for (unsigned i = 0; i < r->nloops; i++) {
		struct loop *l = &r->loops[i];
		if (l->epfd >= 0)
			close(l->epfd);
		free(l->sess);
	}
	for (unsigned i = 0; i < r->nrecs; i++) {
		span_free(&r->recs[i].cur[0]);
		span_free(&r->recs[i].cur[1]);
		pthread_mutex_destroy(&r->recs[i].mu);
	}
	free(r->recs);
	if (r->have_slots)
		sem_destroy(&r->connect_slots);
	span_free(&rc->iv);
	span_free(&rc->ck);
	for (unsigned i = 0; i < r->nrates; i++)
		rate_free(&r->rates[i]);
	free(r->rates);
	span_free(&rc->pa[0].total);
	span_free(&rc->pa[1].total);
	sched_free_backlogs(r);
	for (unsigned i = 0; i < r->nscheds; i++)
		sched_free(&r->scheds[i]);
	for (unsigned i = 0; i < cfg->threads && r->sessions; i++)
		if (r->sessions[i].term && r->sessions[i].term->job)
			free(r->sessions[i].term);
	for (unsigned i = 0; i < r->nloops; i++)
		free(r->loops[i].idle);
	free(r->scheds);
	free(r->terms);
	free(r->term_wl);
	free(r->loops);
	free(r->sessions);
	pthread_mutex_destroy(&r->mu);
	pthread_mutex_destroy(&r->outage_mu);
	pthread_cond_destroy(&r->cv);
}

/* The loops' "all done" (SIGUSR1) may be pending when a run that could not
 * start unblocks signals again: take it, or its default action kills us. */
static void drain_wakeup(void)
{
	sigset_t one;
	struct timespec zero = {0, 0};

	sigemptyset(&one);
	sigaddset(&one, SIGUSR1);
	while (sigtimedwait(&one, NULL, &zero) > 0)
		;
}

/*
 * Close every session, newest first, from one thread. A driver manager may
 * keep its handles in process-wide lists that it searches from the newest
 * end when a connection goes (unixODBC 2.3.11 frees a connection's
 * descriptors with a scan restarted from the head for each one): closing in
 * the reverse order of opening finds them at the head, where 2,000 threads
 * closing at once through its one lock took minutes.
 */
static void disconnect_all(struct runner *r)
{
	for (unsigned i = r->cfg->threads; i-- > 0;)
		session_disconnect(&r->sessions[i]);
}

/*
 * Open every session before the clock starts: a few connector threads take
 * the sessions in order, each connect (and its statements) holding one of
 * the connect slots. SIGINT/SIGTERM stop the ramp-up. Returns 0, or -1 with
 * out->error set (every session opened so far is closed again).
 */
static int connect_phase(struct runner *r, const sigset_t *sigs, struct runner_outcome *out)
{
	const struct runner_config *cfg = r->cfg;
	unsigned k = cfg->connect_concurrency ? cfg->connect_concurrency : DEFAULT_CONNECT_CONCURRENCY;
	uint64_t t0 = clock_now_ns();
	pthread_t *th;
	unsigned started = 0;

	if (k > cfg->threads)
		k = cfg->threads;
	th = xcalloc(k, sizeof(*th));
	for (unsigned i = 0; i < k; i++) {
		int e = pthread_create(&th[i], NULL, connector_main, r);
		if (e) {
			runner_fail(r, "cannot start a connector thread: %s", strerror(e));
			break;
		}
		started++;
	}
	while (atomic_load(&r->connectors_done) < started) {
		struct timespec ts = {.tv_sec = 0, .tv_nsec = 100 * 1000 * 1000};
		int sig = sigtimedwait(sigs, NULL, &ts);
		if (sig > 0 && sig != SIGUSR1 && !atomic_load(&r->stop)) {
			out->signal = sig;
			atomic_store(&r->stop, 1);
		}
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
	started = 0;
	if (!atomic_load(&r->failed) && !out->signal) {
		if (cfg->cb.on_connected)
			cfg->cb.on_connected(cfg->cb.arg, cfg->threads, runner_secs(clock_now_ns() - t0));
		return 0;
	}
	for (unsigned i = 0; i < cfg->threads; i++)
		if (r->sessions[i].connected)
			started++; /* now: sessions open */
	disconnect_all(r);
	if (atomic_load(&r->failed))
		snprintf(out->error, sizeof(out->error), "%s", r->error);
	else
		snprintf(out->error, sizeof(out->error), "interrupted by %s while opening connections (%u of %u were open)",
			 out->signal == SIGINT ? "SIGINT" : "SIGTERM", started, cfg->threads);
	return -1;
}

/* Signals are taken by this thread only, with sigtimedwait. SIGHUP (the
 * terminal or ssh session closed) ends the run like SIGTERM: its default
 * action killed the driver with no result and no journal end line. */
static void block_signals(sigset_t *sigs, sigset_t *oldsigs)
{
	sigemptyset(sigs);
	sigaddset(sigs, SIGINT);
	sigaddset(sigs, SIGTERM);
	sigaddset(sigs, SIGUSR1); /* the last loop's "all done" */
	sigaddset(sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, sigs, oldsigs);
}

/* One thread per loop; returns how many started (a failure to start one fails the run). */
static unsigned start_loops(struct runner *r)
{
	const struct runner_config *cfg = r->cfg;
	pthread_attr_t attr;
	unsigned started = 0;

	pthread_attr_init(&attr);
	if (cfg->session_per_terminal && r->loops[0].blocking)
		pthread_attr_setstacksize(&attr, BOUND_THREAD_STACK);
	for (unsigned i = 0; i < r->nloops; i++) {
		int e = pthread_create(&r->loops[i].th, &attr, loop_main, &r->loops[i]);
		if (e) {
			runner_fail(r, "cannot start thread %u of %u: %s (see ulimit -u, kernel.threads-max, kernel.pid_max)",
				    i + 1, r->nloops, strerror(e));
			break;
		}
		started++;
	}
	pthread_attr_destroy(&attr);
	return started;
}

/* A run that started: failed, degraded by its connection outage, or as the clock left it. */
static void run_outcome(struct runner *r, struct runner_outcome *out)
{
	const struct runner_config *cfg = r->cfg;

	if (atomic_load(&r->failed)) {
		out->status = RUNNER_FAILED;
		snprintf(out->error, sizeof(out->error), "%s", r->error);
	}
	out->outage_ns = r->outage_ns;
	out->sample_ns = r->sample_ns;
	if (out->status == RUNNER_COMPLETE && runner_outage_degrades(r->outage_ns, r->sample_ns)) {
		char ep[256];
		out->status = RUNNER_DEGRADED;
		snprintf(out->error, sizeof(out->error),
			 "%s: connection lost for %.1fs of the %.1fs sample (%.1f%%, more than %g%%); the result is marked "
			 "degraded", runner_endpoint(cfg, ep, sizeof(ep)), (double)r->outage_ns / 1e9,
			 (double)r->sample_ns / 1e9, 100.0 * (double)r->outage_ns / (double)r->sample_ns,
			 100.0 * RUNNER_DEGRADED_SHARE);
	}
}

/* A signal that arrived after the last wait must not kill the process
 * once unblocked: the caller still has results to write. */
static void take_late_signals(const sigset_t *sigs, struct runner_outcome *out)
{
	for (;;) {
		struct timespec zero = {0, 0};
		int sig = sigtimedwait(sigs, NULL, &zero);
		if (sig <= 0)
			break;
		if (sig != SIGUSR1)
			out->signal = sig;
	}
}

int runner_run(const struct runner_config *cfg, struct runner_outcome *out)
{
	struct runner r;
	struct run_clock rc;
	sigset_t sigs, oldsigs;
	unsigned started;
	int ret = -1;
	uint64_t seed = cfg->rand_seed ? cfg->rand_seed : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	memset(&rc, 0, sizeof(rc));
	r.cfg = cfg;
	if (runner_setup(&r, cfg, &rc, seed, out) < 0)
		goto out_free;

	block_signals(&sigs, &oldsigs);
	r.main_thread = pthread_self();

	if (connect_phase(&r, &sigs, out) < 0) {
		pthread_sigmask(SIG_SETMASK, &oldsigs, NULL);
		goto out_free;
	}
	started = start_loops(&r);

	/* Wait for every loop to reach the gate, then start the clock. Whether
	 * the run is up is decided before the gate opens: after it, a failure
	 * is the run's own (a fatal error in its first statements). */
	pthread_mutex_lock(&r.mu);
	while (atomic_load(&r.ready) < started)
		pthread_cond_wait(&r.cv, &r.mu);
	bool up = !atomic_load(&r.failed) && started == r.nloops;
	rc.run_start = clock_now_ns();
	if (cfg->terminals)
		terms_start(&r, rc.run_start);
	for (unsigned i = 0; i < r.nrates; i++) {
		size_t cap = RATE_QUEUE_CAPACITY / r.nrates;
		if (rate_init(&r.rates[i], cfg->rate / r.nrates, seed ^ (0xA0761D6478BD642FULL * (i + 1)), rc.run_start,
			      cap ? cap : 1) < 0)
			runner_fail(&r, "out of memory");
	}
	r.go = true;
	pthread_cond_broadcast(&r.cv);
	pthread_mutex_unlock(&r.mu);

	if (!up) {
		atomic_store(&r.stop, 1);
		for (unsigned i = 0; i < started; i++)
			pthread_join(r.loops[i].th, NULL);
		disconnect_all(&r);
		snprintf(out->error, sizeof(out->error), "%s", r.error);
		drain_wakeup();
		pthread_sigmask(SIG_SETMASK, &oldsigs, NULL);
		goto out_free;
	}
	out->started = true;
	out->start_ns = rc.run_start;
	out->loops = r.nloops;
	out->blocking = r.nloops && r.loops[0].blocking;
	ret = 0;
	if (cfg->cb.on_start)
		cfg->cb.on_start(cfg->cb.arg, cfg->threads);
	runner_start_phase(&r, &rc, cfg->precondition_ns ? PHASE_PRECONDITION : PHASE_SAMPLE, rc.run_start);
	runner_drive(&r, &rc, &sigs, out);
	{
		uint64_t t0 = clock_now_ns();
		disconnect_all(&r);
		if (cfg->cb.on_closed)
			cfg->cb.on_closed(cfg->cb.arg, cfg->threads, runner_secs(clock_now_ns() - t0));
	}
	run_outcome(&r, out);
	take_late_signals(&sigs, out);
	pthread_sigmask(SIG_SETMASK, &oldsigs, NULL);
out_free:
	runner_teardown(&r, &rc);
	return ret;
}
