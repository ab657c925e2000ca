#!/usr/bin/env bash
# Benchmark (not a test): the harness's own cost per transaction, with
# --mysql-dry-run (no server: every statement "succeeds" without a round
# trip), for every OLTP test, dbrig sysbench beside Debian's sysbench 1.0.20.
# Prints client CPU microseconds per transaction (user + system, from the
# process's rusage) and the ratio.
#
#   bench/sysbench-dry-run.sh                    # 200,000 transactions per test, 1 thread, 3 rounds
#   EVENTS=50000 THREADS=4 ROUNDS=1 bench/sysbench-dry-run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
DBRIG_BIN=${DBRIG_BIN:-$here/build/dbrig}
EVENTS=${EVENTS:-200000}
THREADS=${THREADS:-1}
ROUNDS=${ROUNDS:-3}
[ -x "$DBRIG_BIN" ] || { echo "no dbrig binary at $DBRIG_BIN (build first, or set DBRIG_BIN)" >&2; exit 1; }
command -v sysbench >/dev/null || { echo "sysbench is not installed (apt-get install sysbench)" >&2; exit 1; }

cpu_us_per_txn() { # cpu_us_per_txn CMD...: the best of ROUNDS runs
	python3 - "$EVENTS" "$ROUNDS" "$@" <<'PY'
import resource, subprocess, sys
events, rounds, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
best = None
for _ in range(rounds):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    us = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1e6 / events
    best = us if best is None or us < best else best
print(f"{best:.2f}")
PY
}

echo "--mysql-dry-run, $EVENTS transactions, --threads=$THREADS, best of $ROUNDS; client CPU us per transaction"
printf '%-22s %10s %10s %7s\n' test sysbench dbrig ratio
for t in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_update_index \
	oltp_update_non_index oltp_insert oltp_delete; do
	args=(--mysql-dry-run --threads="$THREADS" --events="$EVENTS" --time=0 "$t" run)
	s=$(cpu_us_per_txn sysbench "${args[@]}")
	d=$(cpu_us_per_txn "$DBRIG_BIN" sysbench "${args[@]}")
	printf '%-22s %10s %10s %7s\n' "$t" "$s" "$d" "$(python3 -c "print(f'{$d/$s:.2f}x')")"
done
