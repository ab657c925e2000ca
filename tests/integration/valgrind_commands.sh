#!/usr/bin/env bash
# A short run of every command under valgrind memcheck: sysbench prepare, run
# (with result and journal), cleanup; tpcc prepare, run, check, cleanup through
# libmysqlclient and ODBC; provision (and --dry-run), status and teardown on
# libvirt's test driver; a tiny campaign on the local target (the
# drivers and the report it starts are traced too; the database servers and
# the mariadb client are not); report; published. Each process must end with
# no memcheck error and no definitely lost block (--error-exitcode=1
# --leak-check=full --errors-for-leak-kinds=definite), read from the logs of
# every traced process, whose command lines show that the campaign's children
# (golden prepare, driver, report) were traced too. Skipped when DBRIG_BIN is
# an ASan build (valgrind and ASan cannot run together).
# needs: libvirt odbc
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
command -v valgrind >/dev/null || die "valgrind is not installed (scripts/deps-reliability.txt)"
if ldd "$DBRIG_BIN" 2>/dev/null | grep -q libasan; then
	skip_test "$DBRIG_BIN is built with ASan"
fi
. "$DBRIG_SOURCE_DIR/tests/lib/postgres.sh" # odbc_register
start_mariadb
C=$(conn_opts)
VG=$TEST_TMP/vg
mkdir -p "$VG"
quiet() { # quiet COMMAND...: output to $TEST_TMP/quiet.{out,err}, shown on failure
	"$@" >"$TEST_TMP/quiet.out" 2>"$TEST_TMP/quiet.err" && return 0
	tail -n 5 "$TEST_TMP/quiet.err" >&2
	return 1
}
vg() { # vg NAME ARGS...: dbrig under memcheck, children that are dbrig traced as well
	local name=$1; shift
	valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite --num-callers=30 --trace-children=yes \
		--trace-children-skip='*/mariadbd,*/mysqld,*/mariadb-install-db,*/mysql_install_db,*/mariadb,*/mysql,*/sh,*/bash,*/genisoimage,*/xorriso,*/cloud-localds,*/qemu-img' \
		--log-file="$VG/$name.%p.log" "$DBRIG_BIN" "$@"
}

check "sysbench prepare" vg prepare sysbench $C --tables=2 --table-size=500 --threads=2 oltp_read_write prepare >/dev/null
check "sysbench run" vg run sysbench $C --tables=2 --table-size=500 --threads=2 --precondition=1 --time=2 \
	--report-interval=1 --result="$TEST_TMP/r.json" --journal="$TEST_TMP/r.jsonl" oltp_read_write run >/dev/null
check "sysbench run wrote a complete result" [ "$(json_get "$TEST_TMP/r.json" "r['status']")" = complete ]
check "sysbench run under valgrind: oracle" oracle result "$TEST_TMP/r.json" --journal "$TEST_TMP/r.jsonl"
check "sysbench cleanup" vg cleanup sysbench $C --tables=2 oltp_read_write cleanup >/dev/null
check "report" quiet vg report report "$TEST_TMP" --out "$TEST_TMP/rep" --compare "$DBRIG_SOURCE_DIR/reports/published"
check "report wrote every format" bash -c "[ -s '$TEST_TMP/rep/report.html' ] && [ -s '$TEST_TMP/rep/report.json' ]"
check "published" vg published published --dir "$DBRIG_SOURCE_DIR/reports/published" >/dev/null
check "a usage error" [ "$(vg usage sysbench --threads=0 oltp_read_write run >/dev/null 2>&1; echo $?)" = 1 ]

# TPC-C: prepare, run and check through libmysqlclient; run and cleanup through
# ODBC (MariaDB Connector/ODBC under unixODBC, both traced with dbrig).
mariadb_sql "$MARIADB_PORT" "CREATE DATABASE tpcc"
odbc_register "$TEST_TMP/odbc"
export ODBCSYSINI=$TEST_TMP/odbc
TM="--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --mysql-db=tpcc"
TO=(--db-driver=odbc "--odbc-connect=Driver={MariaDB};Server=127.0.0.1;Port=$MARIADB_PORT;Database=tpcc;UID=sbtest")
check "tpcc prepare (mysql)" vg tpcc-prepare tpcc $TM --warehouses=1 --threads=2 prepare >/dev/null
check "tpcc run (mysql)" vg tpcc-run tpcc $TM --delays=off --terminals=4 --connections=2 --precondition=1 --time=2 \
	--report-interval=1 --result="$TEST_TMP/tpcc.json" --journal="$TEST_TMP/tpcc.jsonl" run >/dev/null
check "tpcc run (odbc)" vg tpcc-odbc tpcc "${TO[@]}" --delays=scale:0.01 --terminals=10 --connections=2 --time=2 run >/dev/null
check "tpcc run wrote a complete result" [ "$(json_get "$TEST_TMP/tpcc.json" "r['status']")" = complete ]
check "tpcc run under valgrind: oracle" oracle result "$TEST_TMP/tpcc.json" --journal "$TEST_TMP/tpcc.jsonl"
check "tpcc check (mysql)" vg tpcc-check tpcc $TM check >/dev/null
check "tpcc cleanup (odbc)" vg tpcc-cleanup tpcc "${TO[@]}" cleanup >/dev/null

# The libvirt commands against libvirt's test driver (no hypervisor needed).
cat >"$TEST_TMP/lv.json" <<JSON
{"name": "vglv", "workload": {"kind": "sysbench", "test": "oltp_read_only", "options": {"tables": 1}},
 "engine": {"kind": "mariadb", "buffer_pool": "64M"},
 "target": {"kind": "libvirt", "hosts": {"h1": "test:///default"}, "base_image": "/nonexistent.qcow2",
            "create_pools": true, "boot_size": "1G", "prebuilt_size": "1G", "under_test_size": "1G"},
 "drives": [{"name": "a", "path": "$TEST_TMP/lvpool"}],
 "run_groups": [{"name": "g", "placement": {"a": 2}}], "precondition": "1s", "sample": "2s",
 "output": "$TEST_TMP/lvout"}
JSON
check "provision --dry-run (libvirt test driver)" vg lv-dry provision "$TEST_TMP/lv.json" --dry-run >/dev/null
# The test driver cannot upload volumes: no seed ISO for the real provision (and so a
# configured password: none generated can reach a guest without a seed).
sed 's/"create_pools": true/"create_pools": true, "cloud_init": false, "db_password": "valgrind-pw-123"/' \
	"$TEST_TMP/lv.json" >"$TEST_TMP/lv2.json"
check "provision (libvirt test driver)" quiet vg lv-prov provision "$TEST_TMP/lv2.json"
# Every process gets a fresh test:///default: status finds the VMs absent (exit 1).
quiet vg lv-status status "$TEST_TMP/lv2.json" || true
check "status lists both VMs" [ "$(grep -c '^a/vm[12] .*host h1' "$TEST_TMP/quiet.out")" = 2 ]
check "teardown (libvirt test driver)" quiet vg lv-teardown teardown "$TEST_TMP/lv2.json"

# A tiny campaign: one drive, one instance, 1 s + 2 s.
base=$(free_port)
cat >"$TEST_TMP/c.json" <<JSON
{
  "name": "vg", "workload": {"kind": "sysbench", "test": "oltp_read_only", "options": {"tables": 1, "table-size": 500}},
  "engine": {"kind": "mariadb", "buffer_pool": "32M", "server_options": {"innodb_log_file_size": "16M"}},
  "target": {"kind": "local", "allow_shared_device": true, "base_port": $base, "create_drive_dirs": true},
  "drives": [{"name": "da", "path": "$TEST_TMP/drive"}],
  "run_groups": [{"name": "one", "placement": {"da": 1}}],
  "precondition": "1s", "sample": "2s", "threads": 2, "report_interval": "1s", "output": "$TEST_TMP/out"
}
JSON
check "campaign --plan" vg plan campaign "$TEST_TMP/c.json" --plan >/dev/null
(cd "$TEST_TMP" && vg campaign campaign c.json >"$TEST_TMP/campaign.out" 2>&1)
rc=$?
check "campaign under valgrind (exit $rc; $(tail -n3 "$TEST_TMP/campaign.out" | tr '\n' ' '))" [ "$rc" = 0 ]
check "campaign result complete" [ "$(json_get "$TEST_TMP/out/vg/one/da/vm1.json" "r['status']")" = complete ]
# Servers of this campaign only (their pid files are under $TEST_TMP/drive).
for p in $(find "$TEST_TMP/drive" -name mysqld.pid 2>/dev/null); do kill "$(cat "$p")" 2>/dev/null || true; done

n=$(ls "$VG" | wc -l)
# Each log starts with the traced command; a fork that then ran a skipped
# program (a server, a client) leaves a log with its parent's command line.
traced() { # traced PREFIX REGEX: a log of PREFIX traced a command matching REGEX
	grep -hE "^==[0-9]+== Command: " "$VG/$1".*.log 2>/dev/null | sed 's/^==[0-9]*== Command: //' | grep -Eq "$2"
}
for p in prepare run cleanup report published usage tpcc-prepare tpcc-run tpcc-odbc tpcc-check tpcc-cleanup \
	lv-dry lv-prov lv-status lv-teardown plan campaign; do
	check "$p: traced" traced "$p" "/dbrig "
done
check "campaign: its golden copy's prepare was traced" traced campaign "/dbrig sysbench .* oltp_read_only prepare$"
check "campaign: its driver was traced" traced campaign "/dbrig sysbench .* oltp_read_only run$"
check "campaign: its report was traced" traced campaign "/dbrig report .*/out/vg --out "
# Errors (memcheck's, and definite leaks, which --errors-for-leak-kinds counts) in any process.
dirty=$(grep -lE "ERROR SUMMARY: [1-9]" "$VG"/*.log | sort || true)
check "no memcheck error or definite leak in any process: $dirty" [ -z "$dirty" ]
[ -z "$dirty" ] || head -n 60 $dirty >&2
echo "valgrind_commands: $n processes checked"
finish
