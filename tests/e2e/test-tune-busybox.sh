#!/bin/bash
# Services of a busybox board without systemd. With --root DIR the root's
# scripts are never run: the plan reads which daemons run from the dump's
# pidfiles and /proc, and apply journals the stops without making them. On
# the board itself (here: ubtune chrooted into the root, in a private mount
# and PID namespace) apply runs its /etc/init.d scripts to stop the running
# services the profile names, revert starts exactly those again. The root
# is a writable copy of the buildroot fixture rk3568-emmc-el2 with its
# scripts unchanged but for one line that records each call in the root,
# and a stand-in start-stop-daemon in its /sbin that makes processes come
# and go by moving the root's /proc/PID entries.
. "$(dirname "$0")/chroot-lib.sh"
enter_namespaces "$0" "$@"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/chroot-lib.sh"
# the plan unwrapped, an entry a line, for the lines checked below
export COLUMNS=1000

R=$T/root
STATE=$R/var/lib/ubtune
CALLS=$R/var/log/init-calls
cp -a "$FIXTURES/rk3568-emmc-el2" "$R"
mkdir -p "$R/var/run" "$R/var/log" "$R/var/lib" "$R/sbin"

# the running daemons wrote their pidfiles (start-stop-daemon -m)
for p in syslogd:312 klogd:316 udevd:335 dbus-daemon:402 dropbear:431 weston:467; do
	echo "${p#*:}" >"$R/var/run/${p%:*}.pid"
done
# a daemon of the root: /proc/PID/{stat,comm} like the fixture's own
add_process() { # PID COMM
	mkdir -p "$R/proc/$1"
	echo "$1 ($2) S 1 $1 $1 0 -1 4194560 0 0 0 0 0 1 0 0 20 0 1 0 900 2736128 139 0" >"$R/proc/$1/stat"
	echo "$2" >"$R/proc/$1/comm"
}

cat >"$R/sbin/start-stop-daemon" <<'EOF'
#!/bin/sh
# Stands in for busybox start-stop-daemon in a test root: -K moves the
# pidfile's /proc/PID entry aside (the process ends), -S moves the entry of
# the -x program back and writes the pidfile (-m). Nothing else is touched.
root=${0%/sbin/*}
mode= pidfile= exec=
while [ $# -gt 0 ]; do
	case "$1" in
	-S) mode=start ;;
	-K) mode=stop ;;
	-p) pidfile=$2; shift ;;
	-x) exec=${2##*/}; shift ;;
	--) break ;;
	esac
	shift
done
case $mode in
stop)
	pid=$(cat "$root$pidfile" 2>/dev/null)
	[ -n "$pid" ] && [ -d "$root/proc/$pid" ] || { echo "no process found"; exit 1; }
	mkdir -p "$root/var/lib/ended" && mv "$root/proc/$pid" "$root/var/lib/ended/"
	;;
start)
	for d in "$root"/var/lib/ended/*; do
		[ "$(cat "$d/comm" 2>/dev/null)" = "$exec" ] || continue
		mv "$d" "$root/proc/" && echo "${d##*/}" >"$root$pidfile"
		exit 0
	done
	exit 1
	;;
esac
EOF
chmod 755 "$R/sbin/start-stop-daemon"

# ntpd is installed but not running; collectd's stop fails; lighttpd's
# script is not executable; cron is a sysvinit script with a status verb
sed 's/syslogd/ntpd/g' "$R/etc/init.d/S01syslogd" >"$R/etc/init.d/S49ntpd"
add_process 480 collectd
cat >"$R/etc/init.d/S60collectd" <<'EOF'
#!/bin/sh
case "$1" in
  start)
	start-stop-daemon -S -q -b -m -p /var/run/collectd.pid -x collectd
	;;
  stop)
	printf "Stopping collectd: "
	echo "FAIL (still flushing to the network)"
	exit 1
	;;
esac
EOF
# slowd ends a second after its stop returns, as a daemon given SIGTERM does
add_process 485 slowd
echo 485 >"$R/var/run/slowd.pid"
cat >"$R/etc/init.d/S55slowd" <<'EOF'
#!/bin/sh
root=${0%/etc/init.d/*}
case "$1" in
  start)
	start-stop-daemon -S -q -m -p /var/run/slowd.pid -x slowd
	;;
  stop)
	mkdir -p "$root/var/lib/ended"
	(sleep 1; mv "$root/proc/485" "$root/var/lib/ended/") &
	;;
esac
EOF
add_process 490 lighttpd
sed 's/syslogd/lighttpd/g' "$R/etc/init.d/S01syslogd" >"$R/etc/init.d/S70lighttpd"
add_process 500 crond
echo 500 >"$R/var/run/crond.pid"
cat >"$R/etc/init.d/cron" <<'EOF'
#!/bin/sh
### BEGIN INIT INFO
# Provides:          cron
# Short-Description: Regular background program processing daemon
### END INIT INFO
DAEMON=/usr/sbin/crond
PIDFILE=/var/run/crond.pid
root=${0%/etc/init.d/*}
case "$1" in
start)
	start-stop-daemon -S -q -m -p $PIDFILE -x $DAEMON
	;;
stop)
	start-stop-daemon -K -q -p $PIDFILE
	;;
status)
	pid=$(cat "$root$PIDFILE" 2>/dev/null)
	if [ -n "$pid" ] && [ -d "$root/proc/$pid" ]; then
		echo "crond is running"
		exit 0
	fi
	echo "crond is not running"
	exit 3
	;;
esac
EOF
for s in "$R"/etc/init.d/S* "$R/etc/init.d/cron"; do
	[ "${s##*/}" = S70lighttpd ] && continue
	chmod 755 "$s"
	# each script records its calls: "dropbear stop"
	sed -i '1a echo "$(n=${0##*/}; case $n in S[0-9][0-9]*) n=${n#S??};; esac; echo $n) $1" >>"${0%/etc/init.d/*}/var/log/init-calls"' "$s"
done
: >"$CALLS"
cp -a "$R" "$T/pristine"

running() { # the daemons the root's /proc shows, sorted
	cat "$R"/proc/[0-9]*/comm | LC_ALL=C sort | tr '\n' ' '
}
calls() { # the stop and start calls of the scripts, in order
	grep -E ' (stop|start)$' "$CALLS" | tr '\n' ',' || true
}
same_as_pristine() {
	diff -r --no-dereference -x ubtune -x init-calls -x ended -x .host -x bin -x null "$T/pristine" "$R" >"$T/diff" ||
		fail "$1: the root differs from the original: $(head -c 600 "$T/diff")"
	[ ! -e "$STATE/journal" ] || fail "$1: the journal is still there"
}

cat >"$T/board.profile" <<'P'
[services]
stop = launcher dropbear S30dbus cron ntpd collectd slowd lighttpd udev* notinstalled
P
before=$(running)
[ "$before" = "collectd crond dbus-daemon dropbear init klogd ksoftirqd/0 kthreadd lighttpd rcu_preempt sh slowd syslogd ubtune udevd weston " ] ||
	fail "the root does not run what it should: $before"

# the probe lists the scripts and which daemons run, without running any
expect_exit 0 "$UBTUNE" probe --json --root "$R"
cp "$T/stdout" "$T/rec.json"
json_get "$T/stdout" '[(e["name"], e["daemon"], e["running"]) for e in d["services"]["init_scripts"]]' >"$T/scripts"
[ "$(cat "$T/scripts")" = "[('collectd', 'collectd', True), ('cron', 'crond', True), ('dbus', 'dbus-daemon', True), ('dropbear', 'dropbear', True), ('klogd', 'klogd', True), ('launcher', 'weston', True), ('lighttpd', 'lighttpd', True), ('ntpd', 'ntpd', False), ('slowd', 'slowd', True), ('syslogd', 'syslogd', True), ('udev', 'udevd', True)]" ] ||
	fail "probe lists the scripts as $(cat "$T/scripts")"
grep -q . "$CALLS" && fail "probe ran scripts: $(cat "$CALLS")"

# --root: the plan reads the states from the dump (cron's from its pidfile,
# its status verb is not run), apply journals the stops and runs nothing
expect_exit 0 "$UBTUNE" apply --dry-run --root "$R" "$T/board.profile"
for s in launcher dropbear dbus cron collectd slowd; do
	grep -q "^services .*$s .*active .*-> inactive .*\[services\] stop (board.profile:2)" "$T/stdout" ||
		fail "the plan does not stop $s: $(cat "$T/stdout")"
done
grep -q "ntpd: inactive" "$T/stdout" || fail "ntpd is not listed as not running: $(cat "$T/stdout")"
grep -q "services: not stopped: lighttpd: /etc/init.d/S70lighttpd is not an executable file" "$T/stdout" ||
	fail "the script that cannot run is not reported: $(cat "$T/stdout")"
grep -q "services: not stopped: udev: a boot script .*a glob never matches it" "$T/stdout" ||
	fail "the boot script a glob matched is not reported: $(cat "$T/stdout")"
grep -q "services not present here: notinstalled" "$T/stdout" || fail "missing service not reported"
grep -q . "$CALLS" && fail "the plan of a dump ran scripts: $(cat "$CALLS")"
expect_exit 0 "$UBTUNE" apply --root "$R" "$T/board.profile"
grep -q "dropbear: active -> inactive journaled, not carried out: with --root, the root's init scripts are never run" \
	"$T/stderr" || fail "apply does not say the stops were not made: $(cat "$T/stderr")"
grep -q . "$CALLS" && fail "apply --root ran scripts: $(cat "$CALLS")"
[ "$(running)" = "$before" ] || fail "apply --root changed processes: $(running)"
expect_exit 0 "$UBTUNE" status --root "$R" --json
json_get "$T/stdout" '(d["drifted"], [k["target"] for k in d["knobs"] if k["kind"] == "service"])' | grep -qx "(0, \['ntpd'\])" ||
	fail "status checks stops that were not made: $(json_get "$T/stdout" "d[\"knobs\"]")"
expect_exit 0 "$UBTUNE" revert --root "$R"
grep -q "already   launcher: active" "$T/stdout" || fail "revert: $(cat "$T/stdout")"
grep -q . "$CALLS" && fail "revert --root ran scripts: $(cat "$CALLS")"
same_as_pristine "apply --root, revert"
[ ! -e "$STATE" ] || fail "revert left the state directory it made"

# on the board itself
[ -z "$CHROOT_WHY" ] || skip "the board's own apply: $CHROOT_WHY"
chroot_prepare "$R" || fail "cannot prepare the chroot"
for f in board.profile rec.json; do
	cp "$T/$f" "$R/$f" && cp "$T/$f" "$T/pristine/$f"
done
apply_board() { in_chroot "$R" apply /board.profile "$@"; }

# the plan: running services stopped, the others noted; status asked only where there is one
expect_exit 0 apply_board --dry-run --record /rec.json
for s in launcher dropbear dbus cron collectd slowd; do
	grep -q "^services .*$s .*active .*-> inactive .*\[services\] stop (board.profile:2)" "$T/stdout" ||
		fail "the plan does not stop $s: $(cat "$T/stdout")"
done
grep -q "ntpd: inactive" "$T/stdout" || fail "ntpd is not listed as not running: $(cat "$T/stdout")"
[ "$(cat "$CALLS")" = "cron status" ] || fail "the plan ran more than cron's status: $(cat "$CALLS")"
[ "$(running)" = "$before" ] || fail "--dry-run changed processes"

# apply: collectd cannot be stopped, that is reported and the rest goes on;
# apply waits until slowd has ended
: >"$CALLS"
expect_exit 0 apply_board --record /rec.json
grep -q "collectd: cannot set 'inactive' (/etc/init.d/S60collectd stop exited with status 1: Stopping collectd: FAIL (still flushing to the network)); left as it is" \
	"$T/stderr" || fail "the failed stop is not reported: $(cat "$T/stderr")"
[ "$(calls)" = "collectd stop,cron stop,dbus stop,dropbear stop,launcher stop,slowd stop," ] || fail "apply called: $(calls)"
[ "$(running)" = "collectd init klogd ksoftirqd/0 kthreadd lighttpd rcu_preempt sh syslogd ubtune udevd " ] ||
	fail "after apply these run: $(running)"
expect_exit 0 in_chroot "$R" status --json
json_get "$T/stdout" '(d["drifted"], sorted(k["target"] for k in d["knobs"] if k["kind"] == "service"))' >"$T/status"
[ "$(cat "$T/status")" = "(0, ['cron', 'dbus', 'dropbear', 'launcher', 'ntpd', 'slowd'])" ] || fail "status: $(cat "$T/status")"

# revert starts exactly what apply stopped; collectd ran all along, ntpd never did
: >"$CALLS"
expect_exit 0 in_chroot "$R" revert
grep -q "restored  launcher: inactive -> active" "$T/stdout" || fail "revert: $(cat "$T/stdout")"
[ "$(calls)" = "slowd start,launcher start,dropbear start,dbus start,cron start," ] || fail "revert called: $(calls)"
[ "$(running)" = "$before" ] || fail "after revert: $(running)"
same_as_pristine "apply, revert"

# killed at any step: revert starts exactly what was running before
expect_exit 0 apply_board --dry-run --record /rec.json
steps=$((2 * $(grep -c '^services ' "$T/stdout")))
for k in $(seq 1 "$steps"); do
	UBTUNE_FAULT_AT=$k apply_board --record /rec.json >/dev/null 2>&1
	[ $? -eq 137 ] || fail "apply with UBTUNE_FAULT_AT=$k was not killed"
	expect_exit 0 in_chroot "$R" revert
	[ "$(running)" = "$before" ] || fail "killed at step $k, after revert: $(running)"
	same_as_pristine "killed at step $k of $steps"
done
pass
