/* What the ODBC backend's files share (only src/db/odbc/ includes this). */
/*
 * ODBC backend (unixODBC): the only folder that calls SQL* (src/db/odbc/).
 *
 * One environment and one connection handle per db_conn, so connections
 * share nothing in the driver manager (unixODBC's Threading=0 then lets
 * threads run in parallel). A connection runs with autocommit off (unless
 * the caller asks for it on: TPC-C's procedures end their own
 * transactions): a transaction starts implicitly with its first statement
 * and ends with SQLEndTran, which is how SQL Server, MariaDB Connector/ODBC
 * and psqlODBC all agree to behave; begin() therefore sends nothing.
 *
 * Statements are prepared once with parameters bound to storage the
 * statement owns (an execute copies values and calls SQLExecute, no
 * re-binding). Result sets are read to the end at execute and kept
 * client-side, so fetch never talks to the server and the cursor is closed
 * before the next statement (SQL Server's default result sets allow one
 * active statement per connection).
 *
 * execute_batch binds column-wise parameter arrays (SQL_ATTR_PARAMSET_SIZE):
 * MariaDB Connector/ODBC sends them as one bulk command, SQL Server's driver
 * as one batch.
 *
 * psqlODBC must run with Protocol=7.4-1: its default wraps every statement
 * of a manual-commit transaction in a SAVEPOINT (an extra round trip each)
 * and keeps a transaction alive after a deadlock victim's error.
 *
 * The files:
 *   connect.c  connection strings (password, redaction), connect and
 *              disconnect, session settings, transactions; is a driver installed
 *   stmt.c     text queries, prepared statements, parameter binding (single
 *              rows and arrays), result sets read at execute and fetched
 *   bcp.c      SQL Server's bulk copy (bcp_* from the driver library) and the
 *              date and time conversions of parameters and bulk rows
 *   errors.c   error classification and the diagnostic records
 *   ops.c      the ops table (db_odbc_ops)
 */
#ifndef DBRIG_DB_ODBC_ODBC_INT_H
#define DBRIG_DB_ODBC_ODBC_INT_H

#include "db/db.h"
#include "db/odbc.h"
#include "db/rows.h"

#include <sql.h>
#include <sqlext.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct od_stmt {
	SQLHSTMT h;
	unsigned nparams, ncols;
	enum db_type *ptypes;
	int32_t *pint32;
	int64_t *pint64;
	double *pdbl;
	char **pstr;
	size_t *pstr_cap;
	SQL_TIMESTAMP_STRUCT *pts;
	SQLLEN *pind;
	bool batch_bound;       /* parameters currently bound to the batch arrays */
	/* batch arrays (column-wise), grown on demand */
	unsigned bcap;
	void **barr;
	size_t *bwidth;          /* string width per param (bytes per row) */
	SQLLEN **bind_arr;
	SQLUSMALLINT *bstatus;
	SQLULEN bprocessed;
	/* result columns */
	enum db_type *ctypes;
	int64_t *cint;
	double *cdbl;
	char **cstr;
	SQLLEN *cind;
	/* buffered rows */
	struct db_rows rows;     /* the result, read to the end at execute */
	struct od_stmt *next;
};

/* SQL Server's bulk-copy API, exported by the driver library (msodbcsql's
 * libmsodbcsql-18.*.so; Debian's FreeTDS 1.3.17 exports none through ODBC):
 * found at connect with dlsym, called with the driver's own connection
 * handle (SQL_DRIVER_HDBC). Constants and signatures as in msodbcsql.h. */
#define BCP_COPT_SS_BCP 1219 /* SQL_COPT_SS_BCP */
#define BCP_ON 1L            /* SQL_BCP_ON */
#define BCP_DB_IN 1
#define BCP_SUCCEED 1
#define BCP_SQLINT4 0x38
#define BCP_SQLFLT8 0x3e
#define BCP_SQLINT8 0x7f
#define BCP_SQLCHARACTER 0x2f
#define BCP_SQLDATETIME 0x3d /* DBDATETIME: days since 1900, 300ths of a second */
#define BCP_VARLEN_DATA (-10)
#define BCP_NULL_DATA (-1)
/* Return types as msodbcsql.h declares them: RETCODE (a short) for every
 * call but bcp_done's DBINT. Declared as int, the upper half of the return
 * register would be whatever the callee left there. */
struct bcp_api {
	RETCODE (*init)(void *hdbc, const char *table, const char *file, const char *errfile, int dir);
	RETCODE (*bind)(void *hdbc, const unsigned char *data, int prefix, int32_t len, const unsigned char *term,
			int termlen, int type, int col);
	RETCODE (*colptr)(void *hdbc, const unsigned char *data, int col);
	RETCODE (*collen)(void *hdbc, int32_t len, int col);
	RETCODE (*sendrow)(void *hdbc);
	int32_t (*done)(void *hdbc);
	void *hdbc; /* the driver's connection handle */
	/* The server's column ordinals of the last table copied into. */
	char table[64];
	unsigned ncols;
	char cols[64][64];
	int ord[64];
	bool datetime[64]; /* a DATETIME column (sys.columns system_type_id 61) */
};

struct od_conn {
	SQLHENV env;
	SQLHDBC dbc;
	SQLHSTMT q;             /* for text queries */
	bool connected;
	struct od_stmt *stmts;
	char dbms[128];
	char version[128];
	struct bcp_api *bcp;    /* NULL: no bulk copy on this connection */
};

static inline bool ok(SQLRETURN rc)
{
	return rc == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO;
}

/* errors.c: c->err from a handle's diagnostic records (-1). */
int diag(struct db_conn *c, SQLSMALLINT type, SQLHANDLE h, const char *what);
int stmt_diag(struct db_conn *c, SQLHSTMT h, const char *what);

/* connect.c: the ops of the connection and its transactions. */
int od_global_init(void);
int od_connect(struct db_conn *c, const struct db_conn_params *p);
void od_disconnect(struct db_conn *c);
const char *od_server_version(struct db_conn *c);
const char *od_dbms_name(struct db_conn *c);
int od_begin(struct db_conn *c);
int od_commit(struct db_conn *c);
int od_rollback(struct db_conn *c);

/* stmt.c: the ops of statements; a statement's handle and storage freed. */
int od_query(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r);
int od_prepare(struct db_conn *c, const char *sql, const enum db_type *params, unsigned nparams,
	       const enum db_type *cols, unsigned ncols, struct db_stmt **out);
int od_execute(struct db_conn *c, struct db_stmt *st, const struct db_value *params, struct db_exec_result *r);
int od_fetch(struct db_conn *c, struct db_stmt *st, struct db_value *cols);
int od_execute_batch(struct db_conn *c, struct db_stmt *st, const struct db_value *rows, unsigned nrows,
		     struct db_exec_result *r);
void od_stmt_free(struct od_stmt *s);

/* bcp.c: the bcp functions of the driver this connection loaded, or NULL; the copy_rows op. */
struct bcp_api *bcp_find(SQLHDBC dbc);
int od_copy_rows(struct db_conn *c, const char *table, const char *const *cols, const enum db_type *types,
		 unsigned ncols, const struct db_value *rows, unsigned nrows, struct db_exec_result *r);

#endif
