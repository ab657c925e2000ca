# Chart values checked against report.json, independently of the SVG code:
# in the TPS, average-latency and p99 bar charts, every measured bar's printed
# value is its group's figure in report.json (at the printed precision), and
# every bar's length is its value on its run group's own axis (or the one
# shared axis of --shared-axis), within 0.15 px.
import json, re, sys
html, rep = open(sys.argv[1], encoding="utf-8").read(), json.load(open(sys.argv[2]))
figures = ("tps_sum", "avg_latency_ms_mean_of_instances", "p99_ms_mean_of_instance_p99s")
svgs = re.findall(r"<svg[^>]*class=\"chart\".*?</svg>", html, re.S)
err, checked = [], 0
def num(t):
    return float(t.replace(",", ""))
TICK = re.compile(r'<text class="tick" x="([\d.]+)" y="[\d.]+" text-anchor="middle" font-size="\d+">([\d.,]+)</text>')
for ci, fig in enumerate(figures):
    svg = svgs[ci]
    legend = svg.find('class="swatch"')  # the legend follows the bars
    svg = svg[:legend] if legend > 0 else svg
    # Each category (run group) has its own axis: the tick labels after its
    # title; with --shared-axis one axis before the first category serves all.
    axis = None
    cat = label = None
    bar = None
    pending = []
    def take_axis():
        global axis, pending
        if pending:
            ticks = pending
            pending = []
            if len(ticks) < 2 or ticks[0][1] != 0:
                err.append("chart %d %s: no axis ticks %s" % (ci, cat, ticks))
                axis = None
            else:
                axis = (ticks[0][0], (ticks[-1][0] - ticks[0][0]) / ticks[-1][1])
    for m in re.finditer(r'<text class="cat" x="8" y="[\d.]+" font-weight="bold" font-size="12">([^<]*)</text>|'
                         r'<text class="bar-label" x="[\d.]+" y="[\d.]+" text-anchor="end" font-size="\d+">([^<]*)</text>|'
                         r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="([^"]+)"/>|'
                         r'<text class="value" x="[\d.]+" y="[\d.]+" font-size="\d+">([^<]*)</text>|' + TICK.pattern, svg):
        if m.group(7) is not None:
            pending.append((float(m.group(7)), num(m.group(8))))
            continue
        take_axis()
        if m.group(1) is not None:
            cat = m.group(1)
        elif m.group(2) is not None:
            label = m.group(2)
        elif m.group(3) is not None:
            if axis is None:
                err.append("chart %d %s/%s: a bar without an axis" % (ci, cat, label)); continue
            x0, scale = axis
            if abs(float(m.group(3)) - x0) > 0.06:
                err.append("chart %d %s/%s: bar starts at %s, not at the axis' 0 (%s)" % (ci, cat, label, m.group(3), x0))
            bar = (label, float(m.group(4)), m.group(5).startswith("url("))
        elif m.group(6) is not None and bar:
            x0, scale = axis
            lab, width, published = bar
            text = m.group(6)
            bar = None
            v = num(text)
            dec = len(text.split(".")[1]) if "." in text else 0
            if abs(width - v * scale) > 0.15 + 0.5 * 10 ** -dec * scale:
                err.append("chart %d %s/%s: bar %.1f px for %s (the axis gives %.1f)" % (ci, cat, lab, width, text, v * scale))
            if published or "…" in lab or "…" in cat:
                continue
            drive = lab.replace(" (incomplete)", "")
            key = fig
            if drive.endswith(" pooled"):
                drive, key = drive[: -len(" pooled")], "p99_ms_pooled"
            rg = cat.split(" (")[0]
            whole = re.fullmatch(r"all \d+ drives", drive) is not None
            want = [g["over_repetitions"][key]["mean"] for g in rep["groups"] if g["key"]["run_group"] == rg and
                    (g["all_drives"] if whole else (g["key"]["drive"] == drive and not g["all_drives"]))]
            if not want:
                err.append("chart %d: bar %s/%s has no group in report.json" % (ci, cat, lab)); continue
            if not any(abs(w - v) <= 0.5 * 10 ** -dec + 1e-9 for w in want):
                err.append("chart %d %s/%s: shows %s, report.json has %s" % (ci, cat, lab, text, want))
            checked += 1
if checked < 10:
    err.append("only %d measured bars checked" % checked)
for e in err:
    print("FAIL:", e, file=sys.stderr)
print("chart values: %d measured bars match report.json, every bar's length matches its axis" % checked)
sys.exit(1 if err else 0)
