/*
 * TPC-C SQL per dialect. The text lives in sql/<dialect>/{schema,indexes,
 * statements,drop,session,settings,procedures}.sql (session.sql: settings sent
 * once on every run connection; settings.sql: queries of (name, value) rows,
 * what the server was, for the result; procedures.sql: the server-side procedures of the
 * procedure mode, one per "-- procedure: NAME" line, which may hold ';') (compiled in by cmake/embed_sql.cmake); this module
 * parses it and fixes every statement's parameter and column types, which are
 * the same for all dialects.
 *
 * statements.sql holds one statement per "-- name: NAME" block, ';'-ended;
 * the other files are ';'-ended statements. Lines starting with "--" are
 * comments.
 */
#ifndef DBRIG_WORKLOAD_TPCC_SQL_H
#define DBRIG_WORKLOAD_TPCC_SQL_H

#include "db/db.h"

#include <stddef.h>
#include <stdio.h>

struct tpcc_sql_file {
	const char *name; /* "mysql/schema.sql" */
	const char *text;
};
extern const struct tpcc_sql_file tpcc_sql_files[]; /* generated; {0, 0}-terminated */

enum tpcc_dialect {
	TPCC_MSSQL,
	TPCC_MYSQL,
	TPCC_POSTGRESQL,
};
#define TPCC_DIALECT_COUNT 3

enum tpcc_stmt {
	TS_NO_CUST_WH,
	TS_NO_DIST_UPD,
	TS_NO_DIST,
	TS_NO_INS_ORDER,
	TS_NO_INS_NEW_ORDER,
	TS_NO_ITEM,
	TS_NO_STOCK,
	TS_NO_STOCK_UPD,
	TS_NO_INS_ORDER_LINE,
	TS_PAY_WH_UPD,
	TS_PAY_WH,
	TS_PAY_DIST_UPD,
	TS_PAY_DIST,
	TS_CUST_BY_NAME,
	TS_PAY_CUST,
	TS_PAY_CUST_UPD,
	TS_PAY_CUST_DATA,
	TS_PAY_CUST_DATA_UPD,
	TS_PAY_INS_HISTORY,
	TS_OS_CUST,
	TS_OS_LAST_ORDER,
	TS_OS_LINES,
	TS_DL_OLDEST_NEW_ORDER,
	TS_DL_DEL_NEW_ORDER,
	TS_DL_ORDER,
	TS_DL_ORDER_UPD,
	TS_DL_LINES_UPD,
	TS_DL_LINES_SUM,
	TS_DL_CUST_UPD,
	TS_SL_DIST,
	TS_SL_COUNT,
	TS_PR_NEWORD, /* the procedure mode: one call per transaction */
	TS_PR_PAYMENT,
	TS_PR_OSTAT,
	TS_PR_DELIVERY,
	TS_PR_SLEV,
	TS_LD_ITEM,
	TS_LD_WAREHOUSE,
	TS_LD_DISTRICT,
	TS_LD_CUSTOMER,
	TS_LD_HISTORY,
	TS_LD_ORDERS,
	TS_LD_NEW_ORDER,
	TS_LD_ORDER_LINE,
	TS_LD_STOCK,
	TS_LD_META,
	TS_META_GET,
	TS_CHK_1, /* the consistency conditions of clause 3.3.2 */
	TS_CHK_2,
	TS_CHK_3,
	TS_CHK_4,
	TS_CHK_5_7,
	TS_CHK_8,
	TS_CHK_9,
	TS_CHK_10_12,
	TS_CHK_11,
	TS_CHK_DELIVERED,
	TS_CHK_ROWS,
	TS_CHK_OL_CNT,
};
#define TS_COUNT (TS_CHK_OL_CNT + 1)
#define TS_FIRST_LOAD TS_LD_ITEM /* statements before this one are the transactions' */
#define TS_FIRST_PROC TS_PR_NEWORD /* the statement mode's are before this one */

struct tpcc_stmt_def {
	const char *name;
	const enum db_type *params;
	unsigned nparams;
	const enum db_type *cols;
	unsigned ncols;
};

const struct tpcc_stmt_def *tpcc_stmt_def(enum tpcc_stmt s);

struct tpcc_sql {
	enum tpcc_dialect dialect;
	char *stmt[TS_COUNT];
	char **schema, **indexes, **drop, **session, **settings;
	unsigned nschema, nindexes, ndrop, nsession, nsettings;
	/* procedures.sql: one CREATE PROCEDURE / FUNCTION per "-- procedure: NAME" block */
	char **procs, **proc_names;
	unsigned nprocs;
};

const char *tpcc_dialect_name(enum tpcc_dialect d);
int tpcc_dialect_parse(const char *s, enum tpcc_dialect *out) __attribute__((warn_unused_result));
/* From ODBC's SQL_DBMS_NAME ("Microsoft SQL Server", "MariaDB", "MySQL", "PostgreSQL"). */
int tpcc_dialect_detect(const char *dbms_name, enum tpcc_dialect *out) __attribute__((warn_unused_result));

/* Parse a dialect's files. Returns 0, or -1 with a message in err. */
int tpcc_sql_load(enum tpcc_dialect d, struct tpcc_sql **out, char *err, size_t errlen)
	__attribute__((warn_unused_result));
void tpcc_sql_free(struct tpcc_sql *s);
/* The raw text of sql/<dialect>/<base> ("schema.sql"), or NULL. */
const char *tpcc_sql_file_text(enum tpcc_dialect d, const char *base);
/* Every statement of the dialect, for review (dbrig tpcc --print-sql). */
void tpcc_sql_print(FILE *f, const struct tpcc_sql *s);

#endif
