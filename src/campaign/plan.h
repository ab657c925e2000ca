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
void plan_campaign_dir(const struct campaign_config *cfg, struct strbuf *sb);

#endif
