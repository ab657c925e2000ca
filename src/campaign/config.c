/*
 * The campaign config reader. The first invalid field stops the load with one
 * message: a config is short, and one precise line is easier to act on than a
 * cascade. Unknown fields are errors too, so a typo never silently falls back
 * to a default.
 */
#include "campaign/config.h"
#include "campaign/plan.h"
#include "campaign/driver.h"

#include "core/features.h"
#include "core/fileio.h"
#include "core/jsonr.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "result/result.h"
#include "stats/steady.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DRIVES 256
#define MAX_GROUPS 256
#define MAX_PER_DRIVE 1024
#define MAX_SWEEP 16

static bool is_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 64 || !isalnum((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

static bool is_option_key(const char *s)
{
	if (!*s || strlen(s) > 64 || !islower((unsigned char)s[0]))
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

static void kv_free(struct target_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

static int scalar_text(const json_t *v, bool onoff, struct strbuf *sb)
{
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		if (strlen(s) != json_string_length(v) || strchr(s, '\n'))
			return -EINVAL;
		strbuf_adds(sb, s);
	} else if (json_is_integer(v)) {
		strbuf_addf(sb, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		strbuf_addf(sb, "%.17g", json_real_value(v));
	} else if (json_is_boolean(v)) {
		strbuf_adds(sb, json_is_true(v) ? (onoff ? "on" : "ON") : (onoff ? "off" : "OFF"));
	} else {
		return -EINVAL;
	}
	return 0;
}

/* An object of scalar options; keys normalised to dashes when `dashes`. */
static int get_options(struct jsonr *c, json_t *obj, const char *jpath, const char *key, bool dashes,
		       struct target_kv **out, size_t *nout)
{
	json_t *o = NULL, *v;
	const char *k;
	struct strbuf p, val;
	size_t n = 0;
	int ret;

	ret = jsonr_get_obj(c, obj, jpath, key, false, &o);
	if (ret < 0 || !o)
		return ret;
	strbuf_init(&p, 0);
	strbuf_init(&val, 0);
	*out = xcalloc(json_object_size(o), sizeof(**out));
	json_object_foreach(o, k, v) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s.%s.%s", jpath, key, k);
		if (!is_option_key(k)) {
			ret = jsonr_failf(c, p.buf, "is not an option name (expected lower case letters, digits, '_', '-' or '.')");
			goto out;
		}
		strbuf_reset(&val);
		if (scalar_text(v, dashes, &val) < 0) {
			ret = jsonr_fail_value(c, p.buf, v, "is not a scalar option value (expected a string, number or boolean)");
			goto out;
		}
		char *nk = xstrdup(k);
		for (char *q = nk; dashes && *q; q++)
			if (*q == '_')
				*q = '-';
		for (size_t i = 0; i < n; i++) {
			if (!strcmp((*out)[i].key, nk)) {
				free(nk);
				ret = jsonr_failf(c, p.buf, "repeats option \"%s\" (expected each option once)", (*out)[i].key);
				goto out;
			}
		}
		(*out)[n].key = nk;
		(*out)[n].value = strbuf_detach(&val);
		n++;
		*nout = n;
	}
out:
	strbuf_release(&p);
	strbuf_release(&val);
	return ret;
}

/* Keeps a checked scale option (its range is the workload's: workload/registry.c). */
static void set_scale(struct campaign_config *cfg, const char *name, int64_t n)
{
	if (!strcmp(name, "tables"))
		cfg->tables = (unsigned)n;
	else if (!strcmp(name, "table-size"))
		cfg->table_size = (uint64_t)n;
	else if (!strcmp(name, "warehouses"))
		cfg->warehouses = (unsigned)n;
	else if (!strcmp(name, "terminals"))
		cfg->terminals = (unsigned)n;
}

/* Options the campaign sets itself for every driver. */
static int load_workload(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"kind", "test", "options", NULL};
	json_t *w = NULL;
	const char *kind = NULL, *test = NULL;
	int ret;

	if ((ret = jsonr_get_obj(c, root, "", "workload", true, &w)) < 0)
		return ret;
	if ((ret = jsonr_get_keys(c, w, ".workload", keys)) < 0)
		return ret;
	if ((ret = jsonr_get_str(c, w, ".workload", "kind", true, &kind)) < 0)
		return ret;
	cfg->workload = workload_find(kind);
	if (!cfg->workload) {
		struct strbuf sb;
		strbuf_init(&sb, 0);
		strbuf_adds(&sb, "is not a workload (expected ");
		workload_names(&sb);
		strbuf_addc(&sb, ')');
		ret = jsonr_fail_value(c, ".workload.kind", json_object_get(w, "kind"), sb.buf);
		strbuf_release(&sb);
		return ret;
	}
	/* A workload with tests needs one; a one-test workload takes its name or nothing. */
	if ((ret = jsonr_get_str(c, w, ".workload", "test", cfg->workload->tests != NULL, &test)) < 0)
		return ret;
	if (test && !workload_has_test(cfg->workload, test)) {
		struct strbuf sb;
		strbuf_init(&sb, 0);
		if (cfg->workload->tests) {
			strbuf_addf(&sb, "is not a %s test (expected ", cfg->workload->name);
			for (const char *const *t = cfg->workload->tests; *t; t++)
				strbuf_addf(&sb, "%s%s", t == cfg->workload->tests ? "" : t[1] ? ", " : " or ", *t);
			strbuf_addc(&sb, ')');
		} else {
			strbuf_addf(&sb, "is not a %s test (expected %s or no test)", cfg->workload->display,
				    cfg->workload->name);
		}
		ret = jsonr_fail_value(c, ".workload.test", json_object_get(w, "test"), sb.buf);
		strbuf_release(&sb);
		return ret;
	}
	cfg->test = xstrdup(test ? test : cfg->workload->name);
	if ((ret = get_options(c, w, ".workload", "options", true, &cfg->wl_options, &cfg->nwl_options)) < 0)
		return ret;

	cfg->tables = 1;
	cfg->table_size = 10000;
	cfg->warehouses = 1;
	const char *wkey;
	json_t *wval;
	size_t i = 0;
	json_object_foreach(json_object_get(w, "options"), wkey, wval) {
		const struct target_kv *o = &cfg->wl_options[i++];
		struct strbuf p;
		const struct workload_scale_opt *so;
		int64_t n;
		int r = 0;

		(void)wval;
		strbuf_init(&p, 0);
		strbuf_addf(&p, ".workload.options.%s", wkey);
		if (driver_sets_option(cfg->workload, o->key)) {
			r = jsonr_failf(c, p.buf, "is set by the campaign (use the top-level threads%s, precondition, sample, "
				 "report_interval%s and percentiles fields)",
				 strcmp(cfg->workload->connections_option, "threads") ? " (the connections per instance)" : "",
				 cfg->workload == &workload_tpcc ? ", delivery_log (one log per run)" : "");
		} else if ((so = workload_scale_opt(cfg->workload, o->key))) {
			if (parse_int64(o->value, so->min, so->max, &n) < 0)
				r = jsonr_failf(c, p.buf, "\"%s\" is not an integer in %" PRId64 "..%" PRId64, o->value,
						so->min, so->max);
			else
				set_scale(cfg, so->name, n);
		}
		strbuf_release(&p);
		if (r < 0)
			return r;
	}
	cfg->scale = cfg->workload == &workload_sysbench ? cfg->tables : cfg->warehouses;
	return 0;
}

static bool speaks_mysql(const struct db_engine *e)
{
	return e->protocol == DB_PROTO_MYSQL;
}

static int load_engine(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"kind", "buffer_pool", "server_options", NULL};
	json_t *e = NULL, *bp;
	const char *kind = NULL;
	struct strbuf sb;
	int ret;

	if ((ret = jsonr_get_obj(c, root, "", "engine", true, &e)) < 0)
		return ret;
	if ((ret = jsonr_get_keys(c, e, ".engine", keys)) < 0)
		return ret;
	if ((ret = jsonr_get_str(c, e, ".engine", "kind", true, &kind)) < 0)
		return ret;
	strbuf_init(&sb, 0);
	cfg->engine = db_engine_find(kind);
	if (!cfg->engine) {
		strbuf_adds(&sb, "is not a database engine (expected ");
		db_engine_names(&sb, NULL);
		strbuf_addc(&sb, ')');
		ret = jsonr_fail_value(c, ".engine.kind", json_object_get(e, "kind"), sb.buf);
	} else if (cfg->workload->mysql_only && cfg->engine->protocol != DB_PROTO_MYSQL) {
		strbuf_addf(&sb, "cannot run the %s workload (expected ", cfg->workload->name);
		db_engine_names(&sb, speaks_mysql);
		strbuf_addc(&sb, ')');
		ret = jsonr_fail_value(c, ".engine.kind", json_object_get(e, "kind"), sb.buf);
	} else if (cfg->engine->odbc_connect && features_left_out("odbc")) {
		strbuf_addf(&sb, "is driven through ODBC, which this dbrig is built without (cmake -D%s=ON)",
			    features_left_out("odbc"));
		ret = jsonr_fail_value(c, ".engine.kind", json_object_get(e, "kind"), sb.buf);
	}
	strbuf_release(&sb);
	if (ret < 0)
		return ret;
	cfg->buffer_pool = UINT64_C(128) << 20;
	bp = json_object_get(e, "buffer_pool");
	if (bp) {
		if ((ret = jsonr_size(c, ".engine.buffer_pool", bp, &cfg->buffer_pool)) < 0)
			return ret;
		if (cfg->buffer_pool < (UINT64_C(8) << 20))
			return jsonr_fail_value(c, ".engine.buffer_pool", bp, "is too small (expected at least 8M)");
	}
	return get_options(c, e, ".engine", "server_options", false, &cfg->server_options, &cfg->nserver_options);
}

static int load_target(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	json_t *t = NULL;
	const char *kind = NULL;
	int ret;

	if ((ret = jsonr_get_obj(c, root, "", "target", true, &t)) < 0)
		return ret;
	if ((ret = jsonr_get_str(c, t, ".target", "kind", true, &kind)) < 0)
		return ret;
	cfg->target = target_find(kind);
	if (!cfg->target) {
		const char *left_out = features_left_out(kind);
		struct strbuf sb;
		strbuf_init(&sb, 0);
		if (left_out)
			strbuf_addf(&sb, "is a target this dbrig is built without (cmake -D%s=ON; this build has: ", left_out);
		else
			strbuf_adds(&sb, "is not a target (expected one of: ");
		target_names(&sb);
		strbuf_addc(&sb, ')');
		ret = jsonr_fail_value(c, ".target.kind", json_object_get(t, "kind"), sb.buf);
		strbuf_release(&sb);
		return ret;
	}
	return target_settings_read(c, cfg->target, t, &cfg->target_settings);
}

/* The campaign as its target sees it (target/target.h); the loader is the caller's. */
static void fill_env(struct campaign_config *cfg)
{
	struct target_env *e = &cfg->env;
	struct strbuf sb;
	unsigned threads = cfg->threads;

	/* The servers' connection limits: the most threads a run group asks for. */
	for (size_t g = 0; g < cfg->ngroups; g++)
		if (cfg->groups[g].threads > threads)
			threads = cfg->groups[g].threads;

	cfg->drive_instances = xcalloc(cfg->ndrives + 1, sizeof(unsigned));
	for (size_t d = 0; d < cfg->ndrives; d++)
		cfg->drive_instances[d] = campaign_drive_instances(cfg, d);
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "%s/%s", cfg->output, cfg->name);
	cfg->log_dir = strbuf_detach(&sb);
	*e = (struct target_env){
		.file = cfg->file,
		.name = cfg->name,
		.drives = cfg->drives,
		.ndrives = cfg->ndrives,
		.instances = cfg->drive_instances,
		.engine = cfg->engine,
		.buffer_pool = cfg->buffer_pool,
		.server_options = cfg->server_options,
		.nserver_options = cfg->nserver_options,
		.threads = threads,
		.mysql_only = cfg->workload->mysql_only,
		.database = cfg->workload->database,
		.log_dir = cfg->log_dir,
		.target = cfg->target,
		.settings = cfg->target_settings,
		.golden_source = cfg->golden_source,
		.data_bytes = plan_data_bytes(cfg),
	};
}

static int load_drives(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"name", "path", "pool", "host", "model", NULL};
	json_t *a = json_object_get(root, "drives");
	struct strbuf p;
	int ret = 0;

	if (!a)
		return jsonr_failf(c, ".drives", "missing (expected an array of drives)");
	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > MAX_DRIVES)
		return jsonr_fail_value(c, ".drives", a, "is not an array of 1..256 drives");
	cfg->ndrives = json_array_size(a);
	cfg->drives = xcalloc(cfg->ndrives, sizeof(*cfg->drives));
	strbuf_init(&p, 0);
	for (size_t i = 0; i < cfg->ndrives; i++) {
		json_t *d = json_array_get(a, i);
		struct target_drive *dr = &cfg->drives[i];
		const char *name = NULL, *s = NULL;

		strbuf_reset(&p);
		strbuf_addf(&p, ".drives[%zu]", i);
		if (!json_is_object(d)) {
			ret = jsonr_fail_value(c, p.buf, d, "is not an object (expected {\"name\": ..., \"path\": ...})");
			goto out;
		}
		if ((ret = jsonr_get_keys(c, d, p.buf, keys)) < 0 || (ret = jsonr_get_str(c, d, p.buf, "name", true, &name)) < 0)
			goto out;
		if (!is_name(name)) {
			strbuf_adds(&p, ".name");
			ret = jsonr_fail_value(c, p.buf, json_object_get(d, "name"),
				       "is not a drive name (expected up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit)");
			goto out;
		}
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(cfg->drives[j].name, name)) {
				strbuf_adds(&p, ".name");
				ret = jsonr_fail_value(c, p.buf, json_object_get(d, "name"), "is used by another drive (expected unique names)");
				goto out;
			}
		}
		dr->name = xstrdup(name);
		if ((ret = jsonr_get_path(c, d, p.buf, "path", &dr->path)) < 0)
			goto out;
		if ((ret = jsonr_get_str(c, d, p.buf, "pool", false, &s)) < 0)
			goto out;
		dr->pool = s ? xstrdup(s) : NULL;
		if (dr->path && dr->pool) {
			ret = jsonr_failf(c, p.buf, "has both \"path\" and \"pool\" (expected one of them)");
			goto out;
		}
		if (!dr->path && !dr->pool) {
			ret = jsonr_failf(c, p.buf, "has neither \"path\" nor \"pool\" (expected one of them)");
			goto out;
		}
		s = NULL;
		if ((ret = jsonr_get_str(c, d, p.buf, "host", false, &s)) < 0)
			goto out;
		dr->host = s ? xstrdup(s) : NULL;
		s = NULL;
		if ((ret = jsonr_get_str(c, d, p.buf, "model", false, &s)) < 0)
			goto out;
		dr->model = s ? xstrdup(s) : NULL;
	}
out:
	strbuf_release(&p);
	return ret;
}

static void slugify(const char *name, struct strbuf *sb)
{
	bool dash = false;

	for (const char *s = name; *s; s++) {
		if (isalnum((unsigned char)*s)) {
			if (dash && sb->len)
				strbuf_addc(sb, '-');
			dash = false;
			strbuf_addc(sb, (char)tolower((unsigned char)*s));
		} else {
			dash = true;
		}
	}
}

/* An integer in min..max, or (list) an array of 1..16 distinct ones: the values of a sweep. */
static int get_sweep(struct jsonr *c, const char *path, json_t *v, unsigned max, const char *what, bool *list,
		     unsigned *out, size_t *n)
{
	char msg[160];

	*list = json_is_array(v);
	if (!*list) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > max) {
			snprintf(msg, sizeof(msg), "is not %s (expected an integer in 1..%u, or a list of them to sweep)",
				 what, max);
			return jsonr_fail_value(c, path, v, msg);
		}
		out[0] = (unsigned)json_integer_value(v);
		*n = 1;
		return 0;
	}
	if (!json_array_size(v) || json_array_size(v) > MAX_SWEEP) {
		snprintf(msg, sizeof(msg), "is not a sweep (expected a list of 1..%d distinct values, e.g. [1, 2, 4, 8])",
			 MAX_SWEEP);
		return jsonr_fail_value(c, path, v, msg);
	}
	*n = json_array_size(v);
	for (size_t i = 0; i < *n; i++) {
		json_t *e = json_array_get(v, i);
		if (!json_is_integer(e) || json_integer_value(e) < 1 || json_integer_value(e) > max) {
			snprintf(msg, sizeof(msg), "has %s that is not %s (expected integers in 1..%u)",
				 json_is_integer(e) ? "a value" : "an entry", what, max);
			return jsonr_fail_value(c, path, v, msg);
		}
		out[i] = (unsigned)json_integer_value(e);
		for (size_t j = 0; j < i; j++)
			if (out[j] == out[i]) {
				snprintf(msg, sizeof(msg), "lists %u twice (expected distinct values)", out[i]);
				return jsonr_fail_value(c, path, v, msg);
			}
	}
	return 0;
}

static size_t drive_index(const struct campaign_config *cfg, const char *name)
{
	for (size_t j = 0; j < cfg->ndrives; j++)
		if (!strcmp(cfg->drives[j].name, name))
			return j;
	return cfg->ndrives;
}

static struct campaign_group *add_group(struct campaign_config *cfg, size_t *cap)
{
	if (cfg->ngroups == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		cfg->groups = xrealloc(cfg->groups, *cap * sizeof(*cfg->groups));
	}
	memset(&cfg->groups[cfg->ngroups], 0, sizeof(cfg->groups[0]));
	return &cfg->groups[cfg->ngroups++];
}

/*
 * "placement": {"drive": count, ...} (the drives at once), or
 * {"each": ["drive", ...], "vms": N or [N, ...]} (N instances on each drive in
 * turn). Fills drives/counts for the map form; each_drives for the other.
 */
static int load_placement(struct jsonr *c, json_t *pl, struct strbuf *p, const struct campaign_config *cfg,
			  const char *list, struct campaign_placement *map, size_t *nmap, size_t *each, size_t *neach,
			  unsigned *vms, size_t *nvms, bool *vms_list)
{
	static const char *const keys[] = {"each", "vms", NULL};
	size_t base = p->len;
	const char *dname;
	json_t *cnt;
	int ret;

	*nmap = *neach = *nvms = 0;
	*vms_list = false;
	strbuf_adds(p, ".placement");
	if (!json_object_size(pl))
		return jsonr_fail_value(c, p->buf, pl,
					"is empty (expected {\"drive name\": instance count, ...} or {\"each\": [drives], \"vms\": N})");
	if (json_object_get(pl, "each") || json_object_get(pl, "vms")) {
		json_t *e = json_object_get(pl, "each"), *v = json_object_get(pl, "vms");
		if ((ret = jsonr_get_keys(c, pl, p->buf, keys)) < 0)
			return ret;
		strbuf_adds(p, e ? ".vms" : ".each");
		if (!e || !v)
			return jsonr_failf(c, p->buf, "missing (expected \"each\": [drive names] with \"vms\": an instance count)");
		p->len = base;
		p->buf[base] = '\0';
		strbuf_adds(p, ".placement.each");
		if (!json_is_array(e) || json_array_size(e) < 1 || json_array_size(e) > cfg->ndrives)
			return jsonr_fail_value(c, p->buf, e, "is not a list of drive names (expected e.g. [\"drive-a\", \"drive-b\"])");
		for (size_t i = 0; i < json_array_size(e); i++) {
			json_t *s = json_array_get(e, i);
			size_t d = json_is_string(s) ? drive_index(cfg, json_string_value(s)) : cfg->ndrives;
			if (d == cfg->ndrives) {
				struct strbuf w;
				strbuf_init(&w, 0);
				strbuf_addf(&w, "is not a drive of .drives (expected one of: %s)", list);
				strbuf_addf(p, "[%zu]", i);
				ret = jsonr_fail_value(c, p->buf, s, w.buf);
				strbuf_release(&w);
				return ret;
			}
			for (size_t j = 0; j < *neach; j++)
				if (each[j] == d) {
					strbuf_addf(p, "[%zu]", i);
					return jsonr_fail_value(c, p->buf, s, "is listed twice (expected each drive once)");
				}
			each[(*neach)++] = d;
		}
		p->len = base;
		p->buf[base] = '\0';
		strbuf_adds(p, ".placement.vms");
		return get_sweep(c, p->buf, v, MAX_PER_DRIVE, "an instance count", vms_list, vms, nvms);
	}
	json_object_foreach(pl, dname, cnt) {
		size_t d = drive_index(cfg, dname);

		p->len = base;
		p->buf[base] = '\0';
		strbuf_adds(p, ".placement");
		if (d == cfg->ndrives)
			return jsonr_failf(c, p->buf, "\"%s\" is not a drive of .drives (expected one of: %s, or \"each\")", dname,
					   list);
		strbuf_addf(p, ".%s", dname);
		if (!json_is_integer(cnt) || json_integer_value(cnt) < 1 || json_integer_value(cnt) > MAX_PER_DRIVE)
			return jsonr_fail_value(c, p->buf, cnt, "is not an instance count (expected an integer in 1..1024)");
		map[*nmap].drive = d;
		map[*nmap].count = (unsigned)json_integer_value(cnt);
		(*nmap)++;
	}
	return 0;
}

static int load_groups(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"name", "placement", "threads", NULL};
	json_t *a = json_object_get(root, "run_groups");
	struct strbuf p, slug, list, nm;
	size_t cap = 0;
	int ret = 0;

	if (!a)
		return jsonr_failf(c, ".run_groups", "missing (expected an array of run groups)");
	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > MAX_GROUPS)
		return jsonr_fail_value(c, ".run_groups", a, "is not an array of 1..256 run groups");
	strbuf_init(&p, 0);
	strbuf_init(&slug, 0);
	strbuf_init(&list, 0);
	strbuf_init(&nm, 0);
	for (size_t i = 0; i < cfg->ndrives; i++)
		strbuf_addf(&list, "%s%s", i ? ", " : "", cfg->drives[i].name);
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_t *g = json_array_get(a, i), *pl = NULL, *th;
		const char *name = NULL;
		struct campaign_placement *map = NULL;
		size_t *each = NULL, nmap = 0, neach = 0, nvms = 0, nth = 1, base, first = cfg->ngroups;
		unsigned vms[MAX_SWEEP], thr[MAX_SWEEP] = {0};
		bool vms_list = false, th_list = false;

		strbuf_reset(&p);
		strbuf_addf(&p, ".run_groups[%zu]", i);
		base = p.len;
		if (!json_is_object(g)) {
			ret = jsonr_fail_value(c, p.buf, g, "is not an object (expected {\"name\": ..., \"placement\": {...}})");
			goto out;
		}
		if ((ret = jsonr_get_keys(c, g, p.buf, keys)) < 0 || (ret = jsonr_get_str(c, g, p.buf, "name", true, &name)) < 0)
			goto out;
		if ((ret = jsonr_get_obj(c, g, p.buf, "placement", true, &pl)) < 0)
			goto out;
		map = xcalloc(json_object_size(pl) + 1, sizeof(*map));
		each = xcalloc(cfg->ndrives + 1, sizeof(*each));
		ret = load_placement(c, pl, &p, cfg, list.buf, map, &nmap, each, &neach, vms, &nvms, &vms_list);
		p.len = base;
		p.buf[base] = '\0';
		if (ret == 0 && (th = json_object_get(g, "threads"))) {
			strbuf_adds(&p, ".threads");
			ret = get_sweep(c, p.buf, th, 100000, "a thread count", &th_list, thr, &nth);
			p.len = base;
			p.buf[base] = '\0';
		}
		if (ret < 0) {
			free(map);
			free(each);
			goto out;
		}
		/* Every point of the sweeps, and on each drive in turn. */
		for (size_t v = 0; v < (neach ? nvms : 1) && ret == 0; v++) {
			for (size_t t = 0; t < nth && ret == 0; t++) {
				strbuf_reset(&nm);
				strbuf_adds(&nm, name);
				if (vms_list)
					strbuf_addf(&nm, ", %u VM%s", vms[v], vms[v] == 1 ? "" : "s");
				if (th_list)
					strbuf_addf(&nm, ", %u thread%s", thr[t], thr[t] == 1 ? "" : "s");
				strbuf_reset(&slug);
				slugify(nm.buf, &slug);
				if (!slug.len || slug.len > 64) {
					strbuf_adds(&p, ".name");
					ret = jsonr_fail_value(c, p.buf, json_object_get(g, "name"),
						       "does not make a folder name (expected 1..64 letters or digits, other characters become '-')");
					break;
				}
				for (size_t j = 0; j < first; j++) {
					if (!strcmp(cfg->groups[j].slug, slug.buf)) {
						struct strbuf w;
						strbuf_init(&w, 0);
						strbuf_addf(&w, "makes the same folder name \"%s\" as .run_groups[%zu].name (expected distinct names)",
							    cfg->groups[j].slug, cfg->groups[j].source);
						strbuf_adds(&p, ".name");
						ret = jsonr_fail_value(c, p.buf, json_object_get(g, "name"), w.buf);
						strbuf_release(&w);
						break;
					}
				}
				for (size_t d = 0; d < (neach ? neach : 1) && ret == 0; d++) {
					struct campaign_group *gr;
					if (cfg->ngroups == MAX_GROUPS) {
						ret = jsonr_fail_value(c, ".run_groups", a,
								       "expands to more than 256 run groups (expected fewer drives or sweep values)");
						break;
					}
					gr = add_group(cfg, &cap);
					gr->name = xstrdup(nm.buf);
					gr->slug = xstrdup(slug.buf);
					gr->source = i;
					gr->threads = thr[t];
					gr->threads_set = thr[t] != 0;
					if (neach) {
						gr->each = true;
						gr->place = xcalloc(1, sizeof(*gr->place));
						gr->place[0].drive = each[d];
						gr->place[0].count = vms[v];
						gr->nplace = 1;
						strbuf_reset(&nm);
						strbuf_addf(&nm, "%s@%s", slug.buf, cfg->drives[each[d]].name);
						gr->id = strbuf_detach(&nm);
						strbuf_adds(&nm, gr->name);
					} else {
						gr->place = xcalloc(nmap, sizeof(*gr->place));
						memcpy(gr->place, map, nmap * sizeof(*map));
						gr->nplace = nmap;
						gr->id = xstrdup(slug.buf);
					}
					for (size_t k = 0; k < gr->nplace; k++)
						gr->instances += gr->place[k].count;
				}
			}
		}
		free(map);
		free(each);
		if (ret < 0)
			goto out;
	}
out:
	strbuf_release(&p);
	strbuf_release(&slug);
	strbuf_release(&list);
	strbuf_release(&nm);
	return ret;
}

static int load_percentiles(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	json_t *a = json_object_get(root, "percentiles");
	struct strbuf p;
	int ret = 0;

	if (!a) {
		cfg->npercentiles = 2;
		cfg->percentiles = xcalloc(2, sizeof(double));
		cfg->percentiles[0] = 95;
		cfg->percentiles[1] = 99;
		return 0;
	}
	/* The drivers' --percentile takes at most RESULT_MAX_PERCENTILES values. */
	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > RESULT_MAX_PERCENTILES) {
		char what[96];
		snprintf(what, sizeof(what), "is not an array of 1..%d percentiles (expected e.g. [95, 99])",
			 RESULT_MAX_PERCENTILES);
		return jsonr_fail_value(c, ".percentiles", a, what);
	}
	cfg->npercentiles = json_array_size(a);
	cfg->percentiles = xcalloc(cfg->npercentiles, sizeof(double));
	strbuf_init(&p, 0);
	for (size_t i = 0; i < cfg->npercentiles; i++) {
		json_t *v = json_array_get(a, i);
		double x = json_is_number(v) ? json_number_value(v) : -1;

		strbuf_reset(&p);
		strbuf_addf(&p, ".percentiles[%zu]", i);
		if (!json_is_number(v) || !isfinite(x) || x <= 0 || x >= 100) {
			ret = jsonr_fail_value(c, p.buf, v, "is not a percentile (expected a number greater than 0 and less than 100)");
			break;
		}
		cfg->percentiles[i] = x;
	}
	strbuf_release(&p);
	return ret;
}

/* "sessions": "pool" (the default: the terminals share `threads`
 * connections) or "terminals" (one session per terminal, as Benchmark
 * Factory runs its virtual users: the instance's connections are its
 * terminals). tpcc only. */
static int load_sessions(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	const char *s = NULL;
	int ret;

	if ((ret = jsonr_get_str(c, root, "", "sessions", false, &s)) < 0 || !s)
		return ret;
	if (strcmp(s, "pool") && strcmp(s, "terminals"))
		return jsonr_fail_value(c, ".sessions", json_object_get(root, "sessions"),
				"is not a session mode (expected pool or terminals)");
	if (!strcmp(s, "pool"))
		return 0;
	if (cfg->workload != &workload_tpcc)
		return jsonr_fail_value(c, ".sessions", json_object_get(root, "sessions"),
				"is for tpcc workloads (sysbench's threads are its sessions)");
	if (json_object_get(root, "threads"))
		return jsonr_fail_value(c, ".threads", json_object_get(root, "threads"),
				"is set with \"sessions\": \"terminals\" (expected no threads: the connections are the "
				"terminals, workload.options.terminals or 10 per warehouse)");
	unsigned long long t = cfg->terminals ? cfg->terminals : 10ULL * cfg->warehouses;
	if (t > 100000)
		return jsonr_failf(c, ".sessions", "\"terminals\" would open %llu sessions per instance (expected at most 100000: "
			    "fewer terminals or a pool)", t);
	cfg->threads = (unsigned)t;
	cfg->sessions_per_terminal = true;
	return 0;
}

/*
 * "golden": "once" (the default: one load on golden_drive, default the first drive
 * with instances, cloned to the others) or "per-drive" (every drive loads its own).
 */
static int load_golden(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	const char *mode = "once", *drive = NULL;
	int ret;

	if ((ret = jsonr_get_str(c, root, "", "golden", false, &mode)) < 0 ||
	    (ret = jsonr_get_str(c, root, "", "golden_drive", false, &drive)) < 0)
		return ret;
	if (strcmp(mode, "once") && strcmp(mode, "per-drive"))
		return jsonr_fail_value(c, ".golden", json_object_get(root, "golden"),
					"is not a golden mode (expected \"once\": one load cloned to every drive, "
					"or \"per-drive\")");
	cfg->golden_source = -1;
	if (!strcmp(mode, "per-drive")) {
		if (drive)
			return jsonr_fail_value(c, ".golden_drive", json_object_get(root, "golden_drive"),
						"names the drive of a load cloned to the others (expected no golden_drive "
						"with \"golden\": \"per-drive\")");
		return 0;
	}
	for (size_t d = 0; d < cfg->ndrives && cfg->golden_source < 0; d++)
		if (drive ? !strcmp(drive, cfg->drives[d].name) : campaign_drive_instances(cfg, d) > 0)
			cfg->golden_source = (long)d;
	if (drive && cfg->golden_source < 0)
		return jsonr_fail_value(c, ".golden_drive", json_object_get(root, "golden_drive"),
					"is not a drive of this campaign (expected the name of one of .drives)");
	if (drive && campaign_drive_instances(cfg, (size_t)cfg->golden_source) == 0)
		return jsonr_fail_value(c, ".golden_drive", json_object_get(root, "golden_drive"),
					"is a drive no run group places an instance on (expected a drive with instances)");
	return 0;
}

static int load(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {
		"name", "description", "workload", "engine", "target", "drives", "run_groups", "precondition",
		"sample", "repetitions", "threads", "sessions", "rate", "report_interval", "percentiles", "output",
		"verify_restore", "keep", "telemetry", "steady_window", "golden", "golden_drive", "delivery_log", NULL,
	};
	const char *name = NULL, *desc = NULL;
	uint64_t n;
	int ret;

	if (!json_is_object(root))
		return jsonr_fail_value(c, ".", root, "is not a campaign (expected a JSON object)");
	if ((ret = jsonr_get_keys(c, root, "", keys)) < 0)
		return ret;
	if ((ret = jsonr_get_str(c, root, "", "name", true, &name)) < 0)
		return ret;
	if (!is_name(name))
		return jsonr_fail_value(c, ".name", json_object_get(root, "name"),
				"is not a campaign name (expected up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit)");
	cfg->name = xstrdup(name);
	if ((ret = jsonr_get_str(c, root, "", "description", false, &desc)) < 0)
		return ret;
	if ((ret = load_workload(c, root, cfg)) < 0 || (ret = load_engine(c, root, cfg)) < 0 ||
	    (ret = load_target(c, root, cfg)) < 0 || (ret = load_drives(c, root, cfg)) < 0 ||
	    (ret = load_groups(c, root, cfg)) < 0)
		return ret;

	cfg->precondition_ns = UINT64_C(7200) * 1000000000;
	cfg->sample_ns = UINT64_C(3600) * 1000000000;
	cfg->report_interval_ns = UINT64_C(10) * 1000000000;
	if ((ret = jsonr_get_duration(c, root, "", "precondition", 0, &cfg->precondition_ns)) < 0 ||
	    (ret = jsonr_get_duration(c, root, "", "sample", 1000000000, &cfg->sample_ns)) < 0 ||
	    (ret = jsonr_get_duration(c, root, "", "report_interval", 1000000000, &cfg->report_interval_ns)) < 0)
		return ret;
	n = 1;
	if ((ret = jsonr_get_uint(c, root, "", "repetitions", 1, 1000, &n)) < 0)
		return ret;
	cfg->repetitions = (unsigned)n;
	n = 32;
	if ((ret = jsonr_get_uint(c, root, "", "threads", 1, 100000, &n)) < 0)
		return ret;
	cfg->threads = (unsigned)n;
	if ((ret = load_sessions(c, root, cfg)) < 0)
		return ret;
	for (size_t g = 0; g < cfg->ngroups; g++) {
		if (cfg->groups[g].threads_set && cfg->sessions_per_terminal) {
			char path[48];
			snprintf(path, sizeof(path), ".run_groups[%zu].threads", cfg->groups[g].source);
			return jsonr_failf(c, path, "is set with \"sessions\": \"terminals\" (expected no threads: the "
					   "connections are the terminals)");
		}
		if (!cfg->groups[g].threads_set)
			cfg->groups[g].threads = cfg->threads;
	}
	n = 0;
	if ((ret = jsonr_get_uint(c, root, "", "rate", 0, 1000000000, &n)) < 0)
		return ret;
	if (n && !cfg->workload->rate_option) {
		struct strbuf sb;

		strbuf_init(&sb, 0);
		strbuf_adds(&sb, "is for ");
		for (const struct workload_desc *const *w = workloads; *w; w++)
			if ((*w)->rate_option)
				strbuf_addf(&sb, "%s%s", sb.len > 7 ? " or " : "", (*w)->name);
		strbuf_addf(&sb, " workloads (%s)", cfg->workload->pacing);
		ret = jsonr_fail_value(c, ".rate", json_object_get(root, "rate"), sb.buf);
		strbuf_release(&sb);
		return ret;
	}
	cfg->rate = n;
	if ((ret = load_percentiles(c, root, cfg)) < 0)
		return ret;
	cfg->output = xstrdup("results");
	if ((ret = jsonr_get_path(c, root, "", "output", &cfg->output)) < 0)
		return ret;
	cfg->telemetry = true;
	if ((ret = jsonr_get_bool(c, root, "", "verify_restore", &cfg->verify_restore)) < 0 ||
	    (ret = jsonr_get_bool(c, root, "", "keep", &cfg->keep)) < 0 ||
	    (ret = jsonr_get_bool(c, root, "", "telemetry", &cfg->telemetry)) < 0 ||
	    (ret = jsonr_get_bool(c, root, "", "delivery_log", &cfg->delivery_log)) < 0)
		return ret;
	/* The Delivery log of clause 2.7.4.2 (dbrig tpcc run --delivery-log), one per run. */
	if (cfg->delivery_log && cfg->workload != &workload_tpcc)
		return jsonr_fail_value(c, ".delivery_log", json_object_get(root, "delivery_log"),
					"is for tpcc workloads (expected no delivery_log)");
	n = STEADY_DEFAULT_WINDOW;
	if ((ret = jsonr_get_uint(c, root, "", "steady_window", STEADY_MIN_WINDOW, 1000000, &n)) < 0)
		return ret;
	cfg->steady_window = (unsigned)n;
	if ((ret = load_golden(c, root, cfg)) < 0)
		return ret;
	fill_env(cfg);
	return cfg->target->validate(&cfg->env);
}

const char *const campaign_measured_fields[CAMPAIGN_MEASURED_FIELDS] = {
	"workload", "engine", "target", "drives", "run_groups", "precondition", "sample", "report_interval",
	"repetitions", "threads", "sessions", "rate", "percentiles", "golden",
};

/* FNV-1a 64 of the field's compact, key-sorted JSON: a change detector, not a secret. */
static void measured_digests(json_t *root, struct campaign_config *cfg)
{
	for (size_t i = 0; i < CAMPAIGN_MEASURED_FIELDS; i++) {
		json_t *v = json_object_get(root, campaign_measured_fields[i]);
		char *text = v ? json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;
		uint64_t h = UINT64_C(14695981039346656037);

		if (!text) {
			snprintf(cfg->measured[i], sizeof(cfg->measured[i]), "absent");
			continue;
		}
		for (const unsigned char *s = (const unsigned char *)text; *s; s++)
			h = (h ^ *s) * UINT64_C(1099511628211);
		/* golden_drive belongs with golden: which drive's load is cloned. */
		if (!strcmp(campaign_measured_fields[i], "golden") && json_object_get(root, "golden_drive"))
			for (const char *s = json_string_value(json_object_get(root, "golden_drive")); s && *s; s++)
				h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
		snprintf(cfg->measured[i], sizeof(cfg->measured[i]), "%016llx", (unsigned long long)h);
		free(text);
	}
}

int campaign_config_load(const char *file, struct campaign_config **out)
{
	struct campaign_config *cfg = xcalloc(1, sizeof(*cfg));
	struct jsonr c = {.file = file, .show_max = 80};
	json_error_t jerr;
	json_t *root = NULL;
	char *text = NULL;
	size_t len = 0;
	int ret;

	cfg->file = xstrdup(file);
	ret = read_file(file, &text, &len);
	if (ret < 0) {
		log_error("%s: cannot read the campaign file: %s%s", file, read_file_strerror(ret),
			  ret == -EINVAL || ret == -EFBIG ? " (expected a JSON campaign file)" : "");
		/* A FIFO, a device or a huge file is a wrong argument (exit 2); a missing one a runtime error. */
		if (ret == -EFBIG)
			ret = -EINVAL;
		goto out;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		struct strbuf why;
		strbuf_init(&why, 0);
		strbuf_add_oneline(&why, jerr.text);
		log_error("%s: line %d column %d: %s (expected a JSON campaign file)", file, jerr.line, jerr.column,
			  why.buf);
		strbuf_release(&why);
		ret = -EINVAL;
		goto out;
	}
	ret = load(&c, root, cfg);
	if (ret < 0)
		goto out;
	measured_digests(root, cfg);
	*out = cfg;
	cfg = NULL;
out:
	json_decref(root);
	free(text);
	campaign_config_free(cfg);
	return ret;
}

void campaign_config_free(struct campaign_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->file);
	free(cfg->name);
	free(cfg->test);
	kv_free(cfg->wl_options, cfg->nwl_options);
	kv_free(cfg->server_options, cfg->nserver_options);
	if (cfg->target)
		target_settings_free(cfg->target, cfg->target_settings);
	free(cfg->drive_instances);
	free(cfg->log_dir);
	for (size_t i = 0; i < cfg->ndrives; i++) {
		free(cfg->drives[i].name);
		free(cfg->drives[i].path);
		free(cfg->drives[i].pool);
		free(cfg->drives[i].host);
		free(cfg->drives[i].model);
	}
	free(cfg->drives);
	for (size_t i = 0; i < cfg->ngroups; i++) {
		free(cfg->groups[i].name);
		free(cfg->groups[i].slug);
		free(cfg->groups[i].id);
		free(cfg->groups[i].place);
	}
	free(cfg->groups);
	free(cfg->percentiles);
	free(cfg->output);
	free(cfg);
}

unsigned campaign_drive_instances(const struct campaign_config *cfg, size_t d)
{
	unsigned max = 0;

	for (size_t g = 0; g < cfg->ngroups; g++)
		for (size_t i = 0; i < cfg->groups[g].nplace; i++)
			if (cfg->groups[g].place[i].drive == d && cfg->groups[g].place[i].count > max)
				max = cfg->groups[g].place[i].count;
	return max;
}

void campaign_percentiles_arg(const struct campaign_config *cfg, struct strbuf *sb)
{
	for (size_t i = 0; i < cfg->npercentiles; i++)
		strbuf_addf(sb, "%s%g", i ? "," : "", cfg->percentiles[i]);
}
