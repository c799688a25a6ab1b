# Sourced first by a test that mounts: runs the test again in a private
# mount namespace of its own (unshare -m), or skips it where that is not
# permitted. UBTUNE_IN_MOUNT_NS names the namespace the test started in,
# the one ubtune must leave alone (UBTUNE_TEST_ROOT_MOUNTS).
if [ -z "${UBTUNE_IN_MOUNT_NS:-}" ]; then
	if ! unshare -m --propagation private true 2>/dev/null; then
		echo "skipped: unshare -m is not permitted here (it needs root or user namespaces)"
		exit 77
	fi
	UBTUNE_IN_MOUNT_NS=$(stat -Lc %i /proc/self/ns/mnt) exec unshare -m --propagation private bash "$0" "$@"
fi
