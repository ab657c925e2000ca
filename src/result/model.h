/*
 * In-memory form of the results a report is built from: one `struct run` per
 * instance run, read from a `dbrig.result/1` file or, when the run never wrote
 * one, rebuilt from its journal. Nothing here knows about JSON; the readers
 * (read.c) fill these structs, the aggregator and writers only read them.
 *
 * Latencies are milliseconds (double) as in the result file; histograms are
 * kept as `struct hist` so pooled percentiles come from merged buckets.
 */
#ifndef DBRIG_RESULT_MODEL_H
#define DBRIG_RESULT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hist;

enum result_run_status {
	RESULT_RUN_COMPLETE,    /* result file, status "complete" */
	RESULT_RUN_INTERRUPTED, /* result file, status "interrupted" (Ctrl-C, SIGTERM) */
	RESULT_RUN_FAILED,      /* result file, status "failed" (fatal error) */
	RESULT_RUN_UNFINISHED,  /* journal without an "end" line and no result file */
	RESULT_RUN_NO_RESULT,   /* journal ended, but its result file is missing */
};

enum result_phase {
	RESULT_PHASE_PRECONDITION,
	RESULT_PHASE_SAMPLE,
};

struct type_stat {
	char *name;
	uint64_t count;
	double avg_ms, p90_ms, p99_ms, max_ms;
};

struct phase_stat {
	bool present;          /* false when the phase is null or absent */
	bool complete;
	double seconds;
	int64_t threads;
	uint64_t transactions;
	double tps;
	uint64_t q_read, q_write, q_other, q_total;
	double qps;
	uint64_t err_ignored;  /* errors retried (sysbench "ignored errors") */
	uint64_t err_reconnects;
	uint64_t err_fatal;
	double lat_min_ms, lat_avg_ms, lat_max_ms, lat_sum_ms;
	bool has_p99;
	bool p99_from_hist;    /* p99_ms computed from the histogram: 99 was not among the stored percentiles */
	double p99_ms;         /* this instance's own 99th percentile */
	bool lat_approx;       /* avg/min/max rebuilt from histogram buckets */
	struct hist *hist;     /* NULL when the file carried none */
	size_t ntypes;
	struct type_stat *types;
};

struct interval_pt {
	enum result_phase phase;
	double t;              /* seconds since the run started */
	double tps;
};

struct run {
	char *path;            /* relative to the results folder */
	char *journal;         /* relative path of the journal, or NULL */
	bool from_journal;     /* no result file: everything rebuilt from the journal */
	enum result_run_status status;
	char *error;           /* message of an interrupted/failed run, or NULL */
	char *campaign, *run_group, *drive, *instance;
	int64_t vm_count, repetition;
	char *kind, *test;     /* workload.kind, workload.test */
	char *params;          /* canonical "key=value ..." of workload.params, sorted */
	bool open_loop;        /* rate-limited or think-time: Little's law does not apply */
	char *engine;          /* "driver server_version" */
	struct phase_stat pre, sample;
	size_t nintervals;
	struct interval_pt *intervals;
};

struct run_set {
	size_t n;
	struct run **runs;     /* sorted by path */
	/* Cut-off attempts that `campaign --resume` kept as
	 * <instance>.partial-<n>.json/.jsonl: history, shown apart, never
	 * aggregated (security review finding 1: counted as a second run). */
	size_t nsuperseded;
	struct run **superseded; /* sorted by path */
};

const char *run_status_name(enum result_run_status s);
bool run_is_complete(const struct run *r);
void run_free(struct run *r);          /* accepts NULL */
void run_set_free(struct run_set *s);  /* accepts NULL */
void phase_stat_release(struct phase_stat *p);

#endif
