#!/bin/bash
# bench --unixbench on a real byte-unixbench tree (UNIXBENCH_DIR: 5.1.2, 5.1.3
# or 6.x, built or not): two short tests through both engines, the profile's
# flags reaching the build, the tree left as it was. About a minute.
. "$(dirname "$0")/lib.sh"

[ -n "${UNIXBENCH_DIR:-}" ] ||
	skip "UNIXBENCH_DIR is not set: point it at a byte-unixbench tree to run its programs and its Run"
[ -e "$UNIXBENCH_DIR/Run" ] || [ -e "$UNIXBENCH_DIR/UnixBench/Run" ] ||
	skip "UNIXBENCH_DIR=$UNIXBENCH_DIR holds no Run script (nor UnixBench/Run)"
command -v make >/dev/null && command -v cc >/dev/null || skip "make and a C compiler are needed to build the tree"
mkdir -p "$T/state" "$T/run"
cd "$T/run" || fail "no run directory"

# every file of the tree with its size and time, to see that nothing changes
snapshot() { find -L "$UNIXBENCH_DIR" -printf '%P %s %T@\n' 2>/dev/null | sort; }
snapshot >"$T/before"

# the programs under ubtune's harness, with the profile's flags
printf '{"profiles": ["test"], "build": {"cflags": "-O1 -fno-inline"}}\n' >"$T/state/applied.json"
expect_exit 0 "$UBTUNE" bench --unixbench "$UNIXBENCH_DIR" --quick --tests pipe,syscall --copies 1 --force \
	--no-store --json
cp "$T/stdout" "$T/programs.json"
$PY - "$T/programs.json" <<'PY' || fail "the programs engine's record is wrong: $(tail -3 "$T/stderr")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["engine"]["kind"] == "programs", r["engine"]
assert r["engine"]["layout"] in ("5.1.2", "5.1.3", "6.x")
assert r["suite"]["name"] == "unixbench" and r["suite"]["version"][0] in "56"
b = r["build"]
assert b["cflags"] == "-O1 -fno-inline" and b["flags_source"] == "profile", b
var = b["flags_var"]
assert var == ("UB_GCC_OPTIONS" if r["engine"]["layout"] == "6.x" else "OPTON")
assert var + "=-O1 -fno-inline" in b["make"], b["make"]
assert any("-O1 -fno-inline" in c and "dhry" in c for c in b["commands"]), b["commands"]
assert r["engine"]["path"].startswith(b["dir"])
[run] = r["runs"]
assert [t["id"] for t in run["tests"]] == ["pipe", "syscall"]
assert all(t["result"] > 0 and len(t["passes"]) == 3 for t in run["tests"])
PY

# its own Run, one pass of each (Run's durations cannot be shortened: ~30 s)
rm "$T/state/applied.json"
expect_exit 0 "$UBTUNE" bench --unixbench "$UNIXBENCH_DIR" --engine run --iterations 1 --tests pipe,syscall \
	--copies 1 --force --json
cp "$T/stdout" "$T/run.json"
grep -q 'Pipe Throughput, 1 copy, pass 1/1' "$T/stderr" || fail "Run's progress was not followed: $(cat "$T/stderr")"
grep -q 'result 1 stored' "$T/stderr" || fail "the result was not stored: $(tail -3 "$T/stderr")"
$PY - "$T/run.json" <<'PY' || fail "the Run engine's record is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["engine"]["kind"] == "run" and r["engine"]["path"].endswith("/Run")
assert r["engine"]["command"][1:] == ["-i", "1", "-c", "1", "pipe", "syscall"], r["engine"]["command"]
assert r["imported"] is False and r["build"]["flags_source"] == "tree" and r["build"]["cflags"]
[run] = r["runs"]
assert run["copies"] == 1 and run["started_at"][-5] in "+-"
tests = {t["id"]: t for t in run["tests"]}
assert set(tests) == {"pipe", "syscall"}
for t in tests.values():
    assert t["result"] > 0 and t["index"] > 0 and len(t["passes"]) == 1, t
assert run["index"]["score"] > 0 and run["index"]["partial"] is True
assert r["unixbench"]["version"] == r["suite"]["version"]
assert len(r["samples"]) > 10 and any(s.get("test") == "syscall" for s in r["samples"])
PY
"$UBTUNE" show last >"$T/show" || fail "show of the Run result failed"
grep -q 'System Benchmarks Partial Index' "$T/show" || fail "the stored Run result does not show: $(head "$T/show")"

# Run before 6.0 runs no system test beyond 16 copies: say so, offer the programs
if $PY -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["engine"]["layout"] == "6.x")' "$T/run.json"; then
	expect_exit 2 "$UBTUNE" bench --unixbench "$UNIXBENCH_DIR" --engine run --tests pipe --copies 17 --force
	grep -q -- '--engine=programs' "$T/stderr" || fail "the 16-copy cap is not explained: $(cat "$T/stderr")"
fi
expect_exit 2 "$UBTUNE" bench --engine run --tests pipe
expect_exit 2 "$UBTUNE" bench --unixbench "$UNIXBENCH_DIR" --engine script

snapshot >"$T/after"
diff "$T/before" "$T/after" >"$T/diff" || fail "the tree was changed: $(head "$T/diff")"
[ -z "$(ls -A "$T/run")" ] || fail "files were left in the working directory: $(ls -A "$T/run")"
pass
