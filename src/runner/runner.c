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
 * The files of the runner and what they share: internal.h.
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

static void drain(struct runner *r, enum phase_kind ph, struct span_stats *into)
{
	for (unsigned i = 0; i < r->nrecs; i++) {
		struct recorder *rec = &r->recs[i];
		pthread_mutex_lock(&rec->mu);
		span_add(into, &rec->cur[ph]);
		span_reset(&rec->cur[ph]);
		pthread_mutex_unlock(&rec->mu);
	}
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* This process's CPU time so far, user + system: what the driver itself costs. */
static double self_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

/* Pools of connections the terminals queue for: an event loop's sessions, all
 * blocking ones, or with one session per terminal, each session. */
static unsigned pools(const struct runner *r)
{
	if (!r->cfg->terminals)
		return 0;
	return r->cfg->session_per_terminal ? r->cfg->threads : r->nscheds;
}

static double queued_share(const struct runner *r, const struct span_stats *s, uint64_t span_ns)
{
	unsigned n = pools(r);

	return n && span_ns ? (double)s->queued_ns / ((double)n * (double)span_ns) : 0;
}

struct phase_acc {
	struct span_stats total;
	uint64_t start;
	double cpu0;       /* self_cpu_s() at its start */
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
		.cpu_s = self_cpu_s() - pa->cpu0,
		.pools = pools(r),
		.queued_share = queued_share(r, &pa->total, now - pa->start),
	};

	pr.pool_capped = !cfg->session_per_terminal && pr.queued_share > RUNNER_POOL_CAPPED_SHARE;
	/* Fairness counters are written under the recorder's lock with the
	 * phase the transaction is counted in: the phase's drain has them all. */
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
			  uint64_t phase_start, uint64_t iv_start, uint64_t now, uint64_t stamp, bool partial,
			  double *iv_cpu)
{
	const struct runner_config *cfg = r->cfg;
	double cpu = self_cpu_s();
	struct interval_report ir = {
		.phase = ph,
		.t = secs(stamp - run_start),
		.phase_t = secs(stamp - phase_start),
		.seconds = secs(now - iv_start),
		.partial = partial,
		.threads = cfg->threads,
		.s = iv,
		.open_loop = cfg->rate > 0,
		.cpu_s = cpu - *iv_cpu,
		.pools = pools(r),
		.queued_share = queued_share(r, iv, now - iv_start),
	};

	*iv_cpu = cpu;

	if (cfg->rate > 0) {
		for (unsigned i = 0; i < r->nrates; i++)
			ir.queue_length += rate_queue_len(&r->rates[i], now, NULL);
		ir.concurrency = atomic_load(&r->concurrency);
	}
	if (cfg->cb.on_interval && ir.seconds > 0)
		cfg->cb.on_interval(cfg->cb.arg, &ir);
}

/* The main thread's view of the run: phases, their totals, the interval being filled. */
struct run_clock {
	struct phase_acc pa[PHASE_COUNT];
	struct span_stats iv;
	enum phase_kind ph;
	uint64_t run_start, phase_start, phase_len, iv_start, next_tick;
	double iv_cpu;          /* self_cpu_s() at the interval's start */
	/* --report-checkpoints, in the sample phase */
	struct span_stats ck;   /* since the previous checkpoint */
	uint64_t ck_start;      /* when that was */
	unsigned ck_next;       /* index of the next checkpoint */
};

/* The end of a phase: the time its last transaction completed, when that is
 * later than `floor` (a run that ends by its --events ends with its last
 * event, not when the main thread next looks); else `floor`. */
static uint64_t phase_end_time(struct runner *r, uint64_t floor)
{
	uint64_t last = 0;

	for (unsigned i = 0; i < r->nrecs; i++) {
		pthread_mutex_lock(&r->recs[i].mu);
		if (r->recs[i].last_done > last)
			last = r->recs[i].last_done;
		pthread_mutex_unlock(&r->recs[i].mu);
	}
	return last > floor ? last : floor;
}

/* sysbench's checkpoint report: everything since the previous one, then the
 * counters start again. */
static void emit_checkpoint(struct runner *r, struct run_clock *rc, uint64_t now, bool final)
{
	const struct runner_config *cfg = r->cfg;
	uint64_t *ev = xcalloc(cfg->threads, sizeof(*ev));
	double *busy = xcalloc(cfg->threads, sizeof(*busy));
	struct checkpoint_report cr = {
		.t = secs(now - rc->phase_start),
		.seconds = secs(now - rc->ck_start),
		.final = final,
		.threads = cfg->threads,
		.s = &rc->ck,
		.session_events = ev,
		.session_seconds = busy,
	};

	for (unsigned i = 0; i < cfg->threads; i++) {
		struct session *s = &r->sessions[i];
		ev[i] = s->events[PHASE_SAMPLE] - s->ck_events;
		busy[i] = secs(s->busy_ns[PHASE_SAMPLE] - s->ck_busy_ns);
		s->ck_events = s->events[PHASE_SAMPLE];
		s->ck_busy_ns = s->busy_ns[PHASE_SAMPLE];
	}
	if (cfg->cb.on_checkpoint)
		cfg->cb.on_checkpoint(cfg->cb.arg, &cr);
	span_reset(&rc->ck);
	rc->ck_start = now;
	free(ev);
	free(busy);
}

/* Drain the loops into the interval, the phase and (in the sample, with
 * checkpoints) the checkpoint's span. */
static void drain_all(struct runner *r, struct run_clock *rc)
{
	drain(r, rc->ph, &rc->iv);
	span_add(&rc->pa[rc->ph].total, &rc->iv);
	if (r->cfg->ncheckpoints && rc->ph == PHASE_SAMPLE)
		span_add(&rc->ck, &rc->iv);
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

static void start_phase(struct runner *r, struct run_clock *rc, enum phase_kind ph, uint64_t now)
{
	const struct runner_config *cfg = r->cfg;

	rc->ph = ph;
	rc->phase_start = now;
	if (ph == PHASE_SAMPLE)
		atomic_store(&r->sample_start, now ? now : 1);
	rc->phase_len = ph == PHASE_PRECONDITION ? cfg->precondition_ns : cfg->time_ns;
	rc->iv_start = now;
	rc->next_tick = cfg->report_interval_ns ? now + cfg->report_interval_ns : UINT64_MAX;
	rc->pa[ph].start = now;
	rc->pa[ph].cpu0 = rc->iv_cpu = self_cpu_s();
	rc->pa[ph].active = true;
	rc->ck_start = now;
	rc->ck_next = 0;
	if (cfg->cb.on_phase_start)
		cfg->cb.on_phase_start(cfg->cb.arg, ph, secs(rc->phase_len));
}

/*
 * A connection still lost when the sample ended, for a tenth of the sample
 * or more, fails the run: the server was away for a good part of what the
 * result would call the drive's sample (a server
 * gone from 0:04 of a 25 s sample gave a "complete" result at 1/7 of the TPS,
 * because the outage was still shorter than --reconnect-timeout when the
 * sample ended). A shorter cut-off outage stays a fault mark in the intervals.
 */
/* [from, to] clipped to the sample, into the outage (outage_mu held). */
static void outage_add(struct runner *r, uint64_t from, uint64_t to)
{
	uint64_t s = atomic_load(&r->sample_start);

	if (!s)
		return;
	if (from < s)
		from = s;
	if (to > from)
		r->outage_ns += to - from;
}

bool runner_outage_degrades(uint64_t outage_ns, uint64_t sample_ns)
{
	return sample_ns && (double)outage_ns > RUNNER_DEGRADED_SHARE * (double)sample_ns;
}

void runner_outage_begin(struct runner *r, uint64_t now)
{
	pthread_mutex_lock(&r->outage_mu);
	if (r->nlost++ == 0)
		r->lost_from = now;
	pthread_mutex_unlock(&r->outage_mu);
}

void runner_outage_end(struct runner *r, uint64_t now)
{
	pthread_mutex_lock(&r->outage_mu);
	if (r->nlost && --r->nlost == 0)
		outage_add(r, r->lost_from, now);
	pthread_mutex_unlock(&r->outage_mu);
}

/* The sample ended at phase_end: an outage still open counts up to there. */
static void outage_close(struct runner *r, uint64_t phase_start, uint64_t phase_end)
{
	pthread_mutex_lock(&r->outage_mu);
	if (r->nlost)
		outage_add(r, r->lost_from, phase_end);
	r->nlost = 0;
	r->sample_ns = phase_end - phase_start;
	pthread_mutex_unlock(&r->outage_mu);
}

static void lost_at_end(struct runner *r, uint64_t phase_start, uint64_t phase_end)
{
	uint64_t since = atomic_load(&r->lost_since);
	char ep[256];

	if (!since || since >= phase_end)
		return;
	if (since < phase_start)
		since = phase_start;
	if ((phase_end - since) * 10 < phase_end - phase_start)
		return;
	runner_fail(r, "%s: connection lost %.1fs before the end of the sample (%.0f%% of it) and not re-established; "
		    "the result would not measure the drive", runner_endpoint(r->cfg, ep, sizeof(ep)),
		    (double)(phase_end - since) / 1e9, 100.0 * (double)(phase_end - since) / (double)(phase_end - phase_start));
}

static void join_loops(struct runner *r)
{
	sched_wake_all(r);
	for (unsigned i = 0; i < r->nloops; i++)
		pthread_join(r->loops[i].th, NULL);
}

/*
 * The clock, from the start gate to the end of the sample: interval ticks,
 * the phase boundary, signals (taken here with sigtimedwait), and the end when
 * every loop finished or the run stopped.
 */
static void drive(struct runner *r, struct run_clock *rc, const sigset_t *sigs, struct runner_outcome *out)
{
	const struct runner_config *cfg = r->cfg;

	for (;;) {
		uint64_t now = clock_now_ns();
		uint64_t phase_end = rc->phase_len ? rc->phase_start + rc->phase_len : UINT64_MAX;
		uint64_t deadline = rc->next_tick < phase_end ? rc->next_tick : phase_end;
		uint64_t poll_until = now + 100 * NS_PER_MS;
		bool checkpoints = cfg->ncheckpoints && rc->ph == PHASE_SAMPLE;
		uint64_t ck_due = checkpoints && rc->ck_next < cfg->ncheckpoints
					  ? rc->phase_start + cfg->checkpoints[rc->ck_next] * NS_PER_SEC
					  : UINT64_MAX;
		bool all_done = atomic_load(&r->finished) == r->nloops;
		enum phase_kind ph = rc->ph;

		if (ck_due < deadline)
			deadline = ck_due;
		if (deadline > poll_until)
			deadline = poll_until;
		if (!all_done && deadline > now && !atomic_load(&r->stop)) {
			struct timespec ts = {
				.tv_sec = (time_t)((deadline - now) / NS_PER_SEC),
				.tv_nsec = (long)((deadline - now) % NS_PER_SEC),
			};
			int sig = sigtimedwait(sigs, NULL, &ts);
			if (sig > 0 && sig != SIGUSR1) {
				out->status = RUNNER_INTERRUPTED;
				out->signal = sig;
				atomic_store(&r->stop, 1);
			}
			now = clock_now_ns();
			all_done = atomic_load(&r->finished) == r->nloops;
		}
		/* --rate: arrivals nobody takes still fill the queue. */
		for (unsigned i = 0; i < r->nrates; i++) {
			bool overflow = false;
			rate_queue_len(&r->rates[i], now, &overflow);
			if (overflow)
				runner_fail(r, "%s", RATE_OVERFLOW_MESSAGE);
		}
		if (atomic_load(&r->stop) || all_done) {
			/* Let in-flight transactions finish, then account for
			 * them; the phase ends with the last one, never before the
			 * last interval emitted; a failed run when it failed (the
			 * connections may have been reconnecting for seconds). */
			join_loops(r);
			now = atomic_load(&r->failed) ? clock_now_ns() : phase_end_time(r, rc->iv_start);
			drain_all(r, rc);
			emit_interval(r, &rc->iv, ph, rc->run_start, rc->phase_start, rc->iv_start, now, now, true,
				      &rc->iv_cpu);
			bool complete = !atomic_load(&r->failed) && out->status != RUNNER_INTERRUPTED &&
					(rc->phase_len == 0 || now >= phase_end ||
					 (ph == PHASE_SAMPLE && cfg->events && atomic_load(&r->events_left) <= 0));
			if (checkpoints)
				emit_checkpoint(r, rc, now, true);
			end_phase(r, &rc->pa[ph], ph, now, complete);
			return;
		}
		if (now >= ck_due) {
			drain_all(r, rc);
			emit_checkpoint(r, rc, now, false);
			rc->ck_next++;
		}
		bool end_due = now >= phase_end;
		bool tick_due = now >= rc->next_tick && rc->next_tick <= phase_end;
		if (end_due) {
			/* The boundary, taken before the drain: the precondition's
			 * transactions are those recorded before the phase changed;
			 * in the sample, none may start after its deadline (at most
			 * one per connection races the flag). */
			if (ph == PHASE_SAMPLE)
				atomic_store(&r->stop, 1);
			else
				atomic_store(&r->phase, PHASE_SAMPLE);
			now = clock_now_ns();
		}
		if (tick_due || end_due) {
			drain_all(r, rc);
			/* Stamped with the tick it belongs to (as sysbench prints
			 * multiples of the interval); rates use the real length.
			 * The phase's last, shorter interval is marked partial. */
			emit_interval(r, &rc->iv, ph, rc->run_start, rc->phase_start, rc->iv_start, now,
				      tick_due ? rc->next_tick : now, !tick_due, &rc->iv_cpu);
			span_reset(&rc->iv);
			rc->iv_start = now;
			/* A late wake-up skips the missed ticks instead of
			 * emitting near-empty intervals. */
			while (tick_due && rc->next_tick <= now)
				rc->next_tick += cfg->report_interval_ns;
		}
		if (end_due) {
			if (ph == PHASE_SAMPLE) {
				join_loops(r);
				/* Transactions in flight at the deadline finish and
				 * count, as in sysbench; the phase ends with the
				 * last of them (or at the deadline). */
				now = phase_end_time(r, phase_end);
				drain_all(r, rc);
				if (checkpoints)
					emit_checkpoint(r, rc, now, true);
				lost_at_end(r, rc->phase_start, phase_end);
				outage_close(r, rc->phase_start, phase_end);
				end_phase(r, &rc->pa[ph], ph, now, !atomic_load(&r->failed));
				return;
			}
			end_phase(r, &rc->pa[ph], ph, now, true);
			start_phase(r, rc, PHASE_SAMPLE, now);
		}
	}
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
			cfg->cb.on_connected(cfg->cb.arg, cfg->threads, secs(clock_now_ns() - t0));
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

int runner_run(const struct runner_config *cfg, struct runner_outcome *out)
{
	struct runner r;
	struct run_clock rc;
	sigset_t sigs, oldsigs;
	pthread_attr_t attr;
	unsigned started = 0;
	int ret = -1;
	uint64_t seed = cfg->rand_seed ? cfg->rand_seed : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	memset(out, 0, sizeof(*out));
	memset(&r, 0, sizeof(r));
	memset(&rc, 0, sizeof(rc));
	r.cfg = cfg;
	if (runner_setup(&r, cfg, &rc, seed, out) < 0)
		goto out_free;

	/* Signals are taken by this thread only, with sigtimedwait. SIGHUP (the
	 * terminal or ssh session closed) ends the run like SIGTERM: its default
	 * action killed the driver with no result and no journal end line. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGUSR1); /* the last loop's "all done" */
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, &oldsigs);
	r.main_thread = pthread_self();

	if (connect_phase(&r, &sigs, out) < 0) {
		pthread_sigmask(SIG_SETMASK, &oldsigs, NULL);
		goto out_free;
	}
	pthread_attr_init(&attr);
	if (cfg->session_per_terminal && r.loops[0].blocking)
		pthread_attr_setstacksize(&attr, BOUND_THREAD_STACK);
	for (unsigned i = 0; i < r.nloops; i++) {
		int e = pthread_create(&r.loops[i].th, &attr, loop_main, &r.loops[i]);
		if (e) {
			runner_fail(&r, "cannot start thread %u of %u: %s (see ulimit -u, kernel.threads-max, kernel.pid_max)",
				    i + 1, r.nloops, strerror(e));
			break;
		}
		started++;
	}
	pthread_attr_destroy(&attr);

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
	start_phase(&r, &rc, cfg->precondition_ns ? PHASE_PRECONDITION : PHASE_SAMPLE, rc.run_start);
	drive(&r, &rc, &sigs, out);
	{
		uint64_t t0 = clock_now_ns();
		disconnect_all(&r);
		if (cfg->cb.on_closed)
			cfg->cb.on_closed(cfg->cb.arg, cfg->threads, secs(clock_now_ns() - t0));
	}
	if (atomic_load(&r.failed)) {
		out->status = RUNNER_FAILED;
		snprintf(out->error, sizeof(out->error), "%s", r.error);
	}
	out->outage_ns = r.outage_ns;
	out->sample_ns = r.sample_ns;
	if (out->status == RUNNER_COMPLETE && runner_outage_degrades(r.outage_ns, r.sample_ns)) {
		char ep[256];
		out->status = RUNNER_DEGRADED;
		snprintf(out->error, sizeof(out->error),
			 "%s: connection lost for %.1fs of the %.1fs sample (%.1f%%, more than %g%%); the result is marked "
			 "degraded", runner_endpoint(cfg, ep, sizeof(ep)), (double)r.outage_ns / 1e9,
			 (double)r.sample_ns / 1e9, 100.0 * (double)r.outage_ns / (double)r.sample_ns,
			 100.0 * RUNNER_DEGRADED_SHARE);
	}
	/* A signal that arrived after the last wait must not kill the process
	 * once unblocked: the caller still has results to write. */
	for (;;) {
		struct timespec zero = {0, 0};
		int sig = sigtimedwait(&sigs, NULL, &zero);
		if (sig <= 0)
			break;
		if (sig != SIGUSR1)
			out->signal = sig;
	}
	pthread_sigmask(SIG_SETMASK, &oldsigs, NULL);
out_free:
	runner_teardown(&r, &rc);
	return ret;
}
