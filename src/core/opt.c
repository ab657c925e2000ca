#include "core/opt.h"

#include "core/log.h"
#include "core/units.h"

#include <stdlib.h>
#include <string.h>

static bool name_eq(const char *a, const char *b, size_t blen)
{
	size_t i;

	for (i = 0; i < blen && a[i]; i++) {
		char x = a[i] == '_' ? '-' : a[i];
		char y = b[i] == '_' ? '-' : b[i];
		if (x != y)
			return false;
	}
	return i == blen && a[i] == '\0';
}

bool opt_name_matches(const struct opt_def *d, const char *name, size_t len)
{
	return name_eq(d->name, name, len) || (d->alias && name_eq(d->alias, name, len));
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = {"on", "true", "yes", "1"};
	static const char *const no[] = {"off", "false", "no", "0"};

	for (size_t i = 0; i < 4; i++) {
		if (!strcmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

int opt_set(const struct opt_def *d, void *cfg, const char *value)
{
	char *field = (char *)cfg + d->offset;
	const char *shown = (d->flags & OPT_SECRET) ? "(hidden)" : value;
	const char *why = NULL;
	int64_t iv;

	switch (d->kind) {
	case OPT_UINT:
	case OPT_U64:
		if (parse_int64(value, d->min, d->max, &iv) < 0) {
			log_error("--%s: \"%s\" is not valid (expected an integer from %lld to %lld)", d->name, shown,
				  (long long)d->min, (long long)d->max);
			return -1;
		}
		if (d->kind == OPT_UINT)
			*(unsigned *)field = (unsigned)iv;
		else
			*(uint64_t *)field = (uint64_t)iv;
		return 0;
	case OPT_DOUBLE:
		if (parse_double(value, (double *)field) < 0) {
			log_error("--%s: \"%s\" is not valid (expected a number)", d->name, shown);
			return -1;
		}
		return 0;
	case OPT_BOOL:
		if (parse_bool(value, (bool *)field) < 0) {
			log_error("--%s: \"%s\" is not valid (expected on or off)", d->name, shown);
			return -1;
		}
		return 0;
	case OPT_STRING:
		*(const char **)field = value;
		return 0;
	case OPT_DURATION:
		if (parse_duration_ns(value, (uint64_t *)field, &why) < 0) {
			log_error("--%s: \"%s\" is not a duration (%s)", d->name, shown, why ? why : "expected e.g. 30, 90s, 2h");
			return -1;
		}
		return 0;
	}
	return -1;
}

int opt_parse(const struct opt_def *defs, size_t ndefs, void *cfg, int argc, char **argv, const char **pos,
	      int maxpos, int *npos, bool *seen)
{
	*npos = 0;
	if (seen)
		memset(seen, 0, ndefs * sizeof(*seen));
	for (size_t i = 0; i < ndefs; i++) {
		if (defs[i].def) {
			if (opt_set(&defs[i], cfg, defs[i].def) < 0)
				return -1;
		}
	}
	for (int a = 1; a < argc; a++) {
		const char *arg = argv[a];
		if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
			if (*npos >= maxpos) {
				log_error("unexpected argument \"%s\"", arg);
				return -1;
			}
			pos[(*npos)++] = arg;
			continue;
		}
		const char *name = arg + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		size_t i;
		for (i = 0; i < ndefs; i++)
			if (opt_name_matches(&defs[i], name, len))
				break;
		if (i == ndefs) {
			log_error("unknown option \"--%.*s\" (see --help)", (int)len, name);
			return -1;
		}
		const char *value = eq ? eq + 1 : NULL;
		if (!value) {
			if (defs[i].kind != OPT_BOOL) {
				log_error("--%s needs a value (--%s=VALUE)", defs[i].name, defs[i].name);
				return -1;
			}
			value = "on";
		}
		if (opt_set(&defs[i], cfg, value) < 0)
			return -1;
		if (seen)
			seen[i] = true;
	}
	return 0;
}

void opt_help(FILE *f, const struct opt_def *defs, size_t ndefs)
{
	const char *group = NULL;

	for (size_t i = 0; i < ndefs; i++) {
		const struct opt_def *d = &defs[i];
		char left[96];
		if (!d->help)
			continue;
		if (!group || strcmp(group, d->group)) {
			group = d->group;
			fprintf(f, "\n%s:\n", group);
		}
		snprintf(left, sizeof(left), "--%s%s", d->name,
			 d->kind == OPT_BOOL ? "[=on|off]" : d->kind == OPT_DURATION ? "=DURATION" : "=N");
		if (d->kind == OPT_STRING)
			snprintf(left, sizeof(left), "--%s=STRING", d->name);
		if (d->kind == OPT_DOUBLE)
			snprintf(left, sizeof(left), "--%s=N", d->name);
		fprintf(f, "  %-32s %s", left, d->help);
		if (d->def && !(d->flags & OPT_SECRET))
			fprintf(f, " [%s]", d->def);
		if (d->alias)
			fprintf(f, " (alias --%s)", d->alias);
		fputc('\n', f);
	}
}
