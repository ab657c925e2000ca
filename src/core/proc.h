/*
 * Child processes for targets and the campaign: database servers, their
 * tools, and driver processes, each with an explicit environment. Every child gets PR_SET_PDEATHSIG(SIGTERM), so
 * a campaign killed with SIGKILL takes its servers and drivers down cleanly
 * (a server shuts down, a driver writes an "interrupted" result) instead of
 * leaving them running into the resumed campaign.
 *
 * The child's environment is built before the fork and handed to execve;
 * the child keeps only descriptors 0-2 (stdin, and stdout/stderr to the log
 * or the capture pipe), so no pipe, lock or connection of dbrig leaks into
 * a server or driver. A log_path that is a symbolic link is refused
 * (O_NOFOLLOW): dbrig derives those paths itself.
 *
 * Only waitpid on a given pid is used anywhere: a caller never reaps a child
 * it does not own.
 */
#ifndef DBRIG_CORE_PROC_H
#define DBRIG_CORE_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct strbuf;

struct proc_spec {
	char *const *argv;          /* argv[0] is the program path */
	const char *log_path;       /* stdout and stderr appended here; NULL = inherit */
	/* "NAME=value" entries for this child only (a password, ODBCSYSINI), over the
	 * inherited environment, and "NAME" entries removing one; NULL-terminated, or
	 * NULL. The child's environment is built before the fork: nothing is set in
	 * this process. */
	const char *const *env;
	const char *stdin_text;     /* written to the child's stdin (proc_run), or NULL = /dev/null */
	bool capture;               /* proc_run: stdout into `out` (stderr to log_path or inherited) */
	bool new_group;             /* put the child in its own process group (no terminal SIGINT) */
};

int proc_spawn(const struct proc_spec *s, pid_t *out) __attribute__((warn_unused_result));
/* Wait up to timeout_ns (0 = forever). Returns 0 with *status, -ETIMEDOUT, or -errno. */
int proc_wait(pid_t pid, uint64_t timeout_ns, int *status) __attribute__((warn_unused_result));
/* Run to completion; 0 when it exited 0, -ECHILD otherwise (message printed by the caller). */
int proc_run(const struct proc_spec *s, struct strbuf *out, int *status) __attribute__((warn_unused_result));
/* pid is alive and its /proc/pid/comm is `comm`. */
bool proc_alive_named(pid_t pid, const char *comm);
/*
 * pid's command line has the argument `arg` (followed by `next` when next is
 * not NULL): how dbrig tells a process it started from one that merely got a
 * pid written in a stale file (a zombie or a process of another user has an
 * empty or unreadable command line: false).
 */
bool proc_argv_has(pid_t pid, const char *arg, const char *next);
/* The parent of pid (/proc/<pid>/stat), or -1 when it is gone. */
pid_t proc_parent(pid_t pid);
/* pid runs this very program (its /proc/<pid>/exe is /proc/self/exe's file). */
bool proc_runs_self(pid_t pid);
/* "exited with status 3" / "was killed by signal 9". */
void proc_describe_status(int status, struct strbuf *sb);
/* Append ": <last non-empty line of the log>" (at most 300 bytes) so that an error
 * message names the cause, not only the log file; nothing if the log is empty or unreadable. */
void proc_add_log_tail(const char *log_path, struct strbuf *sb);
/* First executable `name` in PATH, then the given folders (NULL-terminated); NULL if none. */
char *proc_find_program(const char *name, const char *const *extra_dirs);

#endif
