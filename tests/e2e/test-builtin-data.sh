#!/bin/bash
# The data a static ubtune carries (make STATIC=1: the shipped profiles and
# the published reference runs), used as a board uses them: the binary
# copied alone into a directory with no source tree beside it, no
# UBTUNE_DATADIR and no installed data directory. A build without them says
# what is missing instead. A data directory on disk always wins.
. "$(dirname "$0")/lib.sh"

RESULT="$SRCDIR/tests/fixtures/results/rpi4-undervoltage.json"
unset UBTUNE_DATADIR
mkdir -p "$T/board"
cp "$UBTUNE" "$T/board/ubtune"
U="$T/board/ubtune"
cd "$T/board" || fail "cannot enter $T/board"

shipped=()
for f in "$SRCDIR"/profiles/*.profile; do
	f=${f##*/}
	shipped+=("${f%.profile}")
done
carried=$("$U" --version | grep "^built in: .*profiles") || carried=

# no_reference_runs DATADIR WHAT: diagnose warns that DATADIR holds no
# reference runs and compares with none
no_reference_runs() {
	expect_exit 0 "$U" diagnose --json "$RESULT"
	local want="cannot read $1/reference/published-results.json: No such file or directory;"
	grep -qFx "ubtune: warning: $want comparing with no published run" "$T/stderr" || fail "$2: $(cat "$T/stderr")"
	[ "$(json_get "$T/stdout" "len(d['references'])")" = 0 ] || fail "$2: references were used"
}

# where this binary looks for its profiles: the path a missing one is said at
expect_exit 2 "$U" apply --check no-such-profile
dir=$(sed -n 's|^ubtune: \(.*\)/no-such-profile.profile: No such file or directory$|\1|p' "$T/stderr")
[ -n "$dir" ] || fail "a missing profile is not named: $(cat "$T/stderr")"
[ "$dir" = "<built-in>/profiles" ] || [ ! -e "${dir%/profiles}" ] || skip "an installed data directory (${dir%/profiles}) is used"

if [ -z "$carried" ]; then
	# no data on disk and none carried: said, never made up
	[ "$dir" != "<built-in>/profiles" ] || fail "a build without data names the built-in copy"
	grep -q "shipped profiles" "$T/stderr" && fail "profiles listed that are not there: $(cat "$T/stderr")"
	expect_exit 2 "$U" apply --check rk3568
	grep -qFx "ubtune: $dir/rk3568.profile: No such file or directory" "$T/stderr" ||
		fail "the missing profile is not named: $(cat "$T/stderr")"
	no_reference_runs "${dir%/profiles}" "without the reference runs"
	pass
fi

[[ $carried == "built in: ${#shipped[@]} profiles and the published reference runs"* ]] ||
	fail "--version says '$carried' for ${#shipped[@]} profiles"
# a missing profile: the carried ones are named, in order
list=$(printf '%s, ' "${shipped[@]}")
grep -qFx "ubtune: shipped profiles (<built-in>/profiles): ${list%, }" "$T/stderr" ||
	fail "the carried profiles are not listed as ${shipped[*]}: $(cat "$T/stderr")"

# every shipped profile is valid, its includes found among the carried ones
for name in "${shipped[@]}"; do
	expect_exit 0 "$U" apply --check "$name"
	chain="generic -> $name"
	[ "$name" = generic ] && chain=generic
	[ "$(head -n 1 "$T/stdout")" = "<built-in>/profiles/$name.profile: valid ($chain)" ] ||
		fail "apply --check $name: $(cat "$T/stdout")"
done
expect_exit 0 "$U" apply --check rk3568.profile
grep -q "^<built-in>/profiles/rk3568.profile: valid (generic -> rk3568)$" "$T/stdout" ||
	fail "apply --check rk3568.profile: $(cat "$T/stdout")"
# a profile of one's own includes a carried one by name
mkdir -p "$T/mine"
printf '[profile]\ninclude = rk3568\n[cpu]\ngovernor = ondemand\n' >"$T/mine/board.profile"
expect_exit 0 "$U" apply --check "$T/mine/board.profile"
grep -q "^$T/mine/board.profile: valid (generic -> rk3568 -> board)$" "$T/stdout" ||
	fail "an own profile including rk3568: $(cat "$T/stdout")"

# the plan from the carried profiles is the plan from the files (each
# row on one line)
export COLUMNS=1000
ROOT="$SRCDIR/tests/fixtures/roots/rk3568-emmc-el2"
expect_exit 0 "$U" apply --dry-run --root "$ROOT" rk3568
mv "$T/stdout" "$T/plan-builtin"
UBTUNE_DATADIR=$SRCDIR "$U" apply --dry-run --root "$ROOT" rk3568 >"$T/plan-disk" 2>"$T/stderr" ||
	fail "apply --dry-run with UBTUNE_DATADIR: $(cat "$T/stderr")"
sed -i "s|$SRCDIR/profiles/|<built-in>/profiles/|g" "$T/plan-disk"
diff -u "$T/plan-disk" "$T/plan-builtin" >"$T/diff" || fail "the plans differ: $(head -40 "$T/diff")"
grep -q "performance .*\[cpu\] governor (generic.profile:" "$T/plan-builtin" ||
	fail "no governor change in the plan: $(cat "$T/plan-builtin")"

# diagnose compares with the carried published runs, as with the file
expect_exit 0 "$U" diagnose --json "$RESULT"
[ -s "$T/stderr" ] && fail "diagnose warned: $(cat "$T/stderr")"
mv "$T/stdout" "$T/diag-builtin"
[ "$(json_get "$T/diag-builtin" "len(d['references']) > 0 and d['causes'][0]['id']")" = diag.undervoltage ] ||
	fail "diagnosis with the carried references: $(json_get "$T/diag-builtin" "d['references'], d['causes']")"
UBTUNE_DATADIR=$SRCDIR "$U" diagnose --json "$RESULT" >"$T/diag-disk" || fail "diagnose with UBTUNE_DATADIR failed"
cmp -s "$T/diag-disk" "$T/diag-builtin" || fail "the diagnosis differs from the one with the reference file"

# a data directory on disk wins, even where it lacks a file
mkdir -p "$T/data/profiles"
cp "$SRCDIR/profiles/generic.profile" "$T/data/profiles/"
export UBTUNE_DATADIR="$T/data"
expect_exit 0 "$U" apply --check generic
grep -q "^$T/data/profiles/generic.profile: valid (generic)$" "$T/stdout" || fail "UBTUNE_DATADIR: $(cat "$T/stdout")"
expect_exit 2 "$U" apply --check rk3568
grep -qFx "ubtune: shipped profiles ($T/data/profiles): generic" "$T/stderr" ||
	fail "the carried profiles were used beside UBTUNE_DATADIR: $(cat "$T/stderr")"
no_reference_runs "$T/data" "the carried reference runs beside UBTUNE_DATADIR"
pass
