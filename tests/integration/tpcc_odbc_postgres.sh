#!/bin/bash
# TPC-C through ODBC (psqlODBC with Protocol=7.4-1) against a private PostgreSQL 15.
# needs: odbc
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/postgres.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/tpcc.sh"
start_postgres_tpcc
CS="Driver={PostgreSQL};Server=127.0.0.1;Port=$PG_PORT;Database=tpcc;UID=tpcc;Protocol=7.4-1"
check "dialect detected from SQL_DBMS_NAME" bash -c '"$0" tpcc --odbc-connect="$1" --warehouses=2 --threads=2 --rand-seed=7 prepare | grep -q "dialect postgresql"' "$DBRIG_BIN" "$CS"
# One session per terminal through psqlODBC: 250 terminals, 250 backends (the
# server takes 300); 400 do not fit and are refused before any connects.
check "sessions: more terminals than max_connections is refused in one line" bash -c '"$0" tpcc --odbc-connect="$1" --connections=terminals --terminals=400 --delays=off --time=1 run 2>&1 >/dev/null |
	grep -Eq "^dbrig: --connections=terminals: 400 sessions, but the server takes 297 connections \(max_connections less superuser_reserved_connections\) and [0-9]+ are open"' "$DBRIG_BIN" "$CS"
"$DBRIG_BIN" tpcc --odbc-connect="$CS" cleanup >/dev/null
check "missing Protocol=7.4-1 is warned about" bash -c '"$0" tpcc --odbc-connect="${1%;Protocol=7.4-1}" check 2>&1 | grep -q "Protocol=7.4-1"' "$DBRIG_BIN" "$CS"
sessions_open() { postgres_sql "$PG_PORT" "SELECT COUNT(*) FROM pg_stat_activity WHERE usename = 'tpcc'"; }
tpcc_sql_pg() { psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d tpcc -At -v ON_ERROR_STOP=1 -c "$1"; }
TPCC_SQL=tpcc_sql_pg TPCC_SESSIONS="250 sessions_open" tpcc_suite odbc-postgres --db-driver=odbc --odbc-connect="$CS"


# psqlODBC calls setlocale() inside SQLDriverConnect, and setlocale is not
# thread-safe: with the connector threads connecting in parallel, ASan saw a
# heap-use-after-free in psqlodbcw.so (1 run in 2 of the 250-session run).
# dbrig serializes the driver handshake; a shim over the driver manager holds
# each SQLDriverConnect 2 ms and records how many threads were inside at once.
shim=$DBRIG_BUILD_DIR/tests/helpers/odbc_connect_overlap.so
[ -f "$shim" ] || fail "connect overlap: $shim is missing (built with the tests)"
"$DBRIG_BIN" tpcc --odbc-connect="$CS" --warehouses=1 --threads=2 prepare >/dev/null || fail "connect overlap: prepare"
rc=0; env LD_PRELOAD="$shim" DBRIG_CONNECT_OVERLAP="$TEST_TMP/overlap" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$DBRIG_BIN" tpcc --odbc-connect="$CS" --connections=terminals --terminals=64 --delays=off --time=1 \
	run >"$TEST_TMP/overlap.out" 2>&1 || rc=$?
"$DBRIG_BIN" tpcc --odbc-connect="$CS" cleanup >/dev/null || fail "connect overlap: cleanup"
check "connect overlap: 64 sessions ran (exit $rc)" grep -q "^connected 64 sessions in " "$TEST_TMP/overlap.out"
check "connect overlap: one SQLDriverConnect at a time (most at once: $(cat "$TEST_TMP/overlap" 2>/dev/null))" \
	[ "$(cat "$TEST_TMP/overlap" 2>/dev/null)" = 1 ]
# Loader integrity through parameter arrays: a trigger armed on ITEM as soon as
# prepare creates it (an event trigger) drops item 500 without an error (a
# BEFORE trigger returning NULL) or refuses it with one; either fails prepare
# in its first batch, naming the array (before: the dropped row went unseen
# and prepare succeeded with 99,999 items).
psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d tpcc -v ON_ERROR_STOP=1 <<'SQL'
CREATE FUNCTION tpcc_bad_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  IF NEW.i_id = 500 THEN IF TG_ARGV[0] = 'drop' THEN RETURN NULL; END IF; RAISE EXCEPTION 'item 500 refused by the test'; END IF;
  RETURN NEW; END $$;
CREATE FUNCTION tpcc_arm() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_event_trigger_ddl_commands() WHERE object_identity = 'public.item') THEN
    EXECUTE format('CREATE TRIGGER item_bad BEFORE INSERT ON item FOR EACH ROW EXECUTE FUNCTION tpcc_bad_row(%L)',
                   current_setting('tpcc.mode', true));
  END IF; END $$;
CREATE EVENT TRIGGER tpcc_arm ON ddl_command_end WHEN TAG IN ('CREATE TABLE') EXECUTE FUNCTION tpcc_arm();
SQL
for mode in drop raise; do
	postgres_sql "$PG_PORT" "ALTER DATABASE tpcc SET tpcc.mode = '$mode'"
	rc=0; "$DBRIG_BIN" tpcc --odbc-connect="$CS" --warehouses=1 --threads=1 prepare >"$TEST_TMP/bad-$mode.out" 2>"$TEST_TMP/bad-$mode.err" || rc=$?
	"$DBRIG_BIN" tpcc --odbc-connect="$CS" cleanup >/dev/null 2>&1 || fail "cleanup after the $mode load"
	check "load: an item the server ${mode}s fails prepare (exit $rc)" [ "$rc" = 1 ]
done
check "load: a row dropped without an error is named by its array's row count" \
	grep -q "ld_item failed: error 0 (HY000): parameter array of 1000 rows: the server counted 999 rows affected" "$TEST_TMP/bad-drop.err"
check "load: a refused row fails with the server's message" grep -q "ld_item failed: .*item 500 refused by the test" "$TEST_TMP/bad-raise.err"
tpcc_sql_pg "DROP EVENT TRIGGER tpcc_arm; DROP FUNCTION tpcc_arm(); DROP FUNCTION tpcc_bad_row()"
finish
