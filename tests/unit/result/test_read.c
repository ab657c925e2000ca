/* Unit tests of result/read.c: the strict reader of result files; a folder of them (read_dir.c):
 * journals and telemetry files beside results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "result/read.h"

static void test_result_schema(void **state)
{
	struct strbuf err;
	struct run *r = NULL;

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(results_parse_result("a.json", "{\"schema\":\"dbrig.result/2\"}", &r, &err), -EINVAL);
	assert_null(r);
	assert_non_null(strstr(err.buf, "a.json: .schema: \"dbrig.result/2\" (expected \"dbrig.result/1\""));
	strbuf_reset(&err);
	/* Other JSON (a report, a campaign file) is not a result: skipped, not an error. */
	assert_int_equal(results_parse_result("b.json", "{\"schema\":\"dbrig.report/1\"}", &r, &err), 1);
	assert_int_equal(results_parse_result("b.json", "[1]", &r, &err), 1);
	assert_int_equal(results_parse_result("c.json",
		"{\"schema\":\"dbrig.result/1\",\"status\":\"done\"}", &r, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "c.json: .status: \"done\" (expected \"complete\", \"degraded\", \"interrupted\" or \"failed\")"));
	strbuf_release(&err);
}

#define RESULT_HEAD                                                                                              \
	"{\"schema\":\"dbrig.result/1.2\",\"status\":\"complete\",\"run\":{\"instance\":\"i1\"},"                    \
	"\"workload\":{\"kind\":\"sysbench\",\"test\":\"oltp_read_write\",\"params\":{\"threads\":8}},"              \
	"\"phases\":{\"precondition\":null,\"sample\":{\"name\":\"sample\",\"seconds\":20,\"threads\":8,"            \
	"\"transactions\":200,\"tps\":10,\"latency_ms\":{\"avg\":800}}}"
#define JOURNAL_HEAD                                                                                             \
	"{\"type\":\"header\",\"schema\":\"dbrig.journal/1.2\",\"run\":{\"instance\":\"i1\"},"                       \
	"\"workload\":{\"kind\":\"sysbench\",\"test\":\"oltp_read_write\"}}\n"
/* An interval line as the driver writes it: the histogram last, a string with a brace and an escape inside. */
#define IV(t, tps)                                                                                               \
	"{\"type\":\"interval\",\"phase\":\"sample\",\"t\":" #t ",\"phase_t\":" #t ",\"seconds\":10.0,"              \
	"\"threads\":8,\"transactions\":100,\"tps\":" #tps ",\"lat_ms\":{\"99\":1.5},\"note\":\"a } \\\" [\","       \
	"\"histogram\":{\"counts\":[[100,60],[120,40]]}}\n"

static char dir[] = "/tmp/dbrig-read-XXXXXX";

static void put(const char *name, const char *text)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	assert_int_equal(atomic_write_file(p, text, strlen(text)), 0);
}

static struct run_set *load(void)
{
	struct strbuf err;
	struct run_set *rs = NULL;

	strbuf_init(&err, 0);
	if (results_load_dir(dir, &rs, &err) < 0)
		fail_msg("%s", err.buf);
	strbuf_release(&err);
	return rs;
}

/*
 * A result without intervals takes the series of its journal, read line by
 * line (read_series.c): the same series as the whole journal's reader gives,
 * also when a line is not plain enough and the whole reader takes over.
 */
static void test_journal_series(void **state)
{
	const char *journal = JOURNAL_HEAD IV(10.0, 10.0) IV(20.0, 12.5) "{\"type\":\"end\",\"status\":\"complete\"}\n";
	const char *odd = JOURNAL_HEAD IV(10.0, 10.0) "{\"type\":\"interval\", \"phase\":\"sample\",\"t\":2e1,"
			  "\"seconds\":10,\"transactions\":100,\"tps\":12.5,\"\\u0068istogram\":{\"counts\":[]}}\n";
	struct strbuf err;
	struct run *whole = NULL;
	struct run_set *rs;

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(results_parse_journal("i1.jsonl", journal, &whole, &err), 0);
	assert_int_equal(whole->nintervals, 2);
	for (int k = 0; k < 2; k++) {
		put("i1.json", RESULT_HEAD "}");
		put("i1.jsonl", k ? odd : journal);
		rs = load();
		assert_int_equal(rs->n, 1);
		assert_string_equal(rs->runs[0]->journal, "i1.jsonl");
		assert_int_equal(rs->runs[0]->nintervals, whole->nintervals);
		for (size_t i = 0; i < whole->nintervals; i++) {
			assert_int_equal(rs->runs[0]->intervals[i].phase, whole->intervals[i].phase);
			assert_true(rs->runs[0]->intervals[i].t == whole->intervals[i].t);
			assert_true(rs->runs[0]->intervals[i].seconds == whole->intervals[i].seconds);
			assert_true(rs->runs[0]->intervals[i].tps == whole->intervals[i].tps);
		}
		run_set_free(rs);
	}
	run_free(whole);
	strbuf_release(&err);
}

/* 1.3: a result that left its intervals to its journal takes them from there; with its journal gone, none. */
static void test_intervals_in_journal(void **state)
{
	char p[256];
	struct run_set *rs;

	(void)state;
	put("i1.json", RESULT_HEAD ",\"journal\":\"i1.jsonl\"}");
	put("i1.jsonl", JOURNAL_HEAD IV(10.0, 10.0) IV(20.0, 12.5) "{\"type\":\"end\",\"status\":\"complete\"}\n");
	rs = load();
	assert_int_equal(rs->n, 1);
	assert_true(rs->runs[0]->intervals_in_journal);
	assert_int_equal(rs->runs[0]->nintervals, 2);
	assert_true(rs->runs[0]->intervals[1].tps == 12.5);
	run_set_free(rs);
	snprintf(p, sizeof(p), "%s/i1.jsonl", dir);
	assert_int_equal(unlink(p), 0);
	rs = load();
	assert_int_equal(rs->n, 1);
	assert_null(rs->runs[0]->journal);
	assert_int_equal(rs->runs[0]->nintervals, 0);
	run_set_free(rs);
	snprintf(p, sizeof(p), "%s/i1.json", dir);
	assert_int_equal(unlink(p), 0);
}

/*
 * A campaign's telemetry in <instance>.telemetry.json reads as the same
 * telemetry inside the result (results written before telemetry files): the
 * phases', the test bed's host, each interval's, matched by phase and time.
 */
static void test_telemetry_file(void **state)
{
	const char *ivs = ",\"intervals\":[{\"phase\":\"sample\",\"t\":10,\"seconds\":10,\"tps\":10%s},"
			  "{\"phase\":\"sample\",\"t\":20,\"seconds\":10,\"tps\":10%s}]";
	const char *tel = "\"telemetry\":{\"host_cpus\":2,\"drive\":{\"top\":\"sda\",\"stack\":\"sda\"},\"phases\":"
			  "{\"precondition\":null,\"sample\":{\"seconds\":20,\"host_cpu\":{\"busy\":0.5,\"iowait\":0.1},"
			  "\"devices\":[{\"name\":\"sda\",\"w_iops\":300,\"await_ms\":2,\"util\":0.4}]}}},"
			  "\"test_bed\":{\"host\":{\"cpu_model\":\"X\",\"cpus\":2}}";
	const char *ivtel = ",\"telemetry\":{\"host_cpu_busy\":0.25,\"devices\":[{\"name\":\"sda\",\"util\":0.75,\"await_ms\":3}]}";
	char inside[2048], result[1024], file[2048];
	struct run_set *rs[2];

	(void)state;
	/* Written the old way: all in the result. */
	snprintf(result, sizeof(result), ivs, "", ivtel);
	snprintf(inside, sizeof(inside), "%s%s,%s}", RESULT_HEAD, result, tel);
	put("i1.json", inside);
	rs[0] = load();
	/* One writer per file: the result as the driver wrote it, the campaign's file beside it. */
	snprintf(result, sizeof(result), ivs, "", "");
	snprintf(inside, sizeof(inside), "%s%s}", RESULT_HEAD, result);
	put("i1.json", inside);
	snprintf(file, sizeof(file), "{\"schema\":\"dbrig.telemetry/1.0\",\"result\":\"i1.json\",%s,\"intervals\":"
		 "[{\"phase\":\"sample\",\"t\":20.0%s}]}", tel, ivtel);
	put("i1.telemetry.json", file);
	rs[1] = load();
	for (int k = 0; k < 2; k++) {
		const struct run *r = rs[k]->runs[0];

		assert_int_equal(rs[k]->n, 1);
		assert_true(r->has_tel);
		assert_int_equal(r->host_cpus, 2);
		assert_string_equal(r->drive_stack, "sda");
		assert_string_equal(r->host.cpu_model, "X");
		assert_true(r->tel_sample.present && r->tel_sample.has_host);
		assert_true(r->tel_sample.host_busy == 0.5);
		assert_int_equal(r->tel_sample.ndevs, 1);
		assert_true(r->tel_sample.devs[0].top);
		assert_int_equal(r->nintervals, 2);
		assert_false(r->intervals[0].has_tel);
		assert_true(r->intervals[1].has_tel && r->intervals[1].has_dev);
		assert_true(r->intervals[1].host_busy == 0.25 && r->intervals[1].dev_util == 0.75);
	}
	run_set_free(rs[0]);
	run_set_free(rs[1]);
	/* An interval the result does not have: refused with its place. */
	snprintf(file, sizeof(file), "{\"schema\":\"dbrig.telemetry/1.0\",%s,\"intervals\":"
		 "[{\"phase\":\"sample\",\"t\":30%s}]}", tel, ivtel);
	put("i1.telemetry.json", file);
	{
		struct strbuf err;
		struct run_set *bad = NULL;

		strbuf_init(&err, 0);
		assert_int_equal(results_load_dir(dir, &bad, &err), -EINVAL);
		assert_non_null(strstr(err.buf, "i1.telemetry.json: .intervals[0].t: 30"));
		strbuf_release(&err);
	}
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result_schema),
		cmocka_unit_test(test_journal_series),
		cmocka_unit_test(test_intervals_in_journal),
		cmocka_unit_test(test_telemetry_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
