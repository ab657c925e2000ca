#!/usr/bin/env bash
# Build (once) the small Debian 12 guest the libvirt e2e test boots, and cache it. The image
# is the one users build: scripts/make-base-image.sh, MariaDB engine, with --e2e (root's
# password "dbrig" for a throwaway guest on user networking, no openssh-server, first boots
# kept short: one ed25519 host key, no file system resize, no apt timers, no time sync) and
# --size 3G (the e2e's boot_size: nothing to grow). So the image the shipped configs name is
# the tested one, built by the same code; only those --e2e settings differ.
#   $CACHE/debian12-mariadb.qcow2                   the image
#   $CACHE/debian12-mariadb.vmlinuz, .initrd.img   its kernel and initrd (direct kernel boot)
# The cache is rebuilt when make-base-image.sh or this script changes (their digest is the
# cache's version).
# Usage: make-guest-image.sh CACHE_DIR    (prints the cache dir when done)
set -euo pipefail
CACHE=${1:?usage: make-guest-image.sh CACHE_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
builder=$here/../../scripts/make-base-image.sh
IMG=$CACHE/debian12-mariadb.qcow2
VERSION=$(cat "$builder" "${BASH_SOURCE[0]}" | sha256sum | cut -c1-16)
if [ -f "$IMG" ] && [ -f "$CACHE/debian12-mariadb.vmlinuz" ] && [ "$(cat "$CACHE/version" 2>/dev/null)" = "$VERSION" ]; then
	echo "$CACHE"; exit 0
fi
mkdir -p "$CACHE"
chmod 755 "$CACHE"
# One build at a time (test.sh starts one in the background; the e2e calls this again).
exec 9>"$CACHE/.build.lock"
flock 9
if [ -f "$IMG" ] && [ -f "$CACHE/debian12-mariadb.vmlinuz" ] && [ "$(cat "$CACHE/version" 2>/dev/null)" = "$VERSION" ]; then
	echo "$CACHE"; exit 0
fi
rm -f "$CACHE/version"
bash "$builder" --e2e --engine mariadb --size 3G --output "$IMG" >/dev/null
echo "$VERSION" >"$CACHE/version"
echo "$CACHE"
