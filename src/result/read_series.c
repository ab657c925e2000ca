/*
 * The interval series of a journal beside its result (result/read_int.h):
 * what the report takes from it when the result carries no intervals. Each
 * line is read on its own and only its top-level members "type", "schema",
 * "phase", "t", "seconds", "tps" and "transactions" are parsed; the rest
 * (an interval's histogram: most of the line) is stepped over, never built
 * as a tree. A 3-hour run at 10 s intervals is 1,080 lines of some 2 kB.
 *
 * Anything unusual (a line that is not one flat JSON object of plain keys, a
 * key given twice, a missing or bad field, a truncated last line) gives up
 * and returns 1: the caller then reads the journal whole as before
 * (results_parse_journal), with its messages.
 */
#include "core/fileio.h"
#include "core/jsonr.h"
#include "core/strbuf.h"
#include "result/model.h"
#include "result/read_int.h"
#include "result/result.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_TYPE, K_SCHEMA, K_PHASE, K_T, K_SECONDS, K_TPS, K_TX, NKEYS };
static const char *const keys[NKEYS] = {"type", "schema", "phase", "t", "seconds", "tps", "transactions"};

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* Past the string that starts at p (at its '"'); NULL when it does not end on the line. */
static const char *skip_string(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* Past the value that starts at p: a string, an object or array (nested), or a bare word or number. */
static const char *skip_value(const char *p, const char *end)
{
	unsigned depth = 0;

	if (p < end && *p == '"')
		return skip_string(p, end);
	if (p < end && *p != '{' && *p != '[') {
		while (p < end && !strchr(",}] \t\r", *p))
			p++;
		return p;
	}
	while (p < end) {
		if (*p == '"') {
			if (!(p = skip_string(p, end)))
				return NULL;
			continue;
		}
		if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (--depth == 0)
				return p + 1;
		}
		p++;
	}
	return NULL;
}

/* The line's wanted members parsed into obj; false when the line is not a plain flat object. */
static bool line_members(const char *p, const char *end, json_t *obj)
{
	p = skip_ws(p, end);
	if (p == end || *p++ != '{')
		return false;
	for (;;) {
		const char *k, *ke, *v, *ve;
		size_t kl;
		int want = -1;

		p = skip_ws(p, end);
		if (p == end || *p != '"' || !(ke = skip_string(p, end)))
			return false;
		k = p + 1;
		kl = (size_t)(ke - 1 - k);
		if (memchr(k, '\\', kl))
			return false;
		p = skip_ws(ke, end);
		if (p == end || *p++ != ':')
			return false;
		v = skip_ws(p, end);
		if (!(ve = skip_value(v, end)) || ve == v)
			return false;
		for (int i = 0; i < NKEYS && want < 0; i++)
			if (strlen(keys[i]) == kl && !memcmp(keys[i], k, kl))
				want = i;
		if (want >= 0) {
			json_t *x = json_object_get(obj, keys[want]) ? NULL : json_loadb(v, (size_t)(ve - v), JSON_DECODE_ANY, NULL);
			if (!x)
				return false;
			json_object_set_new(obj, keys[want], x);
		}
		p = skip_ws(ve, end);
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		return p < end && *p == '}' && skip_ws(p + 1, end) == end;
	}
}

/* One line (lineno from 1) into the series; false: give up. */
static bool series_line(struct jsonr *jr, struct run *r, json_t *o, size_t lineno, size_t *cap)
{
	char path[48];
	const char *type = json_string_value(json_object_get(o, "type"));
	enum result_phase ph;
	double t, secs, tps;

	if (!type)
		return false;
	if (lineno == 1)
		return !strcmp(type, "header") &&
		       rd_schema_check(json_string_value(json_object_get(o, "schema")), JOURNAL_FAMILY) == 0;
	if (!strcmp(type, "end"))
		return true;
	if (strcmp(type, "interval"))
		return false;
	snprintf(path, sizeof(path), "(line %zu)", lineno);
	if (rd_phase(jr, o, path, &ph) < 0)
		return false;
	t = jsonr_num(jr, o, path, "t", JSONR_REQUIRED, 0, 0);
	tps = jsonr_num(jr, o, path, "tps", JSONR_REQUIRED, 0, 0);
	secs = jsonr_num(jr, o, path, "seconds", JSONR_REQUIRED, 0, 0);
	(void)jsonr_int(jr, o, path, "transactions", JSONR_REQUIRED, 0, 0);
	if (jr->failed)
		return false;
	rd_add_interval(r, cap, ph, t, secs, tps);
	return true;
}

int rd_journal_series(struct run *r, const char *name, const char *text)
{
	struct strbuf err;
	struct jsonr jr = {.file = name, .err = &err};
	struct run s = {0};
	const char *p = text;
	size_t lineno = 0, cap = 0;
	bool ok = true;

	strbuf_init(&err, 0);
	while (ok && *p) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl : p + strlen(p);

		lineno++;
		if (!nl) {
			ok = false; /* a last line without its newline may be cut off: the whole reader says so */
		} else if (p == end) {
			ok = lineno > 1; /* an empty line, which results_parse_journal skips */
		} else {
			json_t *o = json_object();
			ok = o && line_members(p, end, o) && series_line(&jr, &s, o, lineno, &cap);
			json_decref(o);
		}
		p = nl ? nl + 1 : end;
	}
	strbuf_release(&err);
	if (!ok || lineno == 0) {
		free(s.intervals);
		return 1;
	}
	free(r->intervals);
	r->intervals = s.intervals;
	r->nintervals = s.nintervals;
	return 0;
}
