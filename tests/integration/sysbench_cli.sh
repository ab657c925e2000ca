#!/usr/bin/env bash
# Bad input on the sysbench command line: one clear line naming the flag, the
# value and what was expected, exit 2, and no result file written.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
trap 'rm -rf "$TEST_TMP"' EXIT

expect() { # expect EXIT-CODE "EXACT STDERR LINE" ARGS...
	local code=$1 line=$2; shift 2
	set +e
	"$DBRIG_BIN" "$@" --result="$TEST_TMP/never.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	local rc=$?
	set -e
	check "exit $code for: $* (got $rc)" [ "$rc" = "$code" ]
	check "message for: $* (got: $(head -c 300 "$TEST_TMP/err"))" [ "$(cat "$TEST_TMP/err")" = "$line" ]
	check "no result written for: $*" [ ! -e "$TEST_TMP/never.json" ]
}

expect 2 'dbrig: sysbench: unknown test "oltp_foo" (expected oltp_read_write, oltp_read_only, oltp_write_only, oltp_point_select, oltp_update_index, oltp_update_non_index, oltp_insert or oltp_delete)' \
	sysbench oltp_foo run
expect 2 'dbrig: sysbench: unknown command "go" (expected prepare, prewarm, run, cleanup, check or help)' sysbench oltp_read_write go
expect 2 'dbrig: sysbench: expected TEST COMMAND, e.g. "oltp_read_write run" (see dbrig sysbench --help)' sysbench oltp_read_write
expect 2 'dbrig: --threads: "0" is not valid (expected an integer from 1 to 100000)' sysbench --threads=0 oltp_read_write run
expect 2 'dbrig: --threads: "many" is not valid (expected an integer from 1 to 100000)' sysbench --threads=many oltp_read_write run
expect 2 'dbrig: unknown option "--thread" (see --help)' sysbench --thread=4 oltp_read_write run
expect 2 'dbrig: --time needs a value (--time=VALUE)' sysbench --time oltp_read_write run
expect 2 'dbrig: --percentile: "95,101" is not valid (expected numbers from 0 to 100, comma-separated, e.g. 95 or 50,95,99)' \
	sysbench --percentile=95,101 oltp_read_write run
expect 2 'dbrig: --rand-type: "normal" is not valid (expected uniform, gaussian, special, pareto or zipfian)' \
	sysbench --rand-type=normal oltp_read_write run
expect 2 'dbrig: --skip-trx: "maybe" is not valid (expected on or off)' sysbench --skip-trx=maybe oltp_read_write run
expect 2 'dbrig: --mysql-ignore-errors: "1213,x" is not valid (expected error numbers like 1213,1020,1205, or all)' \
	sysbench --mysql-ignore-errors=1213,x oltp_read_write run
expect 2 'dbrig: --db-driver: "pgsql" is not available (expected mysql)' sysbench --db-driver=pgsql oltp_read_write run
expect 2 'dbrig: --histogram: needs percentile statistics (--percentile is 0)' sysbench --percentile=0 --histogram oltp_read_write run
expect 2 'dbrig: --rate: "100" is not supported (expected 0: closed loop, as the published runs)' sysbench --rate=100 oltp_read_write run
expect 2 'dbrig: unknown command "sysbnech" (expected one of: sysbench, tpcc, campaign, report, published, provision, status, restore, teardown; see dbrig --help)' sysbnech

# The duration message comes from the unit parser; only its start is fixed here.
set +e
"$DBRIG_BIN" sysbench --precondition=2x oltp_read_write run >/dev/null 2>"$TEST_TMP/err"; rc=$?
set -e
check "bad duration exits 2" [ "$rc" = 2 ]
check "bad duration names flag and value" grep -q '^dbrig: --precondition: "2x" is not a duration (' "$TEST_TMP/err"

# A server that is not there: exit 1, one line naming the endpoint.
port=$(free_port)
set +e
"$DBRIG_BIN" sysbench --mysql-host=127.0.0.1 --mysql-port="$port" --time=1 --result="$TEST_TMP/nope.json" oltp_read_only run >/dev/null 2>"$TEST_TMP/err"; rc=$?
set -e
check "unreachable server exits 1 (got $rc)" [ "$rc" = 1 ]
check "unreachable server message" grep -q "^dbrig: cannot connect to 127.0.0.1:$port as sbtest: error 2002: " "$TEST_TMP/err"

# --help is generated from the option table and documents every option.
"$DBRIG_BIN" sysbench --help >"$TEST_TMP/help"
for o in threads time events report-interval percentile histogram rand-type rand-seed rand-spec-iter rand-spec-pct \
	rand-spec-res rand-pareto-h rand-zipfian-exp tables table-size range-size point-selects simple-ranges sum-ranges \
	order-ranges distinct-ranges index-updates non-index-updates delete-inserts range-selects skip-trx auto-inc \
	secondary create-secondary mysql-host mysql-port mysql-socket mysql-user mysql-password mysql-password-file \
	mysql-db mysql-ignore-errors mysql-ssl precondition result journal; do
	check "--help lists --$o" grep -q -- "--$o[=[]" "$TEST_TMP/help"
done
finish
