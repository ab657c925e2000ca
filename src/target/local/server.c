/*
 * The servers of the local target, whichever the engine (what differs is in
 * its struct local_server_ops: mariadb.c, postgres.c): start and wait until ready, clean shutdown, a stale
 * server of an earlier killed dbrig, setup SQL through the engine's client,
 * the driver user's password, a fresh data directory, ownership for
 * postgres as its own user.
 */
#include "target/local/local.h"

#include "db/engine.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t read_pidfile(const char *path)
{
	char *text = NULL;
	long v = -1;

	if (read_file(path, &text, NULL) < 0)
		return -1;
	if (sscanf(text, "%ld", &v) != 1)
		v = -1;
	free(text);
	return (pid_t)v;
}

/*
 * A server of this campaign left by an earlier dbrig that was killed: it got
 * SIGTERM from PR_SET_PDEATHSIG and is shutting down; wait for it. Only a
 * process whose command line names this instance's data directory is that
 * server: after a reboot the pid in a stale pid file can belong to anything,
 * the system's own mariadbd included, which would be shut down. Anything else is left alone with a warning.
 */
int local_wait_stale(struct local *l, const char *pidfile, const char *data, const char *what)
{
	const char *comm = l->ops->comm;
	pid_t pid = read_pidfile(pidfile);
	uint64_t deadline = clock_now_ns() + l->stop_timeout;

	if (!proc_alive_named(pid, comm))
		return 0;
	if (!l->ops->serves_datadir(pid, data)) {
		log_warn("%s: %s names pid %ld, a %s that does not serve %s; it is not dbrig's, left alone", what,
			 pidfile, (long)pid, comm, data);
		return 0;
	}
	/* A server whose dbrig is alive belongs to a campaign running now, started from another folder or
	 * as another command: it is refused, never stopped (its result would still say complete). */
	{
		pid_t parent = proc_parent(pid);
		if (parent > 1 && parent != getpid() && proc_runs_self(parent)) {
			log_error("%s: the server on %s (pid %ld) belongs to a running dbrig (pid %ld); left alone "
				  "(expected that campaign to finish, or to be stopped, first)", what, data, (long)pid,
				  (long)parent);
			return -EBUSY;
		}
	}
	log_info("%s: a server of an earlier run (pid %ld) is still running; stopping it", what, (long)pid);
	kill(pid, SIGTERM);
	while (proc_alive_named(pid, comm) && l->ops->serves_datadir(pid, data)) {
		/* A signal to dbrig is not ignored for the stop timeout (it could be 10 minutes). */
		if (l->env->stop && *l->env->stop) {
			log_error("%s: stopped by signal %d while waiting for the earlier server (pid %ld) to stop", what,
				  (int)*l->env->stop, (long)pid);
			return -EINTR;
		}
		if (clock_now_ns() > deadline) {
			log_error("%s: the earlier server (pid %ld) did not stop within the stop timeout", what, (long)pid);
			return -ETIMEDOUT;
		}
		struct timespec ts = {0, 100 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* chown -R without following symbolic links. */
static int chown_tree(const char *path, uid_t uid, gid_t gid)
{
	struct stat st;
	DIR *dir = NULL;
	struct dirent *e;
	struct strbuf sb;
	int ret = 0;

	if (lstat(path, &st) < 0)
		return -errno;
	if (lchown(path, uid, gid) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (!(dir = opendir(path)))
		return -errno;
	strbuf_init(&sb, 0);
	while ((e = readdir(dir)) && ret == 0) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", path, e->d_name);
		ret = chown_tree(sb.buf, uid, gid);
	}
	closedir(dir);
	strbuf_release(&sb);
	return ret;
}

/* postgresql (as root): the server's user owns what it writes (data, socket folder), mode 0700. */
int local_own_tree(const struct local *l, const char *path)
{
	if (!l->ops->private_tree)
		return 0;
	if (chmod(path, 0700) < 0)
		return -errno;
	return l->as_user ? chown_tree(path, l->server_uid, l->server_gid) : 0;
}

/*
 * After spawning a server: wait until ready(l, port) says it answers, it
 * exits, or the start timeout passes (then it is stopped with stop_sig, then
 * SIGKILL). 0, or -ECHILD / -ETIMEDOUT after one error line naming `log`.
 */
int local_await_server(const struct local *l, const char *what, const char *name, pid_t pid, unsigned port,
			const char *log, int stop_sig, bool (*ready)(const struct local *, unsigned))
{
	uint64_t deadline = clock_now_ns() + l->start_timeout;
	int st;

	for (;;) {
		if (proc_wait(pid, 1, &st) == 0) {
			struct strbuf why;
			strbuf_init(&why, 0);
			proc_describe_status(st, &why);
			log_error("%s: %s %s while starting (see %s)", what, name, why.buf, log);
			strbuf_release(&why);
			return -ECHILD;
		}
		if (ready(l, port))
			return 0;
		if (clock_now_ns() > deadline) {
			log_error("%s: %s did not accept connections on 127.0.0.1:%u within the start timeout (see %s)",
				  what, name, port, log);
			kill(pid, stop_sig);
			if (proc_wait(pid, l->stop_timeout, &st) < 0)
				kill(pid, SIGKILL);
			return -ETIMEDOUT;
		}
		struct timespec ts = {0, 200 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
}

int local_server_start(struct local *l, const struct target_env *env, const char *what, const char *boot,
			const char *data, unsigned port, pid_t *pid_out)
{
	return l->ops->start(l, env, what, boot, data, port, pid_out);
}

/*
 * Clean shutdown: SIGTERM (mariadbd) or SIGINT (postgres' fast shutdown:
 * clients are cut off, a checkpoint is written), then wait; the server
 * flushes and closes its files.
 */
int local_server_stop(struct local *l, const char *what, pid_t *pid)
{
	int st, ret;

	if (*pid <= 0)
		return 0;
	kill(*pid, l->ops->stop_sig);
	ret = proc_wait(*pid, l->stop_timeout, &st);
	if (ret == -ETIMEDOUT) {
		log_error("%s: %s (pid %ld) did not shut down within the stop timeout; killed", what, l->ops->comm,
			  (long)*pid);
		kill(*pid, SIGKILL);
		if (proc_wait(*pid, 0, &st) < 0) {
			/* reaped elsewhere: nothing more to do */
		}
		*pid = -1;
		return -ETIMEDOUT;
	}
	*pid = -1;
	if (ret < 0)
		return ret;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		struct strbuf why;
		strbuf_init(&why, 0);
		proc_describe_status(st, &why);
		log_error("%s: %s %s at shutdown", what, l->ops->comm, why.buf);
		strbuf_release(&why);
		return -ECHILD;
	}
	return 0;
}

/*
 * SQL through the mariadb client as the socket's root user, or psql as the
 * postgres superuser on the socket folder (local trust in a 0700 folder);
 * output captured.
 */
int local_run_sql(struct local *l, const char *what, const char *sock, unsigned port, const char *sql,
		   struct strbuf *out)
{
	struct strbuf s, u;
	char *argv[16];
	int ret, st = 0;

	strbuf_init(&s, 0);
	strbuf_init(&u, 0);
	l->ops->client_argv(l, sock, port, &s, argv);
	struct proc_spec spec = {.argv = argv, .stdin_text = sql, .capture = true};
	ret = proc_run(&spec, out, &st);
	if (ret < 0) {
		proc_describe_status(st, &u);
		log_error("%s: %s %s running setup SQL on %s", what, l->ops->client, u.buf, sock);
	}
	strbuf_release(&s);
	strbuf_release(&u);
	return ret;
}

int local_load_password(struct local_drive *ld, bool create)
{
	struct strbuf path;
	char *text = NULL;
	int ret;

	if (ld->password)
		return 0;
	strbuf_init(&path, 0);
	strbuf_addf(&path, "%s/.credentials", ld->root);
	ret = read_file(path.buf, &text, NULL);
	if (ret == 0) {
		text[strcspn(text, "\n")] = '\0';
		ld->password = text;
		goto out;
	}
	if (!create)
		goto out;
	unsigned char raw[16];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, raw, sizeof(raw)) != (ssize_t)sizeof(raw)) {
		ret = -EIO;
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	char hex[40];
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(hex + 2 * i, 3, "%02x", raw[i]);
	strcat(hex, "\n");
	/* Created 0600: the password is never in a file others can read, not even for an instant. */
	ret = atomic_write_file_mode(path.buf, hex, strlen(hex), 0600);
	if (ret == 0) {
		hex[32] = '\0';
		ld->password = xstrdup(hex);
	}
out:
	strbuf_release(&path);
	return ret;
}

/* A fresh data directory: mariadb-install-db, or initdb as the server's user. */
int local_init_datadir(struct local *l, const char *what, const char *boot, const char *data)
{
	struct strbuf a[3], logp, why;
	char *argv[32];
	int ret, st = 0;

	for (size_t i = 0; i < 3; i++)
		strbuf_init(&a[i], 0);
	strbuf_init(&logp, 0);
	strbuf_init(&why, 0);
	strbuf_addf(&logp, "%s/install.log", boot);
	log_info("%s: initialising the golden data directory %s", what, data);
	if ((ret = l->ops->install_argv(l, what, boot, data, a, argv)) < 0)
		goto out;
	struct proc_spec spec = {.argv = argv, .log_path = logp.buf, .new_group = true};
	ret = proc_run(&spec, NULL, &st);
	if (ret < 0) {
		proc_describe_status(st, &why);
		strbuf_addf(&why, " (see %s)", logp.buf);
		proc_add_log_tail(logp.buf, &why);
		log_error("%s: %s %s", what, l->ops->installdb, why.buf);
	}
out:
	for (size_t i = 0; i < 3; i++)
		strbuf_release(&a[i]);
	strbuf_release(&logp);
	strbuf_release(&why);
	return ret;
}
