#!/bin/bash
# The reference data: reference/runs.jsonl, expect.ini and published-results.json are what
# tools/build-reference builds from the published-run corpus and the CPU catalogue (so that a
# fixture and a reference run cannot drift apart); the script refuses a bad catalogue with file,
# line and key and leaves a run with an absurd clock out of the fit with a warning; `ubtune
# reference` lists, searches and shows the runs and the runs behind an expectation.
. "$(dirname "$0")/lib.sh"

BUILD=("$PY" "$SRCDIR/tools/build-reference" --ubtune "$UBTUNE")
CORPUS=$SRCDIR/tests/fixtures/unixbench-published
FROZEN=(--catalogue "$SRCDIR/tests/fixtures/expect/cpus.ini" --model "$SRCDIR/tests/fixtures/expect/expect.ini")

# ---- the committed files are the corpus's ----
"${BUILD[@]}" --check 2>"$T/check" || fail "$(cat "$T/check")"

# every run of the corpus is in the database, once, in its order
$PY - "$CORPUS/manifest.json" "$SRCDIR/reference/runs.jsonl" <<'PYEOF' || fail "the database is not the corpus's runs"
import json, sys
manifest = json.load(open(sys.argv[1]))
lines = [json.loads(l) for l in open(sys.argv[2])]
head, runs = lines[0], lines[1:]
want = ["%s#%d" % (f["file"], i + 1) for f in manifest["files"] for i in range(len(f["runs"]))]
assert [r["id"] for r in runs] == want, "ids differ"
assert head["counts"]["runs"] == len(runs)
# a run the source calls slowed is kept with its cause, and not used
for f in manifest["files"]:
    for i, r in enumerate(f["runs"]):
        db = runs[want.index("%s#%d" % (f["file"], i + 1))]
        if not r.get("healthy"):
            assert db["use"] is False and db["not_used"], db["id"]
        if r.get("cause"):
            assert db["cause"] == r["cause"], db["id"]
# the runs diagnose compares with are corpus runs
pub = json.load(open(sys.argv[2].replace("runs.jsonl", "published-results.json")))
ids = {r["reference"]["id"] for f in manifest["files"] for r in f["runs"] if r.get("reference")}
assert [r["id"] for r in pub["runs"]] and {r["id"] for r in pub["runs"]} == ids
PYEOF

# ---- the script refuses a bad catalogue: its own check, and the C reader's ----
printf '[core A]\narch = aarch64\nmatch = a\n' >"$T/nogroup.ini"
"${BUILD[@]}" --catalogue "$T/nogroup.ini" --out "$T/x" 2>"$T/err" && fail "a catalogue without group was read"
grep -q "nogroup.ini:1: \[core A\] group: missing" "$T/err" || fail "no file, line and key: $(cat "$T/err")"
printf '[core A]\narch = aarch64\ngroup = g\nmidr = 0x41\n' >"$T/midr.ini"
"${BUILD[@]}" --catalogue "$T/midr.ini" --out "$T/x" 2>"$T/err" && fail "a catalogue with a bad MIDR was read"
grep -q "midr.ini:4: \[core A\] midr: '0x41' is not IMPLEMENTER:PART" "$T/err" || fail "no file, line and key: $(cat "$T/err")"

# ---- a run with an absurd clock is left out of the fit, with a warning ----
mkdir -p "$T/corpus"
cp "$CORPUS/vpsbenches-Vultur.1GB.log" "$CORPUS/vpsbenches-Vultur.2GB.log" "$T/corpus/"
$PY - "$CORPUS/manifest.json" "$T/corpus/manifest.json" <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
files = [f for f in m["files"] if f["file"].startswith("vpsbenches-Vultur")]
files[0]["runs"][0].setdefault("machine", {})["clock_mhz"] = 90000
for f in files:
    f["runs"][0]["healthy"] = True
json.dump({"schema": m["schema"], "only_listed": True, "files": files}, open(sys.argv[2], "w"))
PYEOF
"${BUILD[@]}" --corpus "$T/corpus" --out "$T/small" >"$T/out" 2>"$T/err" || fail "the small corpus: $(cat "$T/err")"
grep -q "warning: vpsbenches-Vultur.1GB.log#1: left out of the fit: absurd clock (90000 MHz stated)" "$T/err" ||
	fail "no warning for an absurd clock: $(cat "$T/err")"
$PY -c 'import json, sys
runs = [json.loads(l) for l in open(sys.argv[1])][1:]
assert runs[0]["use"] is False and runs[0]["not_used"].startswith("absurd clock"), runs[0]
assert runs[1]["use"] is True, runs[1]' "$T/small/runs.jsonl" || fail "the absurd run was used"
grep -q "^runs 2 of 2 machines from 1 sources; used for the fit 1 runs of 1 machines from 1 sources" "$T/out" || fail "counts: $(head -3 "$T/out")"

# ---- ubtune reference ----
expect_exit 0 "$UBTUNE" reference --json
n=$(json_get "$T/stdout" 'len(d)')
used=$($PY -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["counts"]["used"])' "$SRCDIR/reference/runs.jsonl")
[ "$n" = "$used" ] || fail "reference lists $n runs, the database uses $used"
expect_exit 0 "$UBTUNE" reference --all
grep -q "^[0-9]* of [0-9]* runs$" "$T/stdout" || fail "reference --all: $(tail -2 "$T/stdout")"
expect_exit 0 "$UBTUNE" reference search ft-2000 --all --json
[ "$(json_get "$T/stdout" 'sorted({r["place"]["core"] for r in d})')" = "['FTC662']" ] ||
	fail "search ft-2000: $(json_get "$T/stdout" '[r["id"] for r in d]')"
expect_exit 0 "$UBTUNE" reference show 'seed-ft2000plus64-tuning.txt#1'
grep -q "core type *FTC662" "$T/stdout" || fail "show: $(cat "$T/stdout")"
grep -q "cause *run from /home on xfs" "$T/stdout" || fail "show has no cause: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" reference cores --json
json_get "$T/stdout" '[c for c in d if c["core_type"] == "FTC662"][0]["runs"] >= 1' | grep -qx True || fail "cores: no FTC662 run"
expect_exit 2 "$UBTUNE" reference show
"$UBTUNE" __complete --operands reference | grep -qx cores || fail "completion does not offer reference's verbs"
expect_exit 2 "$UBTUNE" reference frobnicate
expect_exit 0 "$UBTUNE" reference expect "${FROZEN[@]}" "$SRCDIR/tests/fixtures/results/rpi4-undervoltage.json" --json
json_get "$T/stdout" 'd["runs"][0]["expected"]["basis"]["core_type"], len(d["behind"]) > 0' |
	grep -qx "('Cortex-A72', True)" || fail "expect: $(head -c 600 "$T/stdout")"
expect_exit 0 "$UBTUNE" reference expect "${FROZEN[@]}" "$SRCDIR/tests/fixtures/results/rpi4-undervoltage.json"
grep -q "^Score 356.9 is [0-9]* % of the" "$T/stdout" || fail "expect: $(head -5 "$T/stdout")"
grep -q "The published runs behind it" "$T/stdout" || fail "expect: no runs behind it"

# ---- compare and fleet: an "of expected" column ----
LOG=$SRCDIR/tests/fixtures/unixbench-logs/v6-full/vm-2026-11-29-01
RPI=$SRCDIR/tests/fixtures/results/rpi4-undervoltage.json
expect_exit 0 "$UBTUNE" compare --expected --json "$LOG" "$RPI"
json_get "$T/stdout" '[(r["label"], r["copies"], r["expected"] is not None) for r in d["expected"]]' |
	grep -qx "\[('A', 1, True), ('B', 1, True), ('B', 4, True)\]" || fail "compare --expected: $(json_get "$T/stdout" 'd["expected"]')"
expect_exit 0 "$UBTUNE" compare --expected "$LOG" "$RPI"
grep -q "Against what published runs of each CPU reach" "$T/stdout" || fail "compare --expected: no table"
expect_exit 0 "$UBTUNE" compare "$LOG" "$RPI" --json
json_get "$T/stdout" '"expected" in d' | grep -qx False || fail "compare without --expected has expected"
expect_exit 0 "$UBTUNE" fleet --expected --json "$LOG" "$RPI"
json_get "$T/stdout" 'sorted({r["label"] for r in d["expected"]})' | grep -qx "\['raspberrypi', 'vm'\]" ||
	fail "fleet --expected: $(json_get "$T/stdout" 'd["expected"]')"
pass
