/* Unit tests of report/writers.c: the list of report writers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "report/writer.h"

static void test_writer_registry(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct report_writer_ops *const *w = report_writers; *w; w++, n++) {
		assert_non_null((*w)->name);
		assert_non_null((*w)->summary);
		assert_non_null((*w)->render);
		assert_ptr_equal(report_writer_find((*w)->name), *w);
		for (const struct report_writer_ops *const *o = w + 1; *o; o++)
			assert_string_not_equal((*w)->name, (*o)->name);
	}
	assert_int_equal(n, 4);
	assert_null(report_writer_find("pdf"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer_registry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
