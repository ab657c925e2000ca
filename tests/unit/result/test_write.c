/* Result file and journal: schema, phases kept apart, histogram round trip,
 * atomic writes that leave nothing behind on failure: before the temporary file
 * exists (a missing folder) and after it was written (the rename fails). The
 * temporary-file-and-rename sequence itself is proven by faults_driver_kill.sh
 * (strace, and a process killed inside rename()). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "result/result.h"
#include "runner/runner.h"

static char dir[64];

/* rename(2), made to fail once when fail_rename is set: the rename that comes after the
 * temporary file is written and fsynced (this executable links with -Wl,--wrap=rename:
 * tests/CMakeLists.txt). A name that is a folder cannot stand in for it: the write
 * refuses such a name before it writes anything. */
int __real_rename(const char *from, const char *to);
int __wrap_rename(const char *from, const char *to);
static int fail_rename, renames_failed;

int __wrap_rename(const char *from, const char *to)
{
	if (fail_rename) {
		fail_rename = 0;
		renames_failed++;
		errno = EXDEV;
		return -1;
	}
	return __real_rename(from, to);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/dbrig-test-result.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void fill(struct span_stats *s, uint64_t n, uint64_t base_ns)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(hist_init(&s->lat), 0);
	for (uint64_t i = 0; i < n; i++)
		hist_record(s->lat, base_ns + i * 1000);
	s->c.events = n;
	s->c.reads = 14 * n;
	s->c.writes = 4 * n;
	s->c.others = 2 * n;
	s->c.errors = 3;
}

static void test_write_and_read_back(void **state)
{
	(void)state;
	struct result *r;
	struct span_stats pre, sam;
	uint64_t ev[2] = {40, 60};
	double busy[2] = {1.0, 1.0};
	double pct[2] = {95, 99};
	static const char *const types[] = {"transaction"};
	char path[128];
	json_error_t err;

	assert_int_equal(result_new(&r, "sysbench", "oltp_read_write"), 0);
	result_set_percentiles(r, pct, 2);
	result_set_types(r, types, 1);
	result_param_int(r, "tables", 4);
	fill(&pre, 50, 2000000);
	fill(&sam, 100, 5000000);
	struct phase_report pp = {.phase = PHASE_PRECONDITION, .complete = true, .seconds = 5.0, .threads = 2, .s = &pre, .session_events = ev, .session_seconds = busy, .cpu_s = 1.0};
	struct phase_report sp = {.phase = PHASE_SAMPLE, .complete = true, .seconds = 10.0, .threads = 2, .s = &sam, .session_events = ev, .session_seconds = busy, .cpu_s = 2.5};
	result_set_phase(r, &pp);
	result_set_phase(r, &sp);
	result_set_driver(r, 2, false, UINT64_C(123456789012345));
	result_set_run(r, &(struct run_identity){.campaign = "c", .vm_count = 1, .repetition = 1,
						 .storage = "format=raw allocation=full"});
	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(result_write(r, path, "complete", NULL), 0);
	result_free(r);

	json_t *root = json_load_file(path, 0, &err);
	assert_non_null(root);
	/* The test bed's under-test storage, as the campaign passed it (--run-storage). */
	assert_string_equal(json_string_value(json_object_get(json_object_get(root, "run"), "storage")),
			    "format=raw allocation=full");
	assert_string_equal(json_string_value(json_object_get(root, "schema")), "dbrig.result/1.3");
	assert_string_equal(json_string_value(json_object_get(root, "schema")), RESULT_SCHEMA);
	/* The driver's own CPU: 2.5 s over the 10 s sample is 0.25 core; its loops and clock. */
	json_t *cpu = json_object_get(json_object_get(json_object_get(root, "phases"), "sample"), "cpu");
	assert_true(json_real_value(json_object_get(cpu, "seconds")) == 2.5);
	assert_true(json_real_value(json_object_get(cpu, "cores")) == 0.25);
	json_t *drv = json_object_get(root, "driver");
	assert_int_equal(json_integer_value(json_object_get(drv, "event_loops")), 2);
	assert_false(json_is_true(json_object_get(drv, "blocking")));
	assert_int_equal(json_integer_value(json_object_get(drv, "clock_start_ns")), 123456789012345);
	assert_string_equal(json_string_value(json_object_get(root, "status")), "complete");
	json_t *s = json_object_get(json_object_get(root, "phases"), "sample");
	json_t *p = json_object_get(json_object_get(root, "phases"), "precondition");
	assert_int_equal(json_integer_value(json_object_get(s, "transactions")), 100);
	assert_int_equal(json_integer_value(json_object_get(p, "transactions")), 50);
	assert_true(json_real_value(json_object_get(s, "tps")) == 10.0);
	assert_null(json_object_get(s, "conn_wait")); /* no terminals, no pool */
	/* The stored buckets rebuild the same histogram, so merges are exact. */
	struct hist *h;
	assert_int_equal(hist_init(&h), 0);
	json_t *counts = json_object_get(json_object_get(s, "histogram"), "counts");
	size_t i;
	json_t *pair;
	json_array_foreach(counts, i, pair) {
		assert_int_equal(hist_set_bucket(h, (size_t)json_integer_value(json_array_get(pair, 0)),
						 (uint64_t)json_integer_value(json_array_get(pair, 1))), 0);
	}
	assert_true(h->total == 100);
	assert_memory_equal(h->counts, sam.lat->counts, sizeof(h->counts));
	json_t *lp = json_object_get(json_object_get(s, "latency_ms"), "percentiles");
	assert_non_null(json_object_get(lp, "95"));
	assert_non_null(json_object_get(lp, "99"));
	hist_close(h);
	json_decref(root);
	hist_close(pre.lat);
	hist_close(sam.lat);

	/* Nothing but the result in the folder: the temporary file was renamed. */
	DIR *d = opendir(dir);
	struct dirent *e;
	int files = 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			files++;
	closedir(d);
	assert_int_equal(files, 1);
}

/* Terminals: the wait for a connection apart from the service time, per
 * phase and per type, and the pool flag. */
static void test_conn_wait(void **state)
{
	(void)state;
	struct result *r;
	struct span_stats sam;
	uint64_t ev[2] = {40, 60};
	double busy[2] = {1.0, 1.0};
	static const char *const types[] = {"a", "b"};
	char path[128];
	json_error_t err;

	memset(&sam, 0, sizeof(sam));
	assert_int_equal(hist_init(&sam.lat), 0);
	assert_int_equal(hist_init(&sam.wait), 0);
	assert_int_equal(hist_init(&sam.type_lat[0]), 0);
	assert_int_equal(hist_init(&sam.type_lat[1]), 0);
	for (int i = 0; i < 10; i++) { /* a: 10 ms, 4 of them waiting; b: 30 ms, 6 waiting */
		hist_record(sam.lat, 10000000);
		hist_record(sam.type_lat[0], 10000000);
		hist_record(sam.wait, 4000000);
		hist_record(sam.lat, 30000000);
		hist_record(sam.type_lat[1], 30000000);
		hist_record(sam.wait, 6000000);
	}
	sam.type_count[0] = sam.type_count[1] = 10;
	sam.type_wait_ns[0] = 10 * 4000000ull;
	sam.type_wait_ns[1] = 10 * 6000000ull;
	sam.c.events = 20;
	assert_int_equal(result_new(&r, "tpcc", "tpcc"), 0);
	result_set_types(r, types, 2);
	struct phase_report sp = {.phase = PHASE_SAMPLE, .complete = true, .seconds = 10.0, .threads = 2, .s = &sam,
				  .session_events = ev, .session_seconds = busy, .pools = 2, .queued_share = 0.25,
				  .pool_capped = true};
	result_set_phase(r, &sp);
	snprintf(path, sizeof(path), "%s/w.json", dir);
	assert_int_equal(result_write(r, path, "complete", NULL), 0);
	result_free(r);

	json_t *root = json_load_file(path, 0, &err);
	json_t *s = json_object_get(json_object_get(root, "phases"), "sample");
	json_t *cw = json_object_get(s, "conn_wait");
	assert_non_null(cw);
	assert_true(json_real_value(json_object_get(cw, "avg_ms")) == 5.0);
	assert_true(json_real_value(json_object_get(cw, "service_avg_ms")) == 15.0);
	assert_int_equal(json_integer_value(json_object_get(cw, "pools")), 2);
	assert_true(json_real_value(json_object_get(cw, "queued_share")) == 0.25);
	assert_true(json_is_true(json_object_get(cw, "pool_capped")));
	assert_true(json_real_value(json_object_get(cw, "capped_above")) == RUNNER_POOL_CAPPED_SHARE);
	json_t *b = json_object_get(json_object_get(s, "types"), "b");
	assert_true(json_real_value(json_object_get(b, "wait_avg_ms")) == 6.0);
	assert_true(json_real_value(json_object_get(b, "service_avg_ms")) == 24.0);
	json_decref(root);
	hist_close(sam.lat);
	hist_close(sam.wait);
	hist_close(sam.type_lat[0]);
	hist_close(sam.type_lat[1]);
}

static void test_unwritable_leaves_nothing(void **state)
{
	(void)state;
	struct result *r;
	char path[128];

	assert_int_equal(result_new(&r, "sysbench", "oltp_read_only"), 0);
	snprintf(path, sizeof(path), "%s/missing-dir/r.json", dir);
	assert_true(result_write(r, path, "complete", NULL) < 0);
	assert_int_not_equal(access(path, F_OK), 0);
	result_free(r);
}

/* No file of the name `base`, nor a temporary file of it (core/fileio.c:
 * <name>.tmp.<random>), in the test folder. */
static void nothing_named(const char *base)
{
	char tmp[160];
	DIR *d = opendir(dir);
	struct dirent *e;

	snprintf(tmp, sizeof(tmp), "%s.tmp.", base);
	assert_non_null(d);
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, tmp, strlen(tmp)))
			fail_msg("the temporary file %s/%s was left behind", dir, e->d_name);
		if (!strcmp(e->d_name, base))
			fail_msg("%s/%s exists", dir, base);
	}
	closedir(d);
}

/* The temporary file was written and fsynced, then the rename fails: the write
 * fails, the temporary file is gone and the name was never created. (Mutant a4
 * survived twice: once when this checked <name>.tmp.<pid> after the suffix
 * changed, and once when the name was a folder, which the write now refuses
 * before writing, so no rename was ever reached.) */
static void test_failed_rename_leaves_nothing(void **state)
{
	(void)state;
	struct result *r;
	char path[128];
	struct stat st;

	assert_int_equal(result_new(&r, "sysbench", "oltp_read_only"), 0);
	snprintf(path, sizeof(path), "%s/renamed.json", dir);
	fail_rename = 1;
	renames_failed = 0;
	assert_true(result_write(r, path, "complete", NULL) < 0);
	assert_int_equal(renames_failed, 1); /* the rename was reached, and failed */
	nothing_named("renamed.json");
	/* and the next write of the same result goes through */
	assert_int_equal(result_write(r, path, "complete", NULL), 0);
	assert_int_equal(renames_failed, 1);
	assert_int_equal(unlink(path), 0);

	/* A name that is a folder: refused before anything is written; the folder stays. */
	snprintf(path, sizeof(path), "%s/taken.json", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_true(result_write(r, path, "complete", NULL) < 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(rmdir(path), 0);
	nothing_named("taken.json");
	result_free(r);
}

static void test_journal_lines(void **state)
{
	(void)state;
	struct result *r;
	struct journal *j;
	struct span_stats iv;
	double pct[1] = {99};
	char path[128], line[4096];
	char *l = NULL;

	assert_int_equal(result_new(&r, "sysbench", "oltp_read_write"), 0);
	result_set_percentiles(r, pct, 1);
	snprintf(path, sizeof(path), "%s/j.jsonl", dir);
	assert_int_equal(journal_open(&j, path, r), 0);
	fill(&iv, 10, 1000000);
	struct interval_report ir = {.phase = PHASE_SAMPLE, .t = 12.0, .phase_t = 2.0, .seconds = 2.0, .threads = 4, .s = &iv, .cpu_s = 0.75};
	result_add_interval(r, &ir, &l);
	assert_int_equal(journal_append(j, l), 0);
	free(l);
	assert_int_equal(journal_close(j, "complete"), 0);
	hist_close(iv.lat);

	FILE *f = fopen(path, "r");
	const char *want[] = {"\"schema\":\"dbrig.journal/1.2\"", "\"cpu_s\":0.75", "\"type\":\"end\""};
	for (int k = 0; k < 3; k++) {
		assert_non_null(fgets(line, sizeof(line), f));
		assert_non_null(strstr(line, want[k]));
	}
	assert_null(fgets(line, sizeof(line), f));
	fclose(f);
	result_free(r);
}

/* 1.3: a result whose journal beside it holds its intervals names it and leaves them out;
 * only "x.jsonl" beside "x.json" is its journal by name. */
static void test_intervals_in_journal(void **state)
{
	(void)state;
	struct result *r;
	struct span_stats iv;
	char path[128];
	char *l = NULL;

	assert_true(result_journal_beside("a/vm1.json", "a/vm1.jsonl"));
	assert_true(result_journal_beside("vm1.json", "vm1.jsonl"));
	assert_false(result_journal_beside("a/vm1.json", "b/vm1.jsonl"));
	assert_false(result_journal_beside("a/vm1.json", "a/vm2.jsonl"));
	assert_false(result_journal_beside("a/vm1.json", "a/vm1.jsonx"));
	assert_false(result_journal_beside("a/vm1.out", "a/vm1.outl"));
	assert_false(result_journal_beside("a/vm1.json", "a/vm1.json.jsonl"));

	assert_int_equal(result_new(&r, "sysbench", "oltp_read_write"), 0);
	fill(&iv, 10, 1000000);
	struct interval_report ir = {.phase = PHASE_SAMPLE, .t = 2.0, .phase_t = 2.0, .seconds = 2.0, .threads = 4, .s = &iv};
	result_add_interval(r, &ir, &l);
	free(l);
	hist_close(iv.lat);
	snprintf(path, sizeof(path), "%s/kept.json", dir);
	assert_int_equal(result_write(r, path, "complete", NULL), 0);
	json_t *root = json_load_file(path, 0, NULL);
	assert_int_equal(json_array_size(json_object_get(root, "intervals")), 1);
	assert_null(json_object_get(root, "journal"));
	json_decref(root);

	result_intervals_in_journal(r, "vm1.jsonl");
	snprintf(path, sizeof(path), "%s/vm1.json", dir);
	assert_int_equal(result_write(r, path, "complete", NULL), 0);
	result_free(r);
	root = json_load_file(path, 0, NULL);
	assert_null(json_object_get(root, "intervals"));
	assert_string_equal(json_string_value(json_object_get(root, "journal")), "vm1.jsonl");
	json_decref(root);
}

/* Intervals a fault touched are marked: the one where attempts failed and the
 * silent ones that follow while nothing commits. */
static void test_fault_marks(void **state)
{
	(void)state;
	struct result *r;
	struct span_stats iv;
	static const struct {
		uint64_t events, errors, reconnects;
		bool faults;
	} seq[] = {
		{100, 0, 0, false}, {40, 0, 4, true}, {0, 0, 0, true}, {0, 0, 0, true},
		{90, 0, 0, false},  {0, 0, 0, false}, {80, 3, 0, true}, {85, 0, 0, false},
	};

	assert_int_equal(result_new(&r, "sysbench", "oltp_read_only"), 0);
	for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		struct interval_report ir = {.phase = PHASE_SAMPLE, .t = (double)i + 1, .phase_t = (double)i + 1, .seconds = 1.0, .threads = 4, .s = &iv, .cpu_s = 0.1};
		char *l = NULL;
		json_t *o;

		fill(&iv, seq[i].events, 1000000);
		iv.c.errors = seq[i].errors;
		iv.c.reconnects = seq[i].reconnects;
		result_add_interval(r, &ir, &l);
		o = json_loads(l, 0, NULL);
		assert_non_null(o);
		assert_int_equal(json_is_true(json_object_get(o, "faults")), seq[i].faults);
		assert_int_equal(json_integer_value(json_object_get(o, "reconnects")), (json_int_t)seq[i].reconnects);
		json_decref(o);
		free(l);
		hist_close(iv.lat);
	}
	result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_and_read_back),
		cmocka_unit_test(test_conn_wait),
		cmocka_unit_test(test_unwritable_leaves_nothing),
		cmocka_unit_test(test_failed_rename_leaves_nothing),
		cmocka_unit_test(test_journal_lines),
		cmocka_unit_test(test_intervals_in_journal),
		cmocka_unit_test(test_fault_marks),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
