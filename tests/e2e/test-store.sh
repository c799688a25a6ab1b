#!/bin/bash
# The results store through the commands, with or without SQLite (a minimal
# build keeps one JSON file per result): import, history, show,
# export and references behave the same. Needs no workloads: the results
# are records imported from files.
. "$(dirname "$0")/lib.sh"

result_record "$T/a.json" 0123456789abcdef0123456789abcdef 1.5
result_record "$T/b.json" fedcba9876543210fedcba9876543210 2.5

expect_exit 0 "$UBTUNE" history
grep -q "No results yet" "$T/stdout" || fail "empty history: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" import "$T/a.json" "$T/b.json"
grep -q "stored as result 1" "$T/stdout" && grep -q "stored as result 2" "$T/stdout" ||
	fail "import said: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" import "$T/b.json"
grep -q "already stored as result 2" "$T/stdout" || fail "a second import stored the run again: $(cat "$T/stdout")"
[ "$("$UBTUNE" history --json | $PY -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 2 ] ||
	fail "a second import changed the history"

expect_exit 0 "$UBTUNE" history --json
[ "$(json_get "$T/stdout" '[(e["id"], e["run_id"][:4], e["copies"], e["scores"], e["flags"]) for e in d]')" = \
	"[(1, '0123', [4], [1.5], ['imported', 'unjudged']), (2, 'fedc', [4], [2.5], ['imported', 'unjudged'])]" ] ||
	fail "history --json: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" history
grep -q '^ *2  2026-01-02 12:00  board .*unixbench 6.0.0  4 .*2.5 .*imported, unjudged$' "$T/stdout" ||
	fail "history: $(cat "$T/stdout")"
# each column header sits over its values
for col in STARTED:2026-01-02 HOST:board SUITE:unixbench COPIES:4 SCORE:2.5 FLAGS:imported; do
	h=$(head -1 "$T/stdout" | awk -v w="${col%%:*}" '{print index($0, w)}')
	v=$(sed -n 3p "$T/stdout" | awk -v w="  ${col#*:}" '{print index($0, w) + 2}')
	[ "$h" = "$v" ] || fail "history: ${col%%:*} at column $h, its value at $v: $(cat "$T/stdout")"
done

# show and export give the record that went in, with its verdict as judged
# now (an imported report without passes cannot be judged); references resolve
expect_exit 0 "$UBTUNE" export last~1 -o "$T/out.json"
$PY -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
v = b.pop("verdict")
for run in b["runs"]:
    for t in run["tests"]:
        t.pop("verdict")
sys.exit(a != b or v["state"] != "not judged")' "$T/a.json" "$T/out.json" ||
	fail "export differs from the imported record"
expect_exit 0 "$UBTUNE" show last --json
cmp -s "$T/stdout" <("$UBTUNE" export 2) || fail "show --json and export differ"
expect_exit 0 "$UBTUNE" show 2
grep -q "Dhrystone 2 using register variables" "$T/stdout" || fail "show: $(cat "$T/stdout")"
expect_exit 1 "$UBTUNE" show 9
grep -q "there is no result '9'" "$T/stderr" || fail "missing result: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" show first
grep -q "'first' is not a result id" "$T/stderr" || fail "bad reference: $(cat "$T/stderr")"

# a file that is not a result names itself and stores nothing
echo '{"schema": "ubtune.result/1"}' >"$T/bad.json"
expect_exit 2 "$UBTUNE" import "$T/bad.json"
grep -q "$T/bad.json: not a ubtune result" "$T/stderr" || fail "bad import: $(cat "$T/stderr")"
[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "error is not one line: $(cat "$T/stderr")"
expect_exit 0 "$UBTUNE" history --json
[ "$(json_get "$T/stdout" 'len(d)')" = 2 ] || fail "the bad file was stored"

# where the results live: one file per result without SQLite
if built_with sqlite; then
	[ -f "$T/state/results.db" ] || fail "no results.db: $(ls "$T/state")"
else
	[ "$(ls "$T/state/results")" = "$(printf '1-0123456789abcdef0123456789abcdef.json\n2-fedcba9876543210fedcba9876543210.json\nindex')" ] ||
		fail "result files: $(ls -a "$T/state/results")"
	[ "$(wc -l <"$T/state/results/index")" = 2 ] || fail "index: $(cat "$T/state/results/index")"
fi

# eight imports of one run at once: one stores it, seven say it is there, by its id
result_record "$T/c.json" 00112233445566778899aabbccddeeff 3.5
for round in 1 2; do
	export UBTUNE_STATE_DIR=$T/race$round
	for i in 1 2 3 4 5 6 7 8; do
		"$UBTUNE" import "$T/c.json" >"$T/race.$i" 2>&1 &
	done
	wait
	sed "s|^$T/c.json: ||" "$T"/race.? | sort | uniq -c | sed 's/^ *//' >"$T/said"
	[ "$(cat "$T/said")" = "$(printf '7 already stored as result 1\n1 stored as result 1')" ] ||
		fail "eight imports at once said: $(cat "$T"/race.?)"
	[ "$("$UBTUNE" history --json | $PY -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1 ] ||
		fail "eight imports at once stored more than one result"
done
pass
