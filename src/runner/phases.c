/*
 * The run's clock, on the main thread from the start gate to the end of the
 * sample (runner_drive): the phases and the boundary between them, the
 * interval ticks, sysbench's checkpoints, the signals, and what each reports
 * (the loops' spans drained, this process's CPU time, the terminals' queued
 * share); and the connection outages within the sample. runner.c sets the
 * run up before and tears it down after (runner/internal.h).
 */
#include "runner/internal.h"

#include "core/clock.h"
#include "core/strbuf.h"
#include "core/units.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

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

double runner_secs(uint64_t ns)
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

static void end_phase(struct runner *r, struct phase_acc *pa, enum phase_kind ph, uint64_t now, bool complete)
{
	const struct runner_config *cfg = r->cfg;
	uint64_t *ev = xcalloc(cfg->threads, sizeof(*ev));
	double *busy = xcalloc(cfg->threads, sizeof(*busy));
	struct phase_report pr = {
		.phase = ph,
		.complete = complete,
		.seconds = runner_secs(now - pa->start),
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
		busy[i] = runner_secs(r->sessions[i].busy_ns[ph]);
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
		.t = runner_secs(stamp - run_start),
		.phase_t = runner_secs(stamp - phase_start),
		.seconds = runner_secs(now - iv_start),
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
		.t = runner_secs(now - rc->phase_start),
		.seconds = runner_secs(now - rc->ck_start),
		.final = final,
		.threads = cfg->threads,
		.s = &rc->ck,
		.session_events = ev,
		.session_seconds = busy,
	};

	for (unsigned i = 0; i < cfg->threads; i++) {
		struct session *s = &r->sessions[i];
		ev[i] = s->events[PHASE_SAMPLE] - s->ck_events;
		busy[i] = runner_secs(s->busy_ns[PHASE_SAMPLE] - s->ck_busy_ns);
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

void runner_start_phase(struct runner *r, struct run_clock *rc, enum phase_kind ph, uint64_t now)
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
		cfg->cb.on_phase_start(cfg->cb.arg, ph, runner_secs(rc->phase_len));
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

/* Sleep until deadline (later than now) or a signal: SIGINT, SIGTERM or
 * SIGHUP interrupts the run; SIGUSR1 (the last loop's "all done") only wakes. */
static void wait_signal(struct runner *r, const sigset_t *sigs, uint64_t now, uint64_t deadline,
			struct runner_outcome *out)
{
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
}

/* --rate: arrivals nobody takes still fill the queue; one that overflows fails the run. */
static void check_rate_queues(struct runner *r, uint64_t now)
{
	for (unsigned i = 0; i < r->nrates; i++) {
		bool overflow = false;
		rate_queue_len(&r->rates[i], now, &overflow);
		if (overflow)
			runner_fail(r, "%s", RATE_OVERFLOW_MESSAGE);
	}
}

/* The end of phase ph when the run stopped or every loop finished. */
static void end_stopped(struct runner *r, struct run_clock *rc, enum phase_kind ph, uint64_t phase_end,
			bool checkpoints, struct runner_outcome *out)
{
	const struct runner_config *cfg = r->cfg;
	uint64_t now;

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
}

/* The end of the sample at its deadline, phase_end. */
static void end_sample(struct runner *r, struct run_clock *rc, uint64_t phase_end, bool checkpoints)
{
	uint64_t now;

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
	end_phase(r, &rc->pa[PHASE_SAMPLE], PHASE_SAMPLE, now, !atomic_load(&r->failed));
}

/*
 * The clock, from the start gate to the end of the sample: interval ticks,
 * the phase boundary, signals (taken here with sigtimedwait), and the end when
 * every loop finished or the run stopped.
 */
void runner_drive(struct runner *r, struct run_clock *rc, const sigset_t *sigs, struct runner_outcome *out)
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
			wait_signal(r, sigs, now, deadline, out);
			now = clock_now_ns();
			all_done = atomic_load(&r->finished) == r->nloops;
		}
		check_rate_queues(r, now);
		if (atomic_load(&r->stop) || all_done) {
			end_stopped(r, rc, ph, phase_end, checkpoints, out);
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
				end_sample(r, rc, phase_end, checkpoints);
				return;
			}
			end_phase(r, &rc->pa[ph], ph, now, true);
			runner_start_phase(r, rc, PHASE_SAMPLE, now);
		}
	}
}
