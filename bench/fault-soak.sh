#!/usr/bin/env bash
# Fault soak (a benchmark of robustness, not a test: it runs for 20 minutes).
# A campaign on the local target runs on two drive folders, its results on a
# small tmpfs (the "results disk"), while this script injects a fault at a
# random moment every SOAK_GAP_MIN..SOAK_GAP_MAX seconds, one of:
#   server   kill -9 of one of the campaign's mariadbd, restarted 1-3 s later
#            with the same command line (as an init system would)
#   kill     KILL of every driver connection of one instance (from the server)
#   driver   SIGTERM to one driver process
#   campaign kill -9 of `dbrig campaign`
#   disk     the results disk filled to the last byte for 5-20 s, then freed
#   hup      SIGHUP to `dbrig campaign` (a closed terminal: it stops in order)
#   beside   the same campaign file, with a relative output, started from
#            another folder while the campaign runs: it must be refused in
#            one line (the drives are locked) and disturb nothing
# Whenever the campaign process has ended with runs left, it is resumed
# (`--resume`); when it has finished, another starts over it (`--fresh`, the
# finished one kept beside it). After SOAK_SECONDS no more faults: the last
# campaign is resumed to its end. Then it checks, over every campaign folder:
# every run done; every result complete, every kept .partial-<n> attempt
# marked (interrupted or failed), a result whose server was away for more
# than 1% of its sample marked degraded (with its outage) and left out of the
# report's figures; every journal line whole JSON (at most a cut
# last line); `dbrig report` counts each run once (results per repetition ==
# VMs, partials only as superseded attempts) and agrees with the campaign's
# summary; nothing dbrig did not create was touched (files and folders
# planted in the drive folders and on the results disk, and two processes
# named mariadbd and dbrig that are not the campaign's). It prints the faults,
# what each campaign process ended with, and what was lost (target: nothing).
#
#   bench/fault-soak.sh                         # 20 minutes, seed from the clock
#   SOAK_SECONDS=300 SOAK_SEED=7 bench/fault-soak.sh
# Needs root (the tmpfs) and mariadb-server; uses 127.0.0.1 only.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/tests/lib/ports.sh"
DBRIG_BIN=${DBRIG_BIN:-$here/build/dbrig}
SOAK_SECONDS=${SOAK_SECONDS:-1200}
SOAK_GAP_MIN=${SOAK_GAP_MIN:-15}
SOAK_GAP_MAX=${SOAK_GAP_MAX:-40}
SOAK_SEED=${SOAK_SEED:-$(date +%s)}
SAMPLE=${SAMPLE:-25}
REPS=${REPS:-4}
RANDOM=$SOAK_SEED
[ -x "$DBRIG_BIN" ] || { echo "no dbrig binary at $DBRIG_BIN (build first, or set DBRIG_BIN)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "the results disk is a tmpfs: run as root" >&2; exit 1; }
command -v mariadb >/dev/null || { echo "mariadb-client is missing" >&2; exit 1; }

W=$(mktemp -d /tmp/dbrig-soak.XXXXXX)
R=$W/results
L=$W/log
mkdir -p "$R" "$L" "$W/drives/d1" "$W/drives/d2"
mount -t tmpfs -o size=48m,mode=0755 tmpfs "$R" || { echo "cannot mount a tmpfs on $R" >&2; exit 1; }
CPID= FOREIGN=()
cleanup() {
	local p c
	[ -n "$CPID" ] && kill -9 "$CPID" 2>/dev/null
	for p in "${FOREIGN[@]}"; do kill "$p" 2>/dev/null; done
	# Servers of this soak only: their command line names a data directory under $W.
	for p in /proc/[0-9]*; do
		c=$({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null) || continue
		case "$c" in *mariadbd*"--datadir=$W/"*) kill -9 "${p#/proc/}" 2>/dev/null ;; esac
	done
	sleep 1
	umount "$R" 2>/dev/null || umount -l "$R"
	[ "${KEEP:-0}" = 1 ] && echo "kept $W" || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

base=$(free_port_block 6) || exit 1
CFG=$W/soak.json
cat >"$CFG" <<JSON
{
  "name": "soak",
  "workload": {"kind": "sysbench", "test": "oltp_read_write", "options": {"tables": 1, "table-size": 5000}},
  "engine": {"kind": "mariadb", "buffer_pool": "32M", "server_options": {"innodb_log_file_size": "16M"}},
  "target": {"kind": "local", "base_port": $base, "create_drive_dirs": true},
  "drives": [{"name": "d1", "path": "$W/drives/d1"}, {"name": "d2", "path": "$W/drives/d2"}],
  "run_groups": [{"name": "one", "placement": {"d1": 1}}, {"name": "two", "placement": {"d1": 1, "d2": 1}}],
  "repetitions": $REPS, "precondition": "5s", "sample": "${SAMPLE}s", "threads": 2, "report_interval": "1s",
  "output": "$R", "verify_restore": true
}
JSON

# What dbrig did not create, and must leave alone.
echo "a file of the drive's owner" >"$W/drives/d1/precious.txt"
mkdir -p "$W/drives/d2/other-tool/data" && echo "another tool's data" >"$W/drives/d2/other-tool/data/x"
echo "notes beside the results" >"$R/notes.txt"
mkdir -p "$W/bin"
cp "$(command -v sleep)" "$W/bin/mariadbd"
cp "$(command -v sleep)" "$W/bin/dbrig"
"$W/bin/mariadbd" 100000 &
FOREIGN+=($!)
"$W/bin/dbrig" 100000 &
FOREIGN+=($!)
planted() { (cd "$W" && sha256sum drives/d1/precious.txt drives/d2/other-tool/data/x results/notes.txt); }
planted_before=$(planted)

log() { printf '%s %s\n' "$(date -u +%T)" "$*" | tee -a "$L/soak.log"; }
declare -A FAULTS=() EXITS=()
nfault=0 ncamp=0 nresume=0 nfresh=0

camp() { # start dbrig campaign in the background with these flags
	(cd "$W" && exec "$DBRIG_BIN" campaign "$CFG" "$@") >>"$L/campaign.out" 2>>"$L/campaign.err" &
	CPID=$!
	ncamp=$((ncamp + 1))
	log "campaign started (pid $CPID${1:+, $*})"
}
state_all_done() {
	python3 - "$R/soak/state.json" <<'PY' 2>/dev/null
import json, sys
st = json.load(open(sys.argv[1]))
sys.exit(0 if all(r["status"] == "done" for r in st["runs"]) else 1)
PY
}
# The campaign process ended: note how, then resume or start again.
check_campaign() { # check_campaign MAY_START_NEW
	local rc
	[ -n "$CPID" ] && kill -0 "$CPID" 2>/dev/null && return 0
	if [ -n "$CPID" ]; then
		wait "$CPID" 2>/dev/null
		rc=$?
		EXITS[$rc]=$((${EXITS[$rc]:-0} + 1))
		log "campaign pid $CPID ended with exit $rc: $(tail -n1 "$L/campaign.err" | cut -c1-160)"
		CPID=
	fi
	if state_all_done; then
		[ "$1" = 1 ] || return 1
		nfresh=$((nfresh + 1))
		camp --fresh
	else
		nresume=$((nresume + 1))
		camp --resume
	fi
	return 0
}
pick() { # pick LINES: one line at random
	local a=()
	mapfile -t a
	[ ${#a[@]} -gt 0 ] && printf '%s\n' "${a[RANDOM % ${#a[@]}]}"
}
servers() { # pids of the campaign's mariadbd
	local p c
	for p in /proc/[0-9]*; do
		c=$({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null) || continue
		case "$c" in *mariadbd*"--datadir=$W/drives/"*) echo "${p#/proc/}" ;; esac
	done
}
drivers() {
	local p c
	for p in /proc/[0-9]*; do
		c=$({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null) || continue
		case "$c" in *" sysbench "*"--run-campaign=soak "*) echo "${p#/proc/}" ;; esac
	done
}

fault_server() {
	local pid args=()
	pid=$(servers | pick) || { log "fault server: no server up"; return 1; }
	{ mapfile -d '' -t args <"/proc/$pid/cmdline"; } 2>/dev/null
	[ ${#args[@]} -gt 0 ] || { log "fault server: $pid went away"; return 1; }
	kill -9 "$pid" 2>/dev/null
	sleep $((1 + RANDOM % 3))
	# Restarted outside dbrig, the way an init system would: same command line.
	setsid "${args[@]}" >/dev/null 2>&1 </dev/null &
	log "fault server: kill -9 of mariadbd $pid, restarted as $! ($(printf '%s\n' "${args[@]}" | grep -m1 -- --datadir))"
}
fault_kill() {
	local sock ids n=0 id
	sock=$(ls "$W"/drives/*/dbrig-soak/vm*/boot/mysqld.sock 2>/dev/null | pick) || { log "fault kill: no instance up"; return 1; }
	ids=$(mariadb --no-defaults -uroot -S "$sock" -N -B -e "SELECT ID FROM information_schema.PROCESSLIST WHERE USER='sbtest'" 2>/dev/null)
	for id in $ids; do mariadb --no-defaults -uroot -S "$sock" -e "KILL $id" 2>/dev/null && n=$((n + 1)); done
	log "fault kill: KILL of $n connection(s) on $sock"
	[ $n -gt 0 ]
}
fault_driver() {
	local pid
	pid=$(drivers | pick) || { log "fault driver: no driver running"; return 1; }
	kill -TERM "$pid" 2>/dev/null
	log "fault driver: SIGTERM to driver $pid"
}
fault_campaign() {
	[ -n "$CPID" ] && kill -0 "$CPID" 2>/dev/null || { log "fault campaign: not running"; return 1; }
	kill -9 "$CPID"
	log "fault campaign: kill -9 of dbrig campaign $CPID"
}
fault_hup() {
	[ -n "$CPID" ] && kill -0 "$CPID" 2>/dev/null || { log "fault hup: not running"; return 1; }
	kill -HUP "$CPID"
	log "fault hup: SIGHUP to dbrig campaign $CPID"
}
fault_beside() {
	local rc
	[ -n "$CPID" ] && kill -0 "$CPID" 2>/dev/null || { log "fault beside: not running"; return 1; }
	mkdir -p "$W/beside"
	sed 's|"output": "[^"]*"|"output": "rel-out"|' "$CFG" >"$W/beside/soak.json"
	(cd "$W/beside" && "$DBRIG_BIN" campaign soak.json --resume) >"$L/beside.out" 2>"$L/beside.err"
	rc=$?
	if [ $rc = 1 ] && [ "$(wc -l <"$L/beside.err")" = 1 ] && grep -q 'is in use by campaign "soak" from another folder' "$L/beside.err"; then
		log "fault beside: a second campaign from another folder refused: $(cut -c1-140 "$L/beside.err")"
	else
		BESIDE_BAD=$((BESIDE_BAD + 1))
		log "fault beside: NOT refused (exit $rc): $(head -c 300 "$L/beside.err")"
	fi
	[ ! -e "$W/beside/rel-out/soak" ] || { BESIDE_BAD=$((BESIDE_BAD + 1)); log "fault beside: it made rel-out/soak"; }
}
BESIDE_BAD=0
fault_disk() {
	local hold=$((5 + RANDOM % 16))
	dd if=/dev/zero of="$R/.soak-filler" bs=64k >/dev/null 2>&1
	log "fault disk: results disk full ($(df -k --output=avail "$R" | tail -n1) KiB left) for ${hold}s"
	sleep "$hold"
	rm -f "$R/.soak-filler"
}

log "soak: ${SOAK_SECONDS}s, faults every ${SOAK_GAP_MIN}-${SOAK_GAP_MAX}s, seed $SOAK_SEED, in $W ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
camp
t0=$SECONDS
kinds=(server kill driver campaign disk hup beside)
while [ $((SECONDS - t0)) -lt "$SOAK_SECONDS" ]; do
	gap=$((SOAK_GAP_MIN + RANDOM % (SOAK_GAP_MAX - SOAK_GAP_MIN + 1)))
	for ((i = 0; i < gap && SECONDS - t0 < SOAK_SECONDS; i++)); do
		sleep 1
		check_campaign 1
	done
	[ $((SECONDS - t0)) -lt "$SOAK_SECONDS" ] || break
	k=${kinds[RANDOM % ${#kinds[@]}]}
	if "fault_$k"; then
		FAULTS[$k]=$((${FAULTS[$k]:-0} + 1))
		nfault=$((nfault + 1))
	fi
	check_campaign 1
done
log "soak: no more faults; the last campaign runs to its end"
for _ in $(seq 1 20); do
	[ -n "$CPID" ] && wait "$CPID" 2>/dev/null
	check_campaign 0 || break
done
sleep 2

# --- checks ---
problems=0
problem() { log "LOST: $*"; problems=$((problems + 1)); }
dirs=$(cd "$R" && ls -d soak soak.* 2>/dev/null)
for d in $dirs; do
	# A report made now (the campaign's own may be missing: the disk may have been full at its end).
	"$DBRIG_BIN" report "$R/$d" --out "$L/report-$d" --compare none >/dev/null 2>"$L/report-$d.err" ||
		problem "$d: dbrig report failed: $(tail -n1 "$L/report-$d.err")"
	python3 - "$R/$d" "$L/report-$d/report.json" <<'PY' >>"$L/checks.txt" 2>&1 || problem "$d: see $L/checks.txt"
import glob, json, os, re, sys
d = sys.argv[1]
err, info = [], {"results": 0, "degraded": 0, "partials": 0, "journals": 0, "cut_last_lines": 0, "journals_stopped_by_full_disk": 0,
                 "attempts_redone": 0}
st = json.load(open(os.path.join(d, "state.json")))
for r in st["runs"]:
    if r["status"] != "done": err.append("run %s is %s" % (r["id"], r["status"]))
    info["attempts_redone"] += r["attempts"] - 1
for p in glob.glob(os.path.join(d, "*", "*", "*.json")):
    if p.endswith(".telemetry.json"):
        continue  # the campaign's telemetry of a run, beside its result
    r = json.load(open(p))
    if re.search(r"\.partial-\d+\.json$", p):
        # History, whatever its status: a complete one was redone because a sibling of its run failed.
        info["partials"] += 1
    else:
        info["results"] += 1
        if r["status"] == "degraded" and r.get("outage", {}).get("share", 0) > 0.01:
            info["degraded"] += 1  # marked, with its outage; the report leaves it out
        elif r["status"] != "complete": err.append("%s: %s" % (p, r["status"]))
for p in glob.glob(os.path.join(d, "*", "*", "*.jsonl")):
    info["journals"] += 1
    lines = open(p, encoding="utf-8", errors="replace").read().split("\n")
    last = lines.pop()  # "" after the final newline, or a cut line
    if last: info["cut_last_lines"] += 1
    for i, l in enumerate(lines):
        try: json.loads(l)
        except ValueError: err.append("%s: line %d is not JSON" % (p, i + 1))
    partial = re.search(r"\.partial-\d+\.jsonl$", p)
    if not partial and (not lines or json.loads(lines[-1]).get("type") != "end"):
        # The driver stops its journal at the first failed write (one warning, the run goes
        # on) and writes every interval into the result: nothing lost if that one is complete.
        res = p[:-1]
        got = json.load(open(res)) if os.path.exists(res) else {}
        njl = sum(1 for l in lines if json.loads(l).get("type") == "interval")
        # A result that names its journal (format 1.3) had every interval appended to it: only the
        # end line, written after the result, was lost.
        if got.get("status") in ("complete", "degraded") and (len(got.get("intervals") or []) >= njl or
                                                              got.get("journal") == os.path.basename(p)):
            info["journals_stopped_by_full_disk"] += 1
        else:
            err.append(p + ": no end line")
info["own_report"] = int(os.path.exists(os.path.join(d, "report", "report.json")))
rep = sys.argv[2]
if not os.path.exists(rep): err.append("no report")
else:
    rj = json.load(open(rep))
    for g in rj["groups"]:
        if g["all_drives"]: continue
        for rp in g["repetitions"]:  # one VM per drive in every run group: one result per repetition
            if len(rp["results"]) != 1 or any(".partial-" in x for x in rp["results"]) or \
                    any(json.load(open(os.path.join(d, x)))["status"] == "degraded" for x in rp["results"]):
                err.append("report: %s rep %d counts %s" % (g["label"], rp["repetition"], rp["results"]))
        if g["status"] != "complete": err.append("report: %s is %s" % (g["label"], g["status"]))
    stems = {re.sub(r"\.jsonl?$", "", os.path.relpath(p, d)) for p in glob.glob(os.path.join(d, "*", "*", "*.partial-*.json*"))
             if not p.endswith(".telemetry.json")}
    listed = {re.sub(r"\.jsonl?$", "", s["path"]) for s in rj["superseded"]}
    warned = open(sys.argv[2][:-len("/report.json")] + ".err").read()
    unread = {x for x in stems - listed if x + ".jsonl" in warned or x + ".json" in warned}
    info["unreadable_attempts_left_out"] = len(unread)
    if stems - unread != listed: err.append("report: superseded %s, partial files %s" % (sorted(listed), sorted(stems)))
    tps = {(g["key"]["run_group"], g["key"]["drive"]): g["over_repetitions"]["tps_sum"]["mean"] for g in rj["groups"] if not g["all_drives"]}
    summary = os.path.join(d, "summary.txt")
    info["summary"] = int(os.path.exists(summary))
    for line in (open(summary) if info["summary"] else []):
        f = line[:28].strip(), line[29:43].strip()
        if f in tps:
            got = float(line[44:].split()[1])
            if abs(got - tps[f]) > 0.01: err.append("summary %s %s TPS %.2f, report %.2f" % (f + (got, tps[f])))
print("%s: %s" % (os.path.basename(d), ", ".join("%s %d" % kv for kv in info.items())))
for e in err: print("  " + e)
sys.exit(1 if err else 0)
PY
done
[ "$BESIDE_BAD" = 0 ] || problem "$BESIDE_BAD second campaign(s) beside the running one were not refused"
[ "$planted_before" = "$(planted)" ] || problem "a file dbrig did not create was changed"
[ -d "$W/drives/d2/other-tool/data" ] || problem "a folder dbrig did not create was removed"
for p in "${FOREIGN[@]}"; do kill -0 "$p" 2>/dev/null || problem "process $p ($(cat /proc/$p/comm 2>/dev/null)), not dbrig's, was killed"; done
left=$(servers | wc -l)
[ "$left" = 0 ] || problem "$left mariadbd of the campaign still running after it finished"
[ -z "$(find "$R" -name '*.tmp.*')" ] || problem "temporary files left: $(find "$R" -name '*.tmp.*' | head -3)"

echo
echo "=== fault soak: $((SECONDS - t0))s, seed $SOAK_SEED"
printf 'faults injected: %d (' "$nfault"
for k in "${kinds[@]}"; do printf '%s %d ' "$k" "${FAULTS[$k]:-0}"; done
printf ')\n'
printf 'campaign processes: %d (resumed %d times, started over %d times); they ended with: ' "$ncamp" "$nresume" "$nfresh"
for rc in "${!EXITS[@]}"; do printf 'exit %s x%d  ' "$rc" "${EXITS[$rc]}"; done
echo
echo "campaigns: $(echo $dirs | wc -w)"
cat "$L/checks.txt"
echo "lost: $problems $( [ $problems = 0 ] && echo '(nothing: every run done, every result complete or marked (degraded ones left out of the figures), every journal whole, each run counted once, nothing foreign touched)')"
[ $problems = 0 ]
