/*
 * The runner: --threads concurrent connections in a closed loop, multiplexed
 * over a few event-loop threads when the driver has non-blocking calls (one
 * OS thread per connection otherwise), a precondition phase then a sample
 * phase, statistics drained from every recording thread at each report
 * interval and at each phase boundary.
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

struct runner_callbacks {
	void *arg;
	void (*on_start)(void *arg, unsigned threads);
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
	unsigned threads;                /* concurrent connections */
	unsigned event_loops;            /* 0 = one per online CPU, at most `threads` */
	uint64_t precondition_ns;        /* 0 = no precondition phase */
	uint64_t time_ns;                /* sample length; 0 = until --events */
	uint64_t events;                 /* sample events limit; 0 = none */
	uint64_t report_interval_ns;     /* 0 = no interval reports */
	uint64_t rand_seed;              /* 0 = from the clock */
	uint64_t reconnect_timeout_ns;   /* give up when the server is gone this long */
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
};

/* A think time: exponential with mean `mean_ns`, at most cap × mean (cap 0 =
 * no cap). Exposed for tests. */
uint64_t runner_think_ns(struct rng *r, uint64_t mean_ns, double cap);

enum runner_status {
	RUNNER_COMPLETE = 0,
	RUNNER_INTERRUPTED,  /* SIGINT / SIGTERM / SIGHUP */
	RUNNER_FAILED,       /* fatal database error, or the server did not come back */
};

struct runner_outcome {
	enum runner_status status;
	int signal;          /* the signal that interrupted the run */
	char error[768];     /* message when FAILED */
	bool started;        /* every connection was up and the clock started */
};

/* Runs to the end; blocks SIGINT/SIGTERM/SIGHUP in the calling thread while it runs
 * and turns them into an orderly stop. Returns 0 when the run could start (see
 * outcome for how it ended) or -1 when it could not (outcome.error says why). */
int runner_run(const struct runner_config *cfg, struct runner_outcome *outcome);

#endif
