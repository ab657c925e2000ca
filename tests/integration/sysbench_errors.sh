#!/usr/bin/env bash
# Errors during a run: deadlocks are rolled back, retried and counted; a
# connection killed by the server reconnects and the run goes on; SIGINT,
# SIGTERM and SIGHUP keep a partial result; kill -9 keeps the journal; a fatal error
# stops the run with a clear message and a partial result.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
start_mariadb
C=$(conn_opts)

# --- deadlocks: 16 connections on a 10-row table ---
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=10 oltp_write_only prepare >/dev/null
dl0=$(mariadb_sql "$MARIADB_PORT" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='INNODB_DEADLOCKS'")
check "contended run completes" "$DBRIG_BIN" sysbench $C --tables=1 --table-size=10 --threads=16 --time=4 \
	--rand-type=uniform --result="$TEST_TMP/dl.json" oltp_write_only run >"$TEST_TMP/dl.out" 2>&1
dl1=$(mariadb_sql "$MARIADB_PORT" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='INNODB_DEADLOCKS'")
ign=$(json_get "$TEST_TMP/dl.json" "r['phases']['sample']['errors']['ignored']")
echo "deadlocks on the server: $((dl1 - dl0)), retried by dbrig: $ign"
check "deadlocks happened" [ $((dl1 - dl0)) -gt 0 ]
check "every deadlock was retried and counted ($ign vs $((dl1 - dl0)))" [ "$ign" = $((dl1 - dl0)) ]
check "status complete despite deadlocks" [ "$(json_get "$TEST_TMP/dl.json" "r['status']")" = complete ]
check "ignored errors in the summary" grep -Eq "ignored errors: +$ign " "$TEST_TMP/dl.out"
rb=$(mariadb_sql "$MARIADB_PORT" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='COM_ROLLBACK'")
check "a ROLLBACK was sent before each retry ($rb)" [ "$rb" -ge "$ign" ]

# --- a fatal error: a dropped table mid-run ---
"$DBRIG_BIN" sysbench $C --tables=1 oltp_write_only cleanup >/dev/null
"$DBRIG_BIN" sysbench $C --tables=2 --table-size=1000 oltp_read_only prepare >/dev/null
( sleep 2; mariadb_sql "$MARIADB_PORT" "DROP TABLE sbtest.sbtest2" ) &
bg=$!
set +e
"$DBRIG_BIN" sysbench $C --tables=2 --table-size=1000 --threads=2 --time=30 --report-interval=1 \
	--result="$TEST_TMP/fatal.json" --journal="$TEST_TMP/fatal.jsonl" oltp_read_only run >"$TEST_TMP/fatal.out" 2>"$TEST_TMP/fatal.err"
rc=$?
set -e
wait $bg
check "fatal error exits 1 (got $rc)" [ "$rc" = 1 ]
check "fatal error names the server error, as sysbench prints it" grep -q "^FATAL: .*error 1146 (42S02): Table 'sbtest.sbtest2' doesn't exist" "$TEST_TMP/fatal.out"
check "partial result marked failed" [ "$(json_get "$TEST_TMP/fatal.json" "r['status']")" = failed ]
check "partial result keeps what was measured" [ "$(json_get "$TEST_TMP/fatal.json" "r['phases']['sample']['transactions'] > 0")" = True ]
"$DBRIG_BIN" sysbench $C --tables=2 oltp_read_only cleanup >/dev/null

# --- KILL <id> from the server side: that connection reconnects, the run goes on ---
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 oltp_read_only prepare >/dev/null
# Two connections are killed once the first interval is journaled (all four
# connected), not after a fixed sleep: a slow start must not make it flaky.
( wait_lines "$TEST_TMP/kill.jsonl" '"type":"interval"' 1 || exit 1
  for id in $(mariadb_sql "$MARIADB_PORT" "SELECT ID FROM information_schema.PROCESSLIST WHERE USER='sbtest' LIMIT 2"); do
	mariadb_sql "$MARIADB_PORT" "KILL $id"
  done ) &
bg=$!
check "run survives KILL" "$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=4 --time=5 --report-interval=1 \
	--result="$TEST_TMP/kill.json" --journal="$TEST_TMP/kill.jsonl" oltp_read_only run >"$TEST_TMP/kill.out" 2>&1
check "the KILLs were sent" wait $bg
check "reconnects counted" [ "$(json_get "$TEST_TMP/kill.json" "r['phases']['sample']['errors']['reconnects']")" = 2 ]
check "status complete after KILL" [ "$(json_get "$TEST_TMP/kill.json" "r['status']")" = complete ]

# --- a lock wait timeout (1205): the transaction is rolled back, retried and counted ---
# (README "What happens when things fail" claims it; the review found it untested.)
mariadb_sql "$MARIADB_PORT" "SET GLOBAL innodb_lock_wait_timeout=1"
mariadb_sql "$MARIADB_PORT" "BEGIN; SELECT COUNT(*) FROM sbtest.sbtest1 FOR UPDATE; DO SLEEP(4); COMMIT" >/dev/null &
bg=$!
for _ in $(seq 1 100); do
	[ "$(mariadb_sql "$MARIADB_PORT" "SELECT COUNT(*) FROM information_schema.INNODB_TRX")" -gt 0 ] && break
	sleep 0.05
done
check "lock wait: the run completes" "$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=2 --time=3 \
	--result="$TEST_TMP/lw.json" oltp_update_index run >"$TEST_TMP/lw.out" 2>&1
wait $bg
mariadb_sql "$MARIADB_PORT" "SET GLOBAL innodb_lock_wait_timeout=50"
ign=$(json_get "$TEST_TMP/lw.json" "r['phases']['sample']['errors']['ignored']")
check "lock wait: the timed-out updates were retried and counted ($ign)" [ "$ign" -ge 2 ]
check "lock wait: status complete" [ "$(json_get "$TEST_TMP/lw.json" "r['status']")" = complete ]
check "lock wait: no fatal error" [ "$(json_get "$TEST_TMP/lw.json" "r['phases']['sample']['errors']['fatal']")" = 0 ]

# --- prepare on existing tables is an error, as in sysbench ---
set +e
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 oltp_read_only prepare >"$TEST_TMP/exists.out" 2>&1
rc=$?
set -e
check "prepare over existing tables exits 1 (got $rc)" [ "$rc" = 1 ]
check "prepare over existing tables: sysbench's lines" grep -qx "FATAL: \`sysbench.cmdline.call_command' function failed: oltp_read_only: SQL error, errno = 1050, state = '42S01': Table 'sbtest1' already exists" "$TEST_TMP/exists.out"
check "prepare over existing tables: the statement" grep -qx "FATAL: mysql_drv_query() returned error 1050 (Table 'sbtest1' already exists) for query 'CREATE TABLE sbtest1(" "$TEST_TMP/exists.out"

# --- --rate under a stalled server: latency runs from the intended start ---
# 50 arrivals/s on 2 connections; 2 s in, FLUSH TABLES WITH READ LOCK holds
# every UPDATE for 3 s. The arrivals keep coming and queue; each one's latency
# counts its wait, so the one that arrived as the lock was taken waits ~3 s and
# the ~100 that arrived in its first 2 s wait more than 1 s: well over a tenth
# of the run's ~300. (Closed-loop latency would show two slow transactions.)
"$DBRIG_BIN" sysbench $C --tables=1 oltp_read_only cleanup >/dev/null
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 oltp_update_index prepare >/dev/null
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=2 --rate=50 --time=6 --report-interval=1 \
	--percentile=90 --result="$TEST_TMP/rate.json" --journal="$TEST_TMP/rate.jsonl" oltp_update_index run \
	>"$TEST_TMP/rate.out" 2>&1 &
pid=$!
wait_lines "$TEST_TMP/rate.jsonl" '"type":"interval"' 2
mariadb_sql "$MARIADB_PORT" "FLUSH TABLES WITH READ LOCK; SELECT SLEEP(3); UNLOCK TABLES" >/dev/null
set +e; wait $pid; rc=$?; set -e
check "--rate run through a stall exits 0 (got $rc)" [ "$rc" = 0 ]
check "--rate run through a stall: complete" [ "$(json_get "$TEST_TMP/rate.json" "r['status']")" = complete ]
max=$(json_get "$TEST_TMP/rate.json" "r['phases']['sample']['latency_ms']['max']")
p90=$(json_get "$TEST_TMP/rate.json" "r['phases']['sample']['latency_ms']['percentiles']['90']")
echo "--rate=50 through a 3 s stall: max latency $max ms, 90th percentile $p90 ms"
check "--rate: the latency of the arrival at the stall's start includes the stall ($max ms)" \
	python3 -c "import sys; sys.exit(0 if $max >= 2500 else 1)"
check "--rate: a tenth of the arrivals waited more than 1 s (90th percentile $p90 ms)" \
	python3 -c "import sys; sys.exit(0 if $p90 >= 1000 else 1)"
check "--rate: the queue grew during the stall" grep -Eq '^\[ [0-9]+s \] queue length: [1-9][0-9]*, concurrency: 2$' "$TEST_TMP/rate.out"
check "--rate: the header says so" grep -qx 'Target transaction rate: 50/sec' "$TEST_TMP/rate.out"
"$DBRIG_BIN" sysbench $C --tables=1 oltp_update_index cleanup >/dev/null
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 oltp_read_only prepare >/dev/null

# --- SIGINT, SIGTERM and SIGHUP: partial result, exit non-zero (SIGHUP: security review
# finding 17, it killed the driver with no result and no journal end line) ---
for sig in INT TERM HUP; do
	"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=2 --precondition=1 --time=60 --report-interval=1 \
		--result="$TEST_TMP/sig$sig.json" --journal="$TEST_TMP/sig$sig.jsonl" oltp_read_only run >"$TEST_TMP/sig$sig.out" 2>&1 &
	pid=$!
	wait_lines "$TEST_TMP/sig$sig.jsonl" '"phase":"sample"' 1 # the precondition is over
	kill -$sig $pid
	set +e; wait $pid; rc=$?; set -e
	check "SIG$sig exits 1 (got $rc)" [ "$rc" = 1 ]
	check "SIG$sig result interrupted" [ "$(json_get "$TEST_TMP/sig$sig.json" "r['status']")" = interrupted ]
	check "SIG$sig sample marked incomplete" [ "$(json_get "$TEST_TMP/sig$sig.json" "r['phases']['sample']['complete']")" = False ]
	check "SIG$sig precondition kept" [ "$(json_get "$TEST_TMP/sig$sig.json" "r['phases']['precondition']['complete']")" = True ]
	check "SIG$sig named in the result" [ "$(json_get "$TEST_TMP/sig$sig.json" "r['error']")" = "interrupted by SIG$sig" ]
	check "SIG$sig journal ended interrupted" [ "$(tail -n1 "$TEST_TMP/sig$sig.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')" = interrupted ]
done

# --- kill -9: no result file, but the journal holds every completed interval ---
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=2 --time=60 --report-interval=1 \
	--result="$TEST_TMP/k9.json" --journal="$TEST_TMP/k9.jsonl" oltp_read_only run >/dev/null 2>&1 &
pid=$!
wait_lines "$TEST_TMP/k9.jsonl" '"type":"interval"' 2
kill -9 $pid
wait $pid 2>/dev/null || true
check "kill -9 leaves no result file" [ ! -e "$TEST_TMP/k9.json" ]
check "kill -9 leaves no temporary file" [ -z "$(ls "$TEST_TMP" | grep 'k9.json.tmp' || true)" ]
n=$(grep -c '"type":"interval"' "$TEST_TMP/k9.jsonl" || true)
check "kill -9 journal holds the completed intervals ($n)" [ "$n" -ge 2 ]
check "kill -9 journal has no end line" [ -z "$(grep '"type":"end"' "$TEST_TMP/k9.jsonl" || true)" ]

# --- the server dies early in the sample and is still away when the sample ends: the
# outage is shorter than --reconnect-timeout, but the result must not be "complete"
# (security review finding 22: it was, at a fraction of the TPS) ---
# kill_server_mid_run NAME OPTIONS...: a 2-connection read-only run; kill -9 of the
# server after its first interval; $rc its exit, NAME.json/.jsonl/.err its files.
kill_server_mid_run() {
	local name=$1 pid
	shift
	"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=2 --report-interval=1 "$@" \
		--result="$TEST_TMP/$name.json" --journal="$TEST_TMP/$name.jsonl" oltp_read_only run >"$TEST_TMP/$name.err" 2>&1 &
	pid=$!
	wait_lines "$TEST_TMP/$name.jsonl" '"type":"interval"' 1
	kill -9 "$(cat "$MARIADB_DIR/mysqld.pid")"
	set +e; wait $pid; rc=$?; set -e
}
kill_server_mid_run cut --time=5 --reconnect-timeout=1h
check "server away until the sample ends: exit 1 (got $rc)" [ "$rc" = 1 ]
check "server away until the sample ends: clear error ($(grep FATAL "$TEST_TMP/cut.err"))" \
	grep -Eq "^FATAL: .*connection lost [0-9.]+s before the end of the sample \([0-9]+% of it\) and not re-established" "$TEST_TMP/cut.err"
check "server away until the sample ends: result failed" [ "$(json_get "$TEST_TMP/cut.json" "r['status']")" = failed ]
check "server away until the sample ends: sample incomplete" \
	[ "$(json_get "$TEST_TMP/cut.json" "r['phases']['sample']['complete']")" = False ]
mariadb_start "$MARIADB_DIR" "$MARIADB_PORT" || die "MariaDB did not restart"

# --- the server dies and does not come back within --reconnect-timeout ---
kill_server_mid_run gone --time=60 --reconnect-timeout=2s
check "server gone: exit 1 (got $rc)" [ "$rc" = 1 ]
check "server gone: clear error" grep -q "^FATAL: .*connection lost and not re-established within 2s" "$TEST_TMP/gone.err"
check "server gone: partial result failed" [ "$(json_get "$TEST_TMP/gone.json" "r['status']")" = failed ]
finish
