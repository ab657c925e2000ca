#!/bin/bash
# Short TPC-C campaigns on the local target with the real `dbrig tpcc` driver:
# MariaDB (libmysqlclient) and PostgreSQL 15 (psqlODBC), 2 warehouses on one
# drive, run groups of 1 and 2 instances, seconds per phase. Checks that every
# instance left a complete tpcc result and journal, that the summary's group
# TPS is the sum of its instances', that every restore was verified with
# `dbrig tpcc check` (the 12 consistency conditions) and row counts equal to the golden
# copy's (orders included) although the runs before it added orders, that
# every result passes the oracle (tests/lib/oracle.py) and the summary and the
# report's figures (tpmC included) agree with the result files, that the
# generated password file is 0600 and the password never appears in the argv
# of any process either campaign started (every execve traced with strace,
# the password read from the environment the drivers got), a result, a
# journal or a log, and that no server is left running.
# needs: odbc
set -uo pipefail
. "$(dirname "$0")/../lib/campaign.sh"
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
chmod 755 "$T" # the postgres user reaches its data directories through it
need_mariadb
command -v strace >/dev/null || fail "strace is missing (scripts/deps-reliability.txt)"
for b in postgres initdb pg_isready psql; do
	[ -x "$PG_BIN/$b" ] || fail "$PG_BIN/$b is missing (postgresql-15, scripts/deps-campaign.txt)"
done
ls /usr/lib/*/odbc/psqlodbcw.so >/dev/null 2>&1 || fail "psqlODBC is missing (odbc-postgresql, scripts/deps-campaign.txt)"

# Preflight: missing PostgreSQL programs and a busy port are one clear line, before anything starts.
mkdir -p "$T/pre"
pre() { # pre NAME TARGET-EXTRA
	cat >"$T/pre/$1.json" <<JSON
{"name": "pre-$1", "workload": {"kind": "tpcc", "options": {"warehouses": 1}},
 "engine": {"kind": "postgresql"}, "target": {"kind": "local", "allow_shared_device": true, "base_port": $base, "create_drive_dirs": true$2},
 "drives": [{"name": "da", "path": "$T/pre/a"}], "run_groups": [{"name": "g", "placement": {"da": 1}}],
 "precondition": 0, "sample": "1s", "output": "$T/pre/out"}
JSON
	(cd "$T/pre" && "$DBRIG_BIN" campaign "$1.json" >"$1.out" 2>&1)
}
base=$(free_port_block 4) || exit 1
pre nobin ', "postgres_bin_dir": "/nonexistent/bin"'
[ $? -ne 0 ] && grep -q 'postgres_bin_dir: "/nonexistent/bin/postgres" is missing' "$T/pre/nobin.out" ||
	fail "a missing postgres is not a clear preflight error: $(cat "$T/pre/nobin.out")"
python3 -c "
import socket, sys, time
s = socket.socket(); s.bind(('127.0.0.1', $base)); s.listen(); open(sys.argv[1], 'w').close(); time.sleep(60)" "$T/pre/listening" &
LP=$!
for _ in $(seq 1 50); do [ -e "$T/pre/listening" ] && break; sleep 0.1; done
pre busy ''
echo $? >"$T/pre/busy.rc"
kill $LP 2>/dev/null; wait $LP 2>/dev/null
[ "$(cat "$T/pre/busy.rc")" != 0 ] && grep -q "port $base on 127.0.0.1 is in use" "$T/pre/busy.out" ||
	fail "a busy port is not a clear preflight error: $(cat "$T/pre/busy.out")"
[ -e "$T/pre/a" ] || [ -e "$T/pre/out" ] && fail "a failed preflight created folders"

# campaign NAME ENGINE-JSON KEEP [SESSIONS]: SESSIONS "terminals" gives each
# terminal its own session ("sessions": "terminals"); else 2 pooled connections.
campaign() {
	local name=$1 engine=$2 keep=$3 sessions=${4:-pool} base conns='"threads": 2' plan="2 connections per instance"
	if [ "$sessions" = terminals ]; then
		conns='"sessions": "terminals"' plan="6 connections per instance (one session per terminal)"
	fi
	base=$(free_port_block 4) || exit 1
	mkdir -p "$T/$name"
	cat >"$T/$name/c.json" <<JSON
{
  "name": "ci-$name",
  "workload": {"kind": "tpcc", "options": {"warehouses": 2, "terminals": 6, "delays": "off", "rand-seed": 11}},
  "engine": $engine,
  "target": {"kind": "local", "allow_shared_device": true, "base_port": $base, "create_drive_dirs": true, "db_user": "ci_tpcc_user"},
  "drives": [{"name": "da", "path": "$T/$name/a"}],
  "run_groups": [
    {"name": "1 instance", "placement": {"da": 1}},
    {"name": "2 instances", "placement": {"da": 2}}
  ],
  "precondition": "2s", "sample": "4s", $conns, "report_interval": "1s",
  "output": "$T/$name/out", "verify_restore": true, "keep": $keep
}
JSON
	(cd "$T/$name" && "$DBRIG_BIN" campaign c.json --plan >plan.txt) || fail "$name: --plan failed"
	grep -qF "tpcc: 2 warehouse(s), $plan" "$T/$name/plan.txt" || fail "$name: --plan does not describe the TPC-C load"
	# Every execve of the campaign and its children, argv and environment
	# (LeakSanitizer cannot run under ptrace: in an ASan build the leaks of these
	# processes are left to valgrind_commands and the other ASan runs).
	(cd "$T/$name" && ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f --seccomp-bpf -v -s 65535 -e trace=execve -o exec.strace \
		"$DBRIG_BIN" campaign c.json >out.txt 2>err.txt)
	local rc=$?
	cat "$T/$name/out.txt" "$T/$name/err.txt"
	[ $rc -eq 0 ] || fail "$name: campaign exited $rc"

	python3 - "$T/$name/out/ci-$name" "$name" "$sessions" <<'PY' || exit 1
import json, os, sys
d, name, sessions = sys.argv[1], sys.argv[2], sys.argv[3]
st = json.load(open(os.path.join(d, "state.json")))
err = []
expect = {"1-instance": ["da/vm1"], "2-instances": ["da/vm1", "da/vm2"]}
sums = {}
for g, insts in expect.items():
    tot = 0.0
    for i in insts:
        p = os.path.join(d, g, i + ".json")
        if not os.path.exists(p):
            err.append("missing result " + p); continue
        r = json.load(open(p))
        if r["status"] != "complete": err.append(p + " status " + r["status"])
        if r["workload"]["kind"] != "tpcc": err.append(p + " is not a tpcc result")
        if r["run"]["vm_count"] != len(insts) or r["run"]["campaign"] != "ci-" + name: err.append(p + " run identity " + str(r["run"]))
        s = r["phases"]["sample"]
        if s["tps"] <= 0: err.append(p + " tps 0")
        if s["types"]["new_order"]["count"] <= 0: err.append(p + " added no orders, the restore check proves little")
        if r["phases"]["precondition"]["transactions"] <= 0: err.append(p + " no precondition")
        wp = r["workload"]["params"]
        if (wp["sessions"], wp["connections"]) != (sessions, 6 if sessions == "terminals" else 2):
            err.append(p + " sessions %s over %s connections" % (wp["sessions"], wp["connections"]))
        if r["percentiles"] != [95, 99]: err.append(p + " percentiles %s, not the campaign's [95, 99]" % r["percentiles"])
        if not os.path.exists(p + "l"): err.append("missing journal " + p + "l")
        ck = r.get("consistency", {}).get("after")
        if not ck or not ck["ok"] or len(ck["conditions"]) != 12:
            err.append(p + " has no passed consistency check after the run: %s" % ck)
        elif [c["condition"] for c in ck["conditions"] if not c["applies"]] != [11]:
            err.append(p + " condition 11 should not apply after Deliveries: %s" % ck["conditions"][10])
        tot += s["tps"]
    sums[g] = tot
rows = {}
for line in open(os.path.join(d, "summary.txt")):
    key = {"1 instance": "1-instance", "2 instances": "2-instances"}.get(line[:28].strip())
    if key:
        rows[key] = float(line[44:].split()[1])
for g, tot in sums.items():
    if g not in rows: err.append("summary has no row for " + g)
    elif abs(rows[g] - tot) > 0.01 + 1e-6 * tot: err.append("%s: summary TPS %.2f != sum of instances %.2f" % (g, rows[g], tot))
gold = st["golden"].get("da", "")
if "rows: warehouse 2, district 20, customer 60000, orders 60000, new_order 18000" not in gold:
    err.append("golden fingerprint: " + gold)
for r in st["runs"]:
    if r["status"] != "done" or r["attempts"] != 1: err.append("run %s: %s after %d attempts" % (r["id"], r["status"], r["attempts"]))
    if r["restore_check"] != "verified: " + gold: err.append("run %s: restore %s" % (r["id"], r["restore_check"]))
# Every result and journal, every column of summary.txt and the report's group
# figures (tpmC among them), from the result files: tests/lib/oracle.py.
if os.system("python3 %s/tests/lib/oracle.py campaign '%s'" % (os.environ["DBRIG_SOURCE_DIR"], d)): err.append("oracle")
import csv
rows = list(csv.DictReader(open(os.path.join(d, "report", "report-groups.csv"))))
if not rows or any(not r["tpmc"] for r in rows): err.append("a TPC-C group without tpmC in report-groups.csv")
for e in err: print("FAIL: %s: %s" % (name, e), file=sys.stderr)
sys.exit(1 if err else 0)
PY
	# Three restores (vm1, then vm1 and vm2 after vm1 ran), each checked by dbrig tpcc check.
	n=$(grep -c "restore verified (rows: warehouse 2, district 20, customer 60000, orders 60000," "$T/$name/err.txt")
	[ "$n" -eq 3 ] || fail "$name: expected 3 verified restores with the golden order count, saw $n"
	grep -q "^report: " "$T/$name/out.txt" || fail "$name: no report"
}

campaign mariadb '{"kind": "mariadb", "buffer_pool": "64M", "server_options": {"innodb_log_file_size": "32M"}}' false
r=$(python3 -c "import json;print(json.load(open('$T/mariadb/out/ci-mariadb/1-instance/da/vm1.json'))['engine']['driver'])")
[ "$r" = mysql ] || fail "mariadb: the driver was $r, expected mysql (libmysqlclient)"
[ -e "$T/mariadb/a/dbrig-ci-mariadb" ] && fail "mariadb: the campaign folder was left behind"

# keep: true, so the generated password can be looked for afterwards.
# PostgreSQL with one session per terminal (6 terminals, 6 sessions per instance).
campaign postgres '{"kind": "postgresql", "buffer_pool": "64M"}' true terminals
r=$(python3 -c "import json;e=json.load(open('$T/postgres/out/ci-postgres/2-instances/da/vm2.json'))['engine'];print(e['driver'], 'PostgreSQL Unicode' in e['endpoint'] and 'Protocol=7.4-1' in e['endpoint'])")
[ "$r" = "odbc True" ] || fail "postgres: driver/endpoint $r, expected odbc through psqlODBC with Protocol=7.4-1"
[ "$(stat -c %U "$T/postgres/a/dbrig-ci-postgres/vm1/data")" = "$( [ "$(id -u)" = 0 ] && echo postgres || id -un)" ] ||
	fail "postgres: the data directory is not owned by the server's user"
[ -f "$T/postgres/a/dbrig-ci-postgres/odbc/odbcinst.ini" ] || fail "postgres: no project-local odbcinst.ini"

cred=$T/postgres/a/dbrig-ci-postgres/.credentials
pw=$(head -n1 "$cred")
[ ${#pw} -ge 16 ] || fail "postgres: no generated password in .credentials"
[ "$(stat -c %a "$cred")" = 600 ] || fail "postgres: .credentials is mode $(stat -c %a "$cred"), expected 600"
# The MariaDB campaign (keep: false) removed its .credentials: its password is the
# MYSQL_PWD its drivers were given.
mpw=$(grep -o 'MYSQL_PWD=[0-9a-f]*' "$T/mariadb/exec.strace" | sort -u | cut -d= -f2)
[ "$(echo "$mpw" | wc -w)" = 1 ] && [ ${#mpw} -ge 16 ] || fail "mariadb: expected one generated MYSQL_PWD in the traced environments, got: $mpw"
grep -qF "ODBC_PWD=$pw" "$T/postgres/exec.strace" || fail "postgres: the drivers did not get the password through ODBC_PWD"
for c in mariadb postgres; do
	p=$pw; [ $c = mariadb ] && p=$mpw
	python3 "$DBRIG_SOURCE_DIR/tests/lib/strace_check.py" argv "$T/$c/exec.strace" "$p" || fail "$c: the password appeared in a command line"
	grep -rqF "$p" "$T/$c/out" "$T/$c/out.txt" "$T/$c/err.txt" && fail "$c: the password appeared in a result, journal or log"
done
grep -qF "$pw" "$T/postgres/a/dbrig-ci-postgres/golden/boot/prepare.log" && fail "the password appeared in the prepare log"

# No server of either campaign is left running.
pgrep -f "datadir=$T/" >/dev/null && fail "a mariadbd of the test is still running"
pgrep -f -- "-D $T/" >/dev/null && fail "a postgres of the test is still running"
echo "campaign_tpcc: ok"
