/*
 * dbrig tpcc's connections: --connections=N (a pool the terminals share) or
 * --connections=terminals (one session per terminal), and what the run says
 * about them: the wait for a connection apart from the service time, and the
 * one-line warning when the pool queued terminals for more than
 * RUNNER_POOL_CAPPED_SHARE of the sample.
 */
#ifndef DBRIG_CLI_TPCC_CONN_H
#define DBRIG_CLI_TPCC_CONN_H

#include "runner/runner.h"

#include <stdbool.h>
#include <stdio.h>

#define TPCC_MAX_CONNECTIONS 100000

/* "terminals", or a number 1..TPCC_MAX_CONNECTIONS. Returns 0, or -1 after
 * one error line naming --connections. */
int tpcc_conn_parse(const char *arg, unsigned *connections, bool *per_terminal) __attribute__((warn_unused_result));

/*
 * The phase summary's connection lines, e.g.
 *   connection wait (ms, submit to pickup): avg 3.21, p90 7.90, p99 15.02, max 40.11; service avg 12.40
 *   wait avg ms by type: new_order 3.30, payment 3.12, ...
 *   terminals queued for a connection 37.2% of the phase (per pool; 2 pools)
 * Nothing when the phase had no terminals (pr->pools == 0).
 */
void tpcc_conn_print(FILE *f, const struct phase_report *pr, const char *const *type_names, unsigned ntypes,
		     bool per_terminal);

/* After the sample: one warning line when the pool capped the load. */
void tpcc_conn_warn(const struct phase_report *pr, unsigned connections);

#endif
