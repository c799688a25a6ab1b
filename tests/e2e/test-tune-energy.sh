#!/bin/bash
# The energy knobs on a writable fixture root: EPP, EPB and the memory
# controller's devfreq governor are applied, shown by status, and reverted
# byte for byte; a bench setting ([bench] dma-latency) is recorded.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tune-fixture.sh"

make_tune_root "$R"
make_tune_record "$T/rec.json"
for p in 0 4; do
	d=$CPUFREQ/policy$p
	echo "default performance balance_performance balance_power power" >"$d/energy_performance_available_preferences"
	echo balance_power >"$d/energy_performance_preference"
done
for c in 0 1 2 3 4 5 6 7; do
	mkdir -p "$R/sys/devices/system/cpu/cpu$c/power"
	echo 6 >"$R/sys/devices/system/cpu/cpu$c/power/energy_perf_bias"
done
dmc=$R/sys/devices/platform/dmc/devfreq/dmc
mkdir -p "$dmc" "$R/sys/class/devfreq"
echo "dmc_ondemand userspace powersave performance simple_ondemand" >"$dmc/available_governors"
echo dmc_ondemand >"$dmc/governor"
ln -s ../../devices/platform/dmc/devfreq/dmc "$R/sys/class/devfreq/dmc"
cp -a "$R" "$T/pristine"

cat >"$T/e.profile" <<'EOF2'
[profile]
description = energy knobs

[cpu]
epp = performance
epb = balance-performance

[devfreq]
governor = performance

[bench]
dma-latency = 0
pin-single = fastest
EOF2

expect_exit 0 apply --dry-run "$T/e.profile"
grep -q "^devfreq .*dmc governor .*dmc_ondemand .*-> performance" "$T/stdout" ||
	fail "the plan lacks the devfreq line: $(cat "$T/stdout")"
n=$(grep -cE '^(cpu|devfreq) ' "$T/stdout")
[ "$n" -eq 4 ] || fail "expected 4 plan lines (8 EPB alike, 2 EPP, 1 devfreq), got $n: $(cat "$T/stdout")"
rm -rf "$STATE"
same_as_pristine "--dry-run"

expect_exit 0 apply "$T/e.profile"
[ "$(cat "$CPUFREQ/policy4/energy_performance_preference")" = performance ] || fail "EPP not set"
[ "$(cat "$R/sys/devices/system/cpu/cpu7/power/energy_perf_bias")" = 4 ] || fail "EPB not set"
[ "$(cat "$dmc/governor")" = performance ] || fail "devfreq governor not set"
json_get "$STATE/applied.json" 'd["bench"]["dma_latency_us"] == 0 and d["bench"]["pin_single"] == "fastest"' |
	grep -q True || fail "applied.json: $(cat "$STATE/applied.json")"
expect_exit 0 "$UBTUNE" status --root "$R" --json
json_get "$T/stdout" 'd["drifted"] == 0 and len(d["knobs"]) == 11' | grep -q True || fail "status: $(cat "$T/stdout")"

# drift on the devfreq governor is seen
echo dmc_ondemand >"$dmc/governor"
expect_exit 3 "$UBTUNE" status --root "$R"
echo performance >"$dmc/governor"

expect_exit 0 "$UBTUNE" revert --root "$R"
same_as_pristine "apply, revert"

# boost where the machine has no global switch: intel_pstate's inverted
# no_turbo, and one boost file per policy; set and reverted byte for byte
cat >"$T/b.profile" <<'EOF2'
[profile]
description = boost on

[cpu]
boost = on
EOF2
for kind in no_turbo per-policy; do
	rm -f "$CPUFREQ/boost"
	if [ $kind = no_turbo ]; then
		mkdir -p "$R/sys/devices/system/cpu/intel_pstate"
		echo 1 >"$R/sys/devices/system/cpu/intel_pstate/no_turbo"
	else
		rm -rf "$R/sys/devices/system/cpu/intel_pstate"
		echo 0 >"$CPUFREQ/policy0/boost"
		echo 0 >"$CPUFREQ/policy4/boost"
	fi
	rm -rf "$T/pristine"
	cp -a "$R" "$T/pristine"
	expect_exit 0 apply "$T/b.profile"
	if [ $kind = no_turbo ]; then
		[ "$(cat "$R/sys/devices/system/cpu/intel_pstate/no_turbo")" = 0 ] || fail "no_turbo not cleared"
	else
		[ "$(cat "$CPUFREQ/policy0/boost")$(cat "$CPUFREQ/policy4/boost")" = 11 ] || fail "per-policy boost not set"
	fi
	grep -q '"op":"set"' "$STATE/journal" || fail "$kind: the journal has no entry"
	expect_exit 0 "$UBTUNE" status --root "$R" --json
	json_get "$T/stdout" 'd["drifted"] == 0' | grep -q True || fail "$kind status: $(cat "$T/stdout")"
	expect_exit 0 "$UBTUNE" revert --root "$R"
	same_as_pristine "boost through $kind, revert"
done
pass
