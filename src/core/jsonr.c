#include "core/jsonr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void jr_fail(struct jread *jr, const char *path, const char *key, const json_t *v, const char *expected)
{
	char *dump = NULL;

	if (jr->failed)
		return;
	jr->failed = true;
	strbuf_addf(jr->err, "%s: %s%s%s: ", jr->file, path, key ? "." : "", key ? key : "");
	if (!v) {
		strbuf_adds(jr->err, "missing");
	} else {
		dump = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		if (dump && strlen(dump) > 60)
			strcpy(dump + 57, "...");
		strbuf_adds(jr->err, dump ? dump : "?");
	}
	strbuf_addf(jr->err, " (expected %s)", expected);
	free(dump);
}

/* The value at key, or NULL when absent (or null and nullable); fails when required. */
static json_t *get(struct jread *jr, json_t *obj, const char *path, const char *key, int flags,
		   const char *expected)
{
	json_t *v;

	if (jr->failed || !obj)
		return NULL;
	v = json_object_get(obj, key);
	if (v && json_is_null(v) && (flags & JR_NULLABLE))
		v = NULL;
	if (!v && (flags & JR_REQUIRED))
		jr_fail(jr, path, key, NULL, expected);
	return v;
}

json_t *jr_obj(struct jread *jr, json_t *obj, const char *path, const char *key, int flags)
{
	json_t *v = get(jr, obj, path, key, flags, "an object");

	if (v && !json_is_object(v)) {
		jr_fail(jr, path, key, v, "an object");
		return NULL;
	}
	return v;
}

json_t *jr_arr(struct jread *jr, json_t *obj, const char *path, const char *key, int flags)
{
	json_t *v = get(jr, obj, path, key, flags, "an array");

	if (v && !json_is_array(v)) {
		jr_fail(jr, path, key, v, "an array");
		return NULL;
	}
	return v;
}

const char *jr_str(struct jread *jr, json_t *obj, const char *path, const char *key, int flags, const char *dflt)
{
	json_t *v = get(jr, obj, path, key, flags, "a string");

	if (!v)
		return dflt;
	if (!json_is_string(v)) {
		jr_fail(jr, path, key, v, "a string");
		return dflt;
	}
	return json_string_value(v);
}

double jr_num(struct jread *jr, json_t *obj, const char *path, const char *key, int flags, double min, double dflt)
{
	char what[64];
	json_t *v;
	double d;

	snprintf(what, sizeof(what), "a number >= %g", min);
	v = get(jr, obj, path, key, flags, what);
	if (!v)
		return dflt;
	if (!json_is_number(v)) {
		jr_fail(jr, path, key, v, what);
		return dflt;
	}
	d = json_number_value(v);
	if (!isfinite(d) || d < min) {
		jr_fail(jr, path, key, v, what);
		return dflt;
	}
	return d;
}

int64_t jr_int(struct jread *jr, json_t *obj, const char *path, const char *key, int flags, int64_t min, int64_t dflt)
{
	char what[64];
	json_t *v;

	snprintf(what, sizeof(what), "an integer >= %lld", (long long)min);
	v = get(jr, obj, path, key, flags, what);
	if (!v)
		return dflt;
	if (!json_is_integer(v) || json_integer_value(v) < min) {
		jr_fail(jr, path, key, v, what);
		return dflt;
	}
	return (int64_t)json_integer_value(v);
}

bool jr_bool(struct jread *jr, json_t *obj, const char *path, const char *key, int flags, bool dflt)
{
	json_t *v = get(jr, obj, path, key, flags, "true or false");

	if (!v)
		return dflt;
	if (!json_is_boolean(v)) {
		jr_fail(jr, path, key, v, "true or false");
		return dflt;
	}
	return json_is_true(v);
}

bool jr_has(json_t *obj, const char *key)
{
	json_t *v = obj ? json_object_get(obj, key) : NULL;

	return v && !json_is_null(v);
}
