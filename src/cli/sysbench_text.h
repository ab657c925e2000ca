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
	uint64_t report_interval_ns;
	uint64_t rand_seed;
	double pct[RESULT_MAX_PERCENTILES];
	unsigned npct;
	bool histogram;
	uint64_t precondition_ns, time_ns;
	double phase_planned;
	/* The sample phase's figures, kept for the final report. */
	bool have_sample;
	struct counters c;
	double seconds;
	struct hist *lat;
	double events_avg, events_stddev, time_avg, time_stddev;
};

void sb_text_init(struct sb_text *t, unsigned threads, uint64_t report_interval_ns, uint64_t rand_seed,
		  const double *pct, unsigned npct, bool histogram, uint64_t precondition_ns, uint64_t time_ns);
void sb_text_free(struct sb_text *t);
void sb_text_header(struct sb_text *t);
void sb_text_started(struct sb_text *t);
void sb_text_phase_start(struct sb_text *t, enum phase_kind p, double planned);
void sb_text_interval(struct sb_text *t, const struct interval_report *ir);
void sb_text_phase_end(struct sb_text *t, const struct phase_report *pr);
void sb_text_summary(struct sb_text *t);

/* The interval line for a span (exposed for tests). `pct` may be 0 (disabled). */
void sb_text_format_interval(char *buf, size_t n, double t, unsigned threads, const struct counters *c,
			     double seconds, double pct, double lat_ms);

#endif
