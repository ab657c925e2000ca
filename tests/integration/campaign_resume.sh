#!/bin/bash
# Kill a local campaign with SIGKILL in the middle of its third run; started
# again without a flag it says in one line that it is unfinished (exit 1);
# then --resume it: the finished runs are neither repeated nor rewritten, the
# cut-off run restarts from its restore with its partial files kept apart
# (<instance>.partial-1.*), and every run ends with a complete result; the
# report counts each run once, lists the partial as history and agrees with
# the campaign's summary. On the way, the resume is killed inside the state
# save that ends run 3 (SIGKILL in rename(), tests/lib/killshim.c): the state
# file stays whole and as it was, so run 3 is redone; and a resume whose golden
# copy's fingerprint was altered fails its restore check ("differs from the
# golden copy", exit 1, run marked failed) until the fingerprint is right again.
set -uo pipefail
. "$(dirname "$0")/../lib/campaign.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/killshim.sh"
CPID=
FPID=
on_exit() { [ -n "$CPID" ] && kill -9 "$CPID" 2>/dev/null; [ -n "$FPID" ] && kill "$FPID" 2>/dev/null; }
on_fail() { [ -f "$T/err1.txt" ] && tail -5 "$T/err1.txt" >&2; [ -f "$T/err2.txt" ] && tail -20 "$T/err2.txt" >&2; }
need_mariadb
base=$(free_port_block 5) || exit 1
cat > "$T/c.json" <<JSON
{
  "name": "ci-resume",
  "workload": {"kind": "sysbench", "test": "oltp_read_write", "options": {"tables": 1, "table-size": 2000}},
  "engine": {"kind": "mariadb", "buffer_pool": "32M", "server_options": {"innodb_log_file_size": "16M"}},
  "target": {"kind": "local", "allow_shared_device": true, "base_port": $base, "create_drive_dirs": true},
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
wait_status() { # wait_status RUN STATUS: until run RUN (0-based) has STATUS
	for _ in $(seq 1 600); do
		[ "$(status "$1")" = "$2" ] && return 0
		kill -0 $CPID 2>/dev/null || fail "the campaign ended before run $(($1 + 1)) was $2"
		sleep 0.2
	done
	fail "run $(($1 + 1)) never was $2"
}
# A second dbrig on the same campaign folder while this one drives its first
# run is refused before it touches anything (security review finding 4: a
# concurrent --resume SIGTERMed the live servers and drivers and renamed the
# live results). Done during run 1, so that the time these commands take on a
# loaded machine cannot make the kill below miss run 3.
wait_status 0 running
for args in "--resume" "" "--fresh"; do
	"$DBRIG_BIN" campaign c.json $args > out-c.txt 2> err-c.txt; rc=$?
	[ $rc -eq 1 ] || fail "a second 'campaign $args' beside the running one exited $rc: $(cat err-c.txt)"
	grep -q "ci-resume: campaign \"ci-resume\" is already running here (pid $CPID: .*dbrig campaign c.json)" err-c.txt ||
		fail "a second 'campaign $args' does not name the holder: $(cat err-c.txt)"
	[ "$(wc -l < err-c.txt)" = 1 ] || fail "a second 'campaign $args' printed more than one line: $(cat err-c.txt)"
done
"$DBRIG_BIN" teardown c.json > /dev/null 2> err-c.txt && fail "teardown beside the running campaign was not refused"
grep -q "is already running here (pid $CPID" err-c.txt || fail "teardown beside the campaign: $(cat err-c.txt)"
# The same campaign file with a relative output, started from another folder:
# its output lock is another file, but its drive is the running one's, so it
# is refused in one line naming the holder, and its server is left alone
# (security review N1: it SIGTERMed the live server, whose result still said
# complete). A server whose dbrig lives is never stopped either.
sed 's|"output": "[^"]*"|"output": "rel-out"|' c.json > c-rel.json
mkdir -p other
(cd other && "$DBRIG_BIN" campaign ../c-rel.json > ../out-c.txt 2> ../err-c.txt); rc=$?
[ $rc -eq 1 ] || fail "the same campaign from another folder exited $rc: $(cat err-c.txt)"
grep -q "drive da ($T/a) is in use by campaign \"ci-resume\" from another folder (pid $CPID: .*dbrig campaign c.json)" err-c.txt ||
	fail "the same campaign from another folder does not name the drive's holder: $(cat err-c.txt)"
[ "$(wc -l < err-c.txt)" = 1 ] || fail "the same campaign from another folder printed more than one line: $(cat err-c.txt)"
[ -e other/rel-out ] && fail "the refused campaign left its results folder other/rel-out"
(cd other && "$DBRIG_BIN" teardown ../c-rel.json > /dev/null 2> ../err-c.txt) && fail "teardown from another folder was not refused"
grep -q "drive da .* is in use by campaign" err-c.txt || fail "teardown from another folder: $(cat err-c.txt)"
ls out/ci-resume/one/da/vm1-rep1.partial-* >/dev/null 2>&1 && fail "the refused resume renamed the live results"
kill -0 $CPID 2>/dev/null || fail "the running campaign did not survive the second one"
case "$(status 0)" in running | done) ;; *) fail "the running run was disturbed: $(status 0)" ;; esac
# Run 3 ("two" #1) driving: both its journals have an interval line. Then SIGKILL.
wait_status 2 running
for _ in $(seq 1 600); do
	n=0
	for j in out/ci-resume/two/da/vm1-rep1.jsonl out/ci-resume/two/da/vm2-rep1.jsonl; do
		grep -q '"interval"' "$j" 2>/dev/null && n=$((n + 1))
	done
	[ $n = 2 ] && break
	[ "$(status 2)" = running ] || fail "run 3 ended before its drivers were seen driving: $(status 2)"
	sleep 0.2
done
[ $n = 2 ] || fail "the drivers of run 3 never wrote an interval"
[ "$(status 2)" = running ] || fail "run 3 is $(status 2) before the kill (expected running)"
# And run 3 has driven 2 s of its sample (vm1's journal).
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
# A pid in the state file whose driver is gone may belong to anything by now:
# here a process named dbrig (a copy of sleep) that is no driver of this run.
# The resume must leave it alone (finding 4: it SIGTERMed any "dbrig").
cp "$(command -v sleep)" "$T/dbrig"
"$T/dbrig" 300 &
FPID=$!
python3 - "$S" "$FPID" <<'PY'
import json, sys
st = json.load(open(sys.argv[1]))
st["runs"][2]["driver_pids"] = st["runs"][2].get("driver_pids", []) + [int(sys.argv[2])]
json.dump(st, open(sys.argv[1], "w"), indent=2)  # as dbrig writes it: the resume below is killed by the text of run 3
PY

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

# The campaign file edited: threads and sample change what is measured, so --resume (and --plan)
# exit 1 with one line naming them and --fresh; a new description changes nothing measured.
run_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$S")
python3 - c.json edited.json desc.json <<'PY' || fail "cannot edit the config"
import json, sys
c = json.load(open(sys.argv[1]))
json.dump(dict(c, threads=4, sample="7s", description="edited"), open(sys.argv[2], "w"))
json.dump(dict(c, description="only the words changed"), open(sys.argv[3], "w"))
PY
for args in "--resume" "--plan"; do
	"$DBRIG_BIN" campaign edited.json $args > edited.out 2> edited.err
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l < edited.err)" -eq 1 ] || fail "an edited config with $args: exit $rc (expected 1, one line): $(cat edited.err)"
	grep -qF "dbrig: $S: the campaign file changed what is measured since these runs: sample, threads (expected the same settings to resume; --fresh starts again, keeping these results under another name)" edited.err ||
		fail "not the edited-config line: $(cat edited.err)"
done
"$DBRIG_BIN" campaign desc.json --plan > desc.out 2> desc.err || fail "a new description refused the state: $(cat desc.err)"
grep -q '\[done\]' desc.out || fail "--plan with a new description shows no finished run: $(cat desc.out)"
[ "$state_before" = "$(sha256sum "$S")" ] || fail "refusing the edited config changed the state"

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
kill -0 "$FPID" 2>/dev/null || fail "the resume killed a process that is no driver of the run (pid $FPID)"
[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$S")" = "$run_id" ] ||
	fail "--resume changed the campaign run's id"
kill "$FPID"; wait "$FPID" 2>/dev/null
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
# The report after the resume counts each run once (security review finding 1:
# the kept .partial-1 attempt was a second result of "two" repetition 1, its TPS
# in the sum and the group INCOMPLETE), lists the attempt as history, and agrees
# with the campaign's own text summary.
R=$T/out/ci-resume/report
[ -f "$R/report.json" ] || fail "no report after the resume: $(cat "$T/out/ci-resume/report.log" 2>/dev/null)"
grep -q "instances missing\|incomplete run" "$T/out/ci-resume/report.log" &&
	fail "the report warns about the resumed run: $(cat "$T/out/ci-resume/report.log")"
grep -q '^## Superseded attempts' "$R/report.md" || fail "report.md does not list the superseded attempt"
grep -q '^| two/da/vm1-rep1.partial-1.json' "$R/report.md" || fail "report.md does not name two/da/vm1-rep1.partial-1.json"
python3 - "$R/report.json" "$T/out2.txt" <<'PY' || exit 1
import json, sys
rep = json.load(open(sys.argv[1]))
err = []
groups = {g["key"]["run_group"]: g for g in rep["groups"] if not g["all_drives"]}
for name, vms in (("one", 1), ("two", 2)):
    g = groups[name]
    if g["status"] != "complete": err.append("group %s is %s" % (name, g["status"]))
    for r in g["repetitions"]:
        if len(r["results"]) != vms:
            err.append("group %s rep %d counts %d results for %d VMs: %s" % (name, r["repetition"], len(r["results"]), vms, r["results"]))
        if any(".partial-" in p for p in r["results"]): err.append("group %s counts a partial: %s" % (name, r["results"]))
if not any(s["path"].startswith("two/da/vm1-rep1.partial-1") for s in rep["superseded"]):
    err.append("report.json has no superseded attempt two/da/vm1-rep1.partial-1: %s" % [s["path"] for s in rep["superseded"]])
# The campaign's summary: "<group> <drive> <instances> <TPS sum> ..." per group x drive.
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) >= 4 and f[0] in groups and f[1] == "da":
        want = groups[f[0]]["over_repetitions"]["tps_sum"]["mean"]
        if abs(float(f[3]) - want) > 0.01:
            err.append("summary says %s TPS for %s, the report %.2f" % (f[3], f[0], want))
        groups[f[0]]["seen"] = True
err += ["group %s is not in the summary" % n for n, g in groups.items() if not g.get("seen")]
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
