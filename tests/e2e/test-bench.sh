#!/bin/bash
# A whole quick bench run end to end: the result record, the report, the
# store (history, show, export, import), usage errors and the
# busy-machine check.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench-lib.sh"

mkdir -p "$T/run" && cd "$T/run" || fail "no run directory"
# the DMA latency request goes to a stand-in for /dev/cpu_dma_latency
: >"$T/qos"
UBTUNE_DMA_LATENCY_DEV="$T/qos" expect_exit 0 "$UBTUNE" bench --quick --tests pipe,syscall,spawn --copies 1,2 --force \
	--json --dma-latency 0 --pin-single fastest "${ENGINE[@]}"
cp "$T/stdout" "$T/result.json"
grep -q "holding the CPU DMA latency at 0 µs ($T/qos)" "$T/stderr" || fail "the latency hold is not said: $(cat "$T/stderr")"
[ "$(od -An -tx1 "$T/qos" | tr -d ' ')" = 00000000 ] || fail "the latency request is not a 32-bit 0"
grep -q "result 1 stored" "$T/stderr" || fail "the run was not stored: $(tail -n 3 "$T/stderr")"
[ -z "$(ls -A "$T/run")" ] || fail "the temporary working directory was left behind: $(ls -A "$T/run")"

$PY - "$T/result.json" <<'PY' || fail "the result record is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "ubtune.result/1", r["schema"]
assert r["quick"] is True and r["incomplete"] is False and r["imported"] is False
assert [run["copies"] for run in r["runs"]] == [1, 2]
for run in r["runs"]:
    ids = [t["id"] for t in run["tests"]]
    assert ids == ["pipe", "syscall", "spawn"], ids
    for t in run["tests"]:
        assert t["complete"] and t["error"] is None, t["error"]
        assert len(t["passes"]) == {"pipe": 3, "syscall": 3, "spawn": 1}[t["id"]]
        for p in t["passes"]:
            assert len(p["copies"]) == run["copies"]
            assert p["count"] == sum(c["count"] for c in p["copies"])
            assert abs(p["time_s"] - sum(c["elapsed_s"] for c in p["copies"]) / run["copies"]) < 1e-6
            assert abs(p["rate"] - p["count"] / p["time_s"]) < 1e-6 * p["rate"]
        assert t["result"] > 0 and abs(t["index"] - 10 * t["result"] / t["baseline"]) < 1e-6 * t["index"]
        assert sum(not p["dropped"] for p in t["passes"]) == t["samples"]
    idx = run["index"]
    assert idx["partial"] is True and idx["tests_indexed"] == 3
    lo, hi = idx["ci95"]
    assert lo <= idx["score"] <= hi
assert r["environment"]["before"]["schema"] == "ubtune.probe/1"
assert r["environment"]["after"]["schema"] == "ubtune.probe/1"
assert r["sampler"]["count"] >= 1 and len(r["samples"]) == r["sampler"]["count"]
assert isinstance(r["events"], list)
assert r["options"]["dma_latency"] == {"requested_us": 0, "device": r["options"]["dma_latency"]["device"],
                                       "held": True, "error": None}, r["options"]["dma_latency"]
pin = r["options"]["pin_single"]
assert pin["requested"] == "fastest" and (pin["cpus"] is None) == (pin["note"] is not None), pin
assert r["kernel_log"]["source"].endswith("/kmsg") and r["kernel_log"]["read"] is True, r["kernel_log"]
assert r["kernel_log"]["marker"] is None or r["kernel_log"]["marker"].startswith("ubtune: bench run ")
assert not [e for e in r["events"] if e["kind"].startswith("kernel-")], r["events"]
assert r["options"]["nproc"] is None or r["options"]["nproc"]["needed"] >= 2
assert r["preflight"]["seconds"] > 0
assert r["options"]["tests"] == ["pipe", "syscall", "spawn"]
PY

# prebuilt workloads: the result records how they were compiled, as they say themselves
if [ ${#ENGINE[@]} -eq 0 ]; then
	"$(dirname "$UBTUNE")/ubtune-workloads" build-info >"$T/build-info" || fail "ubtune-workloads build-info failed"
	$PY - "$T/result.json" "$T/build-info" <<'PY' || fail "the prebuilt workloads' build is not recorded"
import json, sys
r = json.load(open(sys.argv[1]))
info = dict(line.split("=", 1) for line in open(sys.argv[2]).read().splitlines())
assert info["cflags"].startswith("-O3 -ffast-math") and info["cc_version"], info
assert r["engine"]["prebuilt"] is True, r["engine"]
assert r["build"] == {"cc_version": info["cc_version"], "cflags": info["cflags"], "prebuilt": True}, r["build"]
assert info["cflags"] in r["engine"]["description"], r["engine"]["description"]
PY
fi

# the store
"$UBTUNE" history --json >"$T/history.json" || fail "history --json failed"
run_id=$(json_get "$T/result.json" 'd["run_id"]')
[ "$(json_get "$T/history.json" 'd[0]["run_id"]')" = "$run_id" ] || fail "history does not list the run"
"$UBTUNE" history >"$T/history" || fail "history failed"
grep -q '^ *1 .*native\|^ *1 .*unixbench' "$T/history" || fail "history text: $(cat "$T/history")"
grep -q 'quick' "$T/history" || fail "history does not flag the quick run"
"$UBTUNE" show last >"$T/show" || fail "show last failed"
for line in "System Benchmarks Partial Index" "Pipe Throughput" "System Call Overhead" \
	"Process Creation" "running 2 parallel copies of tests" "QUICK RUN" "95 % interval"; do
	grep -q "$line" "$T/show" || fail "show lacks '$line'"
done
"$UBTUNE" show 1 --json >"$T/shown.json" || fail "show --json failed"
"$UBTUNE" export 1 -o "$T/exported.json" || fail "export failed"
cmp -s "$T/shown.json" "$T/exported.json" || fail "export and show --json differ"

UBTUNE_STATE_DIR="$T/state2" "$UBTUNE" import "$T/exported.json" >"$T/imp" || fail "import failed"
grep -q "stored as result 1" "$T/imp" || fail "import said: $(cat "$T/imp")"
UBTUNE_STATE_DIR="$T/state2" "$UBTUNE" export last >"$T/again.json" || fail "export from the second store failed"
cmp -s "$T/exported.json" "$T/again.json" || fail "the imported record differs from the exported one"
expect_exit 0 "$UBTUNE" import "$T/exported.json"
grep -q "already stored as result 1" "$T/stdout" || fail "a second import stored the run again: $(cat "$T/stdout")"

# usage and input errors: one line naming the value
expect_exit 2 "$UBTUNE" bench --tests pipe,nosuch "${ENGINE[@]}"
grep -q "unknown test 'nosuch'" "$T/stderr" || fail "bad --tests: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" bench --copies 0 "${ENGINE[@]}"
expect_exit 2 "$UBTUNE" bench --iterations many
expect_exit 2 "$UBTUNE" bench --pin-single slowest
grep -q "pin-single takes fastest or off, not 'slowest'" "$T/stderr" || fail "bad --pin-single: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" bench --dma-latency -1
grep -q "dma-latency takes microseconds" "$T/stderr" || fail "bad --dma-latency: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" show
expect_exit 1 "$UBTUNE" show 99
grep -q "no result '99'" "$T/stderr" || fail "show 99: $(cat "$T/stderr")"
echo '{"schema": "other"}' >"$T/bad.json"
expect_exit 2 "$UBTUNE" import "$T/bad.json"
grep -q "$T/bad.json: not a ubtune result" "$T/stderr" || fail "bad import: $(cat "$T/stderr")"
expect_exit 1 "$UBTUNE" bench --unixbench "$T/run"
grep -q "is not a UnixBench tree" "$T/stderr" || fail "bad tree: $(cat "$T/stderr")"
mkdir -p "$T/state3" && echo '{"bench": {"quick": "yes"}}' >"$T/state3/applied.json"
UBTUNE_STATE_DIR="$T/state3" expect_exit 1 "$UBTUNE" bench "${ENGINE[@]}"
grep -q "applied.json: bench.quick is not true or false" "$T/stderr" || fail "bad applied.json: $(cat "$T/stderr")"

# an applied profile gives the defaults: tests, copies, quick and the workdir
mkdir -p "$T/state4" "$T/profile-wd"
cat >"$T/state4/applied.json" <<JSON
{"profiles": ["generic"], "bench": {"copies": "1", "tests": ["syscall"], "quick": true},
 "workdir": {"path": "$T/profile-wd", "type": "dir"}}
JSON
UBTUNE_STATE_DIR="$T/state4" expect_exit 0 "$UBTUNE" bench --iterations 1 --force --json "${ENGINE[@]}"
$PY - "$T/stdout" "$T/profile-wd" <<'PY' || fail "the profile's defaults were not used"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["quick"] is True and r["options"]["tests"] == ["syscall"] and r["options"]["copies"] == [1]
assert r["options"]["workdir"] == sys.argv[2] and "applied.json" in r["options"]["workdir_source"]
assert r["profile"]["profiles"] == ["generic"]
PY
[ -d "$T/profile-wd" ] && [ -z "$(ls -A "$T/profile-wd")" ] || fail "the profile's workdir was removed or left dirty"
UBTUNE_STATE_DIR="$T/state4" "$UBTUNE" history | grep -q "profile:generic" || fail "history does not show the profile"

# a busy machine is refused, naming the busy process
yes >/dev/null &
y1=$!
yes >/dev/null &
y2=$!
expect_exit 1 "$UBTUNE" bench --quick --tests syscall --copies 1 "${ENGINE[@]}"
kill $y1 $y2
wait $y1 $y2 2>/dev/null
# the busiest processes are named (on a machine busy with more than this
# test, the two yes may not be among the first five)
grep -Eq "the machine is busy: .*busiest processes seen: [^ ]+ \(pid [0-9]+\) [0-9]+ %" "$T/stderr" ||
	fail "busy machine: $(cat "$T/stderr")"
pass
