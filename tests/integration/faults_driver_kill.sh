#!/usr/bin/env bash
# A driver process is killed with kill -9 in the middle of its sample while
# its sibling finishes: the killed run leaves no result file (never a
# half-written one) but a journal of whole lines holding every completed
# interval, and `dbrig report` on the folder shows that run as unfinished
# (rebuilt from its journal) and its run group as INCOMPLETE.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
start_mariadb
C=$(conn_opts)
"$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 oltp_read_only prepare >/dev/null

D=$TEST_TMP/res/camp/g2/drive-a
mkdir -p "$D"
drive() { # drive INSTANCE SECONDS (the same load for both: one group)
	exec "$DBRIG_BIN" sysbench $C --tables=1 --table-size=1000 --threads=2 --precondition=1 --time="$2" --report-interval=1 \
		--run-campaign=camp --run-group=g2 --run-drive=drive-a --run-instance="$1" --run-vm-count=2 \
		--result="$D/$1.json" --journal="$D/$1.jsonl" oltp_read_only run >"$D/$1.log" 2>&1
}
drive i1 10 &
p1=$!
drive i2 10 &
p2=$!
wait_lines "$D/i2.jsonl" '"phase":"sample"' 3 || true # 3 s into the 10 s sample
kill -9 $p2
set +e; wait $p2; rc2=$?; wait $p1; rc1=$?; set -e
check "the killed driver died of SIGKILL (exit $rc2)" [ "$rc2" = 137 ]
check "its sibling completed (exit $rc1)" [ "$rc1" = 0 ]
check "no result file for the killed run" [ ! -e "$D/i2.json" ]
check "no temporary result file left" [ -z "$(find "$D" -name '*.tmp.*')" ]
check "every journal line is whole JSON" python3 -c '
import json,sys
for l in open(sys.argv[1]): json.loads(l)' "$D/i2.jsonl"
n=$(grep -c '"phase":"sample"' "$D/i2.jsonl" || true)
check "the journal holds the completed sample intervals ($n >= 3)" [ "$n" -ge 3 ]
check "the journal has no end line" [ -z "$(grep '"type":"end"' "$D/i2.jsonl" || true)" ]

set +e
"$DBRIG_BIN" report "$TEST_TMP/res" --out "$TEST_TMP/rep" --compare none --format md,csv >"$TEST_TMP/rep.out" 2>"$TEST_TMP/rep.err"
rc=$?
set -e
check "report exits 0 (got $rc: $(cat "$TEST_TMP/rep.err"))" [ "$rc" = 0 ]
check "report names the unfinished run on stderr" grep -qF \
	"incomplete run: camp/g2/drive-a/i2.jsonl: status unfinished (journal has no end line: the run did not finish)" \
	"$TEST_TMP/rep.err"
check "instances CSV: i2 unfinished, from its journal, with its sample intervals" [ "$(python3 -c '
import csv,sys
r={x["instance"]: x for x in csv.DictReader(open(sys.argv[1]))}
print(r["i1"]["status"], r["i2"]["status"], r["i2"]["from_journal"], float(r["i2"]["sample_seconds"]) >= 3, int(r["i2"]["transactions"]) > 0)' \
	"$TEST_TMP/rep/report-instances.csv")" = "complete unfinished yes True True" ]
check "group marked INCOMPLETE in the Markdown report" grep -q '\*\*INCOMPLETE\*\* (1 of 2 runs complete)' "$TEST_TMP/rep/report.md"
check "run marked unfinished in the Markdown report" grep -q '\*\*unfinished\*\* (from journal)' "$TEST_TMP/rep/report.md"
finish
