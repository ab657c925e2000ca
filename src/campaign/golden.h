/*
 * The golden copy's content, for every target: the loader the campaign hands
 * to its target (target_env.loader). Over an endpoint of a running server it
 * runs the same `dbrig <workload>` as the drivers (campaign/driver.c):
 *   identity     "<workload> <test> tables=N table_size=M" / "tpcc warehouses=N",
 *                then " key=value" for every other workload option that may
 *                shape the data (all but the run-only ones, sorted by key):
 *                what a complete copy of this campaign holds; every target
 *                stores it with the copy and loads the copy again when it
 *                differs
 *   load         `dbrig <workload> … prepare` (its output into the log)
 *   fingerprint  `dbrig <workload> … check`: its "fingerprint: " line (the
 *                check's own conditions must hold: it exits 1 otherwise)
 *   ready        `dbrig <workload> … ping`: the endpoint's user logs into
 *                its database (-EAGAIN with the driver's error otherwise)
 */
#ifndef DBRIG_CAMPAIGN_GOLDEN_H
#define DBRIG_CAMPAIGN_GOLDEN_H

#include "campaign/config.h"
#include "target/target.h"

#include <signal.h>
#include <stdbool.h>

struct golden {
	const struct campaign_config *cfg;
	const char *exe; /* this program */
	struct target_loader loader;
};

void golden_init(struct golden *g, const struct campaign_config *cfg, const char *exe);

struct campaign_ctx;
/*
 * The golden copy of every drive (need NULL) or of the drives in need: with
 * "golden": "once" the source drive's is built (also when only a clone is
 * needed) and cloned to the others, with "per-drive" each is built. Drives no
 * run group uses get none. The state records each fingerprint.
 * Stops between drives once *stop is set (a signal); 0 or <0 after its message.
 */
int golden_build_all(struct campaign_ctx *c, const bool *need, const volatile sig_atomic_t *stop)
	__attribute__((warn_unused_result));

#endif
