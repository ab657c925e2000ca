#!/bin/bash
# TPC-C through ODBC (MariaDB Connector/ODBC, project-local registration)
# against a private MariaDB, with the password from ODBC_PWD.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/postgres.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/tpcc.sh"
SBTEST_PASSWORD=odbc-Secret-9 MARIADB_EXTRA_OPTS="--max-connections=600" start_mariadb
mariadb_sql "$MARIADB_PORT" "CREATE DATABASE tpcc"
odbc_register "$TEST_TMP/odbc"
export ODBCSYSINI=$TEST_TMP/odbc ODBC_PWD=odbc-Secret-9 TPCC_SECRET=odbc-Secret-9
CS="Driver={MariaDB};Server=127.0.0.1;Port=$MARIADB_PORT;Database=tpcc;UID=sbtest"
check "print-sql needs a dialect" bash -c '"$0" tpcc --print-sql 2>&1 | grep -q "needs --dialect"; [ "${PIPESTATUS[0]}" = 2 ]' "$DBRIG_BIN"
check "wrong password fails with the server's message" bash -c 'ODBC_PWD=bad "$0" tpcc --odbc-connect="$1" check 2>&1 | grep -q "Access denied"' "$DBRIG_BIN" "$CS"
tpcc_sql() { mariadb_sql "$MARIADB_PORT" "USE tpcc; $*"; }
TPCC_SQL=tpcc_sql
# One session per terminal through ODBC: 500 terminals, 500 sessions (unixODBC
# makes closing N sessions cost O(N^2): docs/tpcc.md, "Sessions").
sessions_open() { mariadb_sql "$MARIADB_PORT" "SELECT COUNT(*) FROM information_schema.processlist WHERE user = 'sbtest'"; }
TPCC_SESSIONS="500 sessions_open" tpcc_suite odbc-mariadb --db-driver=odbc --odbc-connect="$CS"
finish
