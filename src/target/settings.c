/*
 * Target settings: read from the config's "target" object against the
 * backend's own option table (type, range, default), and read back by name.
 * Messages are the config's ("<file>: .target.<key>: <value> is not …").
 */
#include "target/target.h"

#include "core/jsonr.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct target_setting *target_setting(const struct target_env *env, const char *name)
{
	size_t i = 0;

	for (const struct target_option *o = env->target->options; o->name; o++, i++)
		if (!strcmp(o->name, name))
			return &env->settings[i];
	fprintf(stderr, "dbrig: internal error: target %s has no setting \"%s\"\n", env->target->name, name);
	abort();
}

const char *target_opt_type_name(enum target_opt_type t)
{
	switch (t) {
	case TOPT_STRING:
		return "string";
	case TOPT_UINT:
		return "integer";
	case TOPT_SIZE:
		return "size";
	case TOPT_DURATION:
		return "duration";
	case TOPT_BOOL:
		return "boolean";
	case TOPT_STRMAP:
		return "object of strings";
	}
	return "?";
}

void target_env_error(const struct target_env *env, const char *jpath, const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	strbuf_init(&sb, 0);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	log_error("%s: %s: %s", env->file, jpath, sb.buf);
	strbuf_release(&sb);
}

/* `c` is the campaign file's reader: its messages read "<value> is not ..." (JSONR_IS_NOT). */
static int read_setting(struct jsonr *c, const char *jpath, const struct target_option *o, const json_t *v,
			struct target_setting *s)
{
	struct strbuf sb;
	int ret = 0;

	strbuf_init(&sb, 0);
	switch (o->type) {
	case TOPT_STRING:
		if (!json_is_string(v) || !json_string_length(v)) {
			ret = jsonr_fail_value(c, jpath, v, "is not a non-empty string");
			goto out;
		}
		s->str = xstrdup(json_string_value(v));
		break;
	case TOPT_UINT:
		s->num = jsonr_uint(c, (json_t *)v, jpath, NULL, 0, o->min, o->max, 0);
		if ((ret = jsonr_status(c)) < 0)
			goto out;
		break;
	case TOPT_SIZE:
		s->num = jsonr_size(c, (json_t *)v, jpath, NULL, 0, 0);
		if ((ret = jsonr_status(c)) < 0)
			goto out;
		break;
	case TOPT_DURATION:
		s->num = jsonr_duration(c, (json_t *)v, jpath, NULL, 0, 0, 0);
		if ((ret = jsonr_status(c)) < 0)
			goto out;
		break;
	case TOPT_BOOL:
		s->num = jsonr_bool(c, (json_t *)v, jpath, NULL, 0, false);
		if ((ret = jsonr_status(c)) < 0)
			goto out;
		break;
	case TOPT_STRMAP: {
		const char *k;
		json_t *x;
		if (!json_is_object(v) || !json_object_size(v)) {
			ret = jsonr_fail_value(c, jpath, v, "is not a non-empty object of strings");
			goto out;
		}
		s->map = xcalloc(json_object_size(v), sizeof(*s->map));
		json_object_foreach((json_t *)v, k, x) {
			if (!json_is_string(x) || !json_string_length(x)) {
				strbuf_addf(&sb, "%s.%s", jpath, k);
				ret = jsonr_fail_value(c, sb.buf, x, "is not a non-empty string");
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
out:
	strbuf_release(&sb);
	return ret;
}

int target_settings_read(struct jsonr *c, const struct target_ops *ops, json_t *t, struct target_setting **out)
{
	json_t *v;
	const char *key;
	struct strbuf sb, p;
	size_t nopt = 0;
	int ret = 0;

	strbuf_init(&sb, 0);
	strbuf_init(&p, 0);
	for (const struct target_option *o = ops->options; o->name; o++)
		nopt++;
	*out = xcalloc(nopt + 1, sizeof(**out));
	json_object_foreach(t, key, v) {
		bool known = !strcmp(key, "kind");
		for (const struct target_option *o = ops->options; o->name && !known; o++)
			known = !strcmp(o->name, key);
		if (known)
			continue;
		strbuf_adds(&sb, "kind");
		for (const struct target_option *o = ops->options; o->name; o++)
			strbuf_addf(&sb, ", %s", o->name);
		strbuf_reset(&p);
		strbuf_addf(&p, ".target.%s", key);
		ret = jsonr_failf(c, p.buf, "unknown setting of the %s target (expected one of: %s)", ops->name, sb.buf);
		goto out;
	}
	for (size_t i = 0; i < nopt; i++) {
		const struct target_option *o = &ops->options[i];
		json_t *given = json_object_get(t, o->name);
		json_t *dflt = NULL;

		strbuf_reset(&p);
		strbuf_addf(&p, ".target.%s", o->name);
		if (!given && o->def) {
			/* Defaults are written like config text: JSON literals or plain strings. */
			dflt = json_loads(o->def, JSON_DECODE_ANY, NULL);
			if (!dflt)
				dflt = json_string(o->def);
			given = dflt;
		}
		if (given)
			ret = read_setting(c, p.buf, o, given, &(*out)[i]);
		json_decref(dflt);
		if (ret < 0)
			goto out;
	}
out:
	strbuf_release(&sb);
	strbuf_release(&p);
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

void target_settings_free(const struct target_ops *ops, struct target_setting *s)
{
	size_t i = 0;

	if (!s)
		return;
	for (const struct target_option *o = ops->options; o->name; o++, i++) {
		free(s[i].str);
		kv_free(s[i].map, s[i].nmap);
	}
	free(s);
}
