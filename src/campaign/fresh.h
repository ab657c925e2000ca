/*
 * Starting a campaign again. Its results folder <output>/<name> is never
 * overwritten and never deleted: without a flag, a start over an earlier
 * campaign is refused with one line saying whether that campaign finished
 * (and where its report is) or not (--resume continues it); with --fresh the
 * earlier folder is renamed to <output>/<name>.<UTC time>/, the time its
 * state.json was last written (the folder's own time when it has none), and
 * a new campaign starts in an empty <output>/<name>.
 */
#ifndef DBRIG_CAMPAIGN_FRESH_H
#define DBRIG_CAMPAIGN_FRESH_H

#include "campaign/config.h"
#include "campaign/plan.h"
#include "campaign/state.h"
#include "core/strbuf.h"

/* The name `dir` would be moved to: "<dir>.<YYYYMMDDTHHMMSSZ>", with "-2",
 * "-3", ... added when that is taken. Returns 0 or -errno (dir cannot be
 * examined; -ENOENT when it does not exist). */
int fresh_aside_name(const char *dir, struct strbuf *out) __attribute__((warn_unused_result));

/* Rename `dir` to fresh_aside_name(). 0 moved (the new name in `moved_to`),
 * 1 nothing to move (no such folder), -errno with one message printed. */
int fresh_move_aside(const char *dir, struct strbuf *moved_to) __attribute__((warn_unused_result));

/* The one line for a start over an existing campaign state: finished (where
 * its report is, how to start again) or unfinished (--resume, or --fresh). */
void fresh_refuse(const struct campaign_config *cfg, const struct plan *p, const struct campaign_state *st,
		  const char *dir);

#endif
