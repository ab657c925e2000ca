/*
 * Unit tests of campaign/golden.c: the loader's identity, which every target
 * stores with a golden copy and compares before reusing it, changes with
 * every option that shapes the data (each scale option of each workload, and
 * any other load option) and not with options that only steer the run.
 */
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
#include "campaign/golden.h"
#include "core/strbuf.h"

static struct campaign_config *load(const char *rel)
{
	struct campaign_config *cfg = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR, rel);
	setenv("DBRIG_QUICK_DIR", "/nonexistent-dbrig-test", 1);
	assert_int_equal(campaign_config_load(path, &cfg), 0);
	return cfg;
}

static void identity(const struct campaign_config *cfg, struct strbuf *sb)
{
	struct golden g;

	golden_init(&g, cfg, "/bin/dbrig");
	strbuf_reset(sb);
	g.loader.identity(g.loader.arg, sb);
}

/* One more option key=value (freed with the config). */
static void add_option(struct campaign_config *cfg, const char *key, const char *value)
{
	cfg->wl_options = realloc(cfg->wl_options, (cfg->nwl_options + 1) * sizeof(*cfg->wl_options));
	assert_non_null(cfg->wl_options);
	cfg->wl_options[cfg->nwl_options].key = strdup(key);
	cfg->wl_options[cfg->nwl_options].value = strdup(value);
	cfg->nwl_options++;
}

static void test_sysbench_identity(void **state)
{
	struct campaign_config *cfg = load("configs/local-quick.json");
	struct strbuf base, sb;

	(void)state;
	strbuf_init(&base, 0);
	strbuf_init(&sb, 0);
	identity(cfg, &base);
	assert_non_null(strstr(base.buf, "sysbench "));
	/* table-size */
	(*campaign_scale_ref(cfg, "table-size"))++;
	identity(cfg, &sb);
	assert_string_not_equal(sb.buf, base.buf);
	(*campaign_scale_ref(cfg, "table-size"))--;
	/* tables */
	(*campaign_scale_ref(cfg, "tables"))++;
	identity(cfg, &sb);
	assert_string_not_equal(sb.buf, base.buf);
	(*campaign_scale_ref(cfg, "tables"))--;
	identity(cfg, &sb);
	assert_string_equal(sb.buf, base.buf);
	/* an option that only steers the transactions keeps the copy */
	add_option(cfg, "point-selects", "3");
	identity(cfg, &sb);
	assert_string_equal(sb.buf, base.buf);
	/* one that changes what prepare loads does not, and its order does not matter */
	add_option(cfg, "secondary", "on");
	add_option(cfg, "auto-inc", "off");
	identity(cfg, &sb);
	assert_string_not_equal(sb.buf, base.buf);
	assert_non_null(strstr(sb.buf, " auto-inc=off secondary=on"));
	strbuf_release(&base);
	strbuf_release(&sb);
	campaign_config_free(cfg);
}

static void test_tpcc_identity(void **state)
{
	struct campaign_config *cfg = load("configs/local-quick-tpcc.json");
	struct strbuf base, sb;

	(void)state;
	strbuf_init(&base, 0);
	strbuf_init(&sb, 0);
	identity(cfg, &base);
	assert_non_null(strstr(base.buf, "tpcc warehouses="));
	(*campaign_scale_ref(cfg, "warehouses"))++;
	identity(cfg, &sb);
	assert_string_not_equal(sb.buf, base.buf);
	(*campaign_scale_ref(cfg, "warehouses"))--;
	add_option(cfg, "terminals", "4");
	identity(cfg, &sb);
	assert_string_equal(sb.buf, base.buf);
	strbuf_release(&base);
	strbuf_release(&sb);
	campaign_config_free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysbench_identity),
		cmocka_unit_test(test_tpcc_identity),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
