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
 * What one loaded data directory of the campaign holds on disk, estimated (not measured at
 * run time) from what MariaDB 10.11 wrote here: an empty data directory of PLAN_DATADIR_BYTES
 * (system tables, ibdata1, logs: 18 MiB measured) plus its redo log (innodb_log_file_size from
 * .engine.server_options, else MariaDB's default PLAN_REDO_DEFAULT_BYTES; PostgreSQL: its
 * min_wal_size, PLAN_WAL_BYTES), plus the workload's data: its data_unit_bytes per unit of its
 * data_scale (workload/registry.h: sysbench 440 B per row of tables x table-size, TPC-C 113 MiB
 * per warehouse).
 */
#define PLAN_DATADIR_BYTES (UINT64_C(32) << 20)
#define PLAN_REDO_DEFAULT_BYTES (UINT64_C(96) << 20)
#define PLAN_WAL_BYTES (UINT64_C(80) << 20)
uint64_t plan_data_bytes(const struct campaign_config *cfg);
void plan_campaign_dir(const struct campaign_config *cfg, struct strbuf *sb);

#endif
