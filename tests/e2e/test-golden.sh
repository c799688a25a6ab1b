#!/bin/bash
# `ubtune import` and `ubtune diagnose` on every UnixBench output and result
# file under tests/fixtures/, byte for byte against tests/golden/import/ and
# tests/golden/diagnose/: what each prints on stdout and stderr and its exit
# status, as text and as --json. Times from ubtune's own clock (the import
# time of a log that does not say when it ran) read <now>.
# UPDATE_GOLDEN=1 writes the goldens of new fixtures and rewrites the others
# (then read the diff).
. "$(dirname "$0")/lib.sh"
# the goldens are text wrapped at 100 columns
export COLUMNS=100

GOLDEN="$SRCDIR/tests/golden"
export TZ=UTC
cd "$SRCDIR/tests/fixtures" || fail "no fixtures"

# every input, and the options it is read with besides (a golden name each)
declare -A cases=()
while IFS= read -r f; do
	cases[$f]=$f
done < <(find unixbench-logs results -type f ! -name README.md ! -name '*.py' | sort)
cases[unixbench-logs/mangled/index-column.txt.copies-1]="--copies 1 unixbench-logs/mangled/index-column.txt"
cases[unixbench-logs/mangled/index-only.txt.copies-1]="--copies 1 unixbench-logs/mangled/index-only.txt"

# the level is judged against a frozen model (tests/fixtures/expect/README.md)
expect=(--catalogue expect/cpus.ini --model expect/expect.ini)
start=$EPOCHSECONDS
n=0
got=()
for name in "${!cases[@]}"; do
	# shellcheck disable=SC2206
	args=(${cases[$name]})
	n=$((n + 1))
	# a results store of its own: the result ids and diagnose's references
	# (the person's stored runs) are the same on every run
	mkdir -p "$T/got/import/$(dirname "$name")" "$T/got/diagnose/$(dirname "$name")"
	export UBTUNE_STATE_DIR="$T/state-$n"
	session "$T/got/import/$name.txt" import --json --no-store "${args[@]}"
	session "$T/got/import/$name.txt" import "${args[@]}"
	export UBTUNE_STATE_DIR="$T/empty-$n"
	session "$T/got/diagnose/$name.txt" diagnose "${expect[@]}" "${args[@]}"
	session "$T/got/diagnose/$name.txt" diagnose --json "${expect[@]}" "${args[@]}"
	got+=("$T/got/import/$name.txt" "$T/got/diagnose/$name.txt")
done
$PY "$SRCDIR/tests/e2e/normalize-now.py" "$start" "$EPOCHSECONDS" "${got[@]}" || fail "cannot normalise the outputs"

check_goldens "$T/got" "$GOLDEN" "${got[@]}"

# a golden whose input is gone is left over
while IFS= read -r g; do
	[ -f "$T/got/${g#"$GOLDEN/"}" ] || fail "$g is the golden output of no fixture: remove it"
done < <(find "$GOLDEN/import" "$GOLDEN/diagnose" -name '*.txt')
echo "$n inputs, imported and diagnosed as their goldens say"
pass
