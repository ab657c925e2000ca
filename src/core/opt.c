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

/* Store `value` into the option's field; on failure say why (without the
 * option's name) into why/n and return -1. */
static int set_value(const struct opt_def *d, void *cfg, const char *value, char *why, size_t n)
{
	char *field = (char *)cfg + d->offset;
	const char *shown = (d->flags & OPT_SECRET) ? "(hidden)" : value;
	const char *reason = NULL;
	int64_t iv;

	switch (d->kind) {
	case OPT_UINT:
	case OPT_U64:
		if (parse_int64(value, d->min, d->max, &iv) < 0) {
			snprintf(why, n, "\"%s\" is not valid (expected an integer from %lld to %lld)", shown,
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
			snprintf(why, n, "\"%s\" is not valid (expected a number)", shown);
			return -1;
		}
		return 0;
	case OPT_BOOL:
		if (parse_bool(value, (bool *)field) < 0) {
			snprintf(why, n, "\"%s\" is not valid (expected on or off)", shown);
			return -1;
		}
		return 0;
	case OPT_STRING:
		*(const char **)field = value;
		return 0;
	case OPT_DURATION:
		if (parse_duration_ns(value, (uint64_t *)field, &reason) < 0) {
			snprintf(why, n, "\"%s\" is not a duration (%s)", shown, reason ? reason : "expected e.g. 30, 90s, 2h");
			return -1;
		}
		/* A sub-second report interval printed and kept ~20,000 intervals a second. */
		if ((d->flags & OPT_WHOLE_SECONDS) && *(uint64_t *)field % 1000000000ULL) {
			snprintf(why, n, "\"%s\" is not a whole number of seconds (expected e.g. 1, 10s or 1m)", shown);
			return -1;
		}
		return 0;
	}
	snprintf(why, n, "\"%s\" is not valid", shown);
	return -1;
}

int opt_set(const struct opt_def *d, void *cfg, const char *value)
{
	char why[256];

	if (set_value(d, cfg, value, why, sizeof(why)) == 0)
		return 0;
	log_error("--%s: %s", d->name, why);
	return -1;
}

int opt_parse_collect(const struct opt_def *defs, size_t ndefs, void *cfg, int argc, char **argv, const char **pos,
		      int maxpos, int *npos, bool *seen, struct opt_problem *pb)
{
	memset(pb, 0, sizeof(*pb));
	*npos = 0;
	if (seen)
		memset(seen, 0, ndefs * sizeof(*seen));
	for (size_t i = 0; i < ndefs; i++) {
		if (defs[i].def && set_value(&defs[i], cfg, defs[i].def, pb->why, sizeof(pb->why)) < 0) {
			pb->kind = OPT_PB_BAD_VALUE; /* a broken table: fail loudly */
			pb->def = &defs[i];
			pb->value = defs[i].def;
			return -1;
		}
	}
	for (int a = 1; a < argc; a++) {
		const char *arg = argv[a];
		struct opt_problem p = {.arg = arg};
		if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
			if (*npos < maxpos) {
				pos[(*npos)++] = arg;
				continue;
			}
			p.kind = OPT_PB_EXTRA_ARG;
		} else {
			const char *name = arg + 2;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			size_t i;
			for (i = 0; i < ndefs; i++)
				if (opt_name_matches(&defs[i], name, len))
					break;
			if (i == ndefs) {
				p.kind = OPT_PB_UNKNOWN;
			} else {
				const char *value = eq ? eq + 1 : NULL;
				p.def = &defs[i];
				if (!value && defs[i].kind != OPT_BOOL && !(defs[i].flags & OPT_BARE_ON)) {
					p.kind = OPT_PB_NO_VALUE;
				} else {
					p.value = value ? value : "on";
					if (set_value(&defs[i], cfg, p.value, p.why, sizeof(p.why)) < 0)
						p.kind = OPT_PB_BAD_VALUE;
					else if (seen)
						seen[i] = true;
				}
			}
		}
		if (p.kind != OPT_PB_NONE && pb->kind == OPT_PB_NONE)
			*pb = p;
	}
	return pb->kind == OPT_PB_NONE ? 0 : -1;
}

int opt_parse(const struct opt_def *defs, size_t ndefs, void *cfg, int argc, char **argv, const char **pos,
	      int maxpos, int *npos, bool *seen)
{
	struct opt_problem pb;
	const char *name;
	size_t len;

	if (opt_parse_collect(defs, ndefs, cfg, argc, argv, pos, maxpos, npos, seen, &pb) == 0)
		return 0;
	switch (pb.kind) {
	case OPT_PB_NONE:
		return 0;
	case OPT_PB_EXTRA_ARG:
		log_error("unexpected argument \"%s\"", pb.arg);
		break;
	case OPT_PB_UNKNOWN:
		name = pb.arg + 2;
		len = strcspn(name, "=");
		log_error("unknown option \"--%.*s\" (see --help)", (int)len, name);
		break;
	case OPT_PB_NO_VALUE:
		log_error("--%s needs a value (--%s=VALUE)", pb.def->name, pb.def->name);
		break;
	case OPT_PB_BAD_VALUE:
		log_error("--%s: %s", pb.def->name, pb.why);
		break;
	}
	return -1;
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
			snprintf(left, sizeof(left), d->flags & OPT_BARE_ON ? "--%s[=MODE]" : "--%s=STRING", d->name);
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
