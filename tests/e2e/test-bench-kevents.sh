#!/bin/bash
# What the kernel logs during a run is placed in the test and copy count
# that ran then: a stand-in workloads program logs an OOM kill into the
# stand-in kernel log each time Process Creation runs, and the result
# says during which test and copies each was logged.
. "$(dirname "$0")/lib.sh"
export UBTUNE_STATE_DIR="$T/state" UBTUNE_CACHE_DIR="$T/cache"
mkdir -p "$T/fake" "$T/run"
[ -r /proc/uptime ] || skip "no /proc/uptime to stamp the messages with"

# /proc/uptime is CLOCK_BOOTTIME, the clock of /dev/kmsg's time stamps
# (awk's %d stops at 2^31: microseconds after 36 minutes of uptime need %.0f)
cat >"$T/fake/ubtune-workloads" <<EOF2
#!/bin/sh
if [ "\$1" = spawn ]; then
	read up idle </proc/uptime
	us=\$(echo "\$up" | awk '{ printf "%.0f", \$1 * 1000000 }')
	echo "3,1,\$us,-;Out of memory: Killed process \$\$ (spawn)" >>"$UBTUNE_KMSG_DEV"
	sleep 0.3
fi
echo "COUNT|1000|1|lps" >&2
EOF2
chmod +x "$T/fake/ubtune-workloads"
cd "$T/run" || fail "no run directory"
UBTUNE_LIBEXECDIR=$T/fake expect_exit 0 "$UBTUNE" bench --quick --iterations 1 --copies 1,2 \
	--tests dhry2reg,spawn --force --no-store --json
$PY - "$T/stdout" <<'PY' || fail "the kernel's events are not placed in their tests"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["kernel_log"]["read"] is True, r["kernel_log"]
oom = [e for e in r["events"] if e["kind"] == "kernel-oom"]
# one line per copy of each pass of Process Creation: 1 copy, then 2
assert oom, r["events"]
for e in oom:
    assert e["test"] == "spawn", e
    assert e["copies"] in (1, 2), e
    words = "1 copy" if e["copies"] == 1 else "2 copies"
    assert e["message"].endswith("(during Process Creation, %s)" % words), e
assert {e["copies"] for e in oom} == {1, 2}, oom
PY
pass
