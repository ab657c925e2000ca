/* The db driver registry: one explicit list, so a static link never drops a driver. */
#include "core/features.h"
#include "db/db.h"
#include "db/engine.h"

#include <stdlib.h>
#include <string.h>

extern const struct db_driver_ops db_mysql_ops;
#if DBRIG_HAVE_ODBC
extern const struct db_driver_ops db_odbc_ops;
#endif
extern const struct db_driver_ops db_null_ops;

const struct db_driver_ops *const db_drivers[] = {
	&db_mysql_ops,
#if DBRIG_HAVE_ODBC
	&db_odbc_ops,
#endif
	&db_null_ops, /* in memory, for tests (db/null.c) */
	NULL,
};

const struct db_driver_ops *db_driver_find(const char *name)
{
	for (const struct db_driver_ops *const *d = db_drivers; *d; d++)
		if (!strcmp((*d)->name, name))
			return *d;
	return NULL;
}

bool db_driver_option(const char *name)
{
	for (const struct db_driver_ops *const *d = db_drivers; *d; d++)
		if ((*d)->option_prefix && !strncmp(name, (*d)->option_prefix, strlen((*d)->option_prefix)))
			return true;
	return false;
}

static const void *option_field(const struct db_driver_ops *d, const void *opts, const char *name,
				enum opt_kind kind)
{
	for (size_t i = 0; i < d->n_options; i++)
		if (!strcmp(d->options[i].name, name) && d->options[i].kind == kind)
			return (const char *)opts + d->options[i].offset;
	abort(); /* a caller asking for an option the driver does not have is a bug */
}

const char *db_option_str(const struct db_driver_ops *d, const void *opts, const char *name)
{
	const char *v;

	memcpy(&v, option_field(d, opts, name, OPT_STRING), sizeof(v));
	return v;
}

bool db_option_bool(const struct db_driver_ops *d, const void *opts, const char *name)
{
	bool v;

	memcpy(&v, option_field(d, opts, name, OPT_BOOL), sizeof(v));
	return v;
}
