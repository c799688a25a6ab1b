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
	grep -q "^Exit status: 0 success, 1 failure, 2 usage error" "$T/h1" || fail "$c --help has no exit status"
	grep -qF "\`ubtune $c" "$SRCDIR/README.md" || fail "README's commands table has no $c"
	# the man page documents the command and every option of it
	awk -v c="$c" '/^\.SS /{on = ($2 == c)} on' "$SRCDIR/man/ubtune.1" >"$T/man-$c"
	[ -s "$T/man-$c" ] || fail "man page does not document $c"
	for o in $("$UBTUNE" __complete "$c"); do
		[ "$o" = --help ] && continue
		grep -qF -- "$(sed 's/-/\\-/g' <<<"$o")" "$T/man-$c" || fail "man page: $c has no $o"
		grep -qF -- "$o" "$T/h1" || fail "$c --help does not mention $o"
	done
done

# bench's help and the man page list the catalogue's index tests (bench
# names them when --tests has one it does not know)
expect_exit 2 "$UBTUNE" bench --tests nosuch
ids=$(sed -n 's/.*; the tests are: //p' "$T/stderr")
[ "$(wc -w <<<"$ids")" = 12 ] || fail "bench does not name the 12 tests: $(cat "$T/stderr")"
help_ids=$("$UBTUNE" bench --help | sed -n '/^  --tests LIST/,/^  --copies/p' | sed '1d;$d' | tr -s ' \n' ' ')
[ "$help_ids" = " $ids " ] || fail "bench --help lists the tests as '$help_ids', the catalogue as '$ids'"
man_ids=$(sed -n '/^\.BI \\-\\-tests/,/^(default/p' "$SRCDIR/man/ubtune.1" | sed '1d;$d' | tr '\n' ' ' |
	sed 's/.*commas: //; s/\\-/-/g; s/ $//')
[ "$man_ids" = "$ids" ] || fail "the man page lists the tests as '$man_ids', the catalogue as '$ids'"

# bash completion: command names, then the options of the command
comp() {
	PATH="$(dirname "$UBTUNE"):$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ubtune
		echo "${COMPREPLY[*]}"' _ "$SRCDIR/completion/ubtune.bash" "$@"
}
[ "$(comp ubtune dia)" = diagnose ] || fail "completion of 'dia': $(comp ubtune dia)"
[ "$(comp ubtune bench --qu)" = --quick ] || fail "completion of 'bench --qu': $(comp ubtune bench --qu)"

expect_exit 2 "$UBTUNE"
expect_exit 2 "$UBTUNE" nosuchcommand
expect_exit 2 "$UBTUNE" prbe
grep -q "'prbe' is not a command (did you mean 'probe'?)" "$T/stderr" || fail "no suggestion: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" help prbe
grep -q "'prbe' is not a command (did you mean 'probe'?)" "$T/stderr" || fail "help: no suggestion: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" probe extra-argument
expect_exit 2 "$UBTUNE" --color=sometimes help
expect_exit 2 "$UBTUNE" probe --nosuchoption
grep -q "^ubtune probe: unknown option '--nosuchoption'" "$T/stderr" || fail "no option named: $(cat "$T/stderr")"
grep -q "Try 'ubtune probe --help'" "$T/stderr" || fail "usage error gives no hint: $(cat "$T/stderr")"

# output that cannot be written is a failure, also when the report is longer than a buffer
for args in "help" "probe --json --root $FIXTURES/rpi4-undervoltage"; do
	# shellcheck disable=SC2086
	"$UBTUNE" $args >/dev/full 2>"$T/err" && fail "'$args' to a full disk exited 0"
	grep -q "Failed to write .*: No space left on device" "$T/err" || fail "'$args' to a full disk: $(cat "$T/err")"
done

# README's test command is what CI runs
grep -qF "$(grep -v '^#' "$SRCDIR/.ci/run" | grep 'make check')" "$SRCDIR/README.md" ||
	fail ".ci/run does not run the README's test command"
pass
