/*
 * The campaign file's sections on where it runs (config.c reads the rest):
 * .drives, and .run_groups with their placement ({"drive": count, ...} or
 * {"each": [...], "vms": N}) and their "vms" and "threads" sweeps, each
 * expanded into one campaign_group per point and, for "each", per drive
 * (campaign/config.h).
 */
#include "campaign/config.h"
#include "campaign/config_int.h"

#include "core/jsonr.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DRIVES 256
#define MAX_GROUPS 256
#define MAX_PER_DRIVE 1024
#define MAX_SWEEP 16

int config_load_drives(struct jsonr *c, json_t *root, struct campaign_config *cfg)
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
		const char *name, *s;

		strbuf_reset(&p);
		strbuf_addf(&p, ".drives[%zu]", i);
		if (!json_is_object(d)) {
			ret = jsonr_fail_value(c, p.buf, d, "is not an object (expected {\"name\": ..., \"path\": ...})");
			goto out;
		}
		if ((ret = jsonr_keys(c, d, p.buf, keys)) < 0)
			goto out;
		name = jsonr_str(c, d, p.buf, "name", JSONR_REQUIRED | JSONR_NONEMPTY, NULL);
		if ((ret = jsonr_status(c)) < 0)
			goto out;
		if (!config_is_name(name)) {
			ret = jsonr_fail_key(c, d, p.buf, "name",
				       "is not a drive name (expected up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit)");
			goto out;
		}
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(cfg->drives[j].name, name)) {
				ret = jsonr_fail_key(c, d, p.buf, "name", "is used by another drive (expected unique names)");
				goto out;
			}
		}
		dr->name = xstrdup(name);
		dr->path = jsonr_path(c, d, p.buf, "path", 0, NULL);
		s = jsonr_str(c, d, p.buf, "pool", JSONR_NONEMPTY, NULL);
		dr->pool = s ? xstrdup(s) : NULL;
		if ((ret = jsonr_status(c)) < 0)
			goto out;
		if (dr->path && dr->pool) {
			ret = jsonr_failf(c, p.buf, "has both \"path\" and \"pool\" (expected one of them)");
			goto out;
		}
		if (!dr->path && !dr->pool) {
			ret = jsonr_failf(c, p.buf, "has neither \"path\" nor \"pool\" (expected one of them)");
			goto out;
		}
		s = jsonr_str(c, d, p.buf, "host", JSONR_NONEMPTY, NULL);
		dr->host = s ? xstrdup(s) : NULL;
		s = jsonr_str(c, d, p.buf, "model", JSONR_NONEMPTY, NULL);
		dr->model = s ? xstrdup(s) : NULL;
		if ((ret = jsonr_status(c)) < 0)
			goto out;
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
		if ((ret = jsonr_keys(c, pl, p->buf, keys)) < 0)
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

/*
 * Every point of the sweeps of .run_groups[i], and on each drive in turn: one
 * campaign_group each, after the groups of the entries before it. p is the
 * entry's path.
 */
static int expand_group(struct jsonr *c, json_t *a, json_t *g, size_t i, const char *name, struct strbuf *p,
			struct campaign_config *cfg, size_t *cap, const struct campaign_placement *map, size_t nmap,
			const size_t *each, size_t neach, const unsigned *vms, size_t nvms, bool vms_list,
			const unsigned *thr, size_t nth, bool th_list)
{
	struct strbuf slug, nm;
	size_t first = cfg->ngroups;
	int ret = 0;

	strbuf_init(&slug, 0);
	strbuf_init(&nm, 0);
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
				ret = jsonr_fail_key(c, g, p->buf, "name",
					       "does not make a folder name (expected 1..64 letters or digits, other characters become '-')");
				break;
			}
			for (size_t j = 0; j < first; j++) {
				if (!strcmp(cfg->groups[j].slug, slug.buf)) {
					struct strbuf w;
					strbuf_init(&w, 0);
					strbuf_addf(&w, "makes the same folder name \"%s\" as .run_groups[%zu].name (expected distinct names)",
						    cfg->groups[j].slug, cfg->groups[j].source);
					ret = jsonr_fail_key(c, g, p->buf, "name", w.buf);
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
				gr = add_group(cfg, cap);
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
	strbuf_release(&slug);
	strbuf_release(&nm);
	return ret;
}

int config_load_groups(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"name", "placement", "threads", NULL};
	json_t *a = json_object_get(root, "run_groups");
	struct strbuf p, list;
	size_t cap = 0;
	int ret = 0;

	if (!a)
		return jsonr_failf(c, ".run_groups", "missing (expected an array of run groups)");
	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > MAX_GROUPS)
		return jsonr_fail_value(c, ".run_groups", a, "is not an array of 1..256 run groups");
	strbuf_init(&p, 0);
	strbuf_init(&list, 0);
	for (size_t i = 0; i < cfg->ndrives; i++)
		strbuf_addf(&list, "%s%s", i ? ", " : "", cfg->drives[i].name);
	for (size_t i = 0; i < json_array_size(a); i++) {
		json_t *g = json_array_get(a, i), *pl, *th;
		const char *name;
		struct campaign_placement *map = NULL;
		size_t *each = NULL, nmap = 0, neach = 0, nvms = 0, nth = 1, base;
		unsigned vms[MAX_SWEEP], thr[MAX_SWEEP] = {0};
		bool vms_list = false, th_list = false;

		strbuf_reset(&p);
		strbuf_addf(&p, ".run_groups[%zu]", i);
		base = p.len;
		if (!json_is_object(g)) {
			ret = jsonr_fail_value(c, p.buf, g, "is not an object (expected {\"name\": ..., \"placement\": {...}})");
			goto out;
		}
		if ((ret = jsonr_keys(c, g, p.buf, keys)) < 0)
			goto out;
		name = jsonr_str(c, g, p.buf, "name", JSONR_REQUIRED | JSONR_NONEMPTY, NULL);
		pl = jsonr_obj(c, g, p.buf, "placement", JSONR_REQUIRED);
		if ((ret = jsonr_status(c)) < 0)
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
		ret = expand_group(c, a, g, i, name, &p, cfg, &cap, map, nmap, each, neach, vms, nvms, vms_list, thr, nth,
				   th_list);
		free(map);
		free(each);
		if (ret < 0)
			goto out;
	}
out:
	strbuf_release(&p);
	strbuf_release(&list);
	return ret;
}
