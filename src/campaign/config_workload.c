/*
 * The campaign file's sections on what is run (config.c reads the rest):
 * .workload (its kind, test and options, and the scale those set), .engine
 * (its kind, buffer pool and server options) and .target (its kind; the
 * target reads its own settings), with the reader of an object of scalar
 * options that .workload.options and .engine.server_options share.
 */
#include "campaign/config.h"
#include "campaign/config_int.h"
#include "campaign/driver.h"

#include "core/features.h"
#include "core/jsonr.h"
#include "core/strbuf.h"
#include "core/units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static bool is_option_key(const char *s)
{
	if (!*s || strlen(s) > 64 || !islower((unsigned char)s[0]))
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
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
	json_t *o = jsonr_obj(c, obj, jpath, key, 0), *v;
	const char *k;
	struct strbuf p, val;
	size_t n = 0;
	int ret = jsonr_status(c);

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

/* The index of the workload's scale option `name` in scale_opts and scale_values, or -1. */
static ptrdiff_t scale_index(const struct campaign_config *cfg, const char *name)
{
	const struct workload_scale_opt *o = cfg->workload && name ? workload_scale_opt(cfg->workload, name) : NULL;

	return o ? o - cfg->workload->scale_opts : -1;
}

int64_t *campaign_scale_ref(struct campaign_config *cfg, const char *name)
{
	ptrdiff_t k = scale_index(cfg, name);

	return k < 0 ? NULL : &cfg->scale_values[k];
}

uint64_t campaign_scale_value(const struct campaign_config *cfg, const char *name)
{
	const char *star = name ? strchr(name, '*') : NULL;
	ptrdiff_t k;
	char a[64];

	if (star) {
		snprintf(a, sizeof(a), "%.*s", (int)(star - name), name);
		return campaign_scale_value(cfg, a) * campaign_scale_value(cfg, star + 1);
	}
	k = scale_index(cfg, name);
	return k < 0 ? 0 : (uint64_t)cfg->scale_values[k];
}

void campaign_workload_text(const struct campaign_config *cfg, const char *tmpl, struct strbuf *out)
{
	for (const char *p = tmpl; *p;) {
		const char *end = *p == '{' ? strchr(p, '}') : NULL;
		char name[64];

		if (!end || (size_t)(end - p) > sizeof(name)) {
			strbuf_addc(out, *p++);
			continue;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(end - p - 1), p + 1);
		p = end + 1;
		if (!strcmp(name, "test")) {
			strbuf_adds(out, cfg->test);
		} else if (!strcmp(name, "threads")) {
			strbuf_addf(out, "%u", cfg->threads);
		} else {
			strbuf_addf(out, "%" PRIu64, campaign_scale_value(cfg, name));
		}
	}
}

/* .workload: its kind, its test (one of the kind's) and its options, the scale among them checked against the workload's ranges. */
int config_load_workload(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"kind", "test", "options", NULL};
	json_t *w = jsonr_obj(c, root, "", "workload", JSONR_REQUIRED);
	const char *kind, *test;
	int ret;

	if ((ret = jsonr_status(c)) < 0 || (ret = jsonr_keys(c, w, ".workload", keys)) < 0)
		return ret;
	kind = jsonr_str(c, w, ".workload", "kind", JSONR_REQUIRED | JSONR_NONEMPTY, NULL);
	if ((ret = jsonr_status(c)) < 0)
		return ret;
	cfg->workload = workload_find(kind);
	if (!cfg->workload) {
		struct strbuf sb;
		strbuf_init(&sb, 0);
		strbuf_adds(&sb, "is not a workload (expected ");
		workload_names(&sb);
		strbuf_addc(&sb, ')');
		ret = jsonr_fail_key(c, w, ".workload", "kind", sb.buf);
		strbuf_release(&sb);
		return ret;
	}
	/* A workload with tests needs one; a one-test workload takes its name or nothing. */
	test = jsonr_str(c, w, ".workload", "test", (cfg->workload->tests ? JSONR_REQUIRED : 0) | JSONR_NONEMPTY, NULL);
	if ((ret = jsonr_status(c)) < 0)
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
		ret = jsonr_fail_key(c, w, ".workload", "test", sb.buf);
		strbuf_release(&sb);
		return ret;
	}
	cfg->test = xstrdup(test ? test : cfg->workload->name);
	if ((ret = get_options(c, w, ".workload", "options", true, &cfg->wl_options, &cfg->nwl_options)) < 0)
		return ret;

	for (size_t k = 0; cfg->workload->scale_opts && cfg->workload->scale_opts[k].name; k++)
		cfg->scale_values[k] = cfg->workload->scale_opts[k].dflt;
	const char *wkey;
	json_t *wval;
	size_t i = 0;
	json_object_foreach(jsonr_obj(c, w, ".workload", "options", 0), wkey, wval) {
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
				 cfg->workload->delivery_log ? ", delivery_log (one log per run)" : "");
		} else if ((so = workload_scale_opt(cfg->workload, o->key))) {
			if (parse_int64(o->value, so->min, so->max, &n) < 0)
				r = jsonr_failf(c, p.buf, "\"%s\" is not an integer in %" PRId64 "..%" PRId64, o->value,
						so->min, so->max);
			else
				cfg->scale_values[so - cfg->workload->scale_opts] = n;
		}
		strbuf_release(&p);
		if (r < 0)
			return r;
	}
	cfg->scale = (unsigned)campaign_scale_value(cfg, cfg->workload->scale_option);
	return 0;
}

static bool speaks_mysql(const struct db_engine *e)
{
	return e->protocol == DB_PROTO_MYSQL;
}

int config_load_engine(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"kind", "buffer_pool", "server_options", NULL};
	json_t *e = jsonr_obj(c, root, "", "engine", JSONR_REQUIRED);
	const char *kind;
	struct strbuf sb;
	int ret;

	if ((ret = jsonr_status(c)) < 0 || (ret = jsonr_keys(c, e, ".engine", keys)) < 0)
		return ret;
	kind = jsonr_str(c, e, ".engine", "kind", JSONR_REQUIRED | JSONR_NONEMPTY, NULL);
	if ((ret = jsonr_status(c)) < 0)
		return ret;
	strbuf_init(&sb, 0);
	cfg->engine = db_engine_find(kind);
	if (!cfg->engine) {
		strbuf_adds(&sb, "is not a database engine (expected ");
		db_engine_names(&sb, NULL);
		strbuf_addc(&sb, ')');
		ret = jsonr_fail_key(c, e, ".engine", "kind", sb.buf);
	} else if (cfg->workload->mysql_only && cfg->engine->protocol != DB_PROTO_MYSQL) {
		strbuf_addf(&sb, "cannot run the %s workload (expected ", cfg->workload->name);
		db_engine_names(&sb, speaks_mysql);
		strbuf_addc(&sb, ')');
		ret = jsonr_fail_key(c, e, ".engine", "kind", sb.buf);
	} else if (cfg->engine->odbc_connect && features_left_out("odbc")) {
		strbuf_addf(&sb, "is driven through ODBC, which this dbrig is built without (cmake -D%s=ON)",
			    features_left_out("odbc"));
		ret = jsonr_fail_key(c, e, ".engine", "kind", sb.buf);
	}
	strbuf_release(&sb);
	if (ret < 0)
		return ret;
	cfg->buffer_pool = jsonr_size(c, e, ".engine", "buffer_pool", 0, UINT64_C(128) << 20);
	if ((ret = jsonr_status(c)) < 0)
		return ret;
	if (cfg->buffer_pool < (UINT64_C(8) << 20))
		return jsonr_fail_key(c, e, ".engine", "buffer_pool", "is too small (expected at least 8M)");
	return get_options(c, e, ".engine", "server_options", false, &cfg->server_options, &cfg->nserver_options);
}

int config_load_target(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	json_t *t = jsonr_obj(c, root, "", "target", JSONR_REQUIRED);
	const char *kind = jsonr_str(c, t, ".target", "kind", JSONR_REQUIRED | JSONR_NONEMPTY, NULL);
	int ret;

	if ((ret = jsonr_status(c)) < 0)
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
		ret = jsonr_fail_key(c, t, ".target", "kind", sb.buf);
		strbuf_release(&sb);
		return ret;
	}
	return target_settings_read(c, cfg->target, t, &cfg->target_settings);
}
