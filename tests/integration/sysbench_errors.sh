#!/usr/bin/env bash
# Errors during a run: deadlocks are rolled back, retried and counted; lock
# waits time out, are retried and their wait stays in the latency; a
# connection killed by the server reconnects and the run goes on; SIGINT,
# SIGTERM and SIGHUP let the transactions in flight finish and keep a partial
# result; kill -9 at random moments keeps the journal at most one interval
# behind the output; a fatal error stops the run with one clear line and a
# partial result; a server still away when the sample ends fails the run.
# Every result and journal goes through the oracle (tests/lib/oracle.py).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
start_mariadb
C=$(conn_opts)
status_var() { mariadb_sql "$MARIADB_PORT" "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='$1'"; }

# --- deadlocks: 16 connections on a 10-row table ---
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=10 oltp_write_only prepare >/dev/null
dl0=$(status_var INNODB_DEADLOCKS)
rb0=$(status_var COM_ROLLBACK)
check "contended run completes" "$DBRIG_BIN" sysbench $C --tables=1 --table-size=10 --threads=16 --time=4 \
	--rand-type=uniform --result="$TEST_TMP/dl.json" oltp_write_only run >"$TEST_TMP/dl.out" 2>&1
dl1=$(status_var INNODB_DEADLOCKS)
rb=$(($(status_var COM_ROLLBACK) - rb0))
ign=$(json_get "$TEST_TMP/dl.json" "r['phases']['sample']['errors']['ignored']")
echo "deadlocks on the server: $((dl1 - dl0)), retried by dbrig: $ign, ROLLBACKs: $rb"
check "deadlocks happened" [ $((dl1 - dl0)) -gt 0 ]
check "every deadlock was retried and counted ($ign vs $((dl1 - dl0)))" [ "$ign" = $((dl1 - dl0)) ]
check "status complete despite deadlocks" [ "$(json_get "$TEST_TMP/dl.json" "r['status']")" = complete ]
check "ignored errors in the summary" grep -Eq "ignored errors: +$ign " "$TEST_TMP/dl.out"
check "one ROLLBACK was sent before each retry ($rb for $ign)" [ "$rb" = "$ign" ]
check "deadlock run: oracle" oracle result "$TEST_TMP/dl.json"

# --- lock wait timeouts (1205): another client holds every row for 3 s ---
mariadb_sql "$MARIADB_PORT" "SET GLOBAL innodb_lock_wait_timeout=1"
mariadb_sql "$MARIADB_PORT" "BEGIN; SELECT COUNT(*) FROM sbtest.sbtest1 FOR UPDATE; SELECT SLEEP(3); COMMIT" >/dev/null &
bg=$!
for _ in $(seq 1 100); do # holding the locks: asleep
	[ "$(mariadb_sql "$MARIADB_PORT" "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(3)'")" = 1 ] && break
	sleep 0.05
done
dl0=$(status_var INNODB_DEADLOCKS)
check "run through lock waits completes" "$DBRIG_BIN" sysbench $C --tables=1 --table-size=10 --threads=2 --time=4 \
	--report-interval=1 --result="$TEST_TMP/lw.json" --journal="$TEST_TMP/lw.jsonl" oltp_write_only run >"$TEST_TMP/lw.out" 2>&1
check "the locks were held for 3 s" wait $bg
mariadb_sql "$MARIADB_PORT" "SET GLOBAL innodb_lock_wait_timeout=50"
lw=$(($(json_get "$TEST_TMP/lw.json" "r['phases']['sample']['errors']['ignored']") - ($(status_var INNODB_DEADLOCKS) - dl0)))
echo "lock wait timeouts retried: $lw"
check "both connections timed out waiting and were retried ($lw >= 2)" [ "$lw" -ge 2 ]
# Each timeout is >= 1 s: a connection with k of them waited k seconds in one transaction.
check "the waits stay in the latency (max >= $(((lw + 1) / 2)) s)" \
	[ "$(json_get "$TEST_TMP/lw.json" "r['phases']['sample']['latency_ms']['max'] >= 1000 * (($lw + 1) // 2)")" = True ]
check "lock wait run: oracle" oracle result "$TEST_TMP/lw.json" --journal "$TEST_TMP/lw.jsonl"
# (README "What happens when things fail" claims it; the security review found it untested.)
ign=$(json_get "$TEST_TMP/lw.json" "r['phases']['sample']['errors']['ignored']")
check "lock wait: the timed-out transactions were retried and counted ($ign)" [ "$ign" -ge 2 ]
check "lock wait: status complete" [ "$(json_get "$TEST_TMP/lw.json" "r['status']")" = complete ]
check "lock wait: no fatal error" [ "$(json_get "$TEST_TMP/lw.json" "r['phases']['sample']['errors']['fatal']")" = 0 ]

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
check "fatal error: one FATAL line, nothing on stderr (README: one line; $(grep -c '^FATAL' "$TEST_TMP/fatal.out") lines)" \
	bash -c '[ "$(grep -c "^FATAL" "$1")" = 1 ] && [ ! -s "$2" ]' _ "$TEST_TMP/fatal.out" "$TEST_TMP/fatal.err"
check "partial result marked failed" [ "$(json_get "$TEST_TMP/fatal.json" "r['status']")" = failed ]
check "partial result keeps what was measured" [ "$(json_get "$TEST_TMP/fatal.json" "r['phases']['sample']['transactions'] > 0")" = True ]
check "fatal run: oracle" oracle result "$TEST_TMP/fatal.json" --journal "$TEST_TMP/fatal.jsonl"
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
check "KILL run: oracle" oracle result "$TEST_TMP/kill.json" --journal "$TEST_TMP/kill.jsonl"

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
# The interval: the arrivals of the lock's first 2 s are Poisson(100), the
# rest of the run's Poisson(200); the 90th percentile stays below 1 s only
# when 9 x the first count < the second, a chance of 4e-20 for a correct
# build (sum over x of P(X = x) P(Y > 9x)). The other checks are not rates.
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

# --- SIGINT, SIGTERM and SIGHUP: the transactions in flight finish, partial result, exit
# non-zero (SIGHUP: security review finding 17, it killed the driver with no result and
# no journal end line) ---
for sig in INT TERM HUP; do
	b0=$(status_var COM_BEGIN); c0=$(status_var COM_COMMIT)
	"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=2 --precondition=1 --time=60 --report-interval=1 \
		--result="$TEST_TMP/sig$sig.json" --journal="$TEST_TMP/sig$sig.jsonl" oltp_read_only run >"$TEST_TMP/sig$sig.out" 2>&1 &
	pid=$!
	wait_lines "$TEST_TMP/sig$sig.jsonl" '"phase":"sample"' 1 # the precondition is over
	kill -$sig $pid
	set +e; wait $pid; rc=$?; set -e
	b=$(($(status_var COM_BEGIN) - b0)); c=$(($(status_var COM_COMMIT) - c0))
	n=$(json_get "$TEST_TMP/sig$sig.json" "r['phases']['precondition']['transactions'] + r['phases']['sample']['transactions']")
	check "SIG$sig: every transaction begun was committed ($b BEGIN, $c COMMIT) and counted ($n)" [ "$b" = "$c" ] && [ "$c" = "$n" ]
	check "SIG$sig: oracle" oracle result "$TEST_TMP/sig$sig.json" --journal "$TEST_TMP/sig$sig.jsonl"
	check "SIG$sig exits 1 (got $rc)" [ "$rc" = 1 ]
	check "SIG$sig result interrupted" [ "$(json_get "$TEST_TMP/sig$sig.json" "r['status']")" = interrupted ]
	check "SIG$sig sample marked incomplete" [ "$(json_get "$TEST_TMP/sig$sig.json" "r['phases']['sample']['complete']")" = False ]
	check "SIG$sig precondition kept" [ "$(json_get "$TEST_TMP/sig$sig.json" "r['phases']['precondition']['complete']")" = True ]
	check "SIG$sig named in the result" [ "$(json_get "$TEST_TMP/sig$sig.json" "r['error']")" = "interrupted by SIG$sig" ]
	check "SIG$sig journal ended interrupted" [ "$(tail -n1 "$TEST_TMP/sig$sig.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')" = interrupted ]
done

# --- kill -9 at a random moment: no result file, and the journal holds every
# interval but the one being written. dbrig prints (and flushes) an interval
# line, then journals it: at 8 random moments (0.1-0.9 s apart, 1 s
# intervals: whole seconds, as sysbench) and at the kill, the journal is at
# most one line behind stdout.
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=2 --time=60 --report-interval=1 \
	--result="$TEST_TMP/k9.json" --journal="$TEST_TMP/k9.jsonl" oltp_read_only run >"$TEST_TMP/k9.out" 2>&1 &
pid=$!
wait_lines "$TEST_TMP/k9.jsonl" '"type":"interval"' 1
worst=0 samples=""
for i in $(seq 0 8); do
	sleep "0.$((RANDOM % 9 + 1))"
	[ "$i" = 8 ] && kill -9 $pid
	o=$(grep -c '^\[ ' "$TEST_TMP/k9.out" || true) # read stdout first: the journal only grows
	j=$(grep -c '"type":"interval"' "$TEST_TMP/k9.jsonl" || true)
	samples="$samples $o/$j"
	[ $((o - j)) -gt "$worst" ] && worst=$((o - j))
done
wait $pid 2>/dev/null || true
echo "kill -9: printed/journaled intervals at 9 random moments:$samples"
check "kill -9: the journal was never more than one interval behind the output (worst $worst)" [ "$worst" -le 1 ]
check "kill -9 leaves no result file" [ ! -e "$TEST_TMP/k9.json" ]
check "kill -9 leaves no temporary file" [ -z "$(ls "$TEST_TMP" | grep 'k9.json.tmp' || true)" ]
n=$(grep -c '"type":"interval"' "$TEST_TMP/k9.jsonl" || true)
check "kill -9 journal holds the completed intervals ($n)" [ "$n" -ge 2 ]
check "kill -9 journal: whole lines, header, increasing intervals, no end line" oracle journal "$TEST_TMP/k9.jsonl" --killed

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
check "server gone: one line naming the endpoint and the timeout ($(grep '^FATAL' "$TEST_TMP/gone.err" | head -3))" \
	bash -c '[ "$(grep -c "^FATAL" "$1")" = 1 ] && grep -Eq "$2" "$1"' _ "$TEST_TMP/gone.err" \
	"^FATAL: 127\.0\.0\.1:$MARIADB_PORT: connection lost and not re-established within 2s \(--reconnect-timeout\): error [0-9]+: .+"
check "server gone: partial result failed" [ "$(json_get "$TEST_TMP/gone.json" "r['status']")" = failed ]
check "server gone: oracle" oracle result "$TEST_TMP/gone.json" --journal "$TEST_TMP/gone.jsonl"
finish
