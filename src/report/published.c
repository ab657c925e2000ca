#include "report/published.h"

#include "core/fileio.h"
#include "core/jsonr.h"
#include "core/strbuf.h"
#include "workload/registry.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define PUB_SCHEMA "dbrig.published/1"
#define PUB_MAX_VMS 65536
#define PUB_MAX_VMS_TEXT "65536"
#define PUB_MAX_THREADS 1048576
#define PUB_MAX_THREADS_TEXT "1048576"
#define PUB_QUOTE_MAX 300

/* Refuse keys outside `allowed` (NULL-terminated): typos must not pass as absent. */
static void only_keys(struct jsonr *jr, json_t *obj, const char *path, const char *const *allowed)
{
	const char *key;
	json_t *v;

	if (jr->failed || !obj)
		return;
	json_object_foreach(obj, key, v) {
		bool ok = false;
		for (const char *const *a = allowed; *a; a++)
			ok |= !strcmp(*a, key);
		if (!ok) {
			struct strbuf what;
			char p[128];

			strbuf_init(&what, 0);
			strbuf_adds(&what, "no such key; allowed:");
			for (const char *const *a = allowed; *a; a++)
				strbuf_addf(&what, " %s", *a);
			snprintf(p, sizeof(p), "%s.%s", path, key);
			jsonr_fail(jr, p, NULL, v, what.buf);
			strbuf_release(&what);
			return;
		}
	}
}

static char *dup_str(struct jsonr *jr, json_t *o, const char *path, const char *key, int flags)
{
	const char *s = jsonr_str(jr, o, path, key, flags, "");

	if (!jr->failed && (flags & JSONR_REQUIRED) && !*s)
		jsonr_fail(jr, path, key, json_object_get(o, key), "a non-empty string");
	return xstrdup(s);
}

/* The optional per-row fields every row may carry (results and incomplete rows). */
static const char *const ext_keys[] = {"drive", "drive_details", "era", "machine_translated", "drives_used",
				       "quote", "notes", "tables", "table_size", "warehouses", "avg_latency_decimals",
				       NULL};

/* Keys outside both lists are refused. */
static void only_keys_ext(struct jsonr *jr, json_t *obj, const char *path, const char *const *own)
{
	const char *all[40];
	size_t n = 0;

	for (const char *const *a = own; *a && n < 39; a++)
		all[n++] = *a;
	for (const char *const *a = ext_keys; *a && n < 39; a++)
		all[n++] = *a;
	all[n] = NULL;
	only_keys(jr, obj, path, all);
}

static void parse_ext(struct jsonr *jr, json_t *o, const char *path, const char *kind, const struct pub_review *rv,
		      struct pub_row_ext *x)
{
	if (jsonr_has(o, "drive"))
		x->drive_own = dup_str(jr, o, path, "drive", JSONR_REQUIRED);
	x->drive = x->drive_own ? x->drive_own : rv->drive;
	x->drive_details = dup_str(jr, o, path, "drive_details", JSONR_OPTIONAL | JSONR_NULLABLE);
	x->era = dup_str(jr, o, path, "era", JSONR_OPTIONAL | JSONR_NULLABLE);
	x->machine_translated = jsonr_bool(jr, o, path, "machine_translated", JSONR_OPTIONAL, false);
	x->drives_used = dup_str(jr, o, path, "drives_used", JSONR_OPTIONAL | JSONR_NULLABLE);
	x->quote = dup_str(jr, o, path, "quote", JSONR_OPTIONAL | JSONR_NULLABLE);
	if (!jr->failed && strlen(x->quote) > PUB_QUOTE_MAX)
		jsonr_fail(jr, path, "quote", json_object_get(o, "quote"),
			   "a short quote of the source's row (at most 300 bytes)");
	x->notes = dup_str(jr, o, path, "notes", JSONR_OPTIONAL | JSONR_NULLABLE);
	x->tables = jsonr_int(jr, o, path, "tables", JSONR_OPTIONAL | JSONR_NULLABLE, 1, 0);
	x->table_size = jsonr_int(jr, o, path, "table_size", JSONR_OPTIONAL | JSONR_NULLABLE, 1, 0);
	x->warehouses = jsonr_int(jr, o, path, "warehouses", JSONR_OPTIONAL | JSONR_NULLABLE, 1, 0);
	x->has_lat_decimals = jsonr_has(o, "avg_latency_decimals");
	x->lat_decimals = (int)jsonr_int(jr, o, path, "avg_latency_decimals", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 0);
	if (!jr->failed && x->lat_decimals > 6)
		jsonr_fail(jr, path, "avg_latency_decimals", json_object_get(o, "avg_latency_decimals"),
			   "the digits after the point the source printed, 0..6");
	if (!jr->failed && (x->tables || x->table_size) && !workload_scale_param(kind, "tables"))
		jsonr_fail(jr, path, x->tables ? "tables" : "table_size",
			   json_object_get(o, x->tables ? "tables" : "table_size"),
			   "tables and table_size only on a sysbench row (tpcc: warehouses)");
	if (!jr->failed && x->warehouses && !workload_scale_param(kind, "warehouses"))
		jsonr_fail(jr, path, "warehouses", json_object_get(o, "warehouses"),
			   "warehouses only on a tpcc row (sysbench: tables and table_size)");
}

static void ext_release(struct pub_row_ext *x)
{
	free(x->drive_own);
	free(x->drive_details);
	free(x->era);
	free(x->drives_used);
	free(x->quote);
	free(x->notes);
}

/*
 * What every published row starts with, a figure or not: an object of the
 * known keys, its label, workload ("sysbench" or "tpcc") and test. False when
 * it is not an object (nothing else is read).
 */
static bool parse_row_head(struct jsonr *jr, json_t *o, const char *path, const char *const *keys, char **label,
			   char **kind, char **test)
{
	if (!json_is_object(o)) {
		jsonr_fail(jr, path, NULL, o, "an object");
		return false;
	}
	only_keys_ext(jr, o, path, keys);
	*label = dup_str(jr, o, path, "label", JSONR_REQUIRED);
	*kind = dup_str(jr, o, path, "workload", JSONR_REQUIRED);
	if (!jr->failed && !workload_find(*kind))
		workload_kind_fail(jr, path, "workload", json_object_get(o, "workload"));
	*test = dup_str(jr, o, path, "test", JSONR_REQUIRED);
	return true;
}

/* A row published without a figure: what it has, and what is missing (required). */
static void parse_incomplete(struct jsonr *jr, json_t *o, const char *path, const struct pub_review *rv,
			     struct pub_incomplete *r)
{
	static const char *const keys[] = {"label", "workload", "test", "vm_count", "users_per_vm", "method",
					   "avg_latency_ms", "missing", NULL};

	if (!parse_row_head(jr, o, path, keys, &r->label, &r->kind, &r->test))
		return;
	r->vm_count = jsonr_int(jr, o, path, "vm_count", JSONR_OPTIONAL | JSONR_NULLABLE, 1, 0);
	r->users_per_vm = jsonr_int(jr, o, path, "users_per_vm", JSONR_OPTIONAL | JSONR_NULLABLE, 1, 0);
	r->method = dup_str(jr, o, path, "method", JSONR_REQUIRED);
	r->missing = dup_str(jr, o, path, "missing", JSONR_REQUIRED);
	r->has_avg = jsonr_has(o, "avg_latency_ms");
	r->avg_ms = jsonr_num(jr, o, path, "avg_latency_ms", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 0);
	if (!jr->failed && r->has_avg && r->avg_ms <= 0)
		jsonr_fail(jr, path, "avg_latency_ms", json_object_get(o, "avg_latency_ms"), "a number > 0");
	parse_ext(jr, o, path, r->kind, rv, &r->x);
}

static void parse_result(struct jsonr *jr, json_t *o, const char *path, struct pub_result *r)
{
	static const char *const keys[] = {"label", "workload", "test", "vm_count", "drives", "threads_per_vm",
					   "users_per_vm", "database", "method", "tps", "avg_latency_ms",
					   "p99_latency_ms", NULL};

	if (!parse_row_head(jr, o, path, keys, &r->label, &r->kind, &r->test))
		return;
	parse_ext(jr, o, path, r->kind, r->review, &r->x);
	r->vm_count = jsonr_int(jr, o, path, "vm_count", JSONR_REQUIRED, 1, 1);
	r->drives = jsonr_int(jr, o, path, "drives", JSONR_REQUIRED, 1, 1);
	r->threads_per_vm = jsonr_int(jr, o, path, "threads_per_vm", JSONR_OPTIONAL | JSONR_NULLABLE, 1, 0);
	r->users_per_vm = jsonr_int(jr, o, path, "users_per_vm", JSONR_OPTIONAL | JSONR_NULLABLE, 1, 0);
	if (!jr->failed && r->users_per_vm && !workload_has_users(r->kind))
		jsonr_fail(jr, path, "users_per_vm", json_object_get(o, "users_per_vm"),
			"users_per_vm only on a tpcc row; sysbench threads are a closed loop: threads_per_vm");
	if (!jr->failed && r->users_per_vm && r->threads_per_vm)
		jsonr_fail(jr, path, "users_per_vm", json_object_get(o, "users_per_vm"),
			"threads_per_vm (closed loop) or users_per_vm (think times), not both");
	r->database = dup_str(jr, o, path, "database", JSONR_OPTIONAL | JSONR_NULLABLE);
	r->method = dup_str(jr, o, path, "method", JSONR_REQUIRED);
	r->tps = jsonr_num(jr, o, path, "tps", JSONR_REQUIRED, 0, 0);
	r->avg_ms = jsonr_num(jr, o, path, "avg_latency_ms", JSONR_REQUIRED, 0, 0);
	if (jsonr_has(o, "p99_latency_ms")) {
		r->has_p99 = true;
		r->p99_ms = jsonr_num(jr, o, path, "p99_latency_ms", JSONR_REQUIRED, 0, 0);
	}
	if (!jr->failed && r->tps <= 0)
		jsonr_fail(jr, path, "tps", json_object_get(o, "tps"), "a number > 0");
	if (!jr->failed && r->avg_ms <= 0)
		jsonr_fail(jr, path, "avg_latency_ms", json_object_get(o, "avg_latency_ms"), "a number > 0");
	if (!jr->failed && r->has_p99 && r->p99_ms < r->avg_ms)
		jsonr_fail(jr, path, "p99_latency_ms", json_object_get(o, "p99_latency_ms"),
			"a number >= avg_latency_ms");
	/* Bounds a review can have: clients = vm_count x threads stays exact, no row is absurd. */
	if (!jr->failed && r->vm_count > PUB_MAX_VMS)
		jsonr_fail(jr, path, "vm_count", json_object_get(o, "vm_count"), "an integer from 1 to " PUB_MAX_VMS_TEXT);
	if (!jr->failed && r->threads_per_vm > PUB_MAX_THREADS)
		jsonr_fail(jr, path, "threads_per_vm", json_object_get(o, "threads_per_vm"),
			   "an integer from 1 to " PUB_MAX_THREADS_TEXT);
	if (!jr->failed && r->users_per_vm > PUB_MAX_THREADS)
		jsonr_fail(jr, path, "users_per_vm", json_object_get(o, "users_per_vm"),
			   "an integer from 1 to " PUB_MAX_THREADS_TEXT);
	if (!jr->failed && r->drives > r->vm_count)
		jsonr_fail(jr, path, "drives", json_object_get(o, "drives"), "a number <= vm_count");
}

int published_parse(const char *name, const char *text, struct pub_review *out, struct strbuf *err)
{
	static const char *const top[] = {"schema", "source", "drive", "platform", "results", "incomplete", "notes",
					  NULL};
	static const char *const src_keys[] = {"publisher", "title", "url", "original_url", "date", NULL};
	static const char *const drv_keys[] = {"name", "details", NULL};
	struct jsonr jr = {.file = name, .err = err};
	json_error_t je;
	json_t *root, *src, *drv, *res, *inc, *v;
	const char *schema;
	size_t i;
	int ret = -EINVAL;

	memset(out, 0, sizeof(*out));
	out->file = xstrdup(name);
	root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		strbuf_addf(err, "%s: line %d column %d: ", name, je.line, je.column);
		strbuf_add_oneline(err, je.text);
		strbuf_adds(err, " (expected valid JSON)");
		goto out;
	}
	if (!json_is_object(root)) {
		jsonr_fail(&jr, "", NULL, root, "an object");
		goto out;
	}
	schema = jsonr_str(&jr, root, "", "schema", JSONR_REQUIRED, "");
	if (!jr.failed && strcmp(schema, PUB_SCHEMA))
		jsonr_fail(&jr, "", "schema", json_object_get(root, "schema"), "\"" PUB_SCHEMA "\"");
	only_keys(&jr, root, "", top);
	src = jsonr_obj(&jr, root, "", "source", JSONR_REQUIRED);
	only_keys(&jr, src, ".source", src_keys);
	out->publisher = dup_str(&jr, src, ".source", "publisher", JSONR_REQUIRED);
	out->title = dup_str(&jr, src, ".source", "title", JSONR_REQUIRED);
	out->url = dup_str(&jr, src, ".source", "url", JSONR_OPTIONAL | JSONR_NULLABLE);
	out->date = dup_str(&jr, src, ".source", "date", JSONR_OPTIONAL | JSONR_NULLABLE);
	out->original_url = dup_str(&jr, src, ".source", "original_url", JSONR_OPTIONAL | JSONR_NULLABLE);
	drv = jsonr_obj(&jr, root, "", "drive", JSONR_REQUIRED);
	only_keys(&jr, drv, ".drive", drv_keys);
	out->drive = dup_str(&jr, drv, ".drive", "name", JSONR_REQUIRED);
	out->drive_details = dup_str(&jr, drv, ".drive", "details", JSONR_OPTIONAL | JSONR_NULLABLE);
	out->platform = dup_str(&jr, root, "", "platform", JSONR_REQUIRED);
	res = jsonr_arr(&jr, root, "", "results", JSONR_REQUIRED);
	inc = jsonr_arr(&jr, root, "", "incomplete", JSONR_OPTIONAL);
	if (!jr.failed && json_array_size(res) == 0 && json_array_size(inc) == 0)
		jsonr_fail(&jr, "", "results", res, "at least one published result or an \"incomplete\" row");
	if (jr.failed)
		goto out;
	if (inc && json_array_size(inc))
		out->incomplete = xcalloc(json_array_size(inc), sizeof(*out->incomplete));
	json_array_foreach(inc, i, v) {
		char path[48];

		snprintf(path, sizeof(path), ".incomplete[%zu]", i);
		out->nincomplete = i + 1;
		parse_incomplete(&jr, v, path, out, &out->incomplete[i]);
		if (jr.failed)
			goto out;
	}
	out->results = xcalloc(json_array_size(res) + 1, sizeof(*out->results));
	json_array_foreach(res, i, v) {
		char path[48];

		snprintf(path, sizeof(path), ".results[%zu]", i);
		out->results[i].review = out;
		out->nresults = i + 1;
		parse_result(&jr, v, path, &out->results[i]);
		if (jr.failed)
			goto out;
	}
	ret = jr.failed ? -EINVAL : 0;
out:
	json_decref(root);
	return ret;
}

void pub_review_release(struct pub_review *r)
{
	for (size_t i = 0; i < r->nresults; i++) {
		struct pub_result *p = &r->results[i];
		free(p->label);
		free(p->kind);
		free(p->test);
		free(p->database);
		free(p->method);
		ext_release(&p->x);
	}
	free(r->results);
	for (size_t i = 0; i < r->nincomplete; i++) {
		struct pub_incomplete *p = &r->incomplete[i];
		free(p->label);
		free(p->kind);
		free(p->test);
		free(p->method);
		free(p->missing);
		ext_release(&p->x);
	}
	free(r->incomplete);
	free(r->original_url);
	free(r->file);
	free(r->drive);
	free(r->drive_details);
	free(r->platform);
	free(r->publisher);
	free(r->title);
	free(r->url);
	free(r->date);
	memset(r, 0, sizeof(*r));
}

void pub_row_name(const struct pub_result *p, struct strbuf *sb)
{
	strbuf_adds(sb, p->x.drive);
	if (p->x.machine_translated)
		strbuf_adds(sb, " (machine-translated)");
}

void pub_set_free(struct pub_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		pub_review_release(&s->reviews[i]);
	free(s->reviews);
	free(s);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int published_load_dir(const char *dir, struct pub_set **out, struct strbuf *err)
{
	struct pub_set *s = xcalloc(1, sizeof(*s));
	char **names = NULL;
	size_t n = 0, cap = 0;
	char *text = NULL;
	struct strbuf path;
	struct dirent *de;
	DIR *d;
	int ret = -EINVAL;

	*out = NULL;
	strbuf_init(&path, 0);
	d = opendir(dir);
	if (!d) {
		ret = -errno;
		strbuf_addf(err, "%s: %s (expected a folder of published reference files)", dir, strerror(errno));
		goto out;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json"))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n) /* qsort(NULL, 0, ...) is undefined */
		qsort(names, n, sizeof(*names), cmp_name);
	s->reviews = xcalloc(n + 1, sizeof(*s->reviews));
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, names[i]);
		free(text);
		text = NULL;
		ret = read_file(path.buf, &text, NULL);
		if (ret < 0) {
			strbuf_addf(err, "%s: %s (expected a readable file)", path.buf, read_file_strerror(ret));
			goto out;
		}
		ret = published_parse(path.buf, text, &s->reviews[s->n], err);
		free(s->reviews[s->n].file);
		s->reviews[s->n].file = xstrdup(names[i]);
		s->n++;
		if (ret < 0)
			goto out;
	}
	*out = s;
	s = NULL;
	ret = 0;
out:
	free(text);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	strbuf_release(&path);
	pub_set_free(s);
	return ret;
}
