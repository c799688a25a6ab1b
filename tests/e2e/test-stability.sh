#!/bin/bash
# The stability verdict: a result with a test's CV above 5 %, a bimodal
# test, events during the run or a critical finding is not to be trusted,
# said by bench (one line; exit 3 only with --strict), by history (the flag
# 'unstable') and by compare; a steady result is said to be steady. The
# verdict of every signal, the same in each place: test-verdict.sh.
. "$(dirname "$0")/lib.sh"

RESULTS="$SRCDIR/tests/fixtures/results"

# the fixtures made steady, bimodal and noisy from one result record
$PY - "$RESULTS/rpi4-undervoltage.json" "$T" <<'PY' || fail "cannot derive the fixtures"
import copy, json, sys
base = json.load(open(sys.argv[1]))
base["events"] = []
# the board's undervoltage, a critical finding, would outweigh the passes
for env in base["environment"].values():
    env["findings"] = [f for f in env["findings"] if f["severity"] != "crit"]
def rec(run_id, edit):
    r = copy.deepcopy(base)
    r["run_id"] = run_id
    edit(r)
    return r
def bimodal(r):
    t = next(t for t in r["runs"][0]["tests"] if t["id"] == "context1")
    for i, p in enumerate(t["passes"]):
        p["rate"] = 37000.0 if i % 2 else 45000.0
def noisy(r):
    t = next(t for t in r["runs"][0]["tests"] if t["id"] == "pipe")
    t["dispersion"]["cv_pct"] = 12.5
for name, run_id, edit in (("steady", "1" * 32, lambda r: None), ("bimodal", "2" * 32, bimodal), ("noisy", "3" * 32, noisy)):
    json.dump(rec(run_id, edit), open(f"{sys.argv[2]}/{name}.json", "w"))
PY
for f in steady bimodal noisy; do
	expect_exit 0 "$UBTUNE" import "$T/$f.json"
done
expect_exit 0 "$UBTUNE" import "$RESULTS/rpi4-undervoltage.json"

expect_exit 0 "$UBTUNE" history
awk 'NR > 1 {print $1, $NF}' "$T/stdout" >"$T/flags"
grep -qx '1 unstable' "$T/flags" && fail "the steady result is flagged: $(cat "$T/stdout")"
for id in 2 3 4; do
	grep -qx "$id unstable" "$T/flags" || fail "result $id is not flagged unstable: $(cat "$T/stdout")"
done

# wide enough for each verdict to stay on its line
expect_exit 0 "$UBTUNE" compare 1 2 3 4 --width 200
grep -q '^A (result 1): Stability: to be trusted: no test.s passes vary by more than 5 % or fall into two groups, no test shared the machine past a threshold, no event during the run, no critical finding$' "$T/stdout" ||
	fail "steady verdict: $(tail -5 "$T/stdout")"
grep -q '^B (result 2): Stability: not to be trusted: Pipe-based Context Switching, 1 copy: bimodal, its passes fall into two groups 22 % apart$' "$T/stdout" ||
	fail "bimodal verdict: $(tail -5 "$T/stdout")"
grep -q '^C (result 3): Stability: not to be trusted: Pipe Throughput, 1 copy: CV 12.5 % (above 5 %)$' "$T/stdout" ||
	fail "noisy verdict: $(tail -5 "$T/stdout")"
grep -q '^D (result 4): Stability: not to be trusted: the probe before and after the run found power.undervoltage (critical); 2 events during the run (undervoltage, low-clock)$' "$T/stdout" ||
	fail "events verdict: $(tail -5 "$T/stdout")"
# --json keeps to its schema
expect_exit 0 "$UBTUNE" compare 1 4 --json
json_get "$T/stdout" 'd["schema"]' | grep -qx ubtune.compare/1 || fail "compare --json has more than JSON"

# bench: the verdict is its last line; --strict makes a run not judged stable exit 3
. "$(dirname "$0")/bench-lib.sh"
export UBTUNE_STATE_DIR="$T/state-bench"
"$UBTUNE" bench --quick --tests syscall --copies 1 --force --no-store --strict --width 200 "${ENGINE[@]}" >"$T/bench" 2>"$T/err"
code=$?
# the verdict is the last paragraph, its continuation lines indented
last=$(sed -n '/^Stability: /,$p' "$T/bench" | tr -s '\n ' ' ')
case $last in
"Stability: not to be trusted: "* | "Stability: not judged: "*)
	[ "$code" = 3 ] || fail "a run not judged stable exited $code with --strict: $last" ;;
"Stability: to be trusted: "*) [ "$code" = 0 ] || fail "a steady run exited $code: $(cat "$T/err")" ;;
*) fail "bench's last line is no verdict: $last ($(tail -3 "$T/err"))" ;;
esac

# on a terminal the progress line is cut to the width and redrawn in place
COLUMNS=40 script -qec "$UBTUNE bench --quick --tests syscall --copies 1 --force --no-store ${ENGINE[*]}" /dev/null >"$T/tty" 2>&1
$PY - "$T/tty" <<'PY' || fail "the progress line is not cut to 40 columns: $(head -c 600 "$T/tty" | cat -v)"
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
lines = [seg for line in plain.split("\n") for seg in line.split("\r") if seg.startswith("[1/")]
assert lines, "no progress line"
assert all(len(seg) <= 40 for seg in lines), [seg for seg in lines if len(seg) > 40]
PY
pass
