/*
 * What the parts of the aggregation share (report/aggregate.c and
 * report/agg_figures.c only): aggregate.c groups the runs and builds the
 * report, agg_figures.c computes its figures and ranks the drives.
 */
#ifndef DBRIG_REPORT_AGG_INT_H
#define DBRIG_REPORT_AGG_INT_H

#include "report/aggregate.h"

/* Rank each run group's drives by mean TPS (agg_group.rank, nranked) and
 * compare each neighbouring pair (report.cmps, fastest first). */
void agg_rank_drives(struct report *rep);
/* --drive: each group's rank and its comparisons (agg_group.rank_text) against
 * every drive of its run group, from the report of all of rs's runs. */
void agg_rank_against_all(struct report *rep, const struct run_set *rs, const struct pub_set *pub,
			  const struct report_opts *opts);

#endif
