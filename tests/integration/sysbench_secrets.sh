#!/usr/bin/env bash
# Passwords: accepted from --mysql-password, --mysql-password-file and
# MYSQL_PWD; never in results, journals, output or the process's argv; a
# password file readable by others gets a warning; a wrong password is one
# clear line and exit 1; a libvirt campaign's --dry-run and --plan output
# never show the guest's database password.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
PW='S3cr3t-pw-7f1e9'
SBTEST_PASSWORD=$PW start_mariadb
C=$(conn_opts)
O="--tables=1 --table-size=1000"

check "prepare with MYSQL_PWD" env MYSQL_PWD="$PW" "$DBRIG_BIN" sysbench $C $O oltp_read_only prepare >"$TEST_TMP/prep.out" 2>&1

printf '%s\n' "$PW" >"$TEST_TMP/pw"
chmod 600 "$TEST_TMP/pw"
check "run with --mysql-password-file" "$DBRIG_BIN" sysbench $C $O --mysql-password-file="$TEST_TMP/pw" --time=1 \
	--result="$TEST_TMP/file.json" --journal="$TEST_TMP/file.jsonl" oltp_read_only run >"$TEST_TMP/file.out" 2>"$TEST_TMP/file.err"
check "no warning for a 0600 file" [ ! -s "$TEST_TMP/file.err" ]
check "password-file run: oracle" oracle result "$TEST_TMP/file.json" --journal "$TEST_TMP/file.jsonl"
chmod 644 "$TEST_TMP/pw"
"$DBRIG_BIN" sysbench $C $O --mysql-password-file="$TEST_TMP/pw" --time=1 oltp_read_only run >/dev/null 2>"$TEST_TMP/warn.err"
check "warning for a file readable by others" grep -qx "dbrig: warning: --mysql-password-file: \"$TEST_TMP/pw\" is readable by group or others (chmod 600 it)" "$TEST_TMP/warn.err"

# --mysql-password on the command line: blanked from /proc/PID/cmdline while running.
"$DBRIG_BIN" sysbench $C $O --mysql-password="$PW" --time=3 --report-interval=1 \
	--result="$TEST_TMP/argv.json" --journal="$TEST_TMP/argv.jsonl" oltp_read_only run >"$TEST_TMP/argv.out" 2>&1 &
pid=$!
wait_lines "$TEST_TMP/argv.jsonl" '"type":"interval"' 1 # running, argv long since blanked
tr '\0' ' ' </proc/$pid/cmdline >"$TEST_TMP/cmdline"
wait $pid
check "password blanked in argv" grep -q -- '--mysql-password=x' "$TEST_TMP/cmdline"
check "password not in argv" bash -c "! grep -q -- '$PW' '$TEST_TMP/cmdline'"

# A wrong password: exit 1, one line, no result written, and the password is not echoed.
set +e
MYSQL_PWD=wrong-pw-123 "$DBRIG_BIN" sysbench $C $O --time=1 --result="$TEST_TMP/wrong.json" oltp_read_only run \
	>"$TEST_TMP/wrong.err" 2>&1
rc=$?
set -e
check "wrong password exits 1 (got $rc)" [ "$rc" = 1 ]
check "wrong password message, as sysbench's" grep -q "^FATAL: error 1045: Access denied for user 'sbtest'@'[a-z0-9.]*' (using password: YES)\$" "$TEST_TMP/wrong.err"
check "wrong password: no result" [ ! -e "$TEST_TMP/wrong.json" ]
check "wrong password not echoed" bash -c "! grep -q wrong-pw-123 '$TEST_TMP/wrong.err'"

# A libvirt campaign's guest password: --dry-run prints every XML and the seed's
# user-data (with the setup script's parameter file), but never the password
# (libvirt's test driver).
cat >"$TEST_TMP/lv.json" <<JSON
{"name": "sec", "workload": {"kind": "sysbench", "test": "oltp_read_only", "options": {"tables": 1}},
 "engine": {"kind": "mariadb", "buffer_pool": "64M"},
 "target": {"kind": "libvirt", "hosts": {"h1": "test:///default"}, "base_image": "/nonexistent.qcow2", "create_pools": true,
            "db_password": "$PW"},
 "drives": [{"name": "a", "path": "$TEST_TMP/lvpool"}],
 "run_groups": [{"name": "g", "placement": {"a": 2}}], "precondition": "1s", "sample": "2s",
 "output": "$TEST_TMP/lvout"}
JSON
check "libvirt provision --dry-run" "$DBRIG_BIN" provision "$TEST_TMP/lv.json" --dry-run >"$TEST_TMP/lv-dry.out" 2>"$TEST_TMP/lv-dry.err"
check "the dry run printed the seed's parameter file, the password masked" grep -q 'db_password=\*\*\*\*\*\*\*\*' "$TEST_TMP/lv-dry.out"
check "every XML the dry run printed passes virt-xml-validate" python3 "$DBRIG_SOURCE_DIR/tests/lib/virt_xml.py" "$TEST_TMP/lv-dry.out" 2
check "libvirt campaign --plan" "$DBRIG_BIN" campaign "$TEST_TMP/lv.json" --plan >"$TEST_TMP/lv-plan.out" 2>&1
check "the plan lists the run" grep -q "run \"g\" repetition 1/1: 2 instance(s)" "$TEST_TMP/lv-plan.out"

# Nothing the runs produced contains the password.
found=$(grep -rl --exclude=pw --exclude=lv.json --exclude-dir=mariadb -e "$PW" "$TEST_TMP" || true)
check "password absent from every file the runs wrote (found in: $found)" [ -z "$found" ]
finish
