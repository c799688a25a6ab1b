#!/bin/bash
# ubtune fleet on stored results of five hosts, one of them with its workdir
# on a rotating disk and File Copy at half its peers': the table, the
# outlier with that fact as its reason, --json, --html, the default choice
# of results (the latest of each host) and bad input.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/fleet-results.sh"
# the tables whole and the sentences a line each, for the lines checked below
# (test-width.sh checks them narrower)
export COLUMNS=1000
i=0
for h in p1 p2 b7 p3 p4; do
	i=$((i + 1))
	if [ $h = b7 ]; then fleet_result $h "$(printf '%032x' $i)" 0.5 hdd; else fleet_result $h "$(printf '%032x' $i)" 1 sd; fi
done
# an older, slower result of p1 comes first; fleet takes p1's latest
fleet_result p1 "$(printf '%032x' 99)" 0.2 sd
expect_exit 0 "$UBTUNE" import "$T/p1-$(printf '%032x' 99).json"
expect_exit 0 "$UBTUNE" import "$T"/p1-0*1.json "$T"/p2-*.json "$T"/b7-*.json "$T"/p3-*.json "$T"/p4-*.json

expect_exit 0 "$UBTUNE" fleet
want="host b7 scores 50 % below its 4 peers in File Copy 1024 (1 copy): its workdir is on ext4 on a rotating disk, theirs on ext4 on an SD card"
grep -qF "$want" "$T/stdout" || fail "fleet does not name b7 with its workdir: $(cat "$T/stdout")"
grep -q "^b7 .*v" "$T/stdout" || fail "the table does not mark b7's cells: $(cat "$T/stdout")"
grep -q "^median " "$T/stdout" && grep -q "^spread % " "$T/stdout" || fail "no median and spread rows"
! grep -q "host p" "$T/stdout" || fail "a healthy host is called an outlier: $(cat "$T/stdout")"

expect_exit 0 "$UBTUNE" fleet --json
json_get "$T/stdout" '[r["id"] for r in d["results"]]' | grep -qx '\[2, 3, 4, 5, 6\]' ||
	fail "not the latest result of each host: $(json_get "$T/stdout" '[r["id"] for r in d["results"]]')"
json_get "$T/stdout" '(d["schema"], [s["copies"] for s in d["sections"]])' | grep -qx "('ubtune.fleet/1', \[1, 4\])" ||
	fail "sections: $(head -c 300 "$T/stdout")"
json_get "$T/stdout" 'sorted({(o["host"], o["test"]) for o in d["outliers"]})' |
	grep -qx "\[('b7', 'fsbuffer'), ('b7', 'fsdisk'), ('b7', 'fstime')\]" ||
	fail "outliers: $(json_get "$T/stdout" 'd["outliers"]')"
json_get "$T/stdout" '[o for t in d["sections"][0]["tests"] if t["id"] == "fstime" for o in t["outliers"]][0]' >"$T/o"
$PY - "$T/o" <<'PY' || fail "the outlier's record: $(cat "$T/o")"
import ast, sys
o = ast.literal_eval(open(sys.argv[1]).read())
d = o["differences"][0]
assert (o["host"], o["direction"], o["peers"]) == ("b7", "low", 4), o
assert d["fact"] == "workdir medium" and d["relevant"] and d["share"] == 0, d
assert d["peers"] == [{"value": "ext4 on an SD card", "hosts": 4}], d
assert -51 < o["pct"] < -49, o["pct"]
assert all(c["id"].startswith("diag.") for c in o["causes"]), o["causes"]
PY

# a digest damaged or of an older kind is made again from its record, and kept
if built_with sqlite; then
	cp "$T/stdout" "$T/fleet.json"
	$PY - "$UBTUNE_STATE_DIR/results.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE digests SET digest = '{garbage' WHERE id = 2")
db.execute("UPDATE digests SET digest = '{\"version\": 0}' WHERE id = 3")
db.execute("DELETE FROM digests WHERE id = 4")
db.commit()
PY
	expect_exit 0 "$UBTUNE" fleet --json
	cmp -s "$T/stdout" "$T/fleet.json" || fail "the view changed with the digests made again"
	$PY -c 'import json, sqlite3, sys; print(sorted({json.loads(d)["version"] for (d,) in sqlite3.connect(sys.argv[1]).execute("SELECT digest FROM digests")}))' \
		"$UBTUNE_STATE_DIR/results.db" | grep -qx '\[2\]' || fail "the digests were not made again"
fi

# exactly the results given
expect_exit 0 "$UBTUNE" fleet --json 1 3 4
json_get "$T/stdout" '([r["label"] for r in d["results"]], d["outliers"])' | grep -qx "(\['p1', 'p2', 'b7'\], \[\])" ||
	fail "fleet 1 3 4: $(json_get "$T/stdout" '[r["label"] for r in d["results"]]')"
expect_exit 0 "$UBTUNE" fleet --json 1 2 3
json_get "$T/stdout" '[r["label"] for r in d["results"]]' | grep -qx "\['p1 (result 1)', 'p1 (result 2)', 'p2'\]" ||
	fail "two results of one host are not told apart: $(cat "$T/stdout" | head -c 300)"
expect_exit 0 "$UBTUNE" fleet "$T"/p2-*.json "$T"/b7-*.json
grep -q "outliers are called from 3 hosts on" "$T/stdout" || fail "two hosts: $(cat "$T/stdout")"

# the page: well-formed, the strips name the outlier
expect_exit 0 "$UBTUNE" fleet --html "$T/fleet.html"
xmllint --noout "$T/fleet.html" || fail "the page is not well-formed XML"
grep -q '<svg' "$T/fleet.html" && grep -q 'font-weight="bold">b7</text>' "$T/fleet.html" ||
	fail "the strip chart does not name b7"
grep -qF "$want" "$T/fleet.html" || fail "the page lacks the sentence"

# rounds of the issue's hosts, twice: n1, n2 and n3 as they should be, b7
# with its workdir on a rotating disk (File Copy at half), q5 capped at a
# quarter of a CPU, x9 there in w1 and unreachable in w2. Each round names
# b7 and q5 with their reasons; w2 names x9 as missing.
export UBTUNE_STATE_DIR=$T/rounds
for r in w1 w2; do
	i=0
	for h in n1 n2 n3 b7 q5 x9; do
		i=$((i + 1))
		[ $r = w2 ] && [ $h = x9 ] && continue
		fleet_result $h "$r$(printf '%030x' $i)" "$([ $h = b7 ] && echo 0.5 || echo 1)" \
			"$([ $h = b7 ] && echo hdd || echo sd)" $r "$([ $h = q5 ] && echo 0.25 || echo none)"
		expect_exit 0 "$UBTUNE" import "$T/$h-$r$(printf '%030x' $i).json"
	done
	expect_exit 0 "$UBTUNE" fleet
	cp "$T/stdout" "$T/round-$r.txt"
	grep -Eq "host q5 scores 75 % below its [45] peers in Dhrystone 2 \(1 copy\): its cgroup's CPU quota is 25 % of a CPU, theirs none" \
		"$T/stdout" || fail "round $r does not name q5 with its quota: $(cat "$T/stdout")"
	grep -Eq "host b7 scores (49|50) % below its [34] peers in File Copy 1024 \(1 copy\): its workdir is on ext4 on a rotating disk, theirs on ext4 on an SD card" \
		"$T/stdout" || fail "round $r does not name b7 with its workdir: $(cat "$T/stdout")"
done
grep -q "^Round w1: 6 hosts, from 6 of 6 stored results" "$T/round-w1.txt" || fail "round w1: $(cat "$T/round-w1.txt")"
grep -q "^Round w2: 5 hosts, from 5 of 11 stored results" "$T/round-w2.txt" || fail "round w2: $(cat "$T/round-w2.txt")"
grep -q "^Missing from round w2 (1 host): x9 (its latest result, 6, is of round w1, started 20[0-9-]* [0-9:]*)\.$" "$T/round-w2.txt" ||
	fail "x9 is not missing from w2: $(cat "$T/round-w2.txt")"
grep -q "^Left out: 6 results of 1 other round (w1)." "$T/round-w2.txt" || fail "what w2 left out: $(cat "$T/round-w2.txt")"
expect_exit 0 "$UBTUNE" fleet --since w1 --json
json_get "$T/stdout" '(sorted({h["host"] for h in d["since"]["hosts"]}), d["since"]["moved"], d["since"]["gone"])' |
	grep -qxF "(['b7', 'n1', 'n2', 'n3', 'q5'], [], ['x9'])" || fail "--since w1: $(json_get "$T/stdout" 'd["since"]')"
export UBTUNE_STATE_DIR=$T/state

# bad input and an empty store
expect_exit 2 "$UBTUNE" fleet --bogus
echo "not a result" >"$T/junk.txt"
expect_exit 2 "$UBTUNE" fleet "$T/junk.txt"
UBTUNE_STATE_DIR="$T/empty" expect_exit 1 "$UBTUNE" fleet
grep -q "no results" "$T/stderr" || fail "an empty store: $(cat "$T/stderr")"
pass
