#!/bin/bash
# A short campaign on the local target with real mariadbd servers and the real
# `dbrig sysbench` driver: two drives (folders), run groups of 1 and 2 instances
# on one drive and 1 instance on each drive, seconds per phase. Checks that every
# instance left a complete result, that the summary's group TPS is the sum of its
# instances', that every restore was verified against the golden copy (row
# counts and CHECKSUM TABLE) after a run that wrote to the same data, that the
# report ran, and that nothing of the instances is left afterwards.
set -uo pipefail
. "$(dirname "$0")/../lib/campaign.sh"
CPID=
on_exit() { [ -n "$CPID" ] && kill "$CPID" 2>/dev/null; }
need_mariadb
base=$(free_port_block 8) || exit 1

cat > "$T/c.json" <<JSON
{
  "name": "ci-local",
  "workload": {"kind": "sysbench", "test": "oltp_read_write", "options": {"tables": 2, "table-size": 2000}},
  "engine": {"kind": "mariadb", "buffer_pool": "32M", "server_options": {"innodb_log_file_size": "16M"}},
  "target": {"kind": "local", "base_port": $base, "create_drive_dirs": true},
  "drives": [{"name": "da", "path": "$T/a"}, {"name": "db", "path": "$T/b"}],
  "run_groups": [
    {"name": "1 instance, 1 drive", "placement": {"da": 1}},
    {"name": "2 instances, 1 drive", "placement": {"da": 2}},
    {"name": "2 instances, 2 drives", "placement": {"da": 1, "db": 1}}
  ],
  "precondition": "2s", "sample": "4s", "threads": 2, "report_interval": "1s",
  "percentiles": [95, 99], "output": "$T/out", "verify_restore": true
}
JSON
cd "$T" || exit 1
"$DBRIG_BIN" campaign c.json --plan > plan.txt || fail "--plan failed"
grep -q '2 instances, 2 drives' plan.txt || fail "--plan does not list the run groups"
"$DBRIG_BIN" campaign c.json > out.txt 2> err.txt
rc=$?
cat out.txt err.txt
[ $rc -eq 0 ] || fail "campaign exited $rc"

python3 - "$T/out/ci-local" <<'PY' || exit 1
import json, os, sys
d = sys.argv[1]
st = json.load(open(os.path.join(d, "state.json")))
err = []
expect = {"1-instance-1-drive": ["da/vm1"], "2-instances-1-drive": ["da/vm1", "da/vm2"],
          "2-instances-2-drives": ["da/vm1", "db/vm1"]}
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
    drives = {"1-instance-1-drive#1": ["da"], "2-instances-1-drive#1": ["da"], "2-instances-2-drives#1": ["da", "db"]}[r["id"]]
    if not (r["restore_check"] or "").startswith("verified: "): err.append("run %s: restore %s" % (r["id"], r["restore_check"]))
for k in ("da", "db"):
    g = st["golden"].get(k, "")
    if "rows=4000" not in g or "sbtest1.rows=2000" not in g or "checksum=" not in g: err.append("golden %s: %s" % (k, g))
for e in err: print("FAIL:", e, file=sys.stderr)
sys.exit(1 if err else 0)
PY
# Each restored instance matched the golden copy of its drive, also after vm1 had run a workload.
n=$(grep -c "restore verified" err.txt)
[ "$n" -eq 5 ] || fail "expected 5 verified restores, saw $n"
for k in da db; do
	g=$(python3 -c "import json;print(json.load(open('$T/out/ci-local/state.json'))['golden']['$k'])")
	grep "$k/vm" err.txt | grep "restore verified" | grep -vqF "($g)" && fail "a restore on $k differs from its golden copy"
done
grep -q "^report: " out.txt || echo "note: dbrig report did not produce a report (see out/ci-local/report.log)" >&2
# keep is false: the instances and golden copies are gone, the drive folders stay.
[ -d "$T/a" ] && [ -d "$T/b" ] || fail "a drive folder was removed"
[ -e "$T/a/dbrig-ci-local" ] && fail "the campaign folder on drive da was left behind"
[ -e "$T/b/dbrig-ci-local" ] && fail "the campaign folder on drive db was left behind"
# No server of this campaign is left running.
pgrep -f "datadir=$T/" >/dev/null && fail "a mariadbd of the test is still running"
# A second start without --resume is refused (exit 2); a resume of a finished campaign runs nothing.
"$DBRIG_BIN" campaign c.json >/dev/null 2>&1; [ $? -eq 2 ] || fail "a second start without --resume was not refused"
echo "campaign_local: ok"
