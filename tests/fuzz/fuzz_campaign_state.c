/*
 * libFuzzer target: the campaign state reader (state_load, what --resume
 * trusts after a crash or a hand edit) for a fixed campaign of two run groups
 * and two repetitions; the input goes through a file because the reader takes
 * a path. Seeds: tests/fuzz/corpus/campaign_state/.
 */
#include "campaign/config.h"
#include "campaign/plan.h"
#include "campaign/state.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char cfg_path[64], path[64];
static struct campaign_config *cfg;
static struct plan *plan;

static const char config[] =
	"{\"name\": \"fz\", \"workload\": {\"kind\": \"sysbench\", \"test\": \"oltp_read_write\", "
	"\"options\": {\"tables\": 1, \"table-size\": 2000}},\n"
	" \"engine\": {\"kind\": \"mariadb\", \"buffer_pool\": \"32M\"},\n"
	" \"target\": {\"kind\": \"local\", \"base_port\": 40000, \"create_drive_dirs\": true},\n"
	" \"drives\": [{\"name\": \"da\", \"path\": \"/tmp/dbrig-fuzz-state-drive\"}],\n"
	" \"run_groups\": [{\"name\": \"one\", \"placement\": {\"da\": 1}}, {\"name\": \"two\", \"placement\": {\"da\": 2}}],\n"
	" \"repetitions\": 2, \"precondition\": \"2s\", \"sample\": \"6s\", \"output\": \"/tmp/dbrig-fuzz-state-out\"}\n";

static void remove_files(void)
{
	unlink(cfg_path);
	unlink(path);
}

static void write_file(const char *p, const void *d, size_t n)
{
	FILE *f = fopen(p, "wb");

	if (!f || (n && fwrite(d, 1, n, f) != n) || fclose(f) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct campaign_state *st = NULL;

	if (!cfg) {
		int fd;
		snprintf(cfg_path, sizeof(cfg_path), "/tmp/dbrig-fuzz-state-cfg.XXXXXX");
		snprintf(path, sizeof(path), "/tmp/dbrig-fuzz-state.XXXXXX");
		if ((fd = mkstemp(cfg_path)) < 0)
			abort();
		close(fd);
		if ((fd = mkstemp(path)) < 0)
			abort();
		close(fd);
		atexit(remove_files);
		write_file(cfg_path, config, strlen(config));
		if (campaign_config_load(cfg_path, &cfg) < 0)
			abort();
		plan = plan_make(cfg);
	}
	write_file(path, data, size);
	if (state_load(cfg, plan, path, &st) == 0)
		state_free(st);
	return 0;
}
