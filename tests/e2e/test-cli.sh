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
	# its synopsis is the one the option table makes, and each option has its entry
	"$UBTUNE" __man "$c" >"$T/gen-$c" || fail "__man $c failed"
	awk '/^\.(B|BI|BR) \\-/ {exit} {print}' "$T/gen-$c" >"$T/syn-$c"
	head -n "$(wc -l <"$T/syn-$c")" "$T/man-$c" | cmp -s - "$T/syn-$c" ||
		fail "man page: the synopsis of $c is not the option table's: $(diff "$T/syn-$c" <(head -n "$(wc -l <"$T/syn-$c")" "$T/man-$c"))"
	while IFS= read -r line; do
		grep -qxF -- "$line" "$T/man-$c" || fail "man page: $c has no line '$line'"
	done < <(tail -n +"$(($(wc -l <"$T/syn-$c") + 1))" "$T/gen-$c")
	for o in $("$UBTUNE" __complete "$c"); do
		# the global options are documented once, in the SYNOPSIS
		case $o in --help | --color | --width) continue ;; esac
		grep -qF -- "$(sed 's/-/\\-/g' <<<"$o")" "$T/man-$c" || fail "man page: $c has no $o"
		grep -qF -- "$o" "$T/h1" || fail "$c --help does not mention $o"
	done
done

# bench's help and the man page list the catalogue's index tests (bench
# names them when --tests has one it does not know)
expect_exit 2 "$UBTUNE" bench --tests nosuch
ids=$(sed -n 's/.*; the tests are: //p' "$T/stderr")
[ "$(wc -w <<<"$ids")" = 12 ] || fail "bench does not name the 12 tests: $(cat "$T/stderr")"
help_ids=$("$UBTUNE" bench --help --width 1000 | sed -n "s/^  --tests LIST .*'index'): //p")
[ "$help_ids" = "$ids" ] || fail "bench --help lists the tests as '$help_ids', the catalogue as '$ids'"
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
# what fits where (in an empty directory: files are offered too): profiles for apply, result ids and 'last', commands for help
cd "$T" || fail "no temporary directory"
[ "$(comp ubtune apply r)" = "rk3568 rpi4" ] || fail "completion of 'apply r': $(comp ubtune apply r)"
[ "$(comp ubtune apply --dry-run x8)" = "x86-server" ] || fail "completion of 'apply --dry-run x8': $(comp ubtune apply --dry-run x8)"
[ "$(comp ubtune show la)" = last ] || fail "completion of 'show la': $(comp ubtune show la)"
[ "$(comp ubtune help dia)" = diagnose ] || fail "completion of 'help dia': $(comp ubtune help dia)"
[ "$(comp ubtune compare --copies 1 --js)" = --json ] || fail "completion of 'compare ... --js': $(comp ubtune compare --copies 1 --js)"
[ "$(comp ubtune probe --color ne)" = never ] || fail "completion of '--color ne': $(comp ubtune probe --color ne)"
[ "$(comp ubtune probe --root "$FIXTURES/rpi4-un")" = "$FIXTURES/rpi4-undervoltage" ] ||
	fail "completion of '--root DIR': $(comp ubtune probe --root "$FIXTURES/rpi4-un")"
[ "$(comp ubtune bench --tests dhry)" = dhry2reg ] || fail "completion of '--tests dhry': $(comp ubtune bench --tests dhry)"
[ "$(comp ubtune bench --tests dhry2reg,wh)" = dhry2reg,whetstone-double ] ||
	fail "completion of '--tests dhry2reg,wh': $(comp ubtune bench --tests dhry2reg,wh)"
[ "$(comp ubtune bench --unixbench /tmp --engine r)" = run ] || fail "completion of '--engine r'"
# the binary asked is the one typed, on PATH or not; --color WHEN before the command too
build_comp() {
	PATH=/usr/bin:/bin bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ubtune
		echo "${COMPREPLY[*]}"' _ "$SRCDIR/completion/ubtune.bash" "$@"
}
[ "$(build_comp "$UBTUNE" dia)" = diagnose ] || fail "completion of '$UBTUNE dia': $(build_comp "$UBTUNE" dia)"
[ "$(build_comp "$UBTUNE" --color "")" = "auto always never" ] ||
	fail "completion of '--color ': $(build_comp "$UBTUNE" --color "")"
[ "$(build_comp "$UBTUNE" --color never show --j)" = --json ] || fail "completion after --color never"
# an interactive bash finds the completion for build/ubtune as typed (its
# last component names it) and offers the commands
(cd "$(dirname "$UBTUNE")/.." && $PY - "$SRCDIR/completion/ubtune.bash" "$(basename "$(dirname "$UBTUNE")")/ubtune" \
	>"$T/pty" 2>&1) <<'PY' || fail "interactive completion of '${UBTUNE#*/build}': $(tr -d '\r' <"$T/pty" | tail -3)"
import os, pty, select, sys, time
script, typed = sys.argv[1:3]
pid, fd = pty.fork()
if pid == 0:
    os.environ.update(PS1="$ ", INPUTRC="/dev/null", PATH="/usr/bin:/bin")
    os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
out = b""
def read(seconds):
    global out
    end = time.time() + seconds
    while time.time() < end and b"diagnose " not in out.split(b"sourced")[-1]:
        if select.select([fd], [], [], 0.1)[0]:
            out += os.read(fd, 65536)
os.write(fd, f"bind 'set enable-bracketed-paste off'; . {script}; echo sourced\n".encode())
read(3)
os.write(fd, f"{typed} dia\t".encode())
read(10)
os.kill(pid, 9)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(0 if f"{typed} diagnose ".encode() in out.split(b"sourced")[-1] else 1)
PY
expect_exit 2 "$UBTUNE" bench --engine run
grep -q -- "--engine is for --unixbench DIR" "$T/stderr" || fail "bench --engine alone: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" bench --iterations 0
grep -q -- "--iterations takes a number from 1 to 1000, not '0'" "$T/stderr" || fail "bench --iterations 0: $(cat "$T/stderr")"
# apply --list shows every shipped profile with its description
"$UBTUNE" apply --list >"$T/list" || fail "apply --list failed"
for p in "$SRCDIR"/profiles/*.profile; do
	n=$(basename "$p" .profile)
	grep -q "^  $n  *[A-Z]" "$T/list" || fail "apply --list has no $n with a description: $(cat "$T/list")"
done
expect_exit 2 "$UBTUNE" apply --list rpi4

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
