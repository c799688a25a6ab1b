#!/bin/bash
# Services through systemd, against a mock systemd on a private D-Bus: apply
# stops the running units the profile names, revert starts exactly those
# again (also after a kill at any step); units that were not running stay so.
. "$(dirname "$0")/lib.sh"
# the plan unwrapped, an entry a line, for the lines checked below
export COLUMNS=1000
. "$(dirname "$0")/tune-fixture.sh"
MOCK="$SRCDIR/tests/lib/mock-systemd.py"

if [ "${1:-}" != inner ]; then
	"$PY" "$MOCK" --default-target graphical.target \
		--unit irqbalance.service=active --unit cups.service=active --unit cups.socket=active \
		--unit cups-browsed.service=inactive --unit gdm.service=inactive \
		--unit plymouth-quit-wait.service=active/exited --unit ssh.service=active \
		--unit multi-user.target=active --unit graphical.target=active \
		-- bash "$0" inner
	exit $?
fi

make_tune_root "$R"
make_tune_record "$T/rec.json"
cp -a "$R" "$T/pristine"
cat >"$T/svc.profile" <<'P'
[services]
stop = irqbalance cups* gdm plymouth-* notinstalled
default-target = multi-user.target
[sysctl]
vm.swappiness = 10
P

# without libsystemd even a named bus is not used: the plan says why and the rest goes on
if ! built_with systemd; then
	expect_exit 0 apply "$T/svc.profile"
	grep -q "services: not stopped (with --root, .*systemd: no system bus (built without libsystemd)" "$T/stdout" ||
		fail "no note about services: $(cat "$T/stdout")"
	[ "$(cat "$R/proc/sys/vm/swappiness")" = 10 ] || fail "the sysctl was not applied"
	expect_exit 0 "$UBTUNE" revert --root "$R"
	same_as_pristine "apply without libsystemd"
	pass
fi

# the units this test cares about
unit_states() {
	mock_unit_states irqbalance.service cups.service cups.socket cups-browsed.service gdm.service \
		plymouth-quit-wait.service ssh.service
}
mock_job_result() { # UNIT RESULT: how the mock ends that unit's next jobs
	"$PY" -c "import dbus, dbus.bus, os, sys
bus = dbus.bus.BusConnection(os.environ['DBUS_SYSTEM_BUS_ADDRESS'])
dbus.Interface(bus.get_object('org.freedesktop.systemd1', '/org/freedesktop/systemd1'),
               'org.freedesktop.DBus.Mock').SetMockJobResult(sys.argv[1], sys.argv[2])" "$1" "$2"
}

before=$(unit_states)
[ "$before" = "irqbalance.service=active cups.service=active cups.socket=active cups-browsed.service=inactive gdm.service=inactive plymouth-quit-wait.service=active ssh.service=active default=graphical.target" ] ||
	fail "the mock did not start as asked: $before"

# the plan: running units stopped, the others noted; default target only with --persistent
expect_exit 0 apply --dry-run "$T/svc.profile"
for u in irqbalance.service cups.service cups.socket plymouth-quit-wait.service; do
	grep -q "^services .*$u .*active .*-> inactive .*\[services\] stop (svc.profile:2)" "$T/stdout" ||
		fail "the plan does not stop $u: $(cat "$T/stdout")"
done
grep -q "cups-browsed.service: inactive" "$T/stdout" || fail "inactive unit not listed as already so"
grep -q "services not present here: notinstalled" "$T/stdout" || fail "missing unit not reported"
grep -q "default target multi-user.target not set: .* needs --persistent" "$T/stdout" || fail "default target: $(cat "$T/stdout")"
expect_exit 0 apply --dry-run --persistent "$T/svc.profile"
grep -q "^services .*default target .*graphical.target .*-> multi-user.target" "$T/stdout" || fail "no default target"
[ "$(unit_states)" = "$before" ] || fail "--dry-run changed units"

expect_exit 0 apply --persistent "$T/svc.profile"
[ "$(unit_states)" = "irqbalance.service=inactive cups.service=inactive cups.socket=inactive cups-browsed.service=inactive gdm.service=inactive plymouth-quit-wait.service=inactive ssh.service=active default=multi-user.target" ] ||
	fail "after apply: $(unit_states)"
expect_exit 0 "$UBTUNE" status --root "$R" --json
json_get "$T/stdout" '(d["drifted"] == 0 and sum(k["kind"] == "service" for k in d["knobs"]) == 6)' | grep -q True ||
	fail "status: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" revert --root "$R"
grep -q "restored  irqbalance.service: inactive -> active" "$T/stdout" || fail "revert: $(cat "$T/stdout")"
[ "$(unit_states)" = "$before" ] || fail "after revert: $(unit_states)"
same_as_pristine "services apply, revert"

# killed at any step: revert starts exactly what was running before
expect_exit 0 apply --dry-run --persistent "$T/svc.profile"
steps=$((2 * $(grep -cE '^(services|sysctl) ' "$T/stdout")))
for k in $(seq 1 "$steps"); do
	UBTUNE_FAULT_AT=$k apply --persistent "$T/svc.profile" >/dev/null 2>&1
	[ $? -eq 137 ] || fail "apply with UBTUNE_FAULT_AT=$k was not killed"
	expect_exit 0 "$UBTUNE" revert --root "$R"
	[ "$(unit_states)" = "$before" ] || fail "killed at step $k, after revert: $(unit_states)"
	same_as_pristine "killed at step $k of $steps"
done

# a unit that fails to stop: the run is rolled back and systemd's answer
# shown; what cannot be started again stays in the journal for revert
mock_job_result cups.socket failed
expect_exit 1 apply "$T/svc.profile"
grep -q "cups.socket: cannot set 'inactive' (cups.socket): the job for cups.socket ended with result 'failed'" \
	"$T/stderr" || fail "failure: $(cat "$T/stderr")"
grep -q "rolled back 1 change of this run" "$T/stderr" || fail "rollback: $(cat "$T/stderr")"
grep -q "cups.socket: cannot put back 'active'" "$T/stderr" || fail "rollback problem: $(cat "$T/stderr")"
[ "$(unit_states)" = "${before/cups.socket=active/cups.socket=failed}" ] || fail "after a failed apply: $(unit_states)"
mock_job_result cups.socket done
expect_exit 0 "$UBTUNE" revert --root "$R"
[ "$(unit_states)" = "$before" ] || fail "revert after a failed apply: $(unit_states)"
same_as_pristine "failed apply, revert"

# without a service manager the other changes go on, and the plan says so
env -u DBUS_SYSTEM_BUS_ADDRESS "$UBTUNE" apply --root "$R" --record "$T/rec.json" "$T/svc.profile" >"$T/stdout" 2>&1 ||
	fail "apply without a bus failed: $(cat "$T/stdout")"
grep -q "services: not stopped (with --root, services are handled only on a bus named by DBUS_SYSTEM_BUS_ADDRESS" \
	"$T/stdout" || fail "no note about services: $(cat "$T/stdout")"
[ "$(cat "$R/proc/sys/vm/swappiness")" = 10 ] || fail "the sysctl was not applied"
[ "$(unit_states)" = "$before" ] || fail "units changed without a bus: $(unit_states)"
expect_exit 0 "$UBTUNE" revert --root "$R"
same_as_pristine "apply without services"
pass
