#!/usr/bin/env bash
# The mutation check of issue 16 (not part of CI: about 70 minutes on 2 cores).
# Every mutant of tests/mutation/*.mut is a small plausible bug, named by a function
# and a pattern inside it (tests/mutation/apply.py finds them wherever the code has
# moved). For each one: a scratch copy of this tree gets the mutant, is rebuilt
# incrementally (dbrig and the unit tests it lists), and runs the tests the mutant
# lists (cheapest first, stopping at the first failure). A mutant is KILLED when a test fails, SURVIVED when they all pass,
# NO-BUILD when it does not compile (counted apart), NOT-FOUND when its function or
# pattern is gone (fix the mutant). Prints one line per mutant and a total; the table
# is also written to $DBRIG_MUTATION_DIR/mutation.txt, with the first failure in each
# killing test's log (so a kill can be told from an unrelated failure).
#   scripts/mutation.sh [ID...]              every mutant, or those named
#   DBRIG_MUTATION_DIR=DIR                   scratch folder (default /tmp/dbrig-mutation)
#   DBRIG_MUTATION_JOBS=N                    build jobs (default 2; 1 each for two runs side by side)
#   DBRIG_MUTATION_BASELINE=0                skip the run of the listed tests on the
#                                            unmutated tree (it checks they pass)
# Exit status: 0 when every mutant run was killed, 1 otherwise.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=${DBRIG_MUTATION_DIR:-/tmp/dbrig-mutation}
tree=$work/tree
build=$work/build
jobs=${DBRIG_MUTATION_JOBS:-2}
apply="python3 $here/tests/mutation/apply.py"
export DBRIG_NO_SKIP=1

mkdir -p "$work"
# A fresh copy of this checkout (working tree, not the last commit), and one to restore from.
rm -rf "$tree" "$work/pristine"
mkdir -p "$tree"
(cd "$here" && tar --exclude='./build*' --exclude=./.git -cf - .) | (cd "$tree" && tar -xf -)
cp -a "$tree/src" "$work/pristine"
$apply "$tree" --check >/dev/null || { $apply "$tree" --check; exit 1; }

echo "mutation: building $build"
cmake -S "$tree" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$work/cmake.log" 2>&1 &&
	cmake --build "$build" -j"$jobs" >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 1; }

mapfile -t rows < <($apply "$tree" --list)
# Every test a mutant lists must exist (tests move too).
known=$(ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p')
for row in "${rows[@]}"; do
	IFS=$'\t' read -r id area tests what note <<<"$row"
	for t in $tests; do
		grep -qx "$t" <<<"$known" || { echo "mutation: $id lists $t, which is not a test (ctest -N)" >&2; exit 1; }
	done
done
want=("$@")
selected() { [ ${#want[@]} = 0 ] && return 0; local w; for w in "${want[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }
regex() { # ctest -R for a list of test names
	local r="" t
	for t in "$@"; do r="$r${r:+|}$t"; done
	echo "^($r)\$"
}
targets() { # the unit test executables of ctest names (integration tests need only dbrig)
	local t rel
	for t in "$@"; do
		[[ $t == unit/* ]] || continue
		rel=${t#unit/}
		echo "test_${rel%/*}_${rel##*/test_}" | tr / _
	done
}
run_tests() { # run_tests LOG TEST...: 0 all passed; prints the first failing test otherwise
	local log=$1
	shift
	ctest --test-dir "$build" -R "$(regex "$@")" --stop-on-failure --output-on-failure --timeout 1800 >"$log" 2>&1 && return 0
	sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (.*/\1/p' "$log" | head -n1
	return 1
}

if [ "${DBRIG_MUTATION_BASELINE:-1}" != 0 ]; then
	all=()
	for row in "${rows[@]}"; do
		IFS=$'\t' read -r id area tests what note <<<"$row"
		selected "$id" || continue
		for t in $tests; do [[ " ${all[*]:-} " == *" $t "* ]] || all+=("$t"); done
	done
	echo "mutation: baseline: ${#all[@]} tests on the unmutated tree"
	if ! failed=$(run_tests "$work/baseline.log" "${all[@]}"); then
		echo "mutation: the unmutated tree fails $failed (see $work/baseline.log): no mutant can be judged" >&2
		exit 1
	fi
fi

out=$work/mutation.txt
: >"$work/why.txt"
printf '%-6s %-12s %-9s %-36s %5s  %s\n' id area result "killed by" secs "mutant" | tee "$out"
killed=0 survived=0 nobuild=0 notfound=0 total=0
for row in "${rows[@]}"; do
	IFS=$'\t' read -r id area tests what note <<<"$row"
	selected "$id" || continue
	total=$((total + 1))
	t0=$SECONDS
	by=""
	if ! file=$($apply "$tree" "$id" 2>"$work/$id.apply"); then
		result=NOT-FOUND; notfound=$((notfound + 1)); by=$(head -c 60 "$work/$id.apply")
	elif ! cmake --build "$build" -j"$jobs" --target dbrig $(targets $tests) >"$work/$id.build" 2>&1; then
		result=NO-BUILD; nobuild=$((nobuild + 1))
	elif by=$(run_tests "$work/$id.log" $tests); then
		result=SURVIVED; survived=$((survived + 1)); by="-"
	else
		result=KILLED; killed=$((killed + 1))
		# what failed: the test's first FAIL line or failed assertion, to judge the kill by
		why=$(grep -m1 -E 'FAIL|\[  FAILED  \]|ERROR|error:' "$work/$id.log" | tr -s ' \t' ' ' | cut -c1-110)
		echo "$id: $by: $why" >>"$work/why.txt"
	fi
	# Back to the unmutated file (newer than its object, so the next build recompiles it).
	if [ -n "${file:-}" ]; then
		cp "$work/pristine/${file#src/}" "$tree/$file"
		touch "$tree/$file"
	fi
	file=
	printf '%-6s %-12s %-9s %-36s %5s  %s%s\n' "$id" "$area" "$result" "${by:--}" $((SECONDS - t0)) "$what" \
		"${note:+ [$note]}" | tee -a "$out"
done
cmake --build "$build" -j"$jobs" >/dev/null 2>&1
echo "total: $total mutants, $killed killed, $survived survived, $nobuild did not build, $notfound not found" | tee -a "$out"
echo "what killed each (first failure in its test's log):" >>"$out"
cat "$work/why.txt" >>"$out"
[ "$killed" = "$total" ]
