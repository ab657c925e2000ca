/*
 * The campaign config reader. The first invalid field stops the load with one
 * message: a config is short, and one precise line is easier to act on than a
 * cascade. Unknown fields are errors too, so a typo never silently falls back
 * to a default.
 */
#include "campaign/config.h"

#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "result/result.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DRIVES 256
#define MAX_GROUPS 256
#define MAX_PER_DRIVE 1024

struct ctx {
	const char *file;
};

const char *workload_kind_name(enum workload_kind k)
{
	switch (k) {
	case WORKLOAD_SYSBENCH:
		return "sysbench";
	case WORKLOAD_TPCC:
		return "tpcc";
	}
	return "?";
}

const char *engine_kind_name(enum engine_kind k)
{
	switch (k) {
	case ENGINE_MARIADB:
		return "mariadb";
	case ENGINE_PERCONA:
		return "percona";
	case ENGINE_MYSQL:
		return "mysql";
	case ENGINE_POSTGRESQL:
		return "postgresql";
	case ENGINE_SQLSERVER:
		return "sqlserver";
	}
	return "?";
}

static void verr(const char *file, const char *jpath, const char *fmt, va_list ap)
{
	struct strbuf sb;

	strbuf_init(&sb, 0);
	strbuf_vaddf(&sb, fmt, ap);
	log_error("%s: %s: %s", file, jpath, sb.buf);
	strbuf_release(&sb);
}

void campaign_config_error(const struct campaign_config *cfg, const char *jpath, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(cfg->file, jpath, fmt, ap);
	va_end(ap);
}

static int fail(struct ctx *c, const char *jpath, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct ctx *c, const char *jpath, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(c->file, jpath, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The value as it appears in the file, shortened for a message. */
static void show(const json_t *v, struct strbuf *sb)
{
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

	if (!s) {
		strbuf_adds(sb, "?");
		return;
	}
	if (strlen(s) > 80) {
		strbuf_add(sb, s, 77);
		strbuf_adds(sb, "...");
	} else {
		strbuf_adds(sb, s);
	}
	free(s);
}

static int fail_val(struct ctx *c, const char *jpath, const json_t *v, const char *what)
{
	struct strbuf sb;

	strbuf_init(&sb, 0);
	show(v, &sb);
	fail(c, jpath, "%s %s", sb.buf, what);
	strbuf_release(&sb);
	return -EINVAL;
}

static void path_key(struct strbuf *sb, const char *base, const char *key)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s.%s", base, key);
}

static int check_keys(struct ctx *c, json_t *obj, const char *jpath, const char *const *allowed)
{
	const char *key;
	json_t *v;
	struct strbuf p, list;
	int ret = 0;

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
		path_key(&p, jpath, key);
		ret = fail(c, p.buf, "unknown field (expected one of: %s)", list.buf);
		goto out;
	}
out:
	strbuf_release(&p);
	strbuf_release(&list);
	return ret;
}

/* Field getters: absent -> *out untouched and 0 (or an error when required). */
static int get_obj(struct ctx *c, json_t *obj, const char *jpath, const char *key, bool req, json_t **out)
{
	struct strbuf p;
	json_t *v = json_object_get(obj, key);
	int ret = 0;

	strbuf_init(&p, 0);
	path_key(&p, jpath, key);
	if (!v) {
		if (req)
			ret = fail(c, p.buf, "missing (expected an object)");
	} else if (!json_is_object(v)) {
		ret = fail_val(c, p.buf, v, "is not an object");
	} else {
		*out = v;
	}
	strbuf_release(&p);
	return ret;
}

static int get_str(struct ctx *c, json_t *obj, const char *jpath, const char *key, bool req, const char **out)
{
	struct strbuf p;
	json_t *v = json_object_get(obj, key);
	int ret = 0;

	strbuf_init(&p, 0);
	path_key(&p, jpath, key);
	if (!v) {
		if (req)
			ret = fail(c, p.buf, "missing (expected a string)");
	} else if (!json_is_string(v)) {
		ret = fail_val(c, p.buf, v, "is not a string");
	} else if (!json_string_length(v) || strlen(json_string_value(v)) != json_string_length(v)) {
		ret = fail_val(c, p.buf, v, "is empty or holds a NUL (expected a non-empty string)");
	} else {
		*out = json_string_value(v);
	}
	strbuf_release(&p);
	return ret;
}

static int get_uint(struct ctx *c, json_t *obj, const char *jpath, const char *key, uint64_t min, uint64_t max,
		    uint64_t *out)
{
	struct strbuf p, why;
	json_t *v = json_object_get(obj, key);
	int ret = 0;

	strbuf_init(&p, 0);
	strbuf_init(&why, 0);
	path_key(&p, jpath, key);
	if (!v)
		goto out;
	strbuf_addf(&why, "is not an integer in %llu..%llu", (unsigned long long)min, (unsigned long long)max);
	if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) < min ||
	    (uint64_t)json_integer_value(v) > max)
		ret = fail_val(c, p.buf, v, why.buf);
	else
		*out = (uint64_t)json_integer_value(v);
out:
	strbuf_release(&p);
	strbuf_release(&why);
	return ret;
}

static int get_bool(struct ctx *c, json_t *obj, const char *jpath, const char *key, bool *out)
{
	struct strbuf p;
	json_t *v = json_object_get(obj, key);
	int ret = 0;

	strbuf_init(&p, 0);
	path_key(&p, jpath, key);
	if (v && !json_is_boolean(v))
		ret = fail_val(c, p.buf, v, "is not a boolean (expected true or false)");
	else if (v)
		*out = json_is_true(v);
	strbuf_release(&p);
	return ret;
}

/* A duration: "30s", "2h", "1h30m" or an integer number of seconds; whole seconds only. */
static int parse_duration_value(struct ctx *c, const char *jpath, const json_t *v, uint64_t min_ns, uint64_t *out)
{
	uint64_t ns = 0;
	const char *why = NULL;

	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 315360000) {
		ns = (uint64_t)json_integer_value(v) * UINT64_C(1000000000);
	} else if (json_is_string(v)) {
		if (parse_duration_ns(json_string_value(v), &ns, &why) < 0) {
			struct strbuf sb;
			strbuf_init(&sb, 0);
			strbuf_addf(&sb, "is not a duration (%s)", why ? why : "expected a number with unit s, m, h or d");
			fail_val(c, jpath, v, sb.buf);
			strbuf_release(&sb);
			return -EINVAL;
		}
	} else {
		return fail_val(c, jpath, v, "is not a duration (expected a string such as \"30s\", \"2h\" or an integer number of seconds)");
	}
	if (ns % UINT64_C(1000000000))
		return fail_val(c, jpath, v, "is not a whole number of seconds (expected e.g. \"90s\")");
	if (ns < min_ns) {
		struct strbuf sb;
		strbuf_init(&sb, 0);
		strbuf_addf(&sb, "is too short (expected at least %llus)", (unsigned long long)(min_ns / 1000000000));
		fail_val(c, jpath, v, sb.buf);
		strbuf_release(&sb);
		return -EINVAL;
	}
	*out = ns;
	return 0;
}

static int get_duration(struct ctx *c, json_t *obj, const char *jpath, const char *key, uint64_t min_ns, uint64_t *out)
{
	struct strbuf p;
	json_t *v = json_object_get(obj, key);
	int ret = 0;

	strbuf_init(&p, 0);
	path_key(&p, jpath, key);
	if (v)
		ret = parse_duration_value(c, p.buf, v, min_ns, out);
	strbuf_release(&p);
	return ret;
}

static int parse_size_value(struct ctx *c, const char *jpath, const json_t *v, uint64_t *out)
{
	const char *why = NULL;

	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_string(v) && parse_size_bytes(json_string_value(v), out, &why) == 0)
		return 0;
	if (!json_is_string(v))
		return fail_val(c, jpath, v, "is not a size (expected a string such as \"24G\" or an integer number of bytes)");
	struct strbuf sb;
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "is not a size (%s)", why ? why : "expected a number with unit K, M, G or T");
	fail_val(c, jpath, v, sb.buf);
	strbuf_release(&sb);
	return -EINVAL;
}

/* Names that become folder and file names: [A-Za-z0-9][A-Za-z0-9._-]*, at most 64. */
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

/*
 * ${VAR} and ${VAR:-default} in paths, so a shipped config can put its
 * drives under a base the user chooses (local-quick uses DBRIG_QUICK_DIR).
 */
static int expand_vars(struct ctx *c, const char *jpath, const json_t *v, struct strbuf *out)
{
	const char *s = json_string_value(v);

	while (*s) {
		if (s[0] != '$' || s[1] != '{') {
			strbuf_addc(out, *s++);
			continue;
		}
		const char *end = strchr(s, '}');
		if (!end)
			return fail_val(c, jpath, v, "has an unclosed ${ (expected ${NAME} or ${NAME:-default})");
		const char *name = s + 2;
		const char *dflt = strstr(name, ":-");
		size_t nlen = (dflt && dflt < end ? dflt : end) - name;
		char var[128];
		if (!nlen || nlen >= sizeof(var))
			return fail_val(c, jpath, v, "has an empty or too long variable name (expected ${NAME})");
		memcpy(var, name, nlen);
		var[nlen] = '\0';
		const char *val = getenv(var);
		if (val && *val) {
			strbuf_adds(out, val);
		} else if (dflt && dflt < end) {
			strbuf_add(out, dflt + 2, (size_t)(end - dflt - 2));
		} else {
			struct strbuf sb;
			strbuf_init(&sb, 0);
			strbuf_addf(&sb, "uses ${%s}, which is not set (expected it in the environment, or write ${%s:-default})",
				    var, var);
			fail_val(c, jpath, v, sb.buf);
			strbuf_release(&sb);
			return -EINVAL;
		}
		s = end + 1;
	}
	if (!out->len)
		return fail_val(c, jpath, v, "expands to an empty path");
	return 0;
}

static int get_path(struct ctx *c, json_t *obj, const char *jpath, const char *key, char **out)
{
	const char *s = NULL;
	struct strbuf p, val;
	int ret;

	ret = get_str(c, obj, jpath, key, false, &s);
	if (ret < 0 || !s)
		return ret;
	strbuf_init(&p, 0);
	strbuf_init(&val, 0);
	path_key(&p, jpath, key);
	ret = expand_vars(c, p.buf, json_object_get(obj, key), &val);
	if (ret == 0) {
		free(*out);
		*out = strbuf_detach(&val);
	}
	strbuf_release(&p);
	strbuf_release(&val);
	return ret;
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
static int get_options(struct ctx *c, json_t *obj, const char *jpath, const char *key, bool dashes,
		       struct target_kv **out, size_t *nout)
{
	json_t *o = NULL, *v;
	const char *k;
	struct strbuf p, val;
	size_t n = 0;
	int ret;

	ret = get_obj(c, obj, jpath, key, false, &o);
	if (ret < 0 || !o)
		return ret;
	strbuf_init(&p, 0);
	strbuf_init(&val, 0);
	*out = xcalloc(json_object_size(o), sizeof(**out));
	json_object_foreach(o, k, v) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s.%s.%s", jpath, key, k);
		if (!is_option_key(k)) {
			ret = fail(c, p.buf, "is not an option name (expected lower case letters, digits, '_', '-' or '.')");
			goto out;
		}
		strbuf_reset(&val);
		if (scalar_text(v, dashes, &val) < 0) {
			ret = fail_val(c, p.buf, v, "is not a scalar option value (expected a string, number or boolean)");
			goto out;
		}
		char *nk = xstrdup(k);
		for (char *q = nk; dashes && *q; q++)
			if (*q == '_')
				*q = '-';
		for (size_t i = 0; i < n; i++) {
			if (!strcmp((*out)[i].key, nk)) {
				free(nk);
				ret = fail(c, p.buf, "repeats option \"%s\" (expected each option once)", (*out)[i].key);
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

static const char *const sysbench_tests[] = {
	"oltp_read_write", "oltp_read_only", "oltp_write_only", "oltp_point_select",
	"oltp_update_index", "oltp_update_non_index", "oltp_insert", "oltp_delete", NULL,
};

/* Options the campaign sets itself for every driver. */
static bool reserved_option(enum workload_kind wl, const char *k)
{
	static const char *const exact[] = {
		"threads", "time", "events", "precondition", "report-interval", "percentile", "rate", "tx-rate",
		"result", "journal", "db-driver", "help", "verbosity", NULL,
	};
	for (const char *const *e = exact; *e; e++)
		if (!strcmp(*e, k))
			return true;
	/* tpcc: the campaign's threads are the connections the terminals share. */
	if (wl == WORKLOAD_TPCC && !strcmp(k, "connections"))
		return true;
	return !strncmp(k, "run-", 4) || !strncmp(k, "mysql-", 6) || !strncmp(k, "pgsql-", 6) ||
	       !strncmp(k, "odbc-", 5);
}

static int load_workload(struct ctx *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"kind", "test", "options", NULL};
	json_t *w = NULL;
	const char *kind = NULL, *test = NULL;
	int ret;

	if ((ret = get_obj(c, root, "", "workload", true, &w)) < 0)
		return ret;
	if ((ret = check_keys(c, w, ".workload", keys)) < 0)
		return ret;
	if ((ret = get_str(c, w, ".workload", "kind", true, &kind)) < 0)
		return ret;
	if (!strcmp(kind, "sysbench"))
		cfg->workload = WORKLOAD_SYSBENCH;
	else if (!strcmp(kind, "tpcc"))
		cfg->workload = WORKLOAD_TPCC;
	else
		return fail_val(c, ".workload.kind", json_object_get(w, "kind"), "is not a workload (expected sysbench or tpcc)");
	if ((ret = get_str(c, w, ".workload", "test", cfg->workload == WORKLOAD_SYSBENCH, &test)) < 0)
		return ret;
	if (cfg->workload == WORKLOAD_SYSBENCH) {
		bool ok = false;
		for (const char *const *t = sysbench_tests; *t; t++)
			ok = ok || !strcmp(*t, test);
		if (!ok)
			return fail_val(c, ".workload.test", json_object_get(w, "test"),
					"is not a sysbench test (expected oltp_read_write, oltp_read_only, oltp_write_only, "
					"oltp_point_select, oltp_update_index, oltp_update_non_index, oltp_insert or oltp_delete)");
	} else if (test && strcmp(test, "tpcc")) {
		return fail_val(c, ".workload.test", json_object_get(w, "test"), "is not a TPC-C test (expected tpcc or no test)");
	}
	cfg->test = xstrdup(test ? test : "tpcc");
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
		int64_t n;
		int r = 0;

		(void)wval;
		strbuf_init(&p, 0);
		strbuf_addf(&p, ".workload.options.%s", wkey);
		if (reserved_option(cfg->workload, o->key)) {
			r = fail(c, p.buf, "is set by the campaign (use the top-level threads%s, precondition, sample, "
				 "report_interval and percentiles fields)",
				 cfg->workload == WORKLOAD_TPCC ? " (the connections per instance)" : "");
		} else if (cfg->workload == WORKLOAD_TPCC && !strcmp(o->key, "warehouses")) {
			if (parse_int64(o->value, 1, 100000, &n) < 0)
				r = fail(c, p.buf, "\"%s\" is not an integer in 1..100000", o->value);
			else
				cfg->warehouses = (unsigned)n;
		} else if (cfg->workload == WORKLOAD_SYSBENCH && !strcmp(o->key, "tables")) {
			if (parse_int64(o->value, 1, 1000000, &n) < 0)
				r = fail(c, p.buf, "\"%s\" is not an integer in 1..1000000", o->value);
			else
				cfg->tables = (unsigned)n;
		} else if (cfg->workload == WORKLOAD_SYSBENCH && !strcmp(o->key, "table-size")) {
			if (parse_int64(o->value, 1, INT64_C(1000000000000), &n) < 0)
				r = fail(c, p.buf, "\"%s\" is not an integer in 1..1000000000000", o->value);
			else
				cfg->table_size = (uint64_t)n;
		}
		strbuf_release(&p);
		if (r < 0)
			return r;
	}
	return 0;
}

static int load_engine(struct ctx *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"kind", "buffer_pool", "server_options", NULL};
	static const char *const names[] = {"mariadb", "percona", "mysql", "postgresql", "sqlserver"};
	json_t *e = NULL, *bp;
	const char *kind = NULL;
	int ret;
	bool ok = false;

	if ((ret = get_obj(c, root, "", "engine", true, &e)) < 0)
		return ret;
	if ((ret = check_keys(c, e, ".engine", keys)) < 0)
		return ret;
	if ((ret = get_str(c, e, ".engine", "kind", true, &kind)) < 0)
		return ret;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(names[i], kind)) {
			cfg->engine = (enum engine_kind)i;
			ok = true;
		}
	}
	if (!ok)
		return fail_val(c, ".engine.kind", json_object_get(e, "kind"),
				"is not a database engine (expected mariadb, percona, mysql, postgresql or sqlserver)");
	if (cfg->workload == WORKLOAD_SYSBENCH && (cfg->engine == ENGINE_POSTGRESQL || cfg->engine == ENGINE_SQLSERVER))
		return fail_val(c, ".engine.kind", json_object_get(e, "kind"),
				"cannot run the sysbench workload (expected mariadb, percona or mysql)");
	cfg->buffer_pool = UINT64_C(128) << 20;
	bp = json_object_get(e, "buffer_pool");
	if (bp) {
		if ((ret = parse_size_value(c, ".engine.buffer_pool", bp, &cfg->buffer_pool)) < 0)
			return ret;
		if (cfg->buffer_pool < (UINT64_C(8) << 20))
			return fail_val(c, ".engine.buffer_pool", bp, "is too small (expected at least 8M)");
	}
	return get_options(c, e, ".engine", "server_options", false, &cfg->server_options, &cfg->nserver_options);
}

static int load_setting(struct ctx *c, const char *jpath, const struct target_option *o, const json_t *v,
			struct target_setting *s)
{
	const char *why = NULL;
	struct strbuf sb;
	int ret = 0;

	strbuf_init(&sb, 0);
	switch (o->type) {
	case TOPT_STRING:
		if (!json_is_string(v) || !json_string_length(v)) {
			ret = fail_val(c, jpath, v, "is not a non-empty string");
			goto out;
		}
		s->str = xstrdup(json_string_value(v));
		break;
	case TOPT_UINT:
		if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) < o->min ||
		    (uint64_t)json_integer_value(v) > o->max) {
			strbuf_addf(&sb, "is not an integer in %llu..%llu", (unsigned long long)o->min,
				    (unsigned long long)o->max);
			ret = fail_val(c, jpath, v, sb.buf);
			goto out;
		}
		s->num = (uint64_t)json_integer_value(v);
		break;
	case TOPT_SIZE:
		if ((ret = parse_size_value(c, jpath, v, &s->num)) < 0)
			goto out;
		break;
	case TOPT_DURATION:
		if ((ret = parse_duration_value(c, jpath, v, 0, &s->num)) < 0)
			goto out;
		break;
	case TOPT_BOOL:
		if (!json_is_boolean(v)) {
			ret = fail_val(c, jpath, v, "is not a boolean (expected true or false)");
			goto out;
		}
		s->num = json_is_true(v);
		break;
	case TOPT_STRMAP: {
		const char *k;
		json_t *x;
		if (!json_is_object(v) || !json_object_size(v)) {
			ret = fail_val(c, jpath, v, "is not a non-empty object of strings");
			goto out;
		}
		s->map = xcalloc(json_object_size(v), sizeof(*s->map));
		json_object_foreach((json_t *)v, k, x) {
			if (!json_is_string(x) || !json_string_length(x)) {
				strbuf_addf(&sb, "%s.%s", jpath, k);
				ret = fail_val(c, sb.buf, x, "is not a non-empty string");
				goto out;
			}
			s->map[s->nmap].key = xstrdup(k);
			s->map[s->nmap].value = xstrdup(json_string_value(x));
			s->nmap++;
		}
		break;
	}
	}
	s->set = true;
	(void)why;
out:
	strbuf_release(&sb);
	return ret;
}

static int load_target(struct ctx *c, json_t *root, struct campaign_config *cfg)
{
	json_t *t = NULL, *v;
	const char *kind = NULL, *key;
	struct strbuf sb, p;
	size_t nopt = 0;
	int ret;

	if ((ret = get_obj(c, root, "", "target", true, &t)) < 0)
		return ret;
	if ((ret = get_str(c, t, ".target", "kind", true, &kind)) < 0)
		return ret;
	strbuf_init(&sb, 0);
	strbuf_init(&p, 0);
	cfg->target = target_find(kind);
	if (!cfg->target) {
		strbuf_adds(&sb, "is not a target (expected one of: ");
		target_names(&sb);
		strbuf_addc(&sb, ')');
		ret = fail_val(c, ".target.kind", json_object_get(t, "kind"), sb.buf);
		goto out;
	}
	for (const struct target_option *o = cfg->target->options; o->name; o++)
		nopt++;
	cfg->target_settings = xcalloc(nopt + 1, sizeof(*cfg->target_settings));
	json_object_foreach(t, key, v) {
		bool known = !strcmp(key, "kind");
		for (const struct target_option *o = cfg->target->options; o->name && !known; o++)
			known = !strcmp(o->name, key);
		if (known)
			continue;
		strbuf_adds(&sb, "kind");
		for (const struct target_option *o = cfg->target->options; o->name; o++)
			strbuf_addf(&sb, ", %s", o->name);
		path_key(&p, ".target", key);
		ret = fail(c, p.buf, "unknown setting of the %s target (expected one of: %s)", cfg->target->name, sb.buf);
		goto out;
	}
	for (size_t i = 0; i < nopt; i++) {
		const struct target_option *o = &cfg->target->options[i];
		json_t *given = json_object_get(t, o->name);
		json_t *dflt = NULL;

		path_key(&p, ".target", o->name);
		if (!given && o->def) {
			/* Defaults are written like config text: JSON literals or plain strings. */
			dflt = json_loads(o->def, JSON_DECODE_ANY, NULL);
			if (!dflt)
				dflt = json_string(o->def);
			given = dflt;
		}
		if (given)
			ret = load_setting(c, p.buf, o, given, &cfg->target_settings[i]);
		json_decref(dflt);
		if (ret < 0)
			goto out;
	}
out:
	strbuf_release(&sb);
	strbuf_release(&p);
	return ret;
}

static int load_drives(struct ctx *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"name", "path", "pool", "host", "model", NULL};
	json_t *a = json_object_get(root, "drives");
	struct strbuf p;
	int ret = 0;

	if (!a)
		return fail(c, ".drives", "missing (expected an array of drives)");
	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > MAX_DRIVES)
		return fail_val(c, ".drives", a, "is not an array of 1..256 drives");
	cfg->ndrives = json_array_size(a);
	cfg->drives = xcalloc(cfg->ndrives, sizeof(*cfg->drives));
	strbuf_init(&p, 0);
	for (size_t i = 0; i < cfg->ndrives; i++) {
		json_t *d = json_array_get(a, i);
		struct campaign_drive *dr = &cfg->drives[i];
		const char *name = NULL, *s = NULL;

		strbuf_reset(&p);
		strbuf_addf(&p, ".drives[%zu]", i);
		if (!json_is_object(d)) {
			ret = fail_val(c, p.buf, d, "is not an object (expected {\"name\": ..., \"path\": ...})");
			goto out;
		}
		if ((ret = check_keys(c, d, p.buf, keys)) < 0 || (ret = get_str(c, d, p.buf, "name", true, &name)) < 0)
			goto out;
		if (!is_name(name)) {
			strbuf_adds(&p, ".name");
			ret = fail_val(c, p.buf, json_object_get(d, "name"),
				       "is not a drive name (expected up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit)");
			goto out;
		}
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(cfg->drives[j].name, name)) {
				strbuf_adds(&p, ".name");
				ret = fail_val(c, p.buf, json_object_get(d, "name"), "is used by another drive (expected unique names)");
				goto out;
			}
		}
		dr->name = xstrdup(name);
		if ((ret = get_path(c, d, p.buf, "path", &dr->path)) < 0)
			goto out;
		if ((ret = get_str(c, d, p.buf, "pool", false, &s)) < 0)
			goto out;
		dr->pool = s ? xstrdup(s) : NULL;
		if (dr->path && dr->pool) {
			ret = fail(c, p.buf, "has both \"path\" and \"pool\" (expected one of them)");
			goto out;
		}
		if (!dr->path && !dr->pool) {
			ret = fail(c, p.buf, "has neither \"path\" nor \"pool\" (expected one of them)");
			goto out;
		}
		s = NULL;
		if ((ret = get_str(c, d, p.buf, "host", false, &s)) < 0)
			goto out;
		dr->host = s ? xstrdup(s) : NULL;
		s = NULL;
		if ((ret = get_str(c, d, p.buf, "model", false, &s)) < 0)
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

static int load_groups(struct ctx *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {"name", "placement", NULL};
	json_t *a = json_object_get(root, "run_groups");
	struct strbuf p, slug, list;
	int ret = 0;

	if (!a)
		return fail(c, ".run_groups", "missing (expected an array of run groups)");
	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > MAX_GROUPS)
		return fail_val(c, ".run_groups", a, "is not an array of 1..256 run groups");
	cfg->ngroups = json_array_size(a);
	cfg->groups = xcalloc(cfg->ngroups, sizeof(*cfg->groups));
	strbuf_init(&p, 0);
	strbuf_init(&slug, 0);
	strbuf_init(&list, 0);
	for (size_t i = 0; i < cfg->ndrives; i++)
		strbuf_addf(&list, "%s%s", i ? ", " : "", cfg->drives[i].name);
	for (size_t i = 0; i < cfg->ngroups; i++) {
		json_t *g = json_array_get(a, i), *pl = NULL, *cnt;
		struct campaign_group *gr = &cfg->groups[i];
		const char *name = NULL, *dname;
		size_t base;

		strbuf_reset(&p);
		strbuf_addf(&p, ".run_groups[%zu]", i);
		base = p.len;
		if (!json_is_object(g)) {
			ret = fail_val(c, p.buf, g, "is not an object (expected {\"name\": ..., \"placement\": {...}})");
			goto out;
		}
		if ((ret = check_keys(c, g, p.buf, keys)) < 0 || (ret = get_str(c, g, p.buf, "name", true, &name)) < 0)
			goto out;
		strbuf_reset(&slug);
		slugify(name, &slug);
		if (!slug.len || slug.len > 64) {
			strbuf_adds(&p, ".name");
			ret = fail_val(c, p.buf, json_object_get(g, "name"),
				       "does not make a folder name (expected 1..64 letters or digits, other characters become '-')");
			goto out;
		}
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(cfg->groups[j].slug, slug.buf)) {
				struct strbuf w;
				strbuf_init(&w, 0);
				strbuf_addf(&w, "makes the same folder name \"%s\" as .run_groups[%zu].name (expected distinct names)",
					    cfg->groups[j].slug, j);
				strbuf_adds(&p, ".name");
				ret = fail_val(c, p.buf, json_object_get(g, "name"), w.buf);
				strbuf_release(&w);
				goto out;
			}
		}
		gr->name = xstrdup(name);
		gr->slug = strbuf_detach(&slug);
		if ((ret = get_obj(c, g, p.buf, "placement", true, &pl)) < 0)
			goto out;
		if (!json_object_size(pl)) {
			strbuf_adds(&p, ".placement");
			ret = fail_val(c, p.buf, pl, "is empty (expected {\"drive name\": instance count, ...})");
			goto out;
		}
		gr->place = xcalloc(json_object_size(pl), sizeof(*gr->place));
		json_object_foreach(pl, dname, cnt) {
			size_t d = cfg->ndrives;

			for (size_t j = 0; j < cfg->ndrives; j++)
				if (!strcmp(cfg->drives[j].name, dname))
					d = j;
			p.len = base;
			p.buf[base] = '\0';
			strbuf_adds(&p, ".placement");
			if (d == cfg->ndrives) {
				struct strbuf w;
				strbuf_init(&w, 0);
				strbuf_addf(&w, "\"%s\" is not a drive of .drives (expected one of: %s)", dname, list.buf);
				ret = fail(c, p.buf, "%s", w.buf);
				strbuf_release(&w);
				goto out;
			}
			strbuf_addf(&p, ".%s", dname);
			if (!json_is_integer(cnt) || json_integer_value(cnt) < 1 || json_integer_value(cnt) > MAX_PER_DRIVE) {
				ret = fail_val(c, p.buf, cnt, "is not an instance count (expected an integer in 1..1024)");
				goto out;
			}
			gr->place[gr->nplace].drive = d;
			gr->place[gr->nplace].count = (unsigned)json_integer_value(cnt);
			gr->instances += gr->place[gr->nplace].count;
			gr->nplace++;
		}
	}
out:
	strbuf_release(&p);
	strbuf_release(&slug);
	strbuf_release(&list);
	return ret;
}

static int load_percentiles(struct ctx *c, json_t *root, struct campaign_config *cfg)
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
	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > RESULT_MAX_PERCENTILES)
		return fail_val(c, ".percentiles", a, "is not an array of 1..8 percentiles (expected e.g. [95, 99])");
	cfg->npercentiles = json_array_size(a);
	cfg->percentiles = xcalloc(cfg->npercentiles, sizeof(double));
	strbuf_init(&p, 0);
	for (size_t i = 0; i < cfg->npercentiles; i++) {
		json_t *v = json_array_get(a, i);
		double x = json_is_number(v) ? json_number_value(v) : -1;

		strbuf_reset(&p);
		strbuf_addf(&p, ".percentiles[%zu]", i);
		if (!json_is_number(v) || !isfinite(x) || x <= 0 || x >= 100) {
			ret = fail_val(c, p.buf, v, "is not a percentile (expected a number greater than 0 and less than 100)");
			break;
		}
		cfg->percentiles[i] = x;
	}
	strbuf_release(&p);
	return ret;
}

static int load(struct ctx *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {
		"name", "description", "workload", "engine", "target", "drives", "run_groups", "precondition",
		"sample", "repetitions", "threads", "rate", "report_interval", "percentiles", "output",
		"verify_restore", "keep", NULL,
	};
	const char *name = NULL, *desc = NULL;
	uint64_t n;
	int ret;

	if (!json_is_object(root))
		return fail_val(c, ".", root, "is not a campaign (expected a JSON object)");
	if ((ret = check_keys(c, root, "", keys)) < 0)
		return ret;
	if ((ret = get_str(c, root, "", "name", true, &name)) < 0)
		return ret;
	if (!is_name(name))
		return fail_val(c, ".name", json_object_get(root, "name"),
				"is not a campaign name (expected up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit)");
	cfg->name = xstrdup(name);
	if ((ret = get_str(c, root, "", "description", false, &desc)) < 0)
		return ret;
	if ((ret = load_workload(c, root, cfg)) < 0 || (ret = load_engine(c, root, cfg)) < 0 ||
	    (ret = load_target(c, root, cfg)) < 0 || (ret = load_drives(c, root, cfg)) < 0 ||
	    (ret = load_groups(c, root, cfg)) < 0)
		return ret;

	cfg->precondition_ns = UINT64_C(7200) * 1000000000;
	cfg->sample_ns = UINT64_C(3600) * 1000000000;
	cfg->report_interval_ns = UINT64_C(10) * 1000000000;
	if ((ret = get_duration(c, root, "", "precondition", 0, &cfg->precondition_ns)) < 0 ||
	    (ret = get_duration(c, root, "", "sample", 1000000000, &cfg->sample_ns)) < 0 ||
	    (ret = get_duration(c, root, "", "report_interval", 1000000000, &cfg->report_interval_ns)) < 0)
		return ret;
	n = 1;
	if ((ret = get_uint(c, root, "", "repetitions", 1, 1000, &n)) < 0)
		return ret;
	cfg->repetitions = (unsigned)n;
	n = 32;
	if ((ret = get_uint(c, root, "", "threads", 1, 100000, &n)) < 0)
		return ret;
	cfg->threads = (unsigned)n;
	n = 0;
	if ((ret = get_uint(c, root, "", "rate", 0, 1000000000, &n)) < 0)
		return ret;
	if (n && cfg->workload != WORKLOAD_SYSBENCH)
		return fail_val(c, ".rate", json_object_get(root, "rate"),
				"is for sysbench workloads (tpcc paces its terminals with workload.options.delays)");
	cfg->rate = n;
	if ((ret = load_percentiles(c, root, cfg)) < 0)
		return ret;
	cfg->output = xstrdup("results");
	if ((ret = get_path(c, root, "", "output", &cfg->output)) < 0)
		return ret;
	if ((ret = get_bool(c, root, "", "verify_restore", &cfg->verify_restore)) < 0 ||
	    (ret = get_bool(c, root, "", "keep", &cfg->keep)) < 0)
		return ret;
	return cfg->target->validate(cfg);
}

int campaign_config_load(const char *file, struct campaign_config **out)
{
	struct campaign_config *cfg = xcalloc(1, sizeof(*cfg));
	struct ctx c = {.file = file};
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
		log_error("%s: line %d column %d: %s (expected a JSON campaign file)", file, jerr.line, jerr.column,
			  jerr.text);
		ret = -EINVAL;
		goto out;
	}
	ret = load(&c, root, cfg);
	if (ret < 0)
		goto out;
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
	if (cfg->target_settings && cfg->target) {
		size_t i = 0;
		for (const struct target_option *o = cfg->target->options; o->name; o++, i++) {
			free(cfg->target_settings[i].str);
			kv_free(cfg->target_settings[i].map, cfg->target_settings[i].nmap);
		}
	}
	free(cfg->target_settings);
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
