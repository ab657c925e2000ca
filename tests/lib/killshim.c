/*
 * LD_PRELOAD shim for the atomicity tests: the process kills itself with
 * SIGKILL in rename(), after the file was written and before it is renamed,
 * i.e. in the middle of an atomic write. Built by the tests that use it
 * (tests/lib/killshim.sh), never part of dbrig.
 *
 *   DBRIG_KILL_RENAME=TEXT    kill at a rename whose target path contains TEXT
 *   DBRIG_KILL_CONTENT=TEXT   ... and whose source file contains TEXT (optional)
 *   DBRIG_KILL_NTH=N          ... the Nth such rename (default 1)
 *   DBRIG_KILL_NOTE=FILE      write "SOURCE -> TARGET" there first
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int source_contains(const char *path, const char *text)
{
	static char buf[1 << 20];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, len = 0;

	if (fd < 0)
		return 0;
	while (len < (ssize_t)sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return strstr(buf, text) != NULL;
}

int rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	static int seen;
	const char *want = getenv("DBRIG_KILL_RENAME");
	const char *content = getenv("DBRIG_KILL_CONTENT");
	const char *nth = getenv("DBRIG_KILL_NTH");
	const char *note = getenv("DBRIG_KILL_NOTE");

	if (!real)
		real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
	if (want && *want && strstr(to, want) && (!content || !*content || source_contains(from, content)) &&
	    ++seen >= (nth ? atoi(nth) : 1)) {
		if (note) {
			FILE *f = fopen(note, "w");
			if (f) {
				fprintf(f, "%s -> %s\n", from, to);
				fclose(f);
			}
		}
		raise(SIGKILL);
	}
	return real(from, to);
}
