/* Unit tests of src/campaign/fresh.c: moving an earlier campaign aside. */
#define _GNU_SOURCE /* renameat2 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "campaign/fresh.h"
#include "core/strbuf.h"

static char dir[] = "/tmp/dbrig-test-fresh.XXXXXX";

/*
 * This executable's rename and renameat2 replace libc's for the library
 * linked into it: the first call first makes an empty folder at the
 * destination, as another process could between the name's check and the
 * rename.
 */
static int plant_before_rename;
static char planted[4096];

static void plant(const char *to)
{
	if (plant_before_rename && --plant_before_rename == 0) {
		snprintf(planted, sizeof(planted), "%s", to);
		assert_int_equal(mkdir(to, 0755), 0);
	}
}

int rename(const char *from, const char *to)
{
	plant(to);
	return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 0);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned flags)
{
	plant(to);
	return (int)syscall(SYS_renameat2, fromfd, from, tofd, to, flags);
}

/*
 * An empty folder made at the chosen name after the check is never replaced:
 * plain rename() replaced it, though the code promised never to overwrite
 * (security review N12). The move goes to the next free name instead.
 */
static void test_move_never_replaces_a_folder(void **state)
{
	(void)state;
	struct strbuf camp, marker, moved;
	struct stat st;

	strbuf_init(&camp, 0);
	strbuf_init(&marker, 0);
	strbuf_init(&moved, 0);
	strbuf_addf(&camp, "%s/camp", dir);
	assert_int_equal(mkdir(camp.buf, 0755), 0);
	strbuf_addf(&marker, "%s/state.json", camp.buf);
	FILE *f = fopen(marker.buf, "w");
	assert_non_null(f);
	fputs("{}\n", f);
	fclose(f);

	plant_before_rename = 1;
	assert_int_equal(fresh_move_aside(camp.buf, &moved), 0);
	assert_true(planted[0] != '\0');
	assert_string_not_equal(moved.buf, planted);
	/* The planted folder is still there, still empty; the campaign moved beside it. */
	assert_int_equal(stat(planted, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(rmdir(planted), 0);
	strbuf_reset(&marker);
	strbuf_addf(&marker, "%s/state.json", moved.buf);
	assert_int_equal(access(marker.buf, F_OK), 0);
	assert_int_equal(access(camp.buf, F_OK), -1);
	unlink(marker.buf);
	assert_int_equal(rmdir(moved.buf), 0);
	strbuf_release(&camp);
	strbuf_release(&marker);
	strbuf_release(&moved);
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
		cmocka_unit_test(test_move_never_replaces_a_folder),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
