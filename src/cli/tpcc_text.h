/*
 * dbrig tpcc's console output (cli/tpcc_run.c only): the banner, the
 * connection lines, the interval lines, each phase's summary and per-type
 * table, and the workload's own counts, on stdout.
 */
#ifndef DBRIG_CLI_TPCC_TEXT_H
#define DBRIG_CLI_TPCC_TEXT_H

#include "runner/runner.h"

#include <stdbool.h>
#include <stdint.h>

/* What the lines depend on, from the command line. */
struct tpcc_text {
	const double *pct; /* --percentile's, npct of them */
	unsigned npct;
	const char *mode;    /* --mode */
	bool tpmc_rollbacks; /* --tpmc-include-rollbacks: the intended rollbacks count in tpmC */
	bool per_terminal;   /* --connections=terminals */
};

/* "dbrig X tpcc: N warehouses, …": the run's shape, before it connects. */
void tpcc_text_banner(const struct tpcc_text *t, unsigned warehouses, unsigned terminals, unsigned connections,
		      const char *delays, double factor, const char *dialect);
void tpcc_text_connected(unsigned sessions, double seconds, unsigned concurrency);
/* Said only when closing took a second or more (thousands of ODBC sessions: docs/tpcc.md). */
void tpcc_text_closed(unsigned sessions, double seconds);
void tpcc_text_phase_start(enum phase_kind p, double planned);
/* "[ 10s ] sample tps: …" for one interval. */
void tpcc_text_interval(const struct tpcc_text *t, const struct interval_report *ir);
/* A phase's summary, its connection waits and its per-type table with the p90 limits. */
void tpcc_text_phase(const struct tpcc_text *t, const struct phase_report *pr);
/* The workload's own counters once the run is over. */
void tpcc_text_counts(unsigned long long skipped_districts, unsigned long long remote_lines,
		      unsigned long long by_name);

#endif
