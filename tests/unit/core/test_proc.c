/* Unit tests of the process helpers in src/core/proc.c that need no server. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "proc_run hung: stdin and stdout deadlocked (security review finding 11)\n";
	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to say */
	}
	_exit(1);
}

/*
 * Security review finding 11: a child that answers as it reads (here cat, as
 * `mariadb --batch` answers each SELECT of the fingerprint) filled its stdout
 * pipe while proc_run was still writing stdin: both blocked forever.
 */
static void test_run_large_stdin_and_stdout(void **state)
{
	(void)state;
	size_t n = 4u << 20;
	char *in = malloc(n + 1);
	assert_non_null(in);
	for (size_t i = 0; i < n; i++)
		in[i] = (char)('a' + i % 26);
	in[n] = '\0';
	char *argv[] = {"/bin/cat", NULL};
	struct proc_spec spec = {.argv = argv, .stdin_text = in, .capture = true};
	struct strbuf out;
	int st = -1;
	strbuf_init(&out, 0);
	signal(SIGALRM, on_alarm);
	alarm(30);
	assert_int_equal(proc_run(&spec, &out, &st), 0);
	alarm(0);
	assert_int_equal(out.len, n);
	assert_memory_equal(out.buf, in, n);
	strbuf_release(&out);
	free(in);
}

/* A child that exits without reading its input: proc_run returns, its output kept. */
static void test_run_child_ignores_stdin(void **state)
{
	(void)state;
	size_t n = 1u << 20;
	char *in = malloc(n + 1);
	assert_non_null(in);
	memset(in, 'x', n);
	in[n] = '\0';
	char *argv[] = {"/bin/sh", "-c", "echo early; exit 3", NULL};
	struct proc_spec spec = {.argv = argv, .stdin_text = in, .capture = true};
	struct strbuf out;
	int st = 0;
	strbuf_init(&out, 0);
	signal(SIGALRM, on_alarm);
	alarm(30);
	assert_int_equal(proc_run(&spec, &out, &st), -ECHILD);
	alarm(0);
	assert_string_equal(out.buf, "early\n");
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	strbuf_release(&out);
	free(in);
}

/* Security review finding 22: a child inherited every descriptor of dbrig that lacked CLOEXEC. */
static void test_child_gets_no_stray_descriptor(void **state)
{
	(void)state;
	int fd = open("/dev/null", O_RDONLY); /* no O_CLOEXEC, as a library might leave one */
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, 50), 50);
	char *argv[] = {"/bin/sh", "-c", "if [ -e /proc/self/fd/50 ]; then echo leaked; else echo closed; fi", NULL};
	struct proc_spec spec = {.argv = argv, .capture = true};
	struct strbuf out;
	strbuf_init(&out, 0);
	assert_int_equal(proc_run(&spec, &out, NULL), 0);
	assert_string_equal(out.buf, "closed\n");
	close(50);
	close(fd);
	strbuf_release(&out);
}

/*
 * Finding 22: MYSQL_PWD was set with setenv between fork and exec (not
 * async-signal-safe). The environment is now built before the fork: the
 * child sees MYSQL_PWD and spec.env ("NAME" removes a variable), this
 * process's environment never changes.
 */
static void test_child_env_set_and_removed(void **state)
{
	(void)state;
	const char *env[] = {"DBRIG_TEST_SET=yes", "DBRIG_TEST_DROP", "MYSQL_PWD=s3cret", NULL};
	char *argv[] = {"/bin/sh", "-c", "env | grep ^DBRIG_TEST_ | sort; echo \"pwd=$MYSQL_PWD\"", NULL};
	struct proc_spec spec = {.argv = argv, .capture = true, .env = env};
	struct strbuf out;
	strbuf_init(&out, 0);
	setenv("DBRIG_TEST_KEEP", "1", 1);
	setenv("DBRIG_TEST_DROP", "1", 1);
	unsetenv("MYSQL_PWD");
	assert_int_equal(proc_run(&spec, &out, NULL), 0);
	assert_string_equal(out.buf, "DBRIG_TEST_KEEP=1\nDBRIG_TEST_SET=yes\npwd=s3cret\n");
	assert_null(getenv("MYSQL_PWD"));
	assert_null(getenv("DBRIG_TEST_SET"));
	assert_string_equal(getenv("DBRIG_TEST_DROP"), "1");
	strbuf_release(&out);
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
		cmocka_unit_test(test_run_large_stdin_and_stdout),
		cmocka_unit_test(test_run_child_ignores_stdin),
		cmocka_unit_test(test_child_gets_no_stray_descriptor),
		cmocka_unit_test(test_child_env_set_and_removed),
		cmocka_unit_test(test_child_env),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
