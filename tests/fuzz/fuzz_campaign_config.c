/*
 * libFuzzer target: the campaign config reader (campaign_config_load), the
 * whole path from bytes to a validated config, including the target's static
 * checks. The input goes through a file because the reader takes a path;
 * drive paths in fuzzed configs are only stat()ed, never created.
 */
#include "campaign/config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void remove_file(void)
{
	unlink(path);
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
	if (campaign_config_load(path, &cfg) == 0)
		campaign_config_free(cfg);
	return 0;
}
