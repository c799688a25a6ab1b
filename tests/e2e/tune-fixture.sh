# Sourced by the tune tests (after lib.sh): builds a writable fixture root
# $R with the files apply changes, an environment record for it, and a test
# profile, and checks that a root is back as it was built.
R=$T/root
STATE=$R/var/lib/ubtune
CPUFREQ=$R/sys/devices/system/cpu/cpufreq
apply() { "$UBTUNE" apply --root "$R" --record "$T/rec.json" "$@"; }

# same_as_pristine WHAT: $R is byte for byte the copy $T/pristine, without
# the state directory apply made there or anything else of ubtune's.
same_as_pristine() {
	diff -r --no-dereference "$T/pristine" "$R" >"$T/diff" ||
		fail "$1: the root differs from the original: $(head -c 600 "$T/diff")"
	[ ! -e "$STATE/journal" ] || fail "$1: the journal is still there"
	[ ! -e "$STATE/applied.json" ] || fail "$1: applied.json is still there"
}
#
# make_tune_root DIR: a 2-node, 8-CPU arm64 machine with two cpufreq
# policies, a SATA disk sda (partition sda2 holds the workdir), two storage
# IRQs, THP and a few sysctls. Values are the kernel's formats.
make_tune_root() {
	local r=$1 p dev=sys/devices/platform/soc/ahci/ata1/host0/target0:0:0/0:0:0:0/block/sda
	mkdir -p "$r/proc/sys/kernel/random" "$r/proc/sys/vm" "$r/proc/sys/net/ipv4" \
		"$r/sys/devices/system/cpu/cpufreq" "$r/sys/kernel/mm/transparent_hugepage" \
		"$r/$dev/queue" "$r/$dev/sda2" "$r/sys/class/block" "$r/sys/block"
	echo 6f1c3c36-2b1e-4a57-9d3e-0c1d2e3f4a5b >"$r/proc/sys/kernel/random/boot_id"
	echo 0 >"$r/proc/sys/kernel/randomize_va_space"
	echo 60 >"$r/proc/sys/vm/swappiness"
	printf '4096\t131072\t6291456\n' >"$r/proc/sys/net/ipv4/tcp_rmem"
	for irq in 33 34; do
		mkdir -p "$r/proc/irq/$irq"
		echo 0-7 >"$r/proc/irq/$irq/smp_affinity_list"
	done
	echo 0-7 >"$r/sys/devices/system/cpu/online"
	echo 0 >"$r/sys/devices/system/cpu/cpufreq/boost"
	for p in 0 4; do
		local d="$r/sys/devices/system/cpu/cpufreq/policy$p"
		mkdir -p "$d"
		echo "conservative ondemand userspace powersave performance schedutil" >"$d/scaling_available_governors"
		echo ondemand >"$d/scaling_governor"
		echo "$p $((p + 1)) $((p + 2)) $((p + 3))" >"$d/related_cpus"
		echo 408000 >"$d/cpuinfo_min_freq"
		echo 1992000 >"$d/cpuinfo_max_freq"
		echo 408000 >"$d/scaling_min_freq"
		echo 1992000 >"$d/scaling_max_freq"
	done
	echo "[always] madvise never" >"$r/sys/kernel/mm/transparent_hugepage/enabled"
	echo "[mq-deadline] kyber bfq none" >"$r/$dev/queue/scheduler"
	echo 128 >"$r/$dev/queue/read_ahead_kb"
	echo 2 >"$r/$dev/sda2/partition"
	ln -s "../../${dev#sys/}" "$r/sys/class/block/sda"
	ln -s "../../${dev#sys/}/sda2" "$r/sys/class/block/sda2"
	ln -s "../${dev#sys/}" "$r/sys/block/sda"
	mkdir -p "$r/var/tmp" "$r/var/lib"
}

# make_tune_record FILE: what `ubtune probe` reports for that root.
make_tune_record() {
	cat >"$1" <<'JSON'
{
  "schema": "ubtune.probe/1",
  "cpu": { "arch": "aarch64", "model": "Cortex-A55" },
  "virt": { "role": "none", "hypervisor": null },
  "storage": {
    "workdir": "/var/tmp",
    "device": { "name": "sda2", "kind": "hdd", "rotational": true, "scheduler": "mq-deadline",
                "schedulers": ["mq-deadline", "kyber", "bfq", "none"], "recommended_scheduler": "bfq",
                "numa_node": 1 }
  },
  "numa": {
    "nodes": [ { "id": 0, "cpus": "0-3" }, { "id": 1, "cpus": "4-7" } ],
    "storage_irqs": [ { "irq": 33, "name": "ahci", "affinity": "0-7" }, { "irq": 34, "name": "ahci", "affinity": "0-7" } ]
  }
}
JSON
}

# make_tune_profile FILE: every kind of change apply makes on that root,
# except services and the tmpfs mount, on top of the shipped generic one.
make_tune_profile() {
	cat >"$1" <<'EOF2'
[profile]
description = every knob of the fixture root
include = generic

[cpu]
governor = performance
boost = on
min-freq = max

[io]
scheduler = auto
read-ahead-kb = 4096

[sysctl]
vm.swappiness = 10
net.ipv4.tcp_rmem = 4096 87380 6291456

[workdir]
type = dir
path = /var/tmp/bench/work

[bench]
copies = 1, 8
EOF2
}

# mock_unit_states UNIT...: "name=ActiveState ... default=TARGET" from the
# mock systemd on $DBUS_SYSTEM_BUS_ADDRESS (tests/lib/mock-systemd.py).
mock_unit_states() {
	"$PY" - "$@" <<'PYEOF'
import dbus, dbus.bus, os, sys
bus = dbus.bus.BusConnection(os.environ['DBUS_SYSTEM_BUS_ADDRESS'])
m = dbus.Interface(bus.get_object('org.freedesktop.systemd1', '/org/freedesktop/systemd1'),
                   'org.freedesktop.systemd1.Manager')
out = []
for n in sys.argv[1:]:
    u = bus.get_object('org.freedesktop.systemd1', m.GetUnit(n))
    out.append(n + '=' + u.Get('org.freedesktop.systemd1.Unit', 'ActiveState',
                               dbus_interface='org.freedesktop.DBus.Properties'))
out.append('default=' + m.GetDefaultTarget())
print(' '.join(out))
PYEOF
}
