/* The db driver registry: one explicit list, so a static link never drops a driver. */
#include "core/features.h"
#include "db/db.h"
#include "db/engine.h"

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
