#!/bin/bash
# Does a think-time TPC-C run offer the load its delays promise? A benchmark,
# not a test (the tests hold a run only to its schedule, exactly: see
# tests/lib/oracle.py schedule_bound): ROUNDS runs of TERMINALS terminals at
# --delays=scale:FACTOR against a private MariaDB, each checked with
# `oracle.py result --think-model` (TPS = terminals / mean cycle of keying +
# think + response, within 10%), printing TPS, the model's TPS and the gap.
# Usage: bench/tpcc-delays.sh [SECONDS] [ROUNDS] [TERMINALS] [FACTOR]   (build first)
set -euo pipefail
SECS=${1:-20}
ROUNDS=${2:-3}
TERMS=${3:-20}
FACTOR=${4:-0.01}
. "$(dirname "$0")/lib.sh"
bench_need_dbrig
bench_start_mariadb
mariadb_make_sbtest "$port" tpcc
MY="--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$port --mysql-user=sbtest --mysql-db=tpcc"
W=$(( (TERMS + 9) / 10 ))
"$DBRIG_BIN" tpcc $MY --warehouses="$W" --threads=2 prepare | tail -1
fails=0
for i in $(seq "$ROUNDS"); do
	"$DBRIG_BIN" tpcc $MY --terminals="$TERMS" --delays=scale:"$FACTOR" --connections=3 --precondition=2 \
		--time="$SECS" --result="$work/r$i.json" run >/dev/null
	out=$(python3 "$bench_here/tests/lib/oracle.py" result "$work/r$i.json" --think-model 2>&1) || fails=$((fails + 1))
	echo "round $i: $(python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['phases']['sample']; print('%.2f TPS, avg %.2f ms' % (s['tps'], s['latency_ms']['avg']))" "$work/r$i.json"); $(echo "$out" | tail -1)"
done
echo "rounds outside the 10% model: $fails of $ROUNDS (load average $(cut -d' ' -f1-3 /proc/loadavg))"
