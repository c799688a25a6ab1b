#!/bin/bash
# The workloads (build/ubtune-workloads) at tiny durations: each speaks
# UnixBench's result protocol, counts work, checks its own work, fails
# loudly when the work is damaged, and leaves no files behind.
. "$(dirname "$0")/lib.sh"

W=$(dirname "$UBTUNE")/ubtune-workloads
SCRIPTS=$SRCDIR/bench/workloads
[ -x "$W" ] || fail "$W was not built"
export UBTUNE_WORKLOADS_QUICK=1
unset UBTUNE_WORKLOADS_CORRUPT

# run NAME ARGS...: must succeed; every stderr line must be a result line;
# sets COUNT, TIMEBASE, UNIT from the last COUNT line and TIME from the last
# TIME line (empty if none).
run() {
	"$W" "$@" >"$T/out" 2>"$T/err" || fail "'$*' failed: $(head -c 600 "$T/err")"
	grep -v '|' "$T/err" && fail "'$*' wrote a non-result line on stderr"
	local line
	line=$(grep '^COUNT|' "$T/err" | tail -n 1)
	[[ $line =~ ^COUNT\|([0-9]+(\.[0-9]+)?)\|([0-9]+)\|([A-Za-z]+)$ ]] ||
		fail "'$*': no well-formed COUNT line in: $(cat "$T/err")"
	COUNT=${BASH_REMATCH[1]} TIMEBASE=${BASH_REMATCH[3]} UNIT=${BASH_REMATCH[4]}
	TIME=$(grep '^TIME|' "$T/err" | tail -n 1 | cut -d'|' -f2)
	awk -v c="$COUNT" 'BEGIN { exit !(c > 0) }' || fail "'$*' counted $COUNT"
}

# expect_result NAME TIMEBASE UNIT ARGS...
expect_result() {
	local timebase=$1 unit=$2
	shift 2
	run "$@"
	[ "$TIMEBASE|$UNIT" = "$timebase|$unit" ] ||
		fail "'$*' reported timebase $TIMEBASE unit $UNIT, expected $timebase $unit"
}

# damaged WORDS ARGS...: with UBTUNE_WORKLOADS_CORRUPT=1 the workload must
# exit 1 with a one-line message that contains WORDS and no result.
damaged() {
	local words=$1
	shift
	UBTUNE_WORKLOADS_CORRUPT=1 "$W" "$@" >"$T/out" 2>"$T/err"
	local rc=$?
	[ $rc -eq 1 ] || fail "damaged '$*' exited $rc, expected 1: $(cat "$T/err")"
	grep -q "^ubtune-workloads .*$words" "$T/err" || fail "damaged '$*' said: $(cat "$T/err")"
	[ "$(grep -vc '|' "$T/err")" -eq 1 ] || fail "damaged '$*' did not say it in one line: $(cat "$T/err")"
	if grep '|' "$T/err" | grep -qv '^COUNT|\|^TIME|'; then
		fail "damaged '$*' wrote a '|' in its message"
	fi
}

# --- CPU ---
expect_result 1 lps dhry2reg 0.3
damaged 'wrong result: Str_2_Loc' dhry2reg 0.1

expect_result 0 MWIPS whetstone-double -t 0.2
[ -n "$TIME" ] || fail "whetstone printed no TIME line"
for s in N1 N2 N3 N4 N5 N6 N7 N8; do
	grep -q "^$s " "$T/out" || fail "whetstone's table has no $s line"
done
grep -q '^N4 fixed point  *12\.0*  ' "$T/out" || fail "N4 did not give 12: $(grep ^N4 "$T/out")"
damaged 'N2 floating point gave .* the published result is' whetstone-double -t 0.1
# Whetstone is ubtune-whetstone beside the multi-call program, the only one
# that links libm (as in UnixBench), so that the forks of Process Creation
# and Shell Scripts copy no libm mappings; without it, a clear error
if command -v readelf >/dev/null; then
	readelf -d "$W" | grep -q 'NEEDED.*libm\.' && fail "ubtune-workloads links libm"
fi
mkdir "$T/alone" && cp "$W" "$T/alone/"
"$T/alone/ubtune-workloads" whetstone-double -t 0.1 >/dev/null 2>"$T/err" && fail "whetstone-double ran without ubtune-whetstone"
grep -q "^ubtune-workloads whetstone-double: cannot run $T/alone/ubtune-whetstone: " "$T/err" ||
	fail "no clear error without ubtune-whetstone: $(cat "$T/err")"
# Process Creation is ubtune-spawn beside it, a program as small as
# UnixBench's spawn
"$T/alone/ubtune-workloads" spawn 0.1 >/dev/null 2>"$T/err" && fail "spawn ran without ubtune-spawn"
grep -q "^ubtune-workloads spawn: cannot run $T/alone/ubtune-spawn: " "$T/err" ||
	fail "no clear error without ubtune-spawn: $(cat "$T/err")"

# --- processes and pipes ---
expect_result 1 lps execl 0.3
[ "$COUNT" -ge 2 ] || fail "execl ran only $COUNT image"
# an image handed a damaged state says so
"$(dirname "$W")/ubtune-execl" 0 1 12x 0 $$ 2>"$T/err" && fail "ubtune-execl took a bad count"
grep -q "^ubtune-workloads execl: re-executed image got a bad count '12x'" "$T/err" ||
	fail "no clear error for a bad count: $(cat "$T/err")"
expect_result 1 lps pipe 0.2
damaged 'came out of the pipe changed' pipe 0.1
expect_result 1 lps context1 0.2
damaged 'sync error, expected 10, received 11' context1 0.2
expect_result 1 lps spawn 0.2
for mode in "" mix close getpid exec; do
	expect_result 1 lps syscall 0.2 $mode
done

# --- looper: counts the runs completed before the timer; the run in
# progress then finishes but does not count ---
cat >"$T/mark.sh" <<'EOF'
#!/bin/sh
echo run >>"$1"
EOF
chmod +x "$T/mark.sh"
expect_result 60 lpm looper 0.3 "$T/mark.sh" "$T/runs"
[ "$(wc -l <"$T/runs")" -eq $((COUNT + 1)) ] ||
	fail "looper counted $COUNT runs, the command ran $(wc -l <"$T/runs") times"
expect_exit 1 "$W" looper 0.2 /bin/false
grep -q '^ubtune-workloads looper: /bin/false exited with status 1 after 0 runs$' "$T/stderr" ||
	fail "failing command not reported: $(cat "$T/stderr")"
expect_exit 1 "$W" looper 0.2 "$T/no-such-command"
grep -q "cannot run $T/no-such-command" "$T/stderr" || fail "missing command not reported: $(cat "$T/stderr")"

# --- File Copy: three phases, last COUNT/TIME pair is the copy's; the
# files are checked and removed ---
mkdir "$T/fs"
for cfg in "1024 2000" "256 500" "4096 8000"; do
	set -- $cfg
	expect_result 0 KBps fstime -c -t 0.3 -d "$T/fs" -b "$1" -m "$2"
	[ "$(grep -c '^COUNT|' "$T/err")" -eq 3 ] || fail "fstime -c did not report three phases"
	grep -q '^Copy done: ' "$T/out" || fail "fstime -c printed no copy result"
	awk -v t="$TIME" 'BEGIN { exit !(t >= 0.3 && t < 2) }' || fail "fstime copy TIME is '$TIME' for 0.3 s"
	[ -z "$(ls -A "$T/fs")" ] || fail "fstime left files: $(ls -A "$T/fs")"
done
expect_result 0 KBps fstime -w -t 0.2 -d "$T/fs" -b 1024 -m 100
expect_result 0 KBps fstime -r -t 0.2 -d "$T/fs" -b 1024 -m 100
damaged 'dummy1-[0-9]*: block [0-9]* .* does not hold what was written' \
	fstime -c -t 0.2 -d "$T/fs" -b 1024 -m 2000
[ -z "$(ls -A "$T/fs")" ] || fail "damaged fstime left files: $(ls -A "$T/fs")"
expect_exit 1 "$W" fstime -c -t 0.2 -d "$T/no-such-dir" -b 1024 -m 2000
grep -q "directory $T/no-such-dir" "$T/stderr" || fail "bad -d not named: $(cat "$T/stderr")"

# killed in the middle (SIGTERM, and SIGINT made deliverable again): no files
for sig in TERM INT; do
	$PY -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
		"$W" fstime -c -t 20 -d "$T/fs" -b 1024 -m 2000 >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		[ "$(ls "$T/fs" | wc -l)" -eq 2 ] && break
		sleep 0.05
	done
	[ "$(ls "$T/fs" | wc -l)" -eq 2 ] || fail "fstime did not create its two files"
	kill -s $sig $pid
	wait $pid
	rc=$?
	[ $rc -gt 128 ] || fail "fstime ended with $rc after SIG$sig"
	[ -z "$(ls -A "$T/fs")" ] || fail "SIG$sig left files: $(ls -A "$T/fs")"
done

# --- Shell Scripts: the input, then multi.sh under looper ---
"$W" shell-input "$T/a.src" && "$W" shell-input >"$T/b.src" || fail "shell-input failed"
cmp -s "$T/a.src" "$T/b.src" || fail "shell-input is not deterministic"
[ "$(wc -c <"$T/a.src")" -eq 8546 ] || fail "input has $(wc -c <"$T/a.src") bytes"
[ "$(wc -l <"$T/a.src")" -eq 362 ] || fail "input has $(wc -l <"$T/a.src") lines"
[ "$(grep -c the "$T/a.src")" -eq 35 ] || fail "input has $(grep -c the "$T/a.src") lines with 'the'"
mkdir "$T/testdir"
cp "$T/a.src" "$T/testdir/sort.src"
cd "$T/testdir" || fail "no testdir"
# long enough for one run of three concurrent scripts on a loaded machine
expect_result 60 lpm looper 1.5 "$SCRIPTS/multi.sh" 1
expect_result 60 lpm looper 1.5 "$SCRIPTS/multi.sh" 3
[ "$(ls -A)" = sort.src ] || fail "the scripts left files: $(ls -A)"
echo "the end" >>sort.src
expect_exit 1 "$W" looper 0.3 "$SCRIPTS/multi.sh" 2
grep -q 'found 36 lines containing "the" in sort.src, expected 35' "$T/stderr" ||
	fail "wrong grep count not reported: $(cat "$T/stderr")"
grep -q 'multi.sh exited with status 1' "$T/stderr" || fail "looper did not fail: $(cat "$T/stderr")"
cd "$T" || fail "no $T"

# --- usage errors name the value ---
expect_exit 2 "$W"
expect_exit 2 "$W" no-such-workload
grep -q "unknown workload 'no-such-workload'" "$T/stderr" || fail "unknown workload not named"
expect_exit 2 "$W" pipe abc
grep -q "invalid duration 'abc'" "$T/stderr" || fail "bad duration not named: $(cat "$T/stderr")"
expect_exit 2 "$W" spawn 0
expect_exit 2 "$W" fstime -c -t 1 -b 100 -d "$T"
grep -q "invalid buffer size '100'" "$T/stderr" || fail "bad buffer size not named: $(cat "$T/stderr")"
expect_exit 2 "$W" syscall 1 nosuchmode
grep -q "unknown test 'nosuchmode'" "$T/stderr" || fail "bad syscall mode not named"
pass
