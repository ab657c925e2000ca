/*
 * The target life cycle over a campaign's plan, written once for
 * `dbrig provision | status | restore | teardown` (cli/cmd_provision.c) and
 * `dbrig campaign` (campaign.c):
 *
 *   steps_open       the target's env (with the golden loader) and init
 *   steps_preflight  the machine can run it (changes nothing)
 *   steps_provision  create the instances; when one fails, remove again
 *                    what this process created (the target's rollback)
 *   steps_status     one line per instance
 *   steps_restore    stop, restore, start every instance
 *   steps_teardown   destroy every instance (all that can be, first error kept)
 *   steps_close      release and clean up (changes nothing outside this process)
 *
 * Every step returns 0 or a negative errno after its messages; -EINVAL from
 * open or preflight is a configuration error.
 */
#ifndef DBRIG_CAMPAIGN_STEPS_H
#define DBRIG_CAMPAIGN_STEPS_H

#include "campaign/config.h"
#include "campaign/golden.h"
#include "campaign/plan.h"
#include "target/target.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

struct steps {
	struct campaign_config *cfg; /* borrowed */
	struct plan *plan;           /* borrowed */
	struct target tgt;
	struct target_env env;       /* cfg->env with the loader */
	struct golden golden;
	char exe[PATH_MAX];          /* this program (steps_self_exe) */
	bool open;
};

/* The running binary's path (the one way dbrig finds it): 0 or -errno after a message. */
int steps_self_exe(char *buf, size_t n) __attribute__((warn_unused_result));

int steps_open(struct steps *s, struct campaign_config *cfg, struct plan *p, bool dry_run)
	__attribute__((warn_unused_result));
int steps_preflight(struct steps *s) __attribute__((warn_unused_result));
/* Create the instances with need[i] (every one when need is NULL). */
int steps_provision(struct steps *s, const bool *need) __attribute__((warn_unused_result));
/* One line per instance to `out`: 0 when all are ready, -EAGAIN when one is not, -ENOTSUP without a status op. */
int steps_status(struct steps *s, FILE *out) __attribute__((warn_unused_result));
int steps_restore(struct steps *s) __attribute__((warn_unused_result));
/* only_created: the instances this process knows exist (a campaign's end); else every one of the plan. */
/* What a teardown did, per instance: removed, nothing there, or something kept (warned). */
struct steps_removed {
	size_t removed, absent, kept;
};
int steps_teardown(struct steps *s, bool only_created, struct steps_removed *n) __attribute__((warn_unused_result));
/* Stop the created instances (idx NULL: all); -EIO when one did not stop cleanly. */
int steps_stop(struct steps *s, const size_t *idx, size_t n);
void steps_close(struct steps *s);

#endif
