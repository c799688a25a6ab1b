#!/bin/bash
# The tmpfs workdir. With --root, apply plans and journals it but mounts
# nothing (a mount below the dump would be one on this machine), and says
# so. The mount code itself runs with UBTUNE_TEST_ROOT_MOUNTS=1, which
# ubtune honours only in a mount namespace of its own: mounted by apply and
# unmounted by revert, also after a kill at any step; a change that fails
# rolls back the run. All mounts happen in a private mount namespace of
# this test.
. "$(dirname "$0")/mount-ns.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tune-fixture.sh"
WORK=$R/var/tmp/ubtune-work
# the namespace dies with this script; unmount first so that $T can go
trap 'umount -q "$WORK" "$R/proc/sys/vm/swappiness" "$R/proc/irq/34/smp_affinity_list" 2>/dev/null; rm -rf "$T"' EXIT

make_tune_root "$R"
make_tune_record "$T/rec.json"
cp -a "$R" "$T/pristine"
cat >"$T/tmpfs.profile" <<'P'
[cpu]
governor = performance
[sysctl]
vm.swappiness = 10
[workdir]
type = tmpfs
path = /var/tmp/ubtune-work
size = 16M
P
fstype() { awk -v p="$1" '$5 == p { t = $9 } END { print t }' /proc/self/mountinfo; }
mounts() { awk '{ print $5, $9 }' /proc/self/mountinfo | sort; }

# --root: planned, journaled, not mounted, and said so
mounts >"$T/mounts.before"
expect_exit 0 apply "$T/tmpfs.profile"
grep -q "^workdir .*tmpfs on /var/tmp/ubtune-work, size=16M .*none .*-> tmpfs" "$T/stdout" ||
	fail "no mount in the plan: $(cat "$T/stdout")"
grep -q "tmpfs on /var/tmp/ubtune-work, size=16M: none -> tmpfs journaled, not carried out: with --root, apply changes files of the root only and mounts nothing" "$T/stderr" ||
	fail "apply does not say the tmpfs was not mounted: $(cat "$T/stderr")"
grep -q "ubtune revert --root $R" "$T/stdout" || fail "the hint lacks --root: $(cat "$T/stdout")"
grep -q '"kind":"mount"' "$STATE/journal" || fail "the mount is not journaled"
mounts | cmp -s - "$T/mounts.before" || fail "apply --root mounted something: $(mounts | diff "$T/mounts.before" -)"
[ "$(cat "$CPUFREQ/policy0/scaling_governor")" = performance ] || fail "the files were not changed"
expect_exit 0 "$UBTUNE" status --root "$R" --json
json_get "$T/stdout" '(d["drifted"], [k["kind"] for k in d["knobs"] if k["kind"] == "mount"])' | grep -qx "(0, \[\])" ||
	fail "status checks the mount that was not made: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" revert --root "$R"
grep -q "already   tmpfs on /var/tmp/ubtune-work" "$T/stdout" || fail "revert: $(cat "$T/stdout")"
mounts | cmp -s - "$T/mounts.before" || fail "revert --root changed the mounts"
same_as_pristine "apply --root with a tmpfs workdir, revert"
[ ! -e "$STATE" ] || fail "revert left the state directory it made: $(ls -la "$STATE")"

# the mount code, in this namespace only
export UBTUNE_TEST_ROOT_MOUNTS=$UBTUNE_IN_MOUNT_NS
expect_exit 0 apply "$T/tmpfs.profile"
grep -q "^workdir .*tmpfs on /var/tmp/ubtune-work, size=16M .*none .*-> tmpfs" "$T/stdout" ||
	fail "no mount in the plan: $(cat "$T/stdout")"
[ "$(fstype "$WORK")" = tmpfs ] || fail "no tmpfs mounted on $WORK"
grep " $WORK " /proc/self/mountinfo | grep -q "size=16384k" || fail "tmpfs size not 16M: $(grep " $WORK " /proc/self/mountinfo)"
[ "$(stat -c %a "$WORK")" = 1777 ] || fail "the tmpfs is not mode 1777"
expect_exit 0 "$UBTUNE" status --root "$R"
grep -q "ok       tmpfs on /var/tmp/ubtune-work" "$T/stdout" || fail "status: $(cat "$T/stdout")"
expect_exit 0 apply "$T/tmpfs.profile"
grep -q "Nothing to change" "$T/stdout" || fail "re-apply remounts: $(cat "$T/stdout")"
umount "$WORK"
expect_exit 3 "$UBTUNE" status --root "$R"
grep -q "drifted  tmpfs on /var/tmp/ubtune-work.*: tmpfs, now none" "$T/stdout" || fail "status: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" revert --root "$R"
[ -z "$(fstype "$WORK")" ] || fail "still mounted after revert"
same_as_pristine "tmpfs apply, revert"

# revert unmounts and removes the mount point after a kill at any step
expect_exit 0 apply --dry-run "$T/tmpfs.profile"
steps=$((2 * $(grep -cE '^(cpu|sysctl|workdir) ' "$T/stdout")))
[ "$steps" -eq 10 ] || fail "expected 5 planned changes: $(cat "$T/stdout")"
for k in $(seq 1 "$steps"); do
	UBTUNE_FAULT_AT=$k apply "$T/tmpfs.profile" >/dev/null 2>&1
	[ $? -eq 137 ] || fail "apply with UBTUNE_FAULT_AT=$k was not killed"
	expect_exit 0 "$UBTUNE" revert --root "$R"
	[ -z "$(fstype "$WORK")" ] || fail "killed at step $k: still mounted after revert"
	same_as_pristine "killed at step $k of $steps"
done

# a change the kernel refuses (a read-only file) rolls back what the run did
mount --bind "$R/proc/sys/vm/swappiness" "$R/proc/sys/vm/swappiness"
mount -o remount,bind,ro "$R/proc/sys/vm/swappiness"
expect_exit 1 apply "$T/tmpfs.profile"
grep -q "vm.swappiness: cannot set '10' (/proc/sys/vm/swappiness): Read-only file system" "$T/stderr" ||
	fail "failure message: $(cat "$T/stderr")"
grep -q "rolled back 2 changes of this run" "$T/stderr" || fail "rollback message: $(cat "$T/stderr")"
umount "$R/proc/sys/vm/swappiness"
[ -z "$(fstype "$WORK")" ] || fail "mounted after a failed apply"
same_as_pristine "failed apply"

# an IRQ whose affinity the kernel refuses (managed IRQs answer EIO; here a
# read-only file) is reported and left alone; the rest is applied
make_tune_profile "$T/t.profile"
mount --bind "$R/proc/irq/34/smp_affinity_list" "$R/proc/irq/34/smp_affinity_list"
mount -o remount,bind,ro "$R/proc/irq/34/smp_affinity_list"
expect_exit 0 apply "$T/t.profile"
grep -q "warning: IRQ 34 (ahci) affinity: the kernel refused '4-7' (Read-only file system); left as it is" \
	"$T/stderr" || fail "refused IRQ: $(cat "$T/stderr")"
[ "$(cat "$R/proc/irq/33/smp_affinity_list")" = 4-7 ] || fail "IRQ 33 not moved"
expect_exit 0 "$UBTUNE" status --root "$R" --json
json_get "$T/stdout" '(d["drifted"] == 0 and not any("IRQ 34" in k["what"] for k in d["knobs"]))' | grep -q True ||
	fail "status lists the refused IRQ: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" revert --root "$R"
umount "$R/proc/irq/34/smp_affinity_list"
same_as_pristine "refused IRQ"

# a symlink where the mount point should be is refused (mount(2) would follow it)
ln -s ../../etc "$WORK"
expect_exit 1 apply "$T/tmpfs.profile"
grep -q "workdir: /var/tmp/ubtune-work: not a directory" "$T/stdout" || fail "symlinked mount point: $(cat "$T/stdout")"
rm "$WORK"

# an occupied mount point is refused before anything changes
mkdir -p "$WORK" && touch "$WORK/data"
expect_exit 1 apply "$T/tmpfs.profile"
grep -q "/var/tmp/ubtune-work is not empty: a tmpfs would hide its files" "$T/stdout" ||
	fail "non-empty mount point: $(cat "$T/stdout")"
[ "$(cat "$CPUFREQ/policy0/scaling_governor")" = ondemand ] || fail "a refused plan changed something"
pass
