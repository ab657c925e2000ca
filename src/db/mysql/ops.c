/* The MySQL backend's ops table (db_mysql_ops), its describe and its command-line options. */
#include "db/mysql/mysql_int.h"

#include <stddef.h>
#include <stdio.h>

#define O(f) offsetof(struct my_options, f)
#define MY "mysql options"

/*
 * sysbench 1.0.20's mysql driver options, in its order and with its words
 * (the rows dbrig sysbench's --help shows under "mysql options:"), then
 * dbrig's additions (DB_OPT_DBRIG). A command may word a row's help or give
 * it another default (dbrig tpcc's user and database are "tpcc").
 * --mysql-ssl also takes MySQL's modes (enum my_ssl_mode); alone, or
 * "on", it is sysbench 1.0.20's --mysql-ssl=on.
 */
static const struct opt_def my_options[] = {
	{"mysql-host", NULL, OPT_STRING, O(host), "localhost", "MySQL server host", 0, 0, MY, DB_OPT_LIST},
	{"mysql-port", NULL, OPT_STRING, O(port), "3306", "MySQL server port", 0, 0, MY, DB_OPT_LIST},
	{"mysql-socket", NULL, OPT_STRING, O(socket), NULL, "MySQL socket", 0, 0, MY, DB_OPT_LIST},
	{"mysql-user", NULL, OPT_STRING, O(user), "sbtest", "MySQL user", 0, 0, MY, 0},
	{"mysql-password", NULL, OPT_STRING, O(password), "", "MySQL password", 0, 0, MY, OPT_SECRET},
	{"mysql-db", NULL, OPT_STRING, O(db), "sbtest", "MySQL database name", 0, 0, MY, 0},
	{"mysql-ssl", NULL, OPT_STRING, O(ssl), "off",
	 "TLS: off; required (encrypted, server not checked); verify_ca (its certificate must chain to "
	 "--mysql-ssl-ca); verify_identity (verify_ca and it must name the host); on (sysbench 1.0: required, with "
	 "client-key.pem, client-cert.pem, cacert.pem from the current directory if present)",
	 0, 0, MY, OPT_BARE_ON | DB_OPT_ONOFF},
	{"mysql-ssl-cipher", NULL, OPT_STRING, O(ssl_cipher), "", "use specific cipher for SSL connections", 0, 0, MY, 0},
	{"mysql-compression", NULL, OPT_BOOL, O(compression), "off", "use compression, if available in the client library",
	 0, 0, MY, 0},
	{"mysql-password-file", NULL, OPT_STRING, O(password_file), NULL,
	 "read the MySQL password from this file (first line; else MYSQL_PWD)", 0, 0, MY, DB_OPT_FILE | DB_OPT_DBRIG},
	{"mysql-ssl-ca", NULL, OPT_STRING, O(ssl_ca), NULL,
	 "PEM file of the CA that signed the server's certificate (verify_ca, verify_identity)", 0, 0, MY,
	 DB_OPT_FILE | DB_OPT_DBRIG},
	{"mysql-ssl-cert", NULL, OPT_STRING, O(ssl_cert), NULL,
	 "PEM file of the client certificate, for a server that asks for one (with --mysql-ssl-key)", 0, 0, MY,
	 DB_OPT_FILE | DB_OPT_DBRIG},
	{"mysql-ssl-key", NULL, OPT_STRING, O(ssl_key), NULL, "PEM file of the client key", 0, 0, MY,
	 DB_OPT_FILE | DB_OPT_DBRIG},
};

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
	.options = my_options,
	.n_options = sizeof(my_options) / sizeof(my_options[0]),
	.options_size = sizeof(struct my_options),
	.check_options = my_check_options,
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
