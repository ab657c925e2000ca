#!/bin/bash
# The sample's telemetry describes the sample (issue 27, behaviour 7, at
# campaign level): a local campaign of one instance on a loop-device drive
# whose precondition and sample load the drive differently, and a check that
# the device, host CPU, server and driver figures stored for each phase are
# the ones of that phase's own span, not of the whole run.
#
# The difference is one of effect, not of timing: the server starts with a cold
# buffer pool (innodb_buffer_pool_load_at_startup off, no restore check that
# would read every page first) that holds the whole table, and InnoDB reads
# with O_DIRECT (MariaDB's default), so the precondition's point selects read
# the table's pages from the drive and the sample, with every page already in
# memory, reads almost nothing. The test requires that difference in the raw
# readings before it compares (else it could not fail on the bug it is for).
#
# Oracle: the telemetry journal (.telemetry-rep1.jsonl, the sampler's raw
# counters) recomputed here with the rules of src/result/telemetry.c (counters
# linear between readings, rounded to integers; rates over the span), over the
# span [clock_start + precondition, + sample] of the result, and so is every
# interval's over its own. Exact arithmetic on the same numbers, so the
# tolerance is the result's rounding (4 decimals), not a statistical bound.
set -uo pipefail
. "$(dirname "$0")/../lib/campaign.sh"
. "$(dirname "$0")/../lib/loopdrive.sh"
on_exit() { loopdrive_cleanup; }
on_fail() { [ -f "$T/err.txt" ] && tail -n 20 "$T/err.txt" >&2; }
need_mariadb
base=$(free_port_block 2) || exit 1
loopdrive_fast a 384M
cd "$T" || exit 1
# allow_shared_device: the loop device's backing file is on this machine's root file system,
# whose device preflight would otherwise refuse (a warning instead).
cat > c.json <<JSON
{"name": "smptel",
 "workload": {"kind": "sysbench", "test": "oltp_point_select", "options": {"tables": 1, "table-size": 20000}},
 "engine": {"kind": "mariadb", "buffer_pool": "64M",
            "server_options": {"innodb_buffer_pool_load_at_startup": 0, "innodb_buffer_pool_dump_at_shutdown": 0,
                               "innodb_log_file_size": "16M"}},
 "target": {"kind": "local", "base_port": $base, "create_drive_dirs": true, "allow_shared_device": true},
 "drives": [{"name": "a", "path": "$T/a"}], "run_groups": [{"name": "g", "placement": {"a": 1}}],
 "precondition": "3s", "sample": "3s", "threads": 2, "report_interval": "1s",
 "verify_restore": false, "output": "$T/out"}
JSON
"$DBRIG_BIN" campaign c.json > out.txt 2> err.txt || fail "the campaign failed: $(tail -n 3 err.txt)"
res=$T/out/smptel/g/a/vm1.json
[ -f "$res" ] || res=$(find "$T/out/smptel/g" -name 'vm1*.json' ! -name '*.telemetry.json' | head -n1)
jr=$(find "$T/out/smptel/g" -name '.telemetry-*rep1.jsonl' | head -n1)
[ -f "$res" ] && [ -f "$jr" ] || fail "no result or telemetry journal under $T/out/smptel/g: $(find "$T/out" | head -20)"

python3 - "$res" "$jr" <<'PY' || fail "the stored phase telemetry is not the phase's own span (above)"
import json, math, os, sys
sys.path.insert(0, os.path.join(os.environ["DBRIG_SOURCE_DIR"], "tests/lib"))
import result_file
r = result_file.load(sys.argv[1])  # its intervals from its journal (format 1.3)
# The campaign's telemetry is in its own file beside the driver's result, which it leaves alone.
tf = json.load(open(sys.argv[1][:-5] + ".telemetry.json"))
if "telemetry" in r or tf["schema"] != "dbrig.telemetry/1.0":
    sys.exit("the result carries telemetry, or the telemetry file's schema is %s" % tf["schema"])
r["telemetry"] = tf["telemetry"]
byt = dict(((x["phase"], x["t"]), x["telemetry"]) for x in tf["intervals"])
for iv in r["intervals"]:
    if (iv.get("phase"), iv.get("t")) in byt:
        iv["telemetry"] = byt[(iv["phase"], iv["t"])]
rows = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
err = []
start = int(r["driver"]["clock_start_ns"])
ph = r["phases"]
pre, smp = ph["precondition"]["seconds"], ph["sample"]["seconds"]
at = lambda s: start + int(math.floor(s * 1e9 + 0.5))  # at_s: llround
tel = r["telemetry"]["phases"]

def value_at(key, t, conv):
    """src/result/telemetry.c value_at: linear between the readings around t, else the nearest."""
    a = b = None
    for row in rows:
        v = conv(row)
        if v is None:
            continue
        if row["t_ns"] <= t:
            a = (row["t_ns"], v)
        else:
            b = (row["t_ns"], v)
            break
    if a is None and b is None:
        return None
    if b is None or a is None or a[0] == t:
        return (a or b)[1]
    f = float(t - a[0]) / float(b[0] - a[0])
    return [x + (y - x) * f if y >= x else (x if f < 0.5 else y) for x, y in zip(a[1], b[1])]

u64 = lambda v: 0 if v <= 0 else int(math.floor(v + 0.5))
def counters(t, conv):
    v = value_at(None, t, conv)
    return None if v is None else [u64(x) for x in v]

def disk(name):
    return lambda row: [float(x) for x in row["disks"][name]] if name in row.get("disks", {}) else None
cpu = lambda row: [float(x) for x in row["cpu"]] if "cpu" in row else None
pids = sorted({p for row in rows for p in row.get("pid_cpu_s", {})})
def pid(p):
    return lambda row: [row["pid_cpu_s"][p]] if row.get("pid_cpu_s", {}).get(p) is not None else None

# Journal disk fields: rd_ios rd_sectors rd_ticks wr_ios wr_sectors wr_ticks in_flight io_ticks time_in_queue fl_ios fl_ticks
def span(t0, t1):
    secs = (t1 - t0) / 1e9
    out = {"devices": {}}
    for name in sorted({n for row in rows for n in row.get("disks", {})}):
        a, b = counters(t0, disk(name)), counters(t1, disk(name))
        d = [y - x if y >= x else 0 for x, y in zip(a, b)]
        out["devices"][name] = {"r_iops": d[0] / secs, "w_iops": d[3] / secs, "util": min(1, d[7] / (secs * 1000))}
    a, b = counters(t0, cpu), counters(t1, cpu)
    d = [y - x if y >= x else 0 for x, y in zip(a, b)]
    busy = d[0] + d[1] + d[2] + d[5] + d[6] + d[7]
    tot = busy + d[4] + d[3]
    out["busy"] = busy / tot if tot > 0 else 0
    if len(pids) == 1:
        a, b = value_at(None, t0, pid(pids[0])), value_at(None, t1, pid(pids[0]))
        out["server_cpu_s"] = max(0, b[0] - a[0]) if a and b else None
    out["secs"] = secs
    return out

def close(x, y, what):
    if not (isinstance(x, (int, float)) and abs(x - y) <= 1.5e-4 + 1e-9 * abs(y)):
        err.append("%s: stored %s, the span's own %.6f" % (what, x, y))

spans = {"precondition": span(start, at(pre)), "sample": span(at(pre), at(pre + smp)), "run": span(start, at(pre + smp))}
# The loads differ (cold pool in the precondition): else the comparison below proves nothing.
top = r["telemetry"]["drive"]["top"]
rp, rs, rr = (spans[k]["devices"][top]["r_iops"] for k in ("precondition", "sample", "run"))
print("drive %s reads/s: precondition %.2f, sample %.2f, whole run %.2f" % (top, rp, rs, rr))
if not (rp * pre >= 50 and rp >= 2 * rs and abs(rr - rs) > 1):
    err.append("the precondition and the sample did not load %s differently (reads/s %.2f vs %.2f): the test "
               "cannot tell the sample's span from the run's" % (top, rp, rs))
for phase in ("precondition", "sample"):
    st, own = tel[phase], spans[phase]
    close(st["seconds"], own["secs"], phase + " seconds")
    devs = {d["name"]: d for d in st["devices"]}
    if top not in devs:
        err.append("%s: no figures for the drive's device %s: %s" % (phase, top, sorted(devs)))
    for name, d in devs.items():
        for k in ("r_iops", "w_iops", "util"):
            close(d[k], own["devices"][name][k], "%s %s %s" % (phase, name, k))
    close(st["host_cpu"]["busy"], own["busy"], phase + " host_cpu.busy")
    if own.get("server_cpu_s") is not None:
        close(st["server"]["cpu_s"], own["server_cpu_s"], phase + " server.cpu_s")
    # The driver's CPU is its own (rusage, in the result); its cores are over the phase's seconds.
    close(st["driver"]["cores"], ph[phase]["cpu"]["seconds"] / own["secs"], phase + " driver.cores")
# The intervals too (the charts' figures): each sample and precondition interval's telemetry is the
# journal's over the interval's own span, as the result states it ([t - seconds, t], t the tick it is
# stamped with; tel_write takes the same span).
nint = {"precondition": 0, "sample": 0}
for iv in r["intervals"]:
    if iv.get("phase") not in nint or "telemetry" not in iv or not iv["seconds"] > 0:
        continue
    nint[iv["phase"]] += 1
    own, st = span(at(iv["t"] - iv["seconds"]), at(iv["t"])), iv["telemetry"]
    where = "%s interval t=%s" % (iv["phase"], iv["t"])
    for d in st["devices"]:
        for k in ("r_iops", "w_iops", "util"):
            close(d[k], own["devices"][d["name"]][k], "%s %s %s" % (where, d["name"], k))
    close(st["host_cpu_busy"], own["busy"], where + " host_cpu_busy")
    if "cpu_s" in iv:
        close(st["driver_cores"], iv["cpu_s"] / own["secs"], where + " driver_cores")
print("intervals checked: %s" % nint)
if min(nint.values()) < 2:
    err.append("intervals with telemetry per phase: %s (expected 3 each)" % nint)
for e in err:
    print(e, file=sys.stderr)
sys.exit(1 if err else 0)
PY
echo "PASS: the stored precondition and sample telemetry are their own spans'"

# issue 25 item 2: the result says where the host CPU came from (the local target: this machine's
# /proc/stat; no hypervisor host, so no host_memory), and the report says it per drive.
python3 -c "import json, sys
t = json.load(open('${res%.json}.telemetry.json'))['telemetry']['phases']['sample']
sys.exit(0 if t['host_cpu'].get('source') == '/proc/stat' and 'host_memory' not in t else 'host_cpu %s, host_memory %s' % (t['host_cpu'], t.get('host_memory')))" ||
	fail "the sample's host_cpu.source is not /proc/stat, or a local run has host_memory (above)"
"$DBRIG_BIN" report "$T/out/smptel" --out "$T/rep" --compare none --format md,html > /dev/null 2> rep.err ||
	fail "dbrig report of the campaign failed: $(tail -n 3 rep.err)"
grep -qxF "Telemetry sources: host CPU: /proc/stat; block devices: /proc/diskstats on this machine" "$T/rep/report.md" ||
	fail "report.md has no telemetry sources line for drive a: $(grep -n 'Telemetry sources' "$T/rep/report.md")"
grep -qF "<p>Telemetry sources: host CPU: /proc/stat; block devices: /proc/diskstats on this machine</p>" "$T/rep/report.html" ||
	fail "report.html has no telemetry sources line for drive a"
echo "PASS: the host CPU's source in the result and the report"
