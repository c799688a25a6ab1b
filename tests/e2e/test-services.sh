#!/bin/bash
# The services area against a mock systemd on a private bus, and the
# "Services"/"Busy" lines of the text report on synthetic dumps.
. "$(dirname "$0")/lib.sh"
# the report unwrapped, a line per area, for the lines checked below
export COLUMNS=1000

# the dumps: Services and Busy lines (every build)
dumps() {
	"$UBTUNE" probe --root "$PARTIAL/busybox-board-noisy" >"$T/board" || fail "probe of busybox-board-noisy failed"
	grep -q '^Services  init busybox (not systemd) · running: irqbalance, cupsd, thermald (protective), Xorg$' "$T/board" ||
		fail "Services line: $(grep '^Services' "$T/board")"
	grep -q '^Busy      2 runnable besides ubtune · CPU share since start: stress-ng 98.0 % (pid 500), Xorg 8.0 % (pid 400)$' "$T/board" ||
		fail "Busy line: $(grep '^Busy' "$T/board")"
	"$UBTUNE" probe --root "$PARTIAL/systemd-desktop" --strict >"$T/desktop"
	[ $? -eq 3 ] || fail "--strict does not fail on noisy services"
	grep -q '^Services  systemd, default target graphical.target · running: avahi-daemon, cups, gdm3' "$T/desktop" ||
		fail "Services line: $(grep '^Services' "$T/desktop")"
}

# without libsystemd the probe asks no bus, says why, and finds noise by process
if ! built_with systemd; then
	DBUS_SYSTEM_BUS_ADDRESS=unix:path=$T/no-such-bus "$UBTUNE" probe --json --workdir /tmp >"$T/min.json" ||
		fail "probe without libsystemd failed"
	[ "$(json_get "$T/min.json" "d['services']['available']")" = False ] || fail "services available without libsystemd"
	json_get "$T/min.json" "[u['reason'] for u in d['unavailable'] if u['area'] == 'services']" |
		grep -q "unit states: this ubtune is built without libsystemd" || fail "no reason given: $(cat "$T/min.json")"
	dumps
	pass
fi

# the mock's private directory goes under $T, where its removal can be checked
mkdir -p "$T/tmp"
MOCK="env TMPDIR=$T/tmp $PY $SRCDIR/tests/lib/mock-systemd.py"
$MOCK --default-target graphical.target \
	--unit cups.service=active/running --unit avahi-daemon.service=active/running \
	--unit cups-browsed.service=inactive/dead --unit gdm3.service=active/running \
	--unit thermald.service=active/running --unit ssh.service=active/running \
	-- "$UBTUNE" probe --json --workdir /tmp >"$T/rec.json"
rc=$?
[ $rc -eq 77 ] && skip "no dbus-daemon or python3-dbusmock"
[ $rc -eq 0 ] || fail "probe with the mock bus exited $rc"
$PY "$SRCDIR/tests/e2e/check-contract.py" "$T/rec.json" || fail "record breaks the contract"
[ "$(json_get "$T/rec.json" "d['services']['default_target']")" = graphical.target ] ||
	fail "default target not from the bus"
units=$(json_get "$T/rec.json" "' '.join(e['unit'] for e in d['services']['noisy'] if e['source'] == 'unit')")
[ "$units" = "avahi-daemon.service cups.service gdm3.service thermald.service" ] ||
	fail "noisy units from the bus: '$units'"
json_get "$T/rec.json" "[f['id'] for f in d['findings']]" | grep -q "services.graphical-target" ||
	fail "no graphical-target finding"
[ -z "$(ls -A "$T/tmp")" ] || fail "the mock left its temp directory behind: $(ls "$T/tmp")"

# the text report against the same mock
$MOCK --default-target multi-user.target --unit irqbalance.service=active/running \
	-- "$UBTUNE" probe --workdir /tmp >"$T/text" || fail "text probe with the mock bus failed"
grep -q '^Services  systemd, default target multi-user.target · running: irqbalance' "$T/text" ||
	fail "Services line: $(grep '^Services' "$T/text")"

# no bus at the named address: the probe still works and says why
DBUS_SYSTEM_BUS_ADDRESS=unix:path=$T/no-such-bus "$UBTUNE" probe --json --workdir /tmp >"$T/nobus.json" ||
	fail "probe without a bus failed"
[ "$(json_get "$T/nobus.json" "d['services']['available']")" = False ] || fail "services available without a bus"
json_get "$T/nobus.json" "[u['reason'] for u in d['unavailable'] if u['area'] == 'services']" | grep -q "system bus" ||
	fail "no reason given for the missing bus"

dumps
pass
