#!/bin/bash
# apply --root DIR stays inside DIR. Two hostile dumps point their var,
# etc, tmp and sys/... entries at a canary directory of this machine:
#   links: the symlinks lead nowhere inside the dump (tmp is one of them,
#          so every absolute target below /tmp loops): nothing can be
#          tuned, and nothing may be written through them;
#   mirror: the same absolute targets exist inside the dump (its tmp is a
#          real directory holding them), so everything is tuned, inside.
# The dump's init scripts would touch a canary file. Every shipped profile
# and one with every kind of change are dry-run, applied, checked and
# reverted on both: the canary never changes (names, types, sizes, times,
# bytes), no script runs, nothing is mounted, and after revert the mirror
# dump is byte for byte as it was, without the state directory apply made.
# Runs in a private mount namespace, so that a mount, were one made, would
# stay in it (and show in its mountinfo).
if [ -z "${UBTUNE_IN_MOUNT_NS:-}" ]; then
	if ! unshare -m --propagation private true 2>/dev/null; then
		echo "skipped: unshare -m is not permitted here (it needs root or user namespaces)"
		exit 77
	fi
	UBTUNE_IN_MOUNT_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tune-fixture.sh"
# services only through a dump's own files: never a bus of this machine
unset DBUS_SYSTEM_BUS_ADDRESS UBTUNE_TEST_ROOT_MOUNTS UBTUNE_STATE_DIR

C=$T/canary
CF=sys/devices/system/cpu/cpufreq
mkdir -p "$C/var/lib" "$C/var/tmp" "$C/var/run" "$C/etc/init.d" "$C/tmp" "$C/proc/sys/vm" "$C/$CF/policy0"
echo canary >"$C/$CF/policy0/scaling_governor"
echo "conservative ondemand performance" >"$C/$CF/policy0/scaling_available_governors"
echo 0-3 >"$C/$CF/policy0/related_cpus"
echo 77 >"$C/proc/sys/vm/swappiness"
echo 999 >"$C/var/run/spyd.pid"
# what the dump's init script would do, were it run
spy_script() {
	cat <<EOF
#!/bin/sh
touch "$C/touched"
touch "\${0%/etc/init.d/*}/touched"
case "\$1" in
status) exit 0 ;;
stop) start-stop-daemon -K -q -p /var/run/spyd.pid -x /usr/sbin/spyd ;;
esac
EOF
}
spy_script >"$C/etc/init.d/S50spy"
chmod 755 "$C/etc/init.d/S50spy"
snapshot() { # the canary as ls -R and sha256sum would see it, times included
	(cd "$C" && find . -printf '%p %y %m %s %T@ %l\n' | LC_ALL=C sort &&
		find . -type f -exec sha256sum {} + | LC_ALL=C sort)
}
snapshot >"$T/canary.before"
mounts() { awk '{ print $5, $9 }' /proc/self/mountinfo | LC_ALL=C sort; }
mounts >"$T/mounts.before"

# links: var, etc, tmp and parts of sys and proc/sys are links to the canary
L=$T/links
make_tune_root "$L"
for d in var etc tmp $CF proc/sys/vm; do
	rm -rf "${L:?}/$d"
	ln -s "$C/$d" "$L/$d"
done
add_processes() { # ROOT: init and the spy daemon, as the kernel shows them
	local pid comm
	for pid in 1:init 999:spyd; do
		comm=${pid#*:} pid=${pid%:*}
		mkdir -p "$1/proc/$pid"
		echo "$comm" >"$1/proc/$pid/comm"
		echo "$pid ($comm) S 1 $pid $pid 0 -1 4194560 0 0 0 0 0 1 0 0 20 0 1 0 900 2736128 139 0" >"$1/proc/$pid/stat"
	done
}
add_processes "$L"

# mirror: the same links, and inside the dump what they name
M=$T/mirror
make_tune_root "$M"
mkdir -p "$M$C" "$M/etc/init.d" "$M/var/run"
add_processes "$M"
echo 999 >"$M/var/run/spyd.pid"
spy_script >"$M/etc/init.d/S50spy"
chmod 755 "$M/etc/init.d/S50spy"
for d in var etc $CF proc/sys/vm; do
	mkdir -p "$(dirname "$M$C/$d")"
	mv "$M/$d" "$M$C/$d"
	ln -s "$C/$d" "$M/$d"
done
[ "$(cat "$M/$CF/policy0/scaling_governor")" = canary ] ||
	fail "on this machine the mirror's links do not lead to the canary"
cp -a "$M" "$T/mirror.pristine"

cat >"$T/every.profile" <<'P'
[profile]
description = every kind of change
[services]
stop = spy
[cpu]
governor = performance
[io]
scheduler = bfq
[sysctl]
vm.swappiness = 10
[irq]
storage-affinity = device-node
[workdir]
type = tmpfs
path = /var/tmp/ubtune-work
size = 16M
P

check_canary() {
	snapshot | cmp -s - "$T/canary.before" ||
		fail "$1: the canary changed: $(snapshot | diff "$T/canary.before" - | head -n 20)"
	mounts | cmp -s - "$T/mounts.before" || fail "$1: mounts changed: $(mounts | diff "$T/mounts.before" - | head)"
	local t
	for t in "$C/touched" "$L/touched" "$M/touched" "$M$C/touched"; do
		[ ! -e "$t" ] || fail "$1: a script of the dump ran ($t)"
	done
}

tried=0
for p in "$SRCDIR"/profiles/*.profile "$T/every.profile"; do
	name=$(basename "$p" .profile)
	for root in "$L" "$M"; do
		what="$name on $(basename "$root")"
		"$UBTUNE" apply --dry-run --root "$root" "$p" >"$T/stdout" 2>"$T/stderr"
		rc=$?
		[ $rc -le 1 ] || fail "apply --dry-run $what exited $rc: $(cat "$T/stderr")"
		check_canary "apply --dry-run $what"
		"$UBTUNE" apply --root "$root" "$p" >"$T/stdout" 2>"$T/stderr"
		rc=$?
		[ $rc -le 1 ] || fail "apply $what exited $rc: $(cat "$T/stderr")"
		check_canary "apply $what"
		if [ $rc -eq 0 ] && grep -q "^Applied" "$T/stdout"; then
			grep -qF "\`ubtune revert --root $root\`" "$T/stdout" || fail "apply $what: the hint lacks --root: $(cat "$T/stdout")"
		fi
		"$UBTUNE" status --root "$root" >"$T/stdout" 2>"$T/stderr"
		rc=$?
		[ $rc -le 1 ] || [ $rc -eq 3 ] || fail "status $what exited $rc: $(cat "$T/stderr")"
		# the links dump has no state directory that could be reached
		"$UBTUNE" revert --root "$root" >"$T/stdout" 2>"$T/stderr"
		rc=$?
		[ $rc -eq 0 ] || { [ "$root" = "$L" ] && [ $rc -eq 1 ]; } || fail "revert $what exited $rc: $(cat "$T/stderr")"
		check_canary "revert $what"
		tried=$((tried + 1))
	done
	diff -r --no-dereference "$T/mirror.pristine" "$M" >"$T/diff" ||
		fail "$name: after revert the mirror dump differs: $(head -c 600 "$T/diff")"
done

# the mirror is really tuned, inside: the every-kind profile changed its files
expect_exit 0 "$UBTUNE" apply --root "$M" "$T/every.profile"
[ "$(cat "$M$C/$CF/policy0/scaling_governor")" = performance ] ||
	fail "the mirror's governor was not set"
[ "$(cat "$M$C/proc/sys/vm/swappiness")" = 10 ] || fail "the mirror's swappiness was not set"
[ -d "$M$C/var/tmp/ubtune-work" ] && [ -f "$M$C/var/lib/ubtune/journal" ] || fail "the workdir or journal is not in the mirror"
grep -q "spy: active -> inactive journaled, not carried out" "$T/stderr" || fail "the stop: $(cat "$T/stdout" "$T/stderr")"
grep -q "tmpfs on /var/tmp/ubtune-work, size=16M: none -> tmpfs journaled, not carried out" "$T/stderr" ||
	fail "the mount: $(cat "$T/stderr")"
check_canary "apply every kind on the mirror"
expect_exit 0 "$UBTUNE" revert --root "$M"
check_canary "revert every kind on the mirror"
diff -r --no-dereference "$T/mirror.pristine" "$M" >"$T/diff" ||
	fail "after revert the mirror dump differs: $(head -c 600 "$T/diff")"
echo "$tried profile runs on hostile dumps, no canary changed"
pass
