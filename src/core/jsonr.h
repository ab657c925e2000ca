/*
 * The strict JSON reader every parser of outside JSON uses (campaign files,
 * campaign state, results, journals, published numbers). Messages name the
 * place:   <file>: <json path>: <what is wrong>
 * and go to `err` (when set) or to log_error. A `struct jsonr` remembers that
 * it failed: only the first message is kept, later calls do nothing and
 * return their defaults, so a reader can fill a whole struct and check
 * `jr->failed` once at the end, or stop at the first -EINVAL.
 *
 * One family of getters: jsonr_<type>(jr, obj, path, key, flags, ..., dflt)
 * returns the value at obj.key, or `dflt` when it is absent (an error with
 * JSONR_REQUIRED) or when jr has failed. `path` is the JSON path of obj (e.g.
 * ".phases.sample"); a NULL key reads obj itself, whose path is `path`. A
 * reader that wants 0 / -EINVAL checks jsonr_status(jr) after its reads.
 *
 * Two message styles, chosen once per reader in `jr->style`:
 *   JSONR_EXPECTED (the default)  "<value> (expected <what>)" (results,
 *       journals, published numbers, state);
 *   JSONR_IS_NOT                  "<value> is not <what> (…)" (campaign files,
 *       whose messages are part of the bad-input corpus).
 * An absent required value reads "missing (expected <what>)" in both.
 * Values are shown compact and shortened (show_max characters, default 60).
 * jansson stays out of this header: `struct json_t` is jansson's json_t.
 */
#ifndef DBRIG_CORE_JSONR_H
#define DBRIG_CORE_JSONR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_t;
struct strbuf;

enum jsonr_style {
	JSONR_EXPECTED = 0, /* "<value> (expected <what>)" */
	JSONR_IS_NOT,       /* "<value> is not <what> (...)" */
};

struct jsonr {
	const char *file;   /* as shown in messages */
	struct strbuf *err; /* receives the first message (without "dbrig: "); NULL: log_error */
	unsigned show_max;  /* longest value shown, in characters (0: 60) */
	enum jsonr_style style;
	bool failed;
};

enum {
	JSONR_OPTIONAL = 0,
	JSONR_REQUIRED = 1 << 0,
	JSONR_NULLABLE = 1 << 1, /* JSON null reads as absent */
	JSONR_NONEMPTY = 1 << 2, /* jsonr_str: not "" and without NUL */
};

/* --- failing --- */

/* "<file>: <path>: <text>"; returns -EINVAL. */
int jsonr_failf(struct jsonr *jr, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "<file>: <path>: <value> <what>"; returns -EINVAL. */
int jsonr_fail_value(struct jsonr *jr, const char *path, const struct json_t *v, const char *what);
/* jsonr_fail_value on obj.key, at "<path>.<key>": a value the getter read but the reader does not take. */
int jsonr_fail_key(struct jsonr *jr, const struct json_t *obj, const char *path, const char *key, const char *what);
/* "<file>: <path>.<key>: <value or missing> (expected <expected>)" (key may be NULL). */
void jsonr_fail(struct jsonr *jr, const char *path, const char *key, const struct json_t *v, const char *expected);
/* The value as it appears in JSON, compact, at most max characters ("..." marks a cut). */
void jsonr_show(const struct json_t *v, unsigned max, struct strbuf *sb);
/* -EINVAL once jr has failed, else 0. */
int jsonr_status(const struct jsonr *jr) __attribute__((warn_unused_result));

/* --- the getters --- */

/* Every key of obj is in `allowed` (NULL-terminated): "unknown field (expected one of: ...)"; 0 or -EINVAL. */
int jsonr_keys(struct jsonr *jr, struct json_t *obj, const char *path, const char *const *allowed)
	__attribute__((warn_unused_result));
struct json_t *jsonr_obj(struct jsonr *jr, struct json_t *obj, const char *path, const char *key, int flags);
struct json_t *jsonr_arr(struct jsonr *jr, struct json_t *obj, const char *path, const char *key, int flags);
/* A borrowed string (JSONR_NONEMPTY: not empty, without NUL). */
const char *jsonr_str(struct jsonr *jr, struct json_t *obj, const char *path, const char *key, int flags,
		      const char *dflt);
/* A finite number >= min. */
double jsonr_num(struct jsonr *jr, struct json_t *obj, const char *path, const char *key, int flags, double min,
		 double dflt);
int64_t jsonr_int(struct jsonr *jr, struct json_t *obj, const char *path, const char *key, int flags, int64_t min,
		  int64_t dflt);
/* An integer in min..max. */
uint64_t jsonr_uint(struct jsonr *jr, struct json_t *obj, const char *path, const char *key, int flags, uint64_t min,
		    uint64_t max, uint64_t dflt);
bool jsonr_bool(struct jsonr *jr, struct json_t *obj, const char *path, const char *key, int flags, bool dflt);
/* "30s", "2h", "1h30m" or an integer number of seconds, in ns; whole seconds, at least min_ns. */
uint64_t jsonr_duration(struct jsonr *jr, struct json_t *obj, const char *path, const char *key, int flags,
			uint64_t min_ns, uint64_t dflt);
/* "24G" or an integer number of bytes. */
uint64_t jsonr_size(struct jsonr *jr, struct json_t *obj, const char *path, const char *key, int flags,
		    uint64_t dflt);
/* A non-empty string with ${VAR} / ${VAR:-default} expanded from the environment; malloc'd (a copy of dflt, or NULL). */
char *jsonr_path(struct jsonr *jr, struct json_t *obj, const char *path, const char *key, int flags,
		 const char *dflt) __attribute__((warn_unused_result));
/* True when `key` is present (and not null). */
bool jsonr_has(const struct json_t *obj, const char *key);

#endif
