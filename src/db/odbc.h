/*
 * ODBC backend helpers that do not call the driver manager, exposed for
 * tests: error classification and connection-string handling.
 *
 * Classification (what each driver was seen to return, see
 * docs/tpcc.md "Errors"):
 *   RETRY     SQLSTATE 40001 (SQL Server deadlock victim 1205, MariaDB 1213,
 *             PostgreSQL serialization failure), 40P01 (PostgreSQL
 *             deadlock), 55P03 (PostgreSQL lock_timeout); 42000 with native
 *             1205 (a SQL Server deadlock victim through FreeTDS, which has
 *             no SQLSTATE for 1205 and reports severity 13 as 42000); under
 *             HY000 the MariaDB natives 1213 (deadlock) and 1205 (lock wait
 *             timeout); any native code in the caller's retry list. None of
 *             these depends on the list (--retry-errors); *why says which
 *             kind of retry it is.
 *   RECONNECT SQLSTATE class 08 (08S01, 08003, 08001, …), 57P01/57P02/57P03
 *             (PostgreSQL admin shutdown / crash / cannot connect now);
 *             under HY000 the MariaDB client codes 2002, 2003, 2006, 2013
 *             and server 1927 (connection killed), 1053 (shutdown).
 *   FATAL     everything else.
 */
#ifndef DBRIG_DB_ODBC_H
#define DBRIG_DB_ODBC_H

#include "db/db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum db_err_class odbc_classify(const char *sqlstate, int native, const struct db_conn_params *p,
				enum db_retry_kind *why);

/* The connection string with the password appended as PWD={…} (braces
 * doubled inside) when `password` is set and the string names none.
 * Returns a malloc'd string. */
char *odbc_conn_string(const char *connect, const char *password);
/* The connection string's driver needs its handshake alone in the process: psqlODBC (it calls
 * setlocale() while it connects), or a DSN, whose driver is not known here. */
bool odbc_connect_serialised(const char *connect);

/* The connection string with PWD=/Password= values replaced by "***", for
 * messages and result files. Returns a malloc'd string. */
char *odbc_redact(const char *connect);

/* Is an ODBC driver of this name registered with the driver manager
 * (SQLDrivers: odbcinst.ini, ODBCSYSINI)? 1 yes, 0 no, -EIO when the
 * driver manager cannot be asked. Nothing is loaded. */
int odbc_driver_installed(const char *name);

/* A date and time's fields, from "YYYY-MM-DD hh:mm:ss" (ODBC's canonical
 * form) or "YYYY-MM-DDThh:mm:ss" (`len` bytes, no NUL needed), years
 * 1753-9999 (SQL Server's DATETIME range), each field range-checked, the
 * day against its month. A DB_TYPE_TIMESTAMP parameter is bound from these
 * as SQL_TIMESTAMP_STRUCT. Returns 0, or -EINVAL for any other text. */
struct odbc_datetime {
	int year, month, day, hour, minute, second;
};
int odbc_datetime_fields(const char *s, size_t len, struct odbc_datetime *t);

/* SQL Server's DBDATETIME, as a bulk copy binds a DATETIME column (type
 * SQLDATETIME): days since 1900-01-01 and 300ths of a second since midnight.
 * From the text odbc_datetime_fields takes. Returns 0, or -EINVAL for any
 * other text. */
int odbc_bcp_datetime(const char *s, size_t len, int32_t *days, uint32_t *ticks);

#endif
