#!/bin/bash
# ubtune import on real and mangled UnixBench output: results in the store,
# a run imported twice (or as report and .html) kept once, the .log's passes,
# partly broken tables, errors that say what was expected, result files,
# and stored results used by compare and report.
. "$(dirname "$0")/lib.sh"

cd "$SRCDIR/tests/fixtures/unixbench-logs" || fail "no UnixBench fixtures"

expect_exit 0 "$UBTUNE" import v6-full/vm-2026-11-29-01
grep -q '^v6-full/vm-2026-11-29-01: stored as result 1 (UnixBench 6.0.0, 1 copy, 12 tests, score 1084.8)$' "$T/stdout" ||
	fail "import said: $(cat "$T/stdout" "$T/stderr")"
expect_exit 0 "$UBTUNE" import v6-full/vm-2026-11-29-01.html
grep -q 'already stored as result 1' "$T/stdout" || fail "the .html of the same run was stored again: $(cat "$T/stdout")"

# the record: imported, the header as a partial environment, the .log's passes
expect_exit 0 "$UBTUNE" export 1 -o "$T/one.json"
$PY - "$T/one.json" <<'PY' || fail "the imported record is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "ubtune.result/1" and r["imported"] is True
assert r["suite"] == {"name": "unixbench", "version": "6.0.0", "compatible_with": None}
assert r["engine"]["kind"] == "imported"
assert r["import"]["log"].endswith("vm-2026-11-29-01.log")
env = r["environment"]["before"]
assert env["source"] == "unixbench-header"
assert env["host"]["kernel_release"] == "6.18.44-fc-v669" and env["cpu"]["bogomips"] == 5192.3
assert env["host"]["uptime_s"] == 13 * 60 and env["host"]["load_avg"] == [0.23, 0.08, 0.02]
assert env["unixbench"]["charmap"] == "ANSI_X3.4-1968"
[run] = r["runs"]
assert run["copies"] == 1 and run["index"]["score"] == 1084.8 and run["index"]["partial"] is False
tests = {t["id"]: t for t in run["tests"]}
assert len(tests) == 12
assert tests["dhry2reg"]["result"] == 41920798.1 and tests["dhry2reg"]["index"] == 3592.2
assert len(tests["dhry2reg"]["passes"]) == 1 and tests["dhry2reg"]["passes"][0]["count"] == 419340618
PY

# several runs in one file; a partly broken table; pasted text on stdin
expect_exit 0 "$UBTUNE" import mangled/several-runs.txt
grep -q 'mangled/several-runs.txt: stored as result 2 (UnixBench 5.1.3' "$T/stdout" || fail "$(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" import mangled/broken.txt
grep -q 'skipped line 19: Execl Throughput' "$T/stderr" || fail "the broken line is not listed: $(cat "$T/stderr")"
grep -q 'skipped line 39: Process Creation' "$T/stderr" || fail "the cut index line is not listed: $(cat "$T/stderr")"
"$UBTUNE" import - <mangled/quoted.txt >"$T/stdout" 2>"$T/stderr" || fail "import from stdin failed: $(cat "$T/stderr")"
grep -q "standard input: repaired '>' quotes" "$T/stderr" || fail "the repair is not said: $(cat "$T/stderr")"
grep -q 'standard input: already stored as result 2' "$T/stdout" || fail "$(cat "$T/stdout")"

# a table that does not say how many copies ran: stored with copies unknown, --copies gives them
expect_exit 0 "$UBTUNE" import --json --no-store mangled/index-column.txt
grep -q 'stored with copies unknown; --copies N' "$T/stderr" || fail "no hint at --copies: $(cat "$T/stderr")"
"$PY" -c 'import json, sys; r = json.load(open(sys.argv[1])); assert [x["copies"] for x in r[0]["runs"]] == [None], r' \
	"$T/stdout" || fail "copies not left unknown"
expect_exit 0 "$UBTUNE" import --copies 1 mangled/index-column.txt

# input that is not UnixBench output: 2; a missing file: 1; usage: 2
expect_exit 2 "$UBTUNE" import mangled/not-unixbench.txt
grep -q "mangled/not-unixbench.txt: no UnixBench results found; expected a UnixBench report" "$T/stderr" ||
	fail "unclear error: $(cat "$T/stderr")"
printf 'Pipe Throughput\0 12.0' >"$T/binary"
expect_exit 2 "$UBTUNE" import "$T/binary"
grep -q 'binary data, not UnixBench output' "$T/stderr" || fail "$(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" import v6-full
grep -q 'is a directory' "$T/stderr" || fail "$(cat "$T/stderr")"
expect_exit 1 "$UBTUNE" import "$T/nonexistent"
expect_exit 2 "$UBTUNE" import
expect_exit 2 "$UBTUNE" import --copies 0 v6-full/vm-2026-11-29-01

expect_exit 0 "$UBTUNE" history
[ "$(grep -c imported "$T/stdout")" -eq 4 ] || fail "history should list 4 imported results: $(cat "$T/stdout")"

# --json --no-store prints the records and keeps nothing
expect_exit 0 "$UBTUNE" import --json --no-store v6-brief-i3/vm-2026-11-29-01.html
$PY - "$T/stdout" <<'PY' || fail "--json printed a wrong record"
import json, sys
[r] = json.load(open(sys.argv[1]))
assert [run["copies"] for run in r["runs"]] == [1, 2]
assert all(len(t["passes"]) == 3 and t["dispersion"]["n"] == 3 for run in r["runs"] for t in run["tests"])
assert all(run["index"]["ci95"][0] < run["index"]["ci95"][1] for run in r["runs"])
PY
expect_exit 0 "$UBTUNE" history
[ "$(grep -c imported "$T/stdout")" -eq 4 ] || fail "--no-store stored a result"
# --json while storing: the records alone on stdout, what was stored on stderr
UBTUNE_STATE_DIR="$T/json" expect_exit 0 "$UBTUNE" import --json v6-brief-i3/vm-2026-11-29-01.html
$PY -c 'import json, sys; assert len(json.load(open(sys.argv[1]))) == 1' "$T/stdout" ||
	fail "--json output is not one JSON list: $(head -3 "$T/stdout")"
grep -q "stored as result 1" "$T/stderr" || fail "--json does not say what was stored: $(cat "$T/stderr")"

# a result file goes in as it is, into another store
UBTUNE_STATE_DIR="$T/other" expect_exit 0 "$UBTUNE" import "$T/one.json"
grep -q "one.json: stored as result 1" "$T/stdout" || fail "the result file was not stored: $(cat "$T/stdout" "$T/stderr")"

# stored results by id in compare and report
expect_exit 0 "$UBTUNE" compare 1 last~2
grep -q '^  A  vm, UnixBench 6.0.0, imported, 2026-11-29 22:36 (result 1)$' "$T/stdout" || fail "$(head -4 "$T/stdout")"
grep -q 'B vs A' "$T/stdout" || fail "compare by id printed no table"
expect_exit 1 "$UBTUNE" compare 1 99
grep -q "there is no result '99'" "$T/stderr" || fail "$(cat "$T/stderr")"
expect_exit 0 "$UBTUNE" report --html "$T/page.html" last
if command -v xmllint >/dev/null; then
	xmllint --noout "$T/page.html" || fail "the page of a stored result is not well-formed"
fi
pass
