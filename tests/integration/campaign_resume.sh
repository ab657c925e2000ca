#!/bin/bash
# Kill a local campaign with SIGKILL in the middle of its third run; started
# again without a flag it says in one line that it is unfinished (exit 1);
# then --resume it: the finished runs are neither repeated nor rewritten, the
# cut-off run restarts from its restore with its partial files kept apart
# (<instance>.partial-1.*), and every run ends with a complete result. On the
# way, the resume is killed inside the state save that ends run 3 (SIGKILL in
# rename(), tests/lib/killshim.c): the state file stays whole and as it was,
# so run 3 is redone; and a resume whose golden copy's fingerprint was
# altered fails its restore check ("differs from the golden copy", exit 1,
# run marked failed) until the fingerprint is right again.
set -uo pipefail
. "$(dirname "$0")/../lib/campaign.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/killshim.sh"
CPID=
on_exit() { [ -n "$CPID" ] && kill -9 "$CPID" 2>/dev/null; }
on_fail() { [ -f "$T/err1.txt" ] && tail -5 "$T/err1.txt" >&2; [ -f "$T/err2.txt" ] && tail -20 "$T/err2.txt" >&2; }
need_mariadb
base=$(free_port_block 5) || exit 1
cat > "$T/c.json" <<JSON
{
  "name": "ci-resume",
  "workload": {"kind": "sysbench", "test": "oltp_read_write", "options": {"tables": 1, "table-size": 2000}},
  "engine": {"kind": "mariadb", "buffer_pool": "32M", "server_options": {"innodb_log_file_size": "16M"}},
  "target": {"kind": "local", "base_port": $base, "create_drive_dirs": true},
  "drives": [{"name": "da", "path": "$T/a"}],
  "run_groups": [{"name": "one", "placement": {"da": 1}}, {"name": "two", "placement": {"da": 2}}],
  "repetitions": 2,
  "precondition": "2s", "sample": "6s", "threads": 2, "rate": 150, "report_interval": "1s",
  "output": "$T/out", "verify_restore": true
}
JSON
cd "$T" || exit 1
S=$T/out/ci-resume/state.json
status() { python3 -c "import json,sys;print(json.load(open('$S'))['runs'][$1]['status'])" 2>/dev/null; }

"$DBRIG_BIN" campaign c.json > out1.txt 2> err1.txt &
CPID=$!
# Wait until run 3 ("two" #1) has driven 2 s of its sample, then SIGKILL.
J3=$T/out/ci-resume/two/da/vm1-rep1.jsonl
for _ in $(seq 1 1200); do
	[ "$(grep -c '"phase":"sample"' "$J3" 2>/dev/null)" -ge 2 ] && break
	kill -0 $CPID 2>/dev/null || fail "the campaign ended before its third run"
	sleep 0.1
done
[ "$(status 2)" = running ] || fail "the third run never started"
[ "$(status 0)" = done ] && [ "$(status 1)" = done ] || fail "runs 1-2 are not done before the kill"
sum_before=$(sha256sum out/ci-resume/one/da/vm1-rep1.json out/ci-resume/one/da/vm1-rep2.json)
mtime_before=$(stat -c %Y out/ci-resume/one/da/vm1-rep1.json)
kill -9 $CPID
wait $CPID 2>/dev/null
CPID=
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$S" || fail "state.json is not whole after kill -9"

# Started again without a flag, the unfinished campaign points at --resume in one line, exit 1, nothing touched.
state_before=$(sha256sum "$S")
aside=$T/out/ci-resume.$(date -u -r "$S" +%Y%m%dT%H%M%SZ)
"$DBRIG_BIN" campaign c.json > again.out 2> again.err
rc=$?
[ $rc -eq 1 ] || fail "an unfinished campaign started again exited $rc (expected 1): $(cat again.err)"
[ "$(wc -l < again.err)" -eq 1 ] && [ ! -s again.out ] || fail "expected one line, got: $(cat again.out again.err)"
grep -qF "dbrig: $T/out/ci-resume: campaign ci-resume is unfinished (2 of 4 runs done; expected --resume to continue it, or --fresh to start again, which keeps these results as $aside/)" again.err ||
	fail "not the unfinished campaign's line: $(cat again.err)"
[ "$state_before" = "$(sha256sum "$S")" ] || fail "refusing the unfinished campaign changed its state"

# Resume, killed inside the state save that marks run 3 done: its text, from the file as it is.
frag=$(python3 -c '
import sys
s = open(sys.argv[1]).read()
i = s.index("\"id\": \"two#1\"")
j = s.index("\"status\": \"running\"", i) + len("\"status\": \"running\"")
print(s[i:j].replace("\"status\": \"running\"", "\"status\": \"done\""))' "$S") || fail "no running run 3 in the state file"
DBRIG_KILL_CONTENT=$frag killed_at_rename /state.json "$DBRIG_BIN" campaign c.json --resume > out1b.txt 2> err1b.txt
rc=$?
[ $rc -eq 137 ] || fail "the resume was not killed in the state save ending run 3 (exit $rc): $(tail -3 err1b.txt)"
[ "$(status 2)" = running ] || fail "killed inside the state save, state.json no longer holds the earlier state (run 3: $(status 2))"
ls "$S".tmp.* >/dev/null 2>&1 || fail "no temporary state file beside state.json"
grep -qF "$frag" "$S".tmp.* || fail "the temporary state file does not hold the new state"
rm -f "$S".tmp.*

# An altered golden copy: its recorded fingerprint no longer matches what a restore gives.
G=$T/a/dbrig-ci-resume/golden/.complete
cp "$G" "$T/golden.ok"
sed -i 's/checksum=\([0-9]*\)/checksum=1\1/' "$G"
cmp -s "$G" "$T/golden.ok" && fail "could not alter $G"
"$DBRIG_BIN" campaign c.json --resume > outbad.txt 2> errbad.txt
rc=$?
[ $rc -eq 1 ] || fail "a restore that differs from the golden copy: --resume exited $rc, expected 1"
grep -q "^dbrig: da/vm1: the restored database differs from the golden copy (tables=1 .*, expected tables=1 .*checksum=1" errbad.txt ||
	fail "no 'differs from the golden copy' line: $(grep -v '^dbrig: info' errbad.txt | tail -3)"
[ "$(status 2)" = failed ] || fail "the run whose restore differs is $(status 2), not failed"
grep -q "run 4/4" errbad.txt && fail "the campaign went on after a failed restore check"
cp "$T/golden.ok" "$G"

"$DBRIG_BIN" campaign c.json --resume > out2.txt 2> err2.txt
rc=$?
[ $rc -eq 0 ] || fail "--resume exited $rc"
cat out2.txt
sum_after=$(sha256sum out/ci-resume/one/da/vm1-rep1.json out/ci-resume/one/da/vm1-rep2.json)
[ "$sum_before" = "$sum_after" ] || fail "a finished run's result was rewritten"
[ "$mtime_before" = "$(stat -c %Y out/ci-resume/one/da/vm1-rep1.json)" ] || fail "a finished run's result was touched"
grep -q 'run 1/4' err2.txt && fail "the resume repeated finished run 1"
grep -q 'run 2/4' err2.txt && fail "the resume repeated finished run 2"
grep -q 'run 3/4' err2.txt || fail "the resume did not rerun the cut-off run 3"
ls out/ci-resume/two/da/vm1-rep1.partial-1.* >/dev/null 2>&1 || fail "the cut-off run's partial files were not kept apart"
ls out/ci-resume/two/da/vm1-rep1.partial-2.json >/dev/null 2>&1 || fail "the second attempt's files were not kept apart"
oracle journal out/ci-resume/two/da/vm1-rep1.partial-1.jsonl || fail "the cut-off run's journal"
python3 - "$T/out/ci-resume" <<'PY' || exit 1
import json, os, sys
d = sys.argv[1]
st = json.load(open(os.path.join(d, "state.json")))
err = []
att = {"one#1": 1, "one#2": 1, "two#1": 3, "two#2": 1}
for r in st["runs"]:
    if r["status"] != "done": err.append("run %s is %s" % (r["id"], r["status"]))
    if r["attempts"] != att[r["id"]]: err.append("run %s: %d attempts, expected %d" % (r["id"], r["attempts"], att[r["id"]]))
    if not (r["restore_check"] or "").startswith("verified"): err.append("run %s: restore %s" % (r["id"], r["restore_check"]))
files = ["one/da/vm1-rep1", "one/da/vm1-rep2", "two/da/vm1-rep1", "two/da/vm2-rep1", "two/da/vm1-rep2", "two/da/vm2-rep2"]
for f in files:
    p = os.path.join(d, f + ".json")
    if not os.path.exists(p): err.append("missing " + p); continue
    r = json.load(open(p))
    if r["status"] != "complete" or r["phases"]["sample"]["tps"] <= 0: err.append(p + ": " + r["status"])
    # "rate" is per instance: every driver ran its own open loop at 150/s.
    if r["workload"]["params"].get("rate") != 150: err.append(p + ": rate " + str(r["workload"]["params"].get("rate")))
if os.system("python3 %s/tests/lib/oracle.py campaign '%s'" % (os.environ["DBRIG_SOURCE_DIR"], d)): err.append("oracle")
for e in err: print("FAIL:", e, file=sys.stderr)
sys.exit(1 if err else 0)
PY
pgrep -f "datadir=$T/" >/dev/null && fail "a mariadbd of the test is still running"
# Resuming a finished campaign only summarises: no golden copy, no run, no file rewritten.
"$DBRIG_BIN" campaign c.json --resume > out3.txt 2> err3.txt || fail "--resume of a finished campaign failed"
grep -Eq 'golden|run [0-9]/' err3.txt && fail "--resume of a finished campaign did work again: $(cat err3.txt)"
[ "$sum_before" = "$(sha256sum out/ci-resume/one/da/vm1-rep1.json out/ci-resume/one/da/vm1-rep2.json)" ] || fail "results rewritten"
grep -q "TPS (sum)" out3.txt || fail "no summary after resuming a finished campaign"
[ -e "$T/a/dbrig-ci-resume" ] && fail "resuming a finished campaign provisioned instances again"
echo "campaign_resume: ok"
