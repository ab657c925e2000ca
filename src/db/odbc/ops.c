/* The ODBC backend's ops table (db_odbc_ops), its describe and its command-line options. */
#include "db/odbc/odbc_int.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* The driver's options blob: the command reads both (the connection string
 * becomes db_conn_params.dsn, the file gives the password). */
struct od_options {
	const char *connect, *password_file;
};
_Static_assert(sizeof(struct od_options) <= DB_OPTIONS_MAX, "struct od_options fits a command's blob");

#define O(f) offsetof(struct od_options, f)
#define OD "odbc options"

static const struct opt_def od_options[] = {
	{"odbc-connect", NULL, OPT_STRING, O(connect), NULL,
	 "ODBC connection string (Driver={…};Server=…;UID=…) or DSN=name; the password comes from ODBC_PWD or "
	 "--odbc-password-file",
	 0, 0, OD, 0},
	{"odbc-password-file", NULL, OPT_STRING, O(password_file), NULL,
	 "read the ODBC password from this file (first line)", 0, 0, OD, DB_OPT_FILE},
};

static void od_describe(const struct db_conn_params *p, char *buf, size_t n)
{
	char *r = p->dsn ? odbc_redact(p->dsn) : NULL;

	snprintf(buf, n, "%s", r ? r : "the ODBC data source");
	free(r);
}

const struct db_driver_ops db_odbc_ops = {
	.name = "odbc",
	.uses_dsn = true,
	.option_prefix = "odbc-",
	.options = od_options,
	.n_options = sizeof(od_options) / sizeof(od_options[0]),
	.options_size = sizeof(struct od_options),
	.describe = od_describe,
	.global_init = od_global_init,
	.connect = od_connect,
	.disconnect = od_disconnect,
	.server_version = od_server_version,
	.query = od_query,
	.prepare = od_prepare,
	.execute = od_execute,
	.fetch = od_fetch,
	.begin = od_begin,
	.commit = od_commit,
	.rollback = od_rollback,
	.execute_batch = od_execute_batch,
	.copy_rows = od_copy_rows,
	.dbms_name = od_dbms_name,
};
