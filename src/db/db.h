/*
 * Database driver interface (sysbench's drv_ops_t, reshaped for an event loop).
 *
 * The core owns `struct db_conn`; a backend owns `priv` and its statements.
 * Every call that talks to the server exists in a blocking form; a backend
 * that can also run statements without blocking (libmysqlclient's
 * mysql_*_start/_cont API) fills the *_start/cont members, and the runner then
 * multiplexes many connections over a few event-loop threads. A backend
 * without them (ODBC) is driven with one OS thread per connection.
 *
 * Errors: every failing call returns a negative value and leaves a classified
 * `struct db_error` in conn->err. The driver classifies (RETRY for deadlocks
 * and lock waits named in the retry list, RECONNECT for lost connections,
 * FATAL for anything else); the core decides what to do.
 */
#ifndef DBRIG_DB_DB_H
#define DBRIG_DB_DB_H

#include "core/opt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum db_err_class {
	DB_ERR_NONE = 0,
	DB_ERR_RETRY,     /* roll back and run the transaction again */
	DB_ERR_RECONNECT, /* the connection is gone: reconnect, then run it again */
	DB_ERR_FATAL,     /* stop the run */
};

/* Why a RETRY error is retried, for the per-class counts of a result. */
enum db_retry_kind {
	DB_RETRY_DEADLOCK = 0,  /* deadlock victim: 40001 with SQL Server 1205 or MariaDB 1213,
				 * 40P01, 42000 with native 1205 (SQL Server through FreeTDS) */
	DB_RETRY_LOCK_TIMEOUT,  /* lock wait timeout: MariaDB 1205, PostgreSQL 55P03 */
	DB_RETRY_SERIALIZATION, /* any other 40001 (PostgreSQL serialization failure) */
	DB_RETRY_CONFLICT,      /* the workload found a row it read taken by another transaction */
	DB_RETRY_LISTED,        /* a native code in the caller's retry list */
};
#define DB_RETRY_KINDS 5
const char *db_retry_kind_name(enum db_retry_kind k);

struct db_error {
	enum db_err_class cls;
	enum db_retry_kind retry; /* when cls is DB_ERR_RETRY */
	int native;        /* server/client error number, 0 if none */
	char sqlstate[6];  /* five characters + NUL, "" if none */
	char msg[512];
};

enum db_type {
	DB_TYPE_INT32,
	DB_TYPE_INT64,
	DB_TYPE_DOUBLE,
	DB_TYPE_STRING, /* CHAR/VARCHAR: value bytes + length */
	/* A date and time, carried as STRING is, as "YYYY-MM-DD hh:mm:ss"
	 * (ODBC's canonical form): ODBC binds it as SQL_TYPE_TIMESTAMP
	 * (SQL_C_TYPE_TIMESTAMP) and SQL Server's bulk copy as SQLDATETIME, so
	 * no driver parses the text in a format of its choosing; the other
	 * backends send the text. A parameter type; a result column of this
	 * type is read as STRING. */
	DB_TYPE_TIMESTAMP,
};

struct db_value {
	enum db_type type;
	bool is_null;
	int64_t i;          /* INT32, INT64 */
	double d;           /* DOUBLE */
	const char *s;      /* STRING: not NUL-terminated, `len` bytes */
	size_t len;
};

struct db_conn_params {
	const char *host;
	unsigned port;
	const char *socket;
	const char *user;
	const char *password; /* never logged or stored */
	const char *database; /* may be NULL (connect without a default database) */
	/* A driver that connects by a connection string (ODBC: Driver={…};Server=…
	 * or DSN=…) takes it here instead of host/port/socket/user/database. */
	const char *dsn;
	/* The driver's own options (struct db_driver_ops.options), as the
	 * command line filled them: a blob only the driver reads. NULL: the
	 * driver's defaults. */
	const void *driver_opts;
	unsigned connect_timeout_s;
	/* Native error codes that mean "roll back and retry" (--mysql-ignore-errors,
	 * --retry-errors); retry_all: every native error does. */
	const int *retry_codes;
	size_t n_retry_codes;
	bool retry_all;
	bool allow_load_stream; /* this connection may call load_stream (a loader's, never a run's) */
	/* This connection may call copy_rows (a loader's, never a run's), as
	 * allow_load_stream gates load_stream: a driver whose bulk copy must be
	 * asked for before connecting (ODBC: SQL Server's bcp, switched on with
	 * SQL_COPT_SS_BCP) asks for it then. */
	bool allow_copy_rows;
	/* Autocommit on (ODBC SQL_ATTR_AUTOCOMMIT): every statement its own
	 * transaction, or the server-side procedure ends its own (TPC-C's
	 * procedure mode). Off by default: a transaction ends with commit(). */
	bool autocommit;
	/* Deadlock victims (SQLSTATE 40001, MariaDB 1213) are retried whatever
	 * the list says (TPC-C; sysbench leaves it to --mysql-ignore-errors). */
	bool retry_deadlocks;
	/* Transaction isolation for backends that set it per connection (ODBC:
	 * SQL_ATTR_TXN_ISOLATION); DB_ISO_DEFAULT leaves the server's.
	 * DB_ISO_SNAPSHOT is SQL Server's SNAPSHOT (SQL_TXN_SS_SNAPSHOT, ODBC
	 * only; the caller refuses it for other servers). */
	enum db_isolation {
		DB_ISO_DEFAULT = 0,
		DB_ISO_READ_COMMITTED,
		DB_ISO_REPEATABLE_READ,
		DB_ISO_SERIALIZABLE,
		DB_ISO_SNAPSHOT,
	} isolation;
};

/* What an executed statement did, classified the way sysbench counts queries. */
enum db_query_kind {
	DB_QUERY_READ,  /* returned a result set */
	DB_QUERY_WRITE, /* no result set, affected rows > 0 */
	DB_QUERY_OTHER, /* no result set, nothing affected (BEGIN, COMMIT, 0-row DML) */
};

struct db_exec_result {
	enum db_query_kind kind;
	uint64_t rows;     /* rows in a stored result set (0 when it was drained:
			    * no result columns bound), or affected rows, or
			    * DB_ROWS_UNKNOWN */
};
/* Affected rows the server did not report: ODBC's SQLRowCount gives -1 (SQL
 * Server with NOCOUNT on, e.g. sp_configure 'user options' 512). */
#define DB_ROWS_UNKNOWN UINT64_MAX

/* Readiness the caller must wait for before calling *_cont (a bit mask). */
#define DB_WAIT_READ 1
#define DB_WAIT_WRITE 2
#define DB_WAIT_TIMEOUT 8

struct db_stmt; /* backend-defined */
struct db_conn;

/*
 * A driver's command-line options are data on its ops table, as fio's
 * engines carry theirs: rows of core/opt.h's struct opt_def whose names (no
 * leading "--") start with the driver's option_prefix, whose group is the
 * heading of the driver's --help section ("mysql options"), and whose offsets
 * point into the driver's own options blob (options_size bytes, at most
 * DB_OPTIONS_MAX). A command appends the rows of the drivers it offers to its
 * own table, gives each driver a blob in its option struct, parses, and hands
 * the selected driver's blob over as db_conn_params.driver_opts.
 *
 * The flags below are caller bits of opt_def.flags (core/opt.h leaves them to
 * the table's user) that say how a command's --help shows a row.
 */
#define DB_OPTIONS_MAX 256
#define DB_OPT_LIST (OPT_CALLER_FLAGS << 12)  /* takes a comma-separated list: =[LIST,...] */
#define DB_OPT_FILE (OPT_CALLER_FLAGS << 13)  /* a file name: =FILE */
#define DB_OPT_ONOFF (OPT_CALLER_FLAGS << 14) /* an OPT_BARE_ON string shown as a boolean: [=on|off] */
#define DB_OPT_DBRIG (OPT_CALLER_FLAGS << 15) /* dbrig's addition, not an option of sysbench 1.0.20's driver */

struct db_driver_ops {
	const char *name;
	/* The SQL dialect this driver always speaks ("mysql"), or NULL when it
	 * depends on the server behind it (ODBC: ask dbms_name). */
	const char *dialect;
	/* Connects by params->dsn (ODBC) rather than host/port/socket/user/database. */
	bool uses_dsn;
	/* What every command-line option of this driver starts with ("mysql-"), or
	 * NULL when it has none of its own: what a campaign's driver sets, so a
	 * config may not (db_driver_option, campaign/driver.c). */
	const char *option_prefix;
	/* The driver's command-line options (see DB_OPTIONS_MAX above); NULL
	 * and 0 when it has none. */
	const struct opt_def *options;
	size_t n_options;
	size_t options_size;
	/* Optional: check the values in a blob the command line filled, before
	 * any connection (one error line, warnings for what is allowed but
	 * unsafe). 0, or -EINVAL after that line. */
	int (*check_options)(const void *opts);
	/* Where p connects, for messages and results, never with a password:
	 * "host:port", the socket, or the connection string with PWD=*** . */
	void (*describe)(const struct db_conn_params *p, char *buf, size_t n);
	/* Called once per process before any connection (library init). */
	int (*global_init)(void);
	int (*connect)(struct db_conn *c, const struct db_conn_params *p);
	void (*disconnect)(struct db_conn *c); /* also frees its statements; accepts a failed conn */
	const char *(*server_version)(struct db_conn *c);

	/* Text query, blocking; the result set (if any) is read and discarded. */
	int (*query)(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r);
	/* Server-side prepared statement with fixed parameter and column types. */
	int (*prepare)(struct db_conn *c, const char *sql, const enum db_type *params, unsigned nparams,
		       const enum db_type *cols, unsigned ncols, struct db_stmt **out);
	/* Blocking execute; result rows are buffered client-side. */
	int (*execute)(struct db_conn *c, struct db_stmt *s, const struct db_value *params, struct db_exec_result *r);
	/* Next buffered row of the last execute into `cols` (ncols as prepared):
	 * 1 = a row, 0 = no more rows, <0 = error. Strings point into the driver's
	 * buffers, valid until the next call on the statement. */
	int (*fetch)(struct db_conn *c, struct db_stmt *s, struct db_value *cols);
	int (*begin)(struct db_conn *c);
	int (*commit)(struct db_conn *c);
	int (*rollback)(struct db_conn *c);

	/* Optional non-blocking forms. *_start returns 0 when done, 1 when the
	 * caller must wait for `*wait` on fd(c) (and, with DB_WAIT_TIMEOUT, at
	 * most timeout_ms(c)), then call cont(); <0 on error. */
	int (*fd)(struct db_conn *c);
	unsigned (*timeout_ms)(struct db_conn *c);
	int (*execute_start)(struct db_conn *c, struct db_stmt *s, const struct db_value *params,
			     struct db_exec_result *r, int *wait);
	int (*query_start)(struct db_conn *c, const char *sql, size_t len, struct db_exec_result *r, int *wait);
	int (*cont)(struct db_conn *c, int ready, int *wait);
	/* Optional: whether connections with params p use the non-blocking forms
	 * (NULL: always, when the driver has them). The null driver's dry run
	 * does not: the runner gives each of its connections a thread. */
	bool (*polls)(const struct db_conn_params *p);

	/* Optional bulk form: execute a prepared statement once per row of
	 * `rows` (nrows × nparams values, row-major) in as few round trips as
	 * the driver allows (ODBC parameter arrays). r->rows = affected rows. */
	int (*execute_batch)(struct db_conn *c, struct db_stmt *s, const struct db_value *rows, unsigned nrows,
			     struct db_exec_result *r);
	/* Optional: the DBMS product name ("Microsoft SQL Server", "MariaDB",
	 * "PostgreSQL"), for dialect detection; NULL when unknown. */
	const char *(*dbms_name)(struct db_conn *c);

	/* Optional bulk copy into a table (SQL Server's bcp API through
	 * msodbcsql): nrows rows of ncols values (row-major), the value of column
	 * cols[k] of type types[k] at k, in one bulk operation. Returns
	 * -ENOTSUP when this connection cannot (not opened with allow_copy_rows, or
	 * the driver has no bcp API: the caller loads another way); 0 with
	 * r->rows = the rows the server took; <0 with c->err set. */
	int (*copy_rows)(struct db_conn *c, const char *table, const char *const *cols, const enum db_type *types,
			 unsigned ncols, const struct db_value *rows, unsigned nrows, struct db_exec_result *r);
	/* Optional bulk load from a row stream (MySQL's LOAD DATA LOCAL INFILE):
	 * `sql` is the LOAD statement, `fill` writes up to `cap` bytes of rows
	 * into `buf` and returns the count (0 at the end, <0 to abort). Returns 0,
	 * or <0 with c->err set; a server that refuses local loads gives
	 * DB_ERR_FATAL with native 1148 / 3948 / 4166, and the caller falls back. */
	int (*load_stream)(struct db_conn *c, const char *sql, long (*fill)(void *arg, char *buf, size_t cap),
			   void *arg, struct db_exec_result *r);

	/* Optional: put a run's session in the mode the workloads expect: every
	 * statement inside a transaction that commit/rollback ends (no BEGIN round
	 * trip), at `isolation`. NULL when connect already does (ODBC sets
	 * manual commit and the isolation as connection attributes). */
	int (*session_setup)(struct db_conn *c, enum db_isolation isolation);
	/* Optional: settings of a loader's session (unique and foreign key checks
	 * off, manual commit); failures are ignored: a slower load still loads. */
	void (*bulk_session)(struct db_conn *c);
};

struct db_conn {
	const struct db_driver_ops *ops;
	void *priv;
	struct db_error err;
	const struct db_conn_params *params;
};

/* Registry: every backend, in one compile-time list. */
extern const struct db_driver_ops *const db_drivers[];
const struct db_driver_ops *db_driver_find(const char *name);
/* The value of the driver's option `name` in its blob `opts` (as its table
 * filled it): the row must exist and be OPT_STRING (…_str) or OPT_BOOL
 * (…_bool); a name missing from the table is a bug and aborts. */
const char *db_option_str(const struct db_driver_ops *d, const void *opts, const char *name);
bool db_option_bool(const struct db_driver_ops *d, const void *opts, const char *name);

/* Shared error classification helpers for backends. */
bool db_code_in_list(int code, const int *codes, size_t n);
/* Parse "1213,1020,1205" or "all"; returns 0 or -EINVAL. `*codes` is malloc'd. */
int db_parse_code_list(const char *s, int **codes, size_t *n, bool *all) __attribute__((warn_unused_result));
const char *db_err_class_name(enum db_err_class c);

#endif
