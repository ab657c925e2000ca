/*
 * Unit tests of campaign/steps.c on the local target (no server is started):
 * a provision that fails half-way removes what it created and nothing else,
 * teardown removes what provision made, and the loader the target gets is
 * the campaign's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/config.h"
#include "campaign/plan.h"
#include "campaign/steps.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/tree.h"

static char dir[] = "/tmp/dbrig-test-steps.XXXXXX";

static struct campaign_config *load(void)
{
	struct campaign_config *cfg = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR,
		 "configs/local-quick.json");
	setenv("DBRIG_QUICK_DIR", dir, 1);
	setenv("DBRIG_QUICK_OUTPUT", dir, 1);
	assert_int_equal(campaign_config_load(path, &cfg), 0);
	return cfg;
}

static bool exists(const char *fmt, const char *a)
{
	char p[4096];

	snprintf(p, sizeof(p), fmt, dir, a);
	return access(p, F_OK) == 0;
}

static void test_failed_provision_rolls_back(void **state)
{
	struct campaign_config *cfg;
	struct plan *p;
	struct steps st;
	char path[4096];

	(void)state;
	assert_non_null(mkdtemp(dir));
	cfg = load();
	p = plan_make(cfg);
	/* drive-b's campaign folder exists already (a campaign started before), and its vm1 cannot be made. */
	snprintf(path, sizeof(path), "%s/drive-b/dbrig-local-quick", dir);
	assert_int_equal(tree_make_marked(path, "test\n"), 0);
	snprintf(path, sizeof(path), "%s/drive-b/dbrig-local-quick/vm1", dir);
	assert_int_equal(atomic_write_file(path, "in the way\n", 11), 0);

	assert_int_equal(steps_open(&st, cfg, p, false), 0);
	assert_ptr_equal(st.tgt.env->loader, &st.golden.loader);
	assert_non_null(st.env.loader->load);
	assert_non_null(st.env.loader->fingerprint);
	assert_true(st.exe[0] == '/');
	assert_true(steps_provision(&st, NULL) < 0);
	/* What this provision made on drive-a is gone; drive-b's older folder stays. */
	assert_false(exists("%s/%s/dbrig-local-quick/vm1", "drive-a"));
	assert_false(exists("%s/%s/dbrig-local-quick", "drive-a"));
	assert_true(exists("%s/%s/dbrig-local-quick", "drive-b"));
	assert_true(exists("%s/%s/dbrig-local-quick/vm1", "drive-b"));
	for (size_t i = 0; i < p->ninsts; i++)
		assert_false(p->insts[i].created);
	steps_close(&st);

	/* Without the obstacle every instance is made, and teardown removes them all. */
	unlink(path);
	assert_int_equal(steps_open(&st, cfg, p, false), 0);
	assert_int_equal(steps_provision(&st, NULL), 0);
	assert_true(exists("%s/%s/dbrig-local-quick/vm2", "drive-a"));
	assert_true(exists("%s/%s/dbrig-local-quick/vm1", "drive-b"));
	assert_int_equal(steps_teardown(&st, false, NULL), 0);
	assert_false(exists("%s/%s/dbrig-local-quick", "drive-a"));
	assert_false(exists("%s/%s/dbrig-local-quick", "drive-b"));
	steps_close(&st);

	plan_free(p);
	campaign_config_free(cfg);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failed_provision_rolls_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
