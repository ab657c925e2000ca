/* The optional backends of this build, by name (core/features.h, generated). */
#include "core/features.h"

#include "core/strbuf.h"

#include <stddef.h>
#include <string.h>

static const struct {
	const char *name, *option;
	int have;
} parts[] = {
	{"libvirt", "DBRIG_WITH_LIBVIRT", DBRIG_HAVE_LIBVIRT},
	{"odbc", "DBRIG_WITH_ODBC", DBRIG_HAVE_ODBC},
};

const char *features_left_out(const char *name)
{
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (!strcmp(parts[i].name, name))
			return parts[i].have ? NULL : parts[i].option;
	return NULL;
}

void features_list(struct strbuf *sb)
{
	const char *sep = "";

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].have) {
			strbuf_addf(sb, "%s%s", sep, parts[i].name);
			sep = " ";
		}
}
