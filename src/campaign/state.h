/*
 * Resumable campaign state: <output>/<campaign>/state.json, schema
 * "dbrig.campaign-state/1", rewritten atomically after every step. A run is
 * pending, running (started; if found so on resume it was cut off), done or
 * failed; only done runs are skipped by --resume.
 */
#ifndef DBRIG_CAMPAIGN_STATE_H
#define DBRIG_CAMPAIGN_STATE_H

#include "campaign/config.h"
#include "campaign/plan.h"

#include <sys/types.h>

enum state_run_status {
	STATE_RUN_PENDING,
	STATE_RUN_RUNNING,
	STATE_RUN_DONE,
	STATE_RUN_FAILED,
};

struct state_run {
	enum state_run_status status;
	unsigned attempts;       /* times the run was started */
	char started_at[32];
	char finished_at[32];
	pid_t *pids;             /* driver processes of the current attempt */
	size_t npids;
	char *restore_check;     /* "verified: <fingerprint>", "not checked", or NULL */
	char *error;             /* why it failed, or NULL */
};

struct campaign_state {
	char *path;
	/* The campaign run's identity, made when it starts (kept by --resume, new
	 * after --fresh): "<UTC start>-<6 hex digits>" and its ISO 8601 start. Every
	 * driver gets them (--run-id, --run-started) and every result keeps them. */
	char run_id[48];
	char run_started[32];
	struct state_run *runs;  /* parallel to plan->runs */
	size_t nruns;
	char **golden;           /* per drive: fingerprint once built, or NULL */
	size_t ndrives;
};

struct campaign_state *state_new(const struct campaign_config *cfg, const struct plan *p, const char *path);
/* -ENOENT when absent; -EINVAL (message printed) when unreadable or for another plan;
 * -ESTALE (message printed, naming the fields) when the config changed what is measured. */
int state_load(const struct campaign_config *cfg, const struct plan *p, const char *path,
	       struct campaign_state **out) __attribute__((warn_unused_result));
int state_save(const struct campaign_config *cfg, const struct plan *p, const struct campaign_state *s)
	__attribute__((warn_unused_result));
void state_free(struct campaign_state *s);
/* A new run_id and run_started (now). */
void state_new_run_id(struct campaign_state *s);
const char *state_status_name(enum state_run_status st);

#endif
