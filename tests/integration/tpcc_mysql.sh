#!/bin/bash
# TPC-C through libmysqlclient against a private MariaDB; then the same seed
# loaded three ways (LOAD DATA LOCAL INFILE streams, the multi-row INSERT
# fallback when the server refuses local loads, ODBC parameter arrays), with
# different --threads, must give the same rows.
# needs: odbc
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/postgres.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/tpcc.sh"
# 2,000 sessions for --connections=terminals below.
MARIADB_EXTRA_OPTS="--max-connections=2100" start_mariadb
mariadb_sql "$MARIADB_PORT" "CREATE DATABASE tpcc"
tpcc_sql() { mariadb_sql "$MARIADB_PORT" "USE tpcc; $*"; }
TPCC_SQL=tpcc_sql
tpcc_suite mysql --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$MARIADB_PORT" --mysql-user=sbtest --mysql-db=tpcc

# Every loaded column but the CURRENT_TIMESTAMP ones (whose NULLs count), per table.
fingerprint() { # fingerprint DATABASE
	local db=$1 t q=""
	declare -A cols=(
		[warehouse]="w_id,w_name,w_street_1,w_street_2,w_city,w_state,w_zip,w_tax,w_ytd"
		[district]="d_id,d_w_id,d_name,d_street_1,d_street_2,d_city,d_state,d_zip,d_tax,d_ytd,d_next_o_id"
		[customer]="c_id,c_d_id,c_w_id,c_first,c_middle,c_last,c_street_1,c_street_2,c_city,c_state,c_zip,c_phone,c_credit,c_credit_lim,c_discount,c_balance,c_ytd_payment,c_payment_cnt,c_delivery_cnt,c_data"
		[history]="h_c_id,h_c_d_id,h_c_w_id,h_d_id,h_w_id,h_amount,h_data"
		[new_order]="no_o_id,no_d_id,no_w_id"
		[orders]="o_id,o_d_id,o_w_id,o_c_id,o_carrier_id,o_ol_cnt,o_all_local"
		[order_line]="ol_o_id,ol_d_id,ol_w_id,ol_number,ol_i_id,ol_supply_w_id,ol_delivery_d IS NULL,ol_quantity,ol_amount,ol_dist_info"
		[item]="i_id,i_im_id,i_name,i_price,i_data"
		[stock]="s_i_id,s_w_id,s_quantity,s_dist_01,s_dist_02,s_dist_03,s_dist_04,s_dist_05,s_dist_06,s_dist_07,s_dist_08,s_dist_09,s_dist_10,s_ytd,s_order_cnt,s_remote_cnt,s_data"
		[tpcc_meta]="m_name,m_value")
	for t in warehouse district customer history new_order orders order_line item stock tpcc_meta; do
		q="$q SELECT '$t', COUNT(*), SUM(CRC32(CONCAT_WS('|',${cols[$t]}))) FROM $db.$t UNION ALL"
	done
	mariadb_sql "$MARIADB_PORT" "${q% UNION ALL}"
}
MY="--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest"
check "load: LOAD DATA streams, 3 threads" "$DBRIG_BIN" tpcc $MY --mysql-db=tpcc --warehouses=2 --threads=3 --rand-seed=11 prepare
mariadb_sql "$MARIADB_PORT" "CREATE DATABASE tpcc_ins; CREATE DATABASE tpcc_odbc; SET GLOBAL local_infile=0"
# the two loads' dates are checked against the clock around both (tpcc_load_dates_ok)
TPCC_PREPARE_T0=$(date '+%Y-%m-%d %H:%M:%S')
"$DBRIG_BIN" tpcc $MY --mysql-db=tpcc_ins --warehouses=2 --threads=1 --rand-seed=11 prepare >"$TEST_TMP/ins.out" 2>&1 ||
	fail "load: INSERT fallback (local_infile=0)"
check "load: the refusal is said and the INSERT fallback taken" grep -q "refuses LOAD DATA LOCAL INFILE (error 4166).*multi-row INSERTs" "$TEST_TMP/ins.out"
check "load: the INSERT fallback is verified against the scale" grep -q "^Verified the row counts against the scale: warehouse 2, " "$TEST_TMP/ins.out"
mariadb_sql "$MARIADB_PORT" "SET GLOBAL local_infile=1"
odbc_register "$TEST_TMP/odbc"
env ODBCSYSINI="$TEST_TMP/odbc" "$DBRIG_BIN" tpcc --db-driver=odbc \
	--odbc-connect="Driver={MariaDB};Server=127.0.0.1;Port=$MARIADB_PORT;Database=tpcc_odbc;UID=sbtest" \
	--warehouses=2 --threads=2 --rand-seed=11 prepare >"$TEST_TMP/odbc.out" 2>&1 || fail "load: ODBC parameter arrays, 2 threads: $(tail -n 30 "$TEST_TMP/odbc.out")"
TPCC_PREPARE_T1=$(date '+%Y-%m-%d %H:%M:%S')
check "load: the ODBC load is verified against the scale" grep -q "^Verified the row counts against the scale: warehouse 2, " "$TEST_TMP/odbc.out"
# Rows that vanish without an error (every table BLACKHOLE: the server takes
# the LOAD DATA streams and keeps nothing) are caught by the count at the end.
mariadb_sql "$MARIADB_PORT" "INSTALL SONAME 'ha_blackhole'" 2>/dev/null || true
mariadb_sql "$MARIADB_PORT" "CREATE DATABASE tpcc_bh; SET GLOBAL enforce_storage_engine = BLACKHOLE; SET GLOBAL sql_mode = 'STRICT_TRANS_TABLES'"
rc=0; "$DBRIG_BIN" tpcc $MY --mysql-db=tpcc_bh --warehouses=1 --threads=2 --rand-seed=11 prepare >"$TEST_TMP/bh.out" 2>"$TEST_TMP/bh.err" || rc=$?
mariadb_sql "$MARIADB_PORT" "SET GLOBAL enforce_storage_engine = NULL; SET GLOBAL sql_mode = DEFAULT; DROP DATABASE tpcc_bh"
check "load: rows lost without an error fail prepare (exit $rc)" [ "$rc" = 1 ]
check "load: one line names the tables and counts" bash -c '[ "$(wc -l <"$0")" = 1 ] &&
	grep -q "prepare: rows were lost without an error (rows in the table of rows sent): warehouse 0 of 1, district 0 of 10, customer 0 of 30000, .*order_line 0 of [0-9]*, tpcc_meta 0 of 4$" "$0"' "$TEST_TMP/bh.err"
for db in tpcc_ins tpcc_odbc; do
	sql_db() { mariadb_sql "$MARIADB_PORT" "USE $db; $*"; }
	tpcc_load_dates_ok "load $db" sql_db
done
fingerprint tpcc >"$TEST_TMP/fp.stream"
fingerprint tpcc_ins >"$TEST_TMP/fp.insert"
fingerprint tpcc_odbc >"$TEST_TMP/fp.odbc"
check "load: spec cardinalities" grep -qP '^stock\t200000\t' "$TEST_TMP/fp.stream"
check "load: INSERT fallback loads the same rows as the stream" diff "$TEST_TMP/fp.stream" "$TEST_TMP/fp.insert"
check "load: ODBC parameter arrays load the same rows as the stream" diff "$TEST_TMP/fp.stream" "$TEST_TMP/fp.odbc"
check "load: check after the streamed load" "$DBRIG_BIN" tpcc $MY --mysql-db=tpcc check
# ping: a campaign's readiness probe (the user logs into the database), libmysqlclient and ODBC
check "ping: libmysqlclient" "$DBRIG_BIN" tpcc $MY --mysql-db=tpcc ping
check "ping: ODBC" env ODBCSYSINI="$TEST_TMP/odbc" "$DBRIG_BIN" tpcc --db-driver=odbc \
	--odbc-connect="Driver={MariaDB};Server=127.0.0.1;Port=$MARIADB_PORT;Database=tpcc_odbc;UID=sbtest" ping
rc=0
"$DBRIG_BIN" tpcc $MY --mysql-db=nosuchdb ping >"$TEST_TMP/ping.out" 2>&1 || rc=$?
check "ping: a missing database exits 1 (got $rc)" [ "$rc" = 1 ]
check "ping: names the server's error" grep -q "Unknown database 'nosuchdb'" "$TEST_TMP/ping.out"

# --percentile as sysbench's: the requested percentiles in the result, the
# interval lines and the summary; 0 disables them; p90 stays in the type table.
"$DBRIG_BIN" tpcc $MY --mysql-db=tpcc --delays=off --terminals=4 --connections=2 --time=3 --report-interval=1 \
	--percentile=50,95,99.9 --result="$TEST_TMP/pct.json" run >"$TEST_TMP/pct.out" 2>&1 || fail "run --percentile=50,95,99.9"
check "percentile: result lists 50, 95, 99.9" python3 -c "
import json, sys
r = json.load(open(sys.argv[1])); s = r['phases']['sample']
assert r['percentiles'] == [50, 95, 99.9], r['percentiles']
p = s['latency_ms']['percentiles']
assert sorted(p) == ['50', '95', '99.9'], p
assert 0 < p['50'] <= p['95'] <= p['99.9'] <= s['latency_ms']['max'], p
assert all(sorted(i['lat_ms']) == ['50', '95', '99.9'] for i in r['intervals']), r['intervals'][0]
" "$TEST_TMP/pct.json"
check "percentile: oracle (p50, p95, p99.9 from the buckets)" oracle result "$TEST_TMP/pct.json"
check "percentile: summary line" grep -Eq "latency \(ms, from the terminal's submit\): avg [0-9.]+, p50 [0-9.]+, p95 [0-9.]+, p99.9 [0-9.]+, max" "$TEST_TMP/pct.out"
check "percentile: interval lines" grep -Eq "lat \(ms\) avg: [0-9.]+ p50: [0-9.]+ p95: [0-9.]+ p99.9: [0-9.]+ rollbacks" "$TEST_TMP/pct.out"
check "percentile: type table columns" grep -Eq "type +count +mix % +avg ms +p90 ms +p50 ms +p95 ms +p99.9 ms +max ms +retries +rt/txn +p90 limit" "$TEST_TMP/pct.out"
"$DBRIG_BIN" tpcc $MY --mysql-db=tpcc --delays=off --terminals=4 --connections=2 --time=2 \
	--result="$TEST_TMP/pct95.json" run >"$TEST_TMP/pct95.out" 2>&1 || fail "run with the default --percentile"
check "percentile: default 95" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert r['percentiles'] == [95] and list(r['phases']['sample']['latency_ms']['percentiles']) == ['95']
" "$TEST_TMP/pct95.json"
check "percentile: default 95: oracle" oracle result "$TEST_TMP/pct95.json"
"$DBRIG_BIN" tpcc $MY --mysql-db=tpcc --delays=off --terminals=4 --connections=2 --time=2 --percentile=0 \
	--result="$TEST_TMP/pct0.json" run >"$TEST_TMP/pct0.out" 2>&1 || fail "run --percentile=0"
check "percentile: 0 disables" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert r['percentiles'] == [] and r['phases']['sample']['latency_ms']['percentiles'] == {}
" "$TEST_TMP/pct0.json"
check "percentile: 0: oracle" oracle result "$TEST_TMP/pct0.json"
check "percentile: 0 keeps avg and max" grep -Eq "submit\): avg [0-9.]+, max [0-9.]+$" "$TEST_TMP/pct0.out"
check "percentile: a bad value is one line and exit 2" bash -c 'f=$1; shift; "$0" tpcc "$@" --percentile=101 run 2>"$f"; [ $? = 2 ] &&
	[ "$(cat "$f")" = "dbrig: --percentile: \"101\" is not valid (expected numbers from 0 to 100, comma-separated, e.g. 95 or 50,95,99)" ]' \
	"$DBRIG_BIN" "$TEST_TMP/bad.err" $MY --mysql-db=tpcc
check "delivery log: a path that cannot be written fails before the run, in one line, exit 1" bash -c 'f=$1; shift
	"$0" tpcc "$@" --delays=off --terminals=2 --connections=1 --time=1 --delivery-log=/nonexistent-dir/d.log \
		--result="${f%.err}.json" run >/dev/null 2>"$f"; [ $? = 1 ] && [ "$(wc -l <"$f")" = 1 ] && [ ! -e "${f%.err}.json" ] &&
	grep -q "^dbrig: --delivery-log=/nonexistent-dir/d.log: cannot write the Delivery log: No such file or directory$" "$f"' \
	"$DBRIG_BIN" "$TEST_TMP/dlog.err" $MY --mysql-db=tpcc
check "isolation: snapshot (SQL Server's) with --db-driver=mysql is one line and exit 2" bash -c 'f=$1; shift
	"$0" tpcc "$@" --isolation=snapshot run 2>"$f"; [ $? = 2 ] && [ "$(wc -l <"$f")" = 1 ] &&
	grep -q "^dbrig: --isolation: \"snapshot\" is SQL Server.s SNAPSHOT level, through ODBC (expected .* for dialect mysql)$" "$f"' \
	"$DBRIG_BIN" "$TEST_TMP/snapshot.err" $MY --mysql-db=tpcc

# Round trips as the server counts them: every request of a run is a
# COM_STMT_EXECUTE (statements, CALLs) or a text COMMIT / ROLLBACK, so the
# deltas of Com_stmt_execute + Com_commit + Com_rollback equal the run's
# round_trips (both phases) plus reading tpcc_meta twice (the C-load, then the
# C-run the database shares: one execute and one commit each) and the server settings (sql/mysql/settings.sql: on MariaDB 10.11 four
# executes, the database's size among them, and two rollbacks, its transaction_isolation failing at prepare);
# a CALL's own COMMIT counts in Com_commit too, so procedures compare
# Com_stmt_execute with the calls. A transaction dropped at the stop may add
# a request the result does not count (at most one per connection).
com() { mariadb_sql "$MARIADB_PORT" "SELECT SUM(VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ($1)"; }
for mode in statements procedures; do
	if [ $mode = statements ]; then vars="'Com_stmt_execute','Com_commit','Com_rollback'"; else vars="'Com_stmt_execute'"; fi
	b=$(com "$vars")
	"$DBRIG_BIN" tpcc $MY --mysql-db=tpcc --mode=$mode --delays=off --terminals=4 --connections=2 --precondition=1 --time=2 \
		--result="$TEST_TMP/rt-$mode.json" run >"$TEST_TMP/rt-$mode.out" 2>&1 || fail "run --mode=$mode for the round trips"
	a=$(com "$vars")
	check "round trips, $mode: the server counted what the result says" python3 -c "
import json, sys
r = json.load(open(sys.argv[1])); mode = sys.argv[3]; server = int(sys.argv[2]) - (2 + 2 + 6 if mode == 'statements' else 1 + 1 + 4)
ph = [r['phases'][p] for p in ('precondition', 'sample')]
rt = sum(p['round_trips']['total'] for p in ph)
if mode == 'procedures':
    rt -= sum(p['errors']['retried'] for p in ph)   # the retries' ROLLBACKs are text queries
assert 0 <= server - rt <= 2, (mode, server, rt)
print(mode, 'server', server, 'dbrig', rt, 'per transaction', [p['round_trips']['per_transaction'] for p in ph])
" "$TEST_TMP/rt-$mode.json" "$((a - b))" $mode
done
check "round trips: printed per transaction" grep -Eq "round trips: 1.00 per transaction \(procedures mode" "$TEST_TMP/rt-procedures.out"

# Retries: another session holds warehouse 1's districts (lock waits time out
# after 1 s, MariaDB 1205). Held 3 s: the terminals of warehouse 1 retry with
# backoff, the run completes and the result counts the retries per type and
# per class. Held 12 s with --max-retries=2: the third failure of one
# transaction ends the run with one line, exit 1, within seconds.
hold_districts() { # hold_districts SECONDS: lock until then, in the background
	mariadb --no-defaults -uroot --protocol=tcp -h127.0.0.1 -P"$MARIADB_PORT" tpcc -e \
		"BEGIN; SELECT d_id FROM district WHERE d_w_id = 1 FOR UPDATE; SELECT SLEEP($1);" >/dev/null 2>&1 &
	HOLD_PID=$!
	sleep 0.3
}
mariadb_sql "$MARIADB_PORT" "SET GLOBAL innodb_lock_wait_timeout = 1"
hold_districts 3
rc=0; "$DBRIG_BIN" tpcc $MY --mysql-db=tpcc --delays=off --terminals=10 --connections=4 --time=6 \
	--result="$TEST_TMP/retry.json" run >"$TEST_TMP/retry.out" 2>&1 || rc=$?
wait "$HOLD_PID" || true
check "retry: lock wait timeouts are retried, the run completes (exit $rc)" [ "$rc" = 0 ]
check "retry: per class and per type in the result" python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['phases']['sample']
e = s['errors']; by = e['retried_by_class']
assert e['retried'] > 0 and e['retried'] == e['ignored'], e
assert by['lock_timeout'] == e['retried'] and sum(by.values()) == e['retried'], by
assert sum(t['retries'] for t in s['types'].values()) == e['retried'], s['types']
assert s['types']['new_order']['retries'] + s['types']['payment']['retries'] > 0, s['types']
" "$TEST_TMP/retry.json"
check "retry: the summary names the class" grep -Eq "retried errors: [1-9][0-9]* \(lock_timeout [1-9][0-9]*\)" "$TEST_TMP/retry.out"
hold_districts 12
rc=0; timeout -s KILL 60 "$DBRIG_BIN" tpcc $MY --mysql-db=tpcc --delays=off --terminals=10 --connections=4 --time=20 \
	--max-retries=2 --result="$TEST_TMP/maxretry.json" run >"$TEST_TMP/maxretry.out" 2>"$TEST_TMP/maxretry.err" || rc=$?
kill "$HOLD_PID" 2>/dev/null; wait "$HOLD_PID" 2>/dev/null || true
mariadb_sql "$MARIADB_PORT" "SET GLOBAL innodb_lock_wait_timeout = 50"
check "retry: --max-retries=2 ends the run (exit $rc)" [ "$rc" = 1 ]
check "retry: one line naming the limit and the last error" bash -c '[ "$(wc -l <"$0")" = 1 ] &&
	grep -Eq "a (new_order|payment|order_status|stock_level|delivery) transaction failed 3 times in a row \(--max-retries=2\); the last error 1205 \(HY000\): Lock wait timeout" "$0"' \
	"$TEST_TMP/maxretry.err"
check "retry: the result says failed" python3 -c "
import json, sys; r = json.load(open(sys.argv[1])); assert r['status'] == 'failed' and 'max-retries' in r['error'], r['status']
" "$TEST_TMP/maxretry.json"

# --connections=terminals: one server session per terminal, as Benchmark
# Factory runs its virtual users; 2,000 terminals are 2,000 sessions (the
# server's own count proves it), none capped by a pool.
mariadb_sql "$MARIADB_PORT" "FLUSH STATUS"
"$DBRIG_BIN" tpcc $MY --mysql-db=tpcc --connections=terminals --terminals=2000 --delays=scale:0.5 --time=5 \
	--result="$TEST_TMP/sess.json" run >"$TEST_TMP/sess.out" 2>&1 || { cat "$TEST_TMP/sess.out"; fail "sessions: 2000 terminals as 2000 sessions"; }
check "sessions: 2000 connected before the clock" grep -q "^connected 2000 sessions in .* (at most 16 at a time)" "$TEST_TMP/sess.out"
check "sessions: the header says a session each" grep -q "2000 terminals with a session each" "$TEST_TMP/sess.out"
max_used() { mariadb_sql "$MARIADB_PORT" "SHOW GLOBAL STATUS LIKE 'Max_used_connections'" | cut -f2; }
used=$(max_used)
check "sessions: the server saw 2000 sessions at once (saw $used)" [ "$used" -ge 2000 ]
check "sessions: result says terminals, 2000 connections, no pool cap" python3 -c "
import json, sys
r = json.load(open(sys.argv[1])); p = r['workload']['params']; s = r['phases']['sample']
assert p['sessions'] == 'terminals' and p['connections'] == 2000 and p['terminals'] == 2000, p
assert s['transactions'] > 0 and s['errors']['fatal'] == 0, s['errors']
assert s['conn_wait']['pool_capped'] is False, s['conn_wait']
" "$TEST_TMP/sess.json"
check "sessions: check after the per-terminal run" "$DBRIG_BIN" tpcc $MY --mysql-db=tpcc check
# The server's limits are read before any session opens: a run that does not
# fit is refused in one line (exit 1) instead of failing on session 501.
mariadb_sql "$MARIADB_PORT" "SET GLOBAL max_connections=500; FLUSH STATUS"
check "sessions: more terminals than max_connections is refused in one line" bash -c 'f=$1; shift; "$0" tpcc "$@" run 2>"$f" >/dev/null; [ $? = 1 ] &&
	grep -Eqx "dbrig: --connections=terminals: 600 sessions, but the server takes 500 connections \(max_connections\) and [0-9]+ are open: raise it to at least 6[0-9][0-9], or use fewer" "$f"' \
	"$DBRIG_BIN" "$TEST_TMP/lim1.err" $MY --mysql-db=tpcc --connections=terminals --terminals=600 --delays=off --time=1
check "sessions: a pool above max_connections is refused too" bash -c '"$0" tpcc "$@" run 2>&1 | grep -q "^dbrig: --connections=501: 501 sessions, but the server takes 500"' \
	"$DBRIG_BIN" $MY --mysql-db=tpcc --connections=501 --terminals=600 --delays=off --time=1
used=$(max_used)
check "sessions: nothing was opened for the refused runs (saw $used)" [ "$used" -lt 10 ]
mariadb_sql "$MARIADB_PORT" "SET GLOBAL max_connections=2100; SET GLOBAL max_prepared_stmt_count=1000"
check "sessions: statements beyond max_prepared_stmt_count are refused in one line" bash -c '"$0" tpcc "$@" run 2>&1 | grep -q "^dbrig: --connections=terminals: 100 sessions prepare [0-9]* statements, but the server allows 1000 (max_prepared_stmt_count)"' \
	"$DBRIG_BIN" $MY --mysql-db=tpcc --connections=terminals --terminals=100 --delays=off --time=1
mariadb_sql "$MARIADB_PORT" "SET GLOBAL max_prepared_stmt_count=1048576"
check "sessions: --connections=terminal is one line and exit 2" bash -c 'f=$1; shift; "$0" tpcc "$@" run 2>"$f"; [ $? = 2 ] &&
	[ "$(cat "$f")" = "dbrig: --connections: \"terminal\" is not valid (expected an integer from 1 to 100000, or terminals: one session per terminal)" ]' \
	"$DBRIG_BIN" "$TEST_TMP/badconn.err" $MY --mysql-db=tpcc --connections=terminal
finish
