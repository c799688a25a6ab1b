#!/bin/bash
# compare and report on real UnixBench output: golden text, Markdown, CSV and
# JSON; the SVG chart and the HTML page well-formed (xmllint) and holding every
# test and result (test-pages.sh looks at the pages drawn by Chromium).
# UPDATE_GOLDEN=1 rewrites tests/fixtures/compare/ (then read the diff).
. "$(dirname "$0")/lib.sh"

GOLDEN="$SRCDIR/tests/fixtures/compare"
cd "$SRCDIR/tests/fixtures/unixbench-logs" || fail "no UnixBench fixtures"

# name and inputs of each golden comparison
declare -A cases=(
	[full-6-vs-5]="v6-full/vm-2026-11-29-01 v5-full/vm-2026-11-29-01"
	[passes-6-vs-5]="v6-brief-i3/vm-2026-11-29-01 v5-multi-i3/vm-2026-11-29-01"
	[bench-programs-vs-run]="../results/bench-programs-quick.json ../results/bench-run-engine.json"
	[bench-vs-rpi4]="../results/bench-programs-quick.json ../results/rpi4-undervoltage.json"
	[copies-2-6-vs-5]="--copies 2 v6-brief-i3/vm-2026-11-29-01 v5-multi-i3/vm-2026-11-29-01"
	[formats-of-one-run]="run-output/ub6-full-c1.out v6-full/vm-2026-11-29-01 mangled/broken.txt"
	[log-vs-report]="v6-multi/vm-2026-11-29-02.log v6-multi/vm-2026-11-29-02"
)
# times from ubtune's own clock (the import time of a .log) read <now>
export TZ=UTC
start=$EPOCHSECONDS
outs=()
for name in "${!cases[@]}"; do
	for fmt in text markdown csv json; do
		ext=${fmt/text/txt}
		ext=${ext/markdown/md}
		opt=--$fmt
		[ "$fmt" = text ] && opt=
		# shellcheck disable=SC2086
		"$UBTUNE" compare $opt ${cases[$name]} >"$T/$name.$ext" 2>"$T/err" ||
			fail "compare $opt $name failed: $(cat "$T/err")"
		outs+=("$name.$ext")
	done
done
(cd "$T" && $PY "$SRCDIR/tests/e2e/normalize-now.py" "$start" "$EPOCHSECONDS" "${outs[@]}") || fail "cannot normalise"
for out in "${outs[@]}"; do
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$T/$out" "$GOLDEN/$out"
	else
		diff -u "$GOLDEN/$out" "$T/$out" >"$T/diff" ||
			fail "compare $out differs from $GOLDEN/$out: $(head -40 "$T/diff")"
	fi
done
$PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/passes-6-vs-5.json" || fail "--json is not JSON"
$PY -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1], newline=""))); assert len(r) == 13 and len(set(map(len, r))) == 1' \
	"$T/passes-6-vs-5.csv" || fail "--csv is not a table of 13 rows"

# the chart: well-formed SVG with every test and both results
tests=("Dhrystone 2 using register variables" "Double-Precision Whetstone" "Execl Throughput"
	"File Copy 1024 bufsize 2000 maxblocks" "File Copy 256 bufsize 500 maxblocks"
	"File Copy 4096 bufsize 8000 maxblocks" "Pipe Throughput" "Pipe-based Context Switching"
	"Process Creation" "Shell Scripts (1 concurrent)" "Shell Scripts (8 concurrent)" "System Call Overhead")
command -v xmllint >/dev/null || skip "xmllint is not installed (apt-get install libxml2-utils)"
for rel in "" --relative; do
	# shellcheck disable=SC2086
	"$UBTUNE" compare --chart "$T/chart.svg" $rel ${cases[full-6-vs-5]} >/dev/null 2>"$T/err" ||
		fail "compare --chart $rel failed: $(cat "$T/err")"
	xmllint --noout "$T/chart.svg" 2>"$T/err" || fail "chart $rel is not well-formed: $(head -5 "$T/err")"
	for t in "${tests[@]}"; do
		grep -qF "$t" "$T/chart.svg" || fail "chart $rel lacks '$t'"
	done
	grep -q '<title>A, ' "$T/chart.svg" && grep -q '<title>B, ' "$T/chart.svg" || fail "chart $rel lacks a result"
done

# the page: one result, then three side by side (one imported from a broken table)
"$UBTUNE" report --html "$T/one.html" v6-full/vm-2026-11-29-01 2>"$T/err" || fail "report failed: $(cat "$T/err")"
xmllint --noout "$T/one.html" 2>"$T/err" || fail "report is not well-formed: $(head -5 "$T/err")"
"$UBTUNE" report v6-full/vm-2026-11-29-01 >"$T/stdout.html" || fail "report to stdout failed"
diff <(grep -v 'Made by ubtune' "$T/one.html") <(grep -v 'Made by ubtune' "$T/stdout.html") >/dev/null ||
	fail "report to a file and to stdout differ"
"$UBTUNE" report --html "$T/three.html" v6-full/vm-2026-11-29-01 v5-full/vm-2026-11-29-01.html \
	mangled/broken.txt 2>"$T/err" || fail "report of three failed: $(cat "$T/err")"
xmllint --noout "$T/three.html" 2>"$T/err" || fail "three-result report is not well-formed: $(head -5 "$T/err")"
for t in "${tests[@]}"; do
	grep -qF "$t" "$T/three.html" || fail "report lacks '$t'"
done
for l in A B C; do
	grep -q "<span class=\"label\">$l</span>" "$T/three.html" || fail "report lacks result $l"
done
grep -q 'import, line 19' "$T/three.html" || fail "report does not list the broken table's problem"
! grep -o 'https\?://[^"]*' "$T/three.html" | grep -v '^http://www.w3.org/' || fail "report links to the network"

# a result of ubtune bench: its findings, events and the timeline of the run
"$UBTUNE" report --html "$T/bench.html" ../results/bench-programs-quick.json 2>"$T/err" ||
	fail "report of a bench result failed: $(cat "$T/err")"
xmllint --noout "$T/bench.html" 2>"$T/err" || fail "the bench report is not well-formed: $(head -5 "$T/err")"
grep -q '<title>Clock, temperature and alarms during the run</title>' "$T/bench.html" || fail "no timeline"
grep -q '<polyline points=' "$T/bench.html" || fail "the timeline draws no line"
grep -q 'during the run</span> <strong>4 events (others)</strong>, the first, event 1: other processes used' "$T/bench.html" &&
	grep -q '<details><summary>all 4</summary><ol>' "$T/bench.html" || fail "the events are not listed"
grep -q '<code>storage.scheduler' "$T/bench.html" || fail "the probe's findings are not listed"

# errors: nothing recognisable, a single result
expect_exit 2 "$UBTUNE" compare mangled/not-unixbench.txt v6-full/vm-2026-11-29-01
grep -q 'not-unixbench.txt: no UnixBench results found; expected' "$T/stderr" || fail "unclear error: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" compare v6-full/vm-2026-11-29-01
expect_exit 2 "$UBTUNE" compare --csv --json v6-full/vm-2026-11-29-01 v5-full/vm-2026-11-29-01
expect_exit 1 "$UBTUNE" compare /nonexistent v6-full/vm-2026-11-29-01

# runs of different test sets: no index change, the common tests on their own
json_get "$GOLDEN/bench-programs-vs-run.json" 'd["sections"][0]["score"]["changes"][1]["test"]' | grep -qx partial ||
	fail "a partial pair has an index change"
[ "$(json_get "$GOLDEN/bench-programs-vs-run.json" 'd["sections"][0]["score"]["changes"][1]["pct"]')" = None ] ||
	fail "a partial pair has a score percentage"
[ "$(json_get "$GOLDEN/bench-programs-vs-run.json" 'sorted(d["sections"][0]["score"]["changes"][1]["common"]["tests"])')" = "['pipe', 'syscall']" ] ||
	fail "the common tests of a partial pair are wrong"
# (the line wraps at 80 columns: read with its breaks as spaces)
tr -s '\n ' ' ' <"$GOLDEN/bench-programs-vs-run.txt" |
	grep -q 'Partial: not comparable; the 2 tests both indexed: geometric mean 709.0 and 501.1 (-29.3 %)' ||
	fail "the text does not say the pair is partial"
pass
