/*
 * LD_PRELOAD shim for the campaign lock test: the first time the process
 * takes a write lock (F_SETLK) on a file whose name ends in ".lock", the file
 * is removed and a new one is created at the same path and locked by a child
 * (it holds it for 10 s, or until killed) before the process's own lock goes
 * on: the process has opened the file just before another holder released
 * and removed it, while a third process created and locked the new one. A
 * process that trusts its lock then holds a lock on a file nobody else can
 * see; dbrig must see that the path names another file and take the lock
 * again, finding the child's. The child's pid goes to $DBRIG_LOCK_SWAP_PID.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int swapped;

static void swap_lock_file(int fd, int (*real)(int, int, ...))
{
	char link[64], path[4096];
	ssize_t n;
	int pipefd[2];
	pid_t pid;
	char c;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 6)
		return;
	path[n] = '\0';
	if (strcmp(path + n - 5, ".lock") || pipe(pipefd) < 0)
		return;
	swapped = 1;
	unlink(path);
	pid = fork();
	if (pid == 0) {
		struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
		int nfd = open(path, O_RDWR | O_CREAT, 0644);

		if (nfd >= 0 && real(nfd, F_SETLK, &fl) == 0)
			c = 'y';
		else
			c = 'n';
		if (write(pipefd[1], &c, 1) != 1)
			_exit(1);
		sleep(10);
		_exit(0);
	}
	if (pid > 0 && read(pipefd[0], &c, 1) == 1 && getenv("DBRIG_LOCK_SWAP_PID")) {
		FILE *f = fopen(getenv("DBRIG_LOCK_SWAP_PID"), "w");
		if (f) {
			fprintf(f, "%ld\n", (long)pid);
			fclose(f);
		}
	}
	close(pipefd[0]);
	close(pipefd[1]);
}

static int wrapped(const char *name, int fd, int cmd, void *arg)
{
	int (*real)(int, int, ...) = (int (*)(int, int, ...))dlsym(RTLD_NEXT, name);

	if (!swapped && cmd == F_SETLK && arg && ((struct flock *)arg)->l_type == F_WRLCK)
		swap_lock_file(fd, real);
	return real(fd, cmd, arg);
}

int fcntl(int fd, int cmd, ...);
int fcntl64(int fd, int cmd, ...);

int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return wrapped("fcntl", fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return wrapped("fcntl64", fd, cmd, arg);
}
