/*
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
 *
 * With one session per terminal, an item (the terminal or one of its jobs)
 * runs only on its home session: an event loop hands each due item to its
 * session, or queues it in the session's backlog while the session is busy;
 * a blocking session has a scheduler of its own and sleeps until its next
 * item is due.
 */
#include "runner/internal.h"

#include "core/clock.h"
#include "core/strbuf.h"
#include "core/units.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

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

void sched_push(struct sched *sc, struct term *t)
{
	pthread_mutex_lock(&sc->mu);
	sched_push_locked(sc, t);
	if (sc->heap[0] == t)
		pthread_cond_signal(&sc->cv);
	pthread_mutex_unlock(&sc->mu);
}

uint64_t sched_top_due(struct sched *sc)
{
	uint64_t due;

	pthread_mutex_lock(&sc->mu);
	due = sc->n ? sc->heap[0]->due : UINT64_MAX;
	pthread_mutex_unlock(&sc->mu);
	return due;
}

uint64_t runner_queue_credit(uint64_t due, uint64_t sat_since, uint64_t *covered, uint64_t freed)
{
	uint64_t from = due;

	if (sat_since > from)
		from = sat_since;
	if (*covered > from)
		from = *covered;
	if (freed <= from)
		return 0;
	*covered = freed;
	return freed - from;
}

/* The oldest due terminal, or NULL. With `wait`, sleep until one is due or
 * the run stops (sched_wake_all). */
struct term *sched_take(struct runner *r, struct sched *sc, bool wait, bool saturated, uint64_t freed,
			uint64_t *queued)
{
	struct term *t = NULL;
	bool slept = false;

	*queued = 0;
	pthread_mutex_lock(&sc->mu);
	if (wait)
		saturated = saturated && sc->waiters == 0;
	for (;;) {
		uint64_t now, until;
		struct timespec ts;
		if (atomic_load_explicit(&r->stop, memory_order_relaxed))
			break;
		now = clock_now_ns();
		if (sc->n && sc->heap[0]->due <= now) {
			t = sched_pop_locked(sc);
			/* A connection that slept here was free: its terminal waited
			 * for the loop, not for the pool. */
			if (saturated && !slept)
				*queued = runner_queue_credit(t->due, sc->sat_since, &sc->covered, freed);
			break;
		}
		if (!wait)
			break;
		/* The stop is broadcast under this mutex, so a sleeper never misses
		 * it; the cap only bounds the damage of a lost wake-up. */
		until = now + NS_PER_SEC;
		if (sc->n && sc->heap[0]->due < until)
			until = sc->heap[0]->due;
		ts.tv_sec = (time_t)(until / NS_PER_SEC);
		ts.tv_nsec = (long)(until % NS_PER_SEC);
		if (!slept)
			sc->waiters++;
		slept = true;
		pthread_cond_timedwait(&sc->cv, &sc->mu, &ts);
	}
	if (slept && --sc->waiters == 0)
		sc->sat_since = clock_now_ns(); /* the last free connection is taken */
	/* Another waiter may be able to take the next one right away. */
	if (t && sc->n && sc->heap[0]->due <= clock_now_ns())
		pthread_cond_signal(&sc->cv);
	pthread_mutex_unlock(&sc->mu);
	return t;
}

void sched_wake_all(struct runner *r)
{
	for (unsigned i = 0; i < r->nscheds; i++) {
		pthread_mutex_lock(&r->scheds[i].mu);
		pthread_cond_broadcast(&r->scheds[i].cv);
		pthread_mutex_unlock(&r->scheds[i].mu);
	}
}

static void backlog_push(struct session *s, struct term *t)
{
	t->next = NULL;
	if (s->backlog_tail)
		s->backlog_tail->next = t;
	else
		s->backlog = t;
	s->backlog_tail = t;
}

struct term *backlog_pop(struct session *s)
{
	struct term *t = s->backlog;

	if (t) {
		s->backlog = t->next;
		if (!s->backlog)
			s->backlog_tail = NULL;
		t->next = NULL;
	}
	return t;
}

void sched_dispatch_bound(struct loop *l, uint64_t now)
{
	struct sched *sc = l->sched;

	for (;;) {
		struct term *t = NULL;
		struct session *s;
		pthread_mutex_lock(&sc->mu);
		if (sc->n && sc->heap[0]->due <= now)
			t = sched_pop_locked(sc);
		pthread_mutex_unlock(&sc->mu);
		if (!t)
			return;
		s = t->home;
		backlog_push(s, t);
		if (s->idle) {
			s->idle = false;
			s->woken = true;
			session_run(s, 0);
		}
	}
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
		job->next = NULL;
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

void term_complete(struct session *s, uint64_t now)
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

/* Items still queued in the backlogs when the run ends. */
void sched_free_backlogs(struct runner *r)
{
	for (unsigned i = 0; i < r->cfg->threads && r->sessions; i++) {
		struct term *t;
		while ((t = backlog_pop(&r->sessions[i])))
			if (t->job)
				free(t);
	}
}

void sched_free(struct sched *sc)
{
	for (size_t i = 0; i < sc->n; i++)
		if (sc->heap[i]->job)
			free(sc->heap[i]);
	free(sc->heap);
	pthread_mutex_destroy(&sc->mu);
	pthread_cond_destroy(&sc->cv);
}

/* Terminals and their schedulers: one per event loop, or one shared by
 * blocking connections (one per blocking session when each terminal has its
 * own). */
int terms_init(struct runner *r, uint64_t seed)
{
	const struct runner_config *cfg = r->cfg;
	const struct workload_ops *wl = cfg->wl;
	size_t tsz = (wl->term_size + 15) & ~(size_t)15;
	bool shared = r->loops[0].blocking && !cfg->session_per_terminal;

	if (!wl->term_init || !wl->term_next || !wl->bind_term || !wl->term_size)
		return -1;
	r->nscheds = shared ? 1 : r->nloops;
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
		r->loops[i].sched = &r->scheds[shared ? 0 : i];
	r->terms = xcalloc(cfg->terminals, sizeof(*r->terms));
	r->term_wl = xcalloc(cfg->terminals, tsz);
	for (unsigned i = 0; i < cfg->terminals; i++) {
		struct term *t = &r->terms[i];
		t->wl = r->term_wl + (size_t)i * tsz;
		rng_seed(&t->rng, seed ^ (0xD1B54A32D192ED03ULL * (i + 1)));
		wl->term_init(cfg->wl_ctx, i, t->wl);
		/* Session i lives on loop i % nloops, whose scheduler gets terminal i. */
		if (cfg->session_per_terminal)
			t->home = &r->sessions[i];
	}
	return 0;
}

/* Every terminal shows its first menu at a random point of one mean cycle,
 * so they do not all submit at the same instant. */
void terms_start(struct runner *r, uint64_t start)
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
