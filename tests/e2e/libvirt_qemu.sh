#!/usr/bin/env bash
# End-to-end test of the libvirt target with real QEMU (TCG: no KVM needed) under a
# libvirtd started by hand (no systemd here). Two drives = two dir pools, one VM each,
# the "slow" drive's under-test disk throttled with <iotune>. The databases are reached
# ONLY through ports QEMU forwards to 127.0.0.1 (SLIRP hostfwd): no bridge, no NAT, no
# traffic to private-range addresses.
#   provision --dry-run (changes nothing) -> provision -> status -> campaign (golden copy
#   via `dbrig sysbench prepare`, restore, precondition + sample with both VMs in
#   in turn, one drive after the other) -> status -> restore -> data check of the restored guests -> guest checks
#   -> teardown; throttled drive slower; nothing left; each result carries its VM's disk
#   (libvirt block stats) and vCPU telemetry and the throttled disk waits longer per request.
# Then TPC-C (tpcc_e2e below, in the background from the sysbench campaign's end): a second
# campaign on a third VM, verify_restore through `dbrig tpcc check`, the run's stored check
# passed, an altered pre-built volume failing the restore's verification with one line
# naming the VM, teardown.
# The golden copy is loaded once (on fast) and cloned to slow, so both hold the same
# rows; the two VMs then ran different numbers of transactions (one drive is throttled):
# after `dbrig restore` both must hold the golden rows again (row count, CHECKSUM TABLE
# equal on both, read through the forwarded ports).
# The guest image (Debian 12, MariaDB, qemu-guest-agent, cloud-init) is the one users build,
# scripts/make-base-image.sh (with --e2e), built once and cached in $DBRIG_E2E_CACHE (default
# /var/cache/dbrig-e2e) by tests/e2e/make-guest-image.sh. Debian's
# cloud-init applies the user-data dbrig renders (NoCloud seed ISO); the guest checks,
# read back through the guest agent only, prove it: hostname, SSH key, write_files +
# runcmd (dbrig-setup.service enabled and run), the datadir on the under-test disk.
# The slow drive is on a second "host", the same libvirtd reached over qemu+tcp on 127.0.0.1:
# its golden copy is streamed from the fast drive's host, its VM is driven through that host.
# Exit 0 pass, 1 fail, 77 when this machine cannot run it (not root, no QEMU/libvirtd),
# 75 for a classified infrastructure failure before any check of dbrig failed: the guest
# image could not be built, libvirtd did not start, or a VM's first boot did
# not become ready within ready_timeout (libvirt_e2e.sh retries those once, and only those).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
t0=$(date +%s)

[ "$(id -u)" = 0 ] || { echo "libvirt e2e: needs root (libvirtd, qemu:///system)"; exit 77; }
for p in libvirtd virtlogd virtlockd qemu-system-x86_64 qemu-img virsh genisoimage debootstrap mkfs.ext4; do
	command -v "$p" >/dev/null || { echo "libvirt e2e: $p missing (install scripts/deps-libvirt.txt)"; exit 77; }
done

infra() { echo "libvirt e2e: INFRASTRUCTURE: $*" >&2; exit 75; }
# The domain type: qemu (TCG emulation: no /dev/kvm needed, minutes per boot), or kvm with
# DBRIG_E2E_DOMAIN_TYPE=kvm where this machine's KVM boots Linux guests (the CI machines'
# nested /dev/kvm opens, but a Debian kernel hangs right after decompression on it).
DBRIG_E2E_DOMAIN_TYPE=${DBRIG_E2E_DOMAIN_TYPE:-qemu}
# libvirt runs QEMU as its own user (libvirt-qemu, group kvm on Debian), and Debian's udev
# rule gives /dev/kvm to group kvm, mode 0660. Where no udev ran (/dev/kvm root's, 0600),
# a kvm run applies that rule itself and puts the node back at exit.
KVM_RESTORE=""
if [ "$DBRIG_E2E_DOMAIN_TYPE" = kvm ] && id libvirt-qemu >/dev/null 2>&1 &&
	! runuser -u libvirt-qemu -- sh -c 'exec 3<>/dev/kvm' 2>/dev/null; then
	KVM_RESTORE=$(stat -c '%u:%g %a' /dev/kvm)
	chgrp kvm /dev/kvm && chmod 0660 /dev/kvm || infra "cannot give /dev/kvm to group kvm as udev would"
	echo "libvirt e2e: /dev/kvm was $KVM_RESTORE: set to group kvm, 0660 (Debian's udev rule) for libvirt-qemu"
fi
echo "libvirt e2e: domain type $DBRIG_E2E_DOMAIN_TYPE"
CACHE=${DBRIG_E2E_CACHE:-/var/cache/dbrig-e2e}
bash "$DBRIG_SOURCE_DIR/tests/e2e/make-guest-image.sh" "$CACHE" >/dev/null || infra "cannot build the guest image"

T=$TEST_TMP
chmod 755 "$T"
NAME="e2e-$$"
TNAME="e2etpcc-$$" # the TPC-C campaign: its names never contain dbrig-$NAME-
TPID=""
URI=qemu:///system
STARTED=""

stop_daemons() {
	for d in libvirtd virtlockd virtlogd; do
		if [ -f "$T/$d.pid" ]; then
			pid=$(cat "$T/$d.pid")
			kill "$pid" 2>/dev/null || true
			for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		fi
	done
}

leftovers() { # everything of this test's campaign ($1, default the sysbench one) that libvirt still has
	virsh -c $URI list --all --name 2>/dev/null | grep -F "dbrig-${1:-$NAME}-" || true
	virsh -c $URI pool-list --all --name 2>/dev/null | grep -F "dbrig-${1:-$NAME}-" || true
}

cleanup_e2e() {
	set +e
	if [ -n "$TPID" ]; then # the TPC-C part still runs: its dbrig first (its drivers follow it), then the subshell
		kill $(pgrep -P "$TPID") "$TPID" 2>/dev/null; wait "$TPID" 2>/dev/null
	fi
	if [ -n "$STARTED" ] || virsh -c $URI version >/dev/null 2>&1; then
		for d in $(virsh -c $URI list --all --name 2>/dev/null | grep -F -e "dbrig-$NAME-" -e "dbrig-$TNAME-"); do
			virsh -c $URI destroy "$d" >/dev/null 2>&1; virsh -c $URI undefine "$d" >/dev/null 2>&1
		done
		for p in $(virsh -c $URI pool-list --all --name 2>/dev/null | grep -F -e "dbrig-$NAME-" -e "dbrig-$TNAME-"); do
			for v in $(virsh -c $URI vol-list "$p" 2>/dev/null | awk 'NR > 2 && $1 { print $1 }'); do
				virsh -c $URI vol-delete --pool "$p" "$v" >/dev/null 2>&1
			done
			virsh -c $URI pool-destroy "$p" >/dev/null 2>&1; virsh -c $URI pool-undefine "$p" >/dev/null 2>&1
		done
	fi
	[ -n "$STARTED" ] && stop_daemons
	if [ -n "$KVM_RESTORE" ]; then chown "${KVM_RESTORE% *}" /dev/kvm; chmod "${KVM_RESTORE#* }" /dev/kvm; fi
	rm -f /var/log/libvirt/qemu/dbrig-"$NAME"-*.log /var/log/libvirt/qemu/dbrig-"$TNAME"-*.log
	cleanup_test
}
trap cleanup_e2e EXIT

# libvirtd: use a running one, or start ours by hand and stop it at the end. Ours also
# listens on a TCP port of 127.0.0.1 (no TLS, no authentication: loopback only), the second
# "host" of the sysbench campaign: its slow drive is on host "remote", $RURI, a real remote
# transport to this same libvirtd (issue 25 item 3), so that the golden copy's stream, the
# remote node calls and the drivers reaching that host's guest run for real. A running
# libvirtd must offer such a port itself: DBRIG_E2E_REMOTE_URI names it.
if ! virsh -c $URI version >/dev/null 2>&1; then
	LVPORT=$(free_port) || die "no free port"
	cat >"$T/libvirtd.conf" <<CONF
listen_tls = 0
listen_tcp = 1
listen_addr = "127.0.0.1"
tcp_port = "$LVPORT"
auth_tcp = "none"
CONF
	virtlogd -d -p "$T/virtlogd.pid"
	virtlockd -d -p "$T/virtlockd.pid"
	libvirtd -d --listen -f "$T/libvirtd.conf" -p "$T/libvirtd.pid"
	STARTED=1
	RURI="qemu+tcp://127.0.0.1:$LVPORT/system"
	for _ in $(seq 1 100); do virsh -c $URI version >/dev/null 2>&1 && break; sleep 0.2; done
	virsh -c $URI version >/dev/null 2>&1 || infra "libvirtd did not start"
else
	RURI=${DBRIG_E2E_REMOTE_URI:-qemu+tcp://127.0.0.1:16509/system}
fi
virsh -c "$RURI" version >/dev/null 2>&1 ||
	die "the second host's URI $RURI does not answer (expected a libvirtd listening there: with a libvirtd of its own running, set DBRIG_E2E_REMOTE_URI to a remote URI of it)"

PORT=$(free_port) || die "no free port"
while (exec 3<>/dev/tcp/127.0.0.1/$((PORT + 1))) 2>/dev/null; do PORT=$(free_port); done
mkdir -p "$T/fast" "$T/slow" "$T/out"
# A public key only (its private half was thrown away): cloud-init must install it.
SSH_KEY="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAID0237NsmRw28j0aWyYVbu8bdyzPdhcillT0wI/3KXjA dbrig-e2e"
# The "target" member of both campaigns (the sysbench one adds the slow drive's iotune).
guest_target() { # guest_target FORWARD-BASE-PORT [MEMBER,] [HOSTS]
	local hosts=${3:-}
	[ -n "$hosts" ] || hosts="{\"local\": \"$URI\"}"
	cat <<JSON
  "target": {
    "kind": "libvirt",
    "hosts": $hosts,
    "endpoint": "forward",
    "forward_backend": "slirp",
    "forward_base_port": $1,
    "domain_type": "${DBRIG_E2E_DOMAIN_TYPE:-qemu}",
    "base_image": "$CACHE/debian12-mariadb.qcow2",
    "kernel": "$CACHE/debian12-mariadb.vmlinuz",
    "initrd": "$CACHE/debian12-mariadb.initrd.img",
    "cmdline": "root=LABEL=root ro console=ttyS0 net.ifnames=0 quiet",
    "boot_size": "3G",
    "prebuilt_size": "1G",
    "under_test_size": "1G",
    "vcpus": 1,
    "memory": "768M",
    "controller": "virtio-scsi",
    "create_pools": true,
    "allow_shared_device": true,
    ${2:-}
    "ssh_key": "$SSH_KEY",
    "guest_packages": "preinstalled",
    "ready_timeout": "8m",
    "stop_timeout": "2m"
  },
JSON
}
# allow_shared_device: the drives are folders under $T, on this machine's root file system
# (preflight would refuse them: a warning each instead).
# ready_timeout 8m: the throttled VM's first boot (empty under-test disk at 10 IOPS) took
# 245 s in an earlier run with the old hand-written seed unit, 313-344 s with cloud-init (its NoCloud
# search probes every disk: 24 s on that one alone; the setup starts from runcmd at the
# end of cloud-final); 6m left too little margin on a busy machine.
# The slow drive's under-test disk: 30 requests/s. At 10 (until stop 34) each of its three
# boots (the streamed clone's fingerprint, the restore before its run, the data check) waited
# 60-75 s longer than the fast VM's on MariaDB's start-up I/O, on the e2e's critical path, and
# its sample ran at 1/11.65 of the fast one's TPS; at 30 it is still bound by its disk.
SLOW_IOPS=${DBRIG_E2E_SLOW_IOPS:-30}
cat >"$T/e2e.json" <<JSON
{
  "name": "$NAME",
  "description": "dbrig libvirt e2e: 1 VM on each of 2 pools in turn, one throttled",
  "workload": {"kind": "sysbench", "test": "oltp_update_index", "options": {"tables": 1, "table-size": 2000, "rand-seed": 5}},
  "engine": {"kind": "mariadb", "buffer_pool": "64M",
             "server_options": {"innodb_flush_log_at_trx_commit": 1, "innodb_log_file_size": "16M"}},
$(guest_target "$PORT" "\"iotune\": {\"slow\": \"total_iops_sec=$SLOW_IOPS\"}," "{\"local\": \"$URI\", \"remote\": \"$RURI\"}")
  "drives": [{"name": "fast", "path": "$T/fast", "host": "local"}, {"name": "slow", "path": "$T/slow", "host": "remote"}],
  "run_groups": [{"name": "1 VM on each drive", "placement": {"each": ["fast", "slow"], "vms": 1}}],
  "precondition": "${DBRIG_E2E_PRECONDITION:-20s}",
  "sample": "${DBRIG_E2E_SAMPLE:-40s}",
  "threads": 4,
  "report_interval": "10s",
  "output": "$T/out",
  "verify_restore": true,
  "keep": true
}
JSON
# oltp_update_index: one write and a commit per transaction, three round trips. Run alone
# (the group runs on each drive in turn), a VM under TCG doing oltp_read_write's 18 round trips
# per transaction is bound by its CPU and user networking at ~7 TPS on either drive (measured:
# 7.32 fast, 7.32 slow at 10 IOPS), so the throttle never showed; here the slow drive's IOPS
# bound its commits.
cd "$T"
step() { echo "[$(($(date +%s) - t0))s] $*"; }

# ---- TPC-C on a MariaDB guest with verify_restore (issue 11 item 6) ----
# A second campaign, its own VM on its own pool: a guest's seed creates the workload's
# database (sbtest or tpcc) and grants only it, so the sysbench VMs cannot serve TPC-C.
# 1 warehouse, closed loop, seconds per phase. The golden copy is loaded with `dbrig tpcc
# prepare` and fingerprinted with `dbrig tpcc check`, the restore is verified by it, and the
# run's stored check after the sample must pass. Then the pre-built volume is deliberately
# altered (replaced by the under-test disk the run changed, the VM shut off) and the run
# redone with --resume: restore copies the altered bytes, and the verification must fail with
# one line naming the VM and both fingerprints. It runs in the background (tpcc_start, tpcc_wait)
# beside the sysbench part's last restore, guest checks and teardown, after that campaign's
# measured run: those wait mostly on the throttled disk, so the CPUs have room.
tpcc_e2e() {
	local tn="$TNAME" tport tres tpc=0 tdom
	tpc=$(date +%s)
	tport=$(free_port) || die "no free port"
	while [ "$tport" = "$PORT" ] || [ "$tport" = "$((PORT + 1))" ]; do tport=$(free_port); done
	mkdir -p "$T/tpcc"
	cat >"$T/tpcc.json" <<JSON
{
  "name": "$tn",
  "description": "dbrig libvirt e2e: TPC-C on one MariaDB guest, verify_restore",
  "workload": {"kind": "tpcc", "options": {"warehouses": 1, "terminals": 4, "delays": "off", "rand-seed": 7}},
  "engine": {"kind": "mariadb", "buffer_pool": "128M",
             "server_options": {"innodb_flush_log_at_trx_commit": 1, "innodb_log_file_size": "64M"}},
$(guest_target "$tport")
  "drives": [{"name": "d1", "path": "$T/tpcc"}],
  "run_groups": [{"name": "tpcc 1 VM", "placement": {"d1": 1}}],
  "precondition": "${DBRIG_E2E_TPCC_PRECONDITION:-3s}",
  "sample": "${DBRIG_E2E_TPCC_SAMPLE:-6s}",
  "threads": 2,
  "report_interval": "3s",
  "output": "$T/tout",
  "verify_restore": true,
  "keep": true
}
JSON
	step "tpcc: campaign --plan"
	"$DBRIG_BIN" campaign tpcc.json --plan >tplan.out 2>&1 || fail "tpcc: --plan failed: $(cat tplan.out)"
	check "tpcc: --plan describes the TPC-C load on 1 VM" grep -qF "tpcc: 1 warehouse(s), 2 connections per instance" tplan.out
	step "tpcc: campaign (provision, golden copy by dbrig tpcc prepare, restore verified by dbrig tpcc check, run)"
	"$DBRIG_BIN" campaign tpcc.json >tcamp.out 2>tcamp.err || {
		cat tcamp.err >&2
		for f in tout/"$tn"/golden-*.log tout/"$tn"/check-*.log tout/"$tn"/ready-*.log; do
			[ -f "$f" ] && { echo "--- $f"; tail -15 "$f"; } >&2
		done
		[ "$FAILURES" = 0 ] && grep -q ": not ready within ready_timeout " tcamp.err &&
			infra "tpcc: a VM's first boot did not become ready within ready_timeout: $(grep ': not ready within ready_timeout ' tcamp.err | head -1)"
		fail "tpcc: campaign failed"
		return
	}
	tail -4 tcamp.err
	gold=$(json_get "tout/$tn/state.json" "r['golden']['d1']" 2>&1) || gold="none: $gold"
	echo "  tpcc golden fingerprint: $gold"
	check "tpcc: the golden copy is 1 warehouse as loaded (got: $gold)" \
		bash -c "[[ '$gold' == 'rows: warehouse 1, district 10, customer 30000, orders 30000, new_order 9000, item 100000, stock 100000, history 30000, order_line '* ]]"
	check "tpcc: the restore was verified by dbrig tpcc check against the golden fingerprint" \
		[ "$(grep -cF "d1/vm1: restore verified ($gold)" tcamp.err)" = 1 ]
	tres="tout/$tn/tpcc-1-vm/d1/vm1.json"
	check "tpcc: result and journal: oracle" oracle result "$tres" --journal "${tres}l"
	# The check the campaign ran after the sample on the restored guest (--check=after), as stored in the result.
	check "tpcc: the run committed New-Orders and its stored dbrig tpcc check after the run passed every applicable condition" \
		python3 - "$tres" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
err = []
s = r["phases"]["sample"] or {}
if r["status"] != "complete" or r["workload"]["kind"] != "tpcc": err.append("status %s, kind %s" % (r["status"], r["workload"]["kind"]))
if s.get("tps", 0) <= 0 or s["types"]["new_order"]["count"] <= 0: err.append("no New-Order committed: %s" % s.get("types"))
ck = (r.get("consistency") or {}).get("after")
if not ck:
    err.append("no stored check after the run")
else:
    conds = ck["conditions"]
    applied = [c["condition"] for c in conds if c["applies"]]
    bad = [c for c in conds if c["applies"] and c["bad"]]
    print("  tpcc: sample tps %.2f, new orders %d; check after: ok %s, %d conditions, applied %s, rows %s" %
          (s["tps"], s["types"]["new_order"]["count"], ck["ok"], len(conds), applied, ck["rows"]))
    if not ck["ok"] or bad or len(conds) != 12 or len(applied) < 11:
        err.append("check after the run: ok %s, failing %s" % (ck["ok"], bad))
for e in err: print("FAIL: tpcc:", e, file=sys.stderr)
sys.exit(1 if err else 0)
PY

	step "tpcc: an altered pre-built volume fails the restore's verification"
	# The campaign shut the VM off; its under-test disk holds the database the run changed.
	tdom="dbrig-$tn-d1-vm1"
	check "tpcc: the VM is shut off after the campaign" [ "$(virsh -c $URI domstate "$tdom" 2>&1)" = "shut off" ]
	cp --sparse=always "$T/tpcc/$tdom-undertest.img" "$T/tpcc/$tdom-prebuilt.img" || fail "tpcc: cannot alter the pre-built volume"
	python3 - "tout/$tn/state.json" <<'PY' || fail "tpcc: cannot mark the run to be redone"
import json, sys
st = json.load(open(sys.argv[1]))
st["runs"][0]["status"] = "failed"
json.dump(st, open(sys.argv[1], "w"))
PY
	local rc=0
	"$DBRIG_BIN" campaign tpcc.json --resume >tbad.out 2>tbad.err || rc=$?
	tail -4 tbad.err
	check "tpcc: the resume with the altered volume exits 1 (got $rc)" [ "$rc" = 1 ]
	check "tpcc: exactly one line names the VM whose restored database differs, with both fingerprints" \
		[ "$(grep -c "^dbrig: .*d1/vm1: the restored database differs from the golden copy (rows: warehouse 1, .*, expected $gold)\$" tbad.err)" = 1 ]
	check "tpcc: the run is marked failed" [ "$(json_get "tout/$tn/state.json" "r['runs'][0]['status']")" = failed ]

	step "tpcc: teardown"
	"$DBRIG_BIN" teardown tpcc.json >ttd.out 2>ttd.err || fail "tpcc: teardown failed: $(cat ttd.err)"
	check "tpcc: teardown left no domain or pool" [ -z "$(leftovers "$tn")" ]
	check "tpcc: teardown left no volume file" [ -z "$(find "$T/tpcc" -type f 2>/dev/null)" ]
	step "tpcc: the TPC-C part took $(($(date +%s) - tpc)) s"
}
tpcc_start() { # tpcc_e2e in a subshell: its output in tpcc.log, the checks it counted in tpcc.counts
	( c0=$CHECKS f0=$FAILURES; tpcc_e2e; echo "$((CHECKS - c0)) $((FAILURES - f0))" >"$T/tpcc.counts" ) >"$T/tpcc.log" 2>&1 &
	TPID=$!
}
tpcc_wait() {
	local rc=0 c f
	wait "$TPID" || rc=$?
	TPID=""
	cat "$T/tpcc.log"
	if read -r c f <"$T/tpcc.counts"; then CHECKS=$((CHECKS + c)); FAILURES=$((FAILURES + f)); fi 2>/dev/null
	# its failed checks, listed again by finish with this part's
	while IFS= read -r c; do FAILED_CHECKS+=("${c#FAIL: }"); done < <(grep '^FAIL: ' "$T/tpcc.log")
	[ "$rc" = 75 ] && [ "$FAILURES" = 0 ] && infra "in the TPC-C part (above)"
	[ "$rc" = 0 ] || fail "tpcc: the TPC-C part exited $rc"
}

step "campaign --plan"
"$DBRIG_BIN" campaign e2e.json --plan >plan.out 2>plan.err || fail "campaign --plan failed: $(cat plan.err)"
check "--plan: the slow drive (host remote, over qemu+tcp) receives the golden copy by stream" grep -qxF \
	"            golden copy to drive slow (host remote): streamed from drive fast (host local), one pre-built volume (up to 1.0 GiB) over the hosts' link, then cloned on host remote (stream time not estimated)" plan.out
step "provision --dry-run"
"$DBRIG_BIN" provision e2e.json --dry-run >dry.xml 2>dry.err || fail "provision --dry-run failed: $(cat dry.err)"
check "dry run printed 2 domains" [ "$(grep -c '<domain type=' dry.xml)" = 2 ]
check "every XML of the dry run passes virt-xml-validate" python3 "$DBRIG_SOURCE_DIR/tests/lib/virt_xml.py" dry.xml 2
check "dry run printed the iotune of the slow drive" grep -q "<total_iops_sec>$SLOW_IOPS</total_iops_sec>" dry.xml
check "dry run printed the forwarded port" grep -q "hostfwd=tcp:127.0.0.1:$PORT-:3306" dry.xml
check "dry run shows the seed's password masked" grep -q 'db_password=\*\*\*\*\*\*\*\*' dry.xml
check "dry run created nothing" [ -z "$(leftovers)" ]
check "dry run generated no password" [ ! -e "out/.$NAME.libvirt/.libvirt-credentials" ]

step "provision"
"$DBRIG_BIN" provision e2e.json >prov.out 2>prov.err || fail "provision failed: $(cat prov.err)"
check "two domains defined" [ "$(virsh -c $URI list --all --name | grep -cF "dbrig-$NAME-")" = 2 ]
# "allocation": "full" (the default): libvirt allocated the 1 GiB under-test file whole.
check "the under-test volume is preallocated (allocation full)" \
	[ "$(($(stat -c '%b * %B' "$T/fast/dbrig-$NAME-fast-vm1-undertest.img")))" -ge 1073741824 ]
# security-review finding 12: no default password; one generated for the campaign, 0600.
check "provision generated the campaign's password, mode 0600" [ "$(stat -c %a "out/.$NAME.libvirt/.libvirt-credentials")" = 600 ]
PW=$(cat "out/.$NAME.libvirt/.libvirt-credentials")
check "the generated password is 24 letters and digits" bash -c "[[ '$PW' =~ ^[A-Za-z0-9]{24}\$ ]]"
check "the password is in no output of provision" bash -c "! grep -qF -- '$PW' prov.out prov.err dry.xml"
check "the seed volumes holding it are 0600 on the host (finding 20)" \
	[ "$(find "$T/fast" "$T/slow" -name '*-seed.iso' -perm 600 | wc -l)" = 2 ]
check "slow VM has iotune on under-test" bash -c "virsh -c $URI dumpxml dbrig-$NAME-slow-vm1 | grep -q '<total_iops_sec>$SLOW_IOPS</total_iops_sec>'"
"$DBRIG_BIN" status e2e.json >st1.out 2>&1 && fail "status says ready before any start"
check "status shows the VMs shut off with their volumes" grep -q "shut off; volumes boot ok prebuilt ok undertest ok seed ok" st1.out

step "campaign (golden copy, restore, run)"
"$DBRIG_BIN" campaign e2e.json >camp.out 2>camp.err || {
	cat camp.err >&2
	for f in out/"$NAME"/golden-*.log; do [ -f "$f" ] && { echo "--- $f"; tail -15 "$f"; } >&2; done
	# A first boot that did not finish in time, and nothing of dbrig failed yet.
	[ "$FAILURES" = 0 ] && grep -q ": not ready within ready_timeout " camp.err &&
		infra "a VM's first boot did not become ready within ready_timeout: $(grep ': not ready within ready_timeout ' camp.err | head -1)"
	fail "campaign failed"
}
tail -5 camp.err
# issue 11 item 3: each restored VM's fingerprint (dbrig sysbench check over its endpoint) is the golden copy's
check "both restores verified against the golden fingerprint" [ "$(grep -c "restore verified (tables=1 rows=" camp.err)" = 2 ]
# issue 25 item 1: the slow drive is on the other host: its golden copy came by stream
# (virStorageVolDownload on qemu:///system, virStorageVolUpload over qemu+tcp), whole, and
# its first boot's fingerprint was the source's (the clone line is written only then).
check "the golden copy was streamed whole to host remote (1024.0 MiB) and its fingerprint checked on arrival" \
	bash -c "grep -q '^dbrig: slow/vm1: dbrig-$NAME-slow-vm1-prebuilt.img from host local: streamed 1024.0 MiB in ' camp.err &&
		grep -q '^dbrig: slow: golden copy cloned from fast in .* (stream from another host; ' camp.err"
grep -E "streamed|golden copy cloned" camp.err | sed 's/^/  /'
res="out/$NAME/1-vm-on-each-drive"
fast=$(json_get "$res/fast/vm1.json" "r['phases']['sample']['tps']" 2>/dev/null || echo 0)
slow=$(json_get "$res/slow/vm1.json" "r['phases']['sample']['tps']" 2>/dev/null || echo 0)
step "sample TPS: fast $fast, slow (total_iops_sec=$SLOW_IOPS) $slow"
check "both VMs committed transactions" python3 -c "import sys; sys.exit(0 if $fast > 0 and $slow > 0 else 1)"
check "the throttled drive is slower" python3 -c "import sys; sys.exit(0 if $slow < $fast else 1)"
for d in fast slow; do
	check "$d: result and journal: oracle" oracle result "$res/$d/vm1.json" --journal "$res/$d/vm1.jsonl"
	check "$d: the run wrote (the restore check below proves something)" \
		[ "$(json_get "$res/$d/vm1.json" "r['phases']['sample']['queries']['write'] > 0")" = True ]
	# Format 1.3: the driver's journal beside its result holds the intervals, the result names it.
	check "$d: the result leaves its intervals to its journal and names it" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if 'intervals' not in r and r.get('journal') == 'vm1.jsonl' else 'intervals %s, journal %r' % ('intervals' in r, r.get('journal')))
" "$res/$d/vm1.json"
done
# Telemetry (issue 15): each result has its VM's under-test disk from libvirt's block stats
# (requests and the time spent on them, no utilisation), its vCPU time, and the host devices
# under the drive's pool folder; the throttled VM's disk waits longer per request.
check "each run's telemetry file has its VM's disk, vCPU and host-device telemetry; the throttled disk's await is higher" \
	python3 - "$res" <<'PY'
import json, sys
err, aw = [], {}
for d in ("fast", "slow"):
    # The campaign's telemetry of the run, beside the driver's result (which it never rewrites).
    r = json.load(open("%s/%s/vm1.telemetry.json" % (sys.argv[1], d)))
    t = r.get("telemetry") or {}
    s = (t.get("phases") or {}).get("sample") or {}
    devs = {x["name"]: x for x in s.get("devices", [])}
    vm, g = devs.get("vm1:sdc"), s.get("guest") or {}
    print("%s: %s; guest %s; host devices %s" % (d, vm, g, [n for n in devs if n != "vm1:sdc"]))
    if not vm or vm["w_iops"] <= 0 or vm["await_ms"] <= 0 or "util" in vm:
        err.append("%s: the VM's disk %s" % (d, vm))
        continue
    if g.get("vcpus") != 1 or not 0 < g.get("busy", 0) <= 1:
        err.append("%s: the VM's vCPUs %s" % (d, g))
    if (t.get("drive") or {}).get("top") not in devs:
        err.append("%s: no host device for the pool folder: %s" % (d, t.get("drive")))
    aw[d] = vm["await_ms"]
if len(aw) == 2 and not aw["slow"] > aw["fast"]:
    err.append("await slow %.2f ms <= fast %.2f ms" % (aw["slow"], aw["fast"]))
for e in err:
    print("FAIL:", e, file=sys.stderr)
sys.exit(1 if err else 0)
PY
# The throttled VM's disk waits (libvirt's block stats: the time its requests spent, QEMU's
# throttle included) while no host device looks busy: the storage-path rule names it, from
# that signal, unless the host CPU (TCG guests) or the driver saturated first.
check "the report judges each drive's bottleneck from the VMs' telemetry; the throttled drive's from its disk's waiting" \
	python3 - "out/$NAME/report/report.json" <<'PY'
import json, sys
g, err = json.load(open(sys.argv[1]))["groups"], []
for x in g:
    v, k = x["verdict"], x["key"]
    print("  verdict %s / %s: %s, host CPU %s, io_wait %s" % (k["run_group"], k["drive"], v["bottleneck"],
          v["host_cpu_busy"], v.get("io_wait")))
    if v["bottleneck"] not in ("driver", "host CPU", "guest CPU", "drive", "storage path", "unknown") or v["host_cpu_busy"] is None:
        err.append("%s: verdict %s" % (k["drive"], v))
slow = [x["verdict"] for x in g if x["key"]["drive"] == "slow"]
if len(slow) != 1:
    err.append("no group of the slow drive: %s" % [x["key"] for x in g])
else:
    v = slow[0]
    io = v.get("io_wait") or {}
    if io.get("source") != "libvirt block stats" or not (io.get("share") or 0) > 0:
        err.append("slow: no waiting from the VM's disk: %s" % io)
    elif v["host_cpu_busy"] < 0.9 and not v.get("driver_saturated") and v["bottleneck"] not in ("storage path", "drive"):
        err.append("slow: the throttled drive is not named: %s" % v)
for e in err:
    print("FAIL:", e, file=sys.stderr)
sys.exit(1 if err else 0)
PY
# The group ran on each drive in turn ("placement": {"each": ...}): one run at a time, the
# slow drive's after the fast one's, and the report pairs the two drives in its Drive comparison.
check "the each-drive group ran the drives one after the other, never both at once" python3 - "$res" <<'PY'
import json, sys
sp = {}
for d in ("fast", "slow"):
    r = json.load(open("%s/%s/vm1.json" % (sys.argv[1], d)))
    sp[d] = (r["started_at"], r["finished_at"])
print("  run spans: %s" % sp)
sys.exit(0 if sp["fast"][1] <= sp["slow"][0] else "the runs overlap: %s" % sp)
PY
check "the report's Drive comparison pairs fast and slow, the throttled drive slower, with TPS, average and p99 ratios" \
	python3 - "out/$NAME/report/report.json" <<'PY'
import json, sys
c = [x for x in json.load(open(sys.argv[1]))["comparisons"] if x["run_group"] == "1 VM on each drive"]
print("  comparison: %s" % c)
ok = len(c) == 1 and (c[0]["faster"], c[0]["slower"]) == ("fast", "slow") and c[0]["tps_ratio"] > 1 \
    and c[0]["avg_ratio"] is not None and c[0]["p99_ratio"] is not None
sys.exit(0 if ok else "no such comparison")
PY
check "the password is in no file of the campaign but its credentials" \
	bash -c "[ \"\$(grep -rlF -- '$PW' out camp.out camp.err)\" = 'out/.$NAME.libvirt/.libvirt-credentials' ]"

tpcc_start
step "status, restore, status"
"$DBRIG_BIN" status e2e.json >st2.out 2>&1 || true
"$DBRIG_BIN" restore e2e.json >rest.out 2>rest.err || fail "restore failed: $(cat rest.err)"
"$DBRIG_BIN" status e2e.json >st3.out 2>&1 || fail "status after restore: not ready: $(cat st3.out)"
check "status after restore: databases ready on forwarded ports" [ "$(grep -c "endpoint 127.0.0.1:.*database ready" st3.out)" = 2 ]

step "data check of the restored guests"
data() { # data DRIVE: "rows checksum" of sbtest1, through the VM's forwarded port
	local p
	p=$(grep "^$1/vm1 " st3.out | grep -o "endpoint 127.0.0.1:[0-9]*" | cut -d: -f2)
	[ -n "$p" ] || { echo "no endpoint for $1"; return; }
	MYSQL_PWD="$PW" mariadb --no-defaults --protocol=tcp -h127.0.0.1 -P"$p" -udbrig -N -B \
		-e "SELECT COUNT(*) FROM sbtest.sbtest1; CHECKSUM TABLE sbtest.sbtest1 EXTENDED" 2>&1 | awk '{print $NF}' | tr '\n' ' '
}
df=$(data fast)
ds=$(data slow)
echo "  restored sbtest1 (rows checksum): fast $df, slow $ds"
check "restored fast VM: the golden copy's 2000 rows ($df)" [ "${df%% *}" = 2000 ]
check "restored slow VM: the golden copy's 2000 rows ($ds)" [ "${ds%% *}" = 2000 ]
check "both restored VMs hold the same rows (their runs differed; the golden copies are equal)" [ "$df" = "$ds" ]

# guest_sh DOMAIN SCRIPT: /bin/sh -c SCRIPT in the guest through the qemu guest agent
# (guest-exec, guest-exec-status); prints its output, returns its exit code.
guest_sh() {
	python3 - "$URI" "$1" "$2" <<'PY'
import base64, json, subprocess, sys, time
uri, dom, script = sys.argv[1:4]
def agent(cmd):
    r = subprocess.run(["virsh", "-c", uri, "qemu-agent-command", dom, json.dumps(cmd)],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("guest agent of %s: %s" % (dom, r.stderr.strip()))
    return json.loads(r.stdout)["return"]
pid = agent({"execute": "guest-exec",
             "arguments": {"path": "/bin/sh", "arg": ["-c", script], "capture-output": True}})["pid"]
for _ in range(600):
    st = agent({"execute": "guest-exec-status", "arguments": {"pid": pid}})
    if st.get("exited"):
        sys.stdout.write(base64.b64decode(st.get("out-data", "")).decode(errors="replace"))
        sys.stderr.write(base64.b64decode(st.get("err-data", "")).decode(errors="replace"))
        sys.exit(st.get("exitcode", 1))
    time.sleep(0.2)
sys.exit("guest-exec in %s: still running after 120 s" % dom)
PY
}

step "guest checks: what cloud-init applied from the rendered user-data"
for d in fast slow; do
	dom="dbrig-$NAME-$d-vm1"
	host=$(virsh -c $URI qemu-agent-command "$dom" '{"execute":"guest-get-host-name"}' 2>&1 |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["return"]["host-name"])' 2>&1) || true
	check "$d: hostname from the user-data ($d-vm1), read by the guest agent (got: $host)" [ "$host" = "$d-vm1" ]
	guest_sh "$dom" '
		echo "status: $(cloud-init status 2>&1 | sed -n "s/^status: //p")"
		echo "datasource: $(cat /run/cloud-init/cloud-id 2>/dev/null)"
		echo "instance-id: $(cat /var/lib/cloud/data/instance-id)"
		echo "authorized_keys: $(cat ~debian/.ssh/authorized_keys 2>&1)"
		echo "setup-unit: $(systemctl is-enabled dbrig-setup.service 2>&1) $(systemctl is-active dbrig-setup.service 2>&1)"
		echo "setup-script: $(stat -c %a /usr/local/sbin/dbrig-setup.sh 2>&1)"
		echo "setup-sha256: $(sha256sum </usr/local/sbin/dbrig-setup.sh | cut -d" " -f1)"
		echo "common-sha256: $(sha256sum </usr/local/lib/dbrig/setup-common.sh | cut -d" " -f1)"
		echo "setup-conf: $(stat -c %a /etc/dbrig/setup.conf 2>&1)"
		echo "old-seed-unit: $(systemctl list-unit-files dbrig-seed.service 2>&1 | grep -c dbrig-seed)"
		echo "apt-get-runs: $(grep -c "apt-get" /var/log/cloud-init.log)"
		dev=$(findmnt -no SOURCE /srv/dbrig-data)
		echo "datadir-disk: $(lsblk -dno SERIAL "$dev" 2>&1)"
		echo "datadir: $(mysql -uroot -Nse "SELECT @@datadir" 2>&1)"
		echo "bind-address: $(mysql -uroot -Nse "SELECT @@bind_address" 2>&1)"
		echo "nic-address: $(ip -4 -o addr show scope global | awk "{ sub(\"/.*\", \"\", \$4); print \$4; exit }")"
		echo "driver-hosts: $(mysql -uroot -Nse "SELECT GROUP_CONCAT(Host) FROM mysql.user WHERE User = \"dbrig\"" 2>&1)"
		echo "gateway: $(ip -4 route show default | awk "{ print \$3; exit }")"
		echo "schema: $(cloud-init schema --system 2>&1 | tail -1)"
		echo "boot: $(systemctl show -p ActiveEnterTimestampMonotonic --value dbrig-setup.service) us to database ready;" \
			$(python3 -c "import json; d = json.load(open(\"/run/cloud-init/status.json\"))[\"v1\"]; print(\" \".join(\"%s %.1fs\" % (k, d[k][\"finished\"] - d[k][\"start\"]) for k in (\"init-local\", \"init\", \"modules-config\", \"modules-final\") if (d.get(k) or {}).get(\"finished\")))")
	' >"guest-$d.out" 2>&1 || fail "$d: guest checks could not run: $(cat "guest-$d.out")"
	sed "s/^/  guest $d: /" "guest-$d.out"
	g() { sed -n "s/^$1: //p" "guest-$d.out"; }
	check "$d: cloud-init finished without error" [ "$(g status)" = done ]
	check "$d: cloud-init used the NoCloud seed" [ "$(g datasource)" = nocloud ]
	check "$d: instance-id from the rendered meta-data" [ "$(g instance-id)" = "$dom" ]
	check "$d: SSH key from the user-data installed for the default user" [ "$(g authorized_keys)" = "$SSH_KEY" ]
	check "$d: write_files + runcmd installed, enabled and ran dbrig-setup.service" [ "$(g setup-unit)" = "enabled active" ]
	check "$d: write_files wrote the setup script 0600 (security-review finding 20)" [ "$(g setup-script)" = 600 ]
	check "$d: ... and its parameter file 0600" [ "$(g setup-conf)" = 600 ]
	check "$d: the setup script is vm-templates/sysbench-setup.sh as it is (finding 3: no campaign value in its code)" \
		[ "$(g setup-sha256)" = "$(sha256sum <"$DBRIG_SOURCE_DIR/vm-templates/sysbench-setup.sh" | cut -d" " -f1)" ]
	check "$d: ... and the part it sources is vm-templates/setup-common.sh as it is" \
		[ "$(g common-sha256)" = "$(sha256sum <"$DBRIG_SOURCE_DIR/vm-templates/setup-common.sh" | cut -d" " -f1)" ]
	check "$d: no hand-written seed unit in the image" [ "$(g old-seed-unit)" = 0 ]
	check "$d: guest_packages preinstalled: cloud-init ran no apt-get" [ "$(g apt-get-runs)" = 0 ]
	check "$d: datadir on the under-test disk" [ "$(g datadir-disk)" = dbrig-undertest ]
	check "$d: the server runs on that datadir" [ "$(g datadir)" = /srv/dbrig-data/mysql/ ]
	check "$d: the server listens on the NIC's address only, not on every address (security-review finding 12; got $(g bind-address))" \
		bash -c "[ '$(g bind-address)' = '$(g nic-address)' ] && [ -n '$(g nic-address)' ]"
	check "$d: the driver's user may log in from the NIC's gateway only, not from '%' (finding 12; got $(g driver-hosts))" \
		bash -c "[ '$(g driver-hosts)' = '$(g gateway)' ] && [ -n '$(g gateway)' ]"
	check "$d: the user-data cloud-init consumed is valid for its schema" bash -c "grep -q '^schema: Valid cloud-config' guest-$d.out"
done

# issue 11 item 4: one golden load (fast), not one per drive (slow's copy came by stream, checked above);
# both results carry its fingerprint.
check "the golden copy was loaded once, on fast" bash -c \
	"[ \"\$(grep -c '^dbrig: [^:]*: golden copy built in ' camp.err)\" = 1 ] && grep -q '^dbrig: fast: golden copy built in ' camp.err"
# issue 25 item 2: each drive's host figures come from its own host's libvirt node calls (slow's over
# qemu+tcp), the result says so, and the host's memory is there too.
for d in fast slow; do
	h=local
	[ "$d" = slow ] && h=remote
	check "$d: host CPU and memory from host $h's node stats (virNodeGetCPUStats/virNodeGetMemoryStats)" python3 -c "import json, sys
t = json.load(open('$res/$d/vm1.telemetry.json'))['telemetry']['phases']['sample']
c, m = t.get('host_cpu') or {}, t.get('host_memory') or {}
ok = c.get('source') == m.get('source') == 'libvirt node stats (host $h)' and 0 < c.get('busy', 0) <= 1 and 0 < m.get('used', 0) < 1 and m.get('total_mib', 0) > 0
sys.exit(0 if ok else 'host_cpu %s host_memory %s' % (c, m))"
done
check "the report names each drive's telemetry sources: slow's host CPU and memory from host remote" grep -qE \
	"^Telemetry sources: host CPU: libvirt node stats \\(host remote\\), host memory [0-9]+% used \\(libvirt node stats \\(host remote\\)\\); block devices: /proc/diskstats on this machine; VM disks: libvirt block stats$" \
	"out/$NAME/report/report.md"
check "both drives' results carry the same golden fingerprint" python3 -c "import json, sys
g = [json.load(open('$res/%s/vm1.json' % d))['run'].get('golden') for d in ('fast', 'slow')]
sys.exit(0 if g[0] and g[0] == g[1] and 'rows=2000' in g[0] else 'run.golden: %s' % g)"

step "teardown"
"$DBRIG_BIN" teardown e2e.json >td.out 2>td.err || fail "teardown failed: $(cat td.err)"
check "teardown left no domain or pool" [ -z "$(leftovers)" ]
check "teardown left no volume file" [ -z "$(find "$T/fast" "$T/slow" -type f)" ]
step "waiting for the TPC-C part"
tpcc_wait
for f in st1.out st3.out; do sed "s/^/  $f: /" "$f"; done
step "done"
finish
