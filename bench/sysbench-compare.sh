#!/usr/bin/env bash
# Benchmark (not a test): dbrig sysbench against Debian's sysbench 1.0.20 on one
# MariaDB server that this script starts on 127.0.0.1, same tables, threads and
# duration, runs alternating. Prints TPS, client CPU per transaction (user and
# system apart, from the client's rusage), the server's CPU per transaction and
# prepare rows/s with the server's CPU per row loaded (from /proc of mariadbd:
# when the server is what limits the load, rows/s can only grow as fast as
# its CPU per row shrinks), with ratios.
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

# run_measured OUTFILE CMD... -> prints "wall user sys server" where user and
# sys are the client process's CPU seconds and server the server's (user+sys,
# from /proc/PID/stat of mariadbd)
run_measured() {
	python3 - "$(cat "$work/db/mysqld.pid")" "$@" <<'PY'
import os, subprocess, sys, time
def server_cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
spid = sys.argv[1]
out = open(sys.argv[2], "w")
s0 = server_cpu(spid)
t0 = time.monotonic()
p = subprocess.Popen(sys.argv[3:], stdout=out, stderr=subprocess.STDOUT)
_, status, ru = os.wait4(p.pid, 0)
if status != 0:
    sys.exit("command failed: " + " ".join(sys.argv[3:]))
print(f"{time.monotonic() - t0:.3f} {ru.ru_utime:.3f} {ru.ru_stime:.3f} {server_cpu(spid) - s0:.2f}")
PY
}

tps_of() { sed -n 's/.*transactions: *\([0-9]*\) *(\([0-9.]*\) per sec.).*/\1 \2/p' "$1"; }

# DBRIG_VARIANTS: dbrig run options to compare, separated by ';' (each variant
# runs in every round, alternating with sysbench), e.g. "--event-loops=1;--event-loops=2".
IFS=';' read -r -a VARIANTS <<<"${DBRIG_VARIANTS:-}"
[ ${#VARIANTS[@]} -gt 0 ] || VARIANTS=("")
tools=(sysbench)
declare -A OPTS PREP PREP_SRV RUN_TX RUN_TPS RUN_U RUN_S RUN_SRV
for i in "${!VARIANTS[@]}"; do tools+=("dbrig$i"); OPTS[dbrig$i]=${VARIANTS[$i]}; done
for tool in "${tools[@]}"; do
	PREP[$tool]=0; PREP_SRV[$tool]=0; RUN_TX[$tool]=0; RUN_TPS[$tool]=0; RUN_U[$tool]=0; RUN_S[$tool]=0; RUN_SRV[$tool]=0
done
cmd_of() { if [ "$1" = sysbench ]; then echo sysbench; else echo "$DBRIG_BIN sysbench"; fi; }

echo "== prepare: $TABLES tables x $TABLE_SIZE rows, --threads=$PREP_THREADS, $ROUNDS rounds, alternating"
for r in $(seq 1 "$ROUNDS"); do
	for tool in sysbench dbrig0; do
		$(cmd_of $tool) $C --tables=$TABLES $TEST cleanup >/dev/null 2>&1 || true
		read -r wall u s srv < <(run_measured "$work/prep.$tool" $(cmd_of $tool) $C $T --threads=$PREP_THREADS $TEST prepare)
		rows=$((TABLES * TABLE_SIZE))
		rate=$(python3 -c "print(round($rows / $wall))")
		echo "  round $r $tool: ${wall}s, $rate rows/s, server CPU ${srv}s"
		PREP[$tool]=$(python3 -c "print(${PREP[$tool]} + $wall)")
		PREP_SRV[$tool]=$(python3 -c "print(${PREP_SRV[$tool]} + $srv)")
	done
done

echo "== run: $TEST, --threads=$THREADS, ${DURATION}s each, $ROUNDS rounds, alternating"
for i in "${!VARIANTS[@]}"; do echo "  dbrig$i: dbrig sysbench ${VARIANTS[$i]}"; done
for r in $(seq 1 "$ROUNDS"); do
	for tool in "${tools[@]}"; do
		read -r wall u s srv < <(run_measured "$work/run.$tool" $(cmd_of $tool) $C $T ${OPTS[$tool]:-} \
			--threads=$THREADS --time=$DURATION $TEST run)
		read -r tx tps < <(tps_of "$work/run.$tool")
		echo "  round $r $tool: tps $tps, user ${u}s, sys ${s}s, server ${srv}s, $tx transactions"
		RUN_TX[$tool]=$((RUN_TX[$tool] + tx))
		RUN_TPS[$tool]=$(python3 -c "print(${RUN_TPS[$tool]} + $tps)")
		RUN_U[$tool]=$(python3 -c "print(${RUN_U[$tool]} + $u)")
		RUN_S[$tool]=$(python3 -c "print(${RUN_S[$tool]} + $s)")
		RUN_SRV[$tool]=$(python3 -c "print(${RUN_SRV[$tool]} + $srv)")
	done
done

args=()
for tool in "${tools[@]}"; do
	args+=("$tool" "${PREP[$tool]}" "${RUN_TX[$tool]}" "${RUN_TPS[$tool]}" "${RUN_U[$tool]}" "${RUN_S[$tool]}"
		"${PREP_SRV[$tool]}" "${RUN_SRV[$tool]}")
done
python3 - "$ROUNDS" "$((TABLES * TABLE_SIZE))" "${args[@]}" <<'PY'
import sys
rounds, rows = int(sys.argv[1]), int(sys.argv[2])
a = sys.argv[3:]
tools = []
for i in range(0, len(a), 8):
    name, prep, tx, tps, u, s = a[i], float(a[i + 1]), int(a[i + 2]), float(a[i + 3]), float(a[i + 4]), float(a[i + 5])
    psrv, rsrv = float(a[i + 6]), float(a[i + 7])
    tools.append((name, dict(prep=rows * rounds / prep if prep else 0.0, tps=tps / rounds, user=u / tx * 1e6,
                             sys=s / tx * 1e6, cpu=(u + s) / tx * 1e6, srv=rsrv / tx * 1e6,
                             psrv=psrv / (rows * rounds) * 1e6 if prep else 0.0)))
sb = tools[0][1]
rowsfmt = [("TPS", "tps", "%.1f", ">= 1.10"),
           ("client CPU us/txn (total)", "cpu", "%.1f", "<= 0.60"),
           ("client CPU us/txn (user)", "user", "%.1f", "<= 0.50"),
           ("client CPU us/txn (system)", "sys", "%.1f", ""),
           ("server CPU us/txn", "srv", "%.1f", ""),
           ("prepare rows/s", "prep", "%.0f", ">= 3.00"),
           ("prepare server CPU us/row", "psrv", "%.2f", "")]
for name, db in tools[1:]:
    print()
    print(f"{'':28}{'sysbench':>12}{name:>12}{name + '/sysbench':>16}  target")
    for label, k, f, target in rowsfmt:
        if k in ("prep", "psrv") and not db[k]:
            continue
        print(f"{label:28}{f % sb[k]:>12}{f % db[k]:>12}{db[k] / sb[k]:>16.2f}  {target}")
PY
