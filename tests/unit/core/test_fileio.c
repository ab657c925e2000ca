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
#include <sys/sysmacros.h>
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

/* And its lstat: while set, every path looks absent, as a link or FIFO planted just after the check would. */
static bool lstat_lies;

int lstat(const char *path, struct stat *st)
{
	if (lstat_lies) {
		errno = ENOENT;
		return -1;
	}
	return (int)syscall(SYS_newfstatat, AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
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

/*
 * An output path that is a symbolic link, a FIFO or a device is refused with
 * nothing written: rename() replaced /dev/null itself with a regular file
 * (--result=/dev/null as root) and a link with a file (security review N4).
 */
static void test_atomic_write_refuses_non_regular(void **state)
{
	(void)state;
	char *victim = path_in("victim.txt"), *link_ = path_in("out-link.json"), *fifo = path_in("out-fifo.json"),
	     *dev = path_in("nulldev");
	struct atomic_set set;
	struct stat st;
	/* A null device of our own (never the system's /dev/null: a broken build would replace it); root only. */
	bool have_dev = mknod(dev, S_IFCHR | 0600, makedev(1, 3)) == 0;

	put(victim, "IMPORTANT VICTIM DATA\n");
	assert_int_equal(symlink(victim, link_), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(atomic_write_file(link_, "x", 1), -ELOOP);
	assert_int_equal(atomic_write_file(fifo, "x", 1), -EINVAL);
	if (have_dev)
		assert_int_equal(atomic_write_file(dev, "x", 1), -EINVAL);
	atomic_set_init(&set);
	assert_int_equal(atomic_set_add(&set, link_, "x", 1), -ELOOP);
	assert_int_equal(atomic_set_add(&set, fifo, "x", 1), -EINVAL);
	atomic_set_release(&set);
	assert_int_equal(lstat(link_, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	if (have_dev) {
		assert_int_equal(lstat(dev, &st), 0);
		assert_true(S_ISCHR(st.st_mode));
		unlink(dev);
	}
	free(dev);
	char *v = slurp(victim);
	assert_string_equal(v, "IMPORTANT VICTIM DATA\n");
	const char *keep[] = {"victim.txt", "out-link.json", "out-fifo.json", NULL};
	assert_int_equal(strays(keep), 0);
	assert_non_null(strstr(write_file_strerror(-ELOOP), "symbolic link"));
	assert_non_null(strstr(write_file_strerror(-EINVAL), "not a regular file"));
	unlink(link_);
	unlink(fifo);
	unlink(victim);
	free(v);
	free(victim);
	free(link_);
	free(fifo);
}

/*
 * The journals: "--journal=link" truncated and overwrote the link's target
 * (O_TRUNC without O_NOFOLLOW), the telemetry journal was fopen(…, "a")
 * (security review finding 9). open_for_write never follows a link, never
 * waits on a FIFO (no reader: it would block forever without O_NONBLOCK),
 * never opens a device, and truncates only a regular file.
 */
static void test_open_for_write(void **state)
{
	(void)state;
	char *victim = path_in("victim.txt"), *link_ = path_in("j-link.jsonl"), *fifo = path_in("j-fifo.jsonl"),
	     *file = path_in("j.jsonl");
	int fd;

	put(victim, "IMPORTANT VICTIM DATA\n");
	assert_int_equal(symlink(victim, link_), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(open_for_write(link_, WRITE_TRUNC, 0644), -ELOOP);
	assert_int_equal(open_for_write(link_, WRITE_APPEND, 0644), -ELOOP);
	assert_int_equal(open_for_write(fifo, WRITE_TRUNC, 0644), -EINVAL);
	assert_int_equal(open_for_write(fifo, WRITE_APPEND, 0644), -EINVAL);
	assert_int_equal(open_for_write("/dev/null", WRITE_APPEND, 0644), -EINVAL); /* opened only if the checks fail: never truncated */
	assert_int_equal(open_for_write(dir, WRITE_APPEND, 0644), -EINVAL);
	char *v = slurp(victim);
	assert_string_equal(v, "IMPORTANT VICTIM DATA\n");
	free(v);

	put(file, "old\n");
	fd = open_for_write(file, WRITE_APPEND, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "new\n", 4), 4);
	close(fd);
	v = slurp(file);
	assert_string_equal(v, "old\nnew\n");
	free(v);
	fd = open_for_write(file, WRITE_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a\n", 2), 2);
	close(fd);
	v = slurp(file);
	assert_string_equal(v, "a\n");
	free(v);
	unlink(file);
	unlink(link_);
	unlink(fifo);
	unlink(victim);
	free(file);
	free(victim);
	free(link_);
	free(fifo);
}

/*
 * A link or FIFO planted between the check and the open: the open itself
 * refuses to follow the link (O_NOFOLLOW) and checks what it opened (fstat),
 * never waiting on the FIFO.
 */
static void test_open_for_write_race(void **state)
{
	(void)state;
	char *victim = path_in("victim.txt"), *link_ = path_in("r-link.jsonl"), *fifo = path_in("r-fifo.jsonl");

	put(victim, "IMPORTANT VICTIM DATA\n");
	assert_int_equal(symlink(victim, link_), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	lstat_lies = true;
	int l = open_for_write(link_, WRITE_TRUNC, 0644), f = open_for_write(fifo, WRITE_APPEND, 0644);
	int d = open_for_write("/dev/null", WRITE_APPEND, 0644);
	lstat_lies = false;
	assert_int_equal(l, -ELOOP);
	assert_int_equal(f, -EINVAL);
	assert_int_equal(d, -EINVAL);
	char *v = slurp(victim);
	assert_string_equal(v, "IMPORTANT VICTIM DATA\n");
	free(v);
	unlink(link_);
	unlink(fifo);
	unlink(victim);
	free(victim);
	free(link_);
	free(fifo);
}

/* A FIFO or a device is never read (it would wait for a writer, or never end). */
static void test_read_file_refuses_fifo(void **state)
{
	(void)state;
	char *fifo = path_in("in-fifo"), *text = NULL;

	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(read_file(fifo, &text, NULL), -EINVAL);
	assert_int_equal(read_file("/dev/zero", &text, NULL), -EINVAL);
	assert_null(text);
	unlink(fifo);
	free(fifo);
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
		cmocka_unit_test(test_atomic_write_refuses_non_regular),
		cmocka_unit_test(test_open_for_write),
		cmocka_unit_test(test_open_for_write_race),
		cmocka_unit_test(test_read_file_refuses_fifo),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
