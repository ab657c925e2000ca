#!/bin/bash
# Client cost of dbrig tpcc on this machine, against a private MariaDB:
#  1. closed loop (--delays=off): client CPU µs per transaction (user+sys of
#     the dbrig process / committed transactions), libmysqlclient and ODBC;
#  2. 15,000 terminals under spec delays over 32 connections: the client's
#     peak RSS and CPU share;
#  3. pool vs one session per terminal (--connections=terminals):
#     SESSIONS terminals (default 2,000) at scale:0.5 over 32 connections and
#     as that many sessions, alternating, ROUNDS times (default 2), both
#     drivers: TPS, average latency, client CPU per transaction, peak RSS,
#     the time to close the sessions, and the ratios.
# Usage: bench/tpcc-scale.sh [SECONDS]   (build first: cmake --build build)
set -euo pipefail
SECS=${1:-20}
. "$(dirname "$0")/../tests/lib/common.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/postgres.sh"
MARIADB_EXTRA_OPTS="--max-connections=$((${SESSIONS:-2000} + 100))" start_mariadb
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

# 3. Pool vs session per terminal. TPS and latency are the sample's (the
# connect ramp-up is outside it); CPU and RSS are the whole process's.
sess() { # sess LABEL ARGS... -> appends "label tps lat_ms cpu_us rss_mib close_s" to $TEST_TMP/sess
	local label=$1 closed; shift
	/usr/bin/time -f "%U %S %M" -o "$TEST_TMP/time" "$DBRIG_BIN" tpcc "$@" --delays=scale:0.5 \
		--terminals="${SESSIONS:-2000}" --time="$SECS" --result="$TEST_TMP/r.json" run >"$TEST_TMP/sess.out"
	read -r u s rss <"$TEST_TMP/time"
	closed=$(sed -n 's/^closed [0-9]* sessions in \([0-9.]*\)s$/\1/p' "$TEST_TMP/sess.out")
	python3 -c "
import json
r = json.load(open('$TEST_TMP/r.json')); s = r['phases']['sample']
n = s['transactions']
print('$label', s['tps'], s['latency_ms']['avg'], ($u + $s) * 1e6 / max(n, 1), $rss / 1024, '${closed:-0}')" | tee -a "$TEST_TMP/sess"
}
for round in $(seq "${ROUNDS:-2}"); do
	for drv in mysql odbc; do
		if [ $drv = mysql ]; then set -- $MY; else set -- $OD; fi
		sess "$drv-pool" "$@" --connections=32
		sess "$drv-terminals" "$@" --connections=terminals
	done
done
python3 - "$TEST_TMP/sess" <<'PY'
import sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    k, *v = line.split()
    rows[k].append([float(x) for x in v])
avg = {k: [sum(c) / len(c) for c in zip(*v)] for k, v in rows.items()}
print("%-16s %8s %10s %14s %10s %10s" % ("terminals", "TPS", "avg ms", "CPU us/txn", "RSS MiB", "close s"))
for k, (tps, lat, cpu, rss, close) in sorted(avg.items()):
    print("%-16s %8.1f %10.2f %14.0f %10.1f %10.1f" % (k, tps, lat, cpu, rss, close))
for d in ("mysql", "odbc"):
    p, t = avg.get(d + "-pool"), avg.get(d + "-terminals")
    if p and t:
        print("%s terminals/pool: TPS %.2fx, avg latency %.2fx, CPU per txn %.2fx, RSS %.2fx"
              % (d, t[0] / p[0], t[1] / p[1], t[2] / p[2], t[3] / p[3]))
PY
