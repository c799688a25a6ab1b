#!/bin/bash
# apply on this machine without root: the plan is shown, nothing is changed,
# and the error lists what would need root. Reads the machine, never writes.
. "$(dirname "$0")/lib.sh"
# the unprivileged user's own state directory, under HOME=$T
unset UBTUNE_STATE_DIR UBTUNE_CACHE_DIR

aslr=$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null) || skip "no /proc/sys/kernel/randomize_va_space"
want=$([ "$aslr" = 2 ] && echo 1 || echo 2)
printf '[sysctl]\nkernel.randomize_va_space = %s\n' "$want" >"$T/aslr.profile"
echo '{"schema": "ubtune.probe/1"}' >"$T/rec.json"
chmod 755 "$T"
chmod 644 "$T/aslr.profile" "$T/rec.json"
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null || skip "setpriv is missing (util-linux)"
	# setpriv itself execs the command: it may sit in a directory only root can
	# search (a checkout in a mktemp -d), the command still runs unprivileged
	as_user() { HOME="$T" setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	as_user() { HOME="$T" "$@"; }
fi

expect_exit 0 as_user "$UBTUNE" apply --dry-run --record "$T/rec.json" "$T/aslr.profile"
grep -q "^sysctl .*kernel.randomize_va_space .*$aslr .*-> $want" "$T/stdout" || fail "plan: $(cat "$T/stdout")"
expect_exit 1 as_user "$UBTUNE" apply --record "$T/rec.json" "$T/aslr.profile"
grep -q "apply changes this machine and needs root for:" "$T/stderr" || fail "no root error: $(cat "$T/stderr")"
grep -q "^  kernel.randomize_va_space: $aslr -> $want" "$T/stderr" || fail "the root error lacks the change: $(cat "$T/stderr")"
[ "$(cat /proc/sys/kernel/randomize_va_space)" = "$aslr" ] || fail "the machine was changed"
[ ! -e "$T/.local/share/ubtune/journal" ] || fail "a journal was written"
pass
