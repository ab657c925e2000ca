#!/bin/bash
# The README's main command, twice: scripts/demo.sh runs a shortened variant of
# configs/local-quick.json (same drives, run groups and options; seconds per
# phase, smaller tables) on the local target with real mariadbd servers and the
# real `dbrig sysbench` driver. First run: every instance left a complete
# result that passes the oracle (tests/lib/oracle.py: Little's law,
# percentiles from the buckets, journal = result), every column of summary.txt
# (TPS sum, mean of averages, mean of p99s) and the report's group figures
# agree with what the oracle recomputes from the result files, every restore
# was verified against the golden copy (row counts and CHECKSUM TABLE) after a
# run that wrote to the same data, the report was written, and nothing of the
# instances is left afterwards. Then the finished campaign started again
# without a flag gives one line naming its report and exits 1, changing
# nothing; scripts/demo.sh again (it passes --fresh) moves the first run's
# folder to local-quick.<UTC time of its state.json>/ byte for byte untouched
# and writes a second complete campaign and report. During the first run a
# monitor checks that the password is seen by no one but the drivers and that
# the servers listen on 127.0.0.1 only.
set -uo pipefail
. "$(dirname "$0")/../lib/campaign.sh"
# On a failure, what the servers and their set-up said.
on_fail() {
	local f
	for f in $(find "$T/drives" \( -name install.log -o -name error.log \) 2>/dev/null); do
		echo "== $f" >&2
		tail -n 40 "$f" >&2
	done
}
MPID=
on_exit() { [ -n "$MPID" ] && kill "$MPID" 2>/dev/null; }
need_mariadb
base=$(free_port_block 8) || exit 1

# The demo's own config, shortened: only sizes, durations, the port and threads change.
python3 - "$DBRIG_SOURCE_DIR/configs/local-quick.json" "$T/c.json" "$base" <<'PY' || fail "cannot derive the config"
import json, sys
c = json.load(open(sys.argv[1]))
c["workload"]["options"]["table-size"] = 2000
c["engine"]["buffer_pool"] = "32M"
c["engine"]["server_options"]["innodb_log_file_size"] = "16M"
# Abbreviates bind-address and passes validation: dbrig's own --bind-address must still win (finding 14).
c["engine"]["server_options"]["loose-bind"] = "0.0.0.0"
c["target"]["db_user"] = "ci_user_1"  # not the default: the setup SQL quotes what it is given (finding 6)
c["target"]["base_port"] = int(sys.argv[3])
c.update({"precondition": "1s", "sample": "3s", "threads": 2, "report_interval": "1s"})
json.dump(c, open(sys.argv[2], "w"), indent=1)
PY
export DBRIG_DEMO_CONFIG=$T/c.json DBRIG_QUICK_DIR=$T/drives DBRIG_QUICK_OUTPUT=$T/out DBRIG_SKIP_DEPS=1
D=$T/out/local-quick
demo() { "$DBRIG_SOURCE_DIR/scripts/demo.sh" "$@"; }
cd "$T" || exit 1
demo --plan > plan.txt || fail "scripts/demo.sh --plan failed"
grep -q '2 instances, 2 drives' plan.txt || fail "--plan does not list the run groups"
[ -e "$D" ] && fail "--plan created $D"
# While it runs, a monitor looks at what others could see (README "What happens
# when things fail", passwords; the review found these claims untested): the
# .credentials mode, the drivers' argv and environment, the servers' argv and
# environment, and the servers' listening addresses, which must be 127.0.0.1
# only although the config sets "loose-bind" (security review finding 14).
monitor() {
	local pws=() f p c w
	while :; do
		# One password per drive: a driver has its drive's.
		pws=()
		for f in "$T"/drives/*/dbrig-local-quick/.credentials; do
			[ -f "$f" ] || continue
			pws+=("$(head -n1 "$f")"); echo "MODE $(stat -c %a "$f")"
		done
		# Only this test's processes: other campaigns named local-quick may run on the machine.
		for p in /proc/[0-9]*; do
			c=$(tr '\0' ' ' < "$p/cmdline" 2>/dev/null) || continue
			case "$c" in
			*"--result=$T/"*--run-campaign=local-quick*) echo "DRIVER"
				for w in "${pws[@]}"; do case "$c" in *"$w"*) echo "LEAK argv of a driver";; esac; done
				tr '\0' '\n' < "$p/environ" 2>/dev/null | sed -n 's/^MYSQL_PWD=/ENVPWD /p' ;;
			*mariadbd*--datadir=$T/*) echo "SERVER"
				for w in "${pws[@]}"; do case "$c" in *"$w"*) echo "LEAK argv of a server";; esac; done
				tr '\0' '\n' < "$p/environ" 2>/dev/null | grep -q '^MYSQL_PWD=' && echo "LEAK environment of a server" ;;
			esac
		done
		ss -ltnH 2>/dev/null | awk -v lo="$base" '{ n = split($4, a, ":"); p = a[n] + 0
			if (p >= lo && p < lo + 8 && $4 !~ /^127\.0\.0\.1:/) print "LISTEN " $4 }'
		for w in "${pws[@]}"; do echo "PW $w"; done
		sleep 0.3
	done
}
monitor > monitor.txt 2>/dev/null &
MPID=$!
demo > out.txt 2> err.txt
rc=$?
kill $MPID 2>/dev/null; wait $MPID 2>/dev/null; MPID=
cat out.txt err.txt
[ $rc -eq 0 ] || fail "the first scripts/demo.sh exited $rc"
grep -q '^LEAK' monitor.txt && fail "the password was visible: $(grep '^LEAK' monitor.txt | sort -u)"
grep -q '^LISTEN' monitor.txt && fail "a server listened beyond 127.0.0.1: $(grep '^LISTEN' monitor.txt | sort -u)"
grep -q '^DRIVER' monitor.txt && grep -q '^SERVER' monitor.txt || fail "the monitor never saw a driver and a server"
[ "$(grep '^MODE' monitor.txt | sort -u)" = "MODE 600" ] || fail ".credentials was not 0600: $(grep '^MODE' monitor.txt | sort -u)"
pws=$(grep '^PW ' monitor.txt | cut -d' ' -f2 | sort -u)
[ "$(echo "$pws" | grep -c .)" = 2 ] || fail "expected the two drives' passwords in their .credentials, the monitor read: $pws"
# Every driver seen with MYSQL_PWD had its drive's password there, and at least one was seen.
envs=$(grep '^ENVPWD ' monitor.txt | cut -d' ' -f2 | sort -u)
[ -n "$envs" ] || fail "no driver had the password in MYSQL_PWD"
for w in $envs; do echo "$pws" | grep -qx -- "$w" || fail "a driver's MYSQL_PWD is not a drive's password"; done
for pw in $pws; do
	grep -rqF -- "$pw" out plan.txt out.txt err.txt && fail "the password is in a result, journal, log or output"
done

# check_campaign DIR: complete results, summary = sum of instances, verified restores, a complete report.
check_campaign() {
	python3 - "$1" <<'PY'
import json, os, sys
d = sys.argv[1]
st = json.load(open(os.path.join(d, "state.json")))
err = []
expect = {"1-instance-1-drive": ["drive-a/vm1"], "2-instances-1-drive": ["drive-a/vm1", "drive-a/vm2"],
          "2-instances-2-drives": ["drive-a/vm1", "drive-b/vm1"]}
sums = {}
for g, insts in expect.items():
    tot = 0.0
    for i in insts:
        p = os.path.join(d, g, i + ".json")
        if not os.path.exists(p):
            err.append("missing result " + p); continue
        r = json.load(open(p))
        if r["status"] != "complete": err.append(p + " status " + r["status"])
        if r["run"]["run_group"] == "" or r["run"]["vm_count"] != len(insts): err.append(p + " run identity " + str(r["run"]))
        s = r["phases"]["sample"]
        if s["tps"] <= 0: err.append(p + " tps 0")
        if s["queries"]["write"] <= 0: err.append(p + " wrote nothing, the restore check proves little")
        if not os.path.exists(p + "l"): err.append("missing journal " + p + "l")
        tot += s["tps"]
    sums[g] = tot
# The summary's group TPS is the sum of its instances' sample TPS.
rows = {}
for line in open(os.path.join(d, "summary.txt")):
    # fixed columns: run group (28), drive (14), then instances, TPS, avg, p99
    name, drive, rest = line[:28].strip(), line[29:43].strip(), line[44:].split()
    key = {"1 instance, 1 drive": "1-instance-1-drive", "2 instances, 1 drive": "2-instances-1-drive",
           "2 instances, 2 drives": "2-instances-2-drives"}.get(name)
    if key and (drive == "(all drives)" or key != "2-instances-2-drives"):
        rows[key] = float(rest[1])
for g, tot in sums.items():
    if g not in rows: err.append("summary has no row for " + g)
    elif abs(rows[g] - tot) > 0.01 + 1e-6 * tot: err.append("%s: summary TPS %.2f != sum of instances %.2f" % (g, rows[g], tot))
# Every run done once, every restore verified against its drive's golden copy.
for r in st["runs"]:
    if r["status"] != "done" or r["attempts"] != 1: err.append("run %s: %s after %d attempts" % (r["id"], r["status"], r["attempts"]))
    if not (r["restore_check"] or "").startswith("verified: "): err.append("run %s: restore %s" % (r["id"], r["restore_check"]))
for k in ("drive-a", "drive-b"):
    g = st["golden"].get(k, "")
    if "rows=4000" not in g or "sbtest1.rows=2000" not in g or "checksum=" not in g: err.append("golden %s: %s" % (k, g))
# A complete report: every file, five groups (four drive x run group rows and the all-drives total)
# and five instance runs, all complete, read from this campaign's own folder.
rd = os.path.join(d, "report")
for f in ("report.html", "report.md", "report.json", "report-groups.csv", "report-instances.csv"):
    if not os.path.getsize(os.path.join(rd, f)): err.append("empty report file " + f)
rep = json.load(open(os.path.join(rd, "report.json")))
if len(rep["groups"]) != 5 or any(g["status"] != "complete" for g in rep["groups"]):
    err.append("report groups: " + str([(g["label"], g["status"]) for g in rep["groups"]]))
paths = sorted(i["path"] for i in rep["instances"])
want = sorted("%s/%s.json" % (g, i) for g, insts in expect.items() for i in insts)
if paths != want or not all(i["complete"] for i in rep["instances"]): err.append("report instances: %s" % paths)
# Every result and journal, every column of summary.txt and the report's group
# figures (tpmC among them), from the result files: tests/lib/oracle.py.
if os.system("python3 %s/tests/lib/oracle.py campaign '%s'" % (os.environ["DBRIG_SOURCE_DIR"], d)): err.append("oracle")
for e in err: print("FAIL:", e, file=sys.stderr)
sys.exit(1 if err else 0)
PY
}
check_campaign "$D" || fail "the first campaign"
# Each restored instance matched the golden copy of its drive, also after vm1 had run a workload.
n=$(grep -c "restore verified" err.txt)
[ "$n" -eq 5 ] || fail "expected 5 verified restores, saw $n"
for k in drive-a drive-b; do
	g=$(python3 -c "import json;print(json.load(open('$D/state.json'))['golden']['$k'])")
	grep "$k/vm" err.txt | grep "restore verified" | grep -vqF "($g)" && fail "a restore on $k differs from its golden copy"
done
grep -qx "report: $D/report/" out.txt || fail "no 'report: $D/report/' line"
# keep is false: the instances and golden copies are gone, the drive folders stay.
[ -d "$T/drives/drive-a" ] && [ -d "$T/drives/drive-b" ] || fail "a drive folder was removed"
[ -e "$T/drives/drive-a/dbrig-local-quick" ] && fail "the campaign folder on drive-a was left behind"
[ -e "$T/drives/drive-b/dbrig-local-quick" ] && fail "the campaign folder on drive-b was left behind"
# No server of this campaign is left running.
pgrep -f "datadir=$T/" >/dev/null && fail "a mariadbd of the test is still running"

# Every file of the first campaign, with its checksum, and the name --fresh must give it.
tree_sums() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
sums1=$(tree_sums "$D")
aside=$T/out/local-quick.$(date -u -r "$D/state.json" +%Y%m%dT%H%M%SZ)

# The finished campaign started again without a flag: one line, exit 1, nothing touched.
"$DBRIG_BIN" campaign c.json > again.out 2> again.err
rc=$?
[ $rc -eq 1 ] || fail "a finished campaign started again exited $rc (expected 1): $(cat again.err)"
[ "$(wc -l < again.err)" -eq 1 ] && [ ! -s again.out ] || fail "expected one line, got: $(cat again.out again.err)"
grep -qF "dbrig: $D: campaign local-quick already finished (3 of 3 runs done), its report is $D/report/report.html (expected --fresh to run it again, which keeps these results as $aside/)" again.err ||
	fail "not the finished campaign's line: $(cat again.err)"
[ "$sums1" = "$(tree_sums "$D")" ] || fail "refusing the finished campaign changed its files"

# The demo again: --fresh keeps the first campaign as $aside and runs a second one.
demo > out2.txt 2> err2.txt
rc=$?
cat out2.txt err2.txt
[ $rc -eq 0 ] || fail "the second scripts/demo.sh exited $rc"
[ -d "$aside" ] || fail "the first campaign is not at $aside: $(ls "$T/out")"
[ "$(ls "$T/out" | wc -l)" -eq 2 ] || fail "expected local-quick and $(basename "$aside") in out/: $(ls "$T/out")"
grep -qF "the earlier results ($D) are now $aside/" err2.txt || fail "the move was not announced"
[ "$sums1" = "$(tree_sums "$aside")" ] || fail "the first campaign's files changed when they were moved aside"
check_campaign "$aside" || fail "the first campaign, moved aside"
check_campaign "$D" || fail "the second campaign"
grep -qx "report: $D/report/" out2.txt || fail "no 'report: $D/report/' line after the second run"
cmp -s "$aside/state.json" "$D/state.json" && fail "the second campaign did not write its own state"
pgrep -f "datadir=$T/" >/dev/null && fail "a mariadbd of the test is still running"
echo "campaign_local: ok"
