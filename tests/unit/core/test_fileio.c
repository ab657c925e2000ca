/* Unit tests of src/core/fileio.c: atomic writes and bounded reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/strbuf.h"

static char dir[] = "/tmp/dbrig-test-fileio.XXXXXX";

/*
 * This executable's fsync replaces libc's for the library linked into it, so
 * a test can make the folder's fsync fail after the rename.
 */
static bool fail_dir_fsync;

int fsync(int fd)
{
	struct stat st;

	if (fail_dir_fsync && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_fsync, fd);
}

/* And its rename: the n-th call from now fails with ENOSPC (0 = none). */
static int fail_rename_in;

int rename(const char *from, const char *to)
{
	if (fail_rename_in > 0 && --fail_rename_in == 0) {
		errno = ENOSPC;
		return -1;
	}
	return (int)syscall(SYS_rename, from, to);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *path_in(const char *name)
{
	struct strbuf sb;
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "%s/%s", dir, name);
	return strbuf_detach(&sb);
}

static char *slurp(const char *path)
{
	char *text = NULL;
	assert_int_equal(read_file(path, &text, NULL), 0);
	return text;
}

/* Names in the folder other than the ones given (NULL-terminated): temporaries left behind. */
static int strays(const char *const *keep)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		bool known = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
		for (const char *const *k = keep; *k && !known; k++)
			known = !strcmp(e->d_name, *k);
		n += !known;
	}
	closedir(d);
	return n;
}

/*
 * Security review finding 9: the temporary file was "<path>.tmp.<pid>",
 * opened O_CREAT|O_TRUNC without O_EXCL or O_NOFOLLOW. A symbolic link
 * planted under that name in a shared folder made dbrig truncate and
 * overwrite the link's target, and the rename left `path` a link to it.
 */
static void test_atomic_write_ignores_planted_link(void **state)
{
	(void)state;
	char *victim = path_in("victim.txt"), *target = path_in("report.md");
	struct strbuf planted;
	struct stat st;

	strbuf_init(&planted, 0);
	strbuf_addf(&planted, "%s.tmp.%ld", target, (long)getpid());
	FILE *f = fopen(victim, "w");
	assert_non_null(f);
	fputs("IMPORTANT VICTIM DATA\n", f);
	fclose(f);
	assert_int_equal(symlink(victim, planted.buf), 0);

	assert_int_equal(atomic_write_file(target, "# dbrig report\n", 15), 0);
	char *v = slurp(victim), *t = slurp(target);
	assert_string_equal(v, "IMPORTANT VICTIM DATA\n");
	assert_string_equal(t, "# dbrig report\n");
	assert_int_equal(lstat(target, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	/* The planted link is left alone, and no temporary file of ours remains. */
	const char *keep[] = {"victim.txt", "report.md", planted.buf + strlen(dir) + 1, NULL};
	assert_int_equal(strays(keep), 0);
	unlink(planted.buf);
	unlink(victim);
	unlink(target);
	free(v);
	free(t);
	free(victim);
	free(target);
	strbuf_release(&planted);
}

/* Secrets are created with their own mode: never readable by others, not even for an instant. */
static void test_atomic_write_mode(void **state)
{
	(void)state;
	char *p = path_in(".credentials");
	struct stat st;
	mode_t old = umask(022);

	assert_int_equal(atomic_write_file_mode(p, "secret\n", 7, 0600), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(atomic_write_file(p, "x\n", 2), 0); /* replaces it: a new file, the default mode */
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	umask(old);
	unlink(p);
	free(p);
}

/*
 * Finding 22: the folder's fsync after a successful rename failed, and the
 * caller was told "cannot write" although the new file was in place.
 */
static void test_atomic_write_after_rename(void **state)
{
	(void)state;
	char *p = path_in("state.json");
	const char *keep[] = {"state.json", NULL};

	fail_dir_fsync = true;
	int ret = atomic_write_file(p, "{}\n", 3);
	fail_dir_fsync = false;
	assert_int_equal(ret, 0);
	char *t = slurp(p);
	assert_string_equal(t, "{}\n");
	assert_int_equal(strays(keep), 0);
	unlink(p);
	free(t);
	free(p);
}

/* A failed write leaves the old file and no temporary file. */
static void test_atomic_write_failure_keeps_old(void **state)
{
	(void)state;
	char *p = path_in("missing-folder/x.json");
	const char *keep[] = {NULL};

	assert_int_equal(atomic_write_file(p, "{}", 2), -ENOENT);
	assert_int_equal(strays(keep), 0);
	free(p);
}

/*
 * Security review finding 18: a report is a set of files; one that failed
 * half-way left a mix of new and old. A write error before the renames
 * changes nothing; a failed rename puts the old files back.
 */
static void test_set_all_or_nothing(void **state)
{
	(void)state;
	char *a = path_in("report.md"), *b = path_in("report.html"), *c = path_in("report.json");
	const char *keep[] = {"report.md", "report.html", NULL};
	const char *failed = NULL;
	struct atomic_set set;

	put(a, "old md\n");
	put(b, "old html\n");
	for (int fail_at = 1; fail_at <= 3; fail_at++) {
		atomic_set_init(&set);
		assert_int_equal(atomic_set_add(&set, a, "new md\n", 7), 0);
		assert_int_equal(atomic_set_add(&set, b, "new html\n", 9), 0);
		assert_int_equal(atomic_set_add(&set, c, "new json\n", 9), 0);
		fail_rename_in = fail_at;
		assert_int_equal(atomic_set_commit(&set, &failed), -ENOSPC);
		fail_rename_in = 0;
		assert_string_equal(failed, fail_at == 1 ? a : fail_at == 2 ? b : c);
		atomic_set_release(&set);
		char *ta = slurp(a), *tb = slurp(b);
		assert_string_equal(ta, "old md\n");
		assert_string_equal(tb, "old html\n");
		free(ta);
		free(tb);
		assert_int_equal(access(c, F_OK), -1); /* the new file is gone again */
		assert_int_equal(strays(keep), 0);     /* no temporary or backup file */
	}
	atomic_set_init(&set);
	assert_int_equal(atomic_set_add(&set, a, "new md\n", 7), 0);
	assert_int_equal(atomic_set_add(&set, c, "new json\n", 9), 0);
	assert_int_equal(atomic_set_commit(&set, &failed), 0);
	atomic_set_release(&set);
	char *ta = slurp(a), *tc = slurp(c);
	assert_string_equal(ta, "new md\n");
	assert_string_equal(tc, "new json\n");
	const char *keep2[] = {"report.md", "report.html", "report.json", NULL};
	assert_int_equal(strays(keep2), 0);
	free(ta);
	free(tc);
	unlink(a);
	unlink(b);
	unlink(c);
	free(a);
	free(b);
	free(c);
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
		cmocka_unit_test(test_atomic_write_ignores_planted_link),
		cmocka_unit_test(test_atomic_write_mode),
		cmocka_unit_test(test_atomic_write_after_rename),
		cmocka_unit_test(test_atomic_write_failure_keeps_old),
		cmocka_unit_test(test_set_all_or_nothing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
