/* Unit tests of core/jsonr.c: messages of both getter families, the sticky first error, values shown shortened. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonr.h"
#include "core/strbuf.h"

static json_t *parse(const char *text)
{
	json_t *v = json_loads(text, 0, NULL);

	assert_non_null(v);
	return v;
}

static void test_defaults_and_sticky_error(void **state)
{
	struct strbuf err;
	struct jsonr jr = {.file = "r.json", .err = &err};
	json_t *o = parse("{\"a\": 5, \"s\": \"x\", \"n\": null, \"o\": {\"b\": true}}");

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(jsonr_int(&jr, o, "", "a", JSONR_REQUIRED, 0, -1), 5);
	assert_string_equal(jsonr_str(&jr, o, "", "s", JSONR_REQUIRED, NULL), "x");
	assert_null(jsonr_str(&jr, o, "", "n", JSONR_NULLABLE, NULL));
	assert_true(jsonr_bool(&jr, jsonr_obj(&jr, o, "", "o", JSONR_REQUIRED), ".o", "b", JSONR_REQUIRED, false));
	assert_int_equal(jsonr_num(&jr, o, "", "missing", JSONR_OPTIONAL, 0, 7.5), 7.5);
	assert_false(jr.failed);
	assert_true(jsonr_has(o, "a") && !jsonr_has(o, "n") && !jsonr_has(o, "zz"));
	/* The first error is kept; later ones return their defaults and say nothing. */
	assert_int_equal(jsonr_int(&jr, o, "", "a", JSONR_REQUIRED, 10, -1), -1);
	assert_true(jr.failed);
	assert_string_equal(err.buf, "r.json: .a: 5 (expected an integer >= 10)");
	assert_null(jsonr_str(&jr, o, "", "missing", JSONR_REQUIRED, NULL));
	assert_string_equal(err.buf, "r.json: .a: 5 (expected an integer >= 10)");
	strbuf_release(&err);
	json_decref(o);
}

static void test_missing_and_shortened(void **state)
{
	struct strbuf err, long_text;
	struct jsonr jr = {.file = "f", .err = &err};
	json_t *o;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&long_text, 0);
	strbuf_adds(&long_text, "{\"k\": \"");
	for (int i = 0; i < 100; i++)
		strbuf_addc(&long_text, 'x');
	strbuf_adds(&long_text, "\"}");
	o = parse(long_text.buf);
	assert_null(jsonr_obj(&jr, o, ".p", "q", JSONR_REQUIRED));
	assert_string_equal(err.buf, "f: .p.q: missing (expected an object)");
	jr.failed = false;
	strbuf_reset(&err);
	jsonr_num(&jr, o, "", "k", JSONR_REQUIRED, 0, 0);
	/* 60 characters by default: 57 of the value and "..." */
	assert_int_equal(strlen(err.buf), strlen("f: .k: ") + 60 + strlen(" (expected a number >= 0)"));
	assert_non_null(strstr(err.buf, "xxx... (expected a number >= 0)"));
	jr.failed = false;
	jr.show_max = 80;
	strbuf_reset(&err);
	assert_int_equal(jsonr_fail_value(&jr, ".k", json_object_get(o, "k"), "is not a drive"), -EINVAL);
	assert_int_equal(strlen(err.buf), strlen("f: .k: ") + 80 + strlen(" is not a drive"));
	json_decref(o);
	strbuf_release(&err);
	strbuf_release(&long_text);
}

static void test_config_getters(void **state)
{
	static const char *const keys[] = {"name", "time", "size", "dir", "n", NULL};
	struct strbuf err;
	struct jsonr jr = {.file = "c.json", .err = &err};
	json_t *o = parse("{\"name\": \"ok\", \"time\": \"1h30m\", \"size\": \"24G\", \"dir\": \"${DBRIG_TEST_JSONR:-/d}/x\", "
			  "\"n\": 7}");
	const char *s = NULL;
	uint64_t u = 0, ns = 0, bytes = 0;
	char *path = NULL;

	(void)state;
	strbuf_init(&err, 0);
	unsetenv("DBRIG_TEST_JSONR");
	assert_int_equal(jsonr_get_keys(&jr, o, "", keys), 0);
	assert_int_equal(jsonr_get_str(&jr, o, "", "name", true, &s), 0);
	assert_string_equal(s, "ok");
	assert_int_equal(jsonr_get_uint(&jr, o, "", "n", 1, 10, &u), 0);
	assert_int_equal(u, 7);
	assert_int_equal(jsonr_get_duration(&jr, o, "", "time", 0, &ns), 0);
	assert_int_equal(ns, UINT64_C(5400) * 1000000000);
	assert_int_equal(jsonr_size(&jr, ".size", json_object_get(o, "size"), &bytes), 0);
	assert_int_equal(bytes, UINT64_C(24) << 30);
	assert_int_equal(jsonr_get_path(&jr, o, "", "dir", &path), 0);
	assert_string_equal(path, "/d/x");
	setenv("DBRIG_TEST_JSONR", "/e", 1);
	assert_int_equal(jsonr_get_path(&jr, o, "", "dir", &path), 0);
	assert_string_equal(path, "/e/x");
	assert_false(jr.failed);
	assert_int_equal(jsonr_get_uint(&jr, o, "", "n", 8, 10, &u), -EINVAL);
	assert_string_equal(err.buf, "c.json: .n: 7 is not an integer in 8..10");
	jr.failed = false;
	strbuf_reset(&err);
	assert_int_equal(jsonr_get_keys(&jr, o, ".x", (const char *const[]){"name", NULL}), -EINVAL);
	assert_string_equal(err.buf, "c.json: .x.time: unknown field (expected one of: name)");
	free(path);
	json_decref(o);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_sticky_error),
		cmocka_unit_test(test_missing_and_shortened),
		cmocka_unit_test(test_config_getters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
