#!/usr/bin/env bash
# The test command: installs what is needed, builds with warnings as errors,
# and runs every test (cmocka units and integration tests against real servers
# that the tests start on 127.0.0.1 and stop again). Then, as CI:
#   - an ASan+UBSan build (-DENABLE_SANITIZERS=ON) runs the whole suite again,
#     except valgrind_commands (valgrind and ASan do not mix) and tpcc_sqlfluff
#     (it parses SQL text, the same in both builds). The QEMU end-to-end
#     test (10+ minutes of TCG guests whose speed does not depend on how dbrig is
#     built) runs in that build only, so it runs once, with every check on;
#   - every libFuzzer target runs briefly (tests/fuzz/run.sh).
#   scripts/test.sh                 # everything
#   DBRIG_SKIP_DEPS=1 scripts/test.sh   # skip apt-get (packages already there)
#   scripts/test.sh -L unit         # extra arguments go to ctest (plain build only)
#   DBRIG_SANITIZERS=0 / DBRIG_FUZZ_SECONDS=0   # skip the ASan pass / the fuzzers
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
if [ "${DBRIG_SKIP_DEPS:-0}" != 1 ]; then
	scripts/install-deps.sh
fi
build=${DBRIG_BUILD_DIR:-build-test}
# Everything a test needs was just installed: a test that would skip fails instead.
export DBRIG_NO_SKIP=1
failed=()
stage() { # stage NAME COMMAND...: run, time, remember a failure, go on
	local name=$1 t0=$SECONDS
	shift
	echo "=== $name"
	if "$@"; then echo "=== $name: ok ($((SECONDS - t0)) s)"; else
		echo "=== $name: FAILED ($((SECONDS - t0)) s)"
		failed+=("$name")
	fi
}
cmake -S . -B "$build" -DDBRIG_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)"
sanitize=0
[ $# -eq 0 ] && [ "${DBRIG_SANITIZERS:-1}" != 0 ] && sanitize=1
if [ $sanitize = 1 ]; then
	stage "tests" ctest --test-dir "$build" --output-on-failure --timeout 1800 -E '^integration/libvirt_e2e$'
else
	stage "tests" ctest --test-dir "$build" --output-on-failure --timeout 1800 "$@"
fi
if [ $sanitize = 1 ]; then
	asan=${build}-asan
	cmake -S . -B "$asan" -DDBRIG_WERROR=ON -DENABLE_SANITIZERS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build "$asan" -j"$(nproc)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
	# tpcc_sqlfluff parses SQL text the build does not change: once is enough.
	stage "ASan+UBSan tests" ctest --test-dir "$asan" --output-on-failure --timeout 1800 \
		-E '^integration/(valgrind_commands|tpcc_sqlfluff)$'
fi
if [ $# -eq 0 ] && [ "${DBRIG_FUZZ_SECONDS:-20}" != 0 ]; then
	stage "fuzz (${DBRIG_FUZZ_SECONDS:-20} s per target)" tests/fuzz/run.sh "${DBRIG_FUZZ_SECONDS:-20}"
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "test.sh: FAILED: ${failed[*]}" >&2
	exit 1
fi
echo "test.sh: all passed"
