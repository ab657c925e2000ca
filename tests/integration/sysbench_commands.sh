#!/usr/bin/env bash
# Every sysbench test through prepare, prewarm, run and cleanup (and check once) against a real
# MariaDB; the result and journal files are complete and consistent.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
start_mariadb
C=$(conn_opts)

for t in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_update_index \
	oltp_update_non_index oltp_insert oltp_delete; do
	out=$TEST_TMP/$t
	check "$t prepare" "$DBRIG_BIN" sysbench $C --tables=2 --table-size=2000 --threads=2 $t prepare >"$out.prepare" 2>&1
	rows=$(mariadb_sql "$MARIADB_PORT" "SELECT COUNT(*) FROM sbtest.sbtest2")
	check "$t prepare loads 2000 rows (got $rows)" [ "$rows" = 2000 ]
	idx=$(mariadb_sql "$MARIADB_PORT" "SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA='sbtest' AND INDEX_NAME='k_2'")
	check "$t prepare creates k_2" [ "$idx" = 1 ]
	# prewarm reads every row of every table twice (the primary key, then a scan for k), as the
	# server counts it: Rows_read grows by exactly 2 x tables x table-size, in 2 SELECTs per table
	# (test review: prewarm was checked by exit code and text only).
	rr0=$(mariadb_sql "$MARIADB_PORT" "SHOW GLOBAL STATUS WHERE Variable_name IN ('Rows_read', 'Com_select')" | sort | cut -f2 | paste -sd' ')
	check "$t prewarm" "$DBRIG_BIN" sysbench $C --tables=2 --table-size=2000 --threads=2 $t prewarm >"$out.prewarm" 2>&1
	rr1=$(mariadb_sql "$MARIADB_PORT" "SHOW GLOBAL STATUS WHERE Variable_name IN ('Rows_read', 'Com_select')" | sort | cut -f2 | paste -sd' ')
	read -r sel0 rows0 <<<"$rr0"
	read -r sel1 rows1 <<<"$rr1"
	check "$t prewarm reads every row twice (Rows_read +$((rows1 - rows0)), expected +8000)" [ $((rows1 - rows0)) = 8000 ]
	check "$t prewarm sends 2 SELECTs per table (Com_select +$((sel1 - sel0)), expected +4)" [ $((sel1 - sel0)) = 4 ]
	check "$t prewarm output: each table once" bash -c '[ "$(grep "^Prewarming table" "$0" | sort)" = "$(printf "Prewarming table sbtest1\nPrewarming table sbtest2")" ]' "$out.prewarm"
	if [ $t = oltp_read_write ]; then
		# check: the fingerprint a campaign compares restores with, as the server counts it
		fp=$("$DBRIG_BIN" sysbench $C --tables=2 $t check 2>&1 | tail -1)
		# (the checksums of every table folded in table order: C = C x 1000003 + checksum)
		sum=$(mariadb_sql "$MARIADB_PORT" "CHECKSUM TABLE sbtest.sbtest1, sbtest.sbtest2 EXTENDED" | cut -f2 |
			python3 -c "import sys; c = 0
for v in sys.stdin.read().split(): c = (c * 1000003 + int(v)) % 2**64
print(c)")
		check "$t check fingerprint ($fp)" [ "$fp" = "fingerprint: tables=2 rows=4000 sbtest1.rows=2000 checksum=$sum" ]
		# one row of sbtest2 changed, every count the same: the fingerprint differs
		mariadb_sql "$MARIADB_PORT" "UPDATE sbtest.sbtest2 SET c = REVERSE(c) WHERE id = 7"
		fp2=$("$DBRIG_BIN" sysbench $C --tables=2 $t check 2>&1 | tail -1)
		check "$t check: a changed row of sbtest2 changes the fingerprint ($fp2)" [ "$fp2" != "$fp" ]
		# ping: a campaign's readiness probe logs in as the driver's user into its database
		check "$t ping" "$DBRIG_BIN" sysbench $C $t ping
		rc=0
		"$DBRIG_BIN" sysbench $C --mysql-db=nosuchdb $t ping >"$out.ping" 2>&1 || rc=$?
		check "$t ping into a missing database exits 1 (got $rc)" [ "$rc" = 1 ]
		check "$t ping names the server's error" grep -q "error 1049: Unknown database 'nosuchdb'" "$out.ping"
	fi
	check "$t run" "$DBRIG_BIN" sysbench $C --tables=2 --table-size=2000 --threads=4 --time=2 --report-interval=1 \
		--percentile=50,95,99 --result="$out.json" --journal="$out.jsonl" $t run >"$out.run" 2>&1
	check "$t summary printed" grep -q "^    transactions: " "$out.run"
	if [ $t = oltp_read_write ]; then
		fp2=$("$DBRIG_BIN" sysbench $C --tables=2 $t check 2>&1 | tail -1)
		check "$t run changes the fingerprint ($fp2)" [ "$fp2" != "$fp" ]
	fi
	check "$t interval line" grep -Eq '^\[ 1s \] thds: 4 tps: [0-9.]+ qps: [0-9.]+ \(r/w/o: [0-9.]+/[0-9.]+/[0-9.]+\) lat \(ms,50%\): [0-9.]+ err/s: [0-9.]+ reconn/s: [0-9.]+$' "$out.run"
	check "$t result complete" [ "$(json_get "$out.json" "r['status']")" = complete ]
	check "$t result schema" [ "$(json_get "$out.json" "r['schema']")" = dbrig.result/1.3 ]
	# Its journal beside it by name holds its intervals: the result names it and leaves them out (1.3).
	check "$t result names its journal, its intervals left to it" python3 -c "
import json, os, sys
r = json.load(open(sys.argv[1]))
assert 'intervals' not in r and r['journal'] == os.path.basename(sys.argv[1])[:-5] + '.jsonl', (sorted(r), r.get('journal'))
" "$out.json"
	# The driver's own CPU (rusage) per phase and interval, its event loops and its clock start.
	check "$t driver cpu" [ "$(json_get "$out.json" "r['phases']['sample']['cpu']['seconds'] > 0 and r['phases']['sample']['cpu']['cores'] > 0 and all(i['cpu_s'] >= 0 for i in r['intervals']) and r['driver']['event_loops'] >= 1 and r['driver']['clock_start_ns'] > 0")" = True ]
	check "$t transactions > 0" [ "$(json_get "$out.json" "r['phases']['sample']['transactions'] > 0")" = True ]
	# (two 1 s intervals, or one when a starved main thread woke after both ticks: it merges missed ticks)
	check "$t journal: interval lines" [ "$(grep -c '"type":"interval"' "$out.jsonl")" -ge 1 ]
	# Percentiles 50/95/99 from the buckets, Little's law, journal = result intervals.
	check "$t oracle" oracle result "$out.json" --journal "$out.jsonl"
	check "$t percentiles 50,95,99" [ "$(json_get "$out.json" "sorted(r['phases']['sample']['latency_ms']['percentiles'])")" = "['50', '95', '99']" ]
	check "$t histogram total = transactions" [ "$(json_get "$out.json" "r['phases']['sample']['histogram']['total'] == r['phases']['sample']['transactions']")" = True ]
	check "$t journal ends" python3 - "$out.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines[0]["type"] == "header" and lines[0]["schema"] == "dbrig.journal/1.2"
assert lines[-1]["type"] == "end" and lines[-1]["status"] == "complete"
ivs = [l for l in lines if l["type"] == "interval"]
assert len(ivs) >= 1, len(ivs)
assert sum(i["transactions"] for i in ivs) > 0
PY
	check "$t cleanup" "$DBRIG_BIN" sysbench $C --tables=2 $t cleanup >"$out.cleanup" 2>&1
	left=$(mariadb_sql "$MARIADB_PORT" "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbtest'")
	check "$t cleanup drops tables (left $left)" [ "$left" = 0 ]
done

# Precondition then sample: both phases kept apart in the result.
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 oltp_read_only prepare >/dev/null
check "precondition run" "$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=2 --precondition=2s --time=2 \
	--report-interval=1 --result="$TEST_TMP/pre.json" oltp_read_only run >"$TEST_TMP/pre.out" 2>&1
check "precondition line" grep -Eq '^\[ 1s \] precondition \([0-9]+s left\) thds: 2 ' "$TEST_TMP/pre.out"
check "phases kept apart" [ "$(json_get "$TEST_TMP/pre.json" "r['phases']['precondition']['transactions'] > 0 and r['phases']['sample']['transactions'] > 0")" = True ]
check "precondition run: oracle" oracle result "$TEST_TMP/pre.json"
# No journal: the result holds its intervals (both phases) and names none.
check "no journal: the result keeps its intervals" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert 'journal' not in r and {i['phase'] for i in r['intervals']} == {'precondition', 'sample'}, r.get('journal')
" "$TEST_TMP/pre.json"
check "summary covers the sample only" python3 - "$TEST_TMP/pre.json" "$TEST_TMP/pre.out" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
m = re.search(r"total number of events:\s+(\d+)", open(sys.argv[2]).read())
assert int(m.group(1)) == r["phases"]["sample"]["transactions"], (m.group(1), r["phases"]["sample"]["transactions"])
PY
# --histogram prints sysbench's histogram block before the summary.
check "histogram run" "$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=2 --time=1 --histogram \
	oltp_read_only run >"$TEST_TMP/hist.out" 2>&1
check "histogram header" grep -qx "Latency histogram (values are in milliseconds)" "$TEST_TMP/hist.out"
check "histogram rows" grep -Eq '^ +[0-9]+\.[0-9]{3} \|\*{0,40} +[0-9]+$' "$TEST_TMP/hist.out"
# --events limits the sample phase exactly.
check "events run" "$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=3 --time=0 --events=500 \
	--result="$TEST_TMP/ev.json" oltp_read_only run >/dev/null 2>&1
check "--events=500 gives 500 transactions" [ "$(json_get "$TEST_TMP/ev.json" "r['phases']['sample']['transactions']")" = 500 ]
check "events run: oracle" oracle result "$TEST_TMP/ev.json"
# An --events run ends when its last event completes: on one connection its
# total time is the events' own time (the latency sum) within 10%, where the
# main loop's 100 ms poll used to stretch it (0.1001s for 100 point selects).
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=1 --time=0 --events=300 oltp_point_select run \
	>"$TEST_TMP/evt.out" 2>&1
check "--events total time is the events' own time ($(grep -E 'total time|sum:' "$TEST_TMP/evt.out" | tr -s ' ' | tr '\n' ' '))" \
	python3 - "$TEST_TMP/evt.out" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
total = float(re.search(r"total time:\s+([0-9.]+)s", t).group(1)) * 1000
own = float(re.search(r"\n\s+sum:\s+([0-9.]+)", t).group(1))
assert abs(total - own) <= 0.1 * own, (total, own)
PY
# A server that refuses LOAD DATA LOCAL gets multi-row INSERTs: same rows.
"$DBRIG_BIN" sysbench $C --tables=1 oltp_read_only cleanup >/dev/null
mariadb_sql "$MARIADB_PORT" "SET GLOBAL local_infile=0"
check "prepare without local_infile" "$DBRIG_BIN" sysbench $C --tables=2 --table-size=3000 --threads=3 oltp_read_only prepare >/dev/null
mariadb_sql "$MARIADB_PORT" "SET GLOBAL local_infile=1"
ids=$(mariadb_sql "$MARIADB_PORT" "SELECT MIN(id), MAX(id), COUNT(DISTINCT id) FROM sbtest.sbtest2")
check "INSERT fallback loads ids 1..3000 (got $ids)" [ "$ids" = "1	3000	3000" ]
"$DBRIG_BIN" sysbench $C --tables=2 oltp_read_only cleanup >/dev/null
# A table split over several connections (fewer tables than threads) is complete.
check "prepare 1 table over 4 threads" "$DBRIG_BIN" sysbench $C --tables=1 --table-size=120000 --threads=4 oltp_read_only prepare >/dev/null
ids=$(mariadb_sql "$MARIADB_PORT" "SELECT MIN(id), MAX(id), COUNT(DISTINCT id) FROM sbtest.sbtest1")
check "split table has ids 1..120000 (got $ids)" [ "$ids" = "1	120000	120000" ]
finish
