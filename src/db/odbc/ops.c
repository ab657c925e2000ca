/* The ODBC backend's ops table (db_odbc_ops) and its describe. */
#include "db/odbc/odbc_int.h"

#include <stdio.h>
#include <stdlib.h>

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
