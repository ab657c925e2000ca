/*
 * What `dbrig sysbench run` and `dbrig tpcc run` share around a run: the
 * result and its journal, the runner's outcome turned into a status, and the
 * result written atomically at the end, whatever happened.
 *
 *   struct run_record rr = {.res = res, .result_path = ..., .journal_path = ...};
 *   if (run_record_open(&rr) == 0)
 *           ret = run_record_run(&rr, &cfg, print_summary, arg);  // calls run_record_interval from on_interval
 *   run_record_release(&rr);
 */
#ifndef DBRIG_CLI_RUN_RECORD_H
#define DBRIG_CLI_RUN_RECORD_H

#include "result/result.h"
#include "runner/runner.h"

#include <stdbool.h>

struct run_record {
	struct result *res;       /* filled by the caller; not freed here */
	const char *result_path;  /* --result, or NULL */
	const char *journal_path; /* --journal, or NULL */
	struct journal *journal;
	bool journal_error;
};

/* Called once the outcome is known, before the result is written: print the
 * command's summary, add last parameters. `ran` is false when the runner could
 * not start at all (then status is "failed" and nothing was measured). */
typedef void (*run_record_report_fn)(void *arg, const char *status, bool ran);

/* Open the journal when one was asked for: 0, or -1 after one error line. */
int run_record_open(struct run_record *rr) __attribute__((warn_unused_result));
/* Add a finished interval to the result and append it to the journal; the
 * first failed append prints one line and the run goes on. */
void run_record_interval(struct run_record *rr, const struct interval_report *ir);
/* Run, report, write the result (atomically), close the journal with the
 * status. Returns 0 for a complete run; -EINTR when it was interrupted, -EIO
 * when it failed or could not start, the write's -errno when the result could
 * not be written (each after its message). */
int run_record_run(struct run_record *rr, const struct runner_config *cfg, run_record_report_fn report, void *arg);
/* Close a journal left open by an early failure. */
void run_record_release(struct run_record *rr);

#endif
