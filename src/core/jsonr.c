#include "core/jsonr.h"

#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S UINT64_C(1000000000)

/*
 * The message, one line: a key or a file name from the input may hold control
 * characters (a raw carriage return in a key rewrote the terminal line; found
 * by fuzz_published), shown escaped as JSON shows them. Values are shown
 * through json_dumps, already escaped.
 */
static void emit(struct jsonr *jr, const char *text)
{
	struct strbuf sb;

	strbuf_init(&sb, 0);
	strbuf_add_oneline(&sb, text);
	if (jr->err)
		strbuf_adds(jr->err, sb.buf);
	else
		log_error("%s", sb.buf);
	strbuf_release(&sb);
}

int jsonr_failf(struct jsonr *jr, const char *path, const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	if (jr->failed)
		return -EINVAL;
	jr->failed = true;
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "%s: %s: ", jr->file, path);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	emit(jr, sb.buf);
	strbuf_release(&sb);
	return -EINVAL;
}

void jsonr_show(const struct json_t *v, unsigned max, struct strbuf *sb)
{
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

	if (!s) {
		strbuf_adds(sb, "?");
		return;
	}
	if (max > 3 && strlen(s) > max) {
		strbuf_add(sb, s, max - 3);
		strbuf_adds(sb, "...");
	} else {
		strbuf_adds(sb, s);
	}
	free(s);
}

static unsigned show_max(const struct jsonr *jr)
{
	return jr->show_max ? jr->show_max : 60;
}

int jsonr_fail_value(struct jsonr *jr, const char *path, const struct json_t *v, const char *what)
{
	struct strbuf sb;

	if (jr->failed)
		return -EINVAL;
	strbuf_init(&sb, 0);
	jsonr_show(v, show_max(jr), &sb);
	jsonr_failf(jr, path, "%s %s", sb.buf, what);
	strbuf_release(&sb);
	return -EINVAL;
}

int jsonr_fail_key(struct jsonr *jr, const json_t *obj, const char *path, const char *key, const char *what)
{
	struct strbuf p;

	if (jr->failed)
		return -EINVAL;
	strbuf_init(&p, 0);
	strbuf_addf(&p, "%s.%s", path, key);
	jsonr_fail_value(jr, p.buf, json_object_get(obj, key), what);
	strbuf_release(&p);
	return -EINVAL;
}

void jsonr_fail(struct jsonr *jr, const char *path, const char *key, const struct json_t *v, const char *expected)
{
	struct strbuf sb, p;

	if (jr->failed)
		return;
	strbuf_init(&sb, 0);
	strbuf_init(&p, 0);
	strbuf_addf(&p, "%s%s%s", path, key ? "." : "", key ? key : "");
	if (!v)
		strbuf_adds(&sb, "missing");
	else
		jsonr_show(v, show_max(jr), &sb);
	jsonr_failf(jr, p.buf, "%s (expected %s)", sb.buf, expected);
	strbuf_release(&sb);
	strbuf_release(&p);
}

int jsonr_status(const struct jsonr *jr)
{
	return jr->failed ? -EINVAL : 0;
}

/* --- the getters --- */

/*
 * A bad value at obj.key (v NULL: missing) in the reader's style:
 * "<value> (expected <expected>)" or "<value> <is_not>"; a missing value reads
 * "missing (expected <expected>)" in both.
 */
static void bad(struct jsonr *jr, const char *path, const char *key, const json_t *v, const char *expected,
		const char *is_not)
{
	struct strbuf p;

	if (!v || jr->style == JSONR_EXPECTED) {
		jsonr_fail(jr, path, key, v, expected);
		return;
	}
	strbuf_init(&p, 0);
	strbuf_addf(&p, "%s%s%s", path, key ? "." : "", key ? key : "");
	jsonr_fail_value(jr, p.buf, v, is_not);
	strbuf_release(&p);
}

/* The value at key (obj itself for a NULL key), or NULL when absent (or null and nullable); fails when required. */
static json_t *get(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags, const char *expected)
{
	json_t *v;

	if (jr->failed || !obj)
		return NULL;
	v = key ? json_object_get(obj, key) : obj;
	if (v && json_is_null(v) && (flags & JSONR_NULLABLE))
		v = NULL;
	if (!v && (flags & JSONR_REQUIRED))
		jsonr_fail(jr, path, key, NULL, expected);
	return v;
}

json_t *jsonr_obj(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags)
{
	json_t *v = get(jr, obj, path, key, flags, "an object");

	if (v && !json_is_object(v)) {
		bad(jr, path, key, v, "an object", "is not an object");
		return NULL;
	}
	return v;
}

json_t *jsonr_arr(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags)
{
	json_t *v = get(jr, obj, path, key, flags, "an array");

	if (v && !json_is_array(v)) {
		bad(jr, path, key, v, "an array", "is not an array");
		return NULL;
	}
	return v;
}

const char *jsonr_str(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags, const char *dflt)
{
	json_t *v = get(jr, obj, path, key, flags, "a string");

	if (!v)
		return dflt;
	if (!json_is_string(v)) {
		bad(jr, path, key, v, "a string", "is not a string");
		return dflt;
	}
	if ((flags & JSONR_NONEMPTY) &&
	    (!json_string_length(v) || strlen(json_string_value(v)) != json_string_length(v))) {
		bad(jr, path, key, v, "a non-empty string without NUL",
		    "is empty or holds a NUL (expected a non-empty string)");
		return dflt;
	}
	return json_string_value(v);
}

/*
 * get() for the getters whose expectation names their bounds: the value, and
 * whether it is missing where it is required. They format the expectation
 * only for a message (a report reads a few million numbers, nearly all good).
 */
static json_t *get_bounded(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags, bool *missing)
{
	json_t *v = get(jr, obj, path, key, flags & ~JSONR_REQUIRED, NULL);

	*missing = !v && (flags & JSONR_REQUIRED) && !jr->failed && obj;
	return v;
}

double jsonr_num(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags, double min, double dflt)
{
	char what[64], is_not[80];
	bool missing;
	json_t *v = get_bounded(jr, obj, path, key, flags, &missing);
	double d = v && json_is_number(v) ? json_number_value(v) : NAN;

	if (v && isfinite(d) && d >= min)
		return d;
	if (v || missing) {
		snprintf(what, sizeof(what), "a number >= %g", min);
		snprintf(is_not, sizeof(is_not), "is not %s", what);
		bad(jr, path, key, v, what, is_not);
	}
	return dflt;
}

int64_t jsonr_int(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags, int64_t min,
		  int64_t dflt)
{
	char what[64], is_not[80];
	bool missing;
	json_t *v = get_bounded(jr, obj, path, key, flags, &missing);

	if (v && json_is_integer(v) && json_integer_value(v) >= min)
		return (int64_t)json_integer_value(v);
	if (v || missing) {
		snprintf(what, sizeof(what), "an integer >= %lld", (long long)min);
		snprintf(is_not, sizeof(is_not), "is not %s", what);
		bad(jr, path, key, v, what, is_not);
	}
	return dflt;
}

uint64_t jsonr_uint(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags, uint64_t min,
		    uint64_t max, uint64_t dflt)
{
	char what[64], is_not[80];
	bool missing;
	json_t *v = get_bounded(jr, obj, path, key, flags, &missing);

	if (v && json_is_integer(v) && json_integer_value(v) >= 0 && (uint64_t)json_integer_value(v) >= min &&
	    (uint64_t)json_integer_value(v) <= max)
		return (uint64_t)json_integer_value(v);
	if (v || missing) {
		snprintf(what, sizeof(what), "an integer in %llu..%llu", (unsigned long long)min, (unsigned long long)max);
		snprintf(is_not, sizeof(is_not), "is not %s", what);
		bad(jr, path, key, v, what, is_not);
	}
	return dflt;
}

bool jsonr_bool(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags, bool dflt)
{
	json_t *v = get(jr, obj, path, key, flags, "true or false");

	if (!v)
		return dflt;
	if (!json_is_boolean(v)) {
		bad(jr, path, key, v, "true or false", "is not a boolean (expected true or false)");
		return dflt;
	}
	return json_is_true(v);
}

bool jsonr_has(const json_t *obj, const char *key)
{
	json_t *v = obj ? json_object_get(obj, key) : NULL;

	return v && !json_is_null(v);
}

static void path_key(struct strbuf *sb, const char *base, const char *key)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s.%s", base, key);
}

int jsonr_keys(struct jsonr *jr, json_t *obj, const char *path, const char *const *allowed)
{
	const char *key;
	json_t *v;
	struct strbuf p, list;

	if (jr->failed)
		return -EINVAL;
	strbuf_init(&p, 0);
	strbuf_init(&list, 0);
	json_object_foreach(obj, key, v) {
		bool ok = false;
		for (const char *const *a = allowed; *a; a++)
			ok = ok || !strcmp(*a, key);
		if (ok)
			continue;
		for (const char *const *a = allowed; *a; a++)
			strbuf_addf(&list, "%s%s", a == allowed ? "" : ", ", *a);
		path_key(&p, path, key);
		jsonr_failf(jr, p.buf, "unknown field (expected one of: %s)", list.buf);
		break;
	}
	strbuf_release(&p);
	strbuf_release(&list);
	return jsonr_status(jr);
}

#define DURATION_FORMS "a string such as \"30s\", \"2h\" or an integer number of seconds"

uint64_t jsonr_duration(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags, uint64_t min_ns,
			uint64_t dflt)
{
	json_t *v = get(jr, obj, path, key, flags, "a duration (" DURATION_FORMS ")");
	uint64_t ns = 0;
	const char *why = NULL;
	char what[128], is_not[160];

	if (!v)
		return dflt;
	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 315360000) {
		ns = (uint64_t)json_integer_value(v) * NS_PER_S;
	} else if (!json_is_string(v)) {
		bad(jr, path, key, v, "a duration (" DURATION_FORMS ")", "is not a duration (expected " DURATION_FORMS ")");
		return dflt;
	} else if (parse_duration_ns(json_string_value(v), &ns, &why) < 0) {
		why = why ? why : "expected a number with unit s, m, h or d";
		snprintf(what, sizeof(what), "a duration (%s)", why);
		snprintf(is_not, sizeof(is_not), "is not a duration (%s)", why);
		bad(jr, path, key, v, what, is_not);
		return dflt;
	}
	if (ns % NS_PER_S) {
		bad(jr, path, key, v, "a whole number of seconds, e.g. \"90s\"",
		    "is not a whole number of seconds (expected e.g. \"90s\")");
		return dflt;
	}
	if (ns < min_ns) {
		snprintf(what, sizeof(what), "at least %llus", (unsigned long long)(min_ns / NS_PER_S));
		snprintf(is_not, sizeof(is_not), "is too short (expected %s)", what);
		bad(jr, path, key, v, what, is_not);
		return dflt;
	}
	return ns;
}

#define SIZE_FORMS "a string such as \"24G\" or an integer number of bytes"

uint64_t jsonr_size(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags, uint64_t dflt)
{
	json_t *v = get(jr, obj, path, key, flags, "a size (" SIZE_FORMS ")");
	const char *why = NULL;
	char what[128], is_not[160];
	uint64_t bytes;

	if (!v)
		return dflt;
	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return (uint64_t)json_integer_value(v);
	if (!json_is_string(v)) {
		bad(jr, path, key, v, "a size (" SIZE_FORMS ")", "is not a size (expected " SIZE_FORMS ")");
		return dflt;
	}
	if (parse_size_bytes(json_string_value(v), &bytes, &why) == 0)
		return bytes;
	why = why ? why : "expected a number with unit K, M, G or T";
	snprintf(what, sizeof(what), "a size (%s)", why);
	snprintf(is_not, sizeof(is_not), "is not a size (%s)", why);
	bad(jr, path, key, v, what, is_not);
	return dflt;
}

/*
 * ${VAR} and ${VAR:-default} in paths, so a shipped config can put its
 * drives under a base the user chooses (local-quick uses DBRIG_QUICK_DIR).
 */
static int expand_vars(struct jsonr *jr, const char *path, const char *key, const json_t *v, struct strbuf *out)
{
	const char *s = json_string_value(v);

	while (*s) {
		if (s[0] != '$' || s[1] != '{') {
			strbuf_addc(out, *s++);
			continue;
		}
		const char *end = strchr(s, '}');
		if (!end) {
			bad(jr, path, key, v, "a path with ${NAME} or ${NAME:-default}, closed",
			    "has an unclosed ${ (expected ${NAME} or ${NAME:-default})");
			return -EINVAL;
		}
		const char *name = s + 2;
		const char *dflt = strstr(name, ":-");
		size_t nlen = (size_t)((dflt && dflt < end ? dflt : end) - name);
		char var[128];
		if (!nlen || nlen >= sizeof(var)) {
			bad(jr, path, key, v, "a path with ${NAME}, a name of 1..127 characters",
			    "has an empty or too long variable name (expected ${NAME})");
			return -EINVAL;
		}
		memcpy(var, name, nlen);
		var[nlen] = '\0';
		const char *val = getenv(var);
		if (val && *val) {
			strbuf_adds(out, val);
		} else if (dflt && dflt < end) {
			strbuf_add(out, dflt + 2, (size_t)(end - dflt - 2));
		} else {
			struct strbuf what, is_not;
			strbuf_init(&what, 0);
			strbuf_init(&is_not, 0);
			strbuf_addf(&what, "${%s} in the environment, or ${%s:-default}", var, var);
			strbuf_addf(&is_not,
				    "uses ${%s}, which is not set (expected it in the environment, or write ${%s:-default})", var,
				    var);
			bad(jr, path, key, v, what.buf, is_not.buf);
			strbuf_release(&what);
			strbuf_release(&is_not);
			return -EINVAL;
		}
		s = end + 1;
	}
	if (!out->len) {
		bad(jr, path, key, v, "a path that does not expand to an empty one", "expands to an empty path");
		return -EINVAL;
	}
	return 0;
}

char *jsonr_path(struct jsonr *jr, json_t *obj, const char *path, const char *key, int flags, const char *dflt)
{
	const char *s = jsonr_str(jr, obj, path, key, flags | JSONR_NONEMPTY, NULL);
	struct strbuf val;

	if (!s)
		return dflt ? xstrdup(dflt) : NULL;
	strbuf_init(&val, 0);
	if (expand_vars(jr, path, key, key ? json_object_get(obj, key) : obj, &val) < 0) {
		strbuf_release(&val);
		return dflt ? xstrdup(dflt) : NULL;
	}
	return strbuf_detach(&val);
}
