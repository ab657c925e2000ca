/* Unit tests of src/core/features.c: what this build left out, by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/features.h"
#include "core/strbuf.h"

static void test_left_out(void **state)
{
	(void)state;
#if DBRIG_HAVE_LIBVIRT
	assert_null(features_left_out("libvirt"));
#else
	assert_string_equal(features_left_out("libvirt"), "DBRIG_WITH_LIBVIRT");
#endif
#if DBRIG_HAVE_ODBC
	assert_null(features_left_out("odbc"));
#else
	assert_string_equal(features_left_out("odbc"), "DBRIG_WITH_ODBC");
#endif
	/* a name that is no optional backend is never "left out" */
	assert_null(features_left_out("local"));
	assert_null(features_left_out("mysql"));
}

static void test_list(void **state)
{
	struct strbuf sb;
	const char *want = DBRIG_HAVE_LIBVIRT && DBRIG_HAVE_ODBC ? "libvirt odbc"
			   : DBRIG_HAVE_LIBVIRT			 ? "libvirt"
			   : DBRIG_HAVE_ODBC			 ? "odbc"
								 : "";

	(void)state;
	strbuf_init(&sb, 0);
	features_list(&sb);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_left_out),
		cmocka_unit_test(test_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
