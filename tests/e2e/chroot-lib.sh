# Sourced by tests that run ubtune on a test root as on its own live
# machine, where it runs the root's init scripts (with --root it never
# runs a dump's programs). Call enter_namespaces first thing: the script
# runs again in a private mount and PID namespace, so that nothing mounted
# or signalled reaches this machine. Then, after lib.sh:
#
#   chroot_prepare ROOT   this machine's /usr read-only at ROOT/.host/usr,
#                         $UBTUNE at ROOT/.host/ubtune, /dev/null, and a
#                         static busybox as the root's /bin/sh and tools
#   in_chroot ROOT ARG... runs ubtune ARG... chrooted into ROOT
#
# Needs a static busybox (busybox-static): the caller skips that part
# without it ($CHROOT_WHY says why).

enter_namespaces() { # "$0" "$@"
	[ -n "${UBTUNE_IN_NAMESPACES:-}" ] && return 0
	if ! unshare -m -p -f --propagation private true 2>/dev/null; then
		echo "skipped: unshare -m -p is not permitted here (it needs root)"
		exit 77
	fi
	UBTUNE_IN_NAMESPACES=1 exec unshare -m -p -f --propagation private bash "$@"
}

CHROOT_WHY=
BUSYBOX=$(command -v busybox 2>/dev/null)
if [ -z "$BUSYBOX" ] || ! file -L "$BUSYBOX" 2>/dev/null | grep -q "statically linked"; then
	CHROOT_WHY="no static busybox (busybox-static) for the root's /bin/sh"
elif [ "$(id -u)" -ne 0 ]; then
	CHROOT_WHY="chroot needs root"
fi
# ubtune's program interpreter, as seen from inside the root
LDSO=$(readelf -l "$UBTUNE" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')

chroot_prepare() {
	local r=$1 a
	mkdir -p "$r/.host/usr" "$r/dev" "$r/bin"
	# unmounted before $T is removed, which must never reach this machine's /usr
	trap 'umount -q "'"$r"'/.host/usr" "'"$r"'/.host/ubtune" "'"$r"'/dev/null"; rm -rf "$T"' EXIT
	mount --bind -o ro /usr "$r/.host/usr" || return 1
	if ! awk -v p="$r/.host/usr" '$5 == p && $6 ~ /^ro(,|$)/ { ok = 1 } END { exit !ok }' /proc/self/mountinfo; then
		umount "$r/.host/usr"
		echo "the bind mount of /usr is not read-only" >&2
		return 1
	fi
	: >"$r/.host/ubtune" && mount --bind "$UBTUNE" "$r/.host/ubtune" || return 1
	: >"$r/dev/null" && mount --bind /dev/null "$r/dev/null" || return 1
	rm -f "$r/bin/busybox" && cp "$BUSYBOX" "$r/bin/busybox"
	for a in sh cat mkdir mv rm sleep ls; do
		[ -e "$r/bin/$a" ] || ln -s busybox "$r/bin/$a"
	done
}

in_chroot() {
	local r=$1
	shift
	# inside the root, ubtune keeps its state where that machine would
	local -x UBTUNE_STATE_DIR= UBTUNE_CACHE_DIR=
	if [ -n "$LDSO" ]; then
		chroot "$r" "/.host$(readlink -f "$LDSO")" --library-path "/.host/usr/lib/$(gcc -dumpmachine):/.host/usr/lib" \
			/.host/ubtune "$@"
	else
		chroot "$r" /.host/ubtune "$@" # a static build
	fi
}
