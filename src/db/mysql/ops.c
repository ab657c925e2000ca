/* The MySQL backend's ops table (db_mysql_ops) and its describe. */
#include "db/mysql/mysql_int.h"

#include <stdio.h>

static void my_describe(const struct db_conn_params *p, char *buf, size_t n)
{
	if (p->socket && *p->socket)
		snprintf(buf, n, "%s", p->socket);
	else
		snprintf(buf, n, "%s:%u", p->host ? p->host : "localhost", p->port);
}

const struct db_driver_ops db_mysql_ops = {
	.name = "mysql",
	.option_prefix = "mysql-",
	.dialect = "mysql",
	.describe = my_describe,
	.global_init = my_global_init,
	.connect = my_connect,
	.disconnect = my_disconnect,
	.server_version = my_server_version,
	.query = my_query,
	.prepare = my_prepare,
	.execute = my_execute,
	.fetch = my_fetch,
	.begin = my_begin,
	.commit = my_commit,
	.rollback = my_rollback,
	.fd = my_fd,
	.timeout_ms = my_timeout_ms,
	.execute_start = my_execute_start,
	.query_start = my_query_start,
	.cont = my_cont,
	.load_stream = my_load_stream,
	.session_setup = my_session_setup,
	.bulk_session = my_bulk_session,
};
