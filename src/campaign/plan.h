/*
 * A campaign's plan: the instances it needs (vm1..vmN on each drive, N the
 * largest count any run group places there) and its runs in order (every run
 * group, then its repetitions). Run k of group g uses vm1..vmC on each drive of
 * its placement.
 */
#ifndef DBRIG_CAMPAIGN_PLAN_H
#define DBRIG_CAMPAIGN_PLAN_H

#include "campaign/config.h"
#include "target/target.h"

struct strbuf;

struct plan_run {
	size_t group;
	unsigned rep;   /* 1-based */
	char *id;       /* "<group id>#<rep>" (slug, or slug@drive for "each"), stable across resumes */
	size_t *insts;  /* indexes into plan->insts */
	size_t ninsts;
};

struct plan {
	struct target_instance *insts;
	size_t ninsts;
	struct plan_run *runs;
	size_t nruns;
};

struct plan *plan_make(const struct campaign_config *cfg);
void plan_free(struct plan *p);
/* <output>/<campaign>/<group slug>/<drive>/<instance>[-rep<k>] (no extension). */
void plan_result_base(const struct campaign_config *cfg, const struct plan *p, const struct plan_run *r,
		      size_t inst, struct strbuf *sb);
/*
 * What one loaded data directory of the campaign holds on disk, estimated (not measured):
 * an empty data directory (system tables, logs) of PLAN_DATADIR_BYTES, plus the workload's
 * rows x their size: sysbench tables x table-size x PLAN_SYSBENCH_ROW_BYTES (id, k, c and
 * pad with InnoDB's row header and the k index), TPC-C warehouses x PLAN_TPCC_WAREHOUSE_BYTES
 * (the specification's rows per warehouse, stock and order_line most of them).
 */
#define PLAN_DATADIR_BYTES (UINT64_C(128) << 20)
#define PLAN_SYSBENCH_ROW_BYTES UINT64_C(240)
#define PLAN_TPCC_WAREHOUSE_BYTES (UINT64_C(100) << 20)
uint64_t plan_data_bytes(const struct campaign_config *cfg);
void plan_campaign_dir(const struct campaign_config *cfg, struct strbuf *sb);

#endif
