/* What the MySQL backend's files share (only src/db/mysql/ includes this). */
/*
 * libmysqlclient (MariaDB Connector/C) backend: the only folder that calls
 * mysql_* (src/db/mysql/).
 *
 * Statements are server-side prepared with parameters bound once to storage
 * owned by the statement, so an execute only copies values and never re-sends
 * parameter types (what sysbench's drv_mysql does). Result sets whose columns
 * the caller bound are buffered with mysql_stmt_store_result; the others (all
 * of sysbench's) are drained with mysql_stmt_free_result, which reads the same
 * rows off the connection without copying them (-13.5% client instructions
 * per oltp_read_write transaction). Results are classified the way sysbench
 * counts queries: a result set is a read, otherwise affected rows > 0 is a
 * write, anything else is "other".
 *
 * The non-blocking forms use Connector/C's mysql_*_start/_cont API; a
 * connection is always opened with MYSQL_OPT_NONBLOCK so either form works.
 *
 * The files:
 *   connect.c  connect (TLS and its option checks, the refused LOCAL INFILE), disconnect, session
 *              settings, LOAD DATA LOCAL INFILE from a generator
 *   stmt.c     text queries, prepared statements, results, transactions, and
 *              the non-blocking forms
 *   errors.c   error classification into c->err
 *   ops.c      the ops table (db_mysql_ops) and the driver's command-line
 *              options (the --mysql-* rows and struct my_options)
 */
#ifndef DBRIG_DB_MYSQL_MYSQL_INT_H
#define DBRIG_DB_MYSQL_MYSQL_INT_H

#include "db/db.h"
#include "db/rows.h"

#include <mysql.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The driver's options blob (db_conn_params.driver_opts), as ops.c's rows
 * fill it: the endpoint's text as given (a command checks lists and the port
 * number and copies the endpoint into db_conn_params), and what only this
 * driver reads when it connects (the cipher list, compression). */
struct my_options {
	const char *host, *port, *socket, *user, *password, *db;
	const char *ssl, *ssl_cipher;
	bool compression;
	const char *password_file, *ssl_ca, *ssl_cert, *ssl_key;
};
_Static_assert(sizeof(struct my_options) <= DB_OPTIONS_MAX, "struct my_options fits a command's blob");

/*
 * TLS, --mysql-ssl's modes with MySQL's names:
 *   MY_SSL_OFF              plain connection ("off", "disabled")
 *   MY_SSL_COMPAT           sysbench 1.0's --mysql-ssl=on: TLS required,
 *                           client-key.pem, client-cert.pem and cacert.pem
 *                           from the current directory when present
 *   MY_SSL_REQUIRED         TLS required; the server's certificate is not
 *                           checked unless --mysql-ssl-ca is given (then as VERIFY_CA)
 *   MY_SSL_VERIFY_CA        TLS; the certificate chain must lead to the CA
 *   MY_SSL_VERIFY_IDENTITY  as VERIFY_CA, and the certificate must name
 *                           the host connected to (CN or subjectAltName)
 */
enum my_ssl_mode {
	MY_SSL_OFF = 0,
	MY_SSL_COMPAT,
	MY_SSL_REQUIRED,
	MY_SSL_VERIFY_CA,
	MY_SSL_VERIFY_IDENTITY,
};
/* The mode named `name` (case ignored), or -1. */
int my_ssl_mode(const char *name);
/* db_driver_ops.check_options: the TLS mode and files (connect.c). */
int my_check_options(const void *opts);

struct my_stmt {
	MYSQL_STMT *st;
	unsigned nparams, ncols;
	enum db_type *ptypes;
	MYSQL_BIND *pbind;
	int64_t *pint;          /* int storage per param (INT32 uses the low half via int32 view) */
	int32_t *pint32;
	double *pdbl;
	char **pstr;            /* string storage per param */
	size_t *pstr_cap;
	unsigned long *plen;
	MYSQL_BIND *cbind;      /* result columns, NULL when ncols == 0 */
	enum db_type *ctypes;
	int64_t *cint;
	double *cdbl;
	char **cstr;
	unsigned long *clen;
	my_bool *cnull;
	my_bool *cerr;
	bool has_result;        /* a stored result is pending for fetch */
	/* A result followed by more results (a CALL: its SELECT, then the
	 * CALL's own status) is copied here, so that the rest can be read off
	 * the connection before the next statement. */
	struct db_rows cache;
	bool cached;
	bool bind_late;         /* bind the result columns after each execute */
	struct my_stmt *next;   /* every statement of the connection, freed at disconnect */
};


enum my_op {
	OP_NONE,
	OP_STMT_EXEC,
	OP_STMT_STORE,
	OP_STMT_DRAIN,
	OP_QUERY,
	OP_QUERY_STORE,
	OP_STMT_NEXT,  /* reading the results after a CALL's result set */
};

struct my_conn {
	MYSQL *mysql;
	struct my_stmt *stmts;
	enum my_op op;
	struct my_stmt *cur;
	struct db_exec_result *res;
};

/* errors.c: c->err from a code, a SQLSTATE and a message, classified; from the connection's or the
 * statement's last error (-1). */
void set_error(struct db_conn *c, unsigned code, const char *state, const char *msg);
int conn_error(struct db_conn *c);
int stmt_error(struct db_conn *c, struct my_stmt *s);

/* connect.c: the ops of the connection and its session. */
int my_global_init(void);
int my_connect(struct db_conn *c, const struct db_conn_params *p);
void my_disconnect(struct db_conn *c);
const char *my_server_version(struct db_conn *c);
int my_load_stream(struct db_conn *c, const char *sql, long (*fill)(void *arg, char *buf, size_t cap),
		   void *arg, struct db_exec_result *r);
int my_session_setup(struct db_conn *c, enum db_isolation isolation);
void my_bulk_session(struct db_conn *c);

/* stmt.c: the ops of statements and transactions, blocking and not; a statement freed. */
void my_stmt_free(struct my_stmt *s);
int my_query(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r);
int my_prepare(struct db_conn *c, const char *sql, const enum db_type *params, unsigned nparams,
	       const enum db_type *cols, unsigned ncols, struct db_stmt **out);
int my_execute(struct db_conn *c, struct db_stmt *st, const struct db_value *params, struct db_exec_result *r);
int my_fetch(struct db_conn *c, struct db_stmt *st, struct db_value *cols);
int my_begin(struct db_conn *c);
int my_commit(struct db_conn *c);
int my_rollback(struct db_conn *c);
int my_fd(struct db_conn *c);
unsigned my_timeout_ms(struct db_conn *c);
int my_execute_start(struct db_conn *c, struct db_stmt *st, const struct db_value *params,
		     struct db_exec_result *r, int *wait);
int my_query_start(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r, int *wait);
int my_cont(struct db_conn *c, int ready, int *wait);

#endif
