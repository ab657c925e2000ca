/*
 * The runner: --threads concurrent connections in a closed loop, multiplexed
 * over a few event-loop threads when the driver has non-blocking calls (one
 * OS thread per connection otherwise), a precondition phase then a sample
 * phase, statistics drained from every recording thread at each report
 * interval and at each phase boundary. Connections are opened before the
 * clock starts by at most `connect_concurrency` connects at a time.
 *
 * Latency of a transaction runs from its first attempt's start to its commit
 * (CLOCK_MONOTONIC), retries and reconnects included, as sysbench counts it.
 * A transaction belongs to the phase in which it completes.
 */
#ifndef DBRIG_RUNNER_RUNNER_H
#define DBRIG_RUNNER_RUNNER_H

#include "db/db.h"
#include "stats/counters.h"
#include "stats/hist.h"
#include "workload/workload.h"

#include <stdbool.h>
#include <stdint.h>

#define RUNNER_MAX_TYPES 8

enum phase_kind {
	PHASE_PRECONDITION = 0,
	PHASE_SAMPLE = 1,
};
#define PHASE_COUNT 2

const char *phase_name(enum phase_kind p);

/* A merged view of some span of time: an interval or a whole phase. */
struct span_stats {
	struct counters c;
	struct hist *lat;                     /* all types */
	struct hist *type_lat[RUNNER_MAX_TYPES];
	uint64_t type_count[RUNNER_MAX_TYPES];
	uint64_t type_retries[RUNNER_MAX_TYPES];  /* retried errors per type */
	/* Requests sent to the server for the committed transactions (each
	 * statement, commit and rollback, failed attempts included): round
	 * trips, in total and per type. */
	uint64_t round_trips;
	uint64_t type_rt[RUNNER_MAX_TYPES];
	uint64_t retry_kind[DB_RETRY_KINDS];      /* retried errors per db_retry_kind */
	/* Terminals: the wait for a connection, apart from the service time
	 * (latency = wait + service). `wait` holds every transaction's time from
	 * its submit to its pickup by a connection; `queued_ns` the time during
	 * which a due terminal waited and its pool had no free connection (summed
	 * over the pools, see runner_queue_credit). */
	struct hist *wait;
	uint64_t type_wait_ns[RUNNER_MAX_TYPES];
	uint64_t queued_ns;
};

struct interval_report {
	enum phase_kind phase;
	double t;          /* seconds since the run started */
	double phase_t;    /* seconds since the phase started */
	double seconds;    /* length of this interval */
	bool partial;      /* the last, shorter interval of a phase */
	unsigned threads;
	const struct span_stats *s;
	/* --rate: arrivals due and not yet started, and transactions in progress,
	 * at the end of the interval (sysbench's "queue length, concurrency"). */
	bool open_loop;
	uint64_t queue_length;
	uint64_t concurrency;
	double cpu_s;      /* this process's CPU time (user + system, getrusage) in the interval */
	/* Terminals: the pools of connections they queue for (0 = no terminals)
	 * and the share of the time a pool had a due terminal and no free
	 * connection: s->queued_ns / (pools x seconds). */
	unsigned pools;
	double queued_share;
};

struct phase_report {
	enum phase_kind phase;
	bool complete;     /* ran its full length (or its events) */
	double seconds;
	unsigned threads;
	const struct span_stats *s;
	/* Per connection, for sysbench's "Threads fairness". */
	const uint64_t *session_events;
	const double *session_seconds;
	double cpu_s;      /* this process's CPU time in the phase */
	unsigned pools;      /* as in interval_report */
	double queued_share;
	/* A pool (not one session per terminal) queued terminals for more than
	 * RUNNER_POOL_CAPPED_SHARE of the phase: the client, not the server, set
	 * the queue depth that long. */
	bool pool_capped;
};

/* --report-checkpoints: the statistics since the previous checkpoint (or the
 * start of the sample), then reset. The last one (`final`) comes at the end
 * of the sample, just before on_phase_end, and covers what followed the last
 * checkpoint. */
struct checkpoint_report {
	double t;          /* seconds since the sample started */
	double seconds;    /* since the previous checkpoint */
	bool final;
	unsigned threads;
	const struct span_stats *s;
	const uint64_t *session_events; /* since the previous checkpoint */
	const double *session_seconds;
};

/* The share of a phase above which a pool of connections is said to have
 * capped the load (pool_capped; dbrig tpcc warns). */
#define RUNNER_POOL_CAPPED_SHARE 0.01

struct runner_callbacks {
	void *arg;
	void (*on_start)(void *arg, unsigned threads);
	/* Every connection is up (before the clock starts); optional. */
	void (*on_connected)(void *arg, unsigned sessions, double seconds);
	/* After the run, every session closed (the driver's disconnects), and
	 * how long that took. */
	void (*on_closed)(void *arg, unsigned sessions, double seconds);
	void (*on_phase_start)(void *arg, enum phase_kind p, double seconds_planned);
	void (*on_interval)(void *arg, const struct interval_report *ir);
	void (*on_phase_end)(void *arg, const struct phase_report *pr);
	void (*on_checkpoint)(void *arg, const struct checkpoint_report *cr); /* optional */
};

struct runner_config {
	const struct db_driver_ops *drv;
	const struct db_conn_params *conn;
	const struct workload_ops *wl;
	void *wl_ctx;
	unsigned ntypes;                 /* >= 1 */
	const char *const *type_names;   /* ntypes names for messages, or NULL */
	unsigned threads;                /* concurrent connections */
	unsigned event_loops;            /* 0 = one per online CPU, at most `threads` */
	uint64_t precondition_ns;        /* 0 = no precondition phase */
	uint64_t time_ns;                /* sample length; 0 = until --events */
	uint64_t events;                 /* sample events limit; 0 = none */
	uint64_t report_interval_ns;     /* 0 = no interval reports */
	uint64_t rand_seed;              /* 0 = from the clock */
	uint64_t reconnect_timeout_ns;   /* give up when the server is gone this long */
	/* Retried errors (deadlocks, lock waits): 0 = retry at once and without
	 * limit (sysbench). Otherwise the n-th retry of a transaction waits a
	 * random time in [b/2, b], b = retry_backoff_ns × 2^(n-1) (at most ×64),
	 * and its attempt max_retries + 1 failing ends the run with one line;
	 * a transaction that fails after the run was told to stop is dropped. */
	unsigned max_retries;
	uint64_t retry_backoff_ns;
	struct runner_callbacks cb;

	/* Open loop (sysbench's --rate): transactions arrive at `rate` per
	 * second (Poisson) into a queue; a free connection takes the oldest and
	 * its latency runs from the arrival (runner/rate.h). 0 = closed loop. */
	double rate;
	/* sysbench's --report-checkpoints: seconds from the start of the sample,
	 * ascending; on_checkpoint is called at each. */
	const unsigned *checkpoints;
	unsigned ncheckpoints;

	/* Terminals (TPC-C): 0 = closed loop, every connection runs transactions
	 * back to back (sysbench). Otherwise `terminals` terminals (the workload
	 * must have the term_* ops) share the `threads` connections: a terminal
	 * keys (keying_ns[type]), submits, waits for a free connection and its
	 * response, then thinks (exponential with mean think_ns[type], capped at
	 * think_cap × the mean). Latency runs from the submit. */
	unsigned terminals;
	uint64_t keying_ns[RUNNER_MAX_TYPES];
	uint64_t think_ns[RUNNER_MAX_TYPES];
	double think_cap;                /* 10 in the spec; 0 = no cap */
	/* One session per terminal (Benchmark Factory's virtual users): needs
	 * threads == terminals; session i runs terminal i and its deferred jobs
	 * only, so the server sees one connection per terminal and no terminal
	 * waits for another's connection. Event loops park the sessions between
	 * transactions; a blocking driver gets one OS thread per session. */
	bool session_per_terminal;
	/* Connects in flight at once, at the start and on reconnects (the
	 * server's accept / session start-up is not stampeded); 0 = 16. */
	unsigned connect_concurrency;
};

/* A think time: exponential with mean `mean_ns`, at most cap × mean (cap 0 =
 * no cap). Exposed for tests. */
uint64_t runner_think_ns(struct rng *r, uint64_t mean_ns, double cap);

/*
 * Queued time of a pool (a set of connections and the terminals they serve:
 * an event loop's share, all blocking connections, or one terminal's own
 * session): a terminal due at `due` and taken by the connection that became
 * free at `freed`, while no other connection of the pool was free since
 * `sat_since`, waited [max(due, sat_since), freed] because of the pool (what
 * follows is the client's own scheduling). Pickups come in submit order, so
 * the union of these intervals is kept with one mark, *covered: the credit
 * is the part after it. Exposed for tests.
 */
uint64_t runner_queue_credit(uint64_t due, uint64_t sat_since, uint64_t *covered, uint64_t freed);

enum runner_status {
	RUNNER_COMPLETE = 0,
	RUNNER_INTERRUPTED,  /* SIGINT / SIGTERM / SIGHUP */
	RUNNER_FAILED,       /* fatal database error, or the server did not come back */
	/* Ran to the end, but a connection was lost (reconnecting) for more than
	 * RUNNER_DEGRADED_SHARE of the sample: the figures do not measure the drive
	 * alone (an outage of 10 s in a 30 s sample kept "complete" at 2/3 of the TPS). */
	RUNNER_DEGRADED,
};

/* The share of the sample an outage may take before the run is degraded: 1 %,
 * the size of the run-to-run spread of a steady OLTP sample, so an outage
 * below it moves the mean less than the noise does (docs/result-format.md). */
#define RUNNER_DEGRADED_SHARE 0.01
bool runner_outage_degrades(uint64_t outage_ns, uint64_t sample_ns);

struct runner_outcome {
	enum runner_status status;
	int signal;          /* the signal that interrupted the run */
	char error[768];     /* message when FAILED */
	bool started;        /* every connection was up and the clock started */
	uint64_t start_ns;   /* CLOCK_MONOTONIC at t = 0 (machine-wide: a sampler aligns on it) */
	unsigned loops;      /* event loops run (one per connection when the driver blocks) */
	bool blocking;
	uint64_t outage_ns;  /* sample time during which a connection was lost */
	uint64_t sample_ns;  /* the sample's length (0: it never ended) */
};

/* Runs to the end; blocks SIGINT/SIGTERM/SIGHUP in the calling thread while it runs
 * and turns them into an orderly stop. Returns 0 when the run could start (see
 * outcome for how it ended) or -1 when it could not (outcome.error says why). */
int runner_run(const struct runner_config *cfg, struct runner_outcome *outcome);

#endif
