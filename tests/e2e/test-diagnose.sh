#!/bin/bash
# ubtune diagnose: the report of a result record against the golden text and
# JSON, and one-line errors for bad input. UPDATE_GOLDEN=1 rewrites the goldens
# (then read the diff).
. "$(dirname "$0")/lib.sh"
# the goldens are text wrapped at 100 columns
export COLUMNS=100

RESULT="$SRCDIR/tests/fixtures/results/rpi4-undervoltage.json"
GOLDEN="$SRCDIR/tests/golden"
# a private results store: the goldens must not see the user's history

# the level against a frozen model (tests/fixtures/expect/README.md)
EXPECT=(--catalogue "$SRCDIR/tests/fixtures/expect/cpus.ini" --model "$SRCDIR/tests/fixtures/expect/expect.ini")
"$UBTUNE" diagnose "${EXPECT[@]}" "$RESULT" >"$T/text" 2>"$T/err" || fail "diagnose failed: $(cat "$T/err")"
"$UBTUNE" diagnose --json "${EXPECT[@]}" "$RESULT" >"$T/json" 2>"$T/err" || fail "diagnose --json failed: $(cat "$T/err")"
[ -s "$T/err" ] && fail "diagnose wrote to stderr: $(cat "$T/err")"
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
	cp "$T/text" "$GOLDEN/diagnose-rpi4-undervoltage.txt"
	cp "$T/json" "$GOLDEN/diagnose-rpi4-undervoltage.json"
fi
diff -u "$GOLDEN/diagnose-rpi4-undervoltage.txt" "$T/text" >"$T/diff" ||
	fail "text report differs from the golden one: $(head -40 "$T/diff")"
$PY - "$GOLDEN/diagnose-rpi4-undervoltage.json" "$T/json" <<'PYEOF' || fail "JSON report differs from the golden one"
import json, sys
want, got = (json.load(open(p)) for p in sys.argv[1:3])
if want != got:
    for key in want:
        if want[key] != got.get(key):
            print("differs:", key, file=sys.stderr)
    sys.exit(1)
PYEOF

# the text and the JSON say the same: same causes in the same order
causes=$(json_get "$T/json" "' '.join(c['id'] + ':' + c['confidence'] for c in d['causes'])")
[[ $causes == "diag.undervoltage:high diag.measured-clock:high diag.poor-scaling:medium "* ]] || fail "causes: $causes"
n=0
for c in $causes; do
	n=$((n + 1))
	grep -q "^$n\. .*(confidence: ${c#*:})  ${c%%:*}\$" "$T/text" || fail "text lacks cause $n $c"
done

# the knob cases: what the run held and hit, what the kernel logged and in which
# test, and the clock by the share of a pass's time
KNOBS="$SRCDIR/tests/fixtures/results"
"$UBTUNE" diagnose --json "$KNOBS/rk3568-board-knobs.json" >"$T/board.json" || fail "diagnose of the board case failed"
causes=$(json_get "$T/board.json" "' '.join(c['id'] + ':' + c['confidence'] for c in d['causes'])")
[[ $causes == "diag.process-limit:high "* ]] || fail "board causes: $causes"
for c in diag.idle-wakeup:low diag.memory-clock:low; do
	[[ " $causes " == *" $c "* ]] || fail "board causes lack $c: $causes"
done
"$UBTUNE" diagnose --json "$KNOBS/laptop-knobs.json" >"$T/laptop.json" || fail "diagnose of the laptop case failed"
$PY - "$T/laptop.json" <<'PYEOF' || fail "the laptop case is not diagnosed as its events and knobs say"
import json, sys
d = json.load(open(sys.argv[1]))
causes = {c["id"]: c for c in d["causes"]}
k = causes["diag.kernel-events"]
assert k["confidence"] == "high" and "an OOM kill during Shell Scripts (8 concurrent), 8 copies" in k["reason"], k
assert k["affects"] == ["shell8"], k["affects"]
m = causes["diag.measured-clock"]
assert m["reason"].startswith("the 8-copy pass ran at 1800 MHz for 92 % of its time"), m["reason"]
assert causes["diag.syscall-filters"]["confidence"] == "medium", causes["diag.syscall-filters"]
assert causes["diag.energy-policy"]["confidence"] == "low", causes["diag.energy-policy"]
# 8 copies on 4 cores with SMT are not judged against 8 cores
assert "on 8 threads on 4 cores" in causes["diag.poor-scaling"]["reason"], causes["diag.poor-scaling"]
PYEOF

# a newer kernel than the published runs': its mitigations are named; the
# board's own kernel, as theirs, is not blamed (it shows in "Looks normal")
"$UBTUNE" diagnose --json "$KNOBS/rk3568-newer-kernel.json" >"$T/kernel.json" || fail "diagnose of the kernel case failed"
$PY - "$T/kernel.json" "$T/board.json" <<'PYEOF' || fail "the kernel case is not diagnosed as its mitigations say"
import json, sys
d = json.load(open(sys.argv[1]))
causes = {c["id"]: c for c in d["causes"]}
m = causes["diag.mitigations"]
assert m["confidence"] == "low", m
assert any("at 70 % of the published runs of this CPU" in e for e in m["evidence"]), m["evidence"]
board = json.load(open(sys.argv[2]))
assert "diag.mitigations" not in {c["id"] for c in board["causes"]}, board["causes"]
PYEOF

# bad input: one line naming the file, exit 2; a missing file: exit 1
expect_exit 1 "$UBTUNE" diagnose "$T/missing.json"
grep -q "$T/missing.json" "$T/stderr" || fail "no file name in: $(cat "$T/stderr")"
echo '{"schema": "ubtune.result/1", "runs": [' >"$T/broken.json"
expect_exit 2 "$UBTUNE" diagnose "$T/broken.json"
grep -q "broken.json: not valid JSON" "$T/stderr" || fail "broken JSON: $(cat "$T/stderr")"
echo '{"schema": "ubtune.probe/1"}' >"$T/probe.json"
expect_exit 2 "$UBTUNE" diagnose "$T/probe.json"
grep -q "probe.json: not a ubtune result: schema is 'ubtune.probe/1'" "$T/stderr" || fail "wrong schema: $(cat "$T/stderr")"
echo '{"schema": "ubtune.result/1", "run_id": "e", "started_at": "2026-01-01T00:00:00+0000",
 "suite": {"name": "ubtune"}, "runs": [{"copies": 1, "tests": []}]}' >"$T/empty.json"
expect_exit 2 "$UBTUNE" diagnose "$T/empty.json"
grep -q "empty.json: the result has no scored test" "$T/stderr" || fail "no tests: $(cat "$T/stderr")"
"$UBTUNE" diagnose "$T" 2>"$T/err" >/dev/null && fail "a directory was diagnosed"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "more than one line for a directory: $(cat "$T/err")"
expect_exit 2 "$UBTUNE" diagnose "$RESULT" "$RESULT"
# nothing stored yet: the default (the last result) is not there
expect_exit 1 "$UBTUNE" diagnose
grep -q "there is no result 'last'" "$T/stderr" || fail "no stored result: $(cat "$T/stderr")"
echo '{"schema": "ubtune.reference/1", "runs": [{"id": "x"}]}' >"$T/ref.json"
expect_exit 2 "$UBTUNE" diagnose --reference "$T/ref.json" "$RESULT"
grep -q "ref.json: run x: env and tests must be objects" "$T/stderr" || fail "bad reference: $(cat "$T/stderr")"
[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "more than one line for a bad reference"

# UnixBench output, imported on the fly: no environment, so the checks that need one say so
LOGS="$SRCDIR/tests/fixtures/unixbench-logs"
"$UBTUNE" diagnose --json "$LOGS/v6-full/vm-2026-11-29-01" >"$T/ub" 2>"$T/err" || fail "UnixBench report: $(cat "$T/err")"
[ "$(json_get "$T/ub" "d['result']['imported'], d['result']['environment']")" = "(True, False)" ] ||
	fail "an imported report: $(json_get "$T/ub" "d['result']")"
json_get "$T/ub" "' '.join(n['id'] for n in d['not_checked'])" | grep -q diag.governor || fail "governor checked on a log"
# several runs of Run in one file: what differs leads, then each is diagnosed
expect_exit 0 "$UBTUNE" diagnose "$LOGS/mangled/several-runs.txt"
[ "$(head -n 1 "$T/stdout")" = "== What differs ==" ] || fail "two runs, no comparison first: $(head -c 600 "$T/stdout")"
grep -q "diag.busy-machine" "$T/stdout" || fail "two runs: the load at the start not named: $(sed -n '/What differs/,$p' "$T/stdout")"
"$UBTUNE" diagnose --json "$LOGS/mangled/several-runs.txt" >"$T/set" || fail "several runs, --json"
[ "$(json_get "$T/set" "d['schema'], len(d['reports']), len(d['comparisons'])")" = "('ubtune.diagnosis-set/1', 2, 1)" ] ||
	fail "several runs: $(json_get "$T/set" "d.get('schema')")"
# the labels name the versions of UnixBench ("(6.0.0)", "(5.1.3)"): that is the change, quoted
[ "$(json_get "$T/set" "d['comparisons'][0]['one_machine'], d['comparisons'][0]['causes'][0]['class'], d['comparisons'][0]['causes'][1]['id']")" = "(True, 'diag.unixbench-version', 'diff.load')" ] ||
	fail "several runs: $(json_get "$T/set" "d['comparisons'][0]")"
expect_exit 2 "$UBTUNE" diagnose "$LOGS/mangled/not-unixbench.txt"

# without the installed reference runs: a warning, and a report without references
UBTUNE_DATADIR="$T/nodata" "$UBTUNE" diagnose --json "$RESULT" >"$T/noref" 2>"$T/err" || fail "failed without references"
grep -q "comparing with no published run" "$T/err" || fail "no warning: $(cat "$T/err")"
[ "$(json_get "$T/noref" "len(d['references'])")" = 0 ] || fail "references without a reference file"
[ "$(json_get "$T/noref" "d['causes'][0]['id']")" = diag.undervoltage ] || fail "cause changed without references"
# stored results: the last one by default, by id, and the person's history as
# references. An earlier run of the same host with a good supply (the published
# rpi4-native-goodpower scores, no undervoltage) becomes the closest reference.
$PY - "$RESULT" "$SRCDIR/reference/published-results.json" "$T/good.json" <<'PYEOF' || fail "cannot write the history run"
import json, sys
rec = json.load(open(sys.argv[1]))
ref = {r["id"]: r for r in json.load(open(sys.argv[2]))["runs"]}
rec["run_id"] = "0" * 31 + "1"
rec["started_at"] = "2024-01-13T09:00:00+0000"
for run in rec["runs"]:
    pub = ref["rpi4-native-goodpower-c%d" % run["copies"]]["tests"]
    for t in run["tests"]:
        t["index"] = pub[t["name"]]["index"]
        # a good supply: every kind at its maximum after each test
        for k in t["clock"]["after"]:
            k["measured_khz"] = k["cur_khz"] = 1500000
for env in rec["environment"].values():
    env["power"]["undervoltage_now"] = False
    env["power"]["undervoltage_events"] = 0
    env["findings"] = [f for f in env["findings"] if not f["id"].startswith("power.")]
rec["events"] = []
rec["sampler"]["sources"]["hwmon_alarms"] = 1
json.dump(rec, open(sys.argv[3], "w"))
PYEOF
"$UBTUNE" import "$T/good.json" >/dev/null || fail "import of the history run failed"
"$UBTUNE" import "$RESULT" >/dev/null || fail "import failed"
"$UBTUNE" diagnose --json >"$T/last" 2>"$T/err" || fail "diagnose of the last result failed: $(cat "$T/err")"
"$UBTUNE" diagnose --json 2 >"$T/two" || fail "diagnose 2 failed"
cmp -s "$T/last" "$T/two" || fail "'last' and '2' differ"
[ "$(json_get "$T/last" "d['references'][0]['runs'][0]['id']")" = "result 1-c1" ] ||
	fail "the same host's earlier run is not the closest reference: $(json_get "$T/last" "d['references'][0]['runs']")"
[ "$(json_get "$T/last" "d['causes'][0]['id']")" = diag.undervoltage ] || fail "with history: another first cause"
"$UBTUNE" diagnose --json last~1 >"$T/one" || fail "diagnose last~1 failed"
[ "$(json_get "$T/one" "[c['id'] for c in d['causes'] if c['confidence'] != 'low']")" = "[]" ] ||
	fail "the good run is diagnosed with: $(json_get "$T/one" "[c['id'] for c in d['causes']]")"
expect_exit 1 "$UBTUNE" diagnose 9
grep -q "9" "$T/stderr" || fail "unknown id: $(cat "$T/stderr")"
pass
