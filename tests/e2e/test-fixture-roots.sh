#!/bin/bash
# Synthetic fixture roots: each describes one coherent machine (check-roots.py),
# the checker notices a root that is not, and the probe reads each root's
# facts back from the files that hold them.
. "$(dirname "$0")/lib.sh"

roots=("$FIXTURES"/*/)
[ -d "${roots[0]}" ] || skip "no synthetic fixture roots"
$PY "$SRCDIR/tests/e2e/check-roots.py" "${roots[@]}" || fail "fixture roots are not coherent"

# The checker must reject a root whose CPU count disagrees between files
# (a copy of the smallest root, with one CPU taken offline in sysfs only).
small=$(for r in "${roots[@]}"; do echo "$(find "$r" | wc -l) $r"; done | sort -n | head -n 1 | cut -d' ' -f2-)
cp -a "$small" "$T/broken"
echo 0 >"$T/broken/sys/devices/system/cpu/online"
! $PY "$SRCDIR/tests/e2e/check-roots.py" "$T/broken" >"$T/out" || fail "checker accepted a broken root"
grep -q "sysfs online is \[0\]" "$T/out" || fail "checker did not name the broken file: $(cat "$T/out")"

meta() { sed -n "s/^$2=//p" "$1/.ubtune/gather"; }
for r in "${roots[@]}"; do
	n=$(basename "$r")
	"$UBTUNE" probe --json --root "$r" >"$T/$n.json" || fail "probe --root $n failed"
	[ "$(json_get "$T/$n.json" 'd["host"]["hostname"]')" = "$(cat "$r/proc/sys/kernel/hostname")" ] ||
		fail "$n: hostname is not /proc/sys/kernel/hostname"
	[ "$(json_get "$T/$n.json" 'd["host"]["arch"]')" = "$(meta "$r" arch)" ] || fail "$n: arch is not the gathered one"
	[ "$(json_get "$T/$n.json" 'd["storage"]["workdir"]')" = "$(meta "$r" workdir)" ] ||
		fail "$n: workdir is not the gathered one"
	total=$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' "$r/proc/meminfo")
	[ "$(json_get "$T/$n.json" 'd["memory"]["total_kib"]')" = "$total" ] || fail "$n: memory total is not MemTotal"
	init=$(json_get "$T/$n.json" 'd["host"]["init"]')
	case "$(cat "$r/proc/1/comm")" in
	systemd) [ "$init" = systemd ] || fail "$n: init $init, PID 1 is systemd" ;;
	init) [ "$init" = busybox ] || fail "$n: init $init, /sbin/init is busybox" ;;
	esac
done

# Each root shows what it was built for (areas already collected; the full
# records are the reviewed expected JSON).
expect() { # expect ROOT PYTHON-CONDITION  (on d = the record, ids = finding ids)
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
ids = [f["id"] for f in d["findings"]]
sys.exit(0 if eval(sys.argv[2]) else 1)' "$T/$1.json" "$2" || fail "$1: expected $2"
}
expect rpi4-undervoltage 'd["power"]["undervoltage_now"] is True and d["power"]["undervoltage_events"] == 3'
expect rpi4-undervoltage '"power.undervoltage" in ids and d["virt"]["boot_el"] == "EL2"'
expect rk3568-emmc-el2 'd["virt"]["kvm_initialized"] is True and d["virt"]["config_virtualization"] == "y"'
expect rk3568-emmc-el2 'd["cpu"]["model"] == "Cortex-A55" and d["host"]["init"] == "busybox"'
expect rk3568-emmc-el2 '([(x["name"], x["kind"], x["governor"], x["cur_hz"]) for x in d["power"]["devfreq"]] ==
	[("dmc", "memory", "dmc_ondemand", 324000000), ("fde60000.gpu", "gpu", "simple_ondemand", 200000000)])'
expect rk3568-emmc-el2 '([(s["name"], s["latency_us"]) for s in d["cpu"]["idle"]["states"]] == [("WFI", 1), ("cpu-sleep", 370)]
	and d["cpu"]["idle"]["driver"] == "arm_idle" and d["cpu"]["idle"]["deepest_latency_us"] == 370)'
expect rk3568-emmc-el2 '{"memory.devfreq-dynamic", "cpu.idle-deep-states"} <= {f["id"] for f in d["findings"]}'
expect x86-kvm-steal '(d["host"]["limits"] == {"nproc_soft": 31767, "nproc_hard": 31767, "pids_max": 20966,
	"pids_max_source": "/sys/fs/cgroup/user.slice/user-0.slice/pids.max", "pid_max": 4194304, "threads_max": 63534}
	and d["host"]["audit"]["seccomp"] == "disabled" and d["host"]["audit"]["rules"] is None)'
expect laptop-battery-powersave '"memory.devfreq-dynamic" not in {f["id"] for f in d["findings"]} and d["power"]["devfreq"] is None'
expect ft2000plus-64 'd["cpu"]["vendor"] == "Phytium" and d["cpu"]["cores"] == 64 and d["cpu"]["freq"]["driver"] is None'
expect x86-kvm-steal 'd["virt"]["hypervisor"] == "kvm" and abs(d["virt"]["steal_pct"] - 8.0) < 0.1 and "virt.steal" in ids'
expect qemu-tcg-x86 'd["virt"]["hypervisor"] == "qemu-tcg" and "virt.emulated" in ids'
expect laptop-battery-powersave 'd["power"]["on_battery"] is True and d["cpu"]["freq"]["governor"] == "powersave"'
expect laptop-battery-powersave '{"power.on-battery", "cpu.governor.powersave", "memory.swap-in-use"} <= set(ids)'
pass
