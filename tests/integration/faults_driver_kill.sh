#!/usr/bin/env bash
# A driver process is killed with kill -9 in the middle of its sample while
# its sibling finishes: the killed run leaves no result file but a journal of
# whole lines holding every interval it had printed but at most one, and
# `dbrig report` on the folder shows that run as unfinished (rebuilt from its
# journal; a cut last line is ignored with a warning) and its run group as
# INCOMPLETE. Then what "written atomically" means, proven: a driver and a
# report killed inside their atomic write (tests/lib/killshim.c: SIGKILL in
# rename(), after the data was written) leave the old file or none, and the
# whole new one in its temporary file; under strace, a result and a report
# are written to a temporary file that is fsynced, closed and renamed, and
# the folder fsynced, and every journal line is flushed with its own fdatasync.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/killshim.sh"
command -v strace >/dev/null || die "strace is not installed (scripts/deps-reliability.txt)"
command -v cc >/dev/null || die "cc is not installed (the kill shim is built by the test)"
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
printed=$(grep -c '^\[ ' "$D/i2.log" || true) # the log first: the journal only grows
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
j=$(grep -c '"type":"interval"' "$D/i2.jsonl" || true)
check "the journal holds every interval printed before the kill but one at most ($j of $printed)" [ "$j" -ge $((printed - 1)) ]
check "the killed run's journal, line by line (no end line)" oracle journal "$D/i2.jsonl" --killed
check "the sibling's result and journal: oracle" oracle result "$D/i1.json" --journal "$D/i1.jsonl"

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
check "the report's group figures, recomputed from the result and the journal" oracle groups "$TEST_TMP/res" "$TEST_TMP/rep/report-groups.csv"

# A journal whose last line was cut (a full disk): the report ignores that line with a warning.
mkdir -p "$TEST_TMP/cut/camp/g2/drive-a"
cp "$D/i2.jsonl" "$TEST_TMP/cut/camp/g2/drive-a/i2.jsonl"
printf '{"type":"interval","phase":"sample","t":' >>"$TEST_TMP/cut/camp/g2/drive-a/i2.jsonl"
set +e
"$DBRIG_BIN" report "$TEST_TMP/cut" --out "$TEST_TMP/cutrep" --compare none --format csv >/dev/null 2>"$TEST_TMP/cut.err"
rc=$?
set -e
check "cut last line: report exits 0 (got $rc)" [ "$rc" = 0 ]
check "cut last line: ignored with a warning ($(head -n1 "$TEST_TMP/cut.err"))" grep -qx \
	"dbrig: warning: camp/g2/drive-a/i2.jsonl: line $((j + 2)): truncated last line ignored (run ended mid-write)" "$TEST_TMP/cut.err"

# --- atomic writes, killed in the middle: the result of a run ---
O="--tables=1 --table-size=1000 --threads=2 --time=1"
set +e
killed_at_rename /a.json "$DBRIG_BIN" sysbench $C $O --result="$TEST_TMP/a.json" oltp_read_only run >/dev/null 2>&1
rc=$?
set -e
check "a driver killed in its result's rename died of SIGKILL (exit $rc)" [ "$rc" = 137 ]
check "... left no result file" [ ! -e "$TEST_TMP/a.json" ]
tmp=$(ls "$TEST_TMP"/a.json.tmp.* 2>/dev/null | head -n1)
check "... and the whole result in its temporary file (${tmp:-none})" \
	[ "$(json_get "${tmp:-/nonexistent}" "r['status']" 2>/dev/null)" = complete ]
# --- ... and a report: the old report stays whole, the new one is whole in its temporary file ---
cp "$TEST_TMP/rep/report.md" "$TEST_TMP/report.md.before"
rm "$D/i2.jsonl" # the new report differs: one run fewer
set +e
killed_at_rename /rep/report.md "$DBRIG_BIN" report "$TEST_TMP/res" --out "$TEST_TMP/rep" --compare none --format md,csv \
	>/dev/null 2>&1
rc=$?
set -e
check "a report killed in report.md's rename died of SIGKILL (exit $rc)" [ "$rc" = 137 ]
check "... left the earlier report.md as it was" cmp -s "$TEST_TMP/report.md.before" "$TEST_TMP/rep/report.md"
tmp=$(ls -t "$TEST_TMP"/rep/report.md.tmp.* 2>/dev/null | head -n1) # the newest: an earlier kill left one too
check "... and the whole new one in its temporary file (${tmp:-none})" \
	bash -c '[ -n "$1" ] && grep -qx "1 result (1 complete), 1 group, 0 published reference files." "$1" &&
		grep -qx "2 results (1 complete), 1 group, 0 published reference files." "$2" && [ -z "$(tail -c1 "$1")" ]' \
	_ "$tmp" "$TEST_TMP/report.md.before"

# --- atomic writes and flushed journal lines, as the system calls show them ---
# (LeakSanitizer cannot run under ptrace: leaks are checked by the other ASan runs and valgrind)
ST="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f --seccomp-bpf -e trace=openat,close,fsync,fdatasync,rename"
check "a run under strace" $ST -o "$TEST_TMP/run.strace" "$DBRIG_BIN" sysbench $C $O --report-interval=1 \
	--result="$TEST_TMP/s.json" --journal="$TEST_TMP/s.jsonl" oltp_read_only run >/dev/null
check "the result: temporary file, fsync, close, rename, folder fsync" \
	python3 "$DBRIG_SOURCE_DIR/tests/lib/strace_check.py" atomic "$TEST_TMP/run.strace" "$TEST_TMP/s.json"
check "the journal: one fdatasync per line" \
	python3 "$DBRIG_SOURCE_DIR/tests/lib/strace_check.py" journal "$TEST_TMP/run.strace" "$TEST_TMP/s.jsonl"
check "a report under strace" $ST -o "$TEST_TMP/rep.strace" "$DBRIG_BIN" report "$TEST_TMP/res" --out "$TEST_TMP/rep2" \
	--compare none --format md,csv,json,html >/dev/null 2>&1
check "every report file: temporary file, fsync, close, rename, folder fsync" \
	python3 "$DBRIG_SOURCE_DIR/tests/lib/strace_check.py" atomic "$TEST_TMP/rep.strace" \
	"$TEST_TMP"/rep2/report.md "$TEST_TMP"/rep2/report-groups.csv "$TEST_TMP"/rep2/report-instances.csv \
	"$TEST_TMP"/rep2/report.json "$TEST_TMP"/rep2/report.html
finish
