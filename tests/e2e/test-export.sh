#!/bin/bash
# export --format openmetrics|samples: the latest result of each host (or
# the ids given), checked by the Prometheus client's OpenMetrics and text
# format parsers and by promtool; the labels partial, quick and round;
# written to a file by rename; the samples exactly as PerfKitBenchmarker's
# JSON publisher writes them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet-results.sh"
$PY -c 'import prometheus_client' 2>/dev/null || skip "python3-prometheus-client is not installed"

fleet_result a1 "$(printf '%032x' 1)" 0.3 sd
fleet_result a1 "$(printf '%032x' 2)" 1 sd
fleet_result 'b"2' "$(printf '%032x' 3)" 1 sd
fleet_result c3 "$(printf '%032x' 4)" 0.5 hdd
# c3's run was stopped after a few tests (quick, of round w2): its score is partial
$PY - "$T"/c3-*.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.update(quick=True, incomplete=True, interrupted_by="SIGTERM", round="w2")
for r in d["runs"]:
    r["tests"] = r["tests"][:4]
    r["index"]["partial"] = True
json.dump(d, open(sys.argv[1], "w"))
PY
# the others of the same round, given at import (c3's is in its record)
expect_exit 0 "$UBTUNE" import --round w2 "$T"/a1-*1.json "$T"/a1-*2.json "$T"/b*.json "$T"/c3-*.json

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
        labels = {"host": rec["host"], "machine_id": "", "copies": str(run["copies"]), "round": "w2",
                  "partial": "true" if run["index"].get("partial") else "false",
                  "quick": "true" if rec.get("quick") else "false"}
        got = [s.value for s in fams["ubtune_score"].samples if s.labels == labels]
        assert got and abs(got[0] - run["index"]["score"]) < 1e-6 * run["index"]["score"], (labels, got)
        fc = [t["index"] for t in run["tests"] if t["id"] == "fstime"][0]
        got = [s.value for s in fams["ubtune_index_fstime"].samples if s.labels == labels]
        assert got and abs(got[0] - fc) < 1e-6 * fc, (labels, got, fc)
# the stopped quick run says so
c3 = [s for s in fams["ubtune_score"].samples if s.labels["host"] == "c3"]
assert c3 and all(s.labels["partial"] == "true" and s.labels["quick"] == "true" and s.labels["round"] == "w2"
                  for s in c3), c3
# the latest of each host: three hosts, two copy counts each
assert len(fams["ubtune_score"].samples) == 6, fams["ubtune_score"].samples
PY
if command -v promtool >/dev/null; then
	promtool check metrics <"$T/metrics.txt" >"$T/promtool.out" 2>&1 || fail "promtool: $(cat "$T/promtool.out")"
else
	skip "promtool is not installed (Debian's prometheus)"
fi

# to a file: by rename (a new inode), nothing else left in the directory
mkdir "$T/textfile"
expect_exit 0 "$UBTUNE" export --format openmetrics -o "$T/textfile/ubtune.prom"
inode=$(stat -c %i "$T/textfile/ubtune.prom")
cmp -s "$T/textfile/ubtune.prom" "$T/metrics.txt" || fail "-o wrote something else than standard output"
expect_exit 0 "$UBTUNE" export --format openmetrics -o "$T/textfile/ubtune.prom" 3 4
[ "$(stat -c %i "$T/textfile/ubtune.prom")" != "$inode" ] || fail "the file was rewritten in place, not renamed"
[ "$(ls -A "$T/textfile")" = ubtune.prom ] || fail "left in the directory: $(ls -A "$T/textfile")"
grep -c '^ubtune_score{' "$T/textfile/ubtune.prom" | grep -qx 4 || fail "ids 3 4: $(cat "$T/textfile/ubtune.prom")"
grep -qF 'ubtune_score{host="b\"2",machine_id="",copies="1",' "$T/textfile/ubtune.prom" || fail "a quote in a host name is not escaped"

# two results of one host cannot share a family
expect_exit 2 "$UBTUNE" export --format openmetrics 1 2
grep -q "both of host 'a1' at 1 copy" "$T/stderr" || fail "duplicate host: $(cat "$T/stderr")"

# samples: every test's result and index and every score, with the start
# time, exactly as PerfKitBenchmarker's publisher writes them: its UnixBench
# metrics ("NAME", "NAME:score" with the result as value and index and
# baseline in metadata, the score), its keys in its order, Python's JSON,
# labels sorted by key with Python's str() of each value
expect_exit 0 "$UBTUNE" export --format samples --owner ci 2
$PY - "$T/stdout" "$T"/a1-*2.json <<'PY' || fail "samples: $(head -c 800 "$T/stdout")"
import json, sys, datetime
text = open(sys.argv[1]).read().splitlines()
lines = [json.loads(l) for l in text]
rec = json.load(open(sys.argv[2]))
want = sum(2 * len(r["tests"]) + 1 for r in rec["runs"])
assert len(lines) == want, (len(lines), want)
keys = ["metric", "value", "unit", "timestamp", "test", "product_name", "official", "owner", "run_uri", "sample_uri",
        "labels"]
# the columns of the BigQuery table PerfKitBenchmarker's samples go to, and their types
columns = {"metric": str, "value": float, "unit": str, "timestamp": float, "test": str, "product_name": str,
           "official": bool, "owner": str, "run_uri": str, "sample_uri": str, "labels": str}
def labels(meta):
    return ",".join("|%s:%s|" % (k, v) for k, v in sorted(meta.items()))
machine = {"hostname": "a1", "run_id": rec["run_id"], "round": "w2", "suite": "native", "quick": False,
           "incomplete": False, "imported": False}
env = rec["environment"]["before"]
machine.update(kernel_release=env["host"]["kernel_release"], cpu_arch=env["cpu"]["arch"], os_info=env["host"]["os"])
for raw, s in zip(text, lines):
    assert list(s) == keys, list(s)
    assert json.dumps(s) == raw, raw
    assert all(isinstance(s[k], t) for k, t in columns.items()), s
    assert (s["test"], s["product_name"], s["official"], s["owner"], s["run_uri"]) == \
        ("unixbench", "ubtune", False, "ci", rec["run_id"]), s
    meta = dict(f.split(":", 1) for f in s["labels"][1:-1].split("|,|"))
    assert all(str(v) == meta[k] for k, v in machine.items()), (machine, meta)
    assert s["labels"] == labels(meta), s["labels"]
assert len({s["sample_uri"] for s in lines}) == len(lines)
for run in rec["runs"]:
    t = datetime.datetime.strptime(run["started_at"], "%Y-%m-%dT%H:%M:%S%z").timestamp()
    at = [s for s in lines if f"|num_parallel_copies:{run['copies']}|" in s["labels"]]
    score = [s for s in at if s["metric"] == "System Benchmarks Index Score"]
    assert len(score) == 1 and score[0]["timestamp"] == t and score[0]["value"] == run["index"]["score"], score
    for test in run["tests"]:
        result = [s for s in at if s["metric"] == test["name"]][0]
        index = [s for s in at if s["metric"] == test["name"] + ":score"][0]
        assert (result["value"], result["unit"]) == (test["result"], test["unit"]), (result, test)
        assert f"|samples:{test['samples']}|" in result["labels"], result
        assert f"|time:{test['time_s']:.1f}s|" in result["labels"], result
        assert (index["value"], index["unit"]) == (test["result"], ""), (index, test)
        assert f"|index:{float(test['index'])!r}|" in index["labels"], index
        assert f"|baseline:{float(test['baseline'])!r}|" in index["labels"], index
PY
expect_exit 0 "$UBTUNE" export --format samples
$PY -c 'import json, sys; print(sorted({dict(f.split(":", 1) for f in json.loads(l)["labels"][1:-1].split("|,|"))["hostname"] for l in open(sys.argv[1])}))' "$T/stdout" |
	grep -qxF "['a1', 'b\"2', 'c3']" || fail "samples of the latest of each host: $(head -c 300 "$T/stdout")"

# the record itself, and usage errors
expect_exit 0 "$UBTUNE" export 3
json_get "$T/stdout" 'd["run_id"]' | grep -qx "$(printf '%032x' 3)" || fail "export 3: $(head -c 200 "$T/stdout")"
expect_exit 2 "$UBTUNE" export
expect_exit 2 "$UBTUNE" export --format csv 3
grep -q "json, openmetrics or samples" "$T/stderr" || fail "--format csv: $(cat "$T/stderr")"
expect_exit 1 "$UBTUNE" export --format samples 99
pass
