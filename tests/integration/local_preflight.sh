#!/bin/bash
# What `dbrig campaign --plan` says a local campaign needs of its drives, and what the
# local target's preflight refuses before any server starts, each as its exact line:
#   --plan's sizing against numbers worked by hand below (tmpfs drives of known size:
#     statvfs gives their size exactly, and a tmpfs has no block device, so the device
#     checks leave them alone);
#   data directories that do not fit their drive;
#   two drives on one block device, a drive on the root file system's device (loop
#     devices over files on a tmpfs stand for drives: two file systems, two devices,
#     neither of them the root's), and "allow_shared_device": true turning both into
#     warnings; status-free commands (teardown) are not refused.
# The server programs are stand-ins that exit 1: a config that passes preflight fails at
# its first server instead, which no refusal here prints. Needs root (loop devices,
# mounts). About 2 s.
set -uo pipefail
. "$(dirname "$0")/../lib/campaign.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/loopdrive.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/plan.sh"
TMPFS=()
on_exit() {
	loopdrive_cleanup
	local m
	for m in "${TMPFS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m"; done
}
[ "$(id -u)" = 0 ] || fail "needs root (loop devices, mounts; CI runs as root)"
base=$(free_port_block 8) || fail "no 8 free ports"
cd "$T" || exit 1
mkdir -p fake
printf '#!/bin/sh\nexit 1\n' >fake/fail.sh
chmod +x fake/fail.sh
FAKE="\"server_binary\": \"$T/fake/fail.sh\", \"install_db_binary\": \"$T/fake/fail.sh\", \"client_binary\": \"$T/fake/fail.sh\""
# tmpfs NAME SIZE: a tmpfs of SIZE mounted at $T/NAME
tmpfs() {
	mkdir -p "$T/$1"
	mount -t tmpfs -o "size=$2" tmpfs "$T/$1" || fail "cannot mount a tmpfs at $T/$1"
	TMPFS+=("$T/$1")
}
# config NAME WORKLOAD TARGET-MEMBERS DRIVES PLACEMENT: $T/NAME.json
config() {
	cat >"$T/$1.json" <<JSON
{"name": "pf", "workload": $2,
 "engine": {"kind": "mariadb", "buffer_pool": "64M"},
 "target": {"kind": "local", "base_port": $base, "create_drive_dirs": true, $FAKE $3},
 "drives": [$4], "run_groups": [{"name": "g", "placement": {$5}}],
 "precondition": 0, "sample": 1, "output": "$T/out"}
JSON
}
SB='{"kind": "sysbench", "test": "oltp_read_only", "options": {"tables": 4, "table-size": 100000}}'
# expect NAME EXIT LINE: `dbrig campaign NAME.json` exits EXIT, its stderr is LINE alone, and
# nothing was made (no campaign folder on any drive, no results)
expect() {
	local rc=0
	"$DBRIG_BIN" campaign "$1.json" >"$1.out" 2>"$1.err" || rc=$?
	[ "$rc" = "$2" ] || fail "$1: exit $rc (expected $2): $(cat "$1.err")"
	[ "$(cat "$1.err")" = "$3" ] || fail "$1: printed \"$(cat "$1.err")\" (expected \"$3\")"
	[ -z "$(find "$T" -name dbrig-pf)" ] && [ ! -e "$T/out/pf/state.json" ] ||
		fail "$1: the refused campaign made $(find "$T" -name dbrig-pf) $(ls "$T/out/pf" 2>/dev/null)"
}

# --- --plan's sizing, worked by hand ---
# One data directory once loaded: an empty one (32 MiB) with MariaDB's default redo log
# (96 MiB): 128 MiB = 134217728 B, plus 4 tables x 100000 rows x 440 B = 176000000 B:
# 310217728 B = 295.85 MiB.
# Drive a (a 700 MiB tmpfs): 1 instance + its golden copy = 2 x 310217728 = 620435456 B
#   = 591.69 MiB: fits.
# Drive b (a 600 MiB tmpfs): 2 instances + its golden copy = 3 x 310217728 = 930653184 B
#   = 887.54 MiB: does not fit.
tmpfs ta 700m
tmpfs tb 600m
config plan "$SB" "" "{\"name\": \"a\", \"path\": \"$T/ta\"}, {\"name\": \"b\", \"path\": \"$T/tb\"}" '"a": 1, "b": 2'
plan_prints plan \
	"  sizing    per data directory: 295.8 MiB once loaded (estimated from the workload's rows)" \
	"            drive a: golden copy + 1 instance(s) = 591.7 MiB once loaded; free there: 700.0 MiB" \
	"            drive b: golden copy + 2 instance(s) = 887.5 MiB once loaded; free there: 600.0 MiB  DOES NOT FIT"
# A redo log of 16 MiB (innodb-log-file-size, as mariadbd spells it too): 32 + 16 MiB =
# 50331648 B + 176000000 B = 226331648 B = 215.85 MiB; 2 x = 452663296 B = 431.69 MiB on a.
config redo "$SB" "" "{\"name\": \"a\", \"path\": \"$T/ta\"}" '"a": 1'
sed -i 's/"buffer_pool": "64M"}/"buffer_pool": "64M", "server_options": {"innodb-log-file-size": "16M"}}/' redo.json
plan_prints redo \
	"  sizing    per data directory: 215.8 MiB once loaded (estimated from the workload's rows)" \
	"            drive a: golden copy + 1 instance(s) = 431.7 MiB once loaded; free there: 700.0 MiB"
# TPC-C: 128 MiB + 3 warehouses x 113 MiB = 467 MiB a data directory; 2 x 467 = 934 MiB on a.
config tpcc '{"kind": "tpcc", "options": {"warehouses": 3}}' "" "{\"name\": \"a\", \"path\": \"$T/ta\"}" '"a": 1'
plan_prints tpcc \
	"  sizing    per data directory: 467.0 MiB once loaded (estimated from the workload's rows)" \
	"            drive a: golden copy + 1 instance(s) = 934.0 MiB once loaded; free there: 700.0 MiB  DOES NOT FIT"

# The same campaign refused before anything is made: drive b's data directories do not fit.
expect plan 1 "dbrig: plan.json: drive b: its golden copy and 2 instance(s) need 887.5 MiB once loaded and $T/tb has 600.0 MiB free (expected a larger drive, fewer instances or fewer rows)"
# With one instance on b (2 x 295.85 = 591.69 MiB of its 600 MiB) both fit: past preflight, to the stand-in server.
config fits "$SB" "" "{\"name\": \"a\", \"path\": \"$T/ta\"}, {\"name\": \"b\", \"path\": \"$T/tb\"}" '"a": 1, "b": 1'
rc=0
"$DBRIG_BIN" campaign fits.json >fits.out 2>fits.err || rc=$?
[ "$rc" = 1 ] && grep -q "initialising the golden data directory" fits.err ||
	fail "fits: exit $rc (expected 1 from the stand-in server): $(cat fits.err)"
! grep -q "once loaded" fits.err || fail "fits: refused although both drives fit: $(cat fits.err)"
rm -rf "$T/out" "$T"/t[ab]/dbrig-pf

# --- two drives on one block device, a drive on the root file system's ---
# 400 MiB each (sparse: the tmpfs holds what mkfs writes): room for a drive's two small data
# directories (2 x 128 MiB and a little), so the campaigns that pass preflight go on to the stand-in server.
tmpfs img 200m
for i in 1 2; do
	truncate -s 400M "$T/img/d$i.img" || fail "cannot make $T/img/d$i.img"
	_loopdrive_attach "$T/img/d$i.img"
	_loopdrive_fs "$LOOPDRIVE_DEV" "$T/d$i"
done
l1=$(basename "${LOOPDRIVE_LOOPS[0]}")
# The whole disk under /: its partition's parent, or the device itself.
root_dev=$(lsblk -no PKNAME "$(findmnt -no SOURCE /)" 2>/dev/null | head -1)
[ -n "$root_dev" ] || root_dev=$(basename "$(findmnt -no SOURCE /)")
[ "$(stat -c %d "$T")" = "$(stat -c %d /)" ] || fail "$T is not on the root file system: the root-device case needs it"
SMALL='{"kind": "sysbench", "test": "oltp_read_only", "options": {"tables": 1, "table-size": 100}}'
config same "$SMALL" "" "{\"name\": \"a\", \"path\": \"$T/d1/a\"}, {\"name\": \"b\", \"path\": \"$T/d1/b\"}" '"a": 1, "b": 1'
expect same 2 "dbrig: same.json: drives a ($T/d1/a) and b ($T/d1/b) are both on block device $l1 (expected one drive each, or \"allow_shared_device\": true in .target)"
config os "$SMALL" "" "{\"name\": \"a\", \"path\": \"$T/d1/a\"}, {\"name\": \"b\", \"path\": \"$T/b\"}" '"a": 1, "b": 1'
expect os 2 "dbrig: os.json: drive b ($T/b) is on block device $root_dev, which holds the root file system (expected a drive of its own, or \"allow_shared_device\": true in .target)"
# teardown (will boot nothing) is not refused for the devices.
"$DBRIG_BIN" teardown same.json >td.out 2>td.err || fail "teardown refused: $(cat td.err)"
! grep -q "block device" td.err || fail "teardown looked at the devices: $(cat td.err)"
# Opted in: a warning each, and the campaign goes on (to the stand-in server).
config allowed "$SMALL" ', "allow_shared_device": true' \
	"{\"name\": \"a\", \"path\": \"$T/d1/a\"}, {\"name\": \"b\", \"path\": \"$T/d1/b\"}, {\"name\": \"c\", \"path\": \"$T/c\"}" \
	'"a": 1, "b": 1, "c": 1'
rc=0
"$DBRIG_BIN" campaign allowed.json >allowed.out 2>allowed.err || rc=$?
[ "$rc" = 1 ] && grep -q "initialising the golden data directory" allowed.err ||
	fail "allowed: exit $rc (expected 1 from the stand-in server): $(cat allowed.err)"
for line in \
	"dbrig: warning: allowed.json: drives a and b are both on block device $l1: they share its bandwidth (allowed by \"allow_shared_device\": true)" \
	"dbrig: warning: allowed.json: drive c ($T/c) is on block device $root_dev, which holds the root file system (allowed by \"allow_shared_device\": true)"; do
	grep -qxF -- "$line" allowed.err || fail "allow_shared_device: no warning \"$line\": $(cat allowed.err)"
done
rm -rf "$T/out" "$T"/d[12]/[ab] "$T/c"
# Two drives of their own, neither the root's: past the device check.
config apart "$SMALL" "" "{\"name\": \"a\", \"path\": \"$T/d1/a\"}, {\"name\": \"b\", \"path\": \"$T/d2/b\"}" '"a": 1, "b": 1'
rc=0
"$DBRIG_BIN" campaign apart.json >apart.out 2>apart.err || rc=$?
[ "$rc" = 1 ] && grep -q "initialising the golden data directory" apart.err ||
	fail "apart: exit $rc (expected 1 from the stand-in server): $(cat apart.err)"
! grep -q "block device" apart.err || fail "apart: two drives of their own refused: $(cat apart.err)"
echo "local_preflight: ok"
