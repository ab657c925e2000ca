#!/usr/bin/env bash
# Benchmark (not a test): does `dbrig report` scale with the campaign? Generates
# a results folder the size of a real drive comparison, then times one report
# of it and prints wall time, CPU time and peak memory beside the targets of
# issue 26 (at most 5 s and 200 MiB on this 2-core machine).
#
# The folder: DRIVES drives x run groups of 1, 4 and 8 VMs x REPS repetitions
# (4 x 13 x 2 = 104 results with their journals by default), each a run of
# PRE s of precondition and SAMPLE s of sample at a report interval of
# INTERVAL s (2 h + 1 h at 10 s: 1,080 intervals). Every result and journal is
# TEMPLATE (a result's path without .json; its journal beside it), by default
# the fixture tests/fixtures/results/lab-c/1 VM on 1 drive/slow/i1-rep1, with
# its intervals of each phase repeated to that length (same figures, new
# times) and its phase counts stretched to the new durations. The fixture's
# intervals carry less telemetry than a real campaign's (one drive, host CPU):
# TEMPLATE= a result of a real campaign (at its own report interval) makes a
# folder closer to a lab's; its telemetry file (TEMPLATE.telemetry.json, the
# campaign's since it stopped writing into the result) is repeated the same
# way beside every result. The results leave their intervals to their
# journals and name them, as dbrig writes them since format 1.3 (the report
# takes the intervals from the journals); RESULT_INTERVALS=1 writes results
# that carry them as well, as dbrig wrote them before (format 1.2).
#
#   bench/report-scale.sh                           # 104 results of 3 h runs
#   DRIVES=2 REPS=1 PRE=600 SAMPLE=300 bench/report-scale.sh
#   KEEP=1 bench/report-scale.sh                    # keep the folder (its path is printed)
#   TEMPLATE=results/local-quick/g/a/vm1-rep1 bench/report-scale.sh
#   RESULT_INTERVALS=1 bench/report-scale.sh         # results that repeat their journals' intervals
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
DBRIG_BIN=${DBRIG_BIN:-$here/build/dbrig}
DRIVES=${DRIVES:-4}
REPS=${REPS:-2}
PRE=${PRE:-7200}
SAMPLE=${SAMPLE:-3600}
INTERVAL=${INTERVAL:-10}
TEMPLATE=${TEMPLATE:-$here/tests/fixtures/results/lab-c/1 VM on 1 drive/slow/i1-rep1}
if [ ! -f "$TEMPLATE.json" ] || [ ! -f "$TEMPLATE.jsonl" ]; then
	echo "TEMPLATE=$TEMPLATE: no $TEMPLATE.json with its .jsonl" >&2
	exit 1
fi
[ -x "$DBRIG_BIN" ] || { echo "no dbrig binary at $DBRIG_BIN (build first, or set DBRIG_BIN)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is missing: apt-get install time" >&2; exit 1; }
work=$(mktemp -d /tmp/dbrig-bench-report.XXXXXX)
if [ "${KEEP:-0}" = 1 ]; then trap 'echo "kept $work"' EXIT; else trap 'rm -rf "$work"' EXIT; fi

python3 - "$TEMPLATE" "$work/results" \
	"$DRIVES" "$REPS" "$PRE" "$SAMPLE" "$INTERVAL" "${RESULT_INTERVALS:-0}" <<'PY'
import copy, json, os, sys

src, out, drives, reps, pre, sample, step, with_iv = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:9])
result = json.load(open(src + ".json"))
journal = [json.loads(l) for l in open(src + ".jsonl")]
header = next(o for o in journal if o["type"] == "header")
end = next(o for o in journal if o["type"] == "end")
by_phase = {p: [o for o in journal if o["type"] == "interval" and o["phase"] == p] for p in ("precondition", "sample")}
# A template written by dbrig since format 1.3 leaves its intervals to its journal (without histograms there).
res_ivs = result["intervals"] if "intervals" in result else \
    [dict((k, v) for k, v in o.items() if k != "histogram") for o in journal if o["type"] == "interval"]
res_phase = {p: [o for o in res_ivs if o["phase"] == p] for p in ("precondition", "sample")}
telem = json.load(open(src + ".telemetry.json")) if os.path.exists(src + ".telemetry.json") else None
tel_phase = {p: [o for o in telem["intervals"] if o["phase"] == p] for p in ("precondition", "sample")} if telem else None

def series(pool, phase, seconds, t0):
    """pool's intervals repeated to `seconds`, with times from t0."""
    rows = []
    for k in range(seconds // step):
        o = copy.deepcopy(pool[k % len(pool)])
        o["t"] = float(t0 + (k + 1) * step)
        o["phase_t"] = float((k + 1) * step)
        o["seconds"] = float(step)
        rows.append(o)
    return rows

def tel_series(pool, seconds, t0):
    """A telemetry file's intervals of one phase repeated to `seconds` (only "t" is a time there)."""
    rows = []
    for k in range(seconds // step if pool else 0):
        o = copy.deepcopy(pool[k % len(pool)])
        o["t"] = float(t0 + (k + 1) * step)
        rows.append(o)
    return rows

def stretch(ph, seconds):
    """A phase summary over `seconds` at the fixture's rates (the counts follow the time;
    the latency histogram keeps its shape)."""
    k = seconds / ph["seconds"]
    ph["seconds"] = float(seconds)
    ph["transactions"] = round(ph["transactions"] * k)
    ph["tps"] = ph["transactions"] / seconds
    for q in ("read", "write", "other"):
        ph["queries"][q] = round(ph["queries"][q] * k)
    ph["queries"]["total"] = sum(ph["queries"][q] for q in ("read", "write", "other"))
    ph["qps"] = ph["queries"]["total"] / seconds

files = size = 0
for d in range(1, drives + 1):
    drive = "drive-%d" % d
    for vms in (1, 4, 8):
        group = "%d VM%s on 1 drive" % (vms, "" if vms == 1 else "s")
        folder = os.path.join(out, group, drive)
        os.makedirs(folder, exist_ok=True)
        for rep in range(1, reps + 1):
            started = "2026-11-%02dT%02d:00:00Z" % (1 + d, 3 * vms + rep)
            for i in range(1, vms + 1):
                run = dict(result["run"], run_group=group, drive=drive, instance="i%d" % i, vm_count=vms,
                           repetition=rep)
                r = copy.deepcopy(result)
                r["run"], r["started_at"] = run, started
                for ph, secs in (("precondition", pre), ("sample", sample)):
                    stretch(r["phases"][ph], secs)
                r["intervals"] = series(res_phase["precondition"], "precondition", pre, 0) + \
                    series(res_phase["sample"], "sample", sample, pre)
                if with_iv:  # as dbrig wrote every result up to format 1.2
                    r.pop("journal", None)
                    r["schema"] = "dbrig.result/1.2"
                else:  # as dbrig writes a result with its journal beside it (format 1.3)
                    del r["intervals"]
                    r["schema"], r["journal"] = "dbrig.result/1.3", "i%d-rep%d.jsonl" % (i, rep)
                h = dict(header, run={k: run[k] for k in header["run"]}, started_at=started)
                lines = [h] + series(by_phase["precondition"], "precondition", pre, 0) + \
                    series(by_phase["sample"], "sample", sample, pre) + [end]
                base = os.path.join(folder, "i%d-rep%d" % (i, rep))
                with open(base + ".json", "w") as f:
                    json.dump(r, f)
                with open(base + ".jsonl", "w") as f:
                    for o in lines:
                        f.write(json.dumps(o, separators=(",", ":")) + "\n")
                files += 1
                size += os.path.getsize(base + ".json") + os.path.getsize(base + ".jsonl")
                if telem:
                    t = dict(telem, result=os.path.basename(base) + ".json")
                    for ph, secs in (("precondition", pre), ("sample", sample)):
                        if (t["telemetry"].get("phases") or {}).get(ph):
                            t["telemetry"]["phases"][ph]["seconds"] = float(secs)
                    t["intervals"] = tel_series(tel_phase["precondition"], pre, 0) + tel_series(tel_phase["sample"], sample, pre)
                    with open(base + ".telemetry.json", "w") as f:
                        json.dump(t, f)
                    size += os.path.getsize(base + ".telemetry.json")
print("folder: %d results with journals%s, %.0f MB, %d intervals per run (%d s + %d s at %d s)%s"
      % (files, " and telemetry files" if telem else "", size / 1e6, (pre + sample) // step, pre, sample, step,
         ", the results repeating them (format 1.2)" if with_iv else ", in the journals only"))
PY
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f '%e %U %S %M' -o "$work/time" "$DBRIG_BIN" report "$work/results" --out "$work/report" \
	--compare none >"$work/report.out" 2>"$work/report.err" ||
	{ echo "dbrig report failed:" >&2; tail -5 "$work/report.err" >&2; exit 1; }
read -r wall user sys rss <"$work/time"
awk -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" 'BEGIN {
	printf "dbrig report: %.2f s wall, %.2f s CPU (%.2f user + %.2f system), %.0f MiB peak\n", w, u + s, u, s, m / 1024
	printf "target (issue 26): at most 5 s wall and 200 MiB: %s, %s\n", (w <= 5 ? "met" : "NOT met"), (m / 1024 <= 200 ? "met" : "NOT met")
}'
