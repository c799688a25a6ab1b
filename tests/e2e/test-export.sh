#!/bin/bash
# export --format openmetrics|samples: the latest result of each host (or
# the ids given), checked by the Prometheus client's OpenMetrics and text
# format parsers; written to a file by rename; the samples line by line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet-results.sh"
$PY -c 'import prometheus_client' 2>/dev/null || skip "python3-prometheus-client is not installed"

fleet_result a1 "$(printf '%032x' 1)" 0.3 sd
fleet_result a1 "$(printf '%032x' 2)" 1 sd
fleet_result 'b"2' "$(printf '%032x' 3)" 1 sd
fleet_result c3 "$(printf '%032x' 4)" 0.5 hdd
expect_exit 0 "$UBTUNE" import "$T"/a1-*1.json "$T"/a1-*2.json "$T"/b*.json "$T"/c3-*.json

expect_exit 0 "$UBTUNE" export --format openmetrics
cp "$T/stdout" "$T/metrics.txt"
$PY - "$T/metrics.txt" "$T"/a1-*2.json "$T"/b*.json "$T"/c3-*.json <<'PY' || fail "OpenMetrics: $(head -c 600 "$T/metrics.txt")"
import json, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics
from prometheus_client.parser import text_string_to_metric_families as prometheus
text = open(sys.argv[1]).read()
assert text.endswith("# EOF\n")
fams = {f.name: f for f in openmetrics(text)}
# node_exporter's textfile collector reads the Prometheus text format: the same families
assert {f.name for f in prometheus(text)} == set(fams), (sorted(fams),)
want = {"ubtune_score", "ubtune_start_time_seconds"} | {"ubtune_index_" + t for t in (
    "dhry2reg", "whetstone_double", "execl", "fstime", "fsbuffer", "fsdisk", "pipe", "context1", "spawn",
    "syscall", "shell1", "shell8")}
assert set(fams) == want, sorted(fams)
assert all(f.type == "gauge" for f in fams.values())
assert fams["ubtune_start_time_seconds"].unit == "seconds"
for path in sys.argv[2:]:
    rec = json.load(open(path))
    for run in rec["runs"]:
        labels = {"host": rec["host"], "copies": str(run["copies"])}
        got = [s.value for s in fams["ubtune_score"].samples if s.labels == labels]
        assert got and abs(got[0] - run["index"]["score"]) < 1e-6 * run["index"]["score"], (labels, got)
        fc = [t["index"] for t in run["tests"] if t["id"] == "fstime"][0]
        got = [s.value for s in fams["ubtune_index_fstime"].samples if s.labels == labels]
        assert got and abs(got[0] - fc) < 1e-6 * fc, (labels, got, fc)
# the latest of each host: three hosts, two copy counts each
assert len(fams["ubtune_score"].samples) == 6, fams["ubtune_score"].samples
PY

# to a file: by rename (a new inode), nothing else left in the directory
mkdir "$T/textfile"
expect_exit 0 "$UBTUNE" export --format openmetrics -o "$T/textfile/ubtune.prom"
inode=$(stat -c %i "$T/textfile/ubtune.prom")
cmp -s "$T/textfile/ubtune.prom" "$T/metrics.txt" || fail "-o wrote something else than standard output"
expect_exit 0 "$UBTUNE" export --format openmetrics -o "$T/textfile/ubtune.prom" 3 4
[ "$(stat -c %i "$T/textfile/ubtune.prom")" != "$inode" ] || fail "the file was rewritten in place, not renamed"
[ "$(ls -A "$T/textfile")" = ubtune.prom ] || fail "left in the directory: $(ls -A "$T/textfile")"
grep -c '^ubtune_score{' "$T/textfile/ubtune.prom" | grep -qx 4 || fail "ids 3 4: $(cat "$T/textfile/ubtune.prom")"
grep -qF 'ubtune_score{host="b\"2",copies="1"}' "$T/textfile/ubtune.prom" || fail "a quote in a host name is not escaped"

# two results of one host cannot share a family
expect_exit 2 "$UBTUNE" export --format openmetrics 1 2
grep -q "both of host 'a1' at 1 copy" "$T/stderr" || fail "duplicate host: $(cat "$T/stderr")"

# samples: every test's result and index and every score, with the start time
expect_exit 0 "$UBTUNE" export --format samples 2
$PY - "$T/stdout" "$T"/a1-*2.json <<'PY' || fail "samples: $(head -c 600 "$T/stdout")"
import json, sys, datetime
lines = [json.loads(l) for l in open(sys.argv[1])]
rec = json.load(open(sys.argv[2]))
want = sum(2 * len(r["tests"]) + 1 for r in rec["runs"])
assert len(lines) == want, (len(lines), want)
for s in lines:
    assert {"metric", "value", "unit", "labels", "timestamp"} <= set(s), s
    assert s["metadata"]["host"] == "a1" and f"|host:a1|" in s["labels"], s
score = [s for s in lines if s["metric"] == "System Benchmarks Index Score"]
assert [s["metadata"]["copies"] for s in score] == [r["copies"] for r in rec["runs"]]
run = rec["runs"][0]
t = datetime.datetime.strptime(run["started_at"], "%Y-%m-%dT%H:%M:%S%z").timestamp()
assert score[0]["timestamp"] == t and score[0]["value"] == run["index"]["score"], (score[0], t)
dhry = [s for s in lines if s["metric"] == "Dhrystone 2 using register variables"][0]
assert dhry["unit"] == "lps" and dhry["run_uri"] == rec["run_id"], dhry
assert [s for s in lines if s["metric"] == "Dhrystone 2 using register variables:index"][0]["unit"] == ""
PY
expect_exit 0 "$UBTUNE" export --format samples
$PY -c 'import json, sys; print(sorted({json.loads(l)["metadata"]["host"] for l in open(sys.argv[1])}))' "$T/stdout" |
	grep -qxF "['a1', 'b\"2', 'c3']" || fail "samples of the latest of each host: $(head -c 300 "$T/stdout")"

# the record itself, and usage errors
expect_exit 0 "$UBTUNE" export 3
json_get "$T/stdout" 'd["run_id"]' | grep -qx "$(printf '%032x' 3)" || fail "export 3: $(head -c 200 "$T/stdout")"
expect_exit 2 "$UBTUNE" export
expect_exit 2 "$UBTUNE" export --format csv 3
grep -q "json, openmetrics or samples" "$T/stderr" || fail "--format csv: $(cat "$T/stderr")"
expect_exit 1 "$UBTUNE" export --format samples 99
pass
