#!/usr/bin/env bash
# What `dbrig campaign --plan` says a libvirt campaign needs, and what preflight refuses
# before anything is made or boots, each as its exact line:
#   --plan's sizing against numbers worked by hand below (a test:///<file> host whose
#     node has 4 CPUs and 8 GiB, a pool with 100 GiB available);
#   volumes that do not fit their drive's pool; a missing base_image, kernel or initrd; no /dev/kvm for a kvm domain;
#   a remote host's drive path found as one of its pools (libvirt calls, never a local stat),
#   two drives in one of its pools; one golden load for drives on two hosts streamed;
#   two drives on one block device, a drive on the root file system's device (loop
#     devices over files on a tmpfs stand for drives: two file systems, two devices, none
#     of them the root's), and "allow_shared_device": true turning both into warnings.
# The host is qemu:///system, the local host: the checks run before dbrig connects, so no
# libvirtd is needed (a refusal-free config goes on to the connection, or to the pools
# when a libvirtd runs). Needs root (loop devices, mounts). About 3 s.
# needs: libvirt
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/plan.sh"
T=$TEST_TMP
LOOPS=()
cleanup() {
	for m in "$T/d1" "$T/d2"; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null || true; done
	mountpoint -q "$T/tmpfs" 2>/dev/null && umount "$T/tmpfs"
	cleanup_test
}
trap cleanup EXIT
[ "$(id -u)" = 0 ] || skip_test "needs root (loop devices)"
command -v losetup >/dev/null || skip_test "losetup missing"
cd "$T"

# config NAME TARGET-MEMBERS DRIVES PLACEMENT: $T/NAME.json
config() {
	cat >"$T/$1.json" <<JSON
{"name": "pf", "workload": {"kind": "sysbench", "test": "oltp_read_write", "options": {"tables": 3, "table-size": 1000}},
 "engine": {"kind": "mariadb", "buffer_pool": "64M"},
 "target": {"kind": "libvirt", $2},
 "drives": [$3], "run_groups": [{"name": "g", "placement": {$4}}],
 "precondition": "1s", "sample": "2s", "output": "$T/out"}
JSON
}
# expect NAME EXIT LINE: `dbrig campaign NAME.json` exits EXIT and its stderr's first line is LINE
expect() {
	local rc=0
	"$DBRIG_BIN" campaign "$1.json" >"$1.out" 2>"$1.err" || rc=$?
	[ "$rc" = "$2" ] || fail "$1: exit $rc (expected $2): $(cat "$1.err")"
	[ "$(head -1 "$1.err")" = "$3" ] || fail "$1: printed \"$(head -1 "$1.err")\" (expected \"$3\")"
}

# --- --plan's sizing, worked by hand ---
# Per VM: boot 10 GiB + pre-built 20 GiB + under-test 5 GiB = 35 GiB once filled.
# Drive a: 2 VMs = 70 GiB (fits 100 GiB); drive b: 3 VMs = 105 GiB (does not).
# Host: 5 VMs x (2 vCPUs, 2 GiB) = 10 vCPUs, 10 GiB RAM against 4 CPUs and 8 GiB.
# Golden: 3 tables x 1000 rows = 3000 rows, loaded once and cloned to b.
cat >"$T/host.xml" <<'XML'
<node>
  <cpu><nodes>1</nodes><sockets>1</sockets><cores>4</cores><threads>1</threads><active>4</active><mhz>2000</mhz></cpu>
  <memory>8388608</memory>
  <pool type='dir'>
    <name>lab</name>
    <target><path>/lab</path></target>
    <capacity unit='GiB'>200</capacity>
    <allocation unit='GiB'>100</allocation>
    <available unit='GiB'>100</available>
  </pool>
</node>
XML
config plan "\"hosts\": {\"h\": \"test://$T/host.xml\"}, \"boot_size\": \"10G\", \"prebuilt_size\": \"20G\",
  \"under_test_size\": \"5G\", \"vcpus\": 2, \"memory\": \"2G\"" \
	'{"name": "a", "pool": "lab"}, {"name": "b", "pool": "lab"}' '"a": 2, "b": 3'
plan_prints plan \
	"  sizing    per VM: boot 10.0 GiB + pre-built 20.0 GiB + under-test 5.0 GiB = 35.0 GiB once filled (raw, full: pre-built and under-test allocated at provision)" \
	"            drive a: 2 VM(s) x 35.0 GiB = 70.0 GiB once filled; free there: 100.0 GiB" \
	"            drive b: 3 VM(s) x 35.0 GiB = 105.0 GiB once filled; free there: 100.0 GiB  DOES NOT FIT" \
	"            host h: 5 VM(s) x (2 vCPU(s), 2.0 GiB) = 10 vCPU(s), 10.0 GiB RAM; the host has 4 CPU(s), 8.0 GiB  NOT ENOUGH RAM  MORE vCPUs THAN CPUs" \
	"            restore before every run: each of its VMs' pre-built volume (up to 20.0 GiB) copied onto its under-test volume (5 VM(s) in all; copy time not estimated)" \
	"  golden    3000 rows (3 table(s) x 1000), loaded 1 time(s), cloned to the other drives; load time not estimated"

# The same campaign refused before anything is made: drive b's volumes do not fit its pool.
expect plan 1 "dbrig: plan.json: drive b: its VMs' volumes need 105.0 GiB once filled and lab has 100.0 GiB free (expected a larger drive, smaller .target boot_size, prebuilt_size or under_test_size, or fewer VMs)"

# A host other than this machine (the test driver stands for one: dbrig never looks at its
# paths): a drive's path is found as the target of one of the host's pools, through libvirt
# (lab, 100 GiB available), or said not known; two drives in one pool are refused.
config remote "\"hosts\": {\"h\": \"test://$T/host.xml\"}, \"boot_size\": \"10G\", \"prebuilt_size\": \"20G\",
  \"under_test_size\": \"5G\", \"vcpus\": 2, \"memory\": \"2G\"" \
	'{"name": "a", "path": "/lab"}, {"name": "b", "path": "/nowhere"}' '"a": 1, "b": 1'
plan_prints remote \
	"            drive a: 1 VM(s) x 35.0 GiB = 35.0 GiB once filled; free there: 100.0 GiB" \
	"            drive b: 1 VM(s) x 35.0 GiB = 35.0 GiB once filled; free there: not known (no pool on /nowhere on that host)"
# One golden load for drives on two hosts (issue 25): drive b receives it by stream from
# a's host, as --plan says (until then such a config was refused).
config twohosts "\"hosts\": {\"h1\": \"test://$T/host.xml\", \"h2\": \"test://$T/host.xml\"}, \"boot_size\": \"10G\",
  \"prebuilt_size\": \"20G\", \"under_test_size\": \"5G\"" \
	'{"name": "a", "pool": "lab", "host": "h1"}, {"name": "b", "pool": "lab", "host": "h2"}' '"a": 1, "b": 1'
plan_prints twohosts \
	"            golden copy to drive b (host h2): streamed from drive a (host h1), one pre-built volume (up to 20.0 GiB) over the hosts' link, then cloned on host h2 (stream time not estimated)" \
	"  golden    3000 rows (3 table(s) x 1000), loaded 1 time(s), cloned to the other drives; load time not estimated"
# Drive a names the pool, drive b its path (the same pool's): 2 x 35 GiB fit its 100 GiB, so
# what refuses them is the shared pool.
config pooled "\"hosts\": {\"h\": \"test://$T/host.xml\"}, \"boot_size\": \"10G\", \"prebuilt_size\": \"20G\",
  \"under_test_size\": \"5G\"" '{"name": "a", "pool": "lab"}, {"name": "b", "path": "/lab"}' '"a": 1, "b": 1'
expect pooled 2 "dbrig: pooled.json: drives a and b are both in storage pool lab on host h (expected a pool of its own for every drive, or \"allow_shared_device\": true in .target)"
config pooledok "\"hosts\": {\"h\": \"test://$T/host.xml\"}, \"boot_size\": \"10G\", \"prebuilt_size\": \"20G\",
  \"under_test_size\": \"5G\", \"allow_shared_device\": true" '{"name": "a", "pool": "lab"}, {"name": "b", "path": "/lab"}' '"a": 1, "b": 1'
"$DBRIG_BIN" provision pooledok.json >pooledok.out 2>pooledok.err || true
[ "$(head -1 pooledok.err)" = "dbrig: warning: pooledok.json: drives a and b are both in storage pool lab on host h: they share its storage (allowed by \"allow_shared_device\": true)" ] ||
	fail "allow_shared_device: no warning for the shared pool: $(cat pooledok.err)"
rm -rf "$T/out"

# --- refusals before anything is made ---
L="\"hosts\": {\"h\": \"qemu:///system\"}, \"domain_type\": \"qemu\""
config base "$L, \"base_image\": \"$T/none.qcow2\"" "{\"name\": \"a\", \"path\": \"$T/a\"}" '"a": 1'
expect base 1 "dbrig: base.json: .target.base_image: \"$T/none.qcow2\" cannot be read on host h: No such file or directory (expected the image scripts/make-base-image.sh builds)"
# status and teardown work whatever is missing: no such refusal there.
"$DBRIG_BIN" status base.json >status.out 2>status.err || true
! grep -q "base_image" status.err || fail "status refused a missing base_image: $(cat status.err)"
: >"$T/image.qcow2"
config kernel "$L, \"base_image\": \"$T/image.qcow2\", \"kernel\": \"$T/vmlinuz\", \"initrd\": \"$T/initrd.img\"" \
	"{\"name\": \"a\", \"path\": \"$T/a\"}" '"a": 1'
expect kernel 1 "dbrig: kernel.json: .target.kernel: \"$T/vmlinuz\" cannot be read on host h: No such file or directory (expected the kernel scripts/make-base-image.sh writes beside the image)"
: >"$T/vmlinuz"
expect kernel 1 "dbrig: kernel.json: .target.initrd: \"$T/initrd.img\" cannot be read on host h: No such file or directory (expected the initrd scripts/make-base-image.sh writes beside the image)"
if [ -e /dev/kvm ]; then
	echo "libvirt_preflight: this machine has /dev/kvm: the refusal without it is not checked here"
else
	config kvm "\"hosts\": {\"h\": \"qemu:///system\"}, \"domain_type\": \"kvm\"" "{\"name\": \"a\", \"path\": \"$T/a\"}" '"a": 1'
	expect kvm 1 "dbrig: kvm.json: .target.domain_type \"kvm\": host h has no /dev/kvm (expected KVM enabled in the BIOS and its module loaded, or \"domain_type\": \"qemu\" for TCG emulation)"
fi

# Two loop devices over files on a tmpfs: two drives, neither on the root file system's device.
mkdir -p "$T/tmpfs" "$T/d1" "$T/d2"
mount -t tmpfs -o size=80m tmpfs "$T/tmpfs"
for i in 1 2; do
	truncate -s 32M "$T/tmpfs/d$i.img"
	dev=$(losetup -f --show "$T/tmpfs/d$i.img") || die "losetup failed"
	LOOPS+=("$dev")
	mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || die "mkfs.ext4 $dev failed"
	mount "$dev" "$T/d$i"
done
l1=$(basename "${LOOPS[0]}")
root_dev=$(lsblk -no PKNAME "$(findmnt -no SOURCE /)" 2>/dev/null | head -1)
[ -n "$root_dev" ] || root_dev=$(basename "$(findmnt -no SOURCE /)")
config same "$L" "{\"name\": \"a\", \"path\": \"$T/d1/a\"}, {\"name\": \"b\", \"path\": \"$T/d1/b\"}" '"a": 1, "b": 1'
expect same 2 "dbrig: same.json: drives a ($T/d1/a) and b ($T/d1/b) are both on block device $l1 (expected one drive each, or \"allow_shared_device\": true in .target)"
config os "$L" "{\"name\": \"a\", \"path\": \"$T/d1/a\"}, {\"name\": \"b\", \"path\": \"$T/b\"}" '"a": 1, "b": 1'
expect os 2 "dbrig: os.json: drive b ($T/b) is on block device $root_dev, which holds the root file system (expected a drive of its own, or \"allow_shared_device\": true in .target)"
config allowed "$L, \"allow_shared_device\": true" "{\"name\": \"a\", \"path\": \"$T/d1/a\"}, {\"name\": \"b\", \"path\": \"$T/d1/b\"}" '"a": 1, "b": 1'
"$DBRIG_BIN" campaign allowed.json >allowed.out 2>allowed.err || true
grep -qxF "dbrig: warning: allowed.json: drives a and b are both on block device $l1: they share its bandwidth (allowed by \"allow_shared_device\": true)" allowed.err ||
	fail "allow_shared_device: no warning: $(cat allowed.err)"
# Two drives of their own: past the device check (to the connection, or the pools).
config apart "$L" "{\"name\": \"a\", \"path\": \"$T/d1/a\"}, {\"name\": \"b\", \"path\": \"$T/d2/b\"}" '"a": 1, "b": 1'
rc=0
"$DBRIG_BIN" campaign apart.json >apart.out 2>apart.err || rc=$?
[ "$rc" != 0 ] || fail "apart: exit 0 without a libvirt pool"
! grep -q "block device" apart.err || fail "apart: two drives of their own refused: $(cat apart.err)"
[ -z "$(ls -A "$T/out" 2>/dev/null)" ] || fail "a refused campaign left files in its output: $(ls -A "$T/out")"

# --- guests on other hosts: --plan says in one line when the drivers here cannot reach them ---
# (docs/libvirt.md, "Reaching guests on other hosts"). kvm3 is another machine (never
# connected: it holds no VM), kvm2 is this one by address; only kvm3 with "forward" is named.
reach() { # reach NAME ENDPOINT
	config "$1" "\"hosts\": {\"here\": \"test:///default\", \"kvm2\": \"qemu+tcp://127.0.0.1:1/system\", \"kvm3\": \"qemu+ssh://root@kvm3.invalid/system\"}, \"endpoint\": \"$2\", \"db_password\": \"pw-1234.abcd\"" \
		'{"name": "a", "pool": "default-pool", "host": "here"}, {"name": "b", "pool": "p2", "host": "kvm3"}, {"name": "c", "pool": "p3", "host": "kvm2"}' '"a": 1'
	"$DBRIG_BIN" campaign "$1.json" --plan >"$1.out" 2>"$1.err" || true
}
reach fwd forward
grep -qxF "dbrig: warning: fwd.json: .target.hosts.kvm3: \"qemu+ssh://root@kvm3.invalid/system\" is another machine, and endpoint \"forward\" puts its VMs' database ports on that machine's 127.0.0.1, which the drivers here cannot reach (expected endpoint \"guest\" on a network routed to this machine, or tunnels of those ports: docs/libvirt.md, \"Reaching guests on other hosts\")" fwd.err ||
	fail "endpoint forward on another machine: no warning: $(cat fwd.err)"
[ "$(grep -c 'is another machine' fwd.err)" = 1 ] || fail "endpoint forward: hosts of this machine named too: $(cat fwd.err)"
reach guest guest
! grep -q "is another machine" guest.err || fail "endpoint guest: warned at --plan: $(cat guest.err)"

[ "$FAILURES" = 0 ] || { list_failed; die "$FAILURES check(s) failed"; }
echo "libvirt_preflight: ok"
