#!/bin/bash
# The command table: help, --help, --version, usage errors and exit codes.
. "$(dirname "$0")/lib.sh"

out=$("$UBTUNE" --version) || fail "--version failed"
[[ $out =~ ^ubtune\ [0-9]+\.[0-9]+ ]] || fail "--version printed '$out'"
# the second line lists the optional libraries built in
[[ $(sed -n 2p <<<"$out") =~ ^[+-]systemd\ [+-]udev\ [+-]hwloc\ [+-]sqlite\ [+-]archive$ ]] ||
	fail "--version does not list the libraries: '$out'"

"$UBTUNE" help >"$T/help" || fail "help failed"
for c in $("$UBTUNE" __complete); do
	grep -q "^  $c " "$T/help" || fail "help does not list $c"
	"$UBTUNE" "$c" --help >"$T/h1" || fail "$c --help failed"
	"$UBTUNE" help "$c" >"$T/h2" || fail "help $c failed"
	cmp -s "$T/h1" "$T/h2" || fail "help $c and $c --help differ"
	grep -q "^Usage: ubtune $c" "$T/h1" || fail "$c --help has no usage line"
	grep -q "^\.SS $c\b\|^\.B ubtune $c\|^\\\\fBubtune $c" "$SRCDIR/man/ubtune.1" || fail "man page does not document $c"
done

expect_exit 2 "$UBTUNE"
expect_exit 2 "$UBTUNE" nosuchcommand
expect_exit 2 "$UBTUNE" probe --nosuchoption
expect_exit 2 "$UBTUNE" probe extra-argument
expect_exit 2 "$UBTUNE" --color=sometimes help
grep -q "unknown option '--nosuchoption'" "$T/stderr" || true
"$UBTUNE" probe --nosuchoption 2>"$T/err" && fail "bad option accepted"
grep -q "Try 'ubtune probe --help'" "$T/err" || fail "usage error gives no hint: $(cat "$T/err")"

# README's test command is what CI runs
grep -qF "$(grep -v '^#' "$SRCDIR/.ci/run" | grep 'make check')" "$SRCDIR/README.md" ||
	fail ".ci/run does not run the README's test command"
pass
