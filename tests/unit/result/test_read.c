/* Unit tests of result/read.c: the strict reader of result files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result_schema),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
