/* dbrig's data folder, found from the running binary (core/datadir.h). */
#include "core/datadir.h"

#include "core/strbuf.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int datadir_of(const char *exe, char *out, size_t outlen)
{
	const char *slash = strrchr(exe, '/');
	int dirlen = slash ? (int)(slash - exe) : 1;
	const char *dir = slash ? exe : ".";
	int n;

	/* installed: <prefix>/bin/dbrig and <prefix>/share/dbrig */
	n = snprintf(out, outlen, "%.*s/../share/dbrig", dirlen, dir);
	if (n < 0 || (size_t)n >= outlen)
		return -1;
	if (is_dir(out))
		return 0;
	/* a build tree: <build>/dbrig and <build>/share/dbrig */
	n = snprintf(out, outlen, "%.*s/share/dbrig", dirlen, dir);
	if (n < 0 || (size_t)n >= outlen)
		return -1;
	if (is_dir(out))
		return 0;
	n = snprintf(out, outlen, "%.*s/../share/dbrig", dirlen, dir);
	return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

const char *datadir(void)
{
	static char dir[PATH_MAX + 32];
	static int done;
	char exe[PATH_MAX];
	const char *env;
	ssize_t n;

	if (done)
		return dir;
	done = 1;
	env = getenv("DBRIG_DATA_DIR");
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s", env);
		return dir;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || (size_t)n >= sizeof(exe) - 1) {
		dir[0] = '\0';
		return dir;
	}
	exe[n] = '\0';
	if (datadir_of(exe, dir, sizeof(dir)) < 0)
		dir[0] = '\0';
	return dir;
}

char *datadir_path(const char *rel)
{
	struct strbuf sb;

	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "%s/%s", datadir(), rel);
	return strbuf_detach(&sb);
}
