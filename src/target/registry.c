/* The target registry: one explicit list, so a static link never drops a backend. */
#include "target/target.h"

#include "campaign/config.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct target_ops target_local_ops;
extern const struct target_ops target_libvirt_ops;

const struct target_ops *const target_backends[] = {
	&target_local_ops,
	&target_libvirt_ops,
	NULL,
};

const struct target_ops *target_find(const char *name)
{
	for (const struct target_ops *const *t = target_backends; *t; t++)
		if (!strcmp((*t)->name, name))
			return *t;
	return NULL;
}

void target_names(struct strbuf *sb)
{
	for (const struct target_ops *const *t = target_backends; *t; t++)
		strbuf_addf(sb, "%s%s", t == target_backends ? "" : ", ", (*t)->name);
}

const struct target_setting *target_setting(const struct campaign_config *cfg, const char *name)
{
	size_t i = 0;

	for (const struct target_option *o = cfg->target->options; o->name; o++, i++)
		if (!strcmp(o->name, name))
			return &cfg->target_settings[i];
	fprintf(stderr, "dbrig: internal error: target %s has no setting \"%s\"\n", cfg->target->name, name);
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
