/*
 * What the campaign reads back from its drivers: the newest interval of each
 * journal (for the progress view) and a result's sample-phase figures (for
 * the summary table). Both formats are docs/result-format.md's.
 */
#ifndef DBRIG_RESULT_TAIL_H
#define DBRIG_RESULT_TAIL_H

#include "core/strbuf.h"

#include <stdbool.h>

struct journal_tail {
	long off;               /* bytes consumed */
	struct strbuf partial;  /* an unfinished last line */
	unsigned intervals;
	char phase[16];
	double t, phase_t, tps;
	bool ended;
};

void journal_tail_init(struct journal_tail *jt);
void journal_tail_release(struct journal_tail *jt);
/* Read what was appended since the last call; returns the number of new intervals (0 if none or absent). */
unsigned journal_poll(const char *path, struct journal_tail *jt);

struct result_summary {
	char status[16];
	double tps;
	double avg_ms;
	double p99_ms; /* < 0 when 99 was not among the percentiles */
};

/* 0, -ENOENT, or -EINVAL (message printed) for a result without a sample phase. */
int result_read_summary(const char *path, struct result_summary *out) __attribute__((warn_unused_result));

#endif
