/*
 * The telemetry of one campaign run (only src/campaign/ includes this):
 * between the restore and the drivers' start, runtel_start asks the target
 * what to sample for each instance of the run (target_ops.telemetry),
 * resolves each drive folder to its block devices (core/blockdev.h) and
 * starts the campaign's one sampler thread (campaign/sampler.h) at the run's
 * report interval; every reading is appended to the run's telemetry journal
 * <output>/<campaign>/<group>/.telemetry-[<drive>-]rep<k>.jsonl (raw counters, one line
 * per reading, flushed: it survives a crash; hidden, so the report does not
 * take it for a driver's journal). After the drivers' results are
 * complete, runtel_finish stops the sampler and writes each instance's
 * telemetry to its own file beside its result, <instance>.telemetry.json
 * (result/telemetry.h); the result stays the driver's alone.
 *
 * Nothing here fails a run because something could not be sampled (a drive
 * folder on tmpfs, a server that already exited): that part is left out with
 * one warning naming the instance and why. Only a result that cannot be
 * read, or a telemetry file that cannot be written, fails the run.
 */
#ifndef DBRIG_CAMPAIGN_RUNTEL_H
#define DBRIG_CAMPAIGN_RUNTEL_H

#include "campaign/run.h"

struct runtel;

/* NULL when nothing at all can be sampled (warned). */
struct runtel *runtel_start(struct campaign_ctx *c, const struct plan_run *r);
/* Stop the sampler and attach each instance's telemetry to dv[i]'s result; rt may be NULL.
 * 0, or -errno with msg set. Frees rt. */
int runtel_finish(struct runtel *rt, struct run_driver *dv, struct strbuf *msg) __attribute__((warn_unused_result));
/* Stop the sampler and drop its readings (a failed or interrupted run); rt may be NULL. Frees rt. */
void runtel_abort(struct runtel *rt);

#endif
