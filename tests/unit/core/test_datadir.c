/* Unit tests of src/core/datadir.c: the data folder found from the binary's own path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/datadir.h"

static char root[] = "/tmp/dbrig-test-datadir.XXXXXX";

static void mkdirs(const char *rel)
{
	char p[512], *s;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void touch(const char *rel)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	/* an installed tree, a build tree, and a binary with no data beside it */
	mkdirs("prefix/bin");
	mkdirs("prefix/share/dbrig/vm-templates");
	touch("prefix/bin/dbrig");
	mkdirs("build/share/dbrig");
	touch("build/dbrig");
	mkdirs("bare/bin");
	touch("bare/bin/dbrig");
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void want_of(const char *exe_rel, const char *want_rel)
{
	char exe[512], want[512], out[512];

	snprintf(exe, sizeof(exe), "%s/%s", root, exe_rel);
	snprintf(want, sizeof(want), "%s/%s", root, want_rel);
	assert_int_equal(datadir_of(exe, out, sizeof(out)), 0);
	assert_string_equal(out, want);
}

/* <prefix>/bin/dbrig finds <prefix>/share/dbrig, wherever the prefix is. */
static void test_installed(void **state)
{
	(void)state;
	want_of("prefix/bin/dbrig", "prefix/bin/../share/dbrig");
}

/* <build>/dbrig finds <build>/share/dbrig (its ../share/dbrig does not exist). */
static void test_build_tree(void **state)
{
	(void)state;
	want_of("build/dbrig", "build/share/dbrig");
}

/* No data anywhere: the installed place, so an error names where it was looked for. */
static void test_neither(void **state)
{
	(void)state;
	want_of("bare/bin/dbrig", "bare/bin/../share/dbrig");
}

static void test_too_long(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(datadir_of("/usr/local/bin/dbrig", out, sizeof(out)), -1);
}

/* DBRIG_DATA_DIR wins, and datadir_path joins onto it. */
static void test_env_override(void **state)
{
	char *p;

	(void)state;
	setenv("DBRIG_DATA_DIR", "/srv/dbrig-data", 1);
	assert_string_equal(datadir(), "/srv/dbrig-data");
	p = datadir_path("vm-templates");
	assert_string_equal(p, "/srv/dbrig-data/vm-templates");
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_installed),
		cmocka_unit_test(test_build_tree),
		cmocka_unit_test(test_neither),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_env_override),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
