#!/bin/bash
# A benchmark capped by its cgroup is named as such by the probe (a quota,
# a cpuset: tests/fixtures/partial/cgroup-*), by bench (its 'all' copies
# follow the CPUs the process may use, with a note in the record) and by
# diagnose (tests/fixtures/results/rk3568-cpu-quota.json).
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$UBTUNE" probe --root "$PARTIAL/cgroup-quota"
grep -q "^Cgroup " "$T/stdout" && grep -q "CPU quota 0.25 CPUs (25000/100000 µs)" "$T/stdout" || fail "no quota line: $(cat "$T/stdout")"
grep -q "throttled 93.5 s in 1240 of 1250 periods" "$T/stdout" || fail "no throttling: $(cat "$T/stdout")"
grep -q "cgroup.cpu-quota" "$T/stdout" || fail "no quota finding: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" probe --json --root "$PARTIAL/cgroup-both"
[ "$(json_get "$T/stdout" 'd["cgroup"]["cpus"]')" = 1 ] || fail "cgroup-both: a run can keep more than 1 CPU busy"
[ "$(json_get "$T/stdout" 'd["cgroup"]["cpu_quota_source"]')" = /sys/fs/cgroup/bench.slice/cpu.max ] ||
	fail "cgroup-both: the slice's quota is not the one that binds"

expect_exit 0 "$UBTUNE" diagnose "$SRCDIR/tests/fixtures/results/rk3568-cpu-quota.json"
grep -q "^1\. CPU quota of the container (confidence: high)" "$T/stdout" || fail "diagnose: $(head -n 5 "$T/stdout")"
grep -q "held back 820.4 s in all" "$T/stdout" || fail "diagnose gives no throttled time"

# bench on one CPU of several: 'all' is 1 copy, and the record says why
[ "$(nproc --all)" -ge 2 ] && command -v taskset >/dev/null || skip "needs taskset and 2 CPUs for the bench part"
. "$(dirname "$0")/bench-lib.sh"
mkdir -p "$T/run" && cd "$T/run" || fail "no run directory"
expect_exit 0 taskset -c 0 "$UBTUNE" bench --quick --tests syscall --copies all --force --json "${ENGINE[@]}"
grep -q "'all' copies: 1, not [0-9]*: this process may run on 1 of the" "$T/stderr" ||
	fail "bench did not say why: $(cat "$T/stderr")"
$PY - "$T/stdout" <<'PY' || fail "the record does not name the limit"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["options"]["copies"] == [1], r["options"]["copies"]
assert r["options"]["copies_note"].startswith("'all' copies: 1, not"), r["options"]["copies_note"]
env = r["environment"]["before"]
assert env["cgroup"]["cpus"] == 1 and env["cgroup"]["affinity"] == "0", env["cgroup"]
assert "cgroup.cpuset" in [f["id"] for f in env["findings"]]
PY
pass
