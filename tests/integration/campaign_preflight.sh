#!/bin/bash
# The local target refuses to start, before touching anything, when a port is
# busy, when the server binary is missing, or when a folder in the way was not
# created by dbrig; --resume without a state file is a usage error. The shipped
# configs plan cleanly.
# needs: odbc
set -uo pipefail
. "$(dirname "$0")/../lib/campaign.sh"
LPID=
CPID=
on_exit() { [ -n "$LPID" ] && kill -9 "$LPID" 2>/dev/null; [ -n "$CPID" ] && kill -9 "$CPID" 2>/dev/null; }
need_mariadb
base=$(free_port_block 3) || exit 1
mkdir -p "$T/a"
cd "$T" || exit 1
write_cfg() { # $1 = extra target settings
	cat > c.json <<JSON
{"name": "pf", "workload": {"kind": "sysbench", "test": "oltp_read_only"},
 "engine": {"kind": "mariadb"}, "target": {"kind": "local", "allow_shared_device": true, "base_port": $base $1},
 "drives": [{"name": "a", "path": "$T/a"}], "run_groups": [{"name": "g", "placement": {"a": 1}}],
 "precondition": 0, "sample": 1, "output": "$T/out"}
JSON
}
untouched() { [ -z "$(ls -A "$T/a")" ] && [ ! -e "$T/out/pf/state.json" ]; }
# The whole of stderr is this one line (test review: messages were matched as fragments).
one_line() { [ "$(cat err.txt)" = "$1" ]; }

write_cfg ""
"$DBRIG_BIN" campaign c.json --resume > /dev/null 2> err.txt; rc=$?
[ $rc -eq 2 ] && one_line "dbrig: $T/out/pf/state.json: nothing to resume: no campaign state (expected a campaign started with the same config)" ||
	fail "--resume without state: rc $rc, $(cat err.txt)"

# A busy port (something listening on the first instance's port).
python3 -c "
import socket,time
s=socket.socket(); s.bind(('127.0.0.1',$base)); s.listen(1); time.sleep(60)" &
LPID=$!
for _ in $(seq 1 100); do port_in_use "$base" && break; sleep 0.1; done
"$DBRIG_BIN" campaign c.json > /dev/null 2> err.txt; rc=$?
kill $LPID; wait $LPID 2>/dev/null; LPID=
[ $rc -eq 1 ] || fail "busy port: exit $rc (expected 1): $(cat err.txt)"
one_line "dbrig: c.json: port $base on 127.0.0.1 is in use (expected it free for vm1; choose another .target.base_port)" ||
	fail "busy port message: $(cat err.txt)"
untouched || fail "a busy port left files behind"

# A missing server binary.
write_cfg ', "server_binary": "/nonexistent/mariadbd"'
"$DBRIG_BIN" campaign c.json > /dev/null 2> err.txt; rc=$?
[ $rc -eq 1 ] || fail "missing server: exit $rc (expected 1)"
one_line 'dbrig: c.json: the database server "/nonexistent/mariadbd" was not found in PATH, /usr/sbin or /usr/local/sbin (expected mariadb-server installed, or .target.server_binary)' ||
	fail "missing server message: $(cat err.txt)"
untouched || fail "a missing server binary left files behind"

# A folder in the way that dbrig did not create is neither used nor removed.
write_cfg ""
mkdir "$T/a/dbrig-pf" && echo precious > "$T/a/dbrig-pf/file"
"$DBRIG_BIN" campaign c.json > /dev/null 2> err.txt; rc=$?
[ $rc -eq 2 ] || fail "foreign folder: exit $rc (expected 2)"
one_line "dbrig: c.json: .drives[0].path: \"$T/a/dbrig-pf\" already exists and was not created by dbrig (expected to create it; move it away or rename the campaign)" ||
	fail "foreign folder message: $(cat err.txt)"
[ "$(cat "$T/a/dbrig-pf/file")" = precious ] || fail "the foreign folder was touched"

# A stale pid file naming a process dbrig did not start: left alone (security
# review finding 5: preflight SIGTERMed any mariadbd whose pid was in a stale
# pid file, e.g. the system's server after a reboot). The stand-in is a copy of
# sleep named mariadbd; the campaign's own server binary is a fake that exits 1.
rm -rf "$T/a/dbrig-pf"
mkdir -p "$T/fake" "$T/a/dbrig-pf/golden/boot"
cp "$(command -v sleep)" "$T/fake/mariadbd"
printf '#!/bin/sh\nexit 1\n' >"$T/fake/fail.sh"
chmod +x "$T/fake/fail.sh"
"$T/fake/mariadbd" 300 &
LPID=$!
echo 'dbrig campaign folder' >"$T/a/dbrig-pf/.dbrig-created"
echo 'dbrig golden copy' >"$T/a/dbrig-pf/golden/.dbrig-created"
echo "$LPID" >"$T/a/dbrig-pf/golden/boot/mysqld.pid"
write_cfg ', "server_binary": "'"$T/fake/fail.sh"'", "install_db_binary": "'"$T/fake/fail.sh"'", "client_binary": "'"$T/fake/fail.sh"'"'
"$DBRIG_BIN" campaign c.json > /dev/null 2> err.txt; rc=$?
[ $rc -eq 1 ] || fail "stale pid file: exit $rc (expected 1 from the fake server): $(cat err.txt)"
sleep 0.5
kill -0 "$LPID" 2>/dev/null || fail "a process named by a stale pid file was killed: $(cat err.txt)"
grep -qxF "dbrig: warning: a: $T/a/dbrig-pf/golden/boot/mysqld.pid names pid $LPID, a mariadbd that does not serve $T/a/dbrig-pf/golden/data; it is not dbrig's, left alone" err.txt ||
	fail "stale pid file: no warning naming it: $(cat err.txt)"
kill "$LPID"; wait "$LPID" 2>/dev/null; LPID=

# An earlier server of this instance that does not stop (it ignores SIGTERM):
# preflight waits for it up to stop_timeout (1h here), but a SIGTERM to dbrig
# ends the wait with one line, exit 1 (security review finding 10: the wait
# ignored dbrig's own SIGTERM for the whole 10-minute stop timeout). The
# stand-in is a copy of bash named mariadbd whose command line names the
# golden copy's data directory, as dbrig starts its servers.
rm -rf "$T/a/dbrig-pf" "$T/out"
mkdir -p "$T/a/dbrig-pf/golden/boot"
echo 'dbrig campaign folder' >"$T/a/dbrig-pf/.dbrig-created"
echo 'dbrig golden copy' >"$T/a/dbrig-pf/golden/.dbrig-created"
cp "$(command -v bash)" "$T/fake/mariadbd"
"$T/fake/mariadbd" -c 'trap "" TERM; while :; do sleep 0.2; done' "--datadir=$T/a/dbrig-pf/golden/data" &
LPID=$!
echo "$LPID" >"$T/a/dbrig-pf/golden/boot/mysqld.pid"
write_cfg ', "stop_timeout": "1h", "server_binary": "'"$T/fake/fail.sh"'", "install_db_binary": "'"$T/fake/fail.sh"'", "client_binary": "'"$T/fake/fail.sh"'"'
"$DBRIG_BIN" campaign c.json > /dev/null 2> err.txt &
CPID=$!
for _ in $(seq 1 600); do grep -q "pid $LPID) is still running; stopping it" err.txt && break; kill -0 "$CPID" 2>/dev/null || break; sleep 0.1; done
grep -q "pid $LPID) is still running; stopping it" err.txt || fail "the earlier server was not waited for: $(cat err.txt)"
kill -TERM "$CPID"
for _ in $(seq 1 600); do kill -0 "$CPID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$CPID" 2>/dev/null && { kill -9 "$CPID"; fail "dbrig campaign went on waiting after SIGTERM"; }
wait "$CPID"; rc=$?
[ $rc -eq 1 ] || fail "SIGTERM while waiting for an earlier server: exit $rc (expected 1): $(cat err.txt)"
grep -q "a: stopped by signal 15 while waiting for the earlier server (pid $LPID) to stop" err.txt ||
	fail "SIGTERM while waiting: no line saying so: $(cat err.txt)"
kill -9 "$LPID"; wait "$LPID" 2>/dev/null; LPID=
rm -rf "$T/a/dbrig-pf" "$T/out"

# Every server option reaches the server (security review finding 15: a 64-slot
# argv passed 47 of 60 and dropped the rest without a word). The fake server
# writes its argv and exits 1.
printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/fake/argv.txt"\nexit 1\n' "$T" >"$T/fake/record.sh"
printf '#!/bin/sh\nexit 0\n' >"$T/fake/ok.sh"
chmod +x "$T/fake/record.sh" "$T/fake/ok.sh"
opts=$(for i in $(seq -w 0 59); do printf '"loose_opt_%s": "%d", ' "$i" "$((10#$i))"; done)
cat > c.json <<JSON
{"name": "pf", "workload": {"kind": "sysbench", "test": "oltp_read_only"},
 "engine": {"kind": "mariadb", "server_options": {${opts%, }}},
 "target": {"kind": "local", "allow_shared_device": true, "base_port": $base, "server_binary": "$T/fake/record.sh",
            "install_db_binary": "$T/fake/ok.sh", "client_binary": "$T/fake/ok.sh"},
 "drives": [{"name": "a", "path": "$T/a"}], "run_groups": [{"name": "g", "placement": {"a": 1}}],
 "precondition": 0, "sample": 1, "output": "$T/out"}
JSON
"$DBRIG_BIN" campaign c.json > /dev/null 2> err.txt; rc=$?
[ $rc -eq 1 ] || fail "60 server options: exit $rc (expected 1 from the fake server): $(cat err.txt)"
n=$(grep -c '^--loose_opt_' "$T/fake/argv.txt") || true
[ "$n" = 60 ] || fail "60 server options: the server got $n of them: $(cat err.txt)"
grep -qx -- '--loose_opt_59=59' "$T/fake/argv.txt" || fail "the last server option did not reach the server"
rm -rf "$T/a/dbrig-pf" "$T/out"

# The campaign lock file replaced just before dbrig locks it: its holder released it and
# removed it, and a third process made a new one and holds it (tests/helpers/lock_swap.c
# does both in the moment between dbrig's open and its lock). A lock on the removed file
# keeps nobody out: dbrig must find the new holder and refuse, naming it.
shim="$DBRIG_BUILD_DIR/tests/helpers/lock_swap.so"
if [ -f "$shim" ]; then
	write_cfg ""
	rm -f "$T/swap.pid"
	env LD_PRELOAD="$shim" DBRIG_LOCK_SWAP_PID="$T/swap.pid" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$DBRIG_BIN" teardown c.json > /dev/null 2> err.txt; rc=$?
	holder=$(cat "$T/swap.pid" 2>/dev/null)
	[ -n "$holder" ] && kill "$holder" 2>/dev/null
	[ -n "$holder" ] || fail "lock_swap.so never replaced the lock file: $(cat err.txt)"
	[ $rc -eq 1 ] && grep -qF "is already running here (pid $holder: " err.txt ||
		fail "a lock file replaced before it was locked: exit $rc (expected 1 naming pid $holder): $(cat err.txt)"
else
	fail "$shim is not built (tests/CMakeLists.txt builds it)"
fi
rm -rf "$T/out"

# Every shipped config plans cleanly, and --help documents --resume (bad
# campaign files are in the bad-input corpus, tests/bad-input/campaign-*).
for cfgf in "$DBRIG_SOURCE_DIR"/configs/*.json; do
	out=$(cd "$DBRIG_SOURCE_DIR" && "$DBRIG_BIN" campaign "configs/$(basename "$cfgf")" --plan 2>&1) ||
		fail "$(basename "$cfgf") --plan: $out"
done
"$DBRIG_BIN" campaign --help | grep -q -- "--resume" || fail "campaign --help does not list --resume"
echo "campaign_preflight: ok"
