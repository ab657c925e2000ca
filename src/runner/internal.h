/*
 * What the runner's files share (runner.h is the public side): the run, its
 * loop threads, their sessions (one per connection) and the terminal
 * schedulers. Only src/runner/ includes this.
 *
 *   runner.c   runner_run: set up, open the connections, start the loops,
 *              the outcome, tear down
 *   phases.c   the clock: drive the run through the phases, report intervals
 *              and checkpoints, the connection outages of the sample
 *   loop.c     one event-loop thread: serve its sessions' fds, timers and
 *              parked sessions; the connectors that open every session first
 *   session.c  one connection's state machine: statements, commit/rollback,
 *              retry, reconnect, recording of finished transactions
 *   sched.c    terminals (TPC-C): the min-heap of next submits, keying and
 *              think times, deferred jobs, a bound session's backlog
 *   span.c     merged counters + histograms of a span of time
 *
 * Thread rule: a session belongs to its loop's thread (a connector opens it
 * before the loops start); a recorder's span is guarded by its mutex (the main
 * thread drains it); a sched by its own mutex; the run's error and start gate
 * by runner->mu; stop/phase/counters are atomics.
 */
#ifndef DBRIG_RUNNER_INTERNAL_H
#define DBRIG_RUNNER_INTERNAL_H

#include "runner/rate.h"
#include "runner/runner.h"

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RECONNECT_BACKOFF_MIN_NS (10 * NS_PER_MS)
#define RECONNECT_BACKOFF_MAX_NS (1000 * NS_PER_MS)
#define LOOP_TICK_MS 100

struct session;

struct term {
	uint64_t due;       /* submit time (heap key) */
	unsigned type;      /* transaction type of the pending submit */
	bool job;           /* a deferred job: freed after it ran */
	struct rng rng;
	void *wl;           /* workload state, term_size bytes */
	struct session *home; /* session_per_terminal: the one session that runs it */
	struct term *next;    /* in home's backlog */
};

struct sched {
	pthread_mutex_t mu;
	pthread_cond_t cv;  /* blocking connections wait here for a due terminal */
	struct term **heap;
	size_t n, cap;
	/* Queued-time accounting of the pool it serves (runner_queue_credit). */
	unsigned waiters;   /* blocking connections asleep in sched_take */
	uint64_t sat_since; /* since when no connection of the pool was free */
	uint64_t covered;
};

enum sess_state {
	S_START,         /* between transactions */
	S_WAIT_EXEC,     /* a statement is in flight */
	S_WAIT_ROLLBACK, /* rolling back before a retry */
	S_RECONNECT,     /* waiting to try connecting again */
	S_BACKOFF,       /* waiting to run a rolled-back transaction again */
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
	unsigned attempts;   /* failed attempts of the transaction in progress */
	uint64_t rt;         /* requests sent for it so far (round trips) */
	uint64_t retry_at;   /* S_BACKOFF: when to run it again */
	uint64_t events[PHASE_COUNT];
	uint64_t busy_ns[PHASE_COUNT];
	struct term *term;   /* terminal (or job) whose transaction runs here */
	uint64_t wait_ns;    /* its wait from the submit to the pickup */
	uint64_t queued_add; /* its credit of the pool's queued time */
	bool idle;           /* parked: no terminal due (or, with --rate, no arrival) */
	bool woken;          /* handed its terminal while parked: the wait was not the pool's */
	uint64_t freed;      /* when its last transaction ended */
	uint64_t busy_since, covered; /* bound on an event loop: its own queued-time marks */
	uint64_t ck_events;  /* events[PHASE_SAMPLE] and busy_ns at the last checkpoint */
	uint64_t ck_busy_ns;
	/* session_per_terminal on an event loop: items of this session that came
	 * due while it was busy, oldest first. */
	struct term *backlog, *backlog_tail;
};

/* Where finished transactions are recorded; drained by the main thread. One
 * per event loop; blocking sessions, one thread each, share a few (thousands
 * of histogram sets would cost more than the sessions). */
struct recorder {
	pthread_mutex_t mu;
	/* Guarded by mu; by the phase in which a transaction completed, read
	 * under mu, so the drain that follows a phase change holds all of it. */
	struct span_stats cur[PHASE_COUNT];
	uint64_t last_done;    /* when its last transaction completed (guarded by mu) */
};

struct loop {
	struct runner *r;
	pthread_t th;
	int epfd;
	struct session **sess;
	unsigned n;
	unsigned active;
	unsigned timers;     /* sessions in S_RECONNECT or S_BACKOFF */
	bool blocking;
	struct recorder *rec;
	struct sched *sched;   /* terminal mode */
	struct session **idle; /* sessions parked without a due terminal or arrival (pool mode) */
	unsigned nidle;
	struct rate_sched *rate; /* --rate: this loop's arrivals */
	bool no_pwait2;        /* the kernel has no epoll_pwait2: ms timeouts */
	bool swept;            /* bound mode: parked sessions ended after a stop */
};

struct runner {
	const struct runner_config *cfg;
	struct loop *loops;
	unsigned nloops;
	struct recorder *recs;
	unsigned nrecs;
	struct session *sessions;
	atomic_int stop;
	atomic_int phase;
	atomic_llong events_left; /* sample-phase event budget (when limited) */
	atomic_uint next_connect; /* connectors: the next session to open */
	atomic_uint connectors_done;
	atomic_uint ready;       /* loops at the start gate */
	atomic_uint finished;    /* loops whose sessions are all done */
	atomic_int failed;
	/* Earliest reconnect_since of a session still lost when the sessions
	 * were stopped (0 = none were): an outage that the end of the sample
	 * cut short, which --reconnect-timeout never got to judge. */
	atomic_ullong lost_since;
	/* The outage: sample time during which a connection was lost (one
	 * session or more reconnecting), runner_outage_begin/_end. */
	pthread_mutex_t outage_mu;
	unsigned nlost;            /* sessions reconnecting now */
	uint64_t lost_from;        /* since when (the first of them) */
	uint64_t outage_ns;        /* within the sample */
	atomic_ullong sample_start; /* 0 before the sample */
	uint64_t sample_ns;        /* the sample's length, once it ended */
	pthread_mutex_t mu;      /* guards error, start gate */
	pthread_cond_t cv;
	bool go;
	char error[768];
	sem_t connect_slots;     /* connects in flight (cfg->connect_concurrency) */
	bool have_slots;
	struct sched *scheds;
	unsigned nscheds;
	struct term *terms;
	unsigned char *term_wl;
	struct rate_sched *rates; /* --rate: one per event loop, or one shared by blocking connections */
	unsigned nrates;
	atomic_uint concurrency;  /* --rate: transactions taken and not finished */
	pthread_t main_thread;    /* woken (SIGUSR1) when the last loop finishes */
};

/* A phase's totals, as the clock (phases.c) accumulates them. */
struct phase_acc {
	struct span_stats total;
	uint64_t start;
	double cpu0;       /* self_cpu_s() at its start */
	bool active;
};

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

/* span.c */
int span_init(struct span_stats *s, unsigned ntypes) __attribute__((warn_unused_result));
void span_free(struct span_stats *s);
void span_reset(struct span_stats *s);
void span_add(struct span_stats *d, const struct span_stats *s);

/* runner.c: record the run's first error and stop it. */
void runner_fail(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* session.c */
/* Where the run connects, for messages (the driver's describe). */
const char *runner_endpoint(const struct runner_config *cfg, char *buf, size_t n);
int session_connect(struct session *s);
void session_disconnect(struct session *s);
void session_finish(struct session *s);
/* Issue steps until one has to wait; `ready` is the fd readiness that woke it (0: none). */
void session_run(struct session *s, int ready);

/* sched.c */
void sched_push(struct sched *sc, struct term *t);
uint64_t sched_top_due(struct sched *sc);
/* `saturated`: the taker was busy until `freed` and no other connection of
 * the pool is free (a blocking taker's scheduler also checks its sleepers).
 * *queued = the pickup's credit of queued time. */
struct term *sched_take(struct runner *r, struct sched *sc, bool wait, bool saturated, uint64_t freed,
			uint64_t *queued);
/* Wake every connection sleeping in sched_take (the run stops). */
void sched_wake_all(struct runner *r);
/* Bound sessions on an event loop: hand the loop's due items to their
 * sessions (run at once when parked, else queued in the backlog). */
void sched_dispatch_bound(struct loop *l, uint64_t now);
struct term *backlog_pop(struct session *s);
void sched_free_backlogs(struct runner *r);
void sched_free(struct sched *sc);
void term_complete(struct session *s, uint64_t now);
int terms_init(struct runner *r, uint64_t seed);
void terms_start(struct runner *r, uint64_t start);

/* session.c, --rate: take the next due arrival for an idle session; false
 * when none is due (*next: when one will be) or the queue overflowed (the run
 * is then failing). */
bool session_take_arrival(struct session *s, uint64_t *next);

/* loop.c */
void *loop_main(void *arg);
unsigned loop_default_count(void);
/* A connector thread: opens sessions (r->next_connect) until none is left. */
void *connector_main(void *arg);

/* phases.c: a session lost its connection (not already reconnecting) / got it back. */
void runner_outage_begin(struct runner *r, uint64_t now);
void runner_outage_end(struct runner *r, uint64_t now);

/* phases.c, the clock */
double runner_secs(uint64_t ns); /* nanoseconds as seconds */
/* Phase ph starts at now: its length, its first tick, on_phase_start. */
void runner_start_phase(struct runner *r, struct run_clock *rc, enum phase_kind ph, uint64_t now);
/* From the first phase's start to the end of the sample, or until the run stops. */
void runner_drive(struct runner *r, struct run_clock *rc, const sigset_t *sigs, struct runner_outcome *out);

#endif
