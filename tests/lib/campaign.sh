# Shared preamble of the campaign tests. Unlike the check/finish tests on
# common.sh, these stop at the first failure. Source after `set -uo pipefail`:
#   fail MESSAGE        prints "FAIL: MESSAGE" (and whatever an on_fail function
#                       of the test adds, then "FAILED CHECK: MESSAGE" again), exits 1
#   need_mariadb        fails unless the MariaDB programs and python3 are installed
#   free_port_block N   prints the first of N consecutive free ports (tests/lib/ports.sh)
# On exit: an on_exit function of the test runs (to stop what it started in the
# background), then every server whose pid file is under $T is stopped, then $T
# (a scratch folder made here) is removed.
DBRIG_SOURCE_DIR=${DBRIG_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
DBRIG_BIN=${DBRIG_BIN:-$DBRIG_SOURCE_DIR/build/dbrig}
export DBRIG_SOURCE_DIR DBRIG_BIN
. "$DBRIG_SOURCE_DIR/tests/lib/ports.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/oracle.sh"
T=$(mktemp -d "/tmp/dbrig-$(basename "$0" .sh).XXXXXX")

campaign_test_cleanup() {
	local p stopped=0
	if declare -F on_exit >/dev/null; then on_exit; fi
	# Servers of this test only: their pid files live under $T.
	for p in $(find "$T" -name mysqld.pid -o -name postmaster.pid 2>/dev/null); do
		kill "$(head -n1 "$p")" 2>/dev/null && stopped=1
	done
	[ $stopped = 1 ] && sleep 1
	if [ "${KEEP_TMP:-0}" = 1 ]; then echo "kept $T" >&2; else rm -rf "$T"; fi
}
trap campaign_test_cleanup EXIT

fail() {
	local m="$*"
	echo "FAIL: $m" >&2
	# what on_fail prints can be long, and CI cuts a failing test's middle: the line again, last
	if declare -F on_fail >/dev/null; then on_fail; printf 'FAILED CHECK: %s\n' "${m:0:300}" >&2; fi
	exit 1
}

[ -x "$DBRIG_BIN" ] || fail "$DBRIG_BIN is not built"

need_mariadb() {
	local b
	for b in mariadbd mariadb-install-db mariadb python3; do
		command -v $b >/dev/null || [ -x /usr/sbin/$b ] || fail "$b is missing (scripts/deps-campaign.txt)"
	done
}
