/*
 * What `dbrig sysbench` and `dbrig tpcc` share on their command lines: option
 * rows (each command embeds the structs below in its own option struct and
 * puts the rows in its table where its --help shows them), --percentile, and
 * where a password comes from.
 *
 *   struct sb_cli { ...; struct cli_mysql_opts my; struct cli_run_opts run; };
 *   static const struct opt_def rows[] = {
 *           CLI_MYSQL_ENDPOINT_ROWS(struct sb_cli, my, "MySQL driver options", "sbtest"), ...
 *           CLI_RUN_RECORD_ROWS(struct sb_cli, run, "dbrig additions"),
 *           CLI_RUN_IDENTITY_ROWS(struct sb_cli, run, "dbrig additions"),
 *   };
 */
#ifndef DBRIG_CLI_COMMON_OPTS_H
#define DBRIG_CLI_COMMON_OPTS_H

#include "core/opt.h"
#include "result/result.h"

#include <stddef.h>
#include <stdint.h>

struct run_identity;

/* libmysqlclient's endpoint: --mysql-host/-port/-socket/-user/-password-file/-db. */
struct cli_mysql_opts {
	const char *host, *socket, *user, *password_file, *db;
	unsigned port;
	const char *ssl, *ssl_ca, *ssl_cert, *ssl_key; /* --mysql-ssl[=MODE], --mysql-ssl-ca/-cert/-key */
};

/* Where a run's records go and who it is: --result, --journal, --event-loops,
 * --reconnect-timeout, --run-*. */
struct cli_run_opts {
	const char *result, *journal;
	unsigned event_loops;
	uint64_t reconnect_timeout_ns;
	const char *run_campaign, *run_group, *run_drive, *run_instance, *run_golden, *run_storage;
	const char *run_id, *run_started; /* the campaign run's identity; "": none */
	unsigned run_vm_count, run_repetition;
	unsigned run_steady_window; /* 0: not a campaign run (nothing stored) */
};


#define CLI_MYSQL_ENDPOINT_ROWS(type, m, group, user_default)                                                          \
	{"mysql-host", NULL, OPT_STRING, offsetof(type, m.host), "localhost", "MySQL server host", 0, 0, group, 0},    \
	{"mysql-port", NULL, OPT_UINT, offsetof(type, m.port), "3306", "MySQL server port", 1, 65535, group, 0},       \
	{"mysql-socket", NULL, OPT_STRING, offsetof(type, m.socket), NULL, "MySQL socket", 0, 0, group, 0},            \
	{"mysql-user", NULL, OPT_STRING, offsetof(type, m.user), user_default, "MySQL user", 0, 0, group, 0}

#define CLI_MYSQL_DB_ROWS(type, m, group, db_default)                                                                  \
	{"mysql-password-file", NULL, OPT_STRING, offsetof(type, m.password_file), NULL,                              \
	 "read the MySQL password from this file (first line; else MYSQL_PWD)", 0, 0, group, 0},                      \
	{"mysql-db", NULL, OPT_STRING, offsetof(type, m.db), db_default, "MySQL database name", 0, 0, group, 0}

/*
 * --mysql-ssl takes MySQL's modes ("on" alone gives encryption without
 * authenticating the server): see db.h enum db_ssl_mode and
 * cli_mysql_tls. Alone, or "on", it is sysbench 1.0.20's --mysql-ssl=on.
 */
#define CLI_MYSQL_TLS_ROWS(type, m, group)                                                                            \
	{"mysql-ssl", NULL, OPT_STRING, offsetof(type, m.ssl), "off",                                                  \
	 "TLS: off; required (encrypted, server not checked); verify_ca (its certificate must chain to "                \
	 "--mysql-ssl-ca); verify_identity (verify_ca and it must name the host); on (sysbench 1.0: required, with "    \
	 "client-key.pem, client-cert.pem, cacert.pem from the current directory if present)", 0, 0, group,            \
	 OPT_BARE_ON},                                                                                                 \
	{"mysql-ssl-ca", NULL, OPT_STRING, offsetof(type, m.ssl_ca), NULL,                                             \
	 "PEM file of the CA that signed the server's certificate (verify_ca, verify_identity)", 0, 0, group, 0},      \
	{"mysql-ssl-cert", NULL, OPT_STRING, offsetof(type, m.ssl_cert), NULL,                                         \
	 "PEM file of the client certificate, for a server that asks for one (with --mysql-ssl-key)", 0, 0, group, 0}, \
	{"mysql-ssl-key", NULL, OPT_STRING, offsetof(type, m.ssl_key), NULL, "PEM file of the client key", 0, 0,      \
	 group, 0}

#define CLI_RUN_RECORD_ROWS(type, m, group)                                                                            \
	{"result", NULL, OPT_STRING, offsetof(type, m.result), NULL,                                                   \
	 "write the result (dbrig.result/1.2 JSON) to this file, atomically", 0, 0, group, 0},                           \
	{"journal", NULL, OPT_STRING, offsetof(type, m.journal), NULL,                                                 \
	 "append one JSON line per report interval to this file, flushed as it happens", 0, 0, group, 0},              \
	{"event-loops", NULL, OPT_UINT, offsetof(type, m.event_loops), "0",                                            \
	 "OS threads that serve the connections; 0 = one per CPU (ODBC: one per connection)", 0, 1024, group, 0},      \
	{"reconnect-timeout", NULL, OPT_DURATION, offsetof(type, m.reconnect_timeout_ns), "60",                        \
	 "how long a lost server may stay away before the run fails", 0, 0, group, 0}

#define CLI_RUN_IDENTITY_ROWS(type, m, group)                                                                          \
	{"run-campaign", NULL, OPT_STRING, offsetof(type, m.run_campaign), "",                                         \
	 "run identity stored in the result: campaign name", 0, 0, group, 0},                                          \
	{"run-group", NULL, OPT_STRING, offsetof(type, m.run_group), "", "run identity: run group", 0, 0, group, 0},   \
	{"run-drive", NULL, OPT_STRING, offsetof(type, m.run_drive), "", "run identity: drive", 0, 0, group, 0},       \
	{"run-instance", NULL, OPT_STRING, offsetof(type, m.run_instance), "", "run identity: instance (VM)", 0, 0,   \
	 group, 0},                                                                                                    \
	{"run-vm-count", NULL, OPT_UINT, offsetof(type, m.run_vm_count), "1",                                          \
	 "run identity: instances running at once in the run group", 1, 100000, group, 0},                             \
	{"run-repetition", NULL, OPT_UINT, offsetof(type, m.run_repetition), "1", "run identity: repetition number", \
	 1, 100000, group, 0},                                                                                         \
	{"run-steady-window", NULL, OPT_UINT, offsetof(type, m.run_steady_window), "0",                               \
	 "rounds of the steady-state verdict the report judges this run with (a campaign's steady_window; 0: none)",   \
	 0, 1000000, group, 0},                                                                                        \
	{"run-golden", NULL, OPT_STRING, offsetof(type, m.run_golden), "",                                             \
	 "run identity: fingerprint of the golden copy the database was restored from", 0, 0, group, 0},             \
	{"run-storage", NULL, OPT_STRING, offsetof(type, m.run_storage), "",                                           \
	 "test bed: the under-test volume's format and allocation (a libvirt campaign's disk_format, allocation)",    \
	 0, 0, group, 0},                                                                                        \
	{"run-id", NULL, OPT_STRING, offsetof(type, m.run_id), "",                                                     \
	 "run identity: the campaign run's id (made when it starts; dbrig report never adds up different ones)", 0, 0, \
	 group, 0},                                                                                                    \
	{"run-started", NULL, OPT_STRING, offsetof(type, m.run_started), "",                                           \
	 "run identity: when the campaign run started (ISO 8601 UTC)", 0, 0, group, 0}

/*
 * --mysql-ssl=mode and its files into cp (ssl, ssl_ca, ssl_cert, ssl_key;
 * strings borrowed): the mode by name (case ignored), the files readable,
 * verify_ca and verify_identity with a CA, a certificate with its key. A
 * connection that is encrypted but whose server is not checked gets one
 * warning. Returns 0, or -1 after one error line (dbrig tpcc exits 2, dbrig
 * sysbench 1, as sysbench does for every mistake).
 */
struct db_conn_params;
int cli_mysql_tls(const char *mode, const char *ca, const char *cert, const char *key, struct db_conn_params *cp)
	__attribute__((warn_unused_result));

/* The run identity the result records (strings borrowed from o). */
void cli_run_identity(const struct cli_run_opts *o, struct run_identity *id);

/* --percentile: "95" or "50,95,99", numbers from 0 to 100, at most
 * RESULT_MAX_PERCENTILES; 0 disables percentiles (is skipped). Returns 0, or -1
 * after logging the error line. */
int cli_parse_percentiles(const char *s, double out[RESULT_MAX_PERCENTILES], unsigned *n)
	__attribute__((warn_unused_result));
/* The same without the error line (the caller words it: dbrig sysbench). */
int cli_parse_percentiles_quiet(const char *s, double out[RESULT_MAX_PERCENTILES], unsigned *n)
	__attribute__((warn_unused_result));

/* The first line of a password file (`opt` names the option in messages), with
 * a warning when the file is readable by group or others. NULL after one error
 * line. Both are "dbrig: ..." on stderr even inside dbrig sysbench: the
 * password file is dbrig's addition. */
char *cli_read_password_file(const char *opt, const char *path);

/*
 * A password from, in this order: `given` (an option's value, already copied
 * out of argv), the file of option `file_opt` (when `file` is set), the
 * environment variable `env`. *out is a copy to free with
 * cli_password_free(), or NULL when none was given. Returns 0, or -1 after one
 * error line (an unreadable file).
 */
int cli_password(const char *given, const char *file_opt, const char *file, const char *env, char **out)
	__attribute__((warn_unused_result));
/* Overwrite and free; accepts NULL. */
void cli_password_free(char *password);

#endif
