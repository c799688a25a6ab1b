# Sourced by the fleet and export tests (after lib.sh): results of several
# hosts made from the published-style Raspberry Pi 4 result record.
#
# fleet_result NAME RUN FACTOR MEDIUM [ROUND QUOTA]: writes $T/NAME-RUN.json,
# a result of host NAME with run id RUN, its File Copy tests scaled by
# FACTOR, its workdir on MEDIUM (sd or hdd); the other tests move a little
# per host. With ROUND: of that round, on a machine of its own (a machine id
# made from NAME), in a cgroup whose CPU quota is QUOTA CPUs ("none": no
# quota), every test scaled by QUOTA below one CPU, its score made again.
fleet_result() {
	$PY - "$SRCDIR/tests/fixtures/results/rpi4-undervoltage.json" "$T/$1-$2.json" "$@" <<'PY'
import json, sys
src, out, name, run, factor, medium = sys.argv[1:7]
round_, quota = (sys.argv[7:9] + [None, None])[:2]
d = json.load(open(src))
d["host"], d["run_id"] = name, run
env = d["environment"]["before"]
env["host"]["hostname"] = name
cap = 1
if round_:
    d["round"] = round_
    env["host"]["machine_id"] = "%032x" % (sum(ord(c) << (8 * i) for i, c in enumerate(name)) + 1)
    q = None if quota == "none" else float(quota)
    env["cgroup"] = {"version": 2, "path": "/bench", "cpu_quota_cpus": q,
                     "cpu_quota_us": int(q * 100000) if q else None, "cpu_period_us": 100000 if q else None}
    cap = min(q, 1) if q else 1
if medium == "hdd":
    env["storage"]["device"].update(kind="hdd", rotational=True, mmc_type=None, name="sda")
wiggle = 1 + (sum(map(ord, name)) % 5 - 2) / 100
for r in d["runs"]:
    for t in r["tests"]:
        f = cap * wiggle * (float(factor) if t["id"].startswith("fs") else 1)
        for k in ("result", "index"):
            if t.get(k) is not None:
                t[k] *= f
if round_:
    # the score of the indexes as they are now (UnixBench's geometric mean)
    import math
    for r in d["runs"]:
        idx = [t["index"] for t in r["tests"] if t.get("index")]
        r["index"]["score"] = 10 * math.exp(sum(math.log(i / 10) for i in idx) / len(idx))
        r["index"]["ci95"] = None
json.dump(d, open(out, "w"))
PY
}
