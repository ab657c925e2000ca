#!/usr/bin/env bash
# Benchmark (not a test): dbrig sysbench against Debian's sysbench 1.0.20 on one
# MariaDB server that this script starts on 127.0.0.1, same tables, threads and
# duration, runs alternating. Prints TPS, client CPU per transaction (user and
# system apart, from the client's rusage) and prepare rows/s, with ratios.
#
#   bench/sysbench-compare.sh                # defaults below
#   THREADS=32 DURATION=30 ROUNDS=3 TABLES=4 TABLE_SIZE=100000 bench/sysbench-compare.sh
#   DBRIG_VARIANTS='--event-loops=1;--event-loops=2' bench/sysbench-compare.sh  # compare settings
#
# Targets on a 2-core machine at 32 threads (issue: sysbench driver core):
#   client CPU per oltp_read_write transaction <= 0.6x sysbench, user part <= 0.5x,
#   TPS >= 1.1x, prepare >= 3x.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
THREADS=${THREADS:-32}
DURATION=${DURATION:-30}
ROUNDS=${ROUNDS:-3}
TABLES=${TABLES:-4}
TABLE_SIZE=${TABLE_SIZE:-100000}
PREP_THREADS=${PREP_THREADS:-4}
TEST=${TEST:-oltp_read_write}
command -v sysbench >/dev/null || { echo "sysbench is not installed (apt-get install sysbench)" >&2; exit 1; }
bench_need_dbrig
bench_start_mariadb
mariadb_make_sbtest "$port" sbtest
C="--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$port --mysql-user=sbtest --mysql-db=sbtest"
T="--tables=$TABLES --table-size=$TABLE_SIZE"

# run_measured OUTFILE CMD... -> prints "wall user sys" of the client process
run_measured() {
	python3 - "$@" <<'PY'
import os, subprocess, sys, time
out = open(sys.argv[1], "w")
t0 = time.monotonic()
p = subprocess.Popen(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT)
_, status, ru = os.wait4(p.pid, 0)
if status != 0:
    sys.exit("command failed: " + " ".join(sys.argv[2:]))
print(f"{time.monotonic() - t0:.3f} {ru.ru_utime:.3f} {ru.ru_stime:.3f}")
PY
}

tps_of() { sed -n 's/.*transactions: *\([0-9]*\) *(\([0-9.]*\) per sec.).*/\1 \2/p' "$1"; }

# DBRIG_VARIANTS: dbrig run options to compare, separated by ';' (each variant
# runs in every round, alternating with sysbench), e.g. "--event-loops=1;--event-loops=2".
IFS=';' read -r -a VARIANTS <<<"${DBRIG_VARIANTS:-}"
[ ${#VARIANTS[@]} -gt 0 ] || VARIANTS=("")
tools=(sysbench)
declare -A OPTS PREP RUN_TX RUN_TPS RUN_U RUN_S
for i in "${!VARIANTS[@]}"; do tools+=("dbrig$i"); OPTS[dbrig$i]=${VARIANTS[$i]}; done
for tool in "${tools[@]}"; do PREP[$tool]=0; RUN_TX[$tool]=0; RUN_TPS[$tool]=0; RUN_U[$tool]=0; RUN_S[$tool]=0; done
cmd_of() { if [ "$1" = sysbench ]; then echo sysbench; else echo "$DBRIG_BIN sysbench"; fi; }

echo "== prepare: $TABLES tables x $TABLE_SIZE rows, --threads=$PREP_THREADS, $ROUNDS rounds, alternating"
for r in $(seq 1 "$ROUNDS"); do
	for tool in sysbench dbrig0; do
		$(cmd_of $tool) $C --tables=$TABLES $TEST cleanup >/dev/null 2>&1 || true
		read -r wall u s < <(run_measured "$work/prep.$tool" $(cmd_of $tool) $C $T --threads=$PREP_THREADS $TEST prepare)
		rows=$((TABLES * TABLE_SIZE))
		rate=$(python3 -c "print(round($rows / $wall))")
		echo "  round $r $tool: ${wall}s, $rate rows/s"
		PREP[$tool]=$(python3 -c "print(${PREP[$tool]} + $wall)")
	done
done

echo "== run: $TEST, --threads=$THREADS, ${DURATION}s each, $ROUNDS rounds, alternating"
for i in "${!VARIANTS[@]}"; do echo "  dbrig$i: dbrig sysbench ${VARIANTS[$i]}"; done
for r in $(seq 1 "$ROUNDS"); do
	for tool in "${tools[@]}"; do
		read -r wall u s < <(run_measured "$work/run.$tool" $(cmd_of $tool) $C $T ${OPTS[$tool]:-} \
			--threads=$THREADS --time=$DURATION $TEST run)
		read -r tx tps < <(tps_of "$work/run.$tool")
		echo "  round $r $tool: tps $tps, user ${u}s, sys ${s}s, $tx transactions"
		RUN_TX[$tool]=$((RUN_TX[$tool] + tx))
		RUN_TPS[$tool]=$(python3 -c "print(${RUN_TPS[$tool]} + $tps)")
		RUN_U[$tool]=$(python3 -c "print(${RUN_U[$tool]} + $u)")
		RUN_S[$tool]=$(python3 -c "print(${RUN_S[$tool]} + $s)")
	done
done

args=()
for tool in "${tools[@]}"; do
	args+=("$tool" "${PREP[$tool]}" "${RUN_TX[$tool]}" "${RUN_TPS[$tool]}" "${RUN_U[$tool]}" "${RUN_S[$tool]}")
done
python3 - "$ROUNDS" "$((TABLES * TABLE_SIZE))" "${args[@]}" <<'PY'
import sys
rounds, rows = int(sys.argv[1]), int(sys.argv[2])
a = sys.argv[3:]
tools = []
for i in range(0, len(a), 6):
    name, prep, tx, tps, u, s = a[i], float(a[i + 1]), int(a[i + 2]), float(a[i + 3]), float(a[i + 4]), float(a[i + 5])
    tools.append((name, dict(prep=rows * rounds / prep if prep else 0.0, tps=tps / rounds, user=u / tx * 1e6,
                             sys=s / tx * 1e6, cpu=(u + s) / tx * 1e6)))
sb = tools[0][1]
rowsfmt = [("TPS", "tps", "%.1f", ">= 1.10"),
           ("client CPU us/txn (total)", "cpu", "%.1f", "<= 0.60"),
           ("client CPU us/txn (user)", "user", "%.1f", "<= 0.50"),
           ("client CPU us/txn (system)", "sys", "%.1f", ""),
           ("prepare rows/s", "prep", "%.0f", ">= 3.00")]
for name, db in tools[1:]:
    print()
    print(f"{'':28}{'sysbench':>12}{name:>12}{name + '/sysbench':>16}  target")
    for label, k, f, target in rowsfmt:
        if k == "prep" and not db[k]:
            continue
        print(f"{label:28}{f % sb[k]:>12}{f % db[k]:>12}{db[k] / sb[k]:>16.2f}  {target}")
PY
