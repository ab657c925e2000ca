#!/usr/bin/env bash
# Benchmark (not a test): how long the golden set-up of an N-drive local
# campaign takes with one load cloned to every drive ("golden": "once", the
# default) against a load on every drive ("golden": "per-drive"). Each mode is
# one `dbrig campaign` over N folders of one filesystem (WORK: its folder, by
# default under /tmp) with a run group placing one instance on every drive and
# a 1 s sample; the figures are the campaign log's own lines ("golden copy
# built in X s", "cloned from … in X s (reflink|copy; …)"), summed per mode.
# Alternating rounds (once, per-drive, once, ...) so a drift of the machine hits
# both alike.
#
#   bench/golden-setup.sh                              # 3 drives, 4 tables x 50000 rows, 1 round
#   DRIVES=4 TABLES=8 TABLE_SIZE=100000 ROUNDS=3 bench/golden-setup.sh
#   WORK=/mnt/xfs bench/golden-setup.sh                # on a filesystem with reflinks
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
DBRIG_BIN=${DBRIG_BIN:-$here/build/dbrig}
DRIVES=${DRIVES:-3}
TABLES=${TABLES:-4}
TABLE_SIZE=${TABLE_SIZE:-50000}
ROUNDS=${ROUNDS:-1}
[ -x "$DBRIG_BIN" ] || { echo "no dbrig binary at $DBRIG_BIN (build first, or set DBRIG_BIN)" >&2; exit 1; }
[ "$DRIVES" -ge 2 ] || { echo "DRIVES: \"$DRIVES\" is too few (expected 2 or more)" >&2; exit 2; }
. "$here/tests/lib/ports.sh"
work=$(mktemp -d "${WORK:-/tmp}/dbrig-bench-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT
base=$(free_port_block $((2 * DRIVES + 2)))
for mode in once per-drive; do
	python3 - "$work" "$mode" "$base" "$DRIVES" "$TABLES" "$TABLE_SIZE" <<'PY'
import json, sys
work, mode, base, n, tables, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
drives = [{"name": "d%d" % (i + 1), "path": "%s/%s/d%d" % (work, mode, i + 1)} for i in range(n)]
c = {"name": "golden-" + mode,
     "workload": {"kind": "sysbench", "test": "oltp_read_only",
                  "options": {"tables": int(tables), "table-size": int(size)}},
     "engine": {"kind": "mariadb", "buffer_pool": "256M", "server_options": {"innodb_log_file_size": "64M"}},
     "target": {"kind": "local", "base_port": base + (0 if mode == "once" else n + 1), "create_drive_dirs": True},
     "drives": drives,
     "run_groups": [{"name": "1 instance per drive", "placement": {d["name"]: 1 for d in drives}}],
     "precondition": 0, "sample": "1s", "threads": 1, "report_interval": "1s", "telemetry": False,
     "output": work + "/out", "golden": mode}
json.dump(c, open("%s/%s.json" % (work, mode), "w"), indent=1)
PY
done
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $DRIVES drives, $TABLES tables x $TABLE_SIZE rows," \
     "$(df -T "$work" | awk 'NR == 2 { print $2 }') under $work, $ROUNDS round(s)"
for r in $(seq 1 "$ROUNDS"); do
	for mode in once per-drive; do
		start=$(date +%s.%N)
		"$DBRIG_BIN" campaign "$work/$mode.json" --fresh >"$work/$mode.out" 2>"$work/$mode.err" ||
			{ cat "$work/$mode.err" >&2; exit 1; }
		end=$(date +%s.%N)
		python3 - "$work/$mode.err" "$r" "$mode" "$(echo "$end - $start" | bc)" <<'PY'
import re, sys
log, r, mode, wall = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
tot = n = 0
for line in open(log):
    m = re.match(r"dbrig: (\S+): golden copy (built|cloned from \S+) in ([0-9.]+) s \((?:(reflink|copy|volume clone); )?", line)
    if not m:
        continue
    how = "built" if m.group(2) == "built" else "cloned (%s)" % m.group(4)
    print("round %d  %-9s  %-4s %-16s %7.1f s" % (r, mode, m.group(1), how, float(m.group(3))))
    tot += float(m.group(3)); n += 1
print("round %d  %-9s  golden set-up of %d drives: %.1f s (whole campaign %.1f s)" % (r, mode, n, tot, wall))
PY
	done
done
