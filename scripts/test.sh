#!/usr/bin/env bash
# The test command: installs what is needed, builds with warnings as errors,
# and runs every test (cmocka units and integration tests against real servers
# that the tests start on 127.0.0.1 and stop again), each integration test once,
# in the strictest build it can run in:
#   - the plain build (-DCMAKE_BUILD_TYPE=RelWithDebInfo, what users build) runs the
#     cmocka units, the lints, valgrind_commands (every command under valgrind
#     memcheck: valgrind and ASan do not mix) and tpcc_sqlfluff (it parses SQL text,
#     the same in every build);
#   - an ASan+UBSan build (-DENABLE_SANITIZERS=ON, same optimisation) runs the units
#     again and every other integration test, the QEMU end-to-end test last (minutes
#     of TCG guests, whose speed does not depend on how dbrig is built);
#   - a build without the optional backends (-DDBRIG_WITH_LIBVIRT=OFF -DDBRIG_WITH_ODBC=OFF)
#     must compile and link (docs/architecture.md, rule 7); its units, a local campaign,
#     the sysbench command line and the installed tree run there (a minute);
#   - every libFuzzer target runs briefly (tests/fuzz/run.sh).
# Running the integration tests in both builds doubled CI's time (about 18 minutes)
# for one more pass of the same checks without the sanitizers.
# With DBRIG_SANITIZERS=0 (or extra ctest arguments) the plain build runs everything.
#   scripts/test.sh                 # everything
#   DBRIG_SKIP_DEPS=1 scripts/test.sh   # skip apt-get (packages already there)
#   scripts/test.sh -L unit         # extra arguments go to ctest (plain build only)
#   DBRIG_SANITIZERS=0 / DBRIG_FUZZ_SECONDS=0   # skip the ASan pass / the fuzzers
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
if [ "${DBRIG_SKIP_DEPS:-0}" != 1 ]; then
	scripts/install-deps.sh
	echo "=== install-deps: ok ($SECONDS s)"
fi
build=${DBRIG_BUILD_DIR:-build-test}
# Everything a test needs was just installed: a test that would skip fails instead.
export DBRIG_NO_SKIP=1
failed=()
why=""
# failed_checks DIR: each failed test of ctest's last run in DIR with the lines that name its
# failure (a check's FAIL:, a sanitizer's report, a timeout). CI shows the head and the tail
# of this script's output, not its middle, where a failing test's own output lands: these
# lines are printed again at the very end.
failed_checks() {
	awk '/^[0-9]+\/[0-9]+ Testing: / { t = $3; buf = ""; n = 0; out = 0; next }
	     /^<end of output>/ { out = 1; next }
	     out && /^Test [A-Z]/ { if ($0 != "Test Passed.") printf "%s  %s: %s\n", buf, t, $0; t = ""; next }
	     t != "" && !out && /^(oracle: )?(FAILED CHECK|FAIL|ERROR): |Sanitizer|runtime error: / {
	         if (n++ < 12) buf = buf "  " t ": " substr($0, 1, 300) "\n" }' \
		"$1/Testing/Temporary/LastTest.log" 2>/dev/null || true
}
stage() { # stage NAME COMMAND...: run, time, remember a failure (and what failed), go on
	local name=$1 t0=$SECONDS dir="" a prev=""
	shift
	for a in "$@"; do [ "$prev" = --test-dir ] && dir=$a; prev=$a; done
	echo "=== $name"
	if "$@"; then echo "=== $name: ok ($((SECONDS - t0)) s)"; else
		echo "=== $name: FAILED ($((SECONDS - t0)) s)"
		failed+=("$name")
		[ -z "$dir" ] || why+="$name:"$'\n'"$(failed_checks "$dir")"$'\n'
	fi
}
cmake -S . -B "$build" -DDBRIG_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
t0=$SECONDS
cmake --build "$build" -j"$(nproc)"
echo "=== build: ok ($((SECONDS - t0)) s)"
sanitize=0
[ $# -eq 0 ] && [ "${DBRIG_SANITIZERS:-1}" != 0 ] && sanitize=1
# The QEMU end-to-end test (ASan pass, last) boots a guest image that is built once with
# scripts/make-base-image.sh from Debian's mirror and cached (minutes on a fresh machine,
# mostly download and dpkg). Build it in the background while the other tests run; the
# e2e finds it cached (the script is a no-op on a current cache) or, if this build
# failed, tries again itself and reports an infrastructure failure.
image_pid=""
if [ $sanitize = 1 ] && [ "$(id -u)" = 0 ] && command -v debootstrap >/dev/null; then
	image_log=$(mktemp /tmp/dbrig-e2e-image.XXXXXX.log)
	bash tests/e2e/make-guest-image.sh "${DBRIG_E2E_CACHE:-/var/cache/dbrig-e2e}" >"$image_log" 2>&1 &
	image_pid=$!
fi
# What runs in the plain build when the ASan build runs the rest (see the top).
plain_only='^(unit/|lint/|integration/(valgrind_commands|tpcc_sqlfluff)$)'
if [ $sanitize = 1 ]; then
	stage "tests (plain build: units, lints, valgrind, sqlfluff)" \
		ctest --test-dir "$build" --output-on-failure --timeout 1800 -R "$plain_only"
else
	stage "tests" ctest --test-dir "$build" --output-on-failure --timeout 1800 "$@"
fi
if [ $# -eq 0 ]; then
	minimal=${build}-minimal
	minimal_tests='^(unit/|lint/layering$|integration/(install|campaign_golden|sysbench_cli)$)'
	t0=$SECONDS
	if cmake -S . -B "$minimal" -DDBRIG_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDBRIG_WITH_LIBVIRT=OFF \
		-DDBRIG_WITH_ODBC=OFF >/dev/null && cmake --build "$minimal" -j"$(nproc)" >"$minimal.log" 2>&1; then
		echo "=== build without libvirt and ODBC: ok ($((SECONDS - t0)) s)"
		stage "tests (build without libvirt and ODBC: units, install, a local campaign)" \
			ctest --test-dir "$minimal" --output-on-failure --timeout 1800 -R "$minimal_tests"
	else
		tail -30 "$minimal.log"
		echo "=== build without libvirt and ODBC: FAILED ($((SECONDS - t0)) s)"
		failed+=("build without libvirt and ODBC")
	fi
fi
if [ $sanitize = 1 ]; then
	asan=${build}-asan
	cmake -S . -B "$asan" -DDBRIG_WERROR=ON -DENABLE_SANITIZERS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	t0=$SECONDS
	cmake --build "$asan" -j"$(nproc)"
	echo "=== ASan+UBSan build: ok ($((SECONDS - t0)) s)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
	stage "ASan+UBSan tests (units, integration)" ctest --test-dir "$asan" --output-on-failure --timeout 1800 \
		-E '^(lint/|integration/(valgrind_commands|tpcc_sqlfluff|libvirt_e2e)$)'
	if [ -n "$image_pid" ]; then
		t0=$SECONDS
		if wait "$image_pid"; then echo "=== e2e guest image: ready (waited $((SECONDS - t0)) s)"; else
			echo "=== e2e guest image: build FAILED (the e2e tries again); its log:"; tail -20 "$image_log"
		fi
	fi
	stage "ASan+UBSan: QEMU end-to-end" ctest --test-dir "$asan" --output-on-failure --timeout 4300 -R '^integration/libvirt_e2e$'
fi
# 10 s per target from the committed seed corpus: a regression check (each target replays its
# corpus in under a second); at 20 s the six took 161 s of a CI run that must stay under 60
# minutes. Longer searches: tests/fuzz/run.sh 600 TARGET.
fuzz_secs=${DBRIG_FUZZ_SECONDS:-10}
if [ $# -eq 0 ] && [ "$fuzz_secs" != 0 ]; then
	stage "fuzz ($fuzz_secs s per target)" tests/fuzz/run.sh "$fuzz_secs"
fi
if [ ${#failed[@]} -gt 0 ]; then
	[ -z "$why" ] || printf '=== what failed, again (from each stage'"'"'s Testing/Temporary/LastTest.log):\n%s' "$why" >&2
	echo "test.sh: FAILED: ${failed[*]} ($SECONDS s)" >&2
	exit 1
fi
echo "test.sh: all passed ($SECONDS s)"
