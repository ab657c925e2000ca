#!/bin/bash
# dbrig report on the hand-made fixtures (tests/fixtures/results) must produce
# exactly the golden Markdown, CSV and JSON of tests/golden/report/. Bad input
# to report and published is in the one bad-input corpus (tests/bad-input/).
# UPDATE_GOLDEN=1 rewrites the golden files (review the diff before committing).
set -u
: "${DBRIG_BIN:?set by ctest}" "${DBRIG_SOURCE_DIR:?set by ctest}"
FIX="$DBRIG_SOURCE_DIR/tests/fixtures"
GOLD="$DBRIG_SOURCE_DIR/tests/golden/report"
PUB="$DBRIG_SOURCE_DIR/reports/published"
WORK=$(mktemp -d "${DBRIG_BUILD_DIR:-/tmp}/report-golden.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail=0

check() { # name, condition message
	echo "FAIL: $*" >&2
	fail=1
}

(cd "$FIX" && "$DBRIG_BIN" report results --out "$WORK/out" --compare "$PUB" --format md,csv,json) \
	2>"$WORK/stderr" || check "report exited $?: $(cat "$WORK/stderr")"
for f in report.md report-groups.csv report-instances.csv report-compare.csv report.json; do
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$WORK/out/$f" "$GOLD/$f"
		continue
	fi
	diff -u "$GOLD/$f" "$WORK/out/$f" >&2 || check "$f differs from tests/golden/report/$f"
done
# One writer per file: a campaign now writes its telemetry of a run to <instance>.telemetry.json
# beside the driver's result instead of into it. The same fixtures split that way (every result's
# telemetry, test bed and interval telemetry moved out) must give the same report, byte for byte.
if [ "${UPDATE_GOLDEN:-0}" != 1 ]; then
	mkdir -p "$WORK/split" && cp -r "$FIX/results" "$WORK/split/results"
	python3 - "$WORK/split/results" <<'PY' || check "cannot split the fixtures' telemetry out"
import json, os, sys
n = 0
for dp, _, fs in os.walk(sys.argv[1]):
    for f in fs:
        p = os.path.join(dp, f)
        if not f.endswith(".json"):
            continue
        r = json.load(open(p))
        if not str(r.get("schema", "")).startswith("dbrig.result/") or "telemetry" not in r:
            continue
        t = {"schema": "dbrig.telemetry/1.0", "result": f, "telemetry": r.pop("telemetry")}
        if "test_bed" in r:
            t["test_bed"] = r.pop("test_bed")
        t["intervals"] = [{"phase": iv["phase"], "t": iv["t"], "telemetry": iv.pop("telemetry")}
                          for iv in r.get("intervals", []) if "telemetry" in iv]
        json.dump(r, open(p, "w"), indent=2)
        json.dump(t, open(p[:-5] + ".telemetry.json", "w"), indent=2)
        n += 1
if n < 5:
    sys.exit("only %d fixtures carry telemetry" % n)
PY
	(cd "$WORK/split" && "$DBRIG_BIN" report results --out "$WORK/split/out" --compare "$PUB" --format md,csv,json) \
		2>"$WORK/split/stderr" || check "report of the split fixtures exited $?: $(cat "$WORK/split/stderr")"
	for f in report.md report-groups.csv report-instances.csv report-compare.csv report.json; do
		diff -u "$GOLD/$f" "$WORK/split/out/$f" >&2 || check "$f of the fixtures with telemetry files differs from tests/golden/report/$f"
	done
	diff -u <(grep -v '^dbrig: wrote ' "$WORK/stderr") <(grep -v '^dbrig: wrote ' "$WORK/split/stderr") >&2 ||
		check "the split fixtures' report warns otherwise"
fi
# The goldens are not their own proof: the published-method figures of every
# group recomputed from the fixtures by tests/lib/oracle.py (sum of TPS, mean
# of the instances' averages and p99s, pooled p99 of the merged buckets, tpmC).
python3 "$DBRIG_SOURCE_DIR/tests/lib/oracle.py" groups "$FIX/results" "$GOLD/report-groups.csv" >&2 ||
	check "tests/golden/report/report-groups.csv disagrees with the fixtures"
[ -e "$WORK/out/report.html" ] && check "--format md,csv,json wrote report.html"
ls "$WORK/out" | grep -q '\.tmp\.' && check "temporary files left in the output folder"
grep -q "Little's law: 2 VMs on 1 drive · bad-clock" "$WORK/stderr" || check "no Little's law warning on stderr"
grep -q "incomplete run: lab-a/2 VMs on 1 drive/slow-b/i2.jsonl" "$WORK/stderr" || check "unfinished journal not reported"

"$DBRIG_BIN" published --dir "$PUB" >/dev/null 2>"$WORK/e" || check "dbrig published on the shipped files failed: $(cat "$WORK/e")"
[ -s "$WORK/e" ] && check "dbrig published on the shipped files printed: $(cat "$WORK/e")"

# Little's law for the shipped published rows, computed here by hand
# (docs/reading-reports.md, "Published figures and Little's law"):
#   PM1735 sysbench, 4 VMs x 32 threads / 7,869.21 TPS = 128 / 7869.21 s = 16.2659 ms,
#     published 16.26 ms: 0.0059 ms apart, more than the rounding 0.005 + 16.2659 x 0.005 / 7869.21
#     = 0.00501 ms, within 5%: (16.2659 - 16.26) / 16.26 = +0.04%
#   PM1743 sysbench, 8 x 32 / 29,086 = 8.8015 ms vs 8.80: 0.0015 ms <= 0.005 + 8.8015 x 0.5 / 29086
#     = 0.00515 ms: within the rounding, (8.8015 - 8.80) / 8.80 = +0.02%
#   PM1743 sysbench, 4 x 32 / 13,579 = 9.4263 ms vs 9.43: 0.0037 ms <= 0.005 + 9.4263 x 0.5 / 13579
#     = 0.00535 ms: within the rounding, (9.4263 - 9.43) / 9.43 = -0.04%
#   PM1735 SQL Server TPC-C, 15,000 users per VM with think times: 4 x 15,000 / 12,625.56 =
#     4.752 s per user cycle; 12,625.56 / 4 = 3,156.39 TPS per VM x 0.01125 s = 35.5 in flight per VM
"$DBRIG_BIN" published --dir "$PUB" >"$WORK/published.txt" 2>&1 || check "dbrig published failed"
row() { # row FILE WORKLOAD VMS DRIVES LITTLE-CELL: that published result's table row ends with the cell
	python3 - "$WORK/published.txt" "$@" <<'PY' || check "dbrig published: no row $1 $2 $3 VMs $4 drives with Little's law '$5'"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
f, w, v, d, cell = sys.argv[2:]
h = lines[0]
ok = [l for l in lines[1:] if l[:h.index(" drive")].strip() == f and l[h.index("workload"):].split()[:3] == [w, v, d]
      and l.endswith("  " + cell)]
sys.exit(0 if len(ok) == 1 else 1)
PY
}
row storagereview-samsung-pm1735.json sysbench 4 1 "yes, within 5%: 16.27 ms (+0.04%)"
row storagereview-samsung-pm1743.json sysbench 8 8 "yes, within the rounding: 8.80 ms (+0.02%)"
row storagereview-samsung-pm1743.json sysbench 4 1 "yes, within the rounding: 9.43 ms (-0.04%)"
row storagereview-samsung-pm1735.json tpcc 4 1 "think times: 4.75 s cycle, 35.5 in flight per VM"
for line in "4 VMs x 32 threads / 7,869.21 TPS = 16.266 ms against the published 16.26 ms (+0.04%): obeys Little's law within 5%, not within the published rounding (+/- 0.0050 ms)" \
	"8 VMs x 32 threads / 29,086 TPS = 8.801 ms against the published 8.80 ms (+0.02%): obeys Little's law within the published rounding (+/- 0.0052 ms)" \
	"4 VMs x 32 threads / 13,579 TPS = 9.426 ms against the published 9.43 ms (-0.04%): obeys Little's law within the published rounding (+/- 0.0053 ms)" \
	"15,000 users x 4 VMs / 12,625.56 TPS = 4.752 s, each user's mean cycle (response + keying + think time); 3,156.39 TPS per VM x 11.25 ms = 35.5 transactions in flight per VM"; do
	grep -qF -- "$line" "$WORK/published.txt" || check "dbrig published does not explain: $line"
done
# The same figures in report.json, to four decimals.
python3 - "$WORK/out/report.json" <<'PY' || check "report.json: published Little's law figures"
import json, sys
want = {("storagereview-samsung-pm1735.json", "sysbench"): ("closed", "within_tolerance", {"implied_latency_ms": 16.2659, "deviation": 0.0004, "clients": 128}),
        ("storagereview-samsung-pm1743.json", "8 VMs, 8 drives"): ("closed", "within_rounding", {"implied_latency_ms": 8.8015, "deviation": 0.0002, "clients": 256}),
        ("storagereview-samsung-pm1743.json", "4 VMs, 1 drive"): ("closed", "within_rounding", {"implied_latency_ms": 9.4263, "deviation": -0.0004, "clients": 128}),
        ("storagereview-samsung-pm1735.json", "tpcc"): ("think_time", "n/a", {"cycle_s": 4.7523, "in_flight_per_vm": 35.5094, "clients": 60000})}
seen = 0
for rv in json.load(open(sys.argv[1]))["published"]:
    if rv["file"] not in ("storagereview-samsung-pm1735.json", "storagereview-samsung-pm1743.json"):
        continue  # the converted rows: tests/unit/report/test_leaderboard.c checks a handful by hand
    for r in rv["results"]:
        key = (rv["file"], r["workload"] if rv["file"].endswith("1735.json") else r["label"])
        loop, chk, vals = want[key]
        l = r["little"]
        assert l["loop"] == loop and l["check"] == chk, (key, l)
        for k, v in vals.items():
            assert abs(l[k] - v) < 1e-9, (key, k, l[k], v)
        seen += 1
assert seen == 4, seen
PY

# Long names keep the columns aligned: cut with "...", the full text below the rows.
mkdir -p "$WORK/long"
long="Samsung PM1735 3.2 TB HPE P16499-B21 PCIe Gen4 U.3 3 DWPD (a very long name × 2)"
python3 - "$PUB/storagereview-samsung-pm1735.json" "$WORK/long/a-review-file-with-a-rather-long-name-too.json" "$long" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["drive"]["name"] = sys.argv[3]
r["results"][0]["label"] = "4 VMs on 1 drive, 32 threads each, 2 h precondition"
json.dump(r, open(sys.argv[2], "w"))
PY
cp "$PUB/storagereview-samsung-pm1743.json" "$WORK/long/"
"$DBRIG_BIN" published --dir "$WORK/long" >"$WORK/long.txt" 2>&1 || check "dbrig published (long names) failed"
python3 - "$WORK/long.txt" "$long" <<'PY' || check "dbrig published: long names break the columns"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
head = lines[0]
cols = [head.index(c) for c in ("drive", "configuration", "workload")] + [head.index("VMs") + 3, head.index("p99 ms") + 6]
rows = [l for l in lines[1:] if not l.startswith("  ")]
assert len(rows) == 4, rows
for l in rows:
    # every column starts (text) or ends (numbers) where its header does; counted in characters
    assert all(l[c - 1] == " " for c in cols[:3]), l
    assert l[cols[3] - 1] != " " and l[cols[3]] == " " and l[cols[4] - 1] != " " and l[cols[4]] == " ", l
assert any("..." in l for l in rows)
assert any(l.startswith("  drive:    " + sys.argv[2] + ": HPE") for l in lines), "the full drive name is not printed below"
assert "  file:     a-review-file-with-a-rather-long-name-too.json" in lines
assert any(l.startswith("  method (4 VMs on 1 drive, 32 threads each, 2 h precondition, sysbench):") for l in lines)
PY
# expect EXIT_CODE MESSAGE_REGEX -- command...: exit code and one line (the
# report's telemetry flags and fields; the rest of bad input is tests/bad-input/).
expect() {
	local code=$1 msg=$2
	shift 3
	"$@" >"$WORK/o" 2>"$WORK/e"
	local rc=$?
	[ "$rc" = "$code" ] || check "exit $rc (expected $code): $*: $(cat "$WORK/e")"
	grep -Eq -- "$msg" "$WORK/e" || check "message of '$*' does not match /$msg/: $(cat "$WORK/e")"
	[ "$(wc -l <"$WORK/e")" -le 1 ] || check "more than one line from '$*': $(cat "$WORK/e")"
}
expect 2 '^dbrig: --drive: "nope" is not a drive of the results in .*/lab-c \(expected one of: fast, slow\)$' -- \
	"$DBRIG_BIN" report "$FIX/results/lab-c" --out "$WORK/x" --drive nope
expect 2 '^dbrig: --steady-window: "4" is not valid \(expected an integer from 5 to' -- \
	"$DBRIG_BIN" report "$FIX/results" --out "$WORK/x" --steady-window 4
# One drive's report: only its runs, all its run groups, the comparison from
# the whole run group (its rank), no warnings about other drives.
"$DBRIG_BIN" report "$FIX/results" --out "$WORK/slow" --drive slow --format md,csv 2>"$WORK/slow.err" ||
	check "report --drive slow exited $?: $(cat "$WORK/slow.err")"
head -1 "$WORK/slow/report.md" | grep -qx '# dbrig report: drive slow' || check "--drive slow: report.md title"
[ "$(tail -n +2 "$WORK/slow/report-instances.csv" | wc -l)" = 3 ] || check "--drive slow: not its 3 instances"
tail -n +2 "$WORK/slow/report-instances.csv" | cut -d, -f5 | sort -u | grep -qvx slow && check "--drive slow: another drive's run"
grep -q 'bottleneck' "$WORK/slow.err" && check "--drive slow warns about another drive: $(cat "$WORK/slow.err")"
grep -q '| 1 VM on 1 drive | sysbench OLTP oltp_read_write | 1 | 3 | 99.36 ± 4.16 |' "$WORK/slow/report.md" ||
	check "--drive slow: its run group row (TPS with CI) is missing"
# The per-drive page says where the drive ranks against the drives it leaves out, and calls a
# drive's part of a run group spread over drives its share.
grep -q 'No run group ran on more than one drive' "$WORK/slow/report.md" && check "--drive slow: says no run group ran on more than one drive"
grep -q '^- 1 VM on 1 drive: rank 2 of 2; fast > slow by 11.6x (95% CI 11.1–12.2); avg latency' "$WORK/slow/report.md" ||
	check "--drive slow: no rank against the hidden fast drive: $(grep -A4 '## Drive comparison' "$WORK/slow/report.md")"
"$DBRIG_BIN" report "$FIX/results" --out "$WORK/p3" --drive pm1743-3 --format md 2>/dev/null || check "report --drive pm1743-3 failed"
grep -q "| 8 VMs on 8 drives · pm1743-3 (this drive's share: 1 of 8 VMs) |" "$WORK/p3/report.md" &&
	grep -q '^- 8 VMs on 8 drives: rank 8 of 8; ' "$WORK/p3/report.md" || check "--drive pm1743-3: its share or rank is not said"
grep -q '^lab-c,1 VM on 1 drive,.*,fast,1,.*,slow,2,.*,11\.6491,11\.087,12\.240,.*,yes$' "$WORK/out/report-compare.csv" ||
	check "report-compare.csv lacks fast > slow by 11.6x (CI 11.087-12.240), significant"
grep -q 'fast > slow by 11.6x (95% CI 11.1–12.2)' "$WORK/out/report.md" || check "report.md lacks the comparison sentence"
grep -q "bottleneck host CPU in 1 VM on 1 drive · fast: host CPU 97% busy" "$WORK/stderr" ||
	check "no host-CPU bottleneck warning for the fast drive"
grep -q "bottleneck driver in 1 VM, 1 event loop · fast: driver 0.96 core per event loop" "$WORK/stderr" ||
	check "no driver-saturation warning"
grep -q '| 1 VM on 1 drive · slow | .* | \*\*drive\*\*: drive loop4 100% utilised, 60.41 ms per I/O' "$WORK/out/report.md" ||
	check "report.md: the slow drive is not the bottleneck with its device latency"
mkdir -p "$WORK/type"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r["telemetry"]["phases"]["precondition"]["devices"][0]["util"] = 1.5; json.dump(r, open(sys.argv[2], "w"))' \
	"$FIX/results/lab-c/1 VM on 1 drive/slow/i1-rep1.json" "$WORK/type/i1.json"
expect 1 '^dbrig: i1\.json: \.telemetry\.phases\.precondition\.devices\[0\]\.util: 1\.5 \(expected a fraction from 0 to 1\)$' -- \
	"$DBRIG_BIN" report "$WORK/type" --out "$WORK/bad" --compare none
# Links to folders are never followed (security review finding 13): with
# `l1 -> .`, `l2 -> .` and a link up from a group, the walk counted every
# result 41 times or did not end; now the report is the golden one.
cp -r "$FIX/results" "$WORK/linked"
ln -s . "$WORK/linked/l1"
ln -s . "$WORK/linked/l2"
ln -s .. "$WORK/linked/lab-a/up"
(cd "$WORK" && timeout 60 "$DBRIG_BIN" report linked --out "$WORK/out-linked" --compare "$PUB" --format md,csv,json) \
	2>"$WORK/stderr-linked" || check "report over folder links exited $?: $(tail -n1 "$WORK/stderr-linked")"
for f in report.md report-groups.csv report-instances.csv report.json; do
	diff -u "$GOLD/$f" "$WORK/out-linked/$f" >&2 || check "$f over folder links differs from tests/golden/report/$f"
done
grep -q "^dbrig: warning: lab-a/up: a link to a folder; not followed" "$WORK/stderr-linked" ||
	check "no warning names the skipped folder link"

# A superseded attempt that cannot be read (the empty journal of a driver a
# full disk stopped at its first line, kept by campaign --resume) is left out
# with a warning; it failed the whole report (found by bench/fault-soak.sh).
cp -r "$FIX/results" "$WORK/history"
: >"$WORK/history/lab-a/2 VMs on 1 drive/bad-clock/i1.partial-1.jsonl"
(cd "$WORK" && "$DBRIG_BIN" report history --out "$WORK/out-history" --compare "$PUB" --format md,csv,json) \
	2>"$WORK/stderr-history" || check "report with an unreadable superseded attempt exited $?: $(tail -n1 "$WORK/stderr-history")"
diff -u "$GOLD/report.md" "$WORK/out-history/report.md" >&2 || check "report.md with an unreadable superseded attempt differs"
grep -q "i1.partial-1.jsonl: line 1: missing header .*an attempt kept by campaign --resume, left out" "$WORK/stderr-history" ||
	check "no warning names the unreadable superseded attempt"

"$DBRIG_BIN" report --help | grep -q -- '--compare' || check "report --help lacks --compare"

# Two runs of one campaign (local-quick/ and the folder --fresh kept beside it,
# each with its run.run_id) and a hand-run result without an id: three runs
# side by side, labelled by start time, never added up (tests/golden/two-runs/).
(cd "$FIX" && "$DBRIG_BIN" report two-runs --out "$WORK/two" --format md,csv,json) 2>"$WORK/two.err" ||
	check "report of two runs exited $?: $(cat "$WORK/two.err")"
for f in report.md report-groups.csv report-compare.csv report.json; do
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		mkdir -p "$DBRIG_SOURCE_DIR/tests/golden/two-runs" && cp "$WORK/two/$f" "$DBRIG_SOURCE_DIR/tests/golden/two-runs/$f"
		continue
	fi
	diff -u "$DBRIG_SOURCE_DIR/tests/golden/two-runs/$f" "$WORK/two/$f" >&2 || check "$f differs from tests/golden/two-runs/$f"
done
grep -q '^dbrig: warning: 3 runs of campaign "local-quick" (started without a run id, 2026-12-01T23:55:00Z, 2026-12-02T01:05:00Z): shown side by side, never added up$' "$WORK/two.err" ||
	check "no warning naming the three runs: $(cat "$WORK/two.err")"
# Not the goldens' word alone: every group is one result's figures (5 groups of 5 files), the
# Drive comparison pairs drives within a run only.
python3 - "$FIX/two-runs" "$WORK/two/report.json" <<'PY' || check "two runs were added up"
import json, os, sys
tps = {}
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        r = json.load(open(os.path.join(root, f)))
        tps[(r["run"].get("run_id", ""), r["run"]["drive"])] = r["phases"]["sample"]["tps"]
rep = json.load(open(sys.argv[2]))
got = {(g["key"].get("run_id", ""), g["key"]["drive"]): g["over_repetitions"]["tps_sum"]["mean"] for g in rep["groups"]}
ok = len(rep["groups"]) == 5 and all(abs(got.get(k, -1) - v) < 0.01 for k, v in tps.items())
ok &= len(rep["comparisons"]) == 2 and all(c["run_group"].endswith("01:05:00Z") or c["run_group"].endswith("23:55:00Z")
                                            for c in rep["comparisons"])
if not ok: print("groups %s, results %s, comparisons %s" % (got, tps, rep["comparisons"]), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
# The test bed names each campaign run (run id and start) in report.md and report.json alike.
grep -qF '| campaign run | 20261201T235500Z-0b7e21, started 2026-12-01T23:55:00Z; 20261202T010500Z-3fa9c1, started 2026-12-02T01:05:00Z |' \
	"$WORK/two/report.md" || check "two runs: the test bed does not name both campaign runs: $(grep -A4 '## Test bed' "$WORK/two/report.md")"
python3 - "$WORK/two/report.json" <<'PY' || check "two runs: report.json test_bed.runs lacks the two run ids"
import json, sys
runs = json.load(open(sys.argv[1]))["test_bed"]["runs"]
sys.exit(0 if [r["run_id"] for r in runs] == ["20261201T235500Z-0b7e21", "20261202T010500Z-3fa9c1"] else 1)
PY
# Issue 22 item 5: the volume each drive's runs measured (run.storage) in the test bed of md, html and json.
"$DBRIG_BIN" report "$FIX/results" --out "$WORK/bed" --compare none --format md,html,json >/dev/null 2>&1 || check "report md,html,json failed"
grep -qF '| drive slow | volume: raw volume, allocation full (preallocated); block devices:' "$WORK/bed/report.md" ||
	check "report.md: no volume allocation for drive slow"
grep -qF 'volume: qcow2 volume, allocation sparse (allocated as written)' "$WORK/bed/report.html" ||
	check "report.html: no volume allocation for drive fast"
python3 - "$WORK/bed/report.json" <<'PY' || check "report.json: test_bed.drives lacks the format and allocation of fast and slow"
import json, sys
d = {x["drive"]: (x["format"], x["allocation"]) for x in json.load(open(sys.argv[1]))["test_bed"]["drives"]}
sys.exit(0 if d.get("fast") == ("qcow2", "sparse") and d.get("slow") == ("raw", "full") else 1)
PY
# The headline: TPS ratio and the p99 and average latency change, each with its 95% CI and
# significance, the same sentence in report.md and report.html.
want='fast 11.65× slow TPS (95% CI 11.09–12.24), significant (Welch p = 0.000221); p99 −91% (95% CI −92%…−91%), significant; average latency −91% (95% CI −92%…−91%), significant.'
grep -qF -- "- **1 VM on 1 drive**: $want" "$WORK/bed/report.md" || check "report.md headline: $(grep -A6 '## Headline' "$WORK/bed/report.md")"
grep -qF -- "<b>1 VM on 1 drive</b>: $want</li>" "$WORK/bed/report.html" || check "report.html headline differs from report.md's"

# --run picks one campaign run of a folder of several: latest is the run started last (the hand
# run without an id is left out), a full id or a prefix naming one run picks that one.
for pick in latest:20261202T010500Z-3fa9c1 20261201T2355:20261201T235500Z-0b7e21; do
	"$DBRIG_BIN" report "$FIX/two-runs" --out "$WORK/pick" --format json --run "${pick%%:*}" >/dev/null 2>&1 ||
		check "report --run ${pick%%:*} failed"
	python3 - "$WORK/pick/report.json" "${pick#*:}" <<'PY' || check "report --run ${pick%%:*}: not the groups of run ${pick#*:} alone"
import json, sys
rep = json.load(open(sys.argv[1]))
ids = {g["key"].get("run_id", "") for g in rep["groups"]}
sys.exit(0 if ids == {sys.argv[2]} and len(rep["groups"]) == 2 else 1)
PY
done

# The same result twice in one run (a copied file): "2 results for 1 VM", never "instances missing".
mkdir -p "$WORK/dup" && cp -r "$FIX/two-runs/local-quick" "$WORK/dup/a" && cp -r "$FIX/two-runs/local-quick" "$WORK/dup/b"
"$DBRIG_BIN" report "$WORK/dup" --out "$WORK/dup-out" --format json >/dev/null 2>"$WORK/dup.err" || check "report of a duplicated run failed"
grep -q 'too many results: run group "1 instance, 1 drive", drive "drive-a", repetition 1: 2 results for 1 VM$' "$WORK/dup.err" &&
	! grep -q "instances missing" "$WORK/dup.err" || check "a duplicated result is not called too many: $(cat "$WORK/dup.err")"

# The per-drive page's scaling chart: one run group at 1 VM and at 2 VMs on drive-a (a sweep's points).
python3 - "$FIX/two-runs/local-quick/1-instance-1-drive/drive-a/vm1.json" "$WORK/sweep" <<'PY' || check "cannot make the sweep results"
import json, os, sys
r = json.load(open(sys.argv[1]))
for n, insts in ((1, ["vm1"]), (2, ["vm1", "vm2"])):
    for i in insts:
        r["run"].update(run_group="s, %d VM%s" % (n, "s" if n > 1 else ""), vm_count=n, instance=i)
        d = os.path.join(sys.argv[2], "s-%d" % n, "drive-a")
        os.makedirs(d, exist_ok=True)
        json.dump(r, open(os.path.join(d, i + ".json"), "w"))
PY
"$DBRIG_BIN" report "$WORK/sweep" --out "$WORK/sweep-out" --drive drive-a --format html 2>/dev/null || check "report --drive of a sweep failed"
for m in "TPS" "Average latency" "p99 latency"; do
	grep -q "$m of drive-a against VM count" "$WORK/sweep-out/report.html" || check "--drive: no $m scaling chart against VM count"
done
grep -q "against threads" "$WORK/sweep-out/report.html" && check "--drive: a thread scaling chart without a thread sweep"
[ $fail = 0 ] && echo "report_golden: ok"
# The published leaderboard in the terminal (docs/reading-reports.md, "Leaderboard"),
# ranks by hand: SQL Server TPC-C, 4 VMs x 15,000 users: ranked by average latency,
# DataON HCI-224 2.50 ms (machine-translated) before the PM1735's 11.25 ms.
"$DBRIG_BIN" published --dir "$PUB" --protocol workload=tpcc,vms=4,users=15000 >"$WORK/lb.txt" 2>&1 ||
	check "dbrig published --protocol failed: $(cat "$WORK/lb.txt")"
grep -q "^Ranked by average latency: with 15,000 users per instance" "$WORK/lb.txt" || check "--protocol tpcc: no reason for ranking by latency"
grep -Eq "^   1 +12,649.00 +2.50 +- +Intel SSD D5-P4326 .*· machine-translated$" "$WORK/lb.txt" ||
	check "--protocol tpcc: rank 1 is not the machine-translated DataON row: $(cat "$WORK/lb.txt")"
grep -Eq "^   2 +12,625.56 +11.25 +- +Samsung PM1735 3.2 TB: published · " "$WORK/lb.txt" || check "--protocol tpcc: rank 2 is not the PM1735"

exit $fail
