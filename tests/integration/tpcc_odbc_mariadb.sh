#!/bin/bash
# TPC-C through ODBC (MariaDB Connector/ODBC, project-local registration)
# against a private MariaDB, with the password from ODBC_PWD.
# needs: odbc
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
# The driver reports -1 affected rows for DELETEs (SQL Server with NOCOUNT
# on), simulated by an LD_PRELOAD shim over the driver manager: Delivery
# cannot know whether it took the oldest new order, and the run must stop at
# once with one line, not retry forever (it hung, even past SIGTERM, before).
tpcc_extra() {
	local name=$1; shift
	local shim=$DBRIG_BUILD_DIR/tests/helpers/odbc_nocount.so
	[ -f "$shim" ] || fail "$name: $shim is missing (built with the tests)"
	local rc=0
	env LD_PRELOAD="$shim" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		timeout -s KILL 60 "$DBRIG_BIN" tpcc "$@" --delays=off --terminals=10 --connections=4 --time=30 \
		run >"$TEST_TMP/nocount.out" 2>"$TEST_TMP/nocount.err" || rc=$?
	check "$name: NOCOUNT (-1 rows): exit 1, not a hang (exit $rc)" [ "$rc" = 1 ]
	check "$name: NOCOUNT (-1 rows): one line naming it" bash -c '[ "$(wc -l <"$0")" = 1 ] &&
		grep -q "Delivery: the server did not say how many rows the DELETE .*SQLRowCount -1: NOCOUNT on" "$0"' \
		"$TEST_TMP/nocount.err"
}
# SQL Server's SNAPSHOT level is refused for another server, found out by the
# probe connection (--dialect=auto), with one line and exit 2.
check "--isolation=snapshot on MariaDB: exit 2, one line naming the server" bash -c '"$0" tpcc --odbc-connect="$1" \
	--isolation=snapshot --time=1 run >/dev/null 2>"$2"; [ $? = 2 ] && [ "$(wc -l <"$2")" = 1 ] &&
	grep -q "^dbrig: --isolation: \"snapshot\" is SQL Server.s SNAPSHOT level; the server is MariaDB (expected default, " "$2"' \
	"$DBRIG_BIN" "$CS" "$TEST_TMP/snapshot.err"
tpcc_sql() { mariadb_sql "$MARIADB_PORT" "USE tpcc; $*"; }
TPCC_SQL=tpcc_sql
# One session per terminal through ODBC: 500 terminals, 500 sessions (unixODBC
# makes closing N sessions cost O(N^2): docs/tpcc.md, "Sessions").
sessions_open() { mariadb_sql "$MARIADB_PORT" "SELECT COUNT(*) FROM information_schema.processlist WHERE user = 'sbtest'"; }
TPCC_SESSIONS="500 sessions_open" tpcc_suite odbc-mariadb --db-driver=odbc --odbc-connect="$CS"
finish
