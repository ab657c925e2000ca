/*
 * What campaign.c, run.c and progress.c share (only src/campaign/ includes
 * this): the state of one `dbrig campaign` process and the driver processes
 * of the run in progress.
 *
 *   campaign.c  campaign_main: load, plan, provision, golden copies, the runs
 *               in order, summary and report, teardown
 *   run.c       one run: restore (and verify) its instances, start one driver
 *               per instance, watch them, collect their results
 *   progress.c  what the user sees: the plan, live progress, the summary
 */
#ifndef DBRIG_CAMPAIGN_RUN_H
#define DBRIG_CAMPAIGN_RUN_H

#include "campaign/config.h"
#include "campaign/plan.h"
#include "campaign/state.h"
#include "campaign/steps.h"
#include "core/strbuf.h"
#include "result/tail.h"
#include "target/target.h"

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct campaign_ctx {
	struct campaign_config *cfg;
	struct plan *plan;
	struct campaign_state *st;
	struct steps steps;      /* the target, its env and the golden loader; steps.exe is this program */
	struct strbuf dir; /* <output>/<campaign> */
	bool tty;
	const volatile sig_atomic_t *stop_signal; /* set by SIGINT / SIGTERM */
};

/* One driver process of the run in progress. */
struct run_driver {
	pid_t pid;
	int status;
	bool done;
	struct strbuf base; /* results/<campaign>/<group>/<drive>/<instance>[-rep<n>] */
	struct strbuf path; /* scratch for run_driver_file() */
	struct journal_tail jt;
};

/* The instance's file `base` + suffix (".json", ".jsonl", ".log"); valid until the next call. */
const char *run_driver_file(struct run_driver *dv, const char *suffix);
/* Run ri of the plan: 0 done, -EINTR stopped by a signal, other negative: the run failed. */
int run_one(struct campaign_ctx *c, size_t ri);

void progress_plan(struct campaign_ctx *c);
/* The live view of run ri (a redrawn table on a terminal, one line per interval otherwise). */
void progress_show(struct campaign_ctx *c, const struct plan_run *r, size_t ri, struct run_driver *dv, size_t n,
		   uint64_t t0, unsigned *printed, unsigned *lines);
/* The plain-text summary (stdout and <dir>/summary.txt). */
void progress_summary(struct campaign_ctx *c);

#endif
