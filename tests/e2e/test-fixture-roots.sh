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
pass
