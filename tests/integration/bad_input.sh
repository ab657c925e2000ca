#!/usr/bin/env bash
# The bad-input corpus (tests/bad-input/, see its README.md): every case is a
# folder with `cmd` (one shell line run in a copy of the folder), its input
# files, and `expected` (the exact stderr, or for `dbrig sysbench` everything
# printed; the last line "exit N"). Each case must print exactly that, exit
# with that status, never crash (exit
# >= 128, sanitizer reports), never hang (30 s timeout), and write nothing
# (no file appears in its folder: no result, journal or report).
#
# Cases that name $MPORT run against a private MariaDB started here (user
# sbtest, password $MPW); $FREE_PORT is a port where nothing listens.
#   tests/integration/bad_input.sh [CASE...]      # all cases, or some
#   UPDATE_EXPECTED=1 ...                         # rewrite expected files (review the diff!)
#   UPDATE_README=1 tests/integration/bad_input.sh  # rewrite the case tables and counts (runs no case)
# With every case run, the tables of tests/bad-input/README.md and the count in
# README.md must be what the corpus holds (the first "# " line of each cmd is
# its description): counts come from the corpus, never typed by hand.
# An expected line starting with "~" is an extended regular expression, used
# only where the system supplies part of the text (a resolver's error code).
# needs: libvirt odbc
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
CORPUS=$DBRIG_SOURCE_DIR/tests/bad-input
export DBRIG=$DBRIG_BIN
export MPW='right-pw-5e0a7'
export FREE_PORT
FREE_PORT=$(free_port) || die "no free port"
unset DBRIG_BAD_INPUT_UNSET MYSQL_PWD

if [ $# -gt 0 ]; then cases=("$@"); else
	cases=()
	for d in "$CORPUS"/*/; do cases+=("$(basename "$d")"); done
fi
# The index: one table per kind of input, in this order; a case whose name
# fits no section fails the test (add a section for a new kind).
SECTIONS=(
	'campaign|Campaign files (`dbrig campaign FILE --plan`): broken JSON, wrong types, out-of-range numbers, bad durations and sizes, impossible placements, unknown tests and options, files that are not regular'
	'sysbench|The driver command line (`dbrig sysbench`, in sysbench 1.0.20'"'"'s words, exit 1): bad durations and numbers, unknown tests and options, unreachable hosts, ports and sockets, wrong or missing passwords, unknown users and databases, TLS modes and files'
	'tpcc|The TPC-C command line (`dbrig tpcc`)'
	'libvirt|libvirt hosts that cannot be reached (`campaign`, `provision`, `status`, `teardown`)'
	'top|The command table'
	'result|Result files under `dbrig report`: truncated, empty, hand-edited values, unknown schema versions'
	'journal|Journals under `dbrig report`: unknown schema, missing header, broken or hand-edited lines'
	'report|`dbrig report` usage and references'
	'published|Published reference files (`dbrig published`)'
)
section_of() { # the section key of case $1
	case $1 in
	sysbench-*) echo sysbench ;;
	*-unreachable-host) echo libvirt ;;
	*) echo "${1%%-*}" ;;
	esac
}
render_index() {
	local all=() d c key title rows k
	for d in "$CORPUS"/*/; do all+=("$(basename "$d")"); done
	echo "${#all[@]} cases:"
	for s in "${SECTIONS[@]}"; do
		key=${s%%|*} title=${s#*|} rows="" k=0
		for c in "${all[@]}"; do
			[ "$(section_of "$c")" = "$key" ] || continue
			rows+="| \`$c\` | $(sed -n '1s/^# *//p' "$CORPUS/$c/cmd") | $(tail -n 1 "$CORPUS/$c/expected" | sed 's/^exit //') |"$'\n'
			k=$((k + 1))
		done
		[ $k -gt 0 ] || continue
		printf '\n## %s (%d)\n\n| case | input | exit |\n|---|---|---|\n%s' "$title" "$k" "$rows"
	done
}
index_check() {
	for c in "${cases[@]}"; do
		key=$(section_of "$c") found=0
		for s in "${SECTIONS[@]}"; do [ "${s%%|*}" = "$key" ] && found=1; done
		check "$c: fits no section of the index (add one to SECTIONS)" [ $found = 1 ]
		check "$c: cmd has no '# description' first line" grep -q '^# ..' <(head -n1 "$CORPUS/$c/cmd")
	done
	MARK='<!-- The rest of this file is written by UPDATE_README=1 tests/integration/bad_input.sh. -->'
	IDX=$CORPUS/README.md
	TOP=$DBRIG_SOURCE_DIR/README.md
	want_idx="$(awk -v m="$MARK" '{ print } $0 == m { exit }' "$IDX")"$'\n'"$(render_index)"
	claim="(${#cases[@]} cases in [tests/bad-input/]"
	if [ "${UPDATE_README:-0}" = 1 ]; then
		printf '%s\n' "$want_idx" >"$IDX"
		sed -i -E "s|\(([0-9]+) cases in \[tests/bad-input/\]|$claim|" "$TOP"
	fi
	check "tests/bad-input/README.md has the marker line" grep -qxF "$MARK" "$IDX"
	check "tests/bad-input/README.md lists the corpus as it is (UPDATE_README=1 $0 rewrites it):
$(diff <(printf '%s\n' "$want_idx") "$IDX" | head -20)" [ "$(cat "$IDX")" = "$want_idx" ]
	check "README.md says \"$claim\" (UPDATE_README=1 $0 rewrites it)" grep -qF "$claim" "$TOP"
}
# UPDATE_README=1: rewrite the index and the count from the corpus, run no case.
if [ "${UPDATE_README:-0}" = 1 ]; then
	trap cleanup_test EXIT
	index_check
	finish
	exit
fi
need_server=0
for c in "${cases[@]}"; do grep -q 'MPORT' "$CORPUS/$c/cmd" && need_server=1; done
if [ $need_server = 1 ]; then
	SBTEST_PASSWORD=$MPW start_mariadb
	export MPORT=$MARIADB_PORT
else
	trap cleanup_test EXIT
	export MPORT=0
fi

n=0
for c in "${cases[@]}"; do
	src=$CORPUS/$c
	[ -f "$src/cmd" ] || die "$c: no cmd file"
	work=$TEST_TMP/cases/$c
	mkdir -p "$work"
	cp -a "$src/." "$work/"
	rm -f "$work/expected"
	[ ! -f "$work/pw" ] || chmod 600 "$work/pw" # git keeps no modes but x
	before=$(cd "$work" && find . -type f | sort)
	set +e
	(cd "$work" && timeout -k 5 30 bash -c "$(grep -v '^#' cmd)" </dev/null >"$TEST_TMP/out" 2>"$TEST_TMP/err")
	rc=$?
	set -e
	after=$(cd "$work" && find . -type f | sort)
	# Inside `dbrig sysbench` sysbench 1.0.20's conventions hold: its
	# messages go to stdout (FATAL: ...), so a sysbench case's expected text
	# is everything the command printed, stdout then stderr, with dbrig's
	# version banner written as BANNER.
	if grep -q '"$DBRIG" sysbench' "$src/cmd"; then
		got=$(cat "$TEST_TMP/out" "$TEST_TMP/err" | sed -E 's/^dbrig [^ ]+ \(sysbench 1\.0\.20 compatible\)$/BANNER/')
	else
		got=$(cat "$TEST_TMP/err")
	fi
	n=$((n + 1))
	if [ "${UPDATE_EXPECTED:-0}" = 1 ]; then
		line=${got//$FREE_PORT/\$\{FREE_PORT\}}
		[ "$MPORT" = 0 ] || line=${line//$MPORT/\$\{MPORT\}}
		if [ -f "$src/expected" ] && grep -q '^~' "$src/expected"; then
			echo "$c: regex expectation kept" >&2
		else
			printf '%s\nexit %s\n' "$line" "$rc" >"$src/expected"
		fi
	fi
	[ -f "$src/expected" ] || { fail "$c: no expected file"; continue; }
	# Every line but the last is expected output ("~" lines are regular
	# expressions); the last is the exit status.
	mapfile -t want_lines < <(sed '$d' "$src/expected")
	[ ${#want_lines[@]} != 1 ] || [ -n "${want_lines[0]}" ] || want_lines=() # "" + exit: nothing printed
	want_rc=$(tail -n 1 "$src/expected")
	mapfile -t got_lines < <(printf '%s\n' "$got")
	[ -n "$got" ] || got_lines=()
	check "$c: did not hang (exit $rc)" [ "$rc" != 124 ]
	check "$c: did not crash (exit $rc)" [ "$rc" -lt 128 ]
	check "$c: exit status: want '$want_rc', got 'exit $rc'" [ "exit $rc" = "$want_rc" ]
	same=1
	[ ${#want_lines[@]} = ${#got_lines[@]} ] || same=0
	for ((k = 0; same && k < ${#want_lines[@]}; k++)); do
		w=${want_lines[$k]}
		w=${w//\$\{FREE_PORT\}/$FREE_PORT}
		w=${w//\$\{MPORT\}/$MPORT}
		if [ "${w:0:1}" = "~" ]; then
			[[ "${got_lines[$k]}" =~ ^${w:1}$ ]] || same=0
		else
			[ "${got_lines[$k]}" = "$w" ] || same=0
		fi
	done
	check "$c: output: want:
$(sed '$d' "$src/expected")
  got:
$got" [ $same = 1 ]
	check "$c: wrote files: $(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')" [ "$before" = "$after" ]
done
echo "$n bad-input cases run"
[ $# -gt 0 ] || index_check
# The corpus holds the cases README.md counts (was: at least 40): a case
# removed or lost shows here, not only in the README.
stated=$(grep -o '([0-9]* cases in \[tests/bad-input/\]' "$DBRIG_SOURCE_DIR/README.md" | tr -dc 0-9)
[ $# -gt 0 ] || check "the corpus holds the ${stated:-?} cases README.md states (${#cases[@]})" [ "${#cases[@]}" = "${stated:-none}" ]
finish
