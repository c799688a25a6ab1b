#!/bin/bash
# show of an imported result: what the log did not record is said to be not
# recorded, never shown as zero or as a clean bill; what it recorded is shown.
. "$(dirname "$0")/lib.sh"

LOGS="$SRCDIR/tests/fixtures/unixbench-logs"

# index tables alone: no time, samples, language, CPUs or environment
expect_exit 0 "$UBTUNE" import --copies 1 "$LOGS/mangled/index-only.txt"
# wide enough for a test's line not to wrap
expect_exit 0 "$UBTUNE" show 1 --width 100
out="$T/stdout"
grep -q '^Dhrystone 2 using register variables .*(time and samples not recorded)$' "$out" || fail "no 'not recorded' for a test: $(cat "$out")"
grep -q '0 samples' "$out" && fail "an import without samples shows '0 samples': $(cat "$out")"
grep -q '(0.0 s' "$out" && fail "an import without times shows '0.0 s': $(cat "$out")"
grep -q '^   Language: not recorded$' "$out" || fail "the language is not said to be not recorded: $(cat "$out")"
grep -q 'set for the tests' "$out" && fail "an import claims a language set for the tests"
grep -q '^Benchmark Run: time not recorded$' "$out" || fail "the run's time is invented: $(cat "$out")"
grep -q '^CPUs in system not recorded; running 1 parallel copy of tests$' "$out" || fail "CPUs: $(cat "$out")"
grep -q '^Findings  not recorded' "$out" || fail "findings of an import: $(cat "$out")"
grep -q 'Findings  none' "$out" && fail "an import claims no findings"

# a full report: its own header lines, times and samples
expect_exit 0 "$UBTUNE" import "$LOGS/v6-full/vm-2026-11-29-01"
expect_exit 0 "$UBTUNE" show 2
grep -q '^   Language: en_US.utf8 (charmap="ANSI_X3.4-1968", collate="ANSI_X3.4-1968")$' "$out" || fail "language: $(cat "$out")"
grep -q '^Benchmark Run: Sun Nov 29 2026 22:36:13 - 22:42:58$' "$out" || fail "run time: $(cat "$out")"
grep -q '^2 CPUs in system; running 1 parallel copy of tests$' "$out" || fail "CPUs: $(cat "$out")"
grep -q '^Dhrystone 2 using register variables .*(10.0 s, 1 samples)$' "$out" || fail "times: $(cat "$out")"
# only the findings: a report's header is no environment record either
grep 'not recorded' "$out" | grep -qv '^Findings' && fail "a full report has something not recorded: $(grep 'not recorded' "$out")"
pass
