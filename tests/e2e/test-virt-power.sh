#!/bin/bash
# The Virt and Power lines of the text report and the --strict exit status,
# from the built binary: on this machine and on a small arm64 board root
# (entered at EL1, undervoltage alarm raised, kernel log of a weak supply).
. "$(dirname "$0")/lib.sh"
# the report unwrapped, a line per area, for the lines checked below
export COLUMNS=1000

"$UBTUNE" probe >"$T/live" || fail "probe failed"
grep -q '^Virt      ' "$T/live" || fail "no Virt line: $(cat "$T/live")"
grep -q '^Power     ' "$T/live" || fail "no Power line: $(cat "$T/live")"

r=$T/board
hw=$r/sys/devices/platform/soc/soc:firmware/raspberrypi-hwmon/hwmon/hwmon1
mkdir -p "$hw" "$r/sys/class/hwmon" "$r/proc/device-tree" "$r/dev" "$r/.ubtune"
echo rpi_volt >"$hw/name"
echo 1 >"$hw/in0_lcrit_alarm"
ln -s ../../devices/platform/soc/soc:firmware/raspberrypi-hwmon/hwmon/hwmon1 "$r/sys/class/hwmon/hwmon1"
printf 'raspberrypi,4-model-b\0brcm,bcm2711\0' >"$r/proc/device-tree/compatible"
echo arch=aarch64 >"$r/.ubtune/gather"
printf '%s\n' '[    0.05] CPU: All CPU(s) started at EL1' '[    0.30] kvm [1]: HYP mode not available' \
	'[    5.10] hwmon hwmon1: Undervoltage detected!' >"$r/dmesg"

"$UBTUNE" probe --root "$r" >"$T/text" || fail "probe --root failed"
grep -q '^Virt      bare metal · booted at EL1 (cannot host KVM) · KVM not available · /dev/kvm absent$' "$T/text" ||
	fail "Virt line: $(grep -A1 '^Virt' "$T/text")"
grep -q '^Power     rpi_volt: UNDERVOLTAGE NOW · kernel: 1 × "Undervoltage detected" since boot$' "$T/text" ||
	fail "Power line: $(grep -A1 '^Power' "$T/text")"
for id in power.undervoltage power.undervoltage-since-boot virt.el1; do
	grep -q "^  [a-z]* *$id " "$T/text" || fail "finding $id missing from the report"
done
# the crit finding comes first
[ "$(grep -m1 -o '^  crit [a-z.-]*' "$T/text")" = "  crit power.undervoltage" ] || fail "crit finding is not first"

expect_exit 3 "$UBTUNE" probe --strict --root "$r"
"$UBTUNE" probe --json --root "$r" >"$T/rec.json" || fail "probe --json failed"
$PY "$SRCDIR/tests/e2e/check-contract.py" "$T/rec.json" || fail "record breaks the contract"
[ "$(json_get "$T/rec.json" 'd["virt"]["boot_el"]')" = EL1 ] || fail "boot_el"
[ "$(json_get "$T/rec.json" 'd["power"]["undervoltage_now"]')" = True ] || fail "undervoltage_now"
pass
