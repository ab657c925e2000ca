# Drives made of loop devices for the telemetry tests (needs root; fails, never
# skips, when it cannot make them). Source after tests/lib/campaign.sh ($T, fail).
#
#   loopdrive_fast NAME SIZE [DIR]
#                                 ext4 on a loop device over a file in DIR (default
#                                 $T; /dev/shm: a drive in RAM, whose speed the
#                                 machine's disk does not move), mounted at $T/NAME
#                                 (call it directly, not in $(...): it records what
#                                 to clean up)
#   loopdrive_slow NAME SIZE BPS [IOPS]
#                                 $T/NAME: ext4 on a loop device (direct I/O) whose
#                                 backing file sits on ext4 on a second loop
#                                 device, throttled to BPS bytes/s (0: no byte
#                                 limit) and IOPS requests/s (when given) for
#                                 reads and writes with cgroup v1 blkio in the
#                                 root cgroup
#                                 (this machine has no cgroup v2 io.max and no
#                                 device-mapper, so no dm-delay). The throttle is
#                                 on the lower device: throttled bios wait before
#                                 they reach a device's queue, so the lower
#                                 device's statistics would not show the wait;
#                                 the upper device's requests are in flight all
#                                 that time, and its await and utilisation do.
#   loopdrive_limit bps|iops LIMIT  sets the last slow drive's throttle (0: lifts it)
#   loopdrive_limit_top bps|iops LIMIT
#                                 the same on the slow drive's upper device (the
#                                 one its filesystem is on): an IOPS-capped volume.
#                                 The bios wait in the throttle before the upper
#                                 device's queue and the lower device sees only the
#                                 few let through, so neither device looks busy
#                                 while the database waits (the storage-path verdict)
#   loopdrive_cleanup             unmounts, detaches, lifts the throttles and removes
#                                 backing files outside $T (on exit)
LOOPDRIVE_LOOPS=()
LOOPDRIVE_FILES=()
LOOPDRIVE_MOUNTS=()
LOOPDRIVE_THROTTLED=()
LOOPDRIVE_BLKIO=${LOOPDRIVE_BLKIO:-/sys/fs/cgroup/blkio}

loopdrive_cleanup() {
	local i f
	for ((i = ${#LOOPDRIVE_MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${LOOPDRIVE_MOUNTS[i]}" 2>/dev/null || umount -l "${LOOPDRIVE_MOUNTS[i]}" 2>/dev/null
	done
	for i in "${LOOPDRIVE_THROTTLED[@]}"; do
		for f in write_bps_device read_bps_device write_iops_device read_iops_device; do
			echo "$i 0" >"$LOOPDRIVE_BLKIO/blkio.throttle.$f" 2>/dev/null
		done
	done
	for ((i = ${#LOOPDRIVE_LOOPS[@]} - 1; i >= 0; i--)); do
		losetup -d "${LOOPDRIVE_LOOPS[i]}" 2>/dev/null
	done
	for f in "${LOOPDRIVE_FILES[@]}"; do rm -f "$f"; done
	LOOPDRIVE_LOOPS=()
	LOOPDRIVE_FILES=()
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

# _loopdrive_fs DEV DIR: ext4 on DEV mounted at DIR. Inode tables and journal
# are written now, not by ext4lazyinit in the background, where they would
# take a throttled drive's requests away from the databases for minutes.
_loopdrive_fs() {
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1" >/dev/null 2>&1 ||
		fail "mkfs.ext4 $1 failed (scripts/deps-telemetry.txt)"
	mkdir -p "$2"
	mount "$1" "$2" || fail "mount $1 $2 failed"
	LOOPDRIVE_MOUNTS+=("$2")
}

loopdrive_fast() {
	local name=$1 size=$2 dir=${3:-$T} img
	[ "$(id -u)" = 0 ] || fail "loop-device drives need root (CI runs as root)"
	img=$dir/$name.img
	[ "$dir" = "$T" ] || { img=$dir/$(basename "$T")-$name.img; LOOPDRIVE_FILES+=("$img"); }
	truncate -s "$size" "$img" || fail "cannot make $img"
	_loopdrive_attach "$img"
	_loopdrive_fs "$LOOPDRIVE_DEV" "$T/$name"
}

loopdrive_slow() {
	local name=$1 size=$2 bps=$3 iops=${4:-} lower upper mm
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
	LOOPDRIVE_THROTTLED+=("$mm")
	LOOPDRIVE_LOWER=$lower LOOPDRIVE_LOWER_MM=$mm
	LOOPDRIVE_TOP=$upper LOOPDRIVE_TOP_MM=$(cat "/sys/block/$(basename "$upper")/dev") ||
		fail "no sysfs entry for $upper"
	LOOPDRIVE_THROTTLED+=("$LOOPDRIVE_TOP_MM")
	_loopdrive_throttle "$lower" "$mm" bps "$bps"
	[ -z "$iops" ] || _loopdrive_throttle "$lower" "$mm" iops "$iops"
}

loopdrive_limit() {
	[ -n "${LOOPDRIVE_LOWER_MM:-}" ] || fail "loopdrive_limit: no slow drive made yet"
	_loopdrive_throttle "$LOOPDRIVE_LOWER" "$LOOPDRIVE_LOWER_MM" "$1" "$2"
}

loopdrive_limit_top() {
	[ -n "${LOOPDRIVE_TOP_MM:-}" ] || fail "loopdrive_limit_top: no slow drive made yet"
	_loopdrive_throttle "$LOOPDRIVE_TOP" "$LOOPDRIVE_TOP_MM" "$1" "$2"
}

# _loopdrive_throttle DEV MAJ:MIN bps|iops LIMIT (0: none)
_loopdrive_throttle() {
	local dev=$1 mm=$2 kind=$3 limit=$4
	echo "$mm $limit" >"$LOOPDRIVE_BLKIO/blkio.throttle.write_${kind}_device" &&
		echo "$mm $limit" >"$LOOPDRIVE_BLKIO/blkio.throttle.read_${kind}_device" ||
		fail "cannot throttle $dev ($mm) to $limit $kind"
	[ "$limit" = 0 ] && return 0
	grep -q "^$mm $limit\$" "$LOOPDRIVE_BLKIO/blkio.throttle.write_${kind}_device" ||
		fail "the $kind throttle on $dev ($mm) did not take"
}
