# Shared preamble of the campaign tests. Unlike the check/finish tests on
# common.sh, these stop at the first failure. Source after `set -uo pipefail`:
#   fail MESSAGE        prints "FAIL: MESSAGE" (and whatever an on_fail function
#                       of the test adds), exits 1
#   need_mariadb        fails unless the MariaDB programs and python3 are installed
#   free_port_block N   prints the first of N consecutive free ports in a high range
# On exit: an on_exit function of the test runs (to stop what it started in the
# background), then every server whose pid file is under $T is stopped, then $T
# (a scratch folder made here) is removed.
DBRIG_SOURCE_DIR=${DBRIG_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
DBRIG_BIN=${DBRIG_BIN:-$DBRIG_SOURCE_DIR/build/dbrig}
T=$(mktemp -d "/tmp/dbrig-$(basename "$0" .sh).XXXXXX")

campaign_test_cleanup() {
	local p stopped=0
	if declare -F on_exit >/dev/null; then on_exit; fi
	# Servers of this test only: their pid files live under $T.
	for p in $(find "$T" -name mysqld.pid -o -name postmaster.pid 2>/dev/null); do
		kill "$(head -n1 "$p")" 2>/dev/null && stopped=1
	done
	[ $stopped = 1 ] && sleep 1
	rm -rf "$T"
}
trap campaign_test_cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	if declare -F on_fail >/dev/null; then on_fail; fi
	exit 1
}

[ -x "$DBRIG_BIN" ] || fail "$DBRIG_BIN is not built"

need_mariadb() {
	local b
	for b in mariadbd mariadb-install-db mariadb python3; do
		command -v $b >/dev/null || [ -x /usr/sbin/$b ] || fail "$b is missing (scripts/deps-campaign.txt)"
	done
}

free_port_block() {
	local n=$1 p ok k
	for _ in $(seq 1 100); do
		p=$((30000 + RANDOM % 25000)); ok=1
		for ((k = 0; k < n; k++)); do (exec 3<>/dev/tcp/127.0.0.1/$((p + k))) 2>/dev/null && ok=0; done
		[ $ok = 1 ] && { echo "$p"; return 0; }
	done
	fail "no block of $n free ports"
}
