/* Unit tests of campaign/config.c: the shipped configs load with the values they state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/config.h"
#include "campaign/plan.h"
#include "core/features.h"
#include "core/strbuf.h"
#include "target/target.h"

#if DBRIG_HAVE_LIBVIRT && DBRIG_HAVE_ODBC
static struct campaign_config *load(const char *rel)
{
	struct campaign_config *cfg = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR, rel);
	assert_int_equal(campaign_config_load(path, &cfg), 0);
	return cfg;
}
#endif

/* A build without an optional backend refuses a campaign that needs it (and a full
 * build loads it): the libvirt target, and an engine driven through ODBC. */
static void test_left_out_backends(void **state)
{
	struct campaign_config *cfg = NULL;
	char path[4096];
	const char *src = getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR;

	(void)state;
	snprintf(path, sizeof(path), "%s/configs/storagereview-sysbench-4vm.json", src);
	assert_int_equal(campaign_config_load(path, &cfg) == 0, DBRIG_HAVE_LIBVIRT);
	campaign_config_free(cfg);
	cfg = NULL;
	setenv("DBRIG_QUICK_DIR", "/nonexistent-dbrig-test", 1);
	snprintf(path, sizeof(path), "%s/configs/local-quick-tpcc-pg.json", src);
	assert_int_equal(campaign_config_load(path, &cfg) == 0, DBRIG_HAVE_ODBC);
	campaign_config_free(cfg);
}

#if DBRIG_HAVE_LIBVIRT && DBRIG_HAVE_ODBC
static void test_shipped_configs(void **state)
{
	struct campaign_config *cfg;

	(void)state;
	cfg = load("configs/storagereview-sysbench-4vm.json");
	assert_string_equal(cfg->target->name, "libvirt");
	assert_int_equal(campaign_scale_value(cfg, "tables"), 100);
	assert_int_equal(campaign_scale_value(cfg, "table-size"), 10000000);
	assert_int_equal(cfg->threads, 32);
	assert_int_equal(cfg->rate, 0); /* closed loop, as the published runs */
	assert_int_equal(cfg->buffer_pool, UINT64_C(24) << 30);
	assert_int_equal(cfg->precondition_ns, UINT64_C(7200) * 1000000000);
	assert_int_equal(cfg->sample_ns, UINT64_C(3600) * 1000000000);
	assert_int_equal(target_setting(&cfg->env, "under_test_size")->num, UINT64_C(270) << 30);
	assert_int_equal(cfg->groups[0].instances, 4);
	campaign_config_free(cfg);

	cfg = load("configs/storagereview-sysbench-8vm-8drives.json");
	assert_int_equal(cfg->ndrives, 8);
	assert_int_equal(cfg->groups[0].instances, 8);
	campaign_config_free(cfg);

	cfg = load("configs/storagereview-sqlserver-4vm.json");
	assert_ptr_equal(cfg->workload, &workload_tpcc);
	assert_ptr_equal(cfg->engine, &db_engine_sqlserver);
	assert_string_equal(cfg->engine->name, "sqlserver");
	assert_int_equal(cfg->precondition_ns, UINT64_C(9000) * 1000000000);
	assert_int_equal(cfg->sample_ns, UINT64_C(1800) * 1000000000);
	/* The published protocol when run: one call per transaction, SQL Server's port, the
	 * TLS choice explicit (preflight refuses it unset), max server memory applied. */
	{
		bool procedures = false;
		for (size_t i = 0; i < cfg->nwl_options; i++)
			procedures |= !strcmp(cfg->wl_options[i].key, "mode") && !strcmp(cfg->wl_options[i].value, "procedures");
		assert_true(procedures);
	}
	assert_false(target_setting(&cfg->env, "db_port")->set);
	assert_int_equal(cfg->engine->port, 1433);
	assert_true(target_setting(&cfg->env, "sqlserver_trust_server_certificate")->set);
	assert_int_equal(cfg->nserver_options, 1);
	assert_string_equal(cfg->server_options[0].key, "max_server_memory_mb");
	/* Issue 23: Microsoft's apt source with the key you download, the files pre-sized (within
	 * the under-test volume) and the recovery model explicit. */
	assert_string_equal(target_setting(&cfg->env, "guest_apt_key")->str, "/etc/dbrig/microsoft.asc");
	assert_true(target_setting(&cfg->env, "sqlserver_data_size")->num + target_setting(&cfg->env, "sqlserver_log_size")->num <
		    target_setting(&cfg->env, "under_test_size")->num);
	assert_string_equal(target_setting(&cfg->env, "sqlserver_recovery")->str, "simple");
	campaign_config_free(cfg);

	/* The published guests, Windows: no seed, the password from a file, port 1433 said. */
	cfg = load("configs/storagereview-sqlserver-4vm-windows.json");
	assert_ptr_equal(cfg->engine, &db_engine_sqlserver);
	assert_int_equal(target_setting(&cfg->env, "cloud_init")->num, 0);
	assert_string_equal(target_setting(&cfg->env, "db_password_file")->str, "/etc/dbrig/sqlserver-windows.password");
	assert_false(target_setting(&cfg->env, "db_password")->set);
	assert_int_equal(target_setting(&cfg->env, "db_port")->num, 1433);
	assert_false(target_setting(&cfg->env, "guest_apt_key")->set);
	campaign_config_free(cfg);
}
#endif

/* "sessions": "terminals": the instance's connections are its terminals
 * (options.terminals, else 10 per warehouse); the default is a pool. */
static void test_sessions_terminals(void **state)
{
	static const char *const opts[] = {"\"terminals\": 120", "\"warehouses\": 3"};
	static const unsigned want[] = {120, 30};
	char dir[] = "/tmp/dbrig-test-config.XXXXXX", path[4200];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/c.json", dir);
	for (int i = 0; i < 3; i++) {
		struct campaign_config *cfg = NULL;
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f,
			"{\"name\": \"s\", \"workload\": {\"kind\": \"tpcc\", \"options\": {%s}},"
			" \"engine\": {\"kind\": \"mariadb\"}, \"target\": {\"kind\": \"local\"},"
			" \"drives\": [{\"name\": \"a\", \"path\": \"%s\"}],"
			" \"run_groups\": [{\"name\": \"g\", \"placement\": {\"a\": 1}}]%s}\n",
			i < 2 ? opts[i] : "", dir, i < 2 ? ", \"sessions\": \"terminals\"" : ", \"threads\": 4");
		fclose(f);
		assert_int_equal(campaign_config_load(path, &cfg), 0);
		assert_int_equal(cfg->sessions_per_terminal, i < 2);
		assert_int_equal(cfg->threads, i < 2 ? want[i] : 4);
		campaign_config_free(cfg);
	}
	unlink(path);
	rmdir(dir);
}

/*
 * "golden": one load per campaign by default, on the first drive with instances or on
 * golden_drive, which the target sees as env.golden_source; "per-drive": -1. (The refusals
 * are tests/bad-input/campaign-golden-*.)
 */
static void test_golden_modes(void **state)
{
	static const char *const extra[] = {"", ", \"golden\": \"once\", \"golden_drive\": \"c\"",
					    ", \"golden\": \"per-drive\"", ", \"golden_drive\": \"b\""};
	static const long want[] = {1, 2, -1, 1};
	char dir[] = "/tmp/dbrig-test-config.XXXXXX", path[4200], sub[3][4200];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/c.json", dir);
	for (int k = 0; k < 3; k++) {
		snprintf(sub[k], sizeof(sub[k]), "%s/%c", dir, 'a' + k);
		assert_int_equal(mkdir(sub[k], 0755), 0);
	}
	for (int i = 0; i < 4; i++) {
		struct campaign_config *cfg = NULL;
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		/* drive a has no instances: the default source is b */
		fprintf(f,
			"{\"name\": \"s\", \"workload\": {\"kind\": \"sysbench\", \"test\": \"oltp_read_only\"},"
			" \"engine\": {\"kind\": \"mariadb\"}, \"target\": {\"kind\": \"local\"},"
			" \"drives\": [{\"name\": \"a\", \"path\": \"%s\"}, {\"name\": \"b\", \"path\": \"%s\"},"
			" {\"name\": \"c\", \"path\": \"%s\"}],"
			" \"run_groups\": [{\"name\": \"g\", \"placement\": {\"b\": 1, \"c\": 2}}]%s}\n",
			sub[0], sub[1], sub[2], extra[i]);
		fclose(f);
		assert_int_equal(campaign_config_load(path, &cfg), 0);
		assert_int_equal(cfg->golden_source, want[i]);
		assert_int_equal(cfg->env.golden_source, want[i]);
		campaign_config_free(cfg);
	}
	unlink(path);
	for (int k = 0; k < 3; k++)
		rmdir(sub[k]);
	rmdir(dir);
}

/*
 * "placement": {"each": [...], "vms": [...]} and a "threads" sweep expand into
 * one run group per drive and value, the drives in turn; a swept value is in
 * the name, the drives of one point share it (the report pairs them).
 */
static void test_each_and_sweeps(void **state)
{
	char dir[] = "/tmp/dbrig-test-config.XXXXXX", path[4200], sub[2][4200];
	struct campaign_config *cfg = NULL;
	struct plan *p;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/c.json", dir);
	for (int k = 0; k < 2; k++) {
		snprintf(sub[k], sizeof(sub[k]), "%s/%c", dir, 'a' + k);
		assert_int_equal(mkdir(sub[k], 0755), 0);
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"{\"name\": \"s\", \"workload\": {\"kind\": \"sysbench\", \"test\": \"oltp_read_only\"},"
		" \"engine\": {\"kind\": \"mariadb\"}, \"target\": {\"kind\": \"local\"}, \"threads\": 3,"
		" \"drives\": [{\"name\": \"a\", \"path\": \"%s\"}, {\"name\": \"b\", \"path\": \"%s\"}],"
		" \"run_groups\": [{\"name\": \"one\", \"placement\": {\"each\": [\"b\", \"a\"], \"vms\": 2}},"
		" {\"name\": \"sw\", \"placement\": {\"each\": [\"a\", \"b\"], \"vms\": [1, 4]}, \"threads\": [8, 16]},"
		" {\"name\": \"both\", \"placement\": {\"a\": 1, \"b\": 1}, \"threads\": 5}]}\n",
		sub[0], sub[1]);
	fclose(f);
	assert_int_equal(campaign_config_load(path, &cfg), 0);
	assert_int_equal(cfg->ngroups, 2 + 8 + 1);
	/* "one": b then a, 2 instances each, the campaign's threads */
	assert_string_equal(cfg->groups[0].name, "one");
	assert_string_equal(cfg->groups[1].name, "one");
	assert_int_equal(cfg->groups[0].place[0].drive, 1);
	assert_int_equal(cfg->groups[1].place[0].drive, 0);
	assert_int_equal(cfg->groups[0].instances, 2);
	assert_int_equal(cfg->groups[0].threads, 3);
	assert_true(cfg->groups[0].each);
	assert_string_equal(cfg->groups[0].id, "one@b");
	/* "sw": every point on a, then on b */
	assert_string_equal(cfg->groups[2].name, "sw, 1 VM, 8 threads");
	assert_string_equal(cfg->groups[3].name, "sw, 1 VM, 8 threads");
	assert_int_equal(cfg->groups[3].place[0].drive, 1);
	assert_string_equal(cfg->groups[4].name, "sw, 1 VM, 16 threads");
	assert_int_equal(cfg->groups[4].threads, 16);
	assert_string_equal(cfg->groups[9].name, "sw, 4 VMs, 16 threads");
	assert_int_equal(cfg->groups[9].instances, 4);
	assert_string_equal(cfg->groups[9].slug, "sw-4-vms-16-threads");
	/* a map placement: the drives at once, its own threads */
	assert_false(cfg->groups[10].each);
	assert_int_equal(cfg->groups[10].instances, 2);
	assert_int_equal(cfg->groups[10].threads, 5);
	assert_string_equal(cfg->groups[10].id, "both");
	/* the servers allow the most threads any group asks for */
	assert_int_equal(cfg->env.threads, 16);
	p = plan_make(cfg);
	assert_int_equal(p->ninsts, 8); /* 4 per drive */
	assert_int_equal(p->nruns, 11);
	assert_string_equal(p->runs[0].id, "one@b#1");
	assert_string_equal(p->runs[9].id, "sw-4-vms-16-threads@b#1");
	plan_free(p);
	campaign_config_free(cfg);
	unlink(path);
	for (int k = 0; k < 2; k++)
		rmdir(sub[k]);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_left_out_backends),
#if DBRIG_HAVE_LIBVIRT && DBRIG_HAVE_ODBC
		cmocka_unit_test(test_shipped_configs),
#endif
		cmocka_unit_test(test_sessions_terminals),
		cmocka_unit_test(test_golden_modes),
		cmocka_unit_test(test_each_and_sweeps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
