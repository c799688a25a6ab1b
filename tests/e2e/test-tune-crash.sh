#!/bin/bash
# Crash consistency of apply and revert: strace kills ubtune with SIGKILL
# at each of its writes, renames, syncs, directory and unlink calls, mounts
# and truncations (-e inject=SYSCALL:signal=SIGKILL:when=N, one syscall at
# a time, N = 1, 2, ...), on a fixture root with a profile that touches
# every kind of knob: files (a choice list among them), IRQ affinity,
# services and the default target on the mock systemd, directories, and a
# tmpfs mounted in this test's own mount namespace. After each kill,
# revert (run again when it was revert that died) must leave every file of
# the root byte for byte as before, with its modes, the mock's units as
# they were, and nothing mounted.
#
# CRASH_STRIDE=K tries every Kth kill point of each syscall (and the last);
# make check runs it with the default, `make check-crash` with 1 (all).
. "$(dirname "$0")/mount-ns.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tune-fixture.sh"
if [ "${1:-}" != inner ]; then
	"$PY" "$SRCDIR/tests/lib/mock-systemd.py" --default-target graphical.target \
		--unit irqbalance.service=active --unit cups.service=active --unit cups-browsed.service=inactive \
		--unit multi-user.target=active --unit graphical.target=active \
		-- bash "$0" inner
	exit $?
fi
built_with systemd || skip "services on the mock systemd need libsystemd"
. "$(dirname "$0")/strace-lib.sh"
STRIDE=${CRASH_STRIDE:-6}
export UBTUNE_TEST_ROOT_MOUNTS=$UBTUNE_IN_MOUNT_NS
WORK=$R/var/tmp/ubtune-work/bench
trap 'umount -q "$WORK" 2>/dev/null; rm -rf "$T"' EXIT

make_tune_root "$R"
make_tune_record "$T/rec.json"
cp -a "$R" "$T/pristine"
cat >"$T/every.profile" <<'P'
[services]
stop = irqbalance cups*
default-target = multi-user.target
[cpu]
governor = performance
min-freq = max
[io]
scheduler = auto
read-ahead-kb = 4096
[sysctl]
vm.swappiness = 10
[vm]
transparent-hugepages = madvise
[irq]
storage-affinity = device-node
[workdir]
type = tmpfs
path = /var/tmp/ubtune-work/bench
size = 16M
[bench]
copies = 1
P
units() { mock_unit_states irqbalance.service cups.service cups-browsed.service; }
listing() { (cd "$1" && find . -printf '%p %y %m %l\n' | LC_ALL=C sort); }
listing "$T/pristine" >"$T/listing"
before=$(units)
apply_cmd=("$UBTUNE" apply --persistent --root "$R" --record "$T/rec.json" "$T/every.profile")
revert_cmd=("$UBTUNE" revert --root "$R")
SYSCALLS="write writev pwrite64 rename renameat renameat2 fsync fdatasync mkdir mkdirat unlink unlinkat rmdir
ftruncate mount umount2"

# the root as it was: every file's bytes, modes and links, the units, no mount
check_back() {
	diff -r --no-dereference "$T/pristine" "$R" >"$T/diff" ||
		fail "$1: the root differs after revert: $(head -c 800 "$T/diff")"
	listing "$R" | cmp -s - "$T/listing" || fail "$1: modes or links differ: $(listing "$R" | diff "$T/listing" - | head)"
	[ "$(units)" = "$before" ] || fail "$1: the units after revert: $(units)"
	! grep -q " $WORK " /proc/self/mountinfo || fail "$1: the tmpfs is still mounted"
}
# a complete apply and revert first
expect_exit 0 "${apply_cmd[@]}"
[ "$(units)" != "$before" ] || fail "apply did not stop the units"
grep -q " $WORK .* tmpfs " /proc/self/mountinfo || fail "apply did not mount the tmpfs"
[ "$(grep -c '"op":"set"' "$R/var/lib/ubtune/journal")" -ge 12 ] || fail "apply journaled too little: $(cat "$R/var/lib/ubtune/journal")"
expect_exit 0 "${revert_cmd[@]}"
check_back "apply, revert"

# apply killed at each point, then revert
tried_apply=0 tried_revert=0
count_calls "${apply_cmd[@]}" >"$T/apply.calls"
expect_exit 0 "${revert_cmd[@]}"
while read -r sc n; do
	for k in $(points "$n"); do
		faulted "$sc" "$k" signal=SIGKILL "${apply_cmd[@]}"
		rc=$?
		[ $rc -eq 137 ] || [ $rc -eq 0 ] || fail "apply killed at $sc #$k exited $rc"
		"${revert_cmd[@]}" >"$T/stdout" 2>"$T/stderr" ||
			fail "revert after apply killed at $sc #$k: $(cat "$T/stdout" "$T/stderr")"
		check_back "apply killed at $sc #$k"
		tried_apply=$((tried_apply + 1))
	done
done <"$T/apply.calls"

# revert killed at each point, then revert again
expect_exit 0 "${apply_cmd[@]}"
count_calls "${revert_cmd[@]}" >"$T/revert.calls"
while read -r sc n; do
	for k in $(points "$n"); do
		expect_exit 0 "${apply_cmd[@]}"
		faulted "$sc" "$k" signal=SIGKILL "${revert_cmd[@]}"
		rc=$?
		[ $rc -eq 137 ] || [ $rc -eq 0 ] || fail "revert killed at $sc #$k exited $rc"
		"${revert_cmd[@]}" >"$T/stdout" 2>"$T/stderr" ||
			fail "revert after revert killed at $sc #$k: $(cat "$T/stdout" "$T/stderr")"
		check_back "revert killed at $sc #$k"
		tried_revert=$((tried_revert + 1))
	done
done <"$T/revert.calls"

# both killed: apply at a point of each syscall, the revert after it too
while read -r sc n; do
	k=$(( (n + 1) / 2 ))
	faulted "$sc" "$k" signal=SIGKILL "${apply_cmd[@]}"
	faulted write 3 signal=SIGKILL "${revert_cmd[@]}"
	"${revert_cmd[@]}" >"$T/stdout" 2>"$T/stderr" ||
		fail "revert after apply killed at $sc #$k and revert at write #3: $(cat "$T/stdout" "$T/stderr")"
	check_back "apply killed at $sc #$k, revert at write #3"
	tried_revert=$((tried_revert + 1))
done <"$T/apply.calls"

echo "kill points tried (stride $STRIDE): $tried_apply in apply ($(tr '\n' ' ' <"$T/apply.calls")), $tried_revert in revert ($(tr '\n' ' ' <"$T/revert.calls")); bad after revert: 0"
pass
