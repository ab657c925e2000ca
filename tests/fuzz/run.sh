#!/usr/bin/env bash
# Build the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined) and
# run each for SECONDS, starting from the committed seed corpus
# (tests/fuzz/corpus/<target>/, never modified: new inputs go to the build
# folder). Exit 1 when any target finds a crash, leak, UB or failed check; the
# reproducer is kept in $BUILD/findings/<target>/ and the log in $BUILD/logs/.
#   tests/fuzz/run.sh 20                       # every target, 20 s each
#   tests/fuzz/run.sh 600 fuzz_result          # one target
#   FUZZ_BUILD=build-fuzz (default), FUZZ_JOBS=1 (parallel targets)
# Reproduce a finding: $BUILD/tests/fuzz/fuzz_result FILE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
secs=${1:-20}
shift || true
build=${FUZZ_BUILD:-$src/build-fuzz}
case $build in /*) ;; *) build=$src/$build ;; esac
jobs=${FUZZ_JOBS:-1}

command -v clang >/dev/null || { echo "fuzz: clang is not installed (apt-get install clang)" >&2; exit 1; }
cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=clang -DDBRIG_FUZZ=ON -DDBRIG_BUILD_TESTS=OFF -DDBRIG_WERROR=ON \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
if [ $# -gt 0 ]; then targets=("$@"); else
	targets=()
	for f in "$here"/fuzz_*.c; do targets+=("$(basename "$f" .c)"); done
fi
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >/dev/null

run_one() { # run_one TARGET: prints one summary line, returns non-zero on a finding
	local t=$1 name=${1#fuzz_} dict=() rc
	local work=$build/corpus/$name findings=$build/findings/$name log=$build/logs/$t.log
	mkdir -p "$work" "$findings" "$build/logs"
	[ "$name" = units ] || dict=(-dict="$here/json.dict")
	set +e
	"$build/tests/fuzz/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
		-print_final_stats=1 -artifact_prefix="$findings/" "${dict[@]}" "$work" "$here/corpus/$name" >"$log" 2>&1
	rc=$?
	set -e
	local runs cov
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n1)
	if [ $rc -eq 0 ]; then
		echo "$t: ${secs}s, ${runs:-?} runs, ${cov:-cov: ?}, corpus $(ls "$work" | wc -l), no finding"
	else
		echo "$t: FINDING after ${runs:-?} runs (exit $rc): $(ls "$findings" | head -n3 | tr '\n' ' ')"
		grep -m1 -E 'ERROR: |runtime error|deadly signal' "$log" || true
		echo "  log: $log"
	fi
	return $rc
}

fails=0
if [ "$jobs" -le 1 ]; then
	for t in "${targets[@]}"; do run_one "$t" || fails=$((fails + 1)); done
else
	pids=()
	for t in "${targets[@]}"; do
		run_one "$t" >"$build/logs/$t.summary" &
		pids+=($!)
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || fails=$((fails + 1))
		cat "$build/logs/${targets[$i]}.summary"
	done
fi
[ $fails -eq 0 ] || { echo "fuzz: $fails target(s) found a problem" >&2; exit 1; }
