/* Unit tests of src/workload/tpcc/dlog.c: the Delivery log survives a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "workload/tpcc/tpcc.h"

static char dir[] = "/tmp/dbrig-test-dlog.XXXXXX";

static unsigned lines_of(const char *path)
{
	char *text = NULL;
	unsigned n = 0;

	if (read_file(path, &text, NULL) < 0)
		return 0;
	for (char *p = text; *p; p++)
		n += *p == '\n';
	free(text);
	return n;
}

/*
 * The log was held in memory and written once at the end: a kill -9 or an
 * OOM left only the header (security review N5). Each Delivery is now in
 * "<path>.tmp" as soon as it is logged; the end renames it over the path.
 */
static void test_lines_on_disk_as_they_come(void **state)
{
	(void)state;
	struct strbuf path, tmp;
	struct tpcc_dlog d;
	const uint32_t o[10] = {3001, 0, 3002, 3003, 3004, 3005, 3006, 3007, 3008, 3009};
	struct stat st;

	strbuf_init(&path, 0);
	strbuf_init(&tmp, 0);
	strbuf_addf(&path, "%s/d.log", dir);
	strbuf_addf(&tmp, "%s/d.log.tmp", dir);
	assert_int_equal(tpcc_dlog_open(&d, path.buf), 0);
	assert_int_equal(lines_of(path.buf), 1); /* the header: a valid empty log */
	tpcc_dlog_add(&d, 0, 1000000, true, 1, 7, o);
	tpcc_dlog_add(&d, 1, 2000000, true, 2, 8, o);
	/* What a crash here would leave: both lines, on disk, before the end. */
	assert_int_equal(lines_of(tmp.buf), 3);
	assert_int_equal(d.lines, 2);
	assert_int_equal(tpcc_dlog_finish(&d), 0);
	tpcc_dlog_release(&d);
	assert_int_equal(lines_of(path.buf), 3);
	assert_int_equal(stat(tmp.buf, &st), -1);
	unlink(path.buf);

	/* A link at the path is refused before anything is written. */
	assert_int_equal(symlink("/etc/passwd", path.buf), 0);
	assert_int_equal(tpcc_dlog_open(&d, path.buf), -ELOOP);
	tpcc_dlog_release(&d);
	unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&tmp);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_on_disk_as_they_come),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
