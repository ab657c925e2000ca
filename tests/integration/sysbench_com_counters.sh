#!/usr/bin/env bash
# Per transaction, dbrig sends what sysbench 1.0.20 sends: the server's
# Com_select/update/insert/delete/begin/commit/stmt_execute deltas over N
# transactions on one connection are identical for both tools, for every test
# (and differ for a deliberately different statement stream: the comparison
# can fail). Then the values, not only the kinds: the server's general log of
# oltp_read_write with --range-size=7 under both tools (tests/lib/general_log.py:
# range lengths, id ranges, one table per statement group, DELETE and INSERT
# on the same id, uniform table choice, the id distribution of sysbench's).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
command -v sysbench >/dev/null || die "sysbench is not installed (apt-get install sysbench)"
start_mariadb
C=$(conn_opts)
T="--tables=2 --table-size=5000"
N=300
VARS="'Com_select','Com_update','Com_insert','Com_delete','Com_begin','Com_commit','Com_stmt_execute','Com_rollback'"

counters() {
	mariadb_sql "$MARIADB_PORT" "SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ($VARS) ORDER BY VARIABLE_NAME"
}

delta() { # delta BEFORE AFTER -> "name=diff ..."
	join <(echo "$1") <(echo "$2") | awk '{printf "%s=%d ", $1, $3 - $2}'
}

"$DBRIG_BIN" sysbench $C $T --threads=2 oltp_read_write prepare >/dev/null
for t in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_update_index \
	oltp_update_non_index oltp_insert oltp_delete; do
	for extra in "" "--skip-trx=on --point-selects=3 --range-selects=off --delete-inserts=2"; do
		b=$(counters)
		sysbench $C $T --threads=1 --time=0 --events=$N $extra $t run >/dev/null 2>&1 || fail "sysbench $t $extra"
		a=$(counters)
		want=$(delta "$b" "$a")
		b=$(counters)
		"$DBRIG_BIN" sysbench $C $T --threads=1 --time=0 --events=$N $extra $t run >/dev/null 2>&1 || fail "dbrig $t $extra"
		a=$(counters)
		got=$(delta "$b" "$a")
		# Reading the counters is itself a SELECT: both deltas include that one.
		check "$t $extra: sysbench [$want] = dbrig [$got]" [ "$want" = "$got" ]
		echo "$t $extra: $got"
		# The comparison fails on a wrong stream: one point select fewer per transaction.
		if [ "$t" = oltp_read_write ] && [ -z "$extra" ]; then
			b=$(counters)
			"$DBRIG_BIN" sysbench $C $T --threads=1 --time=0 --events=$N --point-selects=9 $t run >/dev/null 2>&1 || fail "dbrig $t --point-selects=9"
			a=$(counters)
			wrong=$(delta "$b" "$a")
			check "a wrong statement stream (9 point selects) shows: [$wrong] != [$want]" [ "$wrong" != "$want" ]
		fi
	done
done

# Statement values from the general log: sysbench, then dbrig, same options.
V="--range-size=7 --threads=1 --time=0 --events=$N"
logged() { # logged FILE COMMAND...: the general log of COMMAND, tab-separated
	local f=$1
	shift
	mariadb_sql "$MARIADB_PORT" "SET GLOBAL log_output='TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log=ON"
	"$@" >/dev/null 2>&1 || fail "$*"
	mariadb_sql "$MARIADB_PORT" "SET GLOBAL general_log=OFF; SELECT thread_id, command_type, argument FROM mysql.general_log" >"$f"
}
logged "$TEST_TMP/sb.log" sysbench $C $T $V oltp_read_write run
logged "$TEST_TMP/dbrig.log" "$DBRIG_BIN" sysbench $C $T $V oltp_read_write run
check "statement values: dbrig's match sysbench's" python3 "$DBRIG_SOURCE_DIR/tests/lib/general_log.py" \
	"$TEST_TMP/sb.log" "$TEST_TMP/dbrig.log" 7 2 5000
finish
