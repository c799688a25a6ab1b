#!/bin/bash
# What bench says before it runs: --dry-run's plan (text and JSON) that
# runs, builds and writes nothing; the expected duration on stderr before
# the first test; --quick's durations in the help and the man page, the
# same figures the plan gives; --wait's message redrawn in place.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench-lib.sh"

# a state and a cache that do not exist yet, an empty workdir: all stay so
export UBTUNE_STATE_DIR="$T/state" UBTUNE_CACHE_DIR="$T/cache"
mkdir -p "$T/wd" "$T/cwd" && cd "$T/cwd" || fail "no directories"
untouched() {
	[ ! -e "$T/state" ] && [ ! -e "$T/cache" ] || fail "$1 wrote $(find "$T/state" "$T/cache" 2>/dev/null | head -3)"
	[ -z "$(find "$T/wd" "$T/cwd" -mindepth 1)" ] || fail "$1 left files: $(find "$T/wd" "$T/cwd" -mindepth 1)"
}
ncpu=$(getconf _NPROCESSORS_ONLN)

expect_exit 0 "$UBTUNE" bench --dry-run --workdir "$T/wd" "${ENGINE[@]}"
untouched "bench --dry-run"
cp "$T/stdout" "$T/plan.txt"
grep -q '^Plan of the run (--dry-run: nothing is run, built or written)$' "$T/plan.txt" || fail "no plan: $(head -3 "$T/plan.txt")"
for label in "Dhrystone 2" Whetstone Execl "File Copy 1024" "File Copy 256" "File Copy 4096" "Pipe Throughput" \
	"Context Switching" "Process Creation" "System Call" "Shell Scripts 1" "Shell Scripts 8"; do
	grep -q "^$label  " "$T/plan.txt" || fail "the plan has no row for $label: $(cat "$T/plan.txt")"
done
grep -q "^Workdir   $T/wd (--workdir)" "$T/plan.txt" || fail "the plan names no workdir: $(cat "$T/plan.txt")"
grep -q '^Profile   none applied$' "$T/plan.txt" || fail "the plan names no profile: $(cat "$T/plan.txt")"
grep -q '^Expected time: about ' "$T/plan.txt" || fail "the plan gives no expected time: $(tail -3 "$T/plan.txt")"
grep -q 'result .* stored' "$T/stderr" && fail "a dry run stored a result"

# the plan as data: the expected time is the sum of its parts
expect_exit 0 "$UBTUNE" bench --dry-run --json --workdir "$T/wd" "${ENGINE[@]}"
untouched "bench --dry-run --json"
$PY - "$T/stdout" "$ncpu" <<'PY' || fail "the plan record is wrong: $(head -c 600 "$T/stdout")"
import json, sys
p = json.load(open(sys.argv[1]))
ncpu = int(sys.argv[2])
assert p["schema"] == "ubtune.bench-plan/1"
assert p["copies"] == ([1, ncpu] if ncpu > 1 else [1]), p["copies"]
assert p["quick"] is False and p["settle"] == "sync; sleep 1; sync; sleep 2"
tests = p["tests"]
assert len(tests) == 12 and tests[0]["id"] == "dhry2reg" and tests[-1]["id"] == "shell8"
passes = {t["id"]: t["passes"] for t in tests}
assert passes["dhry2reg"] == 10 and passes["execl"] == 3, passes
for t in tests:
    assert abs(t["total_s"] - t["passes"] * t["pass_s"]) < 0.02, t
    assert t["duration_s"] is None or t["pass_s"] >= t["duration_s"] + 3, t
e = p["expected"]
assert abs(e["per_copy_count_s"] - sum(t["total_s"] for t in tests)) < 0.2, e
assert e["copy_counts"] == len(p["copies"])
assert abs(e["total_s"] - (e["preflight_s"] + e["build_s"] + e["copy_counts"] * e["per_copy_count_s"])) < 0.2, e
PY

# --quick's help, the man page and the plan give the same durations
quick_help=$("$UBTUNE" bench --help --width 1000 | grep '^  --quick ')
q=$(sed -n 's/.*the 12 tests take about \(.*\) per copy count.*/\1/p' <<<"$quick_help")
full=$(sed -n 's/.*against about \(.*\) in a full run.*/\1/p' <<<"$quick_help")
run=$(sed -n 's/.*-i 3, about \(.*\)); the result.*/\1/p' <<<"$quick_help")
[ -n "$q" ] && [ -n "$full" ] && [ -n "$run" ] || fail "--quick's help gives no durations: $quick_help"
man=$(sed -n '/^\.B \\-\\-quick$/,/^\.TP/p' "$SRCDIR/man/ubtune.1" | tr '\n' ' ')
for d in "take about $q per copy count" "against about $full in a full run" "about $run per copy count"; do
	grep -qF -- "$d" <<<"$man" || fail "the man page's --quick does not say '$d': $man"
done
plan_of() { "$UBTUNE" bench --dry-run --copies 1 --workdir "$T/wd" "$@" | grep -o '1 copy count of about [^ ]* [^ ]*'; }
[ "$(plan_of --quick "${ENGINE[@]}")" = "1 copy count of about $q" ] ||
	fail "the quick plan says '$(plan_of --quick "${ENGINE[@]}")', the help $q"
[ "$(plan_of "${ENGINE[@]}")" = "1 copy count of about $full" ] ||
	fail "the full plan says '$(plan_of "${ENGINE[@]}")', the help $full"
expect_exit 0 "$UBTUNE" bench --dry-run --quick --json --workdir "$T/wd" "${ENGINE[@]}"
json_get "$T/stdout" 'd["settle"]' | grep -qx "sync; sleep 0.25" || fail "a quick plan settles otherwise"

# a profile's flags: the plan says the workloads are compiled first, and compiles nothing
if [ ${#ENGINE[@]} = 0 ] && command -v cc >/dev/null && command -v make >/dev/null; then
	mkdir -p "$T/profile-state"
	printf '{"profiles": ["test"], "build": {"cflags": "-O1 -DPLAN_TEST"}}\n' >"$T/profile-state/applied.json"
	UBTUNE_STATE_DIR="$T/profile-state" expect_exit 0 "$UBTUNE" bench --dry-run --json --workdir "$T/wd"
	$PY - "$T/stdout" <<'PY' || fail "the plan of a compiled run is wrong: $(head -c 800 "$T/stdout")"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["build_needed"] is True and p["build"]["cached"] is False and p["build"]["cflags"] == "-O1 -DPLAN_TEST"
assert p["expected"]["build_s"] > 0 and p["profile"]["profiles"] == ["test"]
PY
	UBTUNE_STATE_DIR="$T/profile-state" expect_exit 0 "$UBTUNE" bench --dry-run --workdir "$T/wd"
	grep -q '^Build     to be built first (about [0-9]* s) with .* -O1 -DPLAN_TEST' "$T/stdout" ||
		fail "the plan does not say it compiles first: $(cat "$T/stdout")"
	grep -q '^Profile   test (' "$T/stdout" || fail "the plan names no profile: $(cat "$T/stdout")"
	untouched "bench --dry-run with a profile's flags"
fi

# a UnixBench tree's Run: its command, -i 3 for --quick, a build planned
# into the cache, the tree as it was (a stand-in: Run, a Makefile, sources)
tree="$T/ub"
mkdir -p "$tree/src" "$tree/pgms" "$tree/testdir"
printf '#!/usr/bin/perl -w\nmy $version = "6.0.0";\n' >"$tree/Run"
chmod 755 "$tree/Run"
printf 'all:\n\ttrue\n' >"$tree/Makefile"
echo 'int main(void) { return 0; }' >"$tree/src/dhry_1.c"
echo "   Version 6.0.0   Based on the Byte Magazine" >"$tree/pgms/unixbench.logo"
before=$(find "$tree" -printf '%P %s %T@\n' | sort)
if command -v cc >/dev/null; then
	expect_exit 0 "$UBTUNE" bench --dry-run --json --quick --copies 1 --unixbench "$tree" --engine run --workdir "$T/wd"
	$PY - "$T/stdout" "$run" <<'PY' || fail "the plan of Run is wrong: $(head -c 800 "$T/stdout")"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["engine"]["kind"] == "run"
cmd = p["engine"]["command"]
assert cmd[0].endswith("/Run") and cmd[1:5] == ["-i", "3", "-c", "1"], cmd
assert p["build_needed"] is True and p["build"]["cached"] is False
passes = {t["id"]: t["passes"] for t in p["tests"]}
assert passes["dhry2reg"] == 3 and passes["execl"] == 1, passes
# Run keeps its durations
assert {t["id"]: t["duration_s"] for t in p["tests"]}["execl"] == 30
assert p["settle"] == "sync; sleep 1; sync; sleep 2"
PY
	expect_exit 0 "$UBTUNE" bench --dry-run --quick --copies 1 --unixbench "$tree" --engine run --workdir "$T/wd"
	grep -q "1 copy count of about $run, a build of about" "$T/stdout" ||
		fail "the plan of Run does not give the help's $run: $(tail -3 "$T/stdout")"
	[ "$(find "$tree" -printf '%P %s %T@\n' | sort)" = "$before" ] || fail "a dry run changed the tree"
	untouched "bench --dry-run --unixbench"
fi

# completion offers the option, from the option table
comp=$(PATH="$(dirname "$UBTUNE"):$PATH" bash -c '. "$1"; COMP_WORDS=(ubtune bench --dry); COMP_CWORD=2; _ubtune
	echo "${COMPREPLY[*]}"' _ "$SRCDIR/completion/ubtune.bash")
[ "$comp" = --dry-run ] || fail "completion of 'bench --dry': '$comp'"

# usage errors stay usage errors
expect_exit 2 "$UBTUNE" bench --dry-run --tests nosuch
expect_exit 2 "$UBTUNE" bench --dry-run --copies 0
expect_exit 2 "$UBTUNE" bench --dry-run=yes

# a run says how long it should take before anything starts
mkdir -p "$T/state"
expect_exit 0 "$UBTUNE" bench --quick --tests syscall --copies 1 --force --no-store --workdir "$T/wd" "${ENGINE[@]}"
head -1 "$T/stderr" | grep -q '^ubtune: expected to take about [0-9]* s (1 copy count of about .*; an estimate' ||
	fail "no expected duration first: $(head -3 "$T/stderr")"

# waiting for a busy machine: one line, cut to the width, redrawn in place
yes >/dev/null &
y1=$!
yes >/dev/null &
y2=$!
COLUMNS=70 script -qec "$UBTUNE bench --wait 5 --quick --tests syscall --copies 1 --no-store ${ENGINE[*]}" /dev/null \
	>"$T/tty" 2>&1
kill $y1 $y2
wait $y1 $y2 2>/dev/null
$PY - "$T/tty" <<'PY' || fail "the waiting line is not redrawn in place: $(head -c 800 "$T/tty" | cat -v)"
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)
# the waiting lines are segments between carriage returns, none ends a line
lines = plain.split("\n")
waiting = [(i, seg) for i, line in enumerate(lines) for seg in line.split("\r") if seg.startswith("[waiting]")]
assert len(waiting) >= 2, waiting
assert len({i for i, _ in waiting}) == 1, "a waiting line was ended by a newline"
assert all(len(seg) <= 69 for _, seg in waiting), [seg for _, seg in waiting if len(seg) > 69]
assert "waiting up to" in waiting[0][1], waiting[0]
assert "the machine is busy: " in plain, plain[-400:]
PY
pass
