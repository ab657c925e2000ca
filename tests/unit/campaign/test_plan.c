/* Unit tests of campaign/plan.c: instances and runs of a campaign, result paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "campaign/config.h"
#include "campaign/plan.h"
#include "core/strbuf.h"

static struct campaign_config *load(const char *rel)
{
	struct campaign_config *cfg = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR, rel);
	assert_int_equal(campaign_config_load(path, &cfg), 0);
	return cfg;
}

static void test_plan_local_quick(void **state)
{
	struct campaign_config *cfg;
	struct plan *p;
	struct strbuf sb;

	(void)state;
	setenv("DBRIG_QUICK_DIR", "/nonexistent-dbrig-test", 1);
	setenv("DBRIG_QUICK_OUTPUT", "/out", 1);
	cfg = load("configs/local-quick.json");
	assert_string_equal(cfg->drives[0].path, "/nonexistent-dbrig-test/drive-a");
	assert_string_equal(cfg->output, "/out");
	assert_true(cfg->verify_restore);
	p = plan_make(cfg);
	/* drive-a needs 2 instances (the 2-on-1 group), drive-b 1 */
	assert_int_equal(p->ninsts, 3);
	assert_string_equal(p->insts[0].name, "vm1");
	assert_string_equal(p->insts[1].name, "vm2");
	assert_int_equal(p->insts[2].drive, 1);
	/* "each" (the last group): the 1-instance group on drive-a, then on drive-b: one name, a run id per drive */
	assert_int_equal(p->nruns, 4);
	assert_string_equal(p->runs[0].id, "2-instances-1-drive#1");
	assert_int_equal(p->runs[0].ninsts, 2);
	assert_int_equal(p->runs[1].ninsts, 2);
	assert_int_equal(p->insts[p->runs[1].insts[1]].drive, 1);
	assert_string_equal(p->runs[2].id, "1-instance-1-drive@drive-a#1");
	assert_string_equal(p->runs[3].id, "1-instance-1-drive@drive-b#1");
	assert_string_equal(cfg->groups[p->runs[2].group].name, cfg->groups[p->runs[3].group].name);
	assert_int_equal(p->runs[3].ninsts, 1);
	assert_int_equal(p->insts[p->runs[3].insts[0]].drive, 1);
	strbuf_init(&sb, 0);
	plan_result_base(cfg, p, &p->runs[3], p->runs[3].insts[0], &sb);
	assert_string_equal(sb.buf, "/out/local-quick/1-instance-1-drive/drive-b/vm1");
	strbuf_reset(&sb);
	plan_result_base(cfg, p, &p->runs[1], p->runs[1].insts[1], &sb);
	assert_string_equal(sb.buf, "/out/local-quick/2-instances-2-drives/drive-b/vm1");
	strbuf_reset(&sb);
	campaign_percentiles_arg(cfg, &sb);
	assert_string_equal(sb.buf, "95,99");
	strbuf_release(&sb);
	plan_free(p);
	campaign_config_free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_local_quick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
