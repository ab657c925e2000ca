/*
 * Open-loop arrivals for --rate (sysbench 1.0.20's event generator and
 * queue): transactions arrive at N per second with exponential inter-arrival
 * times (a Poisson process), wait in a FIFO queue, and free connections take
 * them oldest first. A transaction's latency runs from its arrival — the
 * intended start — so time spent waiting for a connection counts (no
 * coordinated omission). sysbench stamps an event when its generator thread
 * wakes up to enqueue it; here it is stamped with the arrival time drawn, so
 * a late wake-up cannot hide a delay either.
 *
 * The queue is generated lazily: whoever takes an arrival (or asks for the
 * queue length) first appends every arrival due by `now` to a ring, so no
 * generator thread is needed and the result does not depend on how promptly
 * one is scheduled. The ring holds `capacity` arrivals (sysbench's 131,072);
 * more due and not yet taken is sysbench's overflow: "The event queue is
 * full", a fatal error.
 *
 * Several schedulers with rates r1..rk together are one Poisson process of
 * rate r1+..+rk, so the runner gives each event loop its share of the rate and
 * its own scheduler (no locking between loops).
 *
 * Thread rule: one mutex per scheduler; rate_take / rate_queue_len may be
 * called from any thread (a loop takes, the reporter reads the length).
 */
#ifndef DBRIG_RUNNER_RATE_H
#define DBRIG_RUNNER_RATE_H

#include "core/rng.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RATE_QUEUE_CAPACITY 131072 /* sysbench's MAX_QUEUE_LEN */

struct rate_sched {
	pthread_mutex_t mu;
	double mean_gap_ns;  /* 1e9 / rate */
	struct rng rng;
	uint64_t next_ns;    /* the next arrival not yet in the ring */
	uint64_t *ring;      /* due times, FIFO */
	size_t cap, head, len;
	bool overflow;
};

/* Arrivals at `per_second` (> 0) from `start_ns` on (the first one an
 * exponential gap after it), at most `capacity` queued. 0 or -ENOMEM. */
int rate_init(struct rate_sched *rs, double per_second, uint64_t seed, uint64_t start_ns, size_t capacity)
	__attribute__((warn_unused_result));
void rate_free(struct rate_sched *rs);

enum rate_take {
	RATE_NONE = 0,     /* nothing due yet: *out is the next arrival's time */
	RATE_ARRIVAL = 1,  /* *out is the taken arrival's due time */
	RATE_OVERFLOW = -1 /* more than `capacity` arrivals waited: the run must stop */
};
/* Take the oldest arrival due by `now`. */
enum rate_take rate_take(struct rate_sched *rs, uint64_t now, uint64_t *out);
/* When the oldest arrival not taken is (or was) due. */
uint64_t rate_next_due(struct rate_sched *rs);
/* Arrivals due by `now` and not taken (sysbench's "queue length"); sets
 * *overflow when the ring overflowed. */
size_t rate_queue_len(struct rate_sched *rs, uint64_t now, bool *overflow);

/* sysbench's message for an overflow. */
#define RATE_OVERFLOW_MESSAGE                                                                                          \
	"The event queue is full. This means the worker threads are unable to keep up with the specified event "     \
	"generation rate"

#endif
