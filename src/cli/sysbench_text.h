/* sysbench 1.0.20's terminal output: header, interval lines, final report. */
#ifndef DBRIG_CLI_SYSBENCH_TEXT_H
#define DBRIG_CLI_SYSBENCH_TEXT_H

#include "result/result.h"
#include "runner/runner.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct sb_text {
	FILE *out;
	unsigned threads;
	uint64_t rate;            /* --rate, 0 = closed loop */
	const unsigned *checkpoints; /* --report-checkpoints, seconds, sorted */
	unsigned ncheckpoints;
	bool debug;               /* --debug */
	uint64_t events;          /* --events, 0 = none */
	uint64_t report_interval_ns;
	uint64_t rand_seed;
	double pct[RESULT_MAX_PERCENTILES];
	unsigned npct;
	bool histogram;
	uint64_t precondition_ns, time_ns;
	double phase_planned;
	/* The sample phase's figures, kept for the final report. */
	bool have_sample;
	bool from_checkpoint;  /* the figures are the final checkpoint's (what followed the last one) */
	struct counters c;
	double seconds;        /* what the per-second rates divide by */
	double total_seconds;  /* "total time" (since the sample started) */
	struct hist *lat;
	double events_avg, events_stddev, time_avg, time_stddev;
};

void sb_text_init(struct sb_text *t, unsigned threads, uint64_t report_interval_ns, uint64_t rand_seed,
		  const double *pct, unsigned npct, bool histogram, uint64_t precondition_ns, uint64_t time_ns);
void sb_text_free(struct sb_text *t);
/* "dbrig X (sysbench 1.0.20 compatible)" and an empty line, where sysbench
 * prints its version banner (at --verbosity 3 and above). */
void sb_banner(void);
/* Print only at this sysbench verbosity or above (3 = notice, sysbench's
 * default; 4 = info, where dbrig's own extra lines go). */
bool sb_verbose(int level);
void sb_text_header(struct sb_text *t);
void sb_text_started(struct sb_text *t);
void sb_text_phase_start(struct sb_text *t, enum phase_kind p, double planned);
void sb_text_interval(struct sb_text *t, const struct interval_report *ir);
void sb_text_phase_end(struct sb_text *t, const struct phase_report *pr);
void sb_text_summary(struct sb_text *t);
/* --report-checkpoints: "[ Ns ] Checkpoint report:" and a full report; the
 * final one becomes what the summary shows. */
void sb_text_checkpoint(struct sb_text *t, const struct checkpoint_report *cr);

/* sysbench's "        95th percentile:     12.34" line: the label right-aligned
 * so that every value column lines up with min/avg/max (exposed for tests). */
void sb_text_format_percentile(char *buf, size_t n, double pct, double value_ms);
/* sysbench's --histogram rows for `h`, in sysbench's own 1024 log-spaced
 * buckets from 0.001 ms to 100,000 ms (each of dbrig's finer buckets is
 * counted in the sysbench bucket holding its midpoint), exposed for tests. */
void sb_text_print_histogram(FILE *f, const struct hist *h);

/* The interval line for a span (exposed for tests). `pct` may be 0 (disabled). */
void sb_text_format_interval(char *buf, size_t n, double t, unsigned threads, const struct counters *c,
			     double seconds, double pct, double lat_ms);

#endif
