#!/usr/bin/env bash
# sysbench 1.0.20's own regression tests (its cram files, tests/t/*.t) run
# against Debian's sysbench and against `dbrig sysbench`, side by side, on one
# private MariaDB that this script starts on 127.0.0.1. Not a CI test: it needs
# a checkout of sysbench's tag 1.0.20, which this repository never holds.
#
#   git -C SYSBENCH_GIT_DIR archive 1.0.20 | tar -x -C /tmp/sysbench-1.0.20
#   bench/sysbench-peer-tests.sh /tmp/sysbench-1.0.20 [TEST.t ...]
#
# Both tools see the same copy of the suite (made in a scratch folder, never
# here), with one line loosened for both: MariaDB prints `DEFAULT 0` where the
# expected SHOW CREATE TABLE text has `DEFAULT '0'`. For dbrig only, the
# version banner line (`sysbench 1.0.20 (using system LuaJIT ...)`) is
# expected as dbrig's (`dbrig X (sysbench 1.0.20 compatible)`); opt_version.t,
# which checks the banner itself, is the one test that stays apart.
# `sysbench` on the tests' PATH is Debian's binary or a two-line wrapper that
# runs `dbrig sysbench "$@"` (dbrig takes sysbench's script paths such as
# /usr/share/sysbench/oltp_read_write.lua as test names); `mysql` is the
# MariaDB client pointed at the private server (without MariaDB's echo of a
# failed query, which the expected output predates).
#
# Prints one line per test: its kind, the result under sysbench and under
# dbrig (pass, FAIL, skip), and for a dbrig failure the commands whose output
# differed. Exit status: 0 when every OLTP and option test that passes under
# sysbench passes under dbrig (opt_version.t aside), 1 otherwise.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/tests/lib/mariadb.sh"
. "$here/tests/lib/ports.sh"
DBRIG_BIN=${DBRIG_BIN:-$here/build/dbrig}
src=${1:?usage: bench/sysbench-peer-tests.sh SYSBENCH-1.0.20-CHECKOUT [TEST.t ...]}
shift
src=$(cd "$src" && pwd)
[ -d "$src/tests/t" ] && [ -f "$src/tests/include/config.sh.in" ] ||
	{ echo "$src: not a sysbench source tree (no tests/t, tests/include/config.sh.in)" >&2; exit 1; }
grep -q '^AC_INIT(\[sysbench\],\[1\.0\.20\]' "$src/configure.ac" 2>/dev/null ||
	echo "warning: $src/configure.ac does not say 1.0.20" >&2
cram=$(command -v cram3 || command -v cram) || { echo "cram is not installed (apt-get install python3-cram)" >&2; exit 1; }
command -v sysbench >/dev/null || { echo "sysbench is not installed (apt-get install sysbench)" >&2; exit 1; }
[ -x "$DBRIG_BIN" ] || { echo "no dbrig binary at $DBRIG_BIN (build first, or set DBRIG_BIN)" >&2; exit 1; }
scriptdir=/usr/share/sysbench
[ -f "$scriptdir/oltp_read_write.lua" ] || { echo "$scriptdir/oltp_read_write.lua: missing (Debian's sysbench)" >&2; exit 1; }

work=$(mktemp -d /tmp/dbrig-peer.XXXXXX)
port=$(free_port_block 1)
trap 'mariadb_stop "$work/db"; rm -rf "$work"' EXIT
mariadb_start "$work/db" "$port" || exit 1
mariadb_make_sbtest "$port" sbtest

# The suite, copied per tool: the sysbench checkout stays untouched.
for tool in sysbench dbrig; do
	d=$work/$tool
	mkdir -p "$d/bin"
	cp -r "$src/tests/t" "$src/tests/include" "$d/"
	sed -e 's/@PACKAGE_VERSION@/1.0.20/g' -e 's/@SB_GIT_SHA@//g' -e 's/@USE_MYSQL@/yes/' -e 's/@USE_PGSQL@//' \
		"$src/tests/include/config.sh.in" >"$d/include/config.sh"
	sed -i "s/DEFAULT '0', (glob)\$/DEFAULT *0*, (glob)/" "$d"/t/*.t
	printf '#!/bin/sh\nexec /usr/bin/mariadb --no-defaults --skip-print-query-on-error --protocol=tcp -h127.0.0.1 -P%s "$@"\n' "$port" >"$d/bin/mysql"
	chmod +x "$d/bin/mysql"
done
ln -s "$(command -v sysbench)" "$work/sysbench/bin/sysbench"
printf '#!/bin/sh\nexec "%s" sysbench "$@"\n' "$DBRIG_BIN" >"$work/dbrig/bin/sysbench"
chmod +x "$work/dbrig/bin/sysbench"
sed -i -E 's/^  sysbench \*(\.\* \*)? \(glob\)$/  dbrig * (sysbench 1.0.20 compatible) (glob)/' "$work"/dbrig/t/*.t

kind() { # what a test exercises: oltp, option, lua-api, builtin, pgsql, other
	case $1 in
	script_oltp_*_pgsql.t | *pgsql*.t) echo pgsql ;;
	script_oltp_*) echo oltp ;;
	opt_* | help_drv_mysql.t | drivers.t | commands.t | cmd_*.t | 1st.t | tests.t) echo option ;;
	api_* | cmdline.t | drv_mysql.t | script_bulk_insert_* | script_select_random_*) echo lua-api ;;
	test_*) echo builtin ;;
	*) echo other ;;
	esac
}

run_one() { # run_one TOOL TEST.t -> pass | FAIL | skip; the diff in $work/TOOL/TEST.diff
	local tool=$1 t=$2 d=$work/$1 rc
	set +e
	(cd "$d" && env PATH="$d/bin:$PATH" SBTEST_ROOTDIR="$d" SBTEST_SCRIPTDIR="$scriptdir" SBTEST_SUITEDIR="$d/t" \
		SBTEST_INCDIR="$d/include" SBTEST_CONFIG="$d/include/config.sh" CRAM_BIN="$cram" \
		SBTEST_MYSQL_ARGS="--mysql-host=127.0.0.1 --mysql-port=$port --mysql-user=sbtest --mysql-db=sbtest" \
		bash -c '. "$SBTEST_CONFIG"; exec "$CRAM_BIN" --shell=/bin/bash "t/$1"' _ "$t" >"$d/$t.diff" 2>&1)
	rc=$?
	set -e
	if grep -q '^# Ran 1 tests, 1 skipped' "$d/$t.diff"; then echo skip
	elif [ $rc = 0 ]; then echo pass
	else echo FAIL; fi
}

# The commands (`$ ...` lines) inside the hunks of a failing test's diff.
failing_cmds() {
	awk '/^@@/ {h=1; next} h && /^[ +-]  \$ / {sub(/^[ +-]  \$ /, ""); print}' "$1" | sort -u | head -3 |
		cut -c1-70 | paste -sd';' -
}

tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
	tests=()
	for f in "$src"/tests/t/*.t; do tests+=("$(basename "$f")"); done
fi
printf '%-36s %-8s %-9s %-6s %s\n' test kind sysbench dbrig "dbrig: commands whose output differs"
bad=0
declare -A tally
for t in "${tests[@]}"; do
	k=$(kind "$t")
	s=$(run_one sysbench "$t")
	g=$(run_one dbrig "$t")
	why=""
	[ "$g" = FAIL ] && why=$(failing_cmds "$work/dbrig/$t.diff")
	printf '%-36s %-8s %-9s %-6s %s\n' "$t" "$k" "$s" "$g" "$why"
	tally[$k-$s-$g]=$((${tally[$k-$s-$g]:-0} + 1))
	if [ "$s" = pass ] && [ "$g" != pass ] && [ "$t" != opt_version.t ]; then
		case $k in oltp | option) bad=$((bad + 1)) ;; esac
	fi
	if [ -n "${PEER_KEEP:-}" ]; then for x in sysbench dbrig; do cp "$work/$x/$t.diff" "$PEER_KEEP/$t.$x.diff"; done; fi
done
echo
for key in $(printf '%s\n' "${!tally[@]}" | sort); do echo "  $key: ${tally[$key]}"; done
echo "OLTP and option tests that pass under sysbench but not under dbrig (opt_version.t aside): $bad"
[ $bad = 0 ]
