#!/usr/bin/env bash
# The mutants of tests/mutation/*.mut stay usable as the code and the tests
# move: every mutant still finds its function and pattern in src/
# (apply.py --check), and every test a mutant lists is a ctest test of this
# build (scripts/mutation.sh refuses to start otherwise). Usage: mutants.sh
# SOURCE_DIR BUILD_DIR. One line per problem; exit 1 when there is one.
set -u
src=$1 build=$2 bad=0
python3 "$src/tests/mutation/apply.py" "$src" --check >/dev/null || { python3 "$src/tests/mutation/apply.py" "$src" --check; bad=1; }
known=$(ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p')
[ -n "$known" ] || { echo "mutants: ctest -N in $build lists no tests"; exit 1; }
while IFS=$'\t' read -r id area tests what note; do
	for t in $tests; do
		grep -qx "$t" <<<"$known" || { echo "mutants: $id lists $t, which is not a test (ctest -N)"; bad=1; }
	done
done < <(python3 "$src/tests/mutation/apply.py" "$src" --list)
[ $bad = 0 ] && echo "mutants: $(python3 "$src/tests/mutation/apply.py" "$src" --list | wc -l) mutants apply, their tests exist"
exit $bad
