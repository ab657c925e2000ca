#!/bin/bash
# A kept local golden copy is reused only for the content it was loaded with:
# its .complete stores the loader's identity (workload, test, every option
# that shapes the data). A campaign with keep whose table-size then changes is
# run again with --fresh: the golden copy is loaded again with the new rows
# ("loading it again"), and every result's run.golden names them (security
# review N3: a 5,000-row run came out complete and "restore verified" on the
# 100-row tables). The same config once more is "reused", never "built in
# 0.0 s". Small tables, 1 s samples: seconds.
set -uo pipefail
. "$(dirname "$0")/../lib/campaign.sh"
on_fail() { [ -f "$T/err.txt" ] && grep -v '^dbrig: info: .*run [0-9]' "$T/err.txt" | tail -15 >&2; }
need_mariadb
base=$(free_port_block 2) || exit 1
mk() { # mk ROWS: the campaign with table-size ROWS
	cat > "$T/g.json" <<JSON
{
  "name": "ci-golden",
  "workload": {"kind": "sysbench", "test": "oltp_point_select", "options": {"tables": 1, "table-size": $1}},
  "engine": {"kind": "mariadb", "buffer_pool": "32M", "server_options": {"innodb_log_file_size": "16M"}},
  "target": {"kind": "local", "allow_shared_device": true, "base_port": $base, "create_drive_dirs": true},
  "drives": [{"name": "da", "path": "$T/a"}],
  "run_groups": [{"name": "one", "placement": {"da": 1}}],
  "repetitions": 1, "precondition": "0s", "sample": "1s", "threads": 1,
  "output": "$T/out", "keep": true, "verify_restore": true
}
JSON
}
cd "$T" || exit 1
golden_of() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["status"], r["workload"]["params"]["table_size"], r["run"]["golden"])' out/ci-golden/one/da/vm1.json; }
mk 100
"$DBRIG_BIN" campaign g.json > out.txt 2> err.txt || fail "the first campaign failed"
grep -q "golden copy built in" err.txt || fail "the first campaign built no golden copy"
g=$(golden_of) || fail "no result of the first campaign"
case "$g" in "complete 100 "*"rows=100 "*) ;; *) fail "the first result: $g" ;; esac
grep -q '^identity sysbench oltp_point_select tables=1 table_size=100$' a/dbrig-ci-golden/golden/.complete ||
	fail "the golden copy does not store its identity: $(cat a/dbrig-ci-golden/golden/.complete)"

mk 300
"$DBRIG_BIN" campaign g.json --fresh > out.txt 2> err.txt || fail "the --fresh campaign with 300 rows failed"
grep -q "da: the golden copy holds sysbench oltp_point_select tables=1 table_size=100, this campaign loads sysbench oltp_point_select tables=1 table_size=300: loading it again" err.txt ||
	fail "the golden copy of 100 rows was not loaded again for 300"
grep -q "golden copy built in" err.txt || fail "no golden copy built for 300 rows"
g=$(golden_of) || fail "no result of the 300-row campaign"
case "$g" in "complete 300 "*"rows=300 "*) ;; *) fail "the 300-row campaign's result was measured on other tables: $g" ;; esac

# The report flags a result whose run.golden contradicts its params (the result
# of the unfixed reuse: 300-row params measured on the 100-row copy), and only that one.
mkdir -p fx/g
python3 - out/ci-golden/one/da/vm1.json fx/g/vm1.json <<'PY' || fail "cannot make the fixture"
import json, re, sys
r = json.load(open(sys.argv[1]))
r["run"]["golden"] = re.sub(r"rows=300\b", "rows=100", r["run"]["golden"])
json.dump(r, open(sys.argv[2], "w"))
PY
"$DBRIG_BIN" report fx --out fxr --compare none --format json > /dev/null 2> fxr.err || fail "report of the fixture failed"
grep -q "result measured on other data: g/vm1.json: its golden copy holds tables=1 rows=100, its params say tables=1 table_size=300" fxr.err ||
	fail "the report does not flag a result measured on other data: $(cat fxr.err)"
"$DBRIG_BIN" report out/ci-golden --out okr --compare none --format json > /dev/null 2> okr.err || fail "report failed"
grep -q "measured on other data" okr.err && fail "the report flags a right result: $(cat okr.err)"

"$DBRIG_BIN" campaign g.json --fresh > out.txt 2> err.txt || fail "the third campaign failed"
grep -q "da: golden copy reused: it holds this campaign's content (tables=1 rows=300" err.txt ||
	fail "the golden copy of the same content was not reused"
grep -q "golden copy built in" err.txt && fail "a reused golden copy is said to be built"
# teardown says what it did (security review N11: "removed the instances of X" when nothing was removed).
"$DBRIG_BIN" teardown g.json > out.txt 2> err.txt || fail "teardown failed"
grep -qx "removed the 1 instance(s) of ci-golden" out.txt || fail "teardown: $(cat out.txt)"
[ -e a/dbrig-ci-golden ] && fail "teardown left a/dbrig-ci-golden"
"$DBRIG_BIN" teardown g.json > out.txt 2> err.txt || fail "a second teardown failed"
grep -qx "nothing of ci-golden to remove: none of its 1 instance(s) exists" out.txt || fail "a second teardown: $(cat out.txt)"
echo "campaign_golden: ok"
