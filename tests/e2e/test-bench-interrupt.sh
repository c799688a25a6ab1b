#!/bin/bash
# Ctrl-C in the middle of a run: every copy and everything it started is
# gone, the temporary working directory too, and the tests that finished
# are stored, marked incomplete. SIGTERM before any test finished: the same
# cleanup, and nothing stored.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench-lib.sh"

mkdir -p "$T/cwd" && cd "$T/cwd" || fail "no directory"
"$UBTUNE" bench --quick --iterations 1 --tests syscall,shell8 --copies 2 --force "${ENGINE[@]}" \
	>"$T/out" 2>"$T/err" &
pid=$!

# wait until the shell test's copies run (its progress line, then its processes)
for _ in $(seq 100); do
	grep -q "Shell Scripts (8 concurrent)" "$T/err" && break
	sleep 0.1
done
grep -q "Shell Scripts (8 concurrent)" "$T/err" || { kill -9 $pid; fail "the shell test never started: $(cat "$T/err")"; }
for _ in $(seq 50); do
	descendants $pid >"$T/procs"
	[ "$(wc -l <"$T/procs")" -ge 6 ] && break
	sleep 0.1
done
[ "$(wc -l <"$T/procs")" -ge 6 ] || { kill -9 $pid; fail "the copies did not start: $(cat "$T/procs")"; }
ls -d "$T"/cwd/ubtune-bench.* >/dev/null 2>&1 || { kill -9 $pid; fail "no temporary working directory"; }

echo "interrupting with $(wc -l <"$T/procs") processes running: $(awk "{print \$1}" "$T/procs" | while read p; do cat /proc/$p/comm 2>/dev/null; done | sort | uniq -c | tr -s " \n" " ")"
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "exit status $rc after SIGINT, expected 130: $(tail -n 3 "$T/err")"

# nothing the run started is left: not the copies, not their shells, not the orphans
while read -r p g s; do
	still_alive "$p" "$g" "$s" && fail "process $p ($(cat /proc/$p/comm 2>/dev/null)) outlived the run"
done <"$T/procs"
groups=$(awk '{print $2}' "$T/procs" | sort -u)
for d in /proc/[0-9]*; do
	g=$(awk '{ sub(/.*\) /, ""); print $3 }' "$d/stat" 2>/dev/null) || continue
	for want in $groups; do
		[ "$g" = "$want" ] && fail "process ${d#/proc/} of a copy's group $g is still there"
	done
done
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

# SIGTERM during the first test
"$UBTUNE" bench --quick --tests syscall --copies 2 --force "${ENGINE[@]}" >"$T/out2" 2>"$T/err2" &
pid=$!
for _ in $(seq 50); do
	descendants $pid >"$T/procs2"
	[ "$(wc -l <"$T/procs2")" -ge 2 ] && break
	sleep 0.1
done
[ "$(wc -l <"$T/procs2")" -ge 2 ] || { kill -9 $pid; fail "the copies did not start: $(cat "$T/err2")"; }
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "exit status $rc after SIGTERM, expected 143: $(tail -n 3 "$T/err2")"
while read -r p g s; do
	still_alive "$p" "$g" "$s" && fail "process $p outlived the run"
done <"$T/procs2"
[ -z "$(ls -A "$T/cwd")" ] || fail "left behind in the working directory: $(ls -A "$T/cwd")"
grep -q "stopped by SIGTERM before any test finished; nothing is stored" "$T/err2" ||
	fail "SIGTERM message: $(tail -n 3 "$T/err2")"
[ "$("$UBTUNE" history --json | $PY -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1 ] ||
	fail "a result was stored for a run with no finished test"
pass
