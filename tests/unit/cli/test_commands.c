/* Every registered command has a name, a function and a summary; the documented ones are there. */
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
	assert_true(n >= 9);
}

/* The commands README and --help document are all there, each by its name. */
static void test_documented_commands(void **state)
{
	static const char *const documented[] = {"sysbench", "tpcc", "campaign", "report", "published",
						 "provision", "status", "restore", "teardown"};

	(void)state;
	for (size_t i = 0; i < sizeof(documented) / sizeof(documented[0]); i++) {
		const struct command *c = dbrig_commands;
		while (c->name && strcmp(c->name, documented[i]))
			c++;
		if (!c->name)
			fail_msg("no command \"%s\" in dbrig_commands", documented[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command_table_complete),
		cmocka_unit_test(test_documented_commands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
