/* The target registry: one explicit list, so a static link never drops a backend. */
#include "target/target.h"

#include "core/features.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct target_ops target_local_ops;
#if DBRIG_HAVE_LIBVIRT
extern const struct target_ops target_libvirt_ops;
#endif

const struct target_ops *const target_backends[] = {
	&target_local_ops,
#if DBRIG_HAVE_LIBVIRT
	&target_libvirt_ops,
#endif
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

