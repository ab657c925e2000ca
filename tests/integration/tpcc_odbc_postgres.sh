#!/bin/bash
# TPC-C through ODBC (psqlODBC with Protocol=7.4-1) against a private PostgreSQL 15.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/postgres.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/tpcc.sh"
PG_DIR=$TEST_TMP/pg
PG_PORT=$(free_port) || die "no free port"
cleanup_pg() { postgres_stop "$PG_DIR"; cleanup_test; }
trap cleanup_pg EXIT
postgres_start "$PG_DIR" "$PG_PORT" || die "PostgreSQL did not start (is postgresql-15 installed?)"
postgres_sql "$PG_PORT" "CREATE USER tpcc"
postgres_sql "$PG_PORT" "CREATE DATABASE tpcc OWNER tpcc"
odbc_register "$TEST_TMP/odbc"
export ODBCSYSINI=$TEST_TMP/odbc
CS="Driver={PostgreSQL};Server=127.0.0.1;Port=$PG_PORT;Database=tpcc;UID=tpcc;Protocol=7.4-1"
check "dialect detected from SQL_DBMS_NAME" bash -c '"$0" tpcc --odbc-connect="$1" --warehouses=2 --threads=2 --rand-seed=7 prepare | grep -q "dialect postgresql"' "$DBRIG_BIN" "$CS"
# One session per terminal through psqlODBC: 250 terminals, 250 backends (the
# server takes 300); 400 do not fit and are refused before any connects.
check "sessions: more terminals than max_connections is refused in one line" bash -c '"$0" tpcc --odbc-connect="$1" --connections=terminals --terminals=400 --delays=off --time=1 run 2>&1 >/dev/null |
	grep -Eq "^dbrig: --connections=terminals: 400 sessions, but the server takes 297 connections \(max_connections less superuser_reserved_connections\) and [0-9]+ are open"' "$DBRIG_BIN" "$CS"
"$DBRIG_BIN" tpcc --odbc-connect="$CS" cleanup >/dev/null
check "missing Protocol=7.4-1 is warned about" bash -c '"$0" tpcc --odbc-connect="${1%;Protocol=7.4-1}" check 2>&1 | grep -q "Protocol=7.4-1"' "$DBRIG_BIN" "$CS"
tpcc_sql() { psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d tpcc -At -v ON_ERROR_STOP=1 -c "$*"; }
TPCC_SQL=tpcc_sql
sessions_open() { postgres_sql "$PG_PORT" "SELECT COUNT(*) FROM pg_stat_activity WHERE usename = 'tpcc'"; }
TPCC_SESSIONS="250 sessions_open" tpcc_suite odbc-postgres --db-driver=odbc --odbc-connect="$CS"
finish
