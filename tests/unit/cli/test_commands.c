/* Every registered command has a name, a function and a summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "cli/cli.h"

static void test_command_table_complete(void **state)
{
	(void)state;
	int n = 0;
	for (const struct command *c = dbrig_commands; c->name; c++, n++) {
		assert_non_null(c->fn);
		assert_non_null(c->summary);
		assert_true(strlen(c->summary) > 10);
		for (const struct command *d = c + 1; d->name; d++)
			assert_string_not_equal(c->name, d->name);
	}
	assert_true(n >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_table_complete),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
