#!/usr/bin/env bash
# Passwords: accepted from --mysql-password, --mysql-password-file and
# MYSQL_PWD; never in results, journals, output or the process's argv; a
# password file readable by others gets a warning; a wrong password is one
# clear line and exit 1; a libvirt campaign's --dry-run and --plan output
# never show the guest's database password. TLS: --mysql-ssl=required,
# verify_ca and verify_identity check what their names say.
# needs: libvirt
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
PW='S3cr3t-pw-7f1e9'
# TLS (security review finding 8: --mysql-ssl=on never authenticated the
# server): two CAs; the server's certificate is signed by ca1 and names
# "wrong-host", later one that names 127.0.0.1 (swapped in with FLUSH SSL).
command -v openssl >/dev/null || die "openssl is missing (scripts/deps-reliability.txt)"
K=$TEST_TMP/tls
mkdir -p "$K"
ec() { openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "$@" >/dev/null 2>&1; }
for ca in ca1 ca2; do ec -x509 -days 2 -subj "/CN=dbrig test $ca" -keyout "$K/$ca.key" -out "$K/$ca.pem" || die "openssl"; done
sign() { # sign NAME SUBJECT [SAN]
	ec -subj "$2" -keyout "$K/$1.key" -out "$K/$1.csr" || die "openssl"
	openssl x509 -req -in "$K/$1.csr" -CA "$K/ca1.pem" -CAkey "$K/ca1.key" -CAcreateserial -days 2 \
		${3:+-extfile <(printf 'subjectAltName=%s\n' "$3")} -out "$K/$1.pem" >/dev/null 2>&1 || die "openssl x509"
}
sign wrong "/CN=wrong-host"
sign right "/CN=dbrig test server" "IP:127.0.0.1"
cp "$K/wrong.pem" "$K/server.pem"
cp "$K/wrong.key" "$K/server.key"
MARIADB_EXTRA_OPTS="--ssl-cert=$K/server.pem --ssl-key=$K/server.key --ssl-ca=$K/ca1.pem" SBTEST_PASSWORD=$PW start_mariadb
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

# --- TLS modes, with MySQL's names ---
tls() { # tls NAME OPTIONS...: prewarm over TLS; exit status in $TEST_TMP/NAME.rc, its messages in NAME.err
	local name=$1; shift
	set +e # dbrig sysbench prints sysbench's way: WARNING: and FATAL: lines on stdout
	MYSQL_PWD="$PW" "$DBRIG_BIN" sysbench $C $O "$@" oltp_read_only prewarm 2>&1 | grep -E '^(WARNING|FATAL|dbrig):' \
		>"$TEST_TMP/$name.err"
	echo "${PIPESTATUS[0]}" >"$TEST_TMP/$name.rc"
	set -e
}
acc0=$(mariadb_sql "$MARIADB_PORT" "SHOW GLOBAL STATUS LIKE 'Ssl_accepts'" | cut -f2)
tls req --mysql-ssl=required
check "required: connects ($(cat "$TEST_TMP/req.err"))" [ "$(cat "$TEST_TMP/req.rc")" = 0 ]
check "required without a CA warns that the server is not authenticated" \
	grep -q "^WARNING: --mysql-ssl=required: the connection is encrypted but the server is not authenticated" "$TEST_TMP/req.err"
check "the connections were TLS" [ "$(mariadb_sql "$MARIADB_PORT" "SHOW GLOBAL STATUS LIKE 'Ssl_accepts'" | cut -f2)" -gt "$acc0" ]
tls noca --mysql-ssl=verify_ca
check "verify_ca without --mysql-ssl-ca: exit 1, as sysbench for a mistake ($(cat "$TEST_TMP/noca.rc"))" [ "$(cat "$TEST_TMP/noca.rc")" = 1 ]
check "verify_ca without --mysql-ssl-ca: one line" [ "$(cat "$TEST_TMP/noca.err")" = \
	"FATAL: --mysql-ssl=verify_ca: needs --mysql-ssl-ca (expected the PEM file of the CA that signed the server's certificate)" ]
tls wrongca --mysql-ssl=verify_ca --mysql-ssl-ca="$K/ca2.pem"
check "verify_ca, another CA: refused, exit 1 ($(cat "$TEST_TMP/wrongca.err"))" [ "$(cat "$TEST_TMP/wrongca.rc")" = 1 ]
check "verify_ca, another CA: a TLS error" grep -qi "certificate\|TLS\|SSL" "$TEST_TMP/wrongca.err"
tls rightca --mysql-ssl=VERIFY_CA --mysql-ssl-ca="$K/ca1.pem"
check "verify_ca, the server's CA: connects although the name differs ($(cat "$TEST_TMP/rightca.err"))" \
	[ "$(cat "$TEST_TMP/rightca.rc")" = 0 ]
tls wrongname --mysql-ssl=verify_identity --mysql-ssl-ca="$K/ca1.pem"
check "verify_identity, a certificate for another host: refused, exit 1 ($(cat "$TEST_TMP/wrongname.err"))" \
	[ "$(cat "$TEST_TMP/wrongname.rc")" = 1 ]
cp "$K/right.pem" "$K/server.pem"
cp "$K/right.key" "$K/server.key"
mariadb_sql "$MARIADB_PORT" "FLUSH SSL"
tls rightname --mysql-ssl=verify_identity --mysql-ssl-ca="$K/ca1.pem"
check "verify_identity, a certificate for 127.0.0.1: connects ($(cat "$TEST_TMP/rightname.err"))" \
	[ "$(cat "$TEST_TMP/rightname.rc")" = 0 ]
check "verify_identity: no warning" [ ! -s "$TEST_TMP/rightname.err" ]

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
