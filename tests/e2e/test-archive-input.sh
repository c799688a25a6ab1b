#!/bin/bash
# An archive of a dump on standard input (--root -) reads as the file does,
# for probe and gather; a termination signal while an archive is unpacked
# (here: a pipe that stops half-way, so the unpacking waits) ends ubtune
# by that signal at once, with its directory removed. The limits of
# archives (depth, entries, devices only) are rows of test-hostile.sh.
. "$(dirname "$0")/lib.sh"
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
ROOT=$FIXTURES/rpi4-undervoltage

if ! built_with archive; then
	"$UBTUNE" probe --root - <"$ROOT/README.md" >"$T/out" 2>"$T/err" && fail "probe --root - without libarchive"
	grep -q "standard input: reading an archive needs libarchive" "$T/err" || fail "without libarchive: $(cat "$T/err")"
	pass
fi

expect_exit 0 "$UBTUNE" gather --root "$ROOT" -o "$T/dump.tar.gz"
expect_exit 0 "$UBTUNE" probe --root "$T/dump.tar.gz"
grep -v '^Dump ' "$T/stdout" >"$T/from-file"
"$UBTUNE" probe --root - <"$T/dump.tar.gz" >"$T/out" 2>"$T/err" || fail "probe --root - failed: $(cat "$T/err")"
grep -q '^Dump      standard input$' "$T/out" || fail "the dump is not named: $(head -3 "$T/out")"
grep -v '^Dump ' "$T/out" | diff -u "$T/from-file" - >"$T/diff" || fail "--root - reads otherwise: $(head -20 "$T/diff")"
"$UBTUNE" probe --json --root - <"$T/dump.tar.gz" >"$T/out" || fail "probe --json --root - failed"
[ "$(json_get "$T/out" 'd["root"]')" = "standard input" ] || fail "the record's root: $(json_get "$T/out" 'd["root"]')"
"$UBTUNE" gather --root - -o "$T/again.tar.gz" <"$T/dump.tar.gz" 2>"$T/err" || fail "gather --root - failed: $(cat "$T/err")"
[ "$(tar -tzf "$T/again.tar.gz" | sort)" = "$(tar -tzf "$T/dump.tar.gz" | sort)" ] || fail "gather --root - gathered otherwise"
"$UBTUNE" probe --root - </dev/null >"$T/out" 2>"$T/err" && fail "an empty standard input was read as a dump"
grep -q "^ubtune: standard input: " "$T/err" || fail "empty input: $(cat "$T/err")"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls "$TMPDIR")"

# interrupted SIG: the archive's first part, then a pipe that stays open
interrupted() {
	local sig=$1 want=$2 pid feeder i rc
	rm -f "$T/fifo"
	mkfifo "$T/fifo"
	(exec 3>"$T/fifo"; head -c 6000 "$T/dump.tar.gz" >&3; sleep 60) &
	feeder=$!
	# the signal as a terminal would deliver it (a script's background job ignores SIGINT)
	$PY -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$UBTUNE" probe --root - <"$T/fifo" >/dev/null 2>"$T/err" &
	pid=$!
	for i in $(seq 100); do
		[ -n "$(ls -A "$TMPDIR")" ] && break
		sleep 0.1
	done
	[ -n "$(ls -A "$TMPDIR")" ] || fail "the unpacking did not start"
	kill -"$sig" "$pid"
	# it ends at once, not when the pipe closes a minute later
	for i in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && fail "SIG$sig was held while the archive was unpacked"
	wait "$pid"
	rc=$?
	kill "$feeder" 2>/dev/null
	wait "$feeder" 2>/dev/null
	[ "$rc" = "$want" ] || fail "SIG$sig: exited $rc, expected $want: $(cat "$T/err")"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "SIG$sig left $(ls "$TMPDIR") in TMPDIR"
}
interrupted TERM 143
interrupted INT 130
pass
