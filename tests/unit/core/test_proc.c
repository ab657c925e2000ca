/* Unit tests of the process helpers in src/core/proc.c that need no server. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "core/proc.h"

static char tmpl[] = "/tmp/dbrig-test-proc.XXXXXX";

static const char *write_log(const char *text)
{
	FILE *f = fopen(tmpl, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return tmpl;
}

static void check_tail(const char *text, const char *want)
{
	struct strbuf sb;
	strbuf_init(&sb, 0);
	strbuf_adds(&sb, "x");
	proc_add_log_tail(write_log(text), &sb);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_log_tail_last_line(void **state)
{
	(void)state;
	check_tail("Creating table 'sbtest1'...\ndbrig: cannot connect to 127.0.0.1:3306: timeout\n",
		   "x: dbrig: cannot connect to 127.0.0.1:3306: timeout");
	check_tail("one line, no newline", "x: one line, no newline");
	check_tail("first\nlast  \r\n\n\n", "x: last");
	check_tail("", "x");
	check_tail("\n\n", "x");
}

static void test_log_tail_bounded(void **state)
{
	(void)state;
	char big[1000];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	struct strbuf sb;
	strbuf_init(&sb, 0);
	proc_add_log_tail(write_log(big), &sb);
	assert_int_equal(sb.len, 2 + 300);
	strbuf_release(&sb);
}

static void test_log_tail_missing_file(void **state)
{
	(void)state;
	struct strbuf sb;
	strbuf_init(&sb, 0);
	proc_add_log_tail("/nonexistent/dbrig/log", &sb);
	proc_add_log_tail(NULL, &sb);
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
}

static void test_describe_status(void **state)
{
	(void)state;
	struct strbuf sb;
	strbuf_init(&sb, 0);
	proc_describe_status(3 << 8, &sb); /* exited with 3 */
	assert_string_equal(sb.buf, "exited with status 3");
	strbuf_reset(&sb);
	proc_describe_status(9, &sb); /* killed by SIGKILL */
	assert_string_equal(sb.buf, "was killed by signal 9");
	strbuf_release(&sb);
}

static int setup(void **state)
{
	(void)state;
	int fd = mkstemp(tmpl);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(tmpl);
	return 0;
}

/* A child's environment: the inherited one with the spec's entries over it; this process's is untouched. */
static void test_child_env(void **state)
{
	const char *env[] = {"DBRIG_TEST_SECRET=s3cret", "HOME=/nowhere", NULL};
	char *argv[] = {"/usr/bin/env", NULL};
	struct proc_spec spec = {.argv = argv, .env = env, .capture = true};
	struct strbuf out;
	int st = 0;

	(void)state;
	setenv("DBRIG_TEST_INHERITED", "yes", 1);
	setenv("HOME", "/root-of-test", 1);
	unsetenv("DBRIG_TEST_SECRET");
	strbuf_init(&out, 0);
	assert_int_equal(proc_run(&spec, &out, &st), 0);
	assert_non_null(strstr(out.buf, "DBRIG_TEST_SECRET=s3cret\n"));
	assert_non_null(strstr(out.buf, "DBRIG_TEST_INHERITED=yes\n"));
	assert_non_null(strstr(out.buf, "HOME=/nowhere\n"));
	assert_null(strstr(out.buf, "HOME=/root-of-test"));
	assert_null(getenv("DBRIG_TEST_SECRET"));
	assert_string_equal(getenv("HOME"), "/root-of-test");
	/* Without entries the child inherits everything as it is. */
	strbuf_reset(&out);
	spec.env = NULL;
	assert_int_equal(proc_run(&spec, &out, &st), 0);
	assert_non_null(strstr(out.buf, "HOME=/root-of-test\n"));
	assert_null(strstr(out.buf, "DBRIG_TEST_SECRET"));
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_tail_last_line),
		cmocka_unit_test(test_log_tail_bounded),
		cmocka_unit_test(test_log_tail_missing_file),
		cmocka_unit_test(test_describe_status),
		cmocka_unit_test(test_child_env),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
