/* Unit tests of src/core/strvec.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/strvec.h"

/* Security review finding 15: argv arrays of 64-128 slots dropped what did not fit; a strvec has no limit. */
static void test_no_limit(void **state)
{
	(void)state;
	struct strvec sv;
	char want[32];

	strvec_init(&sv);
	assert_null(sv.v[0]);
	for (int i = 0; i < 1000; i++)
		strvec_pushf(&sv, "--opt_%d=%d", i, i);
	assert_int_equal(sv.n, 1000);
	for (int i = 0; i < 1000; i++) {
		snprintf(want, sizeof(want), "--opt_%d=%d", i, i);
		assert_string_equal(sv.v[i], want);
	}
	assert_null(sv.v[1000]);
	strvec_clear(&sv);
	assert_int_equal(sv.n, 0);
}

static void test_nul_list(void **state)
{
	(void)state;
	struct strvec sv;
	struct strbuf list;

	strbuf_init(&list, 0);
	strbuf_addf(&list, "--a=1%c--b=%c%s%c", '\0', '\0', "run", '\0');
	strvec_init(&sv);
	strvec_push(&sv, "dbrig");
	strvec_push_nul_list(&sv, &list);
	assert_int_equal(sv.n, 4);
	assert_string_equal(sv.v[1], "--a=1");
	assert_string_equal(sv.v[2], "--b=");
	assert_string_equal(sv.v[3], "run");
	assert_null(sv.v[4]);
	strvec_clear(&sv);
	strbuf_release(&list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_limit),
		cmocka_unit_test(test_nul_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
