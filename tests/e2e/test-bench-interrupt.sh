#!/bin/bash
# Ctrl-C in the middle of a run: every copy and everything it started is
# gone, the temporary working directory too, and the tests that finished
# are stored, marked incomplete. SIGTERM before any test finished: the same
# cleanup, and nothing stored.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench-lib.sh"

mkdir -p "$T/cwd" && cd "$T/cwd" || fail "no directory"
# --iterations 5: two passes of the shell test (about 8 s), so that a loaded
# machine still interrupts it in the middle
"$UBTUNE" bench --quick --iterations 5 --tests syscall,shell8 --copies 2 --force "${ENGINE[@]}" \
	>"$T/out" 2>"$T/err" &
pid=$!

# wait until the shell test's copies run (its progress line, then its processes)
for _ in $(seq 100); do
	grep -q "Shell Scripts (8 concurrent)" "$T/err" && break
	sleep 0.1
done
grep -q "Shell Scripts (8 concurrent)" "$T/err" || { kill -9 $pid; fail "the shell test never started: $(cat "$T/err")"; }
wait_for_processes $pid 6 "$T/procs"
ls -d "$T"/cwd/ubtune-bench.* >/dev/null 2>&1 || { kill -9 $pid; fail "no temporary working directory"; }
echo "interrupting with $(wc -l <"$T/procs") processes running"
# nothing the run started is left: not the copies, not their shells, not the orphans
stop_and_check $pid INT 130 "$T/procs"
[ -z "$(ls -A "$T/cwd")" ] || fail "left behind in the working directory: $(ls -A "$T/cwd")"

grep -q "stopped by SIGINT" "$T/err" || fail "no message about the interrupt: $(tail -n 3 "$T/err")"
"$UBTUNE" history --json >"$T/h.json" || fail "history failed"
$PY - "$T/h.json" <<'PY' || fail "the incomplete result was not stored: $(cat "$T/h.json")"
import json, sys
h = json.load(open(sys.argv[1]))
assert len(h) == 1 and "incomplete" in h[0]["flags"], h
PY
"$UBTUNE" show last --json >"$T/r.json" || fail "show failed"
$PY - "$T/r.json" <<'PY' || fail "the stored result is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["incomplete"] is True and r["interrupted_by"] == "SIGINT"
t = {t["id"]: t for t in r["runs"][0]["tests"]}
assert t["syscall"]["complete"] and t["syscall"]["result"] > 0
assert not t["shell8"]["complete"] and t["shell8"]["result"] is None
PY

# SIGTERM during the first test (ten passes: it is still running when a
# loaded machine has found its copies)
"$UBTUNE" bench --quick --iterations 10 --tests syscall --copies 2 --force "${ENGINE[@]}" >"$T/out2" 2>"$T/err2" &
pid=$!
wait_for_processes $pid 2 "$T/procs2"
stop_and_check $pid TERM 143 "$T/procs2"
[ -z "$(ls -A "$T/cwd")" ] || fail "left behind in the working directory: $(ls -A "$T/cwd")"
grep -q "stopped by SIGTERM before any test finished; nothing is stored" "$T/err2" ||
	fail "SIGTERM message: $(tail -n 3 "$T/err2")"
[ "$("$UBTUNE" history --json | $PY -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1 ] ||
	fail "a result was stored for a run with no finished test"

# SIGTERM while the workloads compile (a profile's compiler flags): a
# message, make and its compilers gone, and no half-built cache directory
if [ ${#ENGINE[@]} = 0 ]; then
	mkdir -p "$T/profiled"
	printf '{"profiles": ["flags"], "build": {"cc": "gcc", "cflags": "-O2 -fno-inline"}}\n' >"$T/profiled/applied.json"
	UBTUNE_STATE_DIR=$T/profiled UBTUNE_CACHE_DIR=$T/compile-cache "$UBTUNE" bench --quick --tests syscall \
		--copies 1 --force --no-store >"$T/out3" 2>"$T/err3" &
	pid=$!
	for _ in $(seq 100); do
		[ -n "$(ls -A "$T/compile-cache/workloads" 2>/dev/null)" ] && break
		sleep 0.1
	done
	[ -n "$(ls -A "$T/compile-cache/workloads" 2>/dev/null)" ] || { kill -9 $pid; fail "the compile did not start"; }
	wait_for_processes $pid 1 "$T/procs3"
	stop_and_check $pid TERM 143 "$T/procs3"
	grep -q "stopped by SIGTERM while compiling the workloads; the half-built .* is removed, nothing is cached" \
		"$T/err3" || fail "no message about the compile: $(tail -n 3 "$T/err3")"
	[ -z "$(ls -A "$T/compile-cache/workloads")" ] || fail "half-built: $(ls "$T/compile-cache/workloads")"
fi
pass
