/*
 * Strict reading of JSON input with messages that name the place:
 *   <file>: <json path>: <value> (expected <what>)
 * A `struct jread` remembers the first error; later calls return defaults, so
 * a reader fills a whole struct and checks `jr->failed` once at the end.
 * Only the JSON readers of src/report/ use this (jansson stays in those files).
 */
#ifndef DBRIG_CORE_JSONR_H
#define DBRIG_CORE_JSONR_H

#include "core/strbuf.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

struct jread {
	const char *file;     /* as shown in messages */
	struct strbuf *err;   /* receives the first message (without "dbrig: ") */
	bool failed;
};

enum {
	JR_OPTIONAL = 0,
	JR_REQUIRED = 1 << 0,
	JR_NULLABLE = 1 << 1, /* JSON null reads as absent */
};

/* Record an error about `v` (NULL = missing) at `path` + `key`. */
void jr_fail(struct jread *jr, const char *path, const char *key, const json_t *v, const char *expected);

/* Typed getters. `path` is the JSON path of obj (e.g. ".phases.sample"). */
json_t *jr_obj(struct jread *jr, json_t *obj, const char *path, const char *key, int flags);
json_t *jr_arr(struct jread *jr, json_t *obj, const char *path, const char *key, int flags);
/* Returns a borrowed string, or `dflt`. */
const char *jr_str(struct jread *jr, json_t *obj, const char *path, const char *key, int flags, const char *dflt);
/* Finite number >= min; `dflt` when absent. */
double jr_num(struct jread *jr, json_t *obj, const char *path, const char *key, int flags, double min, double dflt);
int64_t jr_int(struct jread *jr, json_t *obj, const char *path, const char *key, int flags, int64_t min, int64_t dflt);
bool jr_bool(struct jread *jr, json_t *obj, const char *path, const char *key, int flags, bool dflt);
/* True when `key` is present (and not null). */
bool jr_has(json_t *obj, const char *key);

#endif
