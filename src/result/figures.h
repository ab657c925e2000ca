/*
 * The figures of one phase over the instances that ran together (one
 * repetition of a run group on one drive, or on all its drives), from their
 * results: TPS summed, the instances' average latencies and p99s averaged (the
 * published method), the latency pooled over every transaction, the pooled p99
 * of the merged histograms, tpmC and Little's law. `dbrig report`
 * (report/aggregate.c) and the campaign's summary.txt (campaign/progress.c)
 * both compute them here, so the two can never disagree.
 */
#ifndef DBRIG_RESULT_FIGURES_H
#define DBRIG_RESULT_FIGURES_H

#include "result/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LITTLE_TOLERANCE 0.05

enum little_state {
	LITTLE_OK,
	LITTLE_WARN,   /* closed loop, |deviation| > LITTLE_TOLERANCE */
	LITTLE_NA,     /* open loop (rate / think time) or no throughput */
};

struct agg_type {
	char *name;
	uint64_t count;
	double avg_ms;                  /* count-weighted: pooled average */
	double p99_mean_of_instances_ms; /* published-style mean of the instances' p99s */
	double max_ms;
	size_t n;                       /* instances that reported this type */
};

struct agg_fig {
	size_t n;                       /* instances that have this phase */
	double tps_sum, tps_min, tps_max;
	double avg_ms_mean;
	double avg_ms_pooled;
	size_t n_p99;                   /* instances with their own p99 */
	double p99_mean_of_instances_ms;
	bool has_pooled_p99;            /* every instance carried a histogram */
	double p99_pooled_ms;
	double max_ms;
	uint64_t transactions;
	uint64_t retried, reconnects, fatal;
	int64_t threads_sum;
	double seconds_min, seconds_max;
	enum little_state little;
	double little_pred_ms;          /* sum(threads) / tps_sum, in ms */
	double little_dev;              /* (pred - avg_ms_pooled) / avg_ms_pooled */
	bool has_tpmc;
	double tpmc;                    /* New-Orders per minute, summed over instances */
	size_t ntypes;
	struct agg_type *types;
	struct hist *merged;            /* NULL unless has_pooled_p99 */
};

/* Little's law for a closed loop: predicted latency threads/tps (ms) and its
 * relative deviation from avg_ms. */
enum little_state little_check(double threads, double tps, double avg_ms, bool open_loop,
			       double *pred_ms, double *dev);
/* The state as the json and csv reports write it: "ok", "warning" or "n/a". */
const char *little_state_name(enum little_state s);
/* The state as report.md and report.html write it: "ok", "WARNING", "n/a". */
const char *little_state_word(enum little_state s);

/* Figures of one phase over `n` concurrent instances. */
void agg_fig_compute(struct run *const *runs, size_t n, enum result_phase phase, struct agg_fig *out);
void agg_fig_release(struct agg_fig *f);

/* The mean of n values in order (0 when n == 0): the figure over repetitions. */
double fig_mean(const double *v, size_t n);

#endif
