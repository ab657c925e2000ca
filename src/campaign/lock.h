/*
 * One dbrig process per campaign: `campaign` (also with --resume or
 * --fresh), `provision`, `restore` and `teardown` hold an exclusive POSIX
 * record lock (fcntl F_SETLK) on <output>/.<name>.lock for as long as they
 * run. A second one is refused with one line naming the holder's pid and
 * command line (F_GETLK tells the pid) before it touches anything: a
 * concurrent --resume SIGTERMed the running campaign's servers and drivers
 * and renamed its live results. The file sits
 * beside the campaign folder, not in it, so `--fresh` moving the folder aside
 * keeps the lock where the next process looks for it.
 *
 * The same campaign file started from another folder has another output
 * folder, but the same drives: each drive root the campaign touches is
 * locked too, for the campaign's name, in <lock dir>/dbrig-<uid>/<name>-<hash
 * of the root>.lock. The lock dir is $DBRIG_LOCK_DIR, else /run/lock, else
 * /tmp. A drive's root is the canonical path of its folder (local target);
 * a libvirt drive's is its host's URI and its pool (target_ops.lock_key), as
 * its folder may be on another host. Only processes of one user on one
 * machine see each other's drive locks.
 *
 * The lock goes with the process (also on kill -9) and is never inherited:
 * record locks are not passed on by fork, and children keep only fds 0-2.
 * The lock file stays, except when this call created <output> and nothing
 * else is in it when the lock is released: a command refused early leaves no
 * results folder. It is removed while still held, and a lock counts only when
 * the path still names the file locked (else it is taken again), so a process
 * that opened the file just before its removal never holds a lock nobody else
 * can see.
 */
#ifndef DBRIG_CAMPAIGN_LOCK_H
#define DBRIG_CAMPAIGN_LOCK_H

#include "campaign/config.h"

#include <stdbool.h>

struct campaign_lock {
	int fd;
	char *output;     /* <output> */
	char *path;       /* <output>/.<name>.lock */
	bool made_output; /* <output> did not exist before */
	int *drive_fds;   /* per drive: its lock, or -1 */
	size_t ndrives;
};

/* 0; -EBUSY after one line naming the holder; -errno after one line. */
int campaign_lock_take(const struct campaign_config *cfg, struct campaign_lock *lk) __attribute__((warn_unused_result));
/* Accepts a lock never taken ({.fd = -1}, or after a failed take). */
void campaign_lock_release(struct campaign_lock *lk);

#endif
