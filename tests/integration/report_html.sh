#!/bin/bash
# The HTML report opened in headless Chromium at a laptop's 1366x768 and a
# desktop's 1920x1080: it renders without console or script errors, the page
# is never wider than the window, every chart is there, drawn inside the
# window, with every text (legends, labels, titles) inside its chart's
# viewBox, every table-of-contents link has its target, and it fetches
# nothing. Screenshots at both sizes (and a full-length one) are written to
# $DBRIG_BUILD_DIR/report-html/ for people to look at. The same checks run on
# a one-drive report (report --drive) at 1366x768, and the fixtures and a
# demo-like report at a phone's 390x844: no page-level horizontal scroll, no
# chart text under 9 px, every table scrolling in its box with a sticky first
# column, and the headline inside the first screen at every size. Without chromium this test FAILS (it is
# a required tool: scripts/deps-report.txt), it never passes silently.
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

# In the fixtures: 3 bar charts beside published figures, 1 of the published
# references alone, 1 TPS-over-time chart per drive x run group (18), the
# percentile curve, and 1 telemetry chart per drive x run group whose results
# carry telemetry (3, lab-c). The drive "slow" alone: 3 + 1 + 1 + 1 + 1.
EXPECTED_CHARTS=26
EXPECTED_CHARTS_SLOW=7

# After load, the probe writes what the layout engine measured into attributes
# of <html>, which --dump-dom prints: window and page widths, the charts drawn
# (width and height > 0), charts reaching outside the window, texts outside
# their chart's viewBox, table-of-contents links without a target.
PROBE_JS='window.addEventListener("error",function(e){var d=document.documentElement;d.setAttribute("data-js-errors",(d.getAttribute("data-js-errors")||"")+String(e.message)+";")});
window.addEventListener("load",function(){var d=document.documentElement,W=window.innerWidth,drawn=0,out=[],txt=[],toc=[],small=[],bare=[];
document.querySelectorAll("svg.chart").forEach(function(s,i){var r=s.getBoundingClientRect();if(r.width>0&&r.height>0)drawn++;
if(r.left<-0.5||r.right>W+0.5)out.push(i+":"+Math.round(r.left)+"-"+Math.round(r.right));
var vb=s.viewBox.baseVal,k=r.width/vb.width;s.querySelectorAll("text").forEach(function(t){var b=t.getBBox(),px=parseFloat(getComputedStyle(t).fontSize)*k;
if(r.width>0&&px<9)small.push(i+":"+t.textContent.slice(0,30)+"("+px.toFixed(1)+"px)");
var x0=b.x,x1=b.x+b.width;if(t.getAttribute("transform"))return;if(x0<-1||x1>vb.width+1)txt.push(i+":"+t.textContent.slice(0,40)+"("+Math.round(x0)+".."+Math.round(x1)+"/"+vb.width+")");});});
document.querySelectorAll("table").forEach(function(t,i){if(!t.parentElement.classList.contains("scroll"))bare.push(i);
var c=t.querySelector("td,th");if(c&&getComputedStyle(c).position!=="sticky")bare.push(i+"(first column not sticky)");});
document.querySelectorAll("nav.toc a").forEach(function(a){var id=a.getAttribute("href").slice(1);if(!document.getElementById(id))toc.push(id);});
var hl=document.getElementById("headline");d.setAttribute("data-headline-bottom",hl?Math.round(hl.getBoundingClientRect().bottom):"none");d.setAttribute("data-vh",window.innerHeight);
d.setAttribute("data-vw",W);d.setAttribute("data-sw",d.scrollWidth);d.setAttribute("data-charts",drawn);
d.setAttribute("data-chart-out",out.join(";"));d.setAttribute("data-text-out",txt.join(";"));d.setAttribute("data-toc-missing",toc.join(";"));
d.setAttribute("data-small-text",small.length+" "+small.slice(0,5).join(";"));d.setAttribute("data-bare-tables",bare.join(";"));
d.setAttribute("data-toc",document.querySelectorAll("nav.toc a").length);d.setAttribute("data-probe","loaded")});'

run_chromium() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
		--user-data-dir="$PROFILE/$1" --enable-logging=stderr --v=0 "${@:2}"
}

attr() { # name file
	grep -o " $1=\"[^\"]*\"" "$2" | head -1 | sed 's/^[^"]*"//; s/"$//'
}

# check_page NAME HTML EXPECTED_CHARTS SIZE...
check_page() {
	local name=$1 html=$2 want=$3 probe="$OUT/$1-probe.html" size w h dom
	shift 3
	# Self-contained: no external resource references (the SVG namespace is not a fetch).
	if grep -Eo '(src|href)="[^"#][^"]*"|url\((["'\'']?)http' "$html" | grep -v '^href="#' | head -3 | grep -q .; then
		check "$name: report.html references external resources"
	fi
	grep -qi '<script' "$html" && check "$name: report.html contains a script (it must work without JS)"
	{
		sed -n '1,/<head>/p' "$html"
		printf '<script>%s</script>\n' "$PROBE_JS"
		sed '1,/<head>/d' "$html"
	} >"$probe"
	for size in "$@"; do
		w=${size%,*}
		h=${size#*,}
		dom="$OUT/$name-$w.dom.html"
		# One run lays the page out once, prints the probed DOM and takes the screenshot.
		if [ "$w" -lt 500 ]; then
			# Headless windows are at least 500 px wide: a phone's width is emulated over the DevTools protocol.
			python3 "$DBRIG_SOURCE_DIR/tests/lib/cdp_dump.py" "$CHROMIUM" "$PROFILE/$name-$w" "file://$probe" "$w" "$h" \
				"$dom" "$OUT/$name-${w}x$h.png" 2>"$OUT/$name-$w.log" || check "$name $size: cdp_dump.py exited $?: $(cat "$OUT/$name-$w.log")"
		else
			run_chromium "$name-$w" --window-size="$size" --dump-dom --screenshot="$OUT/$name-${w}x$h.png" \
				"file://$probe" >"$dom" 2>"$OUT/$name-$w.log" || check "$name $size: chromium exited $?"
		fi
		[ "$(attr data-probe "$dom")" = loaded ] || { check "$name $size: the probe did not run (page never loaded?)"; continue; }
		grep -q 'data-js-errors="' "$dom" && check "$name $size: script errors: $(attr data-js-errors "$dom")"
		[ "$(attr data-vw "$dom")" = "$w" ] || check "$name $size: window width $(attr data-vw "$dom") (expected $w)"
		[ "$(attr data-sw "$dom")" -le "$w" ] || check "$name $size: the page is $(attr data-sw "$dom") px wide in a $w px window"
		[ "$(attr data-charts "$dom")" = "$want" ] || check "$name $size: $(attr data-charts "$dom") charts drawn (expected $want)"
		[ -z "$(attr data-chart-out "$dom")" ] || check "$name $size: charts outside the window: $(attr data-chart-out "$dom")"
		[ -z "$(attr data-text-out "$dom")" ] || check "$name $size: texts outside their chart: $(attr data-text-out "$dom")"
		# The answer on the first screen: the headline ends inside the window.
		[ "$(attr data-headline-bottom "$dom")" != none ] && [ "$(attr data-headline-bottom "$dom")" -le "$h" ] ||
			check "$name $size: the headline ends at $(attr data-headline-bottom "$dom") px, below the first screen ($h px)"
		[ "$(attr data-small-text "$dom")" = "0 " ] || check "$name $size: chart texts under 9 px: $(attr data-small-text "$dom")"
		[ -z "$(attr data-bare-tables "$dom")" ] || check "$name $size: tables not scrolling in a .scroll box with a sticky first column: $(attr data-bare-tables "$dom")"
		[ -z "$(attr data-toc-missing "$dom")" ] || check "$name $size: contents links without a target: $(attr data-toc-missing "$dom")"
		[ "$(attr data-toc "$dom")" -ge 9 ] || check "$name $size: only $(attr data-toc "$dom") links in the table of contents"
		if [ ! -s "$OUT/$name-${w}x$h.png" ] ||
			[ "$(head -c 8 "$OUT/$name-${w}x$h.png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
			check "$name $size: no PNG screenshot at $OUT/$name-${w}x$h.png"
		fi
	done
	# Console messages (SVG attribute errors, uncaught exceptions) are logged as CONSOLE lines.
	if grep -E ':CONSOLE' "$OUT/$name"-*.log | grep -Eiq 'error|uncaught|warning'; then
		check "$name: console errors: $(grep -h ':CONSOLE' "$OUT/$name"-*.log | head -5)"
	fi
}

"$DBRIG_BIN" report "$DBRIG_SOURCE_DIR/tests/fixtures/results" --out "$OUT/all" --format html \
	--compare "$DBRIG_SOURCE_DIR/reports/published" 2>"$OUT/report.stderr" || {
	echo "FAIL: dbrig report: $(cat "$OUT/report.stderr")" >&2
	exit 1
}
check_page all "$OUT/all/report.html" $EXPECTED_CHARTS 1366,768 1920,1080 390,844
# The bar charts' values against the JSON report of the same results (an
# independent reading of the SVG: printed values and bar lengths on the axis).
"$DBRIG_BIN" report "$DBRIG_SOURCE_DIR/tests/fixtures/results" --out "$OUT/all-json" --format json \
	--compare "$DBRIG_SOURCE_DIR/reports/published" 2>/dev/null || check "dbrig report --format json failed"
python3 "$DBRIG_SOURCE_DIR/tests/lib/chart_values.py" "$OUT/all/report.html" "$OUT/all-json/report.json" ||
	check "bar chart values differ from report.json (above)"
DOM="$OUT/all-1366.dom.html"
grep -q 'dbrig report' "$DOM" || check "the rendered DOM lacks the report title"
for want in 'Throughput: TPS summed' 'Average latency' '99th percentile latency' 'TPS over time' \
	'Latency by percentile' 'published review (hatched)' 'precondition | sample' 'Published references: TPS' \
	'Drive utilisation and host CPU: 1 VM on 1 drive · slow' 'fast &gt; slow by 11.6x (95% CI 11.1–12.2)' \
	'id="drive-14-slow"' 'Block devices: loop4 (file /mnt/b/slow.img)' 'sum of 4 instances' \
	'<a href="#superseded">Superseded attempts (1)</a>' 'fast 11.65× slow TPS (95% CI 11.09–12.24), significant'; do
	grep -qF "$want" "$DOM" || check "rendered page lacks \"$want\""
done
# A published reference stands only beside the run groups it matches: the
# "8 VMs, 8 drives" PM1743 figure is in the 8-drive category, not the 4-VM one.
python3 - "$DOM" <<'PY' || check "the 8-drive reference stands beside the 4-VM run group (or the 4-VM category is missing)"
import sys
dom = open(sys.argv[1], encoding="utf-8").read()
a = dom.find("4 VMs on 1 drive (sysbench OLTP, 4 VMs)</text>")
b = dom.find("8 VMs on 8 drives (sysbench OLTP", a)
sys.exit(0 if 0 <= a < b and ">29086<" not in dom[a:b] and ">13579<" in dom[a:b] else 1)
PY
# A full-length screenshot for people to look at.
run_chromium tall --window-size=1366,12000 --screenshot="$OUT/all-1366-full.png" "file://$OUT/all/report.html" \
	>/dev/null 2>&1 || check "full-length screenshot: chromium exited $?"

"$DBRIG_BIN" report "$DBRIG_SOURCE_DIR/tests/fixtures/results" --out "$OUT/slow" --format html --drive slow \
	--compare "$DBRIG_SOURCE_DIR/reports/published" 2>"$OUT/report-slow.stderr" || {
	echo "FAIL: dbrig report --drive slow: $(cat "$OUT/report-slow.stderr")" >&2
	exit 1
}
check_page slow "$OUT/slow/report.html" $EXPECTED_CHARTS_SLOW 1366,768
grep -q '<h1>dbrig report: drive slow</h1>' "$OUT/slow-1366.dom.html" || check "--drive slow: title"

# A demo-like report: one campaign with telemetry, two drives, no published
# reference (as scripts/demo.sh gives), at a laptop's and a phone's width.
"$DBRIG_BIN" report "$DBRIG_SOURCE_DIR/tests/fixtures/results/lab-c" --out "$OUT/demo" --format html --compare none \
	2>"$OUT/report-demo.stderr" || {
	echo "FAIL: dbrig report lab-c: $(cat "$OUT/report-demo.stderr")" >&2
	exit 1
}
check_page demo "$OUT/demo/report.html" 10 1366,768 390,844
grep -qF 'No published reference has the same workload, VM count and number of drives' "$OUT/demo-390.dom.html" ||
	check "demo: Beside published figures does not say why nothing stands beside"
# The drive's identity and what each run did to it, from the results' test_bed.
for want in 'MZWLO3T8HCLS-00A07,</span> serial S6UNNA0T500123, firmware GDC7102Q, 3,841 GB' \
	'SMART passed → passed, 38 → 51 °C (+13), wear 2 → 2% (+0), 6.40 GB written' \
	'Processor, 96 CPUs, 756 GiB RAM, Linux'; do
	grep -qF "$want" "$OUT/demo-1366.dom.html" || check "demo: the test bed lacks \"$want\""
done

[ $fail = 0 ] && echo "report_html: ok, $EXPECTED_CHARTS + $EXPECTED_CHARTS_SLOW charts at 1366x768 and 1920x1080, screenshots in $OUT"
exit $fail
