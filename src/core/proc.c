#include "core/proc.h"

#include "core/clock.h"
#include "core/fileio.h"
#include "core/strbuf.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Does the environment entry "NAME=value" (or "NAME") name the variable of `key` ("NAME=value" or "NAME")? */
static bool same_name(const char *entry, const char *key)
{
	size_t n = strcspn(key, "=");

	return !strncmp(entry, key, n) && (entry[n] == '=' || entry[n] == '\0');
}

/*
 * The child's environment, built before the fork (setenv between fork and
 * exec is not async-signal-safe: it allocates):
 * this process's environment with every spec->env entry replaced
 * ("NAME=value") or removed ("NAME"). The strings stay owned by environ and
 * spec.
 */
static char **child_env(const struct proc_spec *s)
{
	size_t n = 0, k = 0, extra = 0;
	char **env;

	while (environ && environ[n])
		n++;
	while (s->env && s->env[extra])
		extra++;
	env = xcalloc(n + extra + 1, sizeof(*env));
	for (size_t i = 0; i < n; i++) {
		bool drop = false;
		for (size_t e = 0; e < extra && !drop; e++)
			drop = same_name(environ[i], s->env[e]);
		if (!drop)
			env[k++] = environ[i];
	}
	for (size_t e = 0; e < extra; e++)
		if (strchr(s->env[e], '='))
			env[k++] = (char *)s->env[e];
	env[k] = NULL;
	return env;
}

/* Every descriptor above stderr: the child gets 0-2 and nothing else of ours (no open file or socket leaks into it). */
static void close_from_3(void)
{
	struct rlimit rl;

	if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur > 65536)
		rl.rlim_cur = 65536;
	for (int fd = 3; fd < (int)rl.rlim_cur; fd++)
		close(fd);
}

/* Between fork and exec only async-signal-safe calls; failures exit 127. */
static void child(const struct proc_spec *s, int in_fd, int out_fd, pid_t parent, char **env)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigset_t none;
	int fd;

	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
		_exit(127);
	if (s->new_group)
		setpgid(0, 0);
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGHUP, &dfl, NULL);
	sigaction(SIGPIPE, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (in_fd >= 0) {
		dup2(in_fd, 0);
	} else if ((fd = open("/dev/null", O_RDONLY)) >= 0) {
		dup2(fd, 0);
	}
	if (s->log_path) {
		/* The one way to open for writing (never a link, FIFO or device); only
		 * async-signal-safe calls (lstat, open, fstat, fcntl), as after fork. */
		fd = open_for_write(s->log_path, WRITE_APPEND, 0644);
		if (fd < 0)
			_exit(127);
		if (out_fd < 0)
			dup2(fd, 1);
		dup2(fd, 2);
	}
	if (out_fd >= 0)
		dup2(out_fd, 1);
	close_from_3();
	execve(s->argv[0], s->argv, env);
	_exit(127);
}

static int spawn(const struct proc_spec *s, int in_fd, int out_fd, int close_a, int close_b, pid_t *out)
{
	pid_t parent = getpid();
	char **env = child_env(s);
	pid_t pid;
	int err;

	fflush(NULL);
	pid = fork();
	err = errno;
	if (pid == 0) {
		if (close_a >= 0)
			close(close_a);
		if (close_b >= 0)
			close(close_b);
		child(s, in_fd, out_fd, parent, env);
	}
	free(env);
	if (pid < 0)
		return -err;
	if (s->new_group)
		setpgid(pid, pid);
	*out = pid;
	return 0;
}

int proc_spawn(const struct proc_spec *s, pid_t *out)
{
	return spawn(s, -1, -1, -1, -1, out);
}

int proc_wait(pid_t pid, uint64_t timeout_ns, int *status)
{
	uint64_t deadline = clock_now_ns() + timeout_ns;

	for (;;) {
		pid_t r = waitpid(pid, status, timeout_ns ? WNOHANG : 0);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (timeout_ns && clock_now_ns() >= deadline)
			return -ETIMEDOUT;
		if (timeout_ns) {
			struct timespec ts = {0, 50 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
}

/*
 * Feed stdin_text and read the child's stdout in one poll loop: a child that
 * answers each statement as it reads them (`mariadb --batch` with one SELECT
 * per table) fills the stdout pipe long before it has read all its input, so
 * writing everything first and reading afterwards would block both sides
 * forever.
 */
static int pump(int in_fd, const char *text, int out_fd, struct strbuf *out)
{
	size_t left = text ? strlen(text) : 0;
	char buf[16384];
	int ret = 0;

	if (in_fd >= 0 && (!left || fcntl(in_fd, F_SETFL, fcntl(in_fd, F_GETFL) | O_NONBLOCK) < 0)) {
		ret = left ? -errno : 0;
		close(in_fd);
		in_fd = -1;
	}
	while (ret == 0 && (in_fd >= 0 || out_fd >= 0)) {
		struct pollfd pf[2];
		nfds_t n = 0;
		int iw = -1, ir = -1;

		if (in_fd >= 0) {
			pf[n] = (struct pollfd){.fd = in_fd, .events = POLLOUT};
			iw = (int)n++;
		}
		if (out_fd >= 0) {
			pf[n] = (struct pollfd){.fd = out_fd, .events = POLLIN};
			ir = (int)n++;
		}
		if (poll(pf, n, -1) < 0) {
			if (errno != EINTR)
				ret = -errno;
			continue;
		}
		if (iw >= 0 && pf[iw].revents) {
			ssize_t w = write(in_fd, text, left);
			if (w > 0) {
				text += w;
				left -= (size_t)w;
			}
			/* EPIPE: the child stopped reading; what it printed is still read. */
			if (left == 0 || (w < 0 && errno != EINTR && errno != EAGAIN)) {
				close(in_fd);
				in_fd = -1;
			}
		}
		if (ir >= 0 && pf[ir].revents) {
			ssize_t r = read(out_fd, buf, sizeof(buf));
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (r <= 0) {
				out_fd = -1; /* closed by the caller */
				continue;
			}
			if (out)
				strbuf_add(out, buf, (size_t)r);
		}
	}
	if (in_fd >= 0)
		close(in_fd);
	return ret;
}

int proc_run(const struct proc_spec *s, struct strbuf *out, int *status)
{
	int in[2] = {-1, -1}, op[2] = {-1, -1};
	pid_t pid = -1;
	int st = 0, ret;

	if (s->stdin_text && pipe(in) < 0)
		return -errno;
	if (s->capture && pipe(op) < 0) {
		ret = -errno;
		goto out;
	}
	ret = spawn(s, in[0], op[1], in[1], op[0], &pid);
	if (ret < 0)
		goto out;
	if (in[0] >= 0) {
		close(in[0]);
		in[0] = -1;
	}
	if (op[1] >= 0) {
		close(op[1]);
		op[1] = -1;
	}
	{
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);
		int in_fd = in[1];
		in[1] = -1; /* pump closes it as soon as the text is written */
		ret = pump(in_fd, s->stdin_text, op[0], out);
		signal(SIGPIPE, old);
	}
	if (op[0] >= 0) { /* read to the end, or given up on: the child must not block on it */
		close(op[0]);
		op[0] = -1;
	}
	{
		int wr = proc_wait(pid, 0, &st);
		if (ret == 0)
			ret = wr;
	}
	if (ret < 0)
		goto out;
	if (status)
		*status = st;
	ret = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -ECHILD;
out:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (op[i] >= 0)
			close(op[i]);
	}
	return ret;
}

bool proc_alive_named(pid_t pid, const char *comm)
{
	char path[64], buf[64] = "";
	FILE *f;
	bool ok = false;

	if (pid <= 0 || kill(pid, 0) < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ok = !strcmp(buf, comm);
	}
	fclose(f);
	return ok;
}

pid_t proc_parent(pid_t pid)
{
	char path[64], buf[512];
	const char *p;
	ssize_t n;
	long ppid;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "pid (comm) state ppid ...": comm may hold spaces and parentheses, the last ')' ends it. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1)
		return -1;
	return (pid_t)ppid;
}

bool proc_runs_self(pid_t pid)
{
	char path[64];
	struct stat a, b;

	snprintf(path, sizeof(path), "/proc/%ld/exe", (long)pid);
	return pid > 0 && stat(path, &a) == 0 && stat("/proc/self/exe", &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

bool proc_argv_has(pid_t pid, const char *arg, const char *next)
{
	char path[64];
	char *text = NULL;
	size_t len = 0;
	bool found = false;

	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
	/* /proc files say size 0 but are regular: read_file reads to the end, bounded. */
	if (read_file(path, &text, &len) < 0)
		return false;
	for (size_t off = 0; off < len && !found; off += strlen(text + off) + 1) {
		const char *a = text + off;
		size_t after = off + strlen(a) + 1;
		found = !strcmp(a, arg) && (!next || (after < len && !strcmp(text + after, next)));
	}
	free(text);
	return found;
}

void proc_describe_status(int status, struct strbuf *sb)
{
	if (WIFEXITED(status))
		strbuf_addf(sb, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		strbuf_addf(sb, "was killed by signal %d", WTERMSIG(status));
	else
		strbuf_addf(sb, "ended with wait status %d", status);
}

void proc_add_log_tail(const char *log_path, struct strbuf *sb)
{
	char *text = NULL;
	size_t len = 0;

	if (!log_path || read_file(log_path, &text, &len) < 0)
		return;
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' '))
		len--;
	size_t start = len;
	while (start > 0 && text[start - 1] != '\n')
		start--;
	if (len > start)
		strbuf_addf(sb, ": %.*s", (int)(len - start > 300 ? 300 : len - start), text + start);
	free(text);
}

char *proc_find_program(const char *name, const char *const *extra_dirs)
{
	const char *path = getenv("PATH");
	struct strbuf sb;
	char *ret = NULL;

	strbuf_init(&sb, 0);
	if (strchr(name, '/')) {
		if (access(name, X_OK) == 0)
			ret = xstrdup(name);
		goto out;
	}
	while (path && *path) {
		size_t n = strcspn(path, ":");
		strbuf_reset(&sb);
		strbuf_add(&sb, path, n ? n : 1);
		if (!n)
			strbuf_reset(&sb), strbuf_addc(&sb, '.');
		strbuf_addf(&sb, "/%s", name);
		if (access(sb.buf, X_OK) == 0) {
			ret = strbuf_detach(&sb);
			goto out;
		}
		path += n + (path[n] == ':');
	}
	for (; extra_dirs && *extra_dirs; extra_dirs++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", *extra_dirs, name);
		if (access(sb.buf, X_OK) == 0) {
			ret = strbuf_detach(&sb);
			goto out;
		}
	}
out:
	strbuf_release(&sb);
	return ret;
}
