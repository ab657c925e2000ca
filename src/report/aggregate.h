/*
 * Aggregation per drive x run group, the way storage reviews publish, plus
 * the pooled figures that only merged histograms can give.
 *
 * For one set of instances that ran concurrently (one repetition of a group):
 *   tps_sum              sum of the instances' TPS (published "TPS")
 *   avg_ms_mean          arithmetic mean of the instances' average latencies
 *                        (published "average latency")
 *   avg_ms_pooled        sum of all latencies / number of transactions
 *   p99_mean_of_instances_ms
 *                        arithmetic mean of the instances' own p99s: the
 *                        published "average 99th percentile". It is NOT a
 *                        percentile of anything; kept because reviews print it.
 *   p99_pooled_ms        99th percentile of the merged histograms: the real
 *                        p99 of every transaction of the group
 *   Little's law         closed loop: sum(threads) / tps_sum must equal
 *                        avg_ms_pooled; |deviation| > 5% is a measurement warning
 * Precondition and sample are aggregated separately and never mixed.
 * Repetitions (run.repetition) of a group give mean, min and max of each
 * figure and, from 2 repetitions on, the sample standard deviation and the 95%
 * confidence interval of the mean (Student's t, stats/ci.h).
 *
 * Steady state (stats/steady.h, PTS rules) per repetition, on the TPS of each
 * report interval summed over the repetition's instances (a round is one
 * report interval; a shorter last interval of a phase is left out): the
 * precondition's last `steady_window` rounds, and the sample's rounds as one
 * window. A group takes the worst repetition (NOT steady over steady over n/a).
 *
 * Bottleneck (stats/verdict.h) from the sample phase's telemetry: per run,
 * and per group over all its runs (the busiest of each resource: host CPU,
 * guest vCPUs, driver CPU per event loop, the drive's busiest device). A
 * group limited by anything but the drive gets a warning.
 *
 * Drive comparison: the drives of one run group (every key but the drive;
 * totals and slices left out) ranked by mean TPS; each neighbouring pair gets
 * the TPS, average-latency and p99 ratios with their 95% CIs and Welch's
 * t-tests over the repetitions' figures, significant when p < 0.05 (needs 2
 * repetitions on both drives). A run group written with "placement":
 * {"each": [...]} has exactly this shape: one run group name, one drive each.
 *
 * Grouping is explicit: campaign, campaign run (run.run_id: results of two
 * runs of one campaign are two groups, labelled by the run's start time, and
 * never added up), run group, drive, workload kind, test, the canonical
 * workload params and the VM count. Runs that differ in any of
 * them are separate groups, and a warning says so when they share a
 * campaign/run group/drive. A run group spread over several drives also gets a
 * total group ("all N drives") to compare with "8 VMs on 8 drives" figures;
 * its per-drive groups are slices of it.
 *
 * A published reference goes beside every group with the same workload kind,
 * test, VM count and number of drives that is not a slice; references that
 * match no group are listed apart (report.unmatched).
 */
#ifndef DBRIG_REPORT_AGGREGATE_H
#define DBRIG_REPORT_AGGREGATE_H

#include "result/figures.h"
#include "result/model.h"
#include "report/published.h"
#include "stats/ci.h"
#include "stats/steady.h"
#include "stats/verdict.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct agg_rep {
	int64_t repetition;
	size_t n;
	struct run **runs;
	struct agg_fig sample, pre;
	struct steady_result pre_steady;    /* last window of the precondition */
	struct steady_result sample_steady; /* the whole sample as one window */
};

struct spread {
	double mean, min, max;
	struct ci_summary ci;           /* sd and 95% CI over repetitions (ci.has_ci: n >= 2) */
};

struct agg_group {
	char *campaign, *run_group, *drive, *kind, *test, *params;
	char *run_id, *run_started;     /* the campaign run (result 1.2); "" for results without one */
	int64_t vm_count;
	bool all_drives;                /* total of a run group over its drives */
	bool slice;                     /* one drive's share of a run group spread over drives */
	size_t ndrives;
	char *label;                    /* "run group · drive" */
	size_t nreps;
	struct agg_rep *reps;
	/* Over repetitions (equal to the one repetition's figure when nreps == 1). */
	struct spread tps, avg_ms_mean, avg_ms_pooled, p99_mean, p99_pooled;
	bool has_p99_mean;              /* a repetition had instance p99s: p99_mean is over those */
	enum little_state little;       /* worst over repetitions */
	double little_dev;              /* the largest |deviation| */
	size_t n_runs, n_complete;
	bool incomplete;                /* a run not complete, or instances missing */
	struct hist *merged;            /* sample, all repetitions; NULL if any lacks one */
	enum steady_state pre_steady, sample_steady; /* worst over repetitions */
	bool has_verdict;               /* some run carried sample telemetry */
	struct verdict_in vin;          /* merged over the group's runs */
	struct verdict verdict;
	const struct tel_dev *dev;      /* the busiest device's sample figures (owned by a run) */
	size_t rank;                    /* 1 = most TPS among its run group's drives; 0 = not ranked */
	size_t nranked;                 /* drives ranked in its run group (with rank) */
	char *rank_text;                /* --drive: its rank against the drives the filter hid, e.g. "rank 2 of 2:
					   a > b by 1.73x (…)"; NULL otherwise */
	size_t nrefs;
	const struct pub_result **refs; /* published results to show beside it */
};

/* Two neighbours in the TPS ranking of one run group's drives. */
struct agg_cmp {
	size_t faster, slower;          /* indices into report.groups */
	struct ci_ratio ratio;          /* mean TPS faster / slower, 95% CI */
	struct ci_welch welch;          /* over the repetitions' TPS */
	/* The published latencies, faster / slower (below 1: the faster drive waits less),
	 * over the repetitions' average latency (mean of instances) and p99 (mean of
	 * the instances' p99s); has_p99: both groups carried instance p99s. */
	struct ci_ratio avg_ratio, p99_ratio;
	struct ci_welch avg_welch, p99_welch;
	bool has_p99;
};

/* Verdicts of one run: steady state of its own intervals, bottleneck of its sample telemetry. */
struct run_verdict {
	struct steady_result pre, sample;
	bool has_verdict;
	struct verdict_in vin;
	struct verdict verdict;
	const struct tel_dev *dev;      /* its busiest device in the sample, or NULL */
};

struct report_opts {
	size_t steady_window;           /* rounds; 0: STEADY_DEFAULT_WINDOW */
	const char *drive;              /* report this drive's runs only; NULL: all */
	bool shared_axis;               /* bar charts: one value axis for every run group */
	bool include_degraded;          /* count degraded runs in the figures (--include-degraded) */
};

struct report {
	struct run_set view;            /* the runs reported: all, or one drive's (pointers, not owned) */
	const struct run_set *runs;     /* &view */
	size_t steady_window;
	const char *drive;              /* as asked, or NULL */
	bool shared_axis;               /* as asked */
	bool include_degraded;
	const struct pub_set *pub;      /* may be NULL */
	size_t ngroups;
	struct agg_group *groups;
	size_t nunmatched;
	const struct pub_result **unmatched; /* references no group matches */
	size_t nwarnings;
	char **warnings;                /* measurement and completeness warnings */
	size_t ncmps;
	struct agg_cmp *cmps;           /* per run group, fastest first */
	struct run_verdict *rv;         /* parallel to runs->runs */
};

/* Mean, min, max, sd and CI of n values (all 0 when n == 0). */
struct spread spread_of(const double *v, size_t n);

/* The telemetry of a phase as the verdict rules take it (the busiest device);
 * false when the phase has none. `dev` (may be NULL) gets that device. */
bool agg_verdict_in(const struct tel_phase *t, struct verdict_in *in, const struct tel_dev **dev);

/* Same run group: every grouping key but the drive. */
bool agg_same_run_group(const struct agg_group *a, const struct agg_group *b);

/* Steady state of phase `ph` over runs[0..n) (TPS summed per round). */
void agg_steady(struct run *const *runs, size_t n, enum result_phase ph, size_t window, struct steady_result *out);

/* The figures of the repetition that gave the group its steady state (the
 * first one with the group's state), or NULL without repetitions. */
const struct steady_result *agg_group_steady(const struct agg_group *g, enum result_phase ph);

/* Group, aggregate, match published references. `pub` may be NULL, `opts`
 * NULL for the defaults. -ENOENT: opts->drive names no run's drive. */
int report_build_with(const struct run_set *rs, const struct pub_set *pub, const struct report_opts *opts,
		      struct report **out) __attribute__((warn_unused_result));
int report_build(const struct run_set *rs, const struct pub_set *pub, struct report **out)
	__attribute__((warn_unused_result));
void report_free(struct report *r); /* accepts NULL */

#endif
