#!/bin/bash
# dbrig report on the hand-made fixtures (tests/fixtures/results) must produce
# exactly the golden Markdown, CSV and JSON of tests/golden/report/, and bad
# input must fail with the documented one-line messages and exit codes.
# UPDATE_GOLDEN=1 rewrites the golden files (review the diff before committing).
set -u
: "${DBRIG_BIN:?set by ctest}" "${DBRIG_SOURCE_DIR:?set by ctest}"
FIX="$DBRIG_SOURCE_DIR/tests/fixtures"
GOLD="$DBRIG_SOURCE_DIR/tests/golden/report"
PUB="$DBRIG_SOURCE_DIR/reports/published"
WORK=$(mktemp -d "${DBRIG_BUILD_DIR:-/tmp}/report-golden.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail=0

check() { # name, condition message
	echo "FAIL: $*" >&2
	fail=1
}

(cd "$FIX" && "$DBRIG_BIN" report results --out "$WORK/out" --compare "$PUB" --format md,csv,json) \
	2>"$WORK/stderr" || check "report exited $?: $(cat "$WORK/stderr")"
for f in report.md report-groups.csv report-instances.csv report.json; do
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$WORK/out/$f" "$GOLD/$f"
		continue
	fi
	diff -u "$GOLD/$f" "$WORK/out/$f" >&2 || check "$f differs from tests/golden/report/$f"
done
[ -e "$WORK/out/report.html" ] && check "--format md,csv,json wrote report.html"
ls "$WORK/out" | grep -q '\.tmp\.' && check "temporary files left in the output folder"
grep -q "Little's law: 2 VMs on 1 drive · bad-clock" "$WORK/stderr" || check "no Little's law warning on stderr"
grep -q "incomplete run: lab-a/2 VMs on 1 drive/slow-b/i2.jsonl" "$WORK/stderr" || check "unfinished journal not reported"

# expect EXIT_CODE MESSAGE_REGEX -- command...
expect() {
	local code=$1 msg=$2
	shift 3
	"$@" >"$WORK/o" 2>"$WORK/e"
	local rc=$?
	[ "$rc" = "$code" ] || check "exit $rc (expected $code): $*: $(cat "$WORK/e")"
	if [ "$msg" = - ]; then
		[ -s "$WORK/e" ] && check "unexpected message from '$*': $(cat "$WORK/e")"
		return
	fi
	grep -Eq -- "$msg" "$WORK/e" || check "message of '$*' does not match /$msg/: $(cat "$WORK/e")"
	[ "$(wc -l <"$WORK/e")" -le 1 ] || check "more than one line from '$*': $(cat "$WORK/e")"
}
cd "$FIX/bad/v2"
expect 1 '^dbrig: i1\.json: \.schema: "dbrig\.result/2" \(expected "dbrig\.result/1"' -- \
	"$DBRIG_BIN" report . --out "$WORK/bad" --compare none
cp -r "$FIX/bad/type" "$WORK/type"
expect 1 '^dbrig: i1\.json: \.phases\.sample\.tps: "fast" \(expected a number >= 0\)$' -- \
	"$DBRIG_BIN" report "$WORK/type" --out "$WORK/bad" --compare none
expect 2 '^dbrig: report: --out: missing' -- "$DBRIG_BIN" report "$FIX/results"
expect 2 '^dbrig: --format: "pdf" is not a format' -- "$DBRIG_BIN" report "$FIX/results" --out "$WORK/x" --format md,pdf
expect 2 'expected a folder of results' -- "$DBRIG_BIN" report "$WORK/nonexistent" --out "$WORK/x"
mkdir -p "$WORK/pub"
sed 's/"avg_latency_ms": 16.26/"avg_latency_ms": "16.26"/' "$PUB/storagereview-samsung-pm1735.json" >"$WORK/pub/x.json"
expect 1 '^dbrig: .*/pub/x\.json: \.results\[0\]\.avg_latency_ms: "16\.26" \(expected a number >= 0\)$' -- \
	"$DBRIG_BIN" published --dir "$WORK/pub"
sed 's/"tps": 7869.21,/"tps": 7869.21, "tpss": 1,/' "$PUB/storagereview-samsung-pm1735.json" >"$WORK/pub/x.json"
expect 1 '\.results\[0\]\.tpss: 1 \(expected no such key' -- "$DBRIG_BIN" published --dir "$WORK/pub"
expect 0 - -- "$DBRIG_BIN" published --dir "$PUB"
"$DBRIG_BIN" report --help | grep -q -- '--compare' || check "report --help lacks --compare"

[ $fail = 0 ] && echo "report_golden: ok"
exit $fail
