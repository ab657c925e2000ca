/* Unit tests of src/core/strbuf.c: how messages show what they echo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

static char *shown(const char *s, size_t max)
{
	struct strbuf sb;

	strbuf_init(&sb, 0);
	strbuf_add_shown(&sb, s, max);
	return strbuf_detach(&sb);
}

/*
 * Control and bidi characters never reach the terminal raw: a name holding
 * U+202E reordered the rest of the line, a group name with a newline split a
 * warning over two lines (security review N10).
 */
static void test_escapes(void **state)
{
	(void)state;
	char *t;

	t = shown("h\xc3\xa9\xe2\x80\xae" "gpj.exe", 0);
	assert_string_equal(t, "h\xc3\xa9\\u{202E}gpj.exe"); /* é kept, U+202E shown */
	free(t);
	t = shown("group\nname\t\x1b[31m", 0);
	assert_string_equal(t, "group\\x0Aname\\x09\\x1B[31m");
	free(t);
	t = shown("\xef\xbb\xbf{ \xff \xe2\x81\xa6x\xe2\x81\xa9 \xc2\x85", 0); /* BOM, a stray byte, an isolate, C1 NEL */
	assert_string_equal(t, "\\u{FEFF}{ \\xFF \\u{2066}x\\u{2069} \\u{0085}");
	free(t);
	t = shown("\xed\xa0\x80 \xc0\xaf", 0); /* a surrogate and an overlong '/' are not UTF-8 */
	assert_string_equal(t, "\\xED\\xA0\\x80 \\xC0\\xAF");
	free(t);
	t = shown("plain ASCII, \xc2\xb7 and \xe2\x80\x94 stay", 0);
	assert_string_equal(t, "plain ASCII, \xc2\xb7 and \xe2\x80\x94 stay");
	free(t);
}

/* A 6,000-character value loses its middle, never the end where the reason stands. */
static void test_elides_the_middle(void **state)
{
	(void)state;
	struct strbuf in;
	char *t;

	strbuf_init(&in, 0);
	strbuf_adds(&in, "campaign.json: .drives[0].path: \"/");
	for (int i = 0; i < 6000; i++)
		strbuf_addc(&in, "abcd"[i % 4]);
	strbuf_adds(&in, "\xe2\x80\xae\" does not exist (expected a directory on the drive under test)");
	t = shown(in.buf, 2048);
	assert_true(strlen(t) <= 2048);
	assert_int_equal(strncmp(t, "campaign.json: .drives[0].path: \"/abcd", 38), 0);
	assert_non_null(strstr(t, "\xe2\x80\xa6["));
	const char *end = "\\u{202E}\" does not exist (expected a directory on the drive under test)";
	assert_string_equal(t + strlen(t) - strlen(end), end);
	free(t);
	/* Short enough: whole. */
	t = shown("short (expected x)", 2048);
	assert_string_equal(t, "short (expected x)");
	free(t);
	strbuf_release(&in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_elides_the_middle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
