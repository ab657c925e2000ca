/* Unit tests of target/registry.c: every backend is complete and found by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "target/target.h"

static void test_registry_complete(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct target_ops *const *t = target_backends; *t; t++, n++) {
		const struct target_ops *o = *t;
		assert_non_null(o->name);
		assert_non_null(o->summary);
		assert_non_null(o->options);
		assert_non_null(o->init);
		assert_non_null(o->validate);
		assert_non_null(o->preflight);
		assert_non_null(o->create);
		assert_non_null(o->build_golden);
		assert_non_null(o->restore);
		assert_non_null(o->start);
		assert_non_null(o->endpoint);
		assert_non_null(o->verify);
		assert_non_null(o->stop);
		assert_non_null(o->destroy);
		assert_non_null(o->release);
		assert_non_null(o->cleanup);
		assert_ptr_equal(target_find(o->name), o);
		for (const struct target_option *opt = o->options; opt->name; opt++) {
			assert_non_null(opt->help);
			assert_true(strlen(opt->help) > 10);
			assert_string_not_equal(opt->name, "kind");
			for (const struct target_option *p = opt + 1; p->name; p++)
				assert_string_not_equal(opt->name, p->name);
		}
		for (const struct target_ops *const *u = t + 1; *u; u++)
			assert_string_not_equal(o->name, (*u)->name);
	}
	assert_true(n >= 2);
	assert_null(target_find("xen"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_complete),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
