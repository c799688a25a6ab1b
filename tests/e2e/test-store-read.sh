#!/bin/bash
# What only reads the results store (history, show, export, fleet, compare,
# diagnose with no argument) creates nothing where there is no store yet:
# neither the state directory nor the database (or directory of result
# files) appears, and each command answers as for an empty store. bench and
# import make it.
. "$(dirname "$0")/lib.sh"

mkdir "$T/ro"
export UBTUNE_STATE_DIR=$T/ro/state UBTUNE_CACHE_DIR=$T/ro/cache
export HOME=$T/ro/home XDG_DATA_HOME=$T/ro/data XDG_CACHE_HOME=$T/ro/cache-home
# what was there before the command: nothing, or an empty state directory
before=
nothing_made() {
	[ "$(cd "$T/ro" && find . -mindepth 1)" = "$before" ] || fail "'$*' made: $(cd "$T/ro" && find . -mindepth 1)"
}

# CODE OUTPUT CMD...: the exit code, and a line stdout or stderr holds
reads() {
	local code=$1 want=$2
	shift 2
	expect_exit "$code" "$UBTUNE" "$@"
	grep -qF -- "$want" "$T/stdout" "$T/stderr" || fail "'$*' said: $(cat "$T/stdout" "$T/stderr")"
	nothing_made "$@"
}

for where in "no state directory" "an empty state directory"; do
	[ "$where" = "no state directory" ] || { mkdir "$T/ro/state" && before=./state; }
	reads 0 "No results yet" history
	expect_exit 0 "$UBTUNE" history --json
	[ "$(json_get "$T/stdout" 'd')" = "[]" ] || fail "history --json of an empty store: $(cat "$T/stdout")"
	nothing_made history --json
	reads 1 "there is no result '1'" show 1
	reads 1 "there is no result 'last'" show last
	reads 1 "there is no result 'last'" export last
	reads 0 "# EOF" export --format openmetrics
	expect_exit 0 "$UBTUNE" export --format samples
	[ ! -s "$T/stdout" ] || fail "samples of an empty store: $(cat "$T/stdout")"
	nothing_made export --format samples
	reads 1 "no results: run \`ubtune bench\`" fleet
	reads 1 "no results: run \`ubtune bench\`" fleet --json
	reads 1 "there is no result '1'" compare 1 2
	reads 1 "there is no result 'last'" diagnose
done
rmdir "$T/ro/state"

# import makes the store, and the commands read it
result_record "$T/a.json" 0123456789abcdef0123456789abcdef 1.5
expect_exit 0 "$UBTUNE" import "$T/a.json"
if built_with sqlite; then
	[ -f "$T/ro/state/results.db" ] || fail "import made no store: $(ls -A "$T/ro/state")"
else
	[ -d "$T/ro/state/results" ] || fail "import made no store: $(ls -A "$T/ro/state")"
fi
expect_exit 0 "$UBTUNE" show 1
expect_exit 0 "$UBTUNE" history --json
[ "$(json_get "$T/stdout" 'len(d)')" = 1 ] || fail "history after the import: $(cat "$T/stdout")"
pass
