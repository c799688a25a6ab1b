#!/bin/bash
# The conventions every command keeps: options before and after operands
# ("--" ends them), global options after the command, standard input for
# every kind of input, HTML not written into a terminal, text wrapped to
# the width.
. "$(dirname "$0")/lib.sh"

LOGS="$SRCDIR/tests/fixtures/unixbench-logs"
RESULTS="$SRCDIR/tests/fixtures/results"

expect_exit 0 "$UBTUNE" import "$LOGS/v6-full/vm-2026-11-29-01" "$LOGS/v5-full/vm-2026-11-29-01"

# options after the operands, for every command that takes operands
expect_exit 0 "$UBTUNE" show 1 --json
json_get "$T/stdout" 'd["schema"]' | grep -qx ubtune.result/1 || fail "show 1 --json: $(head -3 "$T/stdout")"
expect_exit 0 "$UBTUNE" export 1 -o "$T/one.json" --color never
[ -s "$T/one.json" ] || fail "export 1 -o FILE wrote nothing"
expect_exit 0 "$UBTUNE" compare 1 2 --json
json_get "$T/stdout" 'd["schema"]' | grep -qx ubtune.compare/1 || fail "compare 1 2 --json: $(head -3 "$T/stdout")"
expect_exit 0 "$UBTUNE" diagnose 1 --json
json_get "$T/stdout" 'd["schema"]' | grep -qx ubtune.diagnosis/1 || fail "diagnose 1 --json: $(head -3 "$T/stdout")"
expect_exit 0 "$UBTUNE" import "$LOGS/v5-full/vm-2026-11-29-01" --no-store --json
json_get "$T/stdout" 'len(d)' | grep -qx 1 || fail "import FILE --no-store --json: $(head -3 "$T/stdout")"
expect_exit 0 "$UBTUNE" report 1 --html "$T/one.html"
grep -q '<html' "$T/one.html" || fail "report 1 --html FILE wrote no page"
expect_exit 0 "$UBTUNE" history --json --width 70
expect_exit 0 "$UBTUNE" help compare --width 70
grep -q '^Usage: ubtune compare' "$T/stdout" || fail "help compare --width 70: $(head -3 "$T/stdout")"
# "--" ends the options; options of another command or none are usage errors
expect_exit 0 "$UBTUNE" compare --json -- 1 2
expect_exit 2 "$UBTUNE" show -- --json
grep -q "'--json' is not a result id" "$T/stderr" || fail "show -- --json: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" show 1 --csv
grep -q "^ubtune show: unknown option '--csv'" "$T/stderr" || fail "show --csv: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" compare 1 2 --csv --json
grep -q "give one of --markdown, --csv and --json" "$T/stderr" || fail "compare --csv --json: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" compare 1 2 --relative
grep -q -- "--relative is for --chart FILE.svg" "$T/stderr" || fail "compare --relative: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" compare 1 2 --copies 0
expect_exit 2 "$UBTUNE" show 1 2
expect_exit 2 "$UBTUNE" history 1
expect_exit 2 "$UBTUNE" diagnose 1 --color sometimes

# standard input takes every kind of input a file does, result records too
for f in v6-full/vm-2026-11-29-01 v6-full/vm-2026-11-29-01.html v6-full/vm-2026-11-29-01.log \
	run-output/ub5-full-c1.out mangled/nbsp.txt mangled/wrapped.txt; do
	expect_exit 0 "$UBTUNE" import - --no-store <"$LOGS/$f"
	grep -q '^standard input: read UnixBench .* (not stored)$' "$T/stdout" || fail "import - of $f: $(cat "$T/stdout" "$T/stderr")"
	# through a pipe as well as from a file
	cat "$LOGS/$f" | "$UBTUNE" import - --no-store >"$T/piped" 2>"$T/err" || fail "cat $f | import -: $(cat "$T/err")"
	cmp -s "$T/stdout" "$T/piped" || fail "cat $f | import - said otherwise: $(cat "$T/piped")"
done
"$UBTUNE" export 1 | "$UBTUNE" import - --no-store >"$T/out" 2>&1 || fail "export | import -: $(cat "$T/out")"
grep -q '^standard input: read UnixBench 6.0.0' "$T/out" || fail "export | import -: $(cat "$T/out")"
"$UBTUNE" export 2 | "$UBTUNE" import - >"$T/out" 2>&1 || fail "export | import - (stored): $(cat "$T/out")"
grep -q 'already stored as result 2' "$T/out" || fail "export 2 | import -: $(cat "$T/out")"
"$UBTUNE" export 2 | "$UBTUNE" compare 1 - >"$T/out" 2>&1 || fail "export | compare 1 -: $(cat "$T/out")"
"$UBTUNE" diagnose - <"$RESULTS/rpi4-undervoltage.json" >"$T/out" 2>&1 || fail "diagnose - <result: $(cat "$T/out")"
"$UBTUNE" export 1 | "$UBTUNE" fleet - 2 --json >"$T/out" 2>"$T/err" || fail "export | fleet - 2: $(cat "$T/err")"
json_get "$T/out" 'len(d["results"])' | grep -qx 2 || fail "export | fleet - 2 read $(head -c 300 "$T/out")"
"$UBTUNE" fleet - <"$LOGS/v5-full/vm-2026-11-29-01" >"$T/out" 2>"$T/err" || fail "fleet - <log: $(cat "$T/err")"

# report on a terminal writes a file, named on stderr; into a pipe, HTML
(cd "$T" && script -qec "$UBTUNE report 1" /dev/null >"$T/tty" 2>&1) || fail "report on a terminal: $(cat "$T/tty")"
[ -s "$T/report-1.html" ] || fail "report on a terminal wrote no report-1.html: $(cat "$T/tty")"
grep -q "report written to report-1.html" "$T/tty" || fail "report on a terminal said: $(cat "$T/tty")"
grep -q '<html' "$T/tty" && fail "report on a terminal printed HTML"
"$UBTUNE" report 1 | grep -q '<html' || fail "report into a pipe printed no HTML"

# text wraps to COLUMNS, to --width, and to 80 when not a terminal
for c in compare import report diagnose; do
	COLUMNS=70 "$UBTUNE" "$c" --help >"$T/h70" || fail "$c --help failed"
	awk 'length > 70 {print; bad = 1} END {exit bad}' "$T/h70" >"$T/long" || fail "COLUMNS=70 $c --help: $(cat "$T/long")"
	env -u COLUMNS "$UBTUNE" "$c" --help --width 60 >"$T/h60" || fail "$c --help --width 60 failed"
	awk 'length > 60 {print; bad = 1} END {exit bad}' "$T/h60" >"$T/long" || fail "$c --help --width 60: $(cat "$T/long")"
	env -u COLUMNS "$UBTUNE" "$c" --help >"$T/h80" || fail "$c --help failed"
	awk 'length > 80 {print; bad = 1} END {exit bad}' "$T/h80" >"$T/long" || fail "$c --help: $(cat "$T/long")"
	cmp -s "$T/h70" "$T/h80" && fail "$c --help is the same at 70 and 80 columns"
done
COLUMNS=70 "$UBTUNE" help >"$T/h70" || fail "help failed"
awk 'length > 70 {print; bad = 1} END {exit bad}' "$T/h70" >"$T/long" || fail "COLUMNS=70 help: $(cat "$T/long")"
# reports too: the probe's facts break between items, findings, diagnoses
# and the plan's table and lists at spaces; only a word longer than a line
# (a path) may pass the width
narrow() { # narrow WIDTH FILE
	$PY - "$@" <<'PY'
import sys
width, path = int(sys.argv[1]), sys.argv[2]
bad = [l for l in open(path, encoding="utf-8").read().split("\n")
       if len(l) > width and max(len(w) for w in l.split()) < 40]
if bad:
    sys.exit("\n".join(bad))
PY
}
ROOT="$FIXTURES/rpi4-undervoltage"
for w in 70 100; do
	COLUMNS=$w "$UBTUNE" probe --root "$ROOT" >"$T/probe$w" || fail "probe --root failed"
	narrow $w "$T/probe$w" || fail "COLUMNS=$w probe: $(narrow $w "$T/probe$w" 2>&1)"
	COLUMNS=$w "$UBTUNE" diagnose "$RESULTS/rpi4-undervoltage.json" >"$T/diag$w" || fail "diagnose failed"
	narrow $w "$T/diag$w" || fail "COLUMNS=$w diagnose: $(narrow $w "$T/diag$w" 2>&1)"
	COLUMNS=$w "$UBTUNE" apply --dry-run --root "$ROOT" rpi4 >"$T/plan$w" || fail "apply --dry-run failed"
	narrow $w "$T/plan$w" || fail "COLUMNS=$w apply --dry-run: $(narrow $w "$T/plan$w" 2>&1)"
done
grep -q '^Host      raspberrypi · Debian GNU/Linux 12 (bookworm)$' "$T/probe70" ||
	fail "the probe's Host line is not broken between its facts: $(grep -A1 '^Host' "$T/probe70")"
grep -q '^  crit power.undervoltage$' "$T/probe70" || fail "narrow findings keep their text beside the id"
grep -q '^  crit power.undervoltage  *Undervoltage right now' "$T/probe100" || fail "wide findings lost their layout"
cmp -s "$T/probe70" "$T/probe100" && fail "the probe is the same at 70 and 100 columns"

# the README's first screen shows output of this ubtune: each of its lines
# (an elided end "..." left out) is part of a line the commands print
mkdir -p "$T/rpi4-state"
printf '{"profiles": ["generic", "rpi4"], "build": {"cc": "gcc", "cflags": "-O3 -mcpu=cortex-a72"}}\n' \
	>"$T/rpi4-state/applied.json"
{
	cat "$T/probe100" "$T/plan100" "$T/diag100"
	"$UBTUNE" compare "$RESULTS/rpi4-undervoltage.json" "$RESULTS/rpi4-undervoltage.json" --width 1000
	UBTUNE_STATE_DIR="$T/rpi4-state" UBTUNE_CACHE_DIR="$T/rpi4-cache" "$UBTUNE" bench --dry-run --copies 1,4 \
		--width 1000 | sed 's/^Expected time: /ubtune: expected to take /'
} >"$T/real" 2>&1
$PY - "$SRCDIR/README.md" "$T/real" <<'PY' || fail "the README shows output ubtune does not print"
import sys
readme = open(sys.argv[1], encoding="utf-8").read()
real = open(sys.argv[2], encoding="utf-8").read().split("\n")
session = readme.split("A typical session", 1)[1].split("\nTo have", 1)[0]
shown = [l[4:] for l in session.split("\n") if l.startswith("    ") and not l.startswith("    $")]
assert len(shown) >= 6, shown
missing = [s for s in shown if not any(s.rstrip(". ").strip() in r for r in real)]
if missing:
    sys.exit("not printed: " + repr(missing))
PY

# charts leave out what has no data on either side: runs of different test
# sets are drawn on the tests both ran (and those tests' mean, not the
# partial scores), a copy count one side did not run is no panel, and two
# imported runs without readings get no timelines
"$UBTUNE" compare "$LOGS/v6-full/vm-2026-11-29-01" "$LOGS/v6-brief-i3/vm-2026-11-29-01" --chart "$T/partial.svg" \
	>"$T/out" 2>&1 || fail "compare --chart of different test sets: $(cat "$T/out")"
grep -q 'Partial: not comparable' "$T/out" || fail "the table does not say the runs are partial: $(cat "$T/out")"
grep -q 'n/a' "$T/partial.svg" && fail "the chart draws bars facing nothing"
grep -q 'Geometric mean of the 2 common tests' "$T/partial.svg" || fail "the chart does not draw the common tests' mean"
grep -q 'Dhrystone\|System Benchmarks Index Score\|2 copies' "$T/partial.svg" &&
	fail "the chart draws tests, scores or copy counts only one side has"
[ "$(grep -c '<title>[AB], ' "$T/partial.svg")" = 6 ] || fail "the chart should have 3 rows of 2 bars"
if command -v xmllint >/dev/null; then
	xmllint --noout "$T/partial.svg" || fail "the chart of different test sets is not well-formed"
fi
expect_exit 0 "$UBTUNE" report "$LOGS/v6-full/vm-2026-11-29-01" "$LOGS/v5-full/vm-2026-11-29-01" --html "$T/two.html"
grep -q '<h2 id="charts">' "$T/two.html" || fail "the page of two imported runs has no charts"
grep -q 'id="timeline"\|no readings' "$T/two.html" && fail "the page of two imported runs draws empty timelines"
pass
