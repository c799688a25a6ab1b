#!/bin/bash
# The pages as a person sees them: each page ubtune draws (pages-lib.sh) is
# laid out by headless Chromium at 1280 px and measured (page-check.js):
# nothing wider than the page or hidden behind a scrollbar, no text of a
# chart over another or off the chart, every band and event of the
# timeline named, the copy counts told apart, the fleet's axis fitting its
# hosts with a far one clipped and a legend, the findings not flooded by
# events, the tables of an imported report without empty columns.
# tools/screenshot-pages takes the same pages as PNGs for review.
. "$(dirname "$0")/lib.sh"
command -v chromium >/dev/null || skip "chromium is not installed (make check installs it)"
. "$(dirname "$0")/pages-lib.sh"

pages_make "$T/pages" || fail "the pages could not be made"
for page in "$T"/pages/*.html; do
	name=$(basename "$page" .html)
	pages_measure "$page" "$T/$name.json" || fail "Chromium did not lay out $name: $(tail -3 "$T/chromium.log")"
	$PY - "$T/$name.json" "$name" <<'PY' || fail "$name: $(cat "$T/why")"
import json, sys
d, name = json.load(open(sys.argv[1])), sys.argv[2]
bad = []
if d["page_scroll_width"] > d["width"]:
    bad.append(f"the page scrolls sideways: {d['page_scroll_width']} px in {d['width']}")
bad += [f"wider than the page: {w}" for w in d["wide"]]
bad += [f"behind a scrollbar: {w}" for w in d["scrolled"]]
for c in d["charts"]:
    bad += [f"{c['title']}: {a!r} over {b!r}" for a, b in c["overlaps"]]
    bad += [f"{c['title']}: {t!r} leaves the chart" for t in c["outside"]]
open(sys.argv[1] + ".why", "w").write("\n".join(bad))
PY
	[ -s "$T/$name.json.why" ] && fail "$name: $(head -20 "$T/$name.json.why")"
done

# what each page must show
$PY - "$T" "$T/pages" 2>"$T/why" <<'PY' || fail "$(tail -3 "$T/why")"
import json, math, re, sys
t, pages = sys.argv[1:3]
load = lambda n: json.load(open(f"{t}/{n}.json"))
html = lambda n: open(f"{pages}/{n}.html").read()

def chart(d, title):
    return next(c for c in d["charts"] if c["title"].startswith(title))

# the timeline: 24 bands, each named; the copy counts and their boundary;
# 21 events, each numbered and with its message as the tooltip
tl = chart(load("report-bench"), "Clock, temperature and alarms during the run")
p = tl["parts"]
assert len(p["band"]) == 24, len(p["band"])
assert len(p["band-label"]) == 24, p["band-label"]
assert sorted(p["copies"]) == ["1 copy", "2 copies"], p["copies"]
assert len(p["copies-boundary"]) == 1, p.get("copies-boundary")
assert len(p["event"]) == 21 and len(p["event-label"]) == 21, (len(p["event"]), len(p["event-label"]))
assert all(re.match(r"event \d+ at \d+ s: other processes used", e) for e in p["event"]), p["event"][:3]
assert sorted(int(x) for x in p["event-label"]) == list(range(1, 22)), p["event-label"]
assert "note" in p and "axis" in p, sorted(p)

# the report: events in one line per kind, the verdict in the card
page = html("report-bench")
assert page.count('<span class="warn">during the run</span>') == 1, "events not grouped"
assert '<details><summary>all 21</summary><ol>' in page
assert 'Stability: <span class="verdict-untrusted">not to be trusted</span>' in page

# an imported report: no columns of dashes, no "passes 0", no "fact | A"
imp = load("report-import")
assert "samples" in imp["headers"], imp["headers"]
for h in ("passes", "CV %", "min to max", "95 % interval", "fact", "A"):
    assert h not in imp["headers"], (h, imp["headers"])
assert "fact" in load("report-two")["headers"]

# the fleet: an axis that fits the hosts (the x86 server clipped with its
# value), even ticks with their decimals, the legend
for c in load("fleet")["charts"]:
    p = c["parts"]
    ticks = [float(x.replace(" %", "")) for x in p["tick"]]
    steps = {round(b - a, 6) for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1, ticks
    step = steps.pop()
    assert round(step / 10 ** math.floor(math.log10(step)), 6) in (1, 2, 2.5, 5), ticks
    assert max(ticks) <= 100 and min(ticks) >= -100, ticks
    assert len(p["clipped"]) == 3 and all(o.startswith("x86: ") for o in p["clipped"]), p.get("clipped")
    assert p["outlier"].count("b7") == 3 and p["outlier"].count("x86 +2350 %") == 3, p["outlier"]
    assert len(p["legend"]) == 4 and any(l.startswith("normal range") for l in p["legend"]), p["legend"]

# compare's chart: an axis title, bold and "~" explained
c = chart(load("compare"), "UnixBench index per test")
assert all(a.startswith("index: 10 × result / baseline") for a in c["parts"]["axis-title"]), c["parts"]
assert any('"~": a change within the noise' in l and "bold" in l for l in c["parts"]["legend"]), c["parts"]["legend"]
PY
pass
