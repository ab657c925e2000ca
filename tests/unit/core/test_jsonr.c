/* Unit tests of core/jsonr.c: messages of the getters in both styles, the sticky first error, values shown shortened. */
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
	jr.failed = false;
	jr.show_max = 10;
	strbuf_reset(&err);
	assert_int_equal(jsonr_fail_key(&jr, o, ".p", "k", "is not a drive"), -EINVAL);
	assert_string_equal(err.buf, "f: .p.k: \"xxxxxx... is not a drive");
	json_decref(o);
	strbuf_release(&err);
	strbuf_release(&long_text);
}

static void test_config_getters(void **state)
{
	static const char *const keys[] = {"name", "time", "size", "dir", "n", NULL};
	struct strbuf err;
	struct jsonr jr = {.file = "c.json", .err = &err, .style = JSONR_IS_NOT};
	json_t *o = parse("{\"name\": \"ok\", \"time\": \"1h30m\", \"size\": \"24G\", \"dir\": \"${DBRIG_TEST_JSONR:-/d}/x\", "
			  "\"n\": 7}");
	char *path;

	(void)state;
	strbuf_init(&err, 0);
	unsetenv("DBRIG_TEST_JSONR");
	assert_int_equal(jsonr_keys(&jr, o, "", keys), 0);
	assert_string_equal(jsonr_str(&jr, o, "", "name", JSONR_REQUIRED | JSONR_NONEMPTY, NULL), "ok");
	assert_int_equal(jsonr_uint(&jr, o, "", "n", JSONR_OPTIONAL, 1, 10, 0), 7);
	assert_int_equal(jsonr_duration(&jr, o, "", "time", JSONR_OPTIONAL, 0, 0), UINT64_C(5400) * 1000000000);
	assert_int_equal(jsonr_size(&jr, json_object_get(o, "size"), ".size", NULL, JSONR_OPTIONAL, 0), UINT64_C(24) << 30);
	path = jsonr_path(&jr, o, "", "dir", JSONR_OPTIONAL, NULL);
	assert_string_equal(path, "/d/x");
	free(path);
	setenv("DBRIG_TEST_JSONR", "/e", 1);
	path = jsonr_path(&jr, o, "", "dir", JSONR_OPTIONAL, NULL);
	assert_string_equal(path, "/e/x");
	free(path);
	path = jsonr_path(&jr, o, "", "absent", JSONR_OPTIONAL, "results");
	assert_string_equal(path, "results");
	free(path);
	assert_false(jr.failed);
	assert_int_equal(jsonr_status(&jr), 0);
	assert_int_equal(jsonr_uint(&jr, o, "", "n", JSONR_OPTIONAL, 8, 10, 9), 9);
	assert_int_equal(jsonr_status(&jr), -EINVAL);
	assert_string_equal(err.buf, "c.json: .n: 7 is not an integer in 8..10");
	jr.failed = false;
	strbuf_reset(&err);
	assert_int_equal(jsonr_keys(&jr, o, ".x", (const char *const[]){"name", NULL}), -EINVAL);
	assert_string_equal(err.buf, "c.json: .x.time: unknown field (expected one of: name)");
	json_decref(o);
	strbuf_release(&err);
}

/*
 * Every getter on one document: its value, absent (the default, and the
 * message when required), a wrong type and a value out of range, each
 * message in both styles.
 */
static const char doc[] = "{\"o\": {}, \"a\": [], \"s\": \"x\", \"e\": \"\", \"f\": 2.5, \"i\": 3, \"b\": true, \"d\": \"90s\", "
			  "\"dn\": \"1.5s\", \"du\": \"3x\", \"z\": \"2K\", \"zu\": \"2Q\", \"p\": \"/p\", \"pu\": \"${DBRIG_JSONR_UNSET}\", "
			  "\"pe\": \"${DBRIG_JSONR_UNSET:-}\", \"pc\": \"${x\", \"n\": null}";

enum getter { G_OBJ, G_ARR, G_STR, G_NONEMPTY, G_NUM, G_INT, G_UINT, G_BOOL, G_DURATION, G_SIZE, G_PATH };

struct msg_case {
	enum getter g;
	const char *key;
	const char *expected; /* JSONR_EXPECTED's message, NULL: no error */
	const char *is_not;   /* JSONR_IS_NOT's */
};

static const struct msg_case msg_cases[] = {
	{G_OBJ, "o", NULL, NULL},
	{G_OBJ, "s", "\"x\" (expected an object)", "\"x\" is not an object"},
	{G_OBJ, "no", "missing (expected an object)", "missing (expected an object)"},
	{G_ARR, "a", NULL, NULL},
	{G_ARR, "o", "{} (expected an array)", "{} is not an array"},
	{G_ARR, "no", "missing (expected an array)", "missing (expected an array)"},
	{G_STR, "s", NULL, NULL},
	{G_STR, "e", NULL, NULL},
	{G_STR, "i", "3 (expected a string)", "3 is not a string"},
	{G_STR, "n", "null (expected a string)", "null is not a string"},
	{G_STR, "no", "missing (expected a string)", "missing (expected a string)"},
	{G_NONEMPTY, "s", NULL, NULL},
	{G_NONEMPTY, "e", "\"\" (expected a non-empty string without NUL)",
	 "\"\" is empty or holds a NUL (expected a non-empty string)"},
	{G_NONEMPTY, "no", "missing (expected a string)", "missing (expected a string)"},
	{G_NUM, "f", NULL, NULL},
	{G_NUM, "s", "\"x\" (expected a number >= 1)", "\"x\" is not a number >= 1"},
	{G_NUM, "b", "true (expected a number >= 1)", "true is not a number >= 1"},
	{G_NUM, "no", "missing (expected a number >= 1)", "missing (expected a number >= 1)"},
	{G_INT, "i", NULL, NULL},
	{G_INT, "f", "2.5 (expected an integer >= 1)", "2.5 is not an integer >= 1"},
	{G_INT, "no", "missing (expected an integer >= 1)", "missing (expected an integer >= 1)"},
	{G_UINT, "i", NULL, NULL},
	{G_UINT, "s", "\"x\" (expected an integer in 1..3)", "\"x\" is not an integer in 1..3"},
	{G_UINT, "no", "missing (expected an integer in 1..3)", "missing (expected an integer in 1..3)"},
	{G_BOOL, "b", NULL, NULL},
	{G_BOOL, "i", "3 (expected true or false)", "3 is not a boolean (expected true or false)"},
	{G_BOOL, "no", "missing (expected true or false)", "missing (expected true or false)"},
	{G_DURATION, "d", NULL, NULL},
	{G_DURATION, "i", NULL, NULL},
	{G_DURATION, "b",
	 "true (expected a duration (a string such as \"30s\", \"2h\" or an integer number of seconds))",
	 "true is not a duration (expected a string such as \"30s\", \"2h\" or an integer number of seconds)"},
	{G_DURATION, "dn", "\"1.5s\" (expected a whole number of seconds, e.g. \"90s\")",
	 "\"1.5s\" is not a whole number of seconds (expected e.g. \"90s\")"},
	{G_DURATION, "du", "\"3x\" (expected a duration (", "\"3x\" is not a duration ("},
	{G_DURATION, "no",
	 "missing (expected a duration (a string such as \"30s\", \"2h\" or an integer number of seconds))",
	 "missing (expected a duration (a string such as \"30s\", \"2h\" or an integer number of seconds))"},
	{G_SIZE, "z", NULL, NULL},
	{G_SIZE, "i", NULL, NULL},
	{G_SIZE, "b", "true (expected a size (a string such as \"24G\" or an integer number of bytes))",
	 "true is not a size (expected a string such as \"24G\" or an integer number of bytes)"},
	{G_SIZE, "zu", "\"2Q\" (expected a size (", "\"2Q\" is not a size ("},
	{G_SIZE, "no", "missing (expected a size (a string such as \"24G\" or an integer number of bytes))",
	 "missing (expected a size (a string such as \"24G\" or an integer number of bytes))"},
	{G_PATH, "p", NULL, NULL},
	{G_PATH, "i", "3 (expected a string)", "3 is not a string"},
	{G_PATH, "e", "\"\" (expected a non-empty string without NUL)",
	 "\"\" is empty or holds a NUL (expected a non-empty string)"},
	{G_PATH, "pu", "\"${DBRIG_JSONR_UNSET}\" (expected ${DBRIG_JSONR_UNSET} in the environment, or ${DBRIG_JSONR_UNSET:-default})",
	 "\"${DBRIG_JSONR_UNSET}\" uses ${DBRIG_JSONR_UNSET}, which is not set (expected it in the environment, or write "
	 "${DBRIG_JSONR_UNSET:-default})"},
	{G_PATH, "pe", "\"${DBRIG_JSONR_UNSET:-}\" (expected a path that does not expand to an empty one)",
	 "\"${DBRIG_JSONR_UNSET:-}\" expands to an empty path"},
	{G_PATH, "pc", "\"${x\" (expected a path with ${NAME} or ${NAME:-default}, closed)",
	 "\"${x\" has an unclosed ${ (expected ${NAME} or ${NAME:-default})"},
	{G_PATH, "no", "missing (expected a string)", "missing (expected a string)"},
};

/* Reads c->key with its getter (required); true when the value read is not the default. */
static bool read_one(struct jsonr *jr, json_t *o, const struct msg_case *c)
{
	const int f = JSONR_REQUIRED;
	char *p;

	switch (c->g) {
	case G_OBJ:
		return jsonr_obj(jr, o, ".t", c->key, f) != NULL;
	case G_ARR:
		return jsonr_arr(jr, o, ".t", c->key, f) != NULL;
	case G_STR:
		return jsonr_str(jr, o, ".t", c->key, f, NULL) != NULL;
	case G_NONEMPTY:
		return jsonr_str(jr, o, ".t", c->key, f | JSONR_NONEMPTY, NULL) != NULL;
	case G_NUM:
		return jsonr_num(jr, o, ".t", c->key, f, 1, -1) == 2.5;
	case G_INT:
		return jsonr_int(jr, o, ".t", c->key, f, 1, -1) == 3;
	case G_UINT:
		return jsonr_uint(jr, o, ".t", c->key, f, 1, 3, 0) == 3;
	case G_BOOL:
		return jsonr_bool(jr, o, ".t", c->key, f, false);
	case G_DURATION:
		return jsonr_duration(jr, o, ".t", c->key, f, 0, 0) != 0;
	case G_SIZE:
		return jsonr_size(jr, o, ".t", c->key, f, 0) != 0;
	case G_PATH:
		p = jsonr_path(jr, o, ".t", c->key, f, NULL);
		free(p);
		return p != NULL;
	}
	return false;
}

static void test_messages_both_styles(void **state)
{
	json_t *o = parse(doc);
	struct strbuf err, want;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&want, 0);
	unsetenv("DBRIG_JSONR_UNSET");
	for (size_t i = 0; i < sizeof(msg_cases) / sizeof(msg_cases[0]); i++) {
		const struct msg_case *c = &msg_cases[i];
		for (int style = 0; style < 2; style++) {
			struct jsonr jr = {.file = "t.json", .err = &err, .style = style ? JSONR_IS_NOT : JSONR_EXPECTED};
			const char *msg = style ? c->is_not : c->expected;
			bool got;

			strbuf_reset(&err);
			got = read_one(&jr, o, c);
			if (!msg) {
				assert_true(got);
				assert_false(jr.failed);
				continue;
			}
			assert_false(got);
			assert_true(jr.failed);
			strbuf_reset(&want);
			strbuf_addf(&want, "t.json: .t.%s: %s", c->key, msg);
			/* a message ending in "(" checks the start only: the rest is units.c's */
			if (msg[strlen(msg) - 1] == '(')
				assert_memory_equal(err.buf, want.buf, want.len);
			else
				assert_string_equal(err.buf, want.buf);
		}
	}
	strbuf_release(&err);
	strbuf_release(&want);
	json_decref(o);
}

/* Out of range, both styles; a NULL key reads the value in hand; a failed reader returns defaults. */
static void test_range_and_value_in_hand(void **state)
{
	json_t *o = parse("{\"i\": 3, \"f\": 0.5, \"d\": \"10s\", \"s\": \"-1\"}");
	struct strbuf err;
	struct jsonr ex = {.file = "t", .err = &err}, is = {.file = "t", .err = &err, .style = JSONR_IS_NOT};

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(jsonr_int(&ex, o, "", "i", 0, 4, -1), -1);
	assert_string_equal(err.buf, "t: .i: 3 (expected an integer >= 4)");
	ex.failed = false, strbuf_reset(&err);
	assert_int_equal(jsonr_int(&is, o, "", "i", 0, 4, -1), -1);
	assert_string_equal(err.buf, "t: .i: 3 is not an integer >= 4");
	is.failed = false, strbuf_reset(&err);
	assert_true(jsonr_num(&ex, o, "", "f", 0, 1, -1) == -1);
	assert_string_equal(err.buf, "t: .f: 0.5 (expected a number >= 1)");
	ex.failed = false, strbuf_reset(&err);
	assert_true(jsonr_num(&is, o, "", "f", 0, 1, -1) == -1);
	assert_string_equal(err.buf, "t: .f: 0.5 is not a number >= 1");
	is.failed = false, strbuf_reset(&err);
	assert_int_equal(jsonr_uint(&ex, o, "", "i", 0, 4, 9, 1), 1);
	assert_string_equal(err.buf, "t: .i: 3 (expected an integer in 4..9)");
	ex.failed = false, strbuf_reset(&err);
	assert_int_equal(jsonr_uint(&is, o, "", "i", 0, 0, 2, 1), 1);
	assert_string_equal(err.buf, "t: .i: 3 is not an integer in 0..2");
	is.failed = false, strbuf_reset(&err);
	assert_int_equal(jsonr_duration(&ex, o, "", "d", 0, UINT64_C(60) * 1000000000, 1), 1);
	assert_string_equal(err.buf, "t: .d: \"10s\" (expected at least 60s)");
	ex.failed = false, strbuf_reset(&err);
	assert_int_equal(jsonr_duration(&is, o, "", "d", 0, UINT64_C(60) * 1000000000, 1), 1);
	assert_string_equal(err.buf, "t: .d: \"10s\" is too short (expected at least 60s)");
	is.failed = false, strbuf_reset(&err);
	/* A NULL key: obj is the value, path its own path. */
	assert_int_equal(jsonr_duration(&is, json_object_get(o, "d"), ".x.d", NULL, 0, 0, 0), UINT64_C(10) * 1000000000);
	assert_int_equal(jsonr_int(&is, json_object_get(o, "d"), ".x.d", NULL, 0, 0, -1), -1);
	assert_string_equal(err.buf, "t: .x.d: \"10s\" is not an integer >= 0");
	assert_int_equal(jsonr_status(&is), -EINVAL);
	/* Failed: every getter returns its default and says nothing more. */
	assert_int_equal(jsonr_uint(&is, o, "", "i", 0, 0, 9, 7), 7);
	assert_null(jsonr_obj(&is, o, "", "absent", JSONR_REQUIRED));
	assert_null(jsonr_path(&is, o, "", "s", 0, NULL));
	assert_int_equal(jsonr_keys(&is, o, "", (const char *const[]){"i", "f", "d", "s", NULL}), -EINVAL);
	assert_string_equal(err.buf, "t: .x.d: \"10s\" is not an integer >= 0");
	strbuf_release(&err);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_sticky_error),
		cmocka_unit_test(test_missing_and_shortened),
		cmocka_unit_test(test_config_getters),
		cmocka_unit_test(test_messages_both_styles),
		cmocka_unit_test(test_range_and_value_in_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
