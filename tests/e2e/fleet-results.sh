# Sourced by the fleet and export tests (after lib.sh): results of several
# hosts made from the published-style Raspberry Pi 4 result record.
#
# fleet_result NAME RUN FACTOR MEDIUM: writes $T/NAME-RUN.json, a result of
# host NAME with run id RUN, its File Copy tests scaled by FACTOR, its
# workdir on MEDIUM (sd or hdd); the other tests move a little per host.
fleet_result() {
	$PY - "$SRCDIR/tests/fixtures/results/rpi4-undervoltage.json" "$T/$1-$2.json" "$@" <<'PY'
import json, sys
src, out, name, run, factor, medium = sys.argv[1:7]
d = json.load(open(src))
d["host"], d["run_id"] = name, run
env = d["environment"]["before"]
env["host"]["hostname"] = name
if medium == "hdd":
    env["storage"]["device"].update(kind="hdd", rotational=True, mmc_type=None, name="sda")
wiggle = 1 + (sum(map(ord, name)) % 5 - 2) / 100
for r in d["runs"]:
    for t in r["tests"]:
        f = wiggle * (float(factor) if t["id"].startswith("fs") else 1)
        for k in ("result", "index"):
            if t.get(k) is not None:
                t[k] *= f
json.dump(d, open(out, "w"))
PY
}
