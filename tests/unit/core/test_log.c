/* Unit tests of src/core/log.c: every message is one safe line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/strbuf.h"

/* What one log call prints on stderr. */
static char *captured(void (*say)(const char *), const char *value)
{
	char path[] = "/tmp/dbrig-test-log.XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	char *text = calloc(1, 65536);

	assert_true(fd >= 0 && saved >= 0 && text);
	fflush(stderr);
	dup2(fd, 2);
	say(value);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_true(pread(fd, text, 65535, 0) >= 0);
	close(fd);
	unlink(path);
	return text;
}

static void warn_group(const char *v)
{
	log_warn("instances missing: run group \"%s\", drive \"d\" (expected 2 results)", v);
}

/*
 * A group name with a newline split a warning over two lines, a name with
 * U+202E went to the terminal raw (security review N10).
 */
static void test_one_safe_line(void **state)
{
	(void)state;
	char *t = captured(warn_group, "a\nb\xe2\x80\xae");

	assert_string_equal(t, "dbrig: warning: instances missing: run group \"a\\x0Ab\\u{202E}\", drive \"d\" (expected 2 "
			       "results)\n");
	free(t);
}

/* A 6,000-character value: the line keeps its "(expected …)" end. */
static void test_long_value_keeps_the_reason(void **state)
{
	(void)state;
	char *v = malloc(6001), *t;

	memset(v, 'a', 6000);
	v[6000] = '\0';
	t = captured(warn_group, v);
	assert_true(strlen(t) <= LOG_LINE_MAX + 32);
	assert_non_null(strstr(t, "\", drive \"d\" (expected 2 results)\n"));
	assert_null(strchr(t, '\n') + 1 == t + strlen(t) ? NULL : "more than one line");
	free(t);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_safe_line),
		cmocka_unit_test(test_long_value_keeps_the_reason),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
