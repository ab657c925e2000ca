# Shared helpers for integration tests (bash). Source after setting `set -euo pipefail`.
# DBRIG_BIN and DBRIG_SOURCE_DIR come from ctest; defaults allow running by hand
# from the source tree after building into ./build.

DBRIG_SOURCE_DIR=${DBRIG_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
DBRIG_BIN=${DBRIG_BIN:-$DBRIG_SOURCE_DIR/build/dbrig}
# In an ASan build: leaks inside third-party libraries that dbrig cannot free (tests/lsan.supp
# gives each one's evidence); every leak of dbrig's own is still reported.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$DBRIG_SOURCE_DIR/tests/lsan.supp}
. "$DBRIG_SOURCE_DIR/tests/lib/mariadb.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/ports.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/oracle.sh"

TEST_NAME=$(basename "$0" .sh)
TEST_TMP=$(mktemp -d "/tmp/dbrig-$TEST_NAME.XXXXXX")
FAILURES=0
CHECKS=0

# Each failed check is also listed again by finish, last: CI shows a failing test's
# output with its middle cut, so the line that names the failure must be at the end.
FAILED_CHECKS=()
fail() { echo "FAIL: $*" >&2; FAILURES=$((FAILURES + 1)); FAILED_CHECKS+=("$*"); }
pass() { CHECKS=$((CHECKS + 1)); }
check() { # check DESCRIPTION COMMAND...
	local desc=$1; shift
	if "$@"; then pass; else fail "$desc"; fi
}
die() { echo "ERROR: $*" >&2; exit 1; }
# skip_test REASON: this machine cannot run the test (exit 77, ctest shows it as
# skipped). Under scripts/test.sh (DBRIG_NO_SKIP=1, which CI uses) a skip is a
# failure: the test command installs everything, so a missing piece is a bug.
skip_test() {
	rm -rf "$TEST_TMP"
	if [ "${DBRIG_NO_SKIP:-0}" = 1 ]; then echo "ERROR: $TEST_NAME cannot run: $*" >&2; exit 1; fi
	echo "$TEST_NAME: SKIPPED: $*" >&2
	exit 77
}

# Wait until FILE has N lines matching PATTERN (at most 60 s; FILE may not exist
# yet): a fault is injected at a point of the run, not after a guessed delay
# (ASan builds are slower).
wait_lines() { # wait_lines FILE PATTERN N
	local i n
	for i in $(seq 1 600); do
		n=$(grep -c -- "$2" "$1" 2>/dev/null) || true
		[ "${n:-0}" -ge "$3" ] && return 0
		sleep 0.1
	done
	echo "wait_lines: $1 never had $3 lines matching $2" >&2
	return 1
}

# A free TCP port on 127.0.0.1 in a high range.
free_port() { free_port_block 1; }

# Start a private MariaDB for this test; stopped and removed on exit.
start_mariadb() {
	MARIADB_DIR=$TEST_TMP/mariadb
	MARIADB_PORT=$(free_port) || die "no free port"
	mariadb_start "$MARIADB_DIR" "$MARIADB_PORT" || die "MariaDB did not start (is mariadb-server installed?)"
	mariadb_make_sbtest "$MARIADB_PORT" sbtest "${SBTEST_PASSWORD:-}" || die "cannot create the sbtest user"
	trap cleanup_test EXIT
}

cleanup_test() {
	if [ -n "${MARIADB_DIR:-}" ]; then mariadb_stop "$MARIADB_DIR"; fi
	if [ "${KEEP_TMP:-0}" = 1 ]; then echo "kept $TEST_TMP" >&2; else rm -rf "$TEST_TMP"; fi
}

# Connection options for dbrig and sysbench alike.
conn_opts() {
	echo "--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --mysql-db=sbtest"
}

json_get() { # json_get FILE PYTHON-EXPR-ON-r (a result's intervals also when its journal holds them)
	python3 -c "import json,sys; sys.path.insert(0, sys.argv[2]); import result_file
r = result_file.load(sys.argv[1]) if sys.argv[1].endswith('.json') else json.load(open(sys.argv[1])); print($2)" \
		"$1" "$DBRIG_SOURCE_DIR/tests/lib"
}

# The failed checks again, one line each (finish calls it; so may a test that ends otherwise).
list_failed() {
	local f
	for f in "${FAILED_CHECKS[@]}"; do printf 'FAILED CHECK: %s\n' "${f:0:300}"; done
}
finish() {
	list_failed
	echo "$TEST_NAME: $CHECKS passed, $FAILURES failed"
	[ "$FAILURES" -eq 0 ]
}
