#include "cli/cli.h"

#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

char *cli_read_password_file(const char *opt, const char *path)
{
	struct stat st;
	FILE *f;
	char buf[1024];

	if (stat(path, &st) < 0 || !(f = fopen(path, "r"))) {
		log_error("--%s: \"%s\": %s", opt, path, strerror(errno));
		return NULL;
	}
	if (st.st_mode & (S_IRGRP | S_IROTH))
		log_warn("--%s: \"%s\" is readable by group or others (chmod 600 it)", opt, path);
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	return xstrdup(buf);
}
