/* Unit tests of report/published.c: the reader of the published review numbers (reports/published/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "report/published.h"

static const char *const good_pub =
	"{\"schema\":\"dbrig.published/1\",\"source\":{\"publisher\":\"P\",\"title\":\"T\"},"
	"\"drive\":{\"name\":\"D\"},\"platform\":\"X\",\"results\":[{\"label\":\"4 VMs\",\"workload\":\"sysbench\","
	"\"test\":\"oltp_read_write\",\"vm_count\":4,\"drives\":1,\"method\":\"m\",\"tps\":7869.21,"
	"\"avg_latency_ms\":16.26,\"p99_latency_ms\":28.9}]}";

static void expect_pub_error(const char *from, const char *to, const char *msg)
{
	struct strbuf text, err;
	struct pub_review rv;
	char *p;

	strbuf_init(&text, 0);
	strbuf_init(&err, 0);
	p = strstr(good_pub, from);
	assert_non_null(p);
	strbuf_add(&text, good_pub, (size_t)(p - good_pub));
	strbuf_adds(&text, to);
	strbuf_adds(&text, p + strlen(from));
	assert_int_equal(published_parse("ref.json", text.buf, &rv, &err), -EINVAL);
	if (!strstr(err.buf, msg))
		fail_msg("message \"%s\" lacks \"%s\"", err.buf, msg);
	pub_review_release(&rv);
	strbuf_release(&text);
	strbuf_release(&err);
}

static void test_published_validator(void **state)
{
	struct strbuf err;
	struct pub_review rv;

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(published_parse("ref.json", good_pub, &rv, &err), 0);
	assert_int_equal(rv.nresults, 1);
	assert_true(rv.results[0].has_p99 && rv.results[0].p99_ms == 28.9);
	assert_ptr_equal(rv.results[0].review, &rv);
	pub_review_release(&rv);
	expect_pub_error("dbrig.published/1", "dbrig.published/2",
			 "ref.json: .schema: \"dbrig.published/2\" (expected \"dbrig.published/1\")");
	expect_pub_error("\"tps\":7869.21", "\"tps\":\"fast\"", "ref.json: .results[0].tps: \"fast\" (expected a number >= 0)");
	expect_pub_error("\"tps\":7869.21", "\"tpz\":1", "ref.json: .results[0].tpz: 1 (expected no such key");
	expect_pub_error("\"p99_latency_ms\":28.9", "\"p99_latency_ms\":1", ".results[0].p99_latency_ms: 1 (expected a number >= avg_latency_ms)");
	expect_pub_error("\"workload\":\"sysbench\"", "\"workload\":\"fio\"", ".results[0].workload: \"fio\" (expected \"sysbench\" or \"tpcc\")");
	expect_pub_error("\"drives\":1", "\"drives\":9", ".results[0].drives: 9 (expected a number <= vm_count)");
	expect_pub_error("\"platform\":\"X\",", "", "ref.json: .platform: missing (expected a string)");
	expect_pub_error("{\"label\"", "[", "expected valid JSON");
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_published_validator),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
