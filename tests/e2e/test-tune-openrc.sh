#!/bin/bash
# Services of an OpenRC machine. With --root DIR nothing of the dump runs:
# its services are its /etc/init.d scripts, those in run/openrc/started
# run, and apply journals the stops without making them. On the machine
# itself (here: ubtune chrooted into the root, in a private mount and PID
# namespace) apply asks its rc-service which services run and stops those
# the profile names; revert starts exactly those again. The root's
# rc-service is a stand-in that keeps the started services as files in
# run/openrc/started, as OpenRC does, and records every call in the root.
. "$(dirname "$0")/chroot-lib.sh"
enter_namespaces "$0" "$@"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/chroot-lib.sh"
. "$(dirname "$0")/tune-fixture.sh"
# the plan unwrapped, a row and its reason a line, for the lines checked below
export COLUMNS=1000

make_tune_root "$R"
make_tune_record "$T/rec.json"
CALLS=$R/var/log/rc-calls
mkdir -p "$R/proc/1" "$R/run/openrc/started" "$R/sbin" "$R/etc/init.d" "$R/var/log"
echo init >"$R/proc/1/comm"
for s in sshd:/usr/sbin/sshd cupsd:/usr/sbin/cupsd avahi-daemon:/usr/sbin/avahi-daemon \
	chronyd:/usr/sbin/chronyd ntpd:/usr/sbin/ntpd localmount:; do
	name=${s%%:*} command=${s#*:}
	{
		echo '#!/sbin/openrc-run'
		[ -n "$command" ] && printf 'command=%s\npidfile="/run/${RC_SVCNAME}.pid"\n' "$command"
		echo 'depend() { need localmount; }'
	} >"$R/etc/init.d/$name"
	chmod 755 "$R/etc/init.d/$name"
done
for s in sshd cupsd avahi-daemon chronyd localmount; do
	: >"$R/run/openrc/started/$s"
done
cat >"$R/sbin/rc-service" <<'EOF'
#!/bin/sh
# Stands in for OpenRC's rc-service in a test root: started services are
# files in run/openrc/started; every call is recorded in var/log/rc-calls.
root=${0%/sbin/rc-service}
echo "$*" >>"$root/var/log/rc-calls"
started=$root/run/openrc/started
case "$1" in
--list) ls "$root/etc/init.d"; exit 0 ;;
--exists) [ -f "$root/etc/init.d/$2" ]; exit ;;
-*) echo " * rc-service: unknown option $1"; exit 1 ;;
esac
[ -f "$root/etc/init.d/$1" ] || { echo " * rc-service: service \`$1' does not exist"; exit 1; }
case "$2" in
status)
	[ -e "$started/$1" ] && { echo " * status: started"; exit 0; }
	echo " * status: stopped"
	exit 3
	;;
stop)
	[ "$1" = chronyd ] && { echo " * ERROR: chronyd failed to stop"; exit 1; }
	rm -f "$started/$1"
	;;
start) : >"$started/$1" ;;
esac
EOF
chmod 755 "$R/sbin/rc-service"
: >"$CALLS"
cp -a "$R" "$T/pristine"

started() { ls "$R/run/openrc/started" | tr '\n' ' '; }
calls() { grep -E ' (stop|start)$' "$CALLS" | tr '\n' ',' || true; }
apply() { "$UBTUNE" apply --root "$R" --record "$T/rec.json" "$@"; }
cat >"$T/openrc.profile" <<'P'
[services]
stop = cupsd avahi-daemon.service chronyd ntpd local* notinstalled
[sysctl]
vm.swappiness = 10
P
before=$(started)

# the probe sees an OpenRC machine and lists its scripts as they read
expect_exit 0 "$UBTUNE" probe --json --root "$R" --workdir /var/tmp
[ "$(json_get "$T/stdout" 'd["host"]["init"]')" = openrc ] || fail "init: $(json_get "$T/stdout" 'd["host"]')"
json_get "$T/stdout" '[(e["name"], e["daemon"], e["pidfile"], e["running"]) for e in d["services"]["init_scripts"]][:2]' >"$T/scripts"
[ "$(cat "$T/scripts")" = "[('avahi-daemon', 'avahi-daemon', '/run/avahi-daemon.pid', True), ('chronyd', 'chronyd', '/run/chronyd.pid', True)]" ] ||
	fail "probe lists the scripts as $(cat "$T/scripts")"
[ "$(json_get "$T/stdout" '[e["name"] for e in d["services"]["init_scripts"] if not e["running"]]')" = "['ntpd']" ] ||
	fail "OpenRC's started services are not the running ones: $(cat "$T/stdout")"

# the plan in $T/stdout: the running services stopped, the others noted
check_plan() {
	for s in cupsd avahi-daemon chronyd; do
		grep -q "^services .*$s .*active .*-> inactive .*\[services\] stop (openrc.profile:2)" "$T/stdout" ||
			fail "the plan does not stop $s: $(cat "$T/stdout")"
	done
	grep -q "ntpd: inactive" "$T/stdout" || fail "ntpd is not listed as stopped: $(cat "$T/stdout")"
	grep -q "services: not stopped: localmount: a boot script" "$T/stdout" || fail "localmount: $(cat "$T/stdout")"
	grep -q "services not present here: notinstalled" "$T/stdout" || fail "missing service not reported"
}

# --root: the states come from run/openrc/started, nothing is run
expect_exit 0 apply --dry-run "$T/openrc.profile"
check_plan
expect_exit 0 apply "$T/openrc.profile"
grep -q "cupsd: active -> inactive journaled, not carried out: with --root, the root's init scripts are never run" \
	"$T/stderr" || fail "apply does not say the stops were not made: $(cat "$T/stderr")"
[ "$(cat "$R/proc/sys/vm/swappiness")" = 10 ] || fail "the sysctl was not applied"
expect_exit 0 "$UBTUNE" revert --root "$R"
grep -q "already   cupsd: active" "$T/stdout" || fail "revert: $(cat "$T/stdout")"
grep -q . "$CALLS" && fail "--root ran the root's rc-service: $(cat "$CALLS")"
[ "$(started)" = "$before" ] || fail "--root changed services: $(started)"
diff -r --no-dereference -x ubtune -x rc-calls "$T/pristine" "$R" >"$T/diff" ||
	fail "the root differs from the original: $(head -c 600 "$T/diff")"

# on the machine itself
[ -z "$CHROOT_WHY" ] || skip "the machine's own apply: $CHROOT_WHY"
chroot_prepare "$R" || fail "cannot prepare the chroot"
cp "$T/openrc.profile" "$T/rec.json" "$R/"
apply() { in_chroot "$R" apply --record /rec.json /openrc.profile "$@"; }
expect_exit 0 apply --dry-run
check_plan
grep -q -- "--list" "$CALLS" || fail "rc-service --list was not asked"
[ -z "$(calls)" ] && [ "$(started)" = "$before" ] || fail "--dry-run changed services: $(calls)"

# chronyd cannot be stopped: reported, and the rest (the sysctl too) goes on
expect_exit 0 apply
grep -q "chronyd: cannot set 'inactive' (/sbin/rc-service chronyd stop exited with status 1: \* ERROR: chronyd failed to stop)" \
	"$T/stderr" || fail "the failed stop is not reported: $(cat "$T/stderr")"
[ "$(calls)" = "avahi-daemon stop,chronyd stop,cupsd stop," ] || fail "apply called: $(calls)"
[ "$(started)" = "chronyd localmount sshd " ] || fail "after apply: $(started)"
[ "$(cat "$R/proc/sys/vm/swappiness")" = 10 ] || fail "the sysctl was not applied"

: >"$CALLS"
expect_exit 0 in_chroot "$R" revert
[ "$(calls)" = "cupsd start,avahi-daemon start," ] || fail "revert called: $(calls)"
grep -qx -- "--exists cupsd" "$CALLS" || fail "revert did not ask whether cupsd exists: $(cat "$CALLS")"
[ "$(started)" = "$before" ] || fail "after revert: $(started)"
grep -q "already   chronyd: active" "$T/stdout" || fail "revert: $(cat "$T/stdout")"
diff -r --no-dereference -x ubtune -x rc-calls -x .host -x bin -x dev -x openrc.profile -x rec.json "$T/pristine" "$R" >"$T/diff" ||
	fail "the root differs from the original: $(head -c 600 "$T/diff")"
pass
