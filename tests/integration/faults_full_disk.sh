#!/usr/bin/env bash
# The results folder is on a full file system (a 1 MiB tmpfs mounted by the
# test; needs root, skipped otherwise): every failure is one clear line naming
# the file and "No space left on device", the exit status is 1, and no result
# or report file is ever left half-written (no temporary files either): a file
# is either absent or whole. Cases: full before the run (journal cannot be
# opened); full for the result only (the run completes, the result cannot be
# written); filling up mid-run (journal stops, run goes on, result fails;
# the journal keeps whole lines that `dbrig report` reads); full for a while
# mid-run (the journal stops, the result keeps every interval); a report written
# into a full folder; a campaign whose output folder is full before it starts,
# and one whose output folder fills mid-run (then --resume with space again).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
M=$TEST_TMP/full
mkdir -p "$M"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=1m,mode=0755 tmpfs "$M" 2>/dev/null; then
	skip_test "cannot mount a tmpfs (needs root)"
fi
trap 'umount "$M" 2>/dev/null || umount -l "$M"; rm -rf "$TEST_TMP"' EXIT
start_mariadb
trap 'umount "$M" 2>/dev/null || umount -l "$M"; cleanup_test' EXIT
C=$(conn_opts)
O="--tables=1 --table-size=1000 --threads=2 --report-interval=1"
"$DBRIG_BIN" sysbench $C $O oltp_read_only prepare >/dev/null

fill() { dd if=/dev/zero of="$M/filler" bs=4k >/dev/null 2>&1 || true; }
no_tmp() { [ -z "$(find "$M" -name '*.tmp.*')" ]; }
ENOSPC='No space left on device'

# --- full before the run: the journal cannot be opened; nothing runs ---
fill
set +e
"$DBRIG_BIN" sysbench $C $O --time=2 --result="$M/a.json" --journal="$M/a.jsonl" oltp_read_only run \
	>/dev/null 2>"$TEST_TMP/a.err"
rc=$?
set -e
check "full before the run: exit 1 (got $rc)" [ "$rc" = 1 ]
check "full before the run: one line ($(cat "$TEST_TMP/a.err"))" \
	[ "$(cat "$TEST_TMP/a.err")" = "dbrig: --journal: \"$M/a.jsonl\": $ENOSPC" ]
check "full before the run: no result file" [ ! -e "$M/a.json" ]
# An empty journal was left, which broke the report of a resumed campaign (found by bench/fault-soak.sh).
check "full before the run: no journal file either" [ ! -e "$M/a.jsonl" ]
check "full before the run: no temporary file" no_tmp

# --- full for the result only: the run completes, the result cannot be written ---
set +e
"$DBRIG_BIN" sysbench $C $O --time=2 --result="$M/b.json" --journal="$TEST_TMP/b.jsonl" oltp_read_only run \
	>"$TEST_TMP/b.out" 2>"$TEST_TMP/b.err"
rc=$?
set -e
check "result on a full disk: exit 1 (got $rc)" [ "$rc" = 1 ]
check "result on a full disk: one line ($(cat "$TEST_TMP/b.err"))" \
	[ "$(cat "$TEST_TMP/b.err")" = "dbrig: --result: \"$M/b.json\": cannot write: $ENOSPC" ]
check "result on a full disk: no result file" [ ! -e "$M/b.json" ]
check "result on a full disk: no temporary file" no_tmp
check "result on a full disk: the summary was still printed" grep -q '^SQL statistics:' "$TEST_TMP/b.out"
check "result on a full disk: the journal (elsewhere) ended" grep -q '"type":"end"' "$TEST_TMP/b.jsonl"
check "result on a full disk: the journal, line by line" oracle journal "$TEST_TMP/b.jsonl"

# --- filling up mid-run ---
rm -f "$M/filler" "$M/a.jsonl"
mkdir -p "$M/res/c/g/d"
R=$M/res/c/g/d/i1
set +e
"$DBRIG_BIN" sysbench $C $O --time=6 --run-campaign=c --run-group=g --run-drive=d --run-instance=i1 \
	--result="$R.json" --journal="$R.jsonl" oltp_read_only run >/dev/null 2>"$TEST_TMP/c.err" &
pid=$!
wait_lines "$R.jsonl" '"type":"interval"' 2 # two intervals written, then the disk fills
fill
wait $pid
rc=$?
set -e
check "filled mid-run: exit 1 (got $rc)" [ "$rc" = 1 ]
check "filled mid-run: the journal failure is reported once and the run goes on" [ "$(grep -c -- '--journal' "$TEST_TMP/c.err")" = 1 ]
check "filled mid-run: journal message" grep -qxF \
	"dbrig: --journal: \"$R.jsonl\": write failed: $ENOSPC; the run goes on, the result file will still be written" \
	"$TEST_TMP/c.err"
check "filled mid-run: result message" grep -qxF "dbrig: --result: \"$R.json\": cannot write: $ENOSPC" "$TEST_TMP/c.err"
check "filled mid-run: no result file" [ ! -e "$R.json" ]
check "filled mid-run: no temporary file" no_tmp
n=$(grep -c '"type":"interval"' "$R.jsonl" || true)
check "filled mid-run: the journal kept the intervals before the disk filled ($n)" [ "$n" -ge 1 ]
check "filled mid-run: no end line in the journal" [ -z "$(grep '"type":"end"' "$R.jsonl" || true)" ]
# Every line but a possibly cut last one is whole JSON.
check "filled mid-run: journal lines are whole (a cut last line at most)" python3 -c '
import json,sys
lines=open(sys.argv[1]).read().split("\n")
last=lines.pop()
for l in lines: json.loads(l)' "$R.jsonl"
check "filled mid-run: the journal's whole lines, line by line" oracle journal "$R.jsonl" --killed --cut-ok

# --- a report into a full folder: one line, exit 1, no half-written report ---
set +e
"$DBRIG_BIN" report "$M/res" --out "$M/rep" --compare none --format md,csv >/dev/null 2>"$TEST_TMP/d.err"
rc=$?
set -e
check "report into a full folder: exit 1 (got $rc)" [ "$rc" = 1 ]
check "report into a full folder: names the file and the cause ($(tail -n1 "$TEST_TMP/d.err"))" \
	grep -qE "^dbrig: $M/rep/report[^:]*: $ENOSPC \(expected a writable file; the earlier report, if any, is unchanged\)\$" "$TEST_TMP/d.err"
check "report into a full folder: no temporary file" no_tmp
check "report into a full folder: no empty or partial report file" \
	[ -z "$(find "$M/rep" -type f -size 0 2>/dev/null)" ]

# A report into a folder that already holds one, with too little space for the
# new set (8 KiB free: the new report.md fits, report.html does not): all of the old files stay, none of the new ones appears (security
# review finding 18: report.md was new, html/csv/json old). The fixture's group
# loses a drive between the two reports, so the sets differ.
rm -f "$M/filler"
cp -r "$DBRIG_SOURCE_DIR/tests/fixtures/results/lab-a/2 VMs on 1 drive" "$TEST_TMP/set-res"
"$DBRIG_BIN" report "$TEST_TMP/set-res" --out "$M/set" --compare none >/dev/null 2>&1 || fail "report into an empty folder failed"
before=$(cd "$M/set" && sha256sum report*)
rm -r "$TEST_TMP/set-res/slow-b"
free_kb=$(df -k --output=avail "$M" | tail -n1)
fallocate -l $(((free_kb - 8) * 1024)) "$M/filler" 2>/dev/null || dd if=/dev/zero of="$M/filler" bs=1k count=$((free_kb - 8)) 2>/dev/null
set +e
"$DBRIG_BIN" report "$TEST_TMP/set-res" --out "$M/set" --compare none >/dev/null 2>"$TEST_TMP/set.err"
rc=$?
set -e
check "report over an earlier one, disk full: exit 1 (got $rc)" [ "$rc" = 1 ]
check "report over an earlier one, disk full: one line ($(cat "$TEST_TMP/set.err"))" \
	grep -qE "^dbrig: $M/set/report[^:]*: $ENOSPC \(expected a writable file; the earlier report, if any, is unchanged\)\$" "$TEST_TMP/set.err"
check "report over an earlier one, disk full: every earlier file unchanged, no new one" \
	[ "$(cd "$M/set" && sha256sum report*)" = "$before" ]
check "report over an earlier one, disk full: no temporary file" no_tmp
rm -f "$M/filler"
"$DBRIG_BIN" report "$TEST_TMP/set-res" --out "$M/set" --compare none >/dev/null 2>&1 || fail "report with space again failed"
check "report with space again: the new set replaced the old one" \
	[ "$(grep -c slow-b "$M/set/report.md" "$M/set/report.html" "$M/set/report.json" "$M/set/report-instances.csv" | grep -vc ':0$')" = 0 ]
rm -rf "$M/set" "$TEST_TMP/set-res"

# With space again, the same folder reports the run as unfinished from its journal.
rm -f "$M/filler"
set +e
"$DBRIG_BIN" report "$M/res" --out "$TEST_TMP/rep" --compare none --format csv >/dev/null 2>"$TEST_TMP/e.err"
rc=$?
set -e
check "after freeing space: report exits 0 (got $rc: $(cat "$TEST_TMP/e.err"))" [ "$rc" = 0 ]
if [ -n "$(tail -c1 "$R.jsonl")" ]; then # the disk filled in the middle of a line
	check "after freeing space: the cut last line is ignored with a warning" \
		grep -q "^dbrig: warning: c/g/d/i1.jsonl: line [0-9]*: truncated last line ignored (run ended mid-write)$" "$TEST_TMP/e.err"
else
	check "after freeing space: no truncation warning for whole lines" bash -c "! grep -q truncated '$TEST_TMP/e.err'"
fi
check "after freeing space: the run is reported unfinished from its journal" [ "$(python3 -c '
import csv,sys
r=list(csv.DictReader(open(sys.argv[1])))
print(r[0]["status"], r[0]["from_journal"])' "$TEST_TMP/rep/report-instances.csv" 2>&1)" = "unfinished yes" ]

# --- full for a while mid-run: the journal stops at its first failed write; with space again
# before the end, the result is written and holds every interval itself (format 1.3 leaves
# them to a journal beside it only when that journal holds them all), naming no journal ---
rm -f "$M/filler"
mkdir -p "$M/w"
W=$M/w/i1
set +e
"$DBRIG_BIN" sysbench $C $O --time=5 --result="$W.json" --journal="$W.jsonl" oltp_read_only run \
	>/dev/null 2>"$TEST_TMP/w.err" &
pid=$!
wait_lines "$W.jsonl" '"type":"interval"' 1
fill
for _ in $(seq 100); do grep -q -- '--journal' "$TEST_TMP/w.err" && break; sleep 0.1; done
rm -f "$M/filler"
wait $pid
rc=$?
set -e
check "full for a while: exit 0 (got $rc: $(cat "$TEST_TMP/w.err"))" [ "$rc" = 0 ]
check "full for a while: the journal's failure reported" grep -qF "dbrig: --journal: \"$W.jsonl\": write failed: $ENOSPC" \
	"$TEST_TMP/w.err"
check "full for a while: the result holds every interval, more than its journal, and names no journal" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
n = sum(1 for l in open(sys.argv[2]) if l.endswith("\n") and json.loads(l).get("type") == "interval")
assert "journal" not in r and len(r["intervals"]) > n >= 1, (r.get("journal"), len(r.get("intervals", [])), n)
' "$W.json" "$W.jsonl"
check "full for a while: oracle" oracle result "$W.json"
rm -rf "$M/w"

# --- a campaign whose output folder is on the full file system ---
rm -rf "$M/res" "$M/rep" "$M/filler"
CP=$(free_port) || die "no free port"
cat >"$TEST_TMP/camp.json" <<JSON
{
  "name": "ci-full",
  "workload": {"kind": "sysbench", "test": "oltp_read_only", "options": {"tables": 1, "table-size": 1000}},
  "engine": {"kind": "mariadb", "buffer_pool": "32M", "server_options": {"innodb_log_file_size": "16M"}},
  "target": {"kind": "local", "allow_shared_device": true, "base_port": $CP, "create_drive_dirs": true},
  "drives": [{"name": "da", "path": "$TEST_TMP/drive"}],
  "run_groups": [{"name": "one", "placement": {"da": 1}}],
  "precondition": "1s", "sample": "6s", "threads": 2, "report_interval": "1s",
  "output": "$M/out"
}
JSON
trap 'for p in $(find "$TEST_TMP/drive" -name "*.pid" 2>/dev/null); do kill "$(cat "$p")" 2>/dev/null; done
	umount "$M" 2>/dev/null || umount -l "$M"; cleanup_test' EXIT
ST=$M/out/ci-full/state.json
state_ok() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$ST"; }
fill
set +e
(cd "$TEST_TMP" && "$DBRIG_BIN" campaign camp.json >/dev/null 2>"$TEST_TMP/f.err")
rc=$?
set -e
check "campaign, full before the start: exit 1 (got $rc)" [ "$rc" = 1 ]
# The drive is a folder on this machine's disk: besides preflight's warning (allow_shared_device), one line.
check "campaign, full before the start: one line ($(cat "$TEST_TMP/f.err"))" \
	[ "$(grep -vx 'dbrig: warning: camp\.json: drive da (.*) is on block device [a-z0-9]*, which holds the root file system (allowed by "allow_shared_device": true)' "$TEST_TMP/f.err")" = "dbrig: $ST: cannot write the campaign state: $ENOSPC" ]
check "campaign, full before the start: no state file, no temporary file" bash -c "[ ! -e '$ST' ] && [ -z \"\$(find '$M' -name '*.tmp.*')\" ]"
check "campaign, full before the start: no server was set up" [ ! -e "$TEST_TMP/drive/dbrig-ci-full" ]

# The disk fills while the run is driving: the run fails with the driver's own
# line, the state file stays whole (the last good one), no server is left
# running; with space again, --resume finishes the campaign.
rm -f "$M/filler"
J=$M/out/ci-full/one/da/vm1.jsonl
set +e
(cd "$TEST_TMP" && "$DBRIG_BIN" campaign camp.json >/dev/null 2>"$TEST_TMP/g.err") &
pid=$!
wait_lines "$J" '"type":"interval"' 1
fill
wait $pid
rc=$?
set -e
check "campaign, filled mid-run: exit 1 (got $rc)" [ "$rc" = 1 ]
check "campaign, filled mid-run: the driver's line names the result and the cause" grep -qF \
	"dbrig: the driver of da/vm1 exited with status 1 (see $M/out/ci-full/one/da/vm1.log): dbrig: --result: \"$M/out/ci-full/one/da/vm1.json\": cannot write: $ENOSPC" "$TEST_TMP/g.err"
check "campaign, filled mid-run: says how to continue" grep -qF "dbrig campaign camp.json --resume" "$TEST_TMP/g.err"
check "campaign, filled mid-run: the state file is whole JSON" state_ok
check "campaign, filled mid-run: no result and no temporary file" \
	bash -c "[ ! -e '$M/out/ci-full/one/da/vm1.json' ] && [ -z \"\$(find '$M' -name '*.tmp.*')\" ]"
no_server() { ! pgrep -f "^[^ ]*mariadbd .*$TEST_TMP/drive" >/dev/null; }
check "campaign, filled mid-run: no server left running" no_server
rm -f "$M/filler"
set +e
(cd "$TEST_TMP" && "$DBRIG_BIN" campaign camp.json --resume >/dev/null 2>"$TEST_TMP/h.err")
rc=$?
set -e
check "campaign, --resume after freeing space: exit 0 (got $rc; $(tail -n1 "$TEST_TMP/h.err"))" [ "$rc" = 0 ]
check "campaign, --resume: the run is done" [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["status"])' "$ST")" = done ]
check "campaign, --resume: a complete result" [ "$(json_get "$M/out/ci-full/one/da/vm1.json" "r['status']")" = complete ]
check "campaign, --resume: oracle" oracle result "$M/out/ci-full/one/da/vm1.json" --journal "$M/out/ci-full/one/da/vm1.jsonl"
finish
