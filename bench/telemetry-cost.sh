#!/usr/bin/env bash
# Benchmark (not a test): what the campaign's sampler costs the measurement.
# One local campaign config (one MariaDB instance on a folder of this machine,
# oltp_read_write), run ROUNDS times with "telemetry": true and ROUNDS times
# with false, alternating (on, off, on, off, ...) so that a drift of the
# machine hits both alike. Prints, per campaign, the driver's CPU per
# transaction (its own rusage over the sample: result phases.sample.cpu.seconds
# / transactions) and the sample TPS; then the mean, sd and 95% CI of each
# mode and Welch's t-test of on against off (issue 15: no difference beyond
# noise).
#
#   bench/telemetry-cost.sh                       # 5 rounds, 30 s sample, 1 s interval
#   ROUNDS=3 SAMPLE=10s INTERVAL=1s bench/telemetry-cost.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
DBRIG_BIN=${DBRIG_BIN:-$here/build/dbrig}
ROUNDS=${ROUNDS:-5}
SAMPLE=${SAMPLE:-30s}
INTERVAL=${INTERVAL:-1s}
[ -x "$DBRIG_BIN" ] || { echo "no dbrig binary at $DBRIG_BIN (build first, or set DBRIG_BIN)" >&2; exit 1; }
. "$here/tests/lib/ports.sh"
work=$(mktemp -d /tmp/dbrig-bench-telemetry.XXXXXX)
trap 'rm -rf "$work"' EXIT
base=$(free_port_block 4)
for mode in on off; do
	python3 - "$work" "$mode" "$base" "$SAMPLE" "$INTERVAL" <<'PY'
import json, sys
work, mode, base, sample, interval = sys.argv[1:6]
c = {"name": "telemetry-" + mode,
     "workload": {"kind": "sysbench", "test": "oltp_read_write", "options": {"tables": 2, "table-size": 10000}},
     "engine": {"kind": "mariadb", "buffer_pool": "128M", "server_options": {"innodb_flush_log_at_trx_commit": 1}},
     "target": {"kind": "local", "base_port": int(base) + (0 if mode == "on" else 2), "create_drive_dirs": True},
     "drives": [{"name": "d", "path": work + "/drive-" + mode}],
     "run_groups": [{"name": "1 instance", "placement": {"d": 1}}],
     "precondition": "5s", "sample": sample, "threads": 4, "report_interval": interval,
     "output": work + "/out", "telemetry": mode == "on"}
json.dump(c, open("%s/%s.json" % (work, mode), "w"), indent=1)
PY
done
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS rounds of on/off, sample $SAMPLE, interval $INTERVAL"
for r in $(seq 1 "$ROUNDS"); do
	for mode in on off; do
		"$DBRIG_BIN" campaign "$work/$mode.json" --fresh >"$work/$mode.out" 2>"$work/$mode.err" ||
			{ cat "$work/$mode.err" >&2; exit 1; }
		python3 - "$work/out/telemetry-$mode/1-instance/d/vm1.json" "$r" "$mode" >>"$work/figures" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["phases"]["sample"]
has = bool(r.get("telemetry"))
if has != (sys.argv[3] == "on"):
    sys.exit("telemetry %s but the result %s it" % (sys.argv[3], "has" if has else "lacks"))
print(sys.argv[3], s["cpu"]["seconds"] * 1e6 / s["transactions"], s["tps"])
PY
		tail -n1 "$work/figures" | awk -v r="$r" '{printf "round %d  telemetry %-3s  driver CPU %.2f us/transaction  %.2f TPS\n", r, $1, $2, $3}'
	done
done
python3 - "$work/figures" <<'PY'
import math, sys
def t_sf2(t, df):  # two-sided p of Student's t, by Simpson's rule over the density
    f = lambda x: math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2)) * (1 + x * x / df) ** (-(df + 1) / 2)
    a, n = abs(t), 2000
    h = a / n
    area = h / 3 * (f(0) + f(a) + sum((4 if k % 2 else 2) * f(k * h) for k in range(1, n)))
    return max(0.0, 1 - 2 * area)
def t_q975(df):  # the 97.5% quantile, by bisection on t_sf2
    lo, hi = 0.0, 50.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_sf2(mid, df) > 0.05 else (lo, mid)
    return lo
v = {"on": [], "off": []}
for line in open(sys.argv[1]):
    m, us, tps = line.split()
    v[m].append(float(us))
sd = {}
for m in ("on", "off"):
    x = v[m]
    mean = sum(x) / len(x)
    sd[m] = (sum((a - mean) ** 2 for a in x) / (len(x) - 1)) ** 0.5 if len(x) > 1 else float("nan")
    h = t_q975(len(x) - 1) * sd[m] / len(x) ** 0.5 if len(x) > 1 else float("nan")
    print("telemetry %-3s  %.2f us/transaction  sd %.2f  95%% CI %.2f-%.2f  (%d runs)" % (m, mean, sd[m], mean - h, mean + h, len(x)))
a, b = v["on"], v["off"]
if len(a) > 1 and len(b) > 1:
    va, vb = sd["on"] ** 2 / len(a), sd["off"] ** 2 / len(b)
    t = (sum(a) / len(a) - sum(b) / len(b)) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    p = t_sf2(t, df)
    print("Welch's t-test, on vs off: t %.2f, df %.1f, p %.3f: %s" % (t, df, p, "SIGNIFICANT" if p < 0.05 else "no difference beyond noise"))
PY
