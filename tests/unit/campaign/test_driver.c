/*
 * Unit tests of campaign/driver.c: the run, prepare, check and ping command lines
 * of both workloads and both kinds of engine, and their environment: the
 * password only there, never in argv.
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
#include "campaign/driver.h"
#include "core/features.h"
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

/* argv as one line, words separated by one space. */
static void joined(const struct driver_cmd *dc, struct strbuf *sb)
{
	strbuf_reset(sb);
	for (size_t i = 0; dc->argv[i]; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", dc->argv[i]);
}

static void test_sysbench_lines(void **state)
{
	struct campaign_config *cfg = load("configs/local-quick.json");
	struct target_endpoint ep = {.host = "127.0.0.1", .port = 23306, .user = "sbtest", .password = "pw1",
				     .database = "sbtest"};
	struct driver_run_id id = {"2 instances, 1 drive", "drive-a", "vm2", 2, 1, "rows=20000 checksum=7", 6,
				   "20261202T010500Z-3fa9c1", "2026-12-02T01:05:00Z"};
	struct driver_cmd dc;
	struct strbuf sb, want;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	(void)state;
	strbuf_init(&sb, 0);
	strbuf_init(&want, 0);
	driver_cmd_init(&dc);
	driver_cmd_run(&dc, cfg, "/bin/dbrig", &ep, &id, "/r/x/vm2");
	joined(&dc, &sb);
	/* The run's 2 drivers divide this machine's CPUs among their event loops (at least 1 each). */
	strbuf_addf(&want,
		"/bin/dbrig sysbench --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=23306 --mysql-user=sbtest "
		"--mysql-db=sbtest --threads=6 --percentile=95,99 --precondition=25 --time=30 --report-interval=5 "
		"--result=/r/x/vm2.json --journal=/r/x/vm2.jsonl --run-campaign=local-quick "
		"--run-group=2 instances, 1 drive --run-drive=drive-a --run-instance=vm2 --run-vm-count=2 "
		"--run-repetition=1 --run-steady-window=5 --run-golden=rows=20000 checksum=7 "
		"--run-id=20261202T010500Z-3fa9c1 --run-started=2026-12-02T01:05:00Z --tables=2 --table-size=10000 "
		"--event-loops=%ld oltp_read_write run",
		ncpu > 2 ? ncpu / 2 : 1);
	assert_string_equal(sb.buf, want.buf);
	strbuf_release(&want);
	assert_string_equal(dc.env[0], "MYSQL_PWD=pw1");
	assert_null(dc.env[1]);
	assert_null(strstr(sb.buf, "pw1"));
	driver_cmd_prepare(&dc, cfg, "/bin/dbrig", &ep);
	joined(&dc, &sb);
	assert_string_equal(sb.buf,
		"/bin/dbrig sysbench --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=23306 --mysql-user=sbtest "
		"--mysql-db=sbtest --tables=2 --table-size=10000 --threads=2 oltp_read_write prepare");
	ep.host = NULL;
	ep.socket = "/s/mysqld.sock";
	driver_cmd_check(&dc, cfg, "/bin/dbrig", &ep);
	joined(&dc, &sb);
	assert_string_equal(sb.buf,
		"/bin/dbrig sysbench --db-driver=mysql --mysql-socket=/s/mysqld.sock --mysql-user=sbtest "
		"--mysql-db=sbtest --tables=2 --table-size=10000 oltp_read_write check");
	/* A reused driver_cmd carries this command's environment only. */
	assert_string_equal(dc.env[0], "MYSQL_PWD=pw1");
	assert_null(dc.env[1]);
	/* The login probe: the connection and the test, no workload options. */
	driver_cmd_ping(&dc, cfg, "/bin/dbrig", &ep);
	joined(&dc, &sb);
	assert_string_equal(sb.buf,
		"/bin/dbrig sysbench --db-driver=mysql --mysql-socket=/s/mysqld.sock --mysql-user=sbtest "
		"--mysql-db=sbtest oltp_read_write ping");
	assert_string_equal(dc.env[0], "MYSQL_PWD=pw1");
	driver_cmd_release(&dc);
	strbuf_release(&sb);
	campaign_config_free(cfg);
}

/* A libvirt campaign's runs record the under-test storage (run.storage): format and
 * allocation; the local target has no such choice and passes nothing. */
#if DBRIG_HAVE_LIBVIRT
static void test_run_storage(void **state)
{
	struct campaign_config *cfg = load("configs/storagereview-sysbench-4vm.json");
	struct target_endpoint ep = {.host = "127.0.0.1", .port = 3306, .user = "dbrig", .password = "pw1",
				     .database = "sbtest"};
	struct driver_run_id id = {"4 VMs, 1 drive", "pm1743-a", "vm1", 4, 1, NULL, 0, NULL, NULL};
	struct driver_cmd dc;
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb, 0);
	driver_cmd_init(&dc);
	driver_cmd_run(&dc, cfg, "/bin/dbrig", &ep, &id, "/r/x/vm1");
	joined(&dc, &sb);
	assert_non_null(strstr(sb.buf, " --run-storage=format=raw allocation=full "));
	campaign_config_free(cfg);
	cfg = load("configs/local-quick.json");
	driver_cmd_run(&dc, cfg, "/bin/dbrig", &ep, &id, "/r/x/vm1");
	joined(&dc, &sb);
	assert_null(strstr(sb.buf, "--run-storage"));
	driver_cmd_release(&dc);
	strbuf_release(&sb);
	campaign_config_free(cfg);
}
#endif

#if DBRIG_HAVE_ODBC
static void test_tpcc_odbc_lines(void **state)
{
	struct campaign_config *cfg = load("configs/local-quick-tpcc-pg.json");
	struct target_endpoint ep = {.host = "127.0.0.1", .port = 5433, .user = "dbrig", .password = "pw2",
				     .database = "tpcc", .odbc_driver = "PostgreSQL Unicode", .odbc_sysini = "/c/odbc"};
	struct driver_cmd dc;
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb, 0);
	driver_cmd_init(&dc);
	driver_cmd_check(&dc, cfg, "/bin/dbrig", &ep);
	joined(&dc, &sb);
	assert_non_null(strstr(sb.buf, "/bin/dbrig tpcc --db-driver=odbc --odbc-connect=Driver={PostgreSQL Unicode};"
				       "Server=127.0.0.1;Port=5433;Database=tpcc;UID=dbrig;Protocol=7.4-1 "));
	assert_non_null(strstr(sb.buf, " check"));
	assert_null(strstr(sb.buf, "pw2"));
	assert_string_equal(dc.env[0], "ODBC_PWD=pw2");
	assert_string_equal(dc.env[1], "ODBCSYSINI=/c/odbc");
	assert_string_equal(dc.env[2], "ODBCINI=/c/odbc/odbc.ini");
	assert_null(dc.env[3]);
	driver_cmd_prepare(&dc, cfg, "/bin/dbrig", &ep);
	joined(&dc, &sb);
	/* TPC-C has one test: no test word; prepare's threads are bounded by the warehouses. */
	assert_non_null(strstr(sb.buf, " prepare"));
	assert_null(strstr(sb.buf, " tpcc prepare"));
	assert_string_equal(dc.env[0], "ODBC_PWD=pw2");
	assert_null(dc.env[3]);
	driver_cmd_ping(&dc, cfg, "/bin/dbrig", &ep);
	joined(&dc, &sb);
	assert_non_null(strstr(sb.buf, ";Protocol=7.4-1 ping"));
	/* "delivery_log": true: each run writes its Delivery log beside its result. */
	{
		struct driver_run_id id = {.group = "g", .drive = "d", .instance = "vm1", .vm_count = 1, .repetition = 1};
		driver_cmd_run(&dc, cfg, "/bin/dbrig", &ep, &id, "/r/x/vm1");
		joined(&dc, &sb);
		assert_null(strstr(sb.buf, "--delivery-log"));
		cfg->delivery_log = true;
		driver_cmd_run(&dc, cfg, "/bin/dbrig", &ep, &id, "/r/x/vm1");
		joined(&dc, &sb);
		assert_non_null(strstr(sb.buf, " --journal=/r/x/vm1.jsonl --delivery-log=/r/x/vm1.dlog "));
		assert_true(driver_sets_option(cfg->workload, "delivery-log"));
	}
	driver_cmd_release(&dc);
	strbuf_release(&sb);
	campaign_config_free(cfg);
}
#endif

/*
 * Security review finding 15: extra driver arguments were cut by a fixed argv
 * array and could push out the test name and "run". 300 workload options all
 * arrive, in order, then --event-loops, and the command line still ends with TEST run. Without a
 * password of its own an ODBC driver gets ODBC_PWD removed, not inherited.
 */
static void test_many_options_and_no_password(void **state)
{
	struct campaign_config *cfg = load("configs/local-quick.json");
	struct target_endpoint ep = {.host = "127.0.0.1", .port = 23306, .user = "sbtest", .database = "sbtest"};
	struct driver_run_id id = {"g", "drive-a", "vm1", 1, 1, NULL, 0, NULL, NULL};
	struct target_kv *saved = cfg->wl_options, *many = calloc(300, sizeof(*many));
	size_t nsaved = cfg->nwl_options, n = 0, first = 0;
	char key[300][16];
	struct driver_cmd dc;

	(void)state;
	for (size_t i = 0; i < 300; i++) {
		snprintf(key[i], sizeof(key[i]), "opt-%zu", i);
		many[i].key = key[i];
		many[i].value = "1";
	}
	cfg->wl_options = many;
	cfg->nwl_options = 300;
	driver_cmd_init(&dc);
	driver_cmd_run(&dc, cfg, "/bin/dbrig", &ep, &id, "/r/x/vm1");
	while (dc.argv[n])
		n++;
	for (size_t i = 0; i < n && !first; i++)
		if (!strcmp(dc.argv[i], "--opt-0=1"))
			first = i;
	assert_true(first > 0);
	/* then the campaign's --event-loops share of the CPUs (none of the options set it) */
	assert_int_equal(n, first + 300 + 3);
	assert_string_equal(dc.argv[first + 299], "--opt-299=1");
	assert_int_equal(strncmp(dc.argv[first + 300], "--event-loops=", 14), 0);
	assert_string_equal(dc.argv[n - 2], "oltp_read_write");
	assert_string_equal(dc.argv[n - 1], "run");
	assert_null(dc.env[0]); /* libmysqlclient without a password: MYSQL_PWD as inherited */
	driver_cmd_release(&dc);
	cfg->wl_options = saved;
	cfg->nwl_options = nsaved;
	free(many);
	campaign_config_free(cfg);

#if DBRIG_HAVE_ODBC
	cfg = load("configs/local-quick-tpcc-pg.json");
	ep.odbc_driver = "PostgreSQL Unicode";
	driver_cmd_init(&dc);
	driver_cmd_check(&dc, cfg, "/bin/dbrig", &ep);
	assert_string_equal(dc.env[0], "ODBC_PWD");
	assert_null(dc.env[1]);
	driver_cmd_release(&dc);
	campaign_config_free(cfg);
#endif
}

/*
 * Every option the campaign puts on a driver's command line is one
 * driver_sets_option refuses in a config's workload.options (else a config
 * could set it a second time), or a workload option of the config, or
 * --event-loops (a config may choose it). Over run, prepare, check and ping of
 * a sysbench and a TPC-C campaign.
 */
static void check_options_reserved(const struct campaign_config *cfg, const struct driver_cmd *dc)
{
	for (size_t i = 1; dc->argv[i]; i++) {
		const char *a = dc->argv[i];
		char name[128];
		bool ok;

		if (strncmp(a, "--", 2))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(a + 2, "="), a + 2);
		ok = driver_sets_option(cfg->workload, name) || !strcmp(name, "event-loops");
		for (size_t k = 0; k < cfg->nwl_options && !ok; k++)
			ok = !strcmp(cfg->wl_options[k].key, name);
		if (!ok)
			fail_msg("--%s is set by the campaign but a config may set it too (driver_sets_option)", name);
	}
}

static void test_options_reserved(void **state)
{
	/* the last one is driven through ODBC: not in a build without it */
	static const char *const files[] = {"configs/local-quick.json", "configs/local-quick-tpcc.json",
					    "configs/local-quick-tpcc-pg.json"};
	const size_t nfiles = sizeof(files) / sizeof(files[0]) - !DBRIG_HAVE_ODBC;
	struct target_endpoint ep = {.host = "127.0.0.1", .port = 23306, .user = "u", .password = "pw",
				     .database = "d"};
	struct driver_run_id id = {"g", "d", "vm1", 1, 1, NULL, 0, NULL, NULL};

	(void)state;
	for (size_t f = 0; f < nfiles; f++) {
		struct campaign_config *cfg = load(files[f]);
		struct driver_cmd dc;

		driver_cmd_init(&dc);
		driver_cmd_run(&dc, cfg, "/bin/dbrig", &ep, &id, "/r/x/vm1");
		check_options_reserved(cfg, &dc);
		driver_cmd_prepare(&dc, cfg, "/bin/dbrig", &ep);
		check_options_reserved(cfg, &dc);
		driver_cmd_check(&dc, cfg, "/bin/dbrig", &ep);
		check_options_reserved(cfg, &dc);
		driver_cmd_ping(&dc, cfg, "/bin/dbrig", &ep);
		check_options_reserved(cfg, &dc);
		driver_cmd_release(&dc);
		campaign_config_free(cfg);
	}
	/* and the list refuses what it must */
	assert_true(driver_sets_option(&workload_tpcc, "connections"));
	assert_true(driver_sets_option(&workload_tpcc, "check"));
	assert_true(driver_sets_option(&workload_sysbench, "run-steady-window"));
	assert_false(driver_sets_option(&workload_sysbench, "tables"));
	/* the db drivers' own options, from their option_prefix */
	assert_true(driver_sets_option(&workload_sysbench, "mysql-host"));
	assert_int_equal(driver_sets_option(&workload_tpcc, "odbc-connect"), DBRIG_HAVE_ODBC);
	assert_false(driver_sets_option(&workload_tpcc, "odbcconnect"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysbench_lines),
#if DBRIG_HAVE_LIBVIRT
		cmocka_unit_test(test_run_storage),
#endif
#if DBRIG_HAVE_ODBC
		cmocka_unit_test(test_tpcc_odbc_lines),
#endif
		cmocka_unit_test(test_many_options_and_no_password),
		cmocka_unit_test(test_options_reserved),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
