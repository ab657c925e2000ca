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
# Telemetry (issue 15): the two drives are loop devices (tests/lib/loopdrive.sh; drive-a's
# file in RAM, drive-b's on this machine's disk), drive-b throttled to 150 requests/s with cgroup v1 blkio while the first
# campaign's drivers use it, on the device its filesystem is on (an IOPS-capped
# volume: the requests wait in the throttle, before any device's queue); the config's "1 instance, 1 drive" runs on each
# drive in turn ("placement": {"each": ...}), so drive-b also runs alone and
# the report's Drive comparison ranks the throttled drive-b below drive-a. Every result carries the sampler's telemetry (result 1.1: the
# drive's device stack, per-phase and per-interval device, host CPU, server and
# driver figures; the run's raw readings journal), the report gives every group
# its drive I/O, a bottleneck verdict that follows the rules of
# docs/reading-reports.md from the figures it shows, and a steady-state verdict
# of the sample (6 rounds: the campaign sets steady_window 6); the throttled drive's devices look
# idle (below the drive rule's 80% utilised) while its server waits >= 30% of the sample on block I/O (delay
# accounting: the test turns kernel.task_delayacct on and restores it), and the verdict is
# "storage path" naming that signal unless the host CPU was >= 90% busy. The second campaign has
# 3 repetitions, drive-b throttled again: every group figure has its sd and 95% CI, the drives are
# compared (Welch's t-test), and the report ranks the throttled drive-b last with a significant
# difference (Drive comparison, headline).
set -uo pipefail
. "$(dirname "$0")/../lib/campaign.sh"
. "$(dirname "$0")/../lib/loopdrive.sh"
MPID=
on_exit() { [ -n "$MPID" ] && kill "$MPID" 2>/dev/null; loopdrive_cleanup; delayacct_restore; }
# The servers' block-I/O delay is counted only with kernel.task_delayacct on (dbrig never sets
# it): on for this test, before any server starts, back as it was at exit. Fails when it cannot.
DELAYACCT_WAS=
delayacct_enable() {
	DELAYACCT_WAS=$(cat /proc/sys/kernel/task_delayacct) || fail "no kernel.task_delayacct (delay accounting)"
	sysctl -q -w kernel.task_delayacct=1 && [ "$(cat /proc/sys/kernel/task_delayacct)" = 1 ] ||
		fail "cannot turn kernel.task_delayacct on (root needed)"
}
delayacct_restore() { [ -z "$DELAYACCT_WAS" ] || sysctl -q -w kernel.task_delayacct="$DELAYACCT_WAS"; }
# On a failure, what the servers and their set-up said.
on_fail() {
	local f
	for f in $(find "$T/drive-a" "$T/drive-b" "$T/out" \( -name install.log -o -name error.log -o -name report.log \) 2>/dev/null); do
		echo "== $f" >&2
		tail -n 40 "$f" >&2
	done
	if [ "${KEEP_TMP:-0}" = 1 ]; then cp -a "$T/out" "/tmp/campaign_local-out.$$" && echo "kept /tmp/campaign_local-out.$$" >&2; fi
}
need_mariadb
delayacct_enable
base=$(free_port_block 8) || exit 1
# drive-a in RAM (its file on /dev/shm): the fast drive's TPS must not follow the machine's disk.
# Over a file on the root file system, CI's guest image build beside this test (dpkg's fsyncs
# share the root file system's journal) moved drive-a's TPS between 220 and 830 from one
# repetition to the next, and Welch's test over them failed to find the throttled drive-b
# (75 TPS every time) slower: p = 0.096 here with that build running.
loopdrive_fast drive-a 384M /dev/shm
loopdrive_slow drive-b 384M 0
# throttle_drive_b PID [LOG]: drive-b's top device at DRIVE_B_IOPS requests/s only while a run's
# drivers use it, from its instance's "restore verified" line (in LOG, default err.txt) to that
# run's drive-b result (a golden copy or a restore throttled takes minutes, and they are not what
# is measured). Fails when it never did.
DRIVE_B_IOPS=150
throttle_drive_b() {
	local on=0 seen=0 done=0 k n log=${2:-err.txt}
	while kill -0 "$1" 2>/dev/null; do
		k=$(grep -c "drive-b/vm1: restore verified" "$log")
		n=$(find "$D" -path "*/drive-b/vm1*.json" -name "*.json" ! -name "*.telemetry.json" 2>/dev/null | wc -l)
		if [ $on = 0 ] && [ "$k" -gt $seen ]; then
			loopdrive_limit_top iops $DRIVE_B_IOPS; on=1; seen=$k; done=$n
		elif [ $on = 1 ] && [ "$n" -gt $done ]; then
			loopdrive_limit_top iops 0; on=0
		fi
		sleep 0.1
	done
	loopdrive_limit_top iops 0
	[ $seen -gt 0 ]
}

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
# "1 instance, 1 drive" on each drive in turn: the throttled drive's verdict is its own.
assert c["run_groups"][2]["placement"] == {"each": ["drive-a", "drive-b"], "vms": 1}, c["run_groups"][2]
c.update({"precondition": "1s", "sample": "6s", "threads": 2, "report_interval": "1s"})
# Not the default 5: every result and the report must carry it; the sample's 6 rounds are one window.
c["steady_window"] = 6
json.dump(c, open(sys.argv[2], "w"), indent=1)
# The second campaign (same name): 3 repetitions (Welch's test over them finds the throttled
# drive slower), a golden load on each drive; without "2 instances, 1 drive" to keep the time.
# With 3, Welch's degrees of freedom are about 2 (drive-a's TPS varies far more than the
# throttled drive-b's) and t must exceed 4.3: drive-a is in RAM (above) so that it varies little.
c2 = dict(c, repetitions=3, golden="per-drive", run_groups=[g for g in c["run_groups"] if g["name"] != "2 instances, 1 drive"])
json.dump(c2, open(sys.argv[2].replace("c.json", "c2.json"), "w"), indent=1)
# The third: drive-b's load cloned to drive-a, whose server changes a row at start-up.
c.update(name="local-tamper", output=sys.argv[2].replace("c.json", "out3"), golden="once", golden_drive="drive-b",
         repetitions=1, run_groups=[g for g in c["run_groups"] if g["name"] == "2 instances, 2 drives"])
c["target"]["server_binary"] = sys.argv[2].replace("c.json", "mariadbd-tamper")
json.dump(c, open(sys.argv[2].replace("c.json", "c3.json"), "w"), indent=1)
PY
export DBRIG_DEMO_CONFIG=$T/c.json DBRIG_QUICK_DIR=$T DBRIG_QUICK_OUTPUT=$T/out DBRIG_SKIP_DEPS=1
D=$T/out/local-quick
demo() { "$DBRIG_SOURCE_DIR/scripts/demo.sh" "$@"; }
cd "$T" || exit 1
demo --plan > plan.txt || fail "scripts/demo.sh --plan failed"
grep -q '2 instances, 2 drives' plan.txt || fail "--plan does not list the run groups"
grep -q "^  waiting   the servers' block-I/O wait: delay accounting\$" plan.txt ||
	fail "--plan does not say the servers' block-I/O wait is measured: $(grep waiting plan.txt)"
[ -e "$D" ] && fail "--plan created $D"
# While it runs, a monitor looks at what others could see (README "What happens
# when things fail", passwords; the review found these claims untested): the
# .credentials mode, the drivers' argv and environment, the servers' argv and
# environment, and the servers' listening addresses, which must be 127.0.0.1
# only although the config sets "loose-bind" (security review finding 14).
monitor() {
	local pws=() f p c w m
	while :; do
		# One password per drive: a driver has its drive's.
		pws=()
		for f in "$T"/drive-*/dbrig-local-quick/.credentials; do
			# Teardown removes the drive's folder, .credentials with it: a file that
			# went between the glob and stat has no mode to read (it printed "MODE ").
			m=$(stat -c %a "$f" 2>/dev/null) || continue
			pws+=("$(head -n1 "$f")"); echo "MODE $m"
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
demo > out.txt 2> err.txt &
dpid=$!
throttle_drive_b $dpid || { cat out.txt err.txt; fail "drive-b was never throttled (no 'drive-b/vm1: restore verified' line)"; }
wait $dpid
rc=$?
kill $MPID 2>/dev/null; wait $MPID 2>/dev/null; MPID=
cat out.txt err.txt
[ $rc -eq 0 ] || fail "the first scripts/demo.sh exited $rc"
grep -q '^LEAK' monitor.txt && fail "the password was visible: $(grep '^LEAK' monitor.txt | sort -u)"
grep -q '^LISTEN' monitor.txt && fail "a server listened beyond 127.0.0.1: $(grep '^LISTEN' monitor.txt | sort -u)"
grep -q '^DRIVER' monitor.txt && grep -q '^SERVER' monitor.txt || fail "the monitor never saw a driver and a server"
[ "$(grep '^MODE' monitor.txt | sort -u)" = "MODE 600" ] || fail ".credentials was not 0600: $(grep '^MODE' monitor.txt | sort -u)"
pws=$(grep '^PW ' monitor.txt | cut -d' ' -f2 | sort -u)
# One golden load cloned to drive-b: its driver user, inside the copy, has drive-a's password.
[ "$(echo "$pws" | grep -c .)" = 1 ] || fail "expected drive-a's password in both drives' .credentials, the monitor read: $pws"
# Every driver seen with MYSQL_PWD had its drive's password there, and at least one was seen.
envs=$(grep '^ENVPWD ' monitor.txt | cut -d' ' -f2 | sort -u)
[ -n "$envs" ] || fail "no driver had the password in MYSQL_PWD"
for w in $envs; do echo "$pws" | grep -qx -- "$w" || fail "a driver's MYSQL_PWD is not a drive's password"; done
for pw in $pws; do
	grep -rqF -- "$pw" out plan.txt out.txt err.txt && fail "the password is in a result, journal, log or output"
done

# check_campaign DIR REPS [per-drive]: complete results, summary = sum of instances, verified
# restores, a complete report; both drives' golden copies the same bytes (one fingerprint), or
# with "per-drive" each its own load (and no "2 instances, 1 drive" group: the second
# campaign's); every result records its drive's.
check_campaign() {
	python3 - "$1" "$2" "${3:-once}" <<'PY'
import json, os, sys
d, reps, golden = sys.argv[1], int(sys.argv[2]), sys.argv[3]
all_groups = golden == "once"
suffix = lambda rep: "-rep%d" % rep if reps > 1 else ""
st = json.load(open(os.path.join(d, "state.json")))
err = []
# (run group folder, the instances of one run): "1 instance, 1 drive" ran on each drive in turn.
expect = [("1-instance-1-drive", ["drive-a/vm1"]), ("1-instance-1-drive", ["drive-b/vm1"]),
          ("2-instances-1-drive", ["drive-a/vm1", "drive-a/vm2"]), ("2-instances-2-drives", ["drive-a/vm1", "drive-b/vm1"])]
if not all_groups:
    expect = [e for e in expect if e[0] != "2-instances-1-drive"]
each = {"1-instance-1-drive"}
sums = {}
for g, insts in expect:
  for rep in range(1, reps + 1):
    tot = 0.0
    for i in insts:
        p = os.path.join(d, g, i + suffix(rep) + ".json")
        if not os.path.exists(p):
            err.append("missing result " + p); continue
        r = json.load(open(p))
        if r["status"] != "complete": err.append(p + " status " + r["status"])
        if r["run"].get("golden") != st["golden"].get(i.split("/")[0]):
            err.append("%s: run.golden %s, the state's golden copy of its drive %s" % (p, r["run"].get("golden"), st["golden"]))
        if r["run"]["run_group"] == "" or r["run"]["vm_count"] != len(insts): err.append(p + " run identity " + str(r["run"]))
        if r["run"].get("steady_window") != 6: err.append(p + " run.steady_window is not the campaign's 6: " + str(r["run"]))
        # The campaign run's identity, made when it started: in state.json, every result and its journal's header.
        if not st.get("run_id") or r["run"].get("run_id") != st["run_id"] or r["run"].get("run_started") != st.get("run_started"):
            err.append("%s: run %s, the state's run_id %s" % (p, r["run"], st.get("run_id")))
        elif os.path.exists(p + "l") and json.loads(open(p + "l").readline())["run"].get("run_id") != st["run_id"]:
            err.append(p + "l: the journal header lacks the run_id")
        s = r["phases"]["sample"]
        if s["tps"] <= 0: err.append(p + " tps 0")
        if s["queries"]["write"] <= 0: err.append(p + " wrote nothing, the restore check proves little")
        if not os.path.exists(p + "l"): err.append("missing journal " + p + "l")
        # The run's drivers divide this machine's CPUs among their event loops
        # (at least one each, at most one per connection).
        want = min(2, max(1, os.sysconf("SC_NPROCESSORS_ONLN") // len(insts)))
        if r.get("driver", {}).get("event_loops") != want:
            err.append("%s: %s event loops for %d instance(s) (expected %d)" % (p, r.get("driver"), len(insts), want))
        tot += s["tps"]
    k = (g, insts[0].split("/")[0] if g in each else "")
    sums[k] = sums.get(k, 0.0) + tot / reps
# The summary's group TPS is the sum of its instances' sample TPS.
rows = {}
for line in open(os.path.join(d, "summary.txt")):
    # fixed columns: run group (28), drive (14), then instances, TPS, avg, p99
    name, drive, rest = line[:28].strip(), line[29:43].strip(), line[44:].split()
    key = {"1 instance, 1 drive": "1-instance-1-drive", "2 instances, 1 drive": "2-instances-1-drive",
           "2 instances, 2 drives": "2-instances-2-drives"}.get(name)
    if key in each:
        rows[(key, drive)] = float(rest[1])
    elif key and (drive == "(all drives)" or key != "2-instances-2-drives"):
        rows[(key, "")] = float(rest[1])
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
# One load cloned: the same checksums; a load per drive: sysbench's random strings differ.
same = st["golden"].get("drive-a") == st["golden"].get("drive-b")
if same != (golden == "once"): err.append("golden %s, yet the fingerprints: %s" % (golden, st["golden"]))
# A complete report: every file, six groups (five drive x run group rows and the all-drives total;
# five without "2 instances, 1 drive") and six (four) instance runs per repetition, all complete,
# read from this campaign's own folder.
rd = os.path.join(d, "report")
for f in ("report.html", "report.md", "report.json", "report-groups.csv", "report-instances.csv"):
    if not os.path.getsize(os.path.join(rd, f)): err.append("empty report file " + f)
rep = json.load(open(os.path.join(rd, "report.json")))
if len(rep["groups"]) != (6 if all_groups else 5) or any(g["status"] != "complete" for g in rep["groups"]):
    err.append("report groups: " + str([(g["label"], g["status"]) for g in rep["groups"]]))
paths = sorted(i["path"] for i in rep["instances"])
want = sorted("%s/%s%s.json" % (g, i, suffix(rep)) for g, insts in expect for i in insts
              for rep in range(1, reps + 1))
if paths != want or not all(i["complete"] for i in rep["instances"]): err.append("report instances: %s" % paths)
# Every result and journal, every column of summary.txt and the report's group
# figures (tpmC among them), from the result files: tests/lib/oracle.py.
if os.system("python3 %s/tests/lib/oracle.py campaign '%s'" % (os.environ["DBRIG_SOURCE_DIR"], d)): err.append("oracle")
for e in err: print("FAIL:", e, file=sys.stderr)
sys.exit(1 if err else 0)
PY
}
# check_telemetry DIR REPS [throttled|significant]: every result's telemetry, the run journals,
# the report's verdicts; with "throttled", drive-b's against drive-a's; with "significant" (the
# second campaign, over repetitions), drive-b ranked last with a significant difference.
check_telemetry() {
	python3 - "$1" "$2" "${3:-}" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["DBRIG_SOURCE_DIR"], "tests/lib"))
import result_file
d, reps, throttled, significant = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "throttled", sys.argv[3] == "significant"
err = []
# (run group folder, the instances of one run, the drive naming its telemetry journal when it ran on each drive in turn)
groups = [("1-instance-1-drive", ["drive-a/vm1"], "drive-a-"), ("1-instance-1-drive", ["drive-b/vm1"], "drive-b-"),
          ("2-instances-1-drive", ["drive-a/vm1", "drive-a/vm2"], ""), ("2-instances-2-drives", ["drive-a/vm1", "drive-b/vm1"], "")]
if significant:  # the second campaign: no "2 instances, 1 drive"
    groups = [x for x in groups if x[0] != "2-instances-1-drive"]
for g, insts, tag in groups:
    for rep in range(1, reps + 1):
        j = os.path.join(d, g, ".telemetry-%srep%d.jsonl" % (tag, rep))
        lines = [json.loads(l) for l in open(j)] if os.path.exists(j) else []
        # A 1 s interval over a 6 s run: a reading at the start, every second, one at the end.
        if len(lines) < 4 or any("cpu" not in l or "disks" not in l or "pid_cpu_s" not in l for l in lines):
            err.append("%s: %d readings %s" % (j, len(lines), lines[:1]))
        for i in insts:
            p = os.path.join(d, g, i + ("-rep%d" % rep if reps > 1 else "") + ".json")
            r = json.load(open(p))
            # A result with its journal beside it leaves its intervals there and names it (format 1.3).
            if "intervals" in r or r.get("journal") != os.path.basename(p)[:-5] + ".jsonl":
                err.append("%s: intervals %s, journal %r (expected none, its journal named)"
                           % (p, "in the result" if "intervals" in r else "left out", r.get("journal")))
            r = result_file.load(p)
            # One writer per file: the driver's result has none of the campaign's telemetry, which is
            # in <instance>.telemetry.json beside it (its intervals matched by phase and time).
            if "telemetry" in r or "test_bed" in r or any("telemetry" in x for x in r["intervals"]):
                err.append(p + ": the campaign wrote into the driver's result")
            tp = p[:-5] + ".telemetry.json"
            tf = json.load(open(tp)) if os.path.exists(tp) else {}
            t = tf.get("telemetry")
            if r["schema"] != "dbrig.result/1.3" or tf.get("schema") != "dbrig.telemetry/1.0" or not t:
                err.append(p + ": no telemetry (" + r["schema"] + ", " + str(tf.get("schema")) + ")")
                continue
            r["test_bed"] = tf.get("test_bed")
            byt = dict(((x["phase"], x["t"]), x["telemetry"]) for x in tf.get("intervals", []))
            for x in r["intervals"]:
                if (x.get("phase"), x.get("t")) in byt:
                    x["telemetry"] = byt[(x["phase"], x["t"])]
            # drive-a: ext4 on a loop over a file; drive-b: on a loop over a file on another loop.
            want = 1 if i.startswith("drive-a/") else 2
            if t["drive"]["stack"].count("(file ") != want or not t["drive"]["path"].endswith("/" + i.split("/")[1] + "/data"):
                err.append("%s: drive %s" % (p, t["drive"]))
            for ph in ("precondition", "sample"):
                x = t["phases"][ph]
                if not x or not 0 <= x["host_cpu"]["busy"] <= 1 or not x["devices"] or x["devices"][0]["name"] != t["drive"]["top"]:
                    err.append("%s: %s telemetry %s" % (p, ph, x))
                    continue
                if x["server"]["cores"] <= 0 or x["driver"]["cores"] <= 0 or x["driver"]["event_loops"] != r["driver"]["event_loops"]:
                    err.append("%s: %s server/driver CPU %s %s" % (p, ph, x.get("server"), x.get("driver")))
            top = t["phases"]["sample"]["devices"][0]
            if top["w_iops"] <= 0 or top["w_mbps"] <= 0 or top["await_ms"] <= 0 or top["queue_depth"] <= 0:
                err.append("%s: the drive did no writes? %s" % (p, top))
            # The test bed: the host, and each device under the drive with its identity and
            # health before and after (SMART figures are null without smartctl or SMART).
            tb = r.get("test_bed") or {}
            h, drv = tb.get("host") or {}, tb.get("drives") or []
            if not str(h.get("kernel") or "").startswith("Linux") or not (h.get("cpus") or 0) >= 1 or not (h.get("ram_bytes") or 0) > 0:
                err.append("%s: test_bed host %s" % (p, h))
            if not drv or any(not x.get("dev") or not (x.get("logical_block_size") or 0) > 0 or
                              any(k not in x for k in ("before", "after", "change", "model", "serial", "firmware"))
                              for x in drv):
                err.append("%s: test_bed drives %s" % (p, drv))
            iv = [x for x in r["intervals"] if x.get("type") == "interval"]
            if not iv or any("telemetry" not in x or x["telemetry"]["devices"][0]["name"] != t["drive"]["top"] for x in iv):
                err.append("%s: intervals without telemetry" % p)
# The IOPS-capped drive (issue 21 item 7): its devices look idle, its server waited on block
# I/O (delay accounting), and the verdict names the storage path with that signal.
def check_storage_path(slow, fast, err):
    busy = slow["device"].get("util") or 0
    w, fw = slow.get("io_wait") or {}, fast.get("io_wait") or {}
    if w.get("source") != "delay accounting" or fw.get("source") != "delay accounting":
        err.append("no delay accounting in the verdicts: throttled %s, fast %s" % (w, fw))
        return
    # Not against the fast drive's wait: on a loaded machine its server waits as much (its
    # loop device was 80% utilised when its file was on the machine's disk); what tells them apart is the device,
    # below the drive rule's 80% (16-46% in four runs here: the loop devices' await grows with CPU load).
    if busy >= 0.8 or w["share"] < 0.3:
        err.append("the throttled drive should look idle while its server waits: %s; the fast one: %s" % (slow, fast))
    if slow["bottleneck"] != "storage path" and not (slow["host_cpu_busy"] >= 0.9 or slow["driver_saturated"]):
        err.append("the throttled drive's verdict is not the storage path: %s" % slow)
    elif slow["bottleneck"] == "storage path" and "(delay accounting)" not in slow["why"]:
        err.append("the storage-path verdict does not name its signal: %s" % slow["why"])
    # Which case this run proved (a loaded machine turns the rule to host CPU, rightly).
    print("throttled drive-b: bottleneck %s (%s), device %s %.0f%% utilised, server waited %.0f%% on block I/O; "
          "drive-a alone: %s at host CPU %.0f%%, device %.0f%% utilised, server waited %.0f%%" % (
        slow["bottleneck"], slow["why"], slow["device"]["name"], 100 * busy, 100 * w["share"],
        fast["bottleneck"], 100 * fast["host_cpu_busy"], 100 * (fast["device"].get("util") or 0), 100 * fw["share"]))

# The report: drive I/O, the bottleneck by the documented rules from the figures it gives, steady state.
rep = json.load(open(os.path.join(d, "report", "report.json")))
def rule(v):
    if v["driver_saturated"]: return "driver"
    if v["host_cpu_busy"] >= 0.9: return "host CPU"
    if v["guest_cpu_busy"] is not None and v["guest_cpu_busy"] >= 0.9: return "guest CPU"
    if v["device"].get("util", 0) >= 0.8: return "drive"
    if (v.get("io_wait") or {}).get("share") is not None and v["io_wait"]["share"] >= 0.3: return "storage path"
    return "unknown"
by = {}
for g in rep["groups"]:
    v, k, ss = g["verdict"], g["key"], g["steady_state"]
    by[(k["run_group"], k["drive"])] = v
    if not v.get("device") or v["device"]["w_iops"] <= 0 or v["host_cpu_busy"] is None:
        err.append("group %s: no drive I/O or host CPU in its verdict: %s" % (g["label"], v))
        continue
    if v["bottleneck"] != rule(v):
        err.append("group %s: bottleneck %s, the rules give %s from %s" % (g["label"], v["bottleneck"], rule(v), v))
    if ss["sample"]["state"] not in ("steady", "not-steady") or ss["sample"]["rounds"] != 6 or ss["precondition"]["state"] != "n/a":
        err.append("group %s: steady state %s" % (g["label"], ss))
    print("%-40s %-9s host CPU %.2f  %s await %.2f ms util %.2f  sample %s" % (g["label"], v["bottleneck"],
          v["host_cpu_busy"], v["device"]["name"], v["device"]["await_ms"], v["device"].get("util", -1), ss["sample"]["state"]))
fast, slow = by.get(("1 instance, 1 drive", "drive-a")), by.get(("1 instance, 1 drive", "drive-b"))
# The run group that ran on each drive in turn is paired: one comparison, with TPS, average and p99 ratios.
c1 = [c for c in rep["comparisons"] if c["run_group"] == "1 instance, 1 drive"]
if len(c1) != 1 or c1[0]["avg_ratio"] is None or c1[0]["p99_ratio"] is None:
    err.append("no drive comparison of the group run on each drive: %s" % rep["comparisons"])
elif throttled:
    # The throttled drive ranks last, with more latency than the fast one.
    if (c1[0]["faster"], c1[0]["slower"], c1[0]["slower_rank"]) != ("drive-a", "drive-b", 2) or c1[0]["avg_ratio"] >= 1:
        err.append("the throttled drive-b does not rank below drive-a: %s" % c1[0])
    print("1 instance, 1 drive: drive-a / throttled drive-b TPS %.2fx, avg latency %.2fx, p99 %.2fx" % (
        c1[0]["tps_ratio"], c1[0]["avg_ratio"], c1[0]["p99_ratio"]))
if not fast or not slow or not fast.get("device") or not slow.get("device"):
    err.append("no verdict for drive-a alone or drive-b alone")
elif throttled:
    check_storage_path(slow, fast, err)
md = open(os.path.join(d, "report", "report.md")).read()
for w in ("ms per I/O", "utilised", "**Steady state**", "**Bottleneck**"):
    if w not in md:
        err.append("report.md lacks " + repr(w))
if reps > 1:
    # Confidence: every group figure has its sd and 95% CI; the drives of the 2-drive group are compared.
    for g in rep["groups"]:
        o = g["over_repetitions"]["tps_sum"]
        if o.get("sd") is None or len(o.get("ci95") or []) != 2:
            err.append("group %s: no sd/CI %s" % (g["label"], o))
    c2 = [c for c in rep["comparisons"] if c["run_group"] == "2 instances, 2 drives"]
    if len(c2) != 1 or "p" not in c2[0]["welch"] or len(c2[0]["tps_ratio_ci95"]) != 2:
        err.append("comparisons: %s" % rep["comparisons"])
    if len(c1) != 1 or len(c1[0]["avg_ratio_ci95"] or []) != 2 or "p" not in (c1[0]["p99_welch"] or {}):
        err.append("the group run on each drive has no latency CIs or tests: %s" % c1)
    if " ± " not in md or "95% CI" not in md:
        err.append("report.md shows no ± or 95% CI")
if significant:
    # Issue 21 item 8: the fast and the throttled drive in one report, the throttled one ranked last
    # with a significant difference (Welch over the repetitions' TPS), said so in the Drive
    # comparison and in the headline.
    if len(c1) != 1 or (c1[0]["faster"], c1[0]["slower"], c1[0]["slower_rank"]) != ("drive-a", "drive-b", 2) or \
            not c1[0]["welch"].get("significant"):
        err.append("the throttled drive-b is not significantly slower than drive-a: %s" % c1)
    else:
        print("1 instance, 1 drive over %d repetitions: drive-a / throttled drive-b TPS %.2fx (95%% CI %s), Welch p = %.3g" % (
            reps, c1[0]["tps_ratio"], c1[0]["tps_ratio_ci95"], c1[0]["welch"]["p"]))
    rows = [l for l in md.split("## Drive comparison", 1)[-1].split("\n## ", 1)[0].splitlines()
            if l.startswith("| 1 instance, 1 drive (")]
    if len(rows) != 1 or "| drive-a |" not in rows[0] or "| drive-b |" not in rows[0] or \
            rows[0].index("drive-a") > rows[0].index("drive-b") or ": significant |" not in rows[0]:
        err.append("report.md Drive comparison does not say drive-a > throttled drive-b, significant: %s" % rows)
    hl = [l for l in md.split("## Headline", 1)[-1].split("\n## ", 1)[0].splitlines() if "**1 instance, 1 drive**" in l]
    if len(hl) != 1 or "drive-a " not in hl[0] or "× drive-b TPS" not in hl[0] or "), significant (Welch p" not in hl[0]:
        err.append("report.md headline does not say drive-a beats the throttled drive-b significantly: %s" % hl)
for e in err:
    print("FAIL:", e, file=sys.stderr)
sys.exit(1 if err else 0)
PY
}
check_campaign "$D" 1 || fail "the first campaign"
# The log times the one build and the clone; drive-b was never loaded.
grep -Eq '^dbrig: drive-a: golden copy built in [0-9]+\.[0-9] s \(tables=2 rows=4000 ' err.txt || fail "no timed golden build of drive-a"
grep -Eq '^dbrig: drive-b: golden copy cloned from drive-a in [0-9]+\.[0-9] s \((reflink|copy); tables=2 rows=4000 ' err.txt ||
	fail "no timed clone of drive-b"
grep -q 'drive-b: loading' err.txt && fail "drive-b was loaded, not cloned"
check_telemetry "$D" 1 throttled || fail "the first campaign's telemetry"
# The campaign's steady_window (6) judges the report it writes and a later `dbrig report` of
# the folder; --steady-window overrides it.
sw() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["steady_window"])' "$1"; }
[ "$(sw "$D/report/report.json")" = 6 ] || fail "the campaign's report was not judged with its steady_window 6"
"$DBRIG_BIN" report "$D" --out "$T/rep-sw" --format=json >/dev/null 2>&1 || fail "dbrig report of the campaign folder"
[ "$(sw "$T/rep-sw/report.json")" = 6 ] || fail "dbrig report did not take the results' steady window 6"
"$DBRIG_BIN" report "$D" --out "$T/rep-sw7" --format=json --steady-window 7 >/dev/null 2>&1 || fail "dbrig report --steady-window 7"
[ "$(sw "$T/rep-sw7/report.json")" = 7 ] || fail "--steady-window 7 did not override the results' 6"
grep -q "its last 6 rounds" "$D/report/report.md" || fail "report.md does not say the window is 6 rounds"
# Results judged with different windows: one warning naming both, and the default 5.
cp -r "$D" "$T/mixed-sw" && rm -rf "$T/mixed-sw/report"
python3 - "$T/mixed-sw/1-instance-1-drive/drive-a/vm1.json" <<'PY' || fail "editing a result's steady window"
import json, sys
r = json.load(open(sys.argv[1])); r["run"]["steady_window"] = 9; json.dump(r, open(sys.argv[1], "w"))
PY
"$DBRIG_BIN" report "$T/mixed-sw" --out "$T/rep-mixed" --format=json >/dev/null 2>"$T/mixed-sw.err" || fail "dbrig report of mixed windows"
grep -q "^dbrig: warning: report: the results were judged with different steady windows (.* and .* rounds): using 5 " "$T/mixed-sw.err" &&
	[ "$(sw "$T/rep-mixed/report.json")" = 5 ] || fail "mixed steady windows: $(cat "$T/mixed-sw.err")"
rm -rf "$T/mixed-sw" "$T/rep-mixed" "$T/rep-sw" "$T/rep-sw7"
# Each restored instance matched the golden copy of its drive, also after vm1 had run a workload.
n=$(grep -c "restore verified" err.txt)
[ "$n" -eq 6 ] || fail "expected 6 verified restores, saw $n"
for k in drive-a drive-b; do
	g=$(python3 -c "import json;print(json.load(open('$D/state.json'))['golden']['$k'])")
	grep "$k/vm" err.txt | grep "restore verified" | grep -vqF "($g)" && fail "a restore on $k differs from its golden copy"
done
grep -qx "report: $D/report/" out.txt || fail "no 'report: $D/report/' line"
# keep is false: the instances and golden copies are gone, the drive folders stay.
[ -d "$T/drive-a" ] && [ -d "$T/drive-b" ] || fail "a drive folder was removed"
[ -e "$T/drive-a/dbrig-local-quick" ] && fail "the campaign folder on drive-a was left behind"
[ -e "$T/drive-b/dbrig-local-quick" ] && fail "the campaign folder on drive-b was left behind"
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
grep -qF "dbrig: $D: campaign local-quick already finished (4 of 4 runs done), its report is $D/report/report.html (expected --fresh to run it again, which keeps these results as $aside/)" again.err ||
	fail "not the finished campaign's line: $(cat again.err)"
[ "$sums1" = "$(tree_sums "$D")" ] || fail "refusing the finished campaign changed its files"

# The demo again: --fresh keeps the first campaign as $aside and runs a second one, with 3
# repetitions, drive-b throttled again: the Drive comparison over repetitions (Welch) must find
# the throttled drive significantly slower, in one report.
DBRIG_DEMO_CONFIG=$T/c2.json demo > out2.txt 2> err2.txt &
dpid=$!
throttle_drive_b $dpid err2.txt || { cat out2.txt err2.txt; fail "drive-b was never throttled in the second campaign"; }
wait $dpid
rc=$?
cat out2.txt err2.txt
[ $rc -eq 0 ] || fail "the second scripts/demo.sh exited $rc"
[ -d "$aside" ] || fail "the first campaign is not at $aside: $(ls "$T/out")"
[ "$(ls "$T/out" | wc -l)" -eq 2 ] || fail "expected local-quick and $(basename "$aside") in out/: $(ls "$T/out")"
grep -qF "the earlier results ($D) are now $aside/" err2.txt || fail "the move was not announced"
[ "$sums1" = "$(tree_sums "$aside")" ] || fail "the first campaign's files changed when they were moved aside"
check_campaign "$aside" 1 || fail "the first campaign, moved aside"
check_campaign "$D" 3 per-drive || fail "the second campaign"
rid() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$1"; }
[ "$(rid "$D/state.json")" != "$(rid "$aside/state.json")" ] || fail "--fresh kept the first run's run_id"
for k in drive-a drive-b; do
	grep -Eq "^dbrig: $k: golden copy built in [0-9]+\.[0-9] s " err2.txt || fail "\"golden\": \"per-drive\" built no golden copy on $k"
done
grep -q 'golden copy cloned' err2.txt && fail "\"golden\": \"per-drive\" cloned a golden copy"
check_telemetry "$D" 3 significant || fail "the second campaign's telemetry"
grep -qx "report: $D/report/" out2.txt || fail "no 'report: $D/report/' line after the second run"
cmp -s "$aside/state.json" "$D/state.json" && fail "the second campaign did not write its own state"
pgrep -f "datadir=$T/" >/dev/null && fail "a mariadbd of the test is still running"

# A clone that is not the same bytes: drive-a's copy of drive-b's golden copy changes a row
# whenever a server starts on it (--init-file). The campaign stops before any run, with one
# line naming drive-a and both fingerprints, and does not mark the clone complete.
mdb=$(command -v mariadbd || echo /usr/sbin/mariadbd)
cat > mariadbd-tamper <<EOF
#!/bin/sh
case " \$* " in *"/drive-a/dbrig-local-tamper/golden/data "*) exec "$mdb" "\$@" --init-file="$T/tamper.sql";; esac
exec "$mdb" "\$@"
EOF
chmod +x mariadbd-tamper
echo "UPDATE sbtest.sbtest1 SET k = k + 1 WHERE id = 1;" > tamper.sql
"$DBRIG_BIN" campaign c3.json > tamper.out 2> tamper.err
rc=$?
cat tamper.err
[ $rc -eq 1 ] || fail "a campaign with a tampered clone exited $rc (expected 1)"
grep -Eq '^dbrig: drive-b: golden copy built in [0-9]+\.[0-9] s ' tamper.err || fail "drive-b's golden copy was not built"
grep -Eq '^dbrig: (error: )?drive-a: the golden copy cloned from drive-b differs from it [(]tables=2 rows=4000 .*, expected tables=2 rows=4000 ' tamper.err ||
	fail "no line naming drive-a's differing clone"
[ -z "$(find "$T/out3" -name '*.json' ! -name state.json)" ] || fail "a run started on a tampered clone"
[ -e "$T/drive-a/dbrig-local-tamper/golden/.complete" ] && fail "the tampered clone was marked complete"
pgrep -f "datadir=$T/" >/dev/null && fail "a mariadbd of the test is still running"
echo "campaign_local: ok"
