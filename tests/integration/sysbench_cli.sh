#!/usr/bin/env bash
# dbrig sysbench's command line against Debian's sysbench 1.0.20, run side by
# side on the same arguments (no server: mistakes are found before one is
# needed, or the port has nothing listening): the same output, line for line,
# and the same exit status for every mistake; --help and `TEST help` as
# sysbench prints them; --version; options dbrig does not implement refused
# with one FATAL line; no result file written on any of these.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
trap 'rm -rf "$TEST_TMP"' EXIT
command -v sysbench >/dev/null || die "sysbench is not installed (apt-get install sysbench)"
port=$(free_port)
NOSRV="--mysql-host=127.0.0.1 --mysql-port=$port"

# Both tools' output with what must differ made equal: the banner, and the
# place sysbench's Lua frames name (/usr/share/sysbench/oltp_common.lua:349)
# where dbrig names the test.
norm() {
	sed -E -e 's/^sysbench 1\.0\.20 \(using system LuaJIT [^)]*\)$/BANNER/' \
		-e 's/^dbrig [^ ]+ \(sysbench 1\.0\.20 compatible\)$/BANNER/' \
		-e "s#(function failed: |^FATAL: )(/usr/share/sysbench/[a-z_]+\.lua:[0-9]+|oltp_[a-z_]+): #\1PLACE: #"
}

SAME=0
same() { # same ARGS...: sysbench and dbrig sysbench print the same and exit the same
	local rs rd
	SAME=$((SAME + 1))
	set +e
	(cd "$TEST_TMP" && timeout 20 sysbench "$@") >"$TEST_TMP/s.out" 2>&1
	rs=$?
	(cd "$TEST_TMP" && timeout 20 "$DBRIG_BIN" sysbench "$@" --result="$TEST_TMP/never.json") >"$TEST_TMP/d.out" 2>&1
	rd=$?
	set -e
	check "exit status of: $* (sysbench $rs, dbrig $rd)" [ "$rs" = "$rd" ]
	if ! diff <(norm <"$TEST_TMP/s.out") <(norm <"$TEST_TMP/d.out") >"$TEST_TMP/diff"; then
		fail "output of: $* differs from sysbench's:"
		cat "$TEST_TMP/diff" >&2
	else
		pass
	fi
	check "no result written for: $*" [ ! -e "$TEST_TMP/never.json" ]
}

expect() { # expect EXIT-CODE "EXACT OUTPUT" ARGS...: what dbrig alone says (what sysbench does not have)
	local code=$1 text=$2 rc
	shift 2
	set +e
	"$DBRIG_BIN" sysbench "$@" --result="$TEST_TMP/never.json" >"$TEST_TMP/d.out" 2>&1
	rc=$?
	set -e
	check "exit $code for: $* (got $rc)" [ "$rc" = "$code" ]
	check "output of: $* (got: $(head -c 400 "$TEST_TMP/d.out"))" [ "$(norm <"$TEST_TMP/d.out")" = "$text" ]
	check "no result written for: $*" [ ! -e "$TEST_TMP/never.json" ]
}

# Mistakes before the banner, after it, in the test's options, in the command.
same oltp_foo run
same help
same run
same oltp_read_write go
same oltp_read_write
same oltp_read_write run extra
same --threads=0 oltp_read_write run
same --threads=many oltp_read_write run
same --thread=4 oltp_read_write run
same --skip-trx=maybe oltp_read_write run
same --percentile=101 oltp_read_write run
same --percentile=0 --histogram oltp_read_write run
same --rand-type=normal oltp_read_write run
same --verbosity=9 oltp_read_write run
same --report-checkpoints=1,x oltp_read_write run
same --forced-shutdown=x oltp_read_write run
same --db-driver=nonexisting /usr/share/sysbench/oltp_read_write.lua cleanup
same --db-driver=nonexisting oltp_point_select prepare
same --db-ps-mode=foo oltp_read_write run
# Nothing listens on the port: each command's connection error.
same $NOSRV oltp_read_write run
same $NOSRV --threads=1 oltp_read_only prepare
same $NOSRV oltp_delete cleanup
same $NOSRV --verbosity=0 oltp_read_write run
# --config-file: name=value lines, as if given where --config-file stands.
printf '# a comment\nthreads=0\nrand-type=uniform\n' >"$TEST_TMP/cfg"
same --config-file=cfg oltp_read_write run
printf 'percentile="101"\n' >"$TEST_TMP/cfg2"
same --config-file=cfg2 oltp_read_write run
# Deprecated aliases warn before the banner.
same --num-threads=2 --max-requests=5 --max-time=1 --tx-rate=3 --percentile=101 oltp_read_write run

# --mysql-dry-run (no server at all): --report-checkpoints and --rate as
# sysbench prints them (numbers taken out), and --rate's overflow.
skel() { norm | sed -E -e 's/[0-9]+(\.[0-9]+)?/N/g' -e 's/ +/ /g'; }
dry() { # dry NAME FILTER ARGS...: both tools with --mysql-dry-run, filtered output compared
	local name=$1 filter=$2
	shift 2
	sysbench --mysql-dry-run "$@" 2>&1 | $filter >"$TEST_TMP/$name.s" || true
	"$DBRIG_BIN" sysbench --mysql-dry-run "$@" 2>&1 | $filter >"$TEST_TMP/$name.d" || true
	check "$name: sysbench printed something" [ -s "$TEST_TMP/$name.s" ]
	if diff "$TEST_TMP/$name.s" "$TEST_TMP/$name.d" >"$TEST_TMP/diff"; then pass; else
		fail "$name: dbrig's output differs from sysbench's:"
		cat "$TEST_TMP/diff" >&2
	fi
}
checkpoints() { grep -E '(Checkpoint report|SQL statistics|^Report checkpoint|total number of events)' | skel; }
dry checkpoints checkpoints --time=3 --events=0 --report-checkpoints=1,2 oltp_read_write run
# The first interval only: whether the last tick is printed before the end
# depends on timing, in both tools.
rate_lines() { grep -E '^(\[ 1s \]|Target transaction rate|SQL statistics)' | skel; }
dry rate rate_lines --time=2 --events=0 --report-interval=1 --rate=200 --threads=2 oltp_point_select run
set +e
"$DBRIG_BIN" sysbench --mysql-dry-run --rate=2000000000 --verbosity=1 oltp_point_select run >"$TEST_TMP/of" 2>&1
rc=$?
set -e
check "--rate overflow exits 1 (got $rc)" [ "$rc" = 1 ]
check "--rate overflow: sysbench's one line ($(cat "$TEST_TMP/of"))" [ "$(cat "$TEST_TMP/of")" = \
	"FATAL: The event queue is full. This means the worker threads are unable to keep up with the specified event generation rate" ]

# --version, --help and TEST help.
"$DBRIG_BIN" sysbench --version >"$TEST_TMP/v.out"
check "--version: $(cat "$TEST_TMP/v.out")" grep -Eqx 'dbrig [0-9][^ ]* \(sysbench 1\.0\.20 compatible\)' "$TEST_TMP/v.out"
for t in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_update_index oltp_update_non_index \
	oltp_insert oltp_delete /usr/share/sysbench/oltp_read_write.lua /usr/share/sysbench/oltp_insert.lua; do
	same "$t" help
done
sysbench --help >"$TEST_TMP/s.help"
"$DBRIG_BIN" sysbench --help >"$TEST_TMP/d.help"
section() { sed -n "/^$1/,/^\$/p" "$2"; }
for s in 'Commands implemented' 'General options:' 'Pseudo-Random Numbers' 'Log options:' 'mysql options:'; do
	check "--help: section '$s' as sysbench's" diff <(section "$s" "$TEST_TMP/s.help") <(section "$s" "$TEST_TMP/d.help")
done
check "--help: the general database options as sysbench's" \
	diff <(sed -n '/^General database options:/,/^Compiled-in/p' "$TEST_TMP/s.help" | sed '$d') \
	<(sed -n '/^General database options:/,/^Compiled-in/p' "$TEST_TMP/d.help" | sed '$d')
check "--help lists no compiled-in test dbrig lacks" \
	[ -z "$(sed -n '/^Compiled-in tests:/,/^$/p' "$TEST_TMP/d.help" | tail -n +2 | grep . || true)" ]
for o in precondition result journal mysql-password-file event-loops reconnect-timeout rand-zipfian-exp run-campaign; do
	check "--help lists dbrig's --$o" grep -q -- "^  --$o=" "$TEST_TMP/d.help"
done

# Options sysbench has and dbrig does not implement: one FATAL line, exit 1.
expect 1 $'BANNER\n\nFATAL: --db-ps-mode=disable is not supported by dbrig sysbench (the statements are always server-side prepared)\nFATAL: `cleanup\' function failed: PLACE: failed to initialize the DB driver' \
	--db-ps-mode=disable oltp_read_write cleanup
expect 1 $'BANNER\n\nFATAL: a list in --mysql-host, --mysql-port or --mysql-socket is not supported by dbrig sysbench (one server per run)' \
	--mysql-host=a,b oltp_read_write cleanup
expect 1 'FATAL: --forced-shutdown is not supported by dbrig sysbench (transactions in flight at the deadline always finish and count)' \
	--forced-shutdown=5 oltp_read_write run
expect 1 $'BANNER\n\nFATAL: --mysql-debug is not supported by dbrig sysbench (no statement tracing)' \
	--mysql-debug=on oltp_read_write cleanup
# dbrig's own options keep their strict values, in sysbench's wording.
expect 1 "Invalid value for the 'precondition' option: '2x'" --precondition=2x oltp_read_write run
expect 1 "Invalid value for the 'event-loops' option: '-1'" --event-loops=-1 oltp_read_write run
# A dbrig addition's error stays dbrig's, on stderr.
set +e
"$DBRIG_BIN" sysbench $NOSRV --mysql-password-file="$TEST_TMP/none" oltp_read_write run >"$TEST_TMP/o" 2>"$TEST_TMP/e"
rc=$?
set -e
check "missing password file exits 1 (got $rc)" [ "$rc" = 1 ]
check "missing password file: one dbrig line on stderr ($(cat "$TEST_TMP/e"))" \
	[ "$(cat "$TEST_TMP/e")" = "dbrig: --mysql-password-file: \"$TEST_TMP/none\": No such file or directory" ]

# README's "What happens when things fail" quotes this count: from here, not typed by hand.
check "README.md says \"$SAME command-line cases compared with sysbench's own output\"" \
	grep -qF "$SAME command-line cases compared with sysbench's own output" "$DBRIG_SOURCE_DIR/README.md"

# Outside `dbrig sysbench`, dbrig's own conventions.
set +e
"$DBRIG_BIN" sysbnech >/dev/null 2>"$TEST_TMP/e"
rc=$?
set -e
check "a misspelled dbrig command exits 2 (got $rc)" [ "$rc" = 2 ]
check "a misspelled dbrig command: one line" [ "$(cat "$TEST_TMP/e")" = 'dbrig: unknown command "sysbnech" (expected one of: sysbench, tpcc, campaign, report, published, provision, status, restore, teardown; see dbrig --help)' ]
finish
