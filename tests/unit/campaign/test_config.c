/* Target registry completeness, config loading of every shipped config, and the plan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/config.h"
#include "campaign/plan.h"
#include "core/strbuf.h"
#include "target/target.h"

static void test_registry_complete(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct target_ops *const *t = target_backends; *t; t++, n++) {
		const struct target_ops *o = *t;
		assert_non_null(o->name);
		assert_non_null(o->summary);
		assert_non_null(o->options);
		assert_non_null(o->init);
		assert_non_null(o->validate);
		assert_non_null(o->preflight);
		assert_non_null(o->create);
		assert_non_null(o->build_golden);
		assert_non_null(o->restore);
		assert_non_null(o->start);
		assert_non_null(o->endpoint);
		assert_non_null(o->verify);
		assert_non_null(o->stop);
		assert_non_null(o->destroy);
		assert_non_null(o->release);
		assert_non_null(o->cleanup);
		assert_ptr_equal(target_find(o->name), o);
		for (const struct target_option *opt = o->options; opt->name; opt++) {
			assert_non_null(opt->help);
			assert_true(strlen(opt->help) > 10);
			assert_string_not_equal(opt->name, "kind");
			for (const struct target_option *p = opt + 1; p->name; p++)
				assert_string_not_equal(opt->name, p->name);
		}
		for (const struct target_ops *const *u = t + 1; *u; u++)
			assert_string_not_equal(o->name, (*u)->name);
	}
	assert_true(n >= 2);
	assert_null(target_find("xen"));
}

static struct campaign_config *load(const char *rel)
{
	struct campaign_config *cfg = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR, rel);
	assert_int_equal(campaign_config_load(path, &cfg), 0);
	return cfg;
}

static void test_shipped_configs(void **state)
{
	struct campaign_config *cfg;

	(void)state;
	cfg = load("configs/storagereview-sysbench-4vm.json");
	assert_string_equal(cfg->target->name, "libvirt");
	assert_int_equal(cfg->tables, 100);
	assert_int_equal(cfg->table_size, 10000000);
	assert_int_equal(cfg->threads, 32);
	assert_int_equal(cfg->buffer_pool, UINT64_C(24) << 30);
	assert_int_equal(cfg->precondition_ns, UINT64_C(7200) * 1000000000);
	assert_int_equal(cfg->sample_ns, UINT64_C(3600) * 1000000000);
	assert_int_equal(target_setting(cfg, "under_test_size")->num, UINT64_C(270) << 30);
	assert_int_equal(cfg->groups[0].instances, 4);
	campaign_config_free(cfg);

	cfg = load("configs/storagereview-sysbench-8vm-8drives.json");
	assert_int_equal(cfg->ndrives, 8);
	assert_int_equal(cfg->groups[0].instances, 8);
	campaign_config_free(cfg);

	cfg = load("configs/storagereview-sqlserver-4vm.json");
	assert_int_equal(cfg->workload, WORKLOAD_TPCC);
	assert_int_equal(cfg->engine, ENGINE_SQLSERVER);
	assert_int_equal(cfg->precondition_ns, UINT64_C(9000) * 1000000000);
	assert_int_equal(cfg->sample_ns, UINT64_C(1800) * 1000000000);
	campaign_config_free(cfg);
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
	assert_int_equal(p->nruns, 3);
	assert_string_equal(p->runs[1].id, "2-instances-1-drive#1");
	assert_int_equal(p->runs[1].ninsts, 2);
	assert_int_equal(p->runs[2].ninsts, 2);
	assert_int_equal(p->insts[p->runs[2].insts[1]].drive, 1);
	strbuf_init(&sb, 0);
	plan_result_base(cfg, p, &p->runs[2], p->runs[2].insts[1], &sb);
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
		cmocka_unit_test(test_registry_complete),
		cmocka_unit_test(test_shipped_configs),
		cmocka_unit_test(test_plan_local_quick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
