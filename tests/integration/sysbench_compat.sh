#!/usr/bin/env bash
# A database prepared by dbrig runs under Debian's sysbench 1.0.20, and one
# prepared by sysbench runs under dbrig; both produce the same schema.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
command -v sysbench >/dev/null || die "sysbench is not installed (apt-get install sysbench)"
start_mariadb
C=$(conn_opts)
T="--tables=3 --table-size=3000"

schema() {
	for i in 1 2 3; do mariadb_sql "$MARIADB_PORT" "SHOW CREATE TABLE sbtest.sbtest$i" | sed 's/AUTO_INCREMENT=[0-9]* //'; done
}

# The output of prepare, prewarm and cleanup is sysbench's line for line at
# every --threads (with more than one thread, tables are done in parallel and
# their lines interleave in either tool, so they are compared sorted); a
# run's report is sysbench's line for line with its numbers taken out, at
# every --verbosity, with --histogram and for several --percentile.
banner() {
	sed -E -e 's/^sysbench 1\.0\.20 \(using system LuaJIT [^)]*\)$/BANNER/' \
		-e 's/^dbrig [^ ]+ \(sysbench 1\.0\.20 compatible\)$/BANNER/'
}
# A report with its numbers taken out: each number becomes N and runs of
# spaces one space, except that the Latency (ms) lines keep their length (the
# values are right-aligned: the labels must line up as sysbench's do).
skeleton() {
	banner | sed -E '/^ +[0-9.]+ \|\**  *[0-9]+$/d' | awk '
		/^ +(min|avg|max|sum|[0-9.]+th percentile|percentile stats):/ { n = length($0) }
		{ gsub(/[0-9]+(\.[0-9]+)?/, "N"); gsub(/ +/, " "); if (n) print $0 " [" n " chars]"; else print; n = 0 }'
}
out() { # out TOOL NAME FILTER ARGS...: the tool's filtered output into $TEST_TMP/NAME.TOOL
	local tool=$1 name=$2 filter=$3
	shift 3
	if [ "$tool" = sysbench ]; then sysbench "$@"; else "$DBRIG_BIN" sysbench "$@"; fi 2>&1 |
		$filter >"$TEST_TMP/$name.$tool" || true
}
same() { # same NAME [empty]: the two tools' outputs of NAME are equal (and not empty, unless said)
	if [ "${2:-}" = empty ]; then
		check "$1: sysbench printed nothing" [ ! -s "$TEST_TMP/$1.sysbench" ]
	else
		check "$1: sysbench printed something" [ -s "$TEST_TMP/$1.sysbench" ]
	fi
	if diff "$TEST_TMP/$1.sysbench" "$TEST_TMP/$1.dbrig" >"$TEST_TMP/$1.diff"; then pass; else
		fail "$1: dbrig's output differs from sysbench's:"
		cat "$TEST_TMP/$1.diff" >&2
	fi
}
both() { # both NAME FILTER ARGS...: a command without lasting effect through both tools
	out sysbench "$@"
	out dbrig "$@"
	same "$1" "${EMPTY:-}"
}
# Sorted, each line whole: sysbench's threads print with no lock, so two
# lines can come out run together ("Prewarming table sbtest3Prewarming ...").
sorted() { banner | sed -E 's/(.)(Creating|Inserting|Prewarming|Dropping)/\1\n\2/g' | grep -v '^$' | sort; }
S="--tables=3 --table-size=500"
for th in 1 2 4; do
	f=banner
	[ $th = 1 ] || f=sorted
	for tool in sysbench dbrig; do
		out $tool "prepare-t$th" $f $C $S --threads=$th oltp_read_only prepare
		out $tool "prewarm-t$th" $f $C $S --threads=$th oltp_read_only prewarm
		out $tool "cleanup-t$th" $f $C $S --threads=$th oltp_read_only cleanup
	done
	same "prepare-t$th"
	same "prewarm-t$th"
	same "cleanup-t$th"
done
for tool in sysbench dbrig; do
	out $tool insert-prepare banner $C $S --auto-inc=off --create-secondary=off oltp_insert prepare
	out $tool insert-cleanup banner $C $S oltp_insert cleanup
done
same insert-prepare
same insert-cleanup
"$DBRIG_BIN" sysbench $C $S oltp_read_write prepare >/dev/null
for v in 0 1 2; do # the report is a notice (3): nothing at all below
	EMPTY=empty both "run-verbosity-$v" skeleton $C $S --verbosity=$v --events=50 --time=0 oltp_read_write run
done
for v in 3 4 5; do
	both "run-verbosity-$v" skeleton $C $S --verbosity=$v --events=50 --time=0 oltp_read_write run
done
both run-threads-3 skeleton $C $S --threads=3 --events=60 --time=0 oltp_read_only run
for p in 1 50 99 100 0; do
	both "run-percentile-$p" skeleton $C $S --percentile=$p --events=50 --time=0 oltp_point_select run
done
both run-histogram skeleton $C $S --histogram --events=50 --time=0 oltp_update_index run
both run-histogram-verbosity-1 skeleton $C $S --histogram --verbosity=1 --events=50 --time=0 oltp_read_only run
"$DBRIG_BIN" sysbench $C $S oltp_read_write cleanup >/dev/null

# dbrig prepares, sysbench runs.
check "dbrig prepare" "$DBRIG_BIN" sysbench $C $T --threads=2 oltp_read_write prepare >/dev/null
schema >"$TEST_TMP/schema.dbrig"
ids=$(mariadb_sql "$MARIADB_PORT" "SELECT MIN(id), MAX(id), COUNT(*), COUNT(DISTINCT id) FROM sbtest.sbtest3")
check "ids are 1..3000 (got $ids)" [ "$ids" = "1	3000	3000	3000" ]
lens=$(mariadb_sql "$MARIADB_PORT" "SELECT MIN(LENGTH(c)), MAX(LENGTH(c)), MIN(LENGTH(pad)), MAX(LENGTH(pad)) FROM sbtest.sbtest1")
check "c and pad are 119 and 59 characters (got $lens)" [ "$lens" = "119	119	59	59" ]
fmt=$(mariadb_sql "$MARIADB_PORT" "SELECT COUNT(*) FROM sbtest.sbtest1 WHERE c NOT REGEXP '^([0-9]{11}-){9}[0-9]{11}\$' OR pad NOT REGEXP '^([0-9]{11}-){4}[0-9]{11}\$'")
check "c and pad follow sysbench's templates ($fmt rows do not)" [ "$fmt" = 0 ]
# sysbench's default 'special' distribution puts ~75% of k in the middle 1% of the range.
mid=$(mariadb_sql "$MARIADB_PORT" "SELECT ROUND(100*SUM(k BETWEEN 1470 AND 1530)/COUNT(*)) FROM sbtest.sbtest1")
check "k follows the special distribution ($mid% in the middle 2%)" test "$mid" -ge 65 -a "$mid" -le 85
check "sysbench prewarm on dbrig's tables" sysbench $C $T --threads=2 oltp_read_write prewarm >/dev/null 2>&1
check "sysbench run on dbrig's tables" sysbench $C $T --threads=4 --time=2 oltp_read_write run >"$TEST_TMP/sb.out" 2>&1
check "sysbench completed transactions" grep -Eq 'transactions: +[1-9][0-9]* ' "$TEST_TMP/sb.out"
check "sysbench oltp_insert on dbrig's tables" sysbench $C $T --threads=2 --time=1 oltp_insert run >/dev/null 2>&1
check "sysbench cleanup" sysbench $C $T oltp_read_write cleanup >/dev/null 2>&1

# sysbench prepares, dbrig runs.
check "sysbench prepare" sysbench $C $T --threads=2 oltp_read_write prepare >/dev/null 2>&1
schema >"$TEST_TMP/schema.sysbench"
check "same schema either way" diff "$TEST_TMP/schema.dbrig" "$TEST_TMP/schema.sysbench"
check "dbrig prewarm on sysbench's tables" "$DBRIG_BIN" sysbench $C $T --threads=2 oltp_read_write prewarm >/dev/null
check "dbrig run on sysbench's tables" "$DBRIG_BIN" sysbench $C $T --threads=4 --time=2 --result="$TEST_TMP/r.json" oltp_read_write run >/dev/null
check "dbrig result complete" [ "$(json_get "$TEST_TMP/r.json" "r['status']")" = complete ]
check "dbrig run on sysbench's tables: oracle" oracle result "$TEST_TMP/r.json"
check "dbrig oltp_insert on sysbench's tables" "$DBRIG_BIN" sysbench $C $T --threads=2 --time=1 oltp_insert run >/dev/null
check "dbrig cleanup" "$DBRIG_BIN" sysbench $C $T oltp_read_write cleanup >/dev/null

# oltp_insert without auto_inc: both make empty tables and insert client-side ids.
check "dbrig prepare oltp_insert --auto-inc=off" "$DBRIG_BIN" sysbench $C $T --auto-inc=off oltp_insert prepare >/dev/null
check "empty tables" [ "$(mariadb_sql "$MARIADB_PORT" "SELECT COUNT(*) FROM sbtest.sbtest1")" = 0 ]
check "dbrig oltp_insert --auto-inc=off run" "$DBRIG_BIN" sysbench $C $T --auto-inc=off --threads=4 --time=1 --result="$TEST_TMP/ins.json" oltp_insert run >/dev/null
n=$(mariadb_sql "$MARIADB_PORT" "SELECT (SELECT COUNT(*) FROM sbtest.sbtest1)+(SELECT COUNT(*) FROM sbtest.sbtest2)+(SELECT COUNT(*) FROM sbtest.sbtest3)")
check "every insert landed once ($n rows)" [ "$n" = "$(json_get "$TEST_TMP/ins.json" "r['phases']['sample']['transactions']")" ]
check "oltp_insert run: oracle" oracle result "$TEST_TMP/ins.json"
# More than 65,536 inserts on one connection, and a second run into the same
# tables: sysbench completes both (ids from rand.unique()); a per-connection
# counter stepping by 65,536 used to wrap into a duplicate key here.
check "dbrig oltp_insert --auto-inc=off --events=70000 on one connection" "$DBRIG_BIN" sysbench $C $T --auto-inc=off \
	--threads=1 --time=0 --events=70000 oltp_insert run >/dev/null
check "a second --auto-inc=off run into the same tables" "$DBRIG_BIN" sysbench $C $T --auto-inc=off \
	--threads=2 --time=0 --events=1000 oltp_insert run >/dev/null
n2=$(mariadb_sql "$MARIADB_PORT" "SELECT (SELECT COUNT(*) FROM sbtest.sbtest1)+(SELECT COUNT(*) FROM sbtest.sbtest2)+(SELECT COUNT(*) FROM sbtest.sbtest3)")
check "71,000 more rows ($n2 - $n)" [ $((n2 - n)) = 71000 ]
finish
