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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_tail_last_line),
		cmocka_unit_test(test_log_tail_bounded),
		cmocka_unit_test(test_log_tail_missing_file),
		cmocka_unit_test(test_describe_status),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
