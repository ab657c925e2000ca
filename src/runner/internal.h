/*
 * What the runner's files share (runner.h is the public side): the run, its
 * loop threads, their sessions (one per connection) and the terminal
 * schedulers. Only src/runner/ includes this.
 *
 *   runner.c   runner_run: set up, start the loops, drive the clock through
 *              the phases and report intervals, tear down
 *   loop.c     one event-loop thread: connect its sessions, serve their fds,
 *              timers and parked sessions
 *   session.c  one connection's state machine: statements, commit/rollback,
 *              retry, reconnect, recording of finished transactions
 *   sched.c    terminals (TPC-C): the min-heap of next submits, keying and
 *              think times, deferred jobs
 *   span.c     merged counters + histograms of a span of time
 *
 * Thread rule: a session belongs to its loop's thread; loop->cur is guarded by
 * loop->mu (the main thread drains it); a sched by its own mutex; the run's
 * error and start gate by runner->mu; stop/phase/counters are atomics.
 */
#ifndef DBRIG_RUNNER_INTERNAL_H
#define DBRIG_RUNNER_INTERNAL_H

#include "runner/rate.h"
#include "runner/runner.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	bool idle;           /* parked: no terminal due (or, with --rate, no arrival) */
	uint64_t ck_events;  /* events[PHASE_SAMPLE] and busy_ns at the last checkpoint */
	uint64_t ck_busy_ns;
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
	struct session **idle; /* sessions parked without a due terminal or arrival */
	unsigned nidle;
	struct rate_sched *rate; /* --rate: this loop's arrivals */
	uint64_t last_done;    /* when its last transaction completed (guarded by mu) */
	bool no_pwait2;        /* the kernel has no epoll_pwait2: ms timeouts */
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
	/* Earliest reconnect_since of a session still lost when the sessions
	 * were stopped (0 = none were): an outage that the end of the sample
	 * cut short, which --reconnect-timeout never got to judge. */
	atomic_ullong lost_since;
	pthread_mutex_t mu;      /* guards error, start gate */
	pthread_cond_t cv;
	bool go;
	char error[768];
	struct sched *scheds;
	unsigned nscheds;
	struct term *terms;
	unsigned char *term_wl;
	struct rate_sched *rates; /* --rate: one per event loop, or one shared by blocking connections */
	unsigned nrates;
	atomic_uint concurrency;  /* --rate: transactions taken and not finished */
	pthread_t main_thread;    /* woken (SIGUSR1) when the last loop finishes */
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
struct term *sched_take(struct runner *r, struct sched *sc, bool wait);
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

#endif
