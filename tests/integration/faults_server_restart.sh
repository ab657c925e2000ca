#!/usr/bin/env bash
# The database server is killed (kill -9) in the sample phase and restarted
# within --reconnect-timeout: the run completes, every connection reconnected
# and was counted exactly once (each aborted the transaction in flight, which
# ran again), the outage is in the latency (each of the T transactions in
# flight took at least as long as the server was away), the intervals the
# outage touched are marked "faults" in the result and the journal, the
# precondition is untouched, and `dbrig report` shows the reconnects. The
# server is restarted on the same port and data directory.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
start_mariadb
C=$(conn_opts)
T=4
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 oltp_read_only prepare >/dev/null

mkdir -p "$TEST_TMP/res/c/g/d"
R=$TEST_TMP/res/c/g/d/i1
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=$T --precondition=2 --time=14 --report-interval=1 \
	--reconnect-timeout=60s --run-campaign=c --run-group=g --run-drive=d --run-instance=i1 \
	--result="$R.json" --journal="$R.jsonl" oltp_read_only run >"$TEST_TMP/run.out" 2>"$TEST_TMP/run.err" &
pid=$!
wait_lines "$R.jsonl" '"phase":"sample"' 2 || true # 2 s into the sample
t_kill=$(date +%s%N)
kill -9 "$(cat "$MARIADB_DIR/mysqld.pid")"
sleep 2 # the server stays away for 2 s (plus its crash recovery)
t_back=$(date +%s%N) # it accepts nothing before this
mariadb_start "$MARIADB_DIR" "$MARIADB_PORT" || die "MariaDB did not restart"
set +e; wait $pid; rc=$?; set -e
echo "run exit $rc; stderr: $(head -c 500 "$TEST_TMP/run.err")"

check "run completes after the restart (exit $rc)" [ "$rc" = 0 ]
# The server was away for 2 s and more of the 14 s sample (over 1%): the run
# ran to the end but is marked degraded, with the outage's length (security
# review finding 22: an outage that ended before the deadline gave complete).
check "status degraded" [ "$(json_get "$R.json" "r['status']")" = degraded ]
outage=$(json_get "$R.json" "r['outage']['seconds']")
echo "outage recorded: $outage s (share $(json_get "$R.json" "r['outage']['share']"))"
# At least half the 2 s the server was certainly away (its sessions are busy,
# so they see the loss at once), and no more than the sample.
check "the outage's length is recorded ($outage s)" [ "$(json_get "$R.json" \
	"1.0 <= r['outage']['seconds'] <= 14 and abs(r['outage']['share'] * 14 - r['outage']['seconds']) < 0.5 and r['outage']['degraded_above'] == 0.01")" = True ]
check "the error says why it is degraded" [ "$(json_get "$R.json" "'marked degraded' in r['error']")" = True ]
check "the run's output says it is degraded" grep -q '^WARNING: .*the result is marked degraded' "$TEST_TMP/run.out"
rec=$(json_get "$R.json" "r['phases']['sample']['errors']['reconnects']")
check "every connection reconnected and was counted once ($rec = $T)" [ "$rec" = "$T" ]
# Every connection had a transaction in flight when the server died: T
# transactions took at least the outage (the latency counts from the first
# attempt), read from the histogram's buckets.
out_ms=$(((t_back - t_kill) / 1000000))
n_long=$(json_get "$R.json" "sum(c for i, c in r['phases']['sample']['histogram']['counts'] if i >= 256 and ((i - 128 * (i // 128 - 1)) << (i // 128 - 1)) + (1 << (i // 128 - 1)) > $out_ms * 1000000)")
echo "outage >= $out_ms ms; sample max latency $(json_get "$R.json" "r['phases']['sample']['latency_ms']['max']") ms; transactions at least that long: $n_long"
check "the outage is in the latency: max >= $out_ms ms" [ "$(json_get "$R.json" "r['phases']['sample']['latency_ms']['max'] >= $out_ms")" = True ]
check "the outage is in the latency of all $T transactions in flight ($n_long)" [ "$n_long" -ge "$T" ]
check "oracle" oracle result "$R.json" --journal "$R.jsonl"
check "precondition had no reconnects" [ "$(json_get "$R.json" "r['phases']['precondition']['errors']['reconnects']")" = 0 ]
check "sample phase complete" [ "$(json_get "$R.json" "r['phases']['sample']['complete']")" = True ]
check "transactions committed after the restart" \
	[ "$(json_get "$R.json" "r['intervals'][-1]['transactions'] > 0 and not r['intervals'][-1]['faults']")" = True ]
# Marked intervals: only in the sample; they hold every reconnect; the outage
# (intervals with no commit) is marked; intervals before the kill are not.
check "marked intervals are in the sample only" [ "$(json_get "$R.json" \
	"all(i['phase'] == 'sample' for i in r['intervals'] if i['faults'])")" = True ]
check "every interval with a reconnect is marked" [ "$(json_get "$R.json" \
	"all(i['faults'] for i in r['intervals'] if i['reconnects'] > 0)")" = True ]
check "interval reconnects add up to the phase's" [ "$(json_get "$R.json" \
	"sum(i['reconnects'] for i in r['intervals'] if i['phase'] == 'sample')")" = "$rec" ]
# (A stall without a fault on a loaded machine may also commit nothing: only
# the silent intervals right after a fault belong to it.)
check "the silent outage intervals after the fault are marked" [ "$(json_get "$R.json" \
	"all(b['faults'] for a, b in zip(r['intervals'], r['intervals'][1:]) if a['faults'] and b['transactions'] == 0)")" = True ]
check "the outage was seen: a marked interval without a commit" [ "$(json_get "$R.json" \
	"sum(1 for i in r['intervals'] if i['faults'] and i['transactions'] == 0)")" -ge 1 ]
check "the first sample seconds are not marked" [ "$(json_get "$R.json" \
	"not any(i['faults'] for i in r['intervals'] if i['phase'] == 'sample' and i['phase_t'] <= 2)")" = True ]
nf=$(grep -c '"faults":true' "$R.jsonl" || true)
check "the journal marks the same intervals ($nf)" [ "$nf" = "$(json_get "$R.json" "sum(1 for i in r['intervals'] if i['faults'])")" ]
check "interval lines show the reconnects" grep -Eq 'reconn/s: [1-9]' "$TEST_TMP/run.out"
check "summary counts the reconnects" grep -Eq "reconnects: +$rec " "$TEST_TMP/run.out"

# The report carries the reconnects of the run (instances CSV column "reconnects").
check "report on the run" "$DBRIG_BIN" report "$TEST_TMP/res" --out "$TEST_TMP/rep" --compare none --format csv \
	>/dev/null 2>"$TEST_TMP/rep.err"
check "report lists the reconnects" [ "$(python3 -c '
import csv,sys
rows=list(csv.DictReader(open(sys.argv[1])))
print(rows[0]["reconnects"], rows[0]["status"])' "$TEST_TMP/rep/report-instances.csv")" = "$rec degraded" ]
# Its repetition is left out of the figures, with a warning; --include-degraded counts it.
check "report.json on the run" "$DBRIG_BIN" report "$TEST_TMP/res" --out "$TEST_TMP/rep2" --compare none --format json \
	>/dev/null 2>"$TEST_TMP/rep.err"
check "the degraded run is in no group and warned about" [ "$(json_get "$TEST_TMP/rep2/report.json" \
	"len(r['groups']) == 0 and any('degraded run: c/g/d/i1.json' in w and 'left out' in w for w in r['warnings'])")" = True ]
check "report --include-degraded" "$DBRIG_BIN" report "$TEST_TMP/res" --out "$TEST_TMP/rep3" --compare none --format json \
	--include-degraded >/dev/null 2>"$TEST_TMP/rep.err"
check "--include-degraded counts it" [ "$(json_get "$TEST_TMP/rep3/report.json" \
	"len(r['groups']) >= 1 and r['groups'][0]['status'] == 'complete'")" = True ]
finish
