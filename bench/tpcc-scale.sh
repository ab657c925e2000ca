#!/bin/bash
# Client cost of dbrig tpcc on this machine, against a private MariaDB:
#  1. closed loop (--delays=off): client CPU µs per transaction (user+sys of
#     the dbrig process / committed transactions), libmysqlclient and ODBC;
#  2. 15,000 terminals under spec delays over 32 connections: the client's
#     peak RSS and CPU share.
# Usage: bench/tpcc-scale.sh [SECONDS]   (build first: cmake --build build)
set -euo pipefail
SECS=${1:-20}
. "$(dirname "$0")/../tests/lib/common.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/postgres.sh"
start_mariadb
mariadb_sql "$MARIADB_PORT" "CREATE DATABASE tpcc"
odbc_register "$TEST_TMP/odbc"
export ODBCSYSINI=$TEST_TMP/odbc
MY="--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --mysql-db=tpcc"
OD="--db-driver=odbc --odbc-connect=Driver={MariaDB};Server=127.0.0.1;Port=$MARIADB_PORT;Database=tpcc;UID=sbtest"
W=${TPCC_WAREHOUSES:-2}
"$DBRIG_BIN" tpcc $OD --warehouses="$W" --threads=2 prepare | tail -1

measure() { # measure LABEL ARGS... -> prints cpu µs/txn, RSS, cpu share
	local label=$1; shift
	/usr/bin/time -f "%U %S %M %e" -o "$TEST_TMP/time" "$DBRIG_BIN" tpcc "$@" --result="$TEST_TMP/r.json" run >/dev/null
	read -r u s rss wall <"$TEST_TMP/time"
	local n
	n=$(json_get "$TEST_TMP/r.json" "r['phases']['sample']['transactions'] + (r['phases']['precondition'] or {}).get('transactions', 0)")
	python3 -c "
u,s,rss,wall,n=$u,$s,$rss,$wall,$n
print('%-48s %8d txns %8.1f tps  client CPU %6.0f us/txn  (%4.1f%% of one CPU)  peak RSS %6.1f MiB' % ('$label', n, n/wall, (u+s)*1e6/max(n,1), 100*(u+s)/wall, rss/1024))"
}
measure "closed loop, libmysqlclient, 8 connections" $MY --delays=off --terminals=16 --connections=8 --time="$SECS"
measure "closed loop, ODBC (MariaDB), 8 connections" $OD --delays=off --terminals=16 --connections=8 --time="$SECS"
measure "15000 terminals, spec delays, 32 conns, mysql" $MY --delays=spec --terminals=15000 --connections=32 --time="$SECS"
measure "15000 terminals, spec delays, 32 conns, ODBC" $OD --delays=spec --terminals=15000 --connections=32 --time="$SECS"
