#!/bin/bash
# The HTML report opened in headless Chromium: it renders without console or
# script errors, holds the expected number of charts, fetches nothing, and a
# PNG screenshot is written to $DBRIG_BUILD_DIR/report-html/report.png for
# people to look at. Without chromium this test FAILS (it is a required tool:
# scripts/deps-report.txt), it never passes silently.
set -u
: "${DBRIG_BIN:?set by ctest}" "${DBRIG_SOURCE_DIR:?set by ctest}"
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then
	echo "FAIL: chromium not found (apt-get install chromium; see scripts/deps-report.txt)" >&2
	exit 1
fi
OUT="${DBRIG_BUILD_DIR:-/tmp}/report-html"
rm -rf "$OUT"
mkdir -p "$OUT"
PROFILE=$(mktemp -d)
trap 'rm -rf "$PROFILE"' EXIT
fail=0
check() {
	echo "FAIL: $*" >&2
	fail=1
}

# 3 bar charts + one TPS-over-time chart per drive x run group (15 in the
# fixtures) + 1 percentile curve.
EXPECTED_CHARTS=19

"$DBRIG_BIN" report "$DBRIG_SOURCE_DIR/tests/fixtures/results" --out "$OUT" --format html \
	--compare "$DBRIG_SOURCE_DIR/reports/published" 2>"$OUT/report.stderr" || {
	echo "FAIL: dbrig report: $(cat "$OUT/report.stderr")" >&2
	exit 1
}
HTML="$OUT/report.html"
# Self-contained: no external resource references (the SVG namespace is not a fetch).
if grep -Eo '(src|href)="[^"#][^"]*"|url\((["'\'']?)http' "$HTML" | grep -v '^href="#' | head -3 | grep -q .; then
	check "report.html references external resources"
fi
grep -qi '<script' "$HTML" && check "report.html contains a script (it must work without JS)"

# A copy with a recorder: script errors land in the DOM that --dump-dom prints.
PROBE="$OUT/report-probe.html"
sed 's|<head>|<head><script>window.addEventListener("error",function(e){document.documentElement.setAttribute("data-js-errors",(document.documentElement.getAttribute("data-js-errors")\|\|"")+String(e.message)+";")});window.addEventListener("load",function(){document.documentElement.setAttribute("data-probe","loaded")});</script>|' \
	"$HTML" >"$PROBE"
run_chromium() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$PROFILE/$1" --enable-logging=stderr --v=0 "${@:2}"
}
run_chromium dom --dump-dom "file://$PROBE" >"$OUT/dom.html" 2>"$OUT/chromium-dom.log" ||
	check "chromium --dump-dom exited $?"
run_chromium shot --window-size=1400,9000 --hide-scrollbars --screenshot="$OUT/report.png" "file://$HTML" \
	>/dev/null 2>"$OUT/chromium-shot.log" || check "chromium --screenshot exited $?"

charts=$(grep -o '<svg' "$OUT/dom.html" | wc -l)
[ "$charts" = "$EXPECTED_CHARTS" ] || check "$charts charts rendered (expected $EXPECTED_CHARTS)"
grep -q 'data-probe="loaded"' "$OUT/dom.html" || check "the error probe did not run (page never loaded?)"
grep -q 'data-js-errors="' "$OUT/dom.html" && check "script errors: $(grep -o 'data-js-errors="[^"]*"' "$OUT/dom.html")"
# Console messages (SVG attribute errors, uncaught exceptions) are logged as CONSOLE lines.
if grep -E ':CONSOLE' "$OUT/chromium-dom.log" "$OUT/chromium-shot.log" | grep -Eiq 'error|uncaught|warning'; then
	check "console errors: $(grep -h ':CONSOLE' "$OUT/chromium-dom.log" "$OUT/chromium-shot.log" | head -5)"
fi
grep -q 'dbrig report' "$OUT/dom.html" || check "the rendered DOM lacks the report title"
for want in 'Throughput: TPS summed' 'Average latency' '99th percentile latency' 'TPS over time' \
	'Latency by percentile' 'published review (hatched)' 'precondition | sample'; do
	grep -q "$want" "$OUT/dom.html" || check "rendered page lacks \"$want\""
done
if [ ! -s "$OUT/report.png" ] || [ "$(head -c 8 "$OUT/report.png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
	check "no PNG screenshot at $OUT/report.png"
fi
[ $fail = 0 ] && echo "report_html: ok, $charts charts, screenshot $OUT/report.png"
exit $fail
