/*
 * libFuzzer target: the campaign config reader (campaign_config_load), the
 * whole path from bytes to a validated config, including the target's static
 * checks. The input goes through a file because the reader takes a path;
 * drive paths in fuzzed configs are only stat()ed, never created.
 *
 * Beyond "no crash": what the reader prints (it logs to stderr, caught here
 * in a memfd) is, besides warnings, nothing for a config it accepts and
 * exactly one line starting with "dbrig: <file>:" for one it refuses
 * (README: bad input gets one clear line naming the place).
 */
#define _GNU_SOURCE
#include "campaign/config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void remove_file(void)
{
	unlink(path);
}

/* The lines the reader printed: warnings aside, none (accepted) or one naming the file (refused). */
static void check_output(int fd, int rc)
{
	static char buf[1 << 16];
	ssize_t n;
	size_t errors = 0, plen = strlen(path);
	char *line, *save = NULL;

	if (lseek(fd, 0, SEEK_SET) < 0 || (n = read(fd, buf, sizeof(buf) - 1)) < 0)
		abort();
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "dbrig: warning: ", 16))
			continue;
		errors++;
		if (strncmp(line, "dbrig: ", 7) || strncmp(line + 7, path, plen) || line[7 + plen] != ':') {
			fprintf(stdout, "an error line that does not name the file: \"%s\"\n", line);
			abort();
		}
	}
	if ((rc == 0 && errors) || (rc != 0 && errors != 1)) {
		fprintf(stdout, "%s with %zu error lines\n", rc == 0 ? "accepted" : "refused", errors);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct campaign_config *cfg = NULL;
	FILE *f;

	if (!path[0]) {
		int fd;
		snprintf(path, sizeof(path), "/tmp/dbrig-fuzz-config.XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
		atexit(remove_file);
	}
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f) != 0)
		abort();
	int fd = memfd_create("stderr", 0), saved, rc;
	if (fd < 0)
		abort();
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	rc = campaign_config_load(path, &cfg);
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
	} else {
		close(2);
	}
	if (rc == 0)
		campaign_config_free(cfg);
	check_output(fd, rc);
	close(fd);
	return 0;
}
