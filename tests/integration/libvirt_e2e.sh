#!/usr/bin/env bash
# ctest entry for the libvirt end-to-end test with real QEMU (tests/e2e/libvirt_qemu.sh).
# Guests run under TCG on 2 shared cores, where one boot or load can time out
# when the machine is busy: a failed attempt is reported in full and the test
# is run once more from scratch. Two failures fail the test. Each attempt is
# bounded (DBRIG_E2E_ATTEMPT_TIMEOUT seconds, default 1500) so that a hung
# attempt still leaves time for the second one within ctest's timeout.
set -u
e2e="$(dirname "${BASH_SOURCE[0]}")/../e2e/libvirt_qemu.sh"
limit=${DBRIG_E2E_ATTEMPT_TIMEOUT:-1500}
attempt() { timeout --signal=TERM --kill-after=60 "$limit" bash "$e2e" "$@"; }
attempt "$@" && exit 0
rc=$?
if [ "$rc" = 77 ]; then # the script said why; under scripts/test.sh a skip is a failure
	[ "${DBRIG_NO_SKIP:-0}" = 1 ] && { echo "libvirt_e2e: cannot run here (see above)" >&2; exit 1; }
	exit 77
fi
[ "$rc" = 124 ] && echo "libvirt_e2e: attempt 1 took longer than $limit s" >&2
echo "libvirt_e2e: attempt 1 failed (exit $rc); running it once more from scratch" >&2
attempt "$@"
rc=$?
[ "$rc" = 124 ] && echo "libvirt_e2e: attempt 2 took longer than $limit s" >&2
exit "$rc"
