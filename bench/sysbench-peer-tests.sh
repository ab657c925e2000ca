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
# dbrig (pass, FAIL, skip), and for a dbrig failure why: "by design" when
# every command that differs is one dbrig cannot pass (a Lua script of the
# test's own, one of sysbench's C tests, the version banner: see allowed()),
# otherwise the commands that differ. Exit status: 0 when every OLTP and
# option test that passes under sysbench passes under dbrig or fails only by
# design, 1 otherwise.
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
trap 'exit 1' INT TERM
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

kind() { # what a test exercises: oltp, option, lua-api, builtin, pgsql
	case $1 in
	*pgsql*.t) echo pgsql ;;
	script_oltp_*) echo oltp ;;
	opt_* | help_drv_mysql.t | drivers.t | commands.t | cmd_*.t | 1st.t | tests.t) echo option ;;
	test_*) echo builtin ;;
	*) echo lua-api ;;
	esac
}

# Commands of an OLTP or option test that dbrig cannot pass by design, and why:
# the test runs a Lua script of its own, or one of sysbench's C tests, or
# checks the version banner. Any other failing command of such a test counts.
allowed() { # allowed TEST -> "REGEX<TAB>why", or nothing
	case $1 in
	opt_version.t) printf '%s\t%s\n' 'version' 'the version banner names dbrig' ;;
	opt_help.t) printf '%s\t%s\n' '--help' 'usage names dbrig sysbench; no C tests (fileio, cpu, ...) listed' ;;
	opt_histogram.t) printf '%s\t%s\n' 'histogram\.lua' 'its event is a Lua script of its own' ;;
	opt_rate.t) printf '%s\t%s\n' 'sysbench.* cpu ' 'uses the cpu C test' ;;
	opt_report_interval.t | opt_report_checkpoints.t) printf '%s\t%s\n' '^sysbench cpu ' 'its second half uses the cpu C test' ;;
	cmd_*.t) printf '%s\t%s\n' 'cmd_[a-z]+\.lua' 'its second half runs a Lua script of its own' ;;
	esac
}

# The commands of TEST whose output differs: the test file and cram's .err
# file (the actual output) split into blocks at each `  $ ` command and
# compared block by block with cram's own line matching ((glob), (re), (esc)).
failing_cmds() { # failing_cmds T.t T.t.err
	python3 - "$1" "$2" <<'PY'
import re, sys
def blocks(path):
    out, cur = [], None
    for line in open(path, errors="replace").read().split("\n"):
        if line.startswith("  $ "):
            cur = [line[4:], []]
            out.append(cur)
        elif cur is not None and line.startswith("  > "):
            cur[0] += " " + line[4:]
        elif cur is not None and line.startswith("  "):
            cur[1].append(line[2:])
        else:
            cur = None  # commentary between commands
    return out
def glob(pat):
    res, i = "", 0
    while i < len(pat):
        c = pat[i]
        i += 1
        if c == "\\" and i < len(pat) and pat[i] in "*?\\":
            res += "\\" + pat[i]
            i += 1
        elif c == "*":
            res += ".*"
        elif c == "?":
            res += "."
        else:
            res += re.escape(c)
    return res
def match(e, g):
    if e == g:
        return True
    try:
        if e.endswith(" (re)"):
            return re.match(e[:-5] + r"\Z", g) is not None
        if e.endswith(" (glob)"):
            return re.match(glob(e[:-7]) + r"\Z", g) is not None
        if e.endswith(" (esc)"):
            return e[:-6].encode().decode("unicode_escape") == g
    except re.error:
        return False
    return False
try:
    exp, got = blocks(sys.argv[1]), blocks(sys.argv[2])
except OSError:
    sys.exit(0)
for e, g in zip(exp, got):
    if len(e[1]) != len(g[1]) or not all(match(a, b) for a, b in zip(e[1], g[1])):
        print(e[0])
for e in exp[len(got):]:
    print(e[0])
PY
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
	rm -f "$d/$t.cmds"
	[ ! -f "$d/t/$t.err" ] || failing_cmds "$d/t/$t" "$d/t/$t.err" >"$d/$t.cmds"
	if grep -q '^# Ran 1 tests, 1 skipped' "$d/$t.diff"; then echo skip
	elif [ $rc = 0 ]; then echo pass
	else echo FAIL; fi
}

tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
	tests=()
	for f in "$src"/tests/t/*.t; do tests+=("$(basename "$f")"); done
fi
printf '%-34s %-8s %-9s %-6s %s\n' test kind sysbench dbrig "why dbrig fails (the commands whose output differs)"
bad=0
declare -A tally
for t in "${tests[@]}"; do
	k=$(kind "$t")
	s=$(run_one sysbench "$t")
	g=$(run_one dbrig "$t")
	why=""
	if [ "$g" = FAIL ]; then
		cmds=$(cut -c1-60 "$work/dbrig/$t.cmds" 2>/dev/null | paste -sd';' -)
		why="differs: ${cmds:-?}"
		a=$(allowed "$t")
		if [ -n "$a" ] && [ -s "$work/dbrig/$t.cmds" ] && ! grep -Evq -- "${a%%$'\t'*}" "$work/dbrig/$t.cmds"; then
			why="by design: ${a#*$'\t'}"
		elif [ "$s" = pass ]; then
			case $k in oltp | option) bad=$((bad + 1)); why="MISSING, $why" ;; esac
		fi
		case $k in
		lua-api) why="not claimed: a Lua script of its own (sysbench's Lua API)" ;;
		builtin) why="not claimed: sysbench's C test" ;;
		esac
	fi
	printf '%-34s %-8s %-9s %-6s %s\n' "$t" "$k" "$s" "$g" "$why"
	tally[$k-$s-$g]=$((${tally[$k-$s-$g]:-0} + 1))
	if [ -n "${PEER_KEEP:-}" ]; then for x in sysbench dbrig; do cp "$work/$x/$t.diff" "$PEER_KEEP/$t.$x.diff"; done; fi
done
echo
for key in $(printf '%s\n' "${!tally[@]}" | sort); do echo "  $key: ${tally[$key]}"; done
echo "OLTP and option tests passing under sysbench that fail under dbrig other than by design: $bad"
[ $bad = 0 ]
