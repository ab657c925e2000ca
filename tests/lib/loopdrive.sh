# Drives made of loop devices for the telemetry tests (needs root; fails, never
# skips, when it cannot make them). Source after tests/lib/campaign.sh ($T, fail).
#
#   loopdrive_fast NAME SIZE      ext4 on a loop device over a file in $T,
#                                 mounted at $T/NAME (call it directly, not in
#                                 $(...): it records what to clean up)
#   loopdrive_slow NAME SIZE BPS  $T/NAME: ext4 on a loop device (direct I/O) whose
#                                 backing file sits on ext4 on a second loop
#                                 device, throttled to BPS bytes/s for reads and
#                                 writes with cgroup v1 blkio in the root cgroup
#                                 (this machine has no cgroup v2 io.max and no
#                                 device-mapper, so no dm-delay). The throttle is
#                                 on the lower device: throttled bios wait before
#                                 they reach a device's queue, so the lower
#                                 device's statistics would not show the wait;
#                                 the upper device's requests are in flight all
#                                 that time, and its await and utilisation do.
#   loopdrive_cleanup             unmounts, detaches and lifts the throttles (on exit)
LOOPDRIVE_LOOPS=()
LOOPDRIVE_MOUNTS=()
LOOPDRIVE_THROTTLED=()
LOOPDRIVE_BLKIO=${LOOPDRIVE_BLKIO:-/sys/fs/cgroup/blkio}

loopdrive_cleanup() {
	local i
	for ((i = ${#LOOPDRIVE_MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${LOOPDRIVE_MOUNTS[i]}" 2>/dev/null || umount -l "${LOOPDRIVE_MOUNTS[i]}" 2>/dev/null
	done
	for i in "${LOOPDRIVE_THROTTLED[@]}"; do
		echo "$i 0" >"$LOOPDRIVE_BLKIO/blkio.throttle.write_bps_device" 2>/dev/null
		echo "$i 0" >"$LOOPDRIVE_BLKIO/blkio.throttle.read_bps_device" 2>/dev/null
	done
	for ((i = ${#LOOPDRIVE_LOOPS[@]} - 1; i >= 0; i--)); do
		losetup -d "${LOOPDRIVE_LOOPS[i]}" 2>/dev/null
	done
	LOOPDRIVE_LOOPS=()
	LOOPDRIVE_MOUNTS=()
	LOOPDRIVE_THROTTLED=()
}

# _loopdrive_attach FILE [losetup options]: the device in LOOPDRIVE_DEV
_loopdrive_attach() {
	local f=$1
	shift
	LOOPDRIVE_DEV=$(losetup -f --show "$@" "$f") || fail "losetup $* $f failed (loop devices need root)"
	LOOPDRIVE_LOOPS+=("$LOOPDRIVE_DEV")
}

# _loopdrive_fs DEV DIR: ext4 on DEV mounted at DIR
_loopdrive_fs() {
	mkfs.ext4 -q -F "$1" >/dev/null 2>&1 || fail "mkfs.ext4 $1 failed (scripts/deps-telemetry.txt)"
	mkdir -p "$2"
	mount "$1" "$2" || fail "mount $1 $2 failed"
	LOOPDRIVE_MOUNTS+=("$2")
}

loopdrive_fast() {
	local name=$1 size=$2
	[ "$(id -u)" = 0 ] || fail "loop-device drives need root (CI runs as root)"
	truncate -s "$size" "$T/$name.img" || fail "cannot make $T/$name.img"
	_loopdrive_attach "$T/$name.img"
	_loopdrive_fs "$LOOPDRIVE_DEV" "$T/$name"
}

loopdrive_slow() {
	local name=$1 size=$2 bps=$3 lower upper mm
	[ "$(id -u)" = 0 ] || fail "loop-device drives need root (CI runs as root)"
	[ -w "$LOOPDRIVE_BLKIO/blkio.throttle.write_bps_device" ] ||
		fail "no cgroup v1 blkio throttling at $LOOPDRIVE_BLKIO (the throttled drive cannot be made)"
	truncate -s "$(( $(numfmt --from=iec "$size") + 64 * 1024 * 1024 ))" "$T/$name-lower.img" ||
		fail "cannot make $T/$name-lower.img"
	_loopdrive_attach "$T/$name-lower.img"
	lower=$LOOPDRIVE_DEV
	_loopdrive_fs "$lower" "$T/$name-lower"
	truncate -s "$size" "$T/$name-lower/$name.img" || fail "cannot make $T/$name-lower/$name.img"
	_loopdrive_attach "$T/$name-lower/$name.img" --direct-io=on
	upper=$LOOPDRIVE_DEV
	_loopdrive_fs "$upper" "$T/$name"
	mm=$(cat "/sys/block/$(basename "$lower")/dev") || fail "no sysfs entry for $lower"
	echo "$mm $bps" >"$LOOPDRIVE_BLKIO/blkio.throttle.write_bps_device" &&
		echo "$mm $bps" >"$LOOPDRIVE_BLKIO/blkio.throttle.read_bps_device" ||
		fail "cannot throttle $lower ($mm) to $bps bytes/s"
	LOOPDRIVE_THROTTLED+=("$mm")
	grep -q "^$mm $bps\$" "$LOOPDRIVE_BLKIO/blkio.throttle.write_bps_device" ||
		fail "the throttle on $lower ($mm) did not take"
}
