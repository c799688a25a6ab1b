#!/bin/bash
# tools/install-deps with stand-ins for dpkg-query and apt-get (nothing is
# installed): nothing to do when all is there; while another package
# manager holds apt's lock it says so and tries again, and gives up after
# APT_LOCK_WAIT seconds with what to do; other apt errors fail at once.
. "$(dirname "$0")/lib.sh"

bin=$T/bin
mkdir -p "$bin"
# dpkg-query: the packages in $T/installed are installed
cat >"$bin/dpkg-query" <<'EOF'
#!/bin/sh
for p; do :; done
grep -qx "$p" "$STUB/installed" 2>/dev/null && printf 'install ok installed' || exit 1
EOF
# apt-get: "Could not get lock" while $T/locked counts down; logs its calls
cat >"$bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >>"$STUB/calls"
n=$(cat "$STUB/locked" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then
	echo $((n - 1)) >"$STUB/locked"
	echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (unattended-upgr)" >&2
	exit 100
fi
[ -e "$STUB/broken" ] && { echo "E: Unable to locate package nosuch" >&2; exit 100; }
exit 0
EOF
chmod +x "$bin/dpkg-query" "$bin/apt-get"
export STUB=$T PATH="$bin:$PATH" APT_LOCK_POLL=0.1
[ "$(id -u)" = 0 ] || skip "the stand-ins stand for root's apt-get (sudo would be asked)"

# all installed: no apt-get at all
printf 'gcc\nmake\n' >"$T/installed"
"$SRCDIR/tools/install-deps" gcc make >"$T/out" 2>&1 || fail "all installed: $(cat "$T/out")"
[ -e "$T/calls" ] && fail "apt-get ran with nothing missing: $(cat "$T/calls")"

# the lock held for three tries: a message, then the install
echo 3 >"$T/locked"
"$SRCDIR/tools/install-deps" gcc strace >"$T/out" 2>"$T/err" || fail "a held lock was not waited for: $(cat "$T/err")"
grep -q "install-deps: apt is busy (its lock is held by process 4242 (unattended-upgr)): waiting up to 600 s for it" "$T/err" ||
	fail "no message while waiting: $(cat "$T/err")"
[ "$(grep -c "waiting up to" "$T/err")" = 1 ] || fail "the message is repeated: $(cat "$T/err")"
grep -qx "apt-get install -y -q --no-install-recommends strace" "$T/calls" ||
	fail "the install did not run once the lock was free: $(cat "$T/calls")"

# held for longer than APT_LOCK_WAIT: gives up, saying what to do
rm -f "$T/calls"
echo 1000 >"$T/locked"
APT_LOCK_WAIT=0.3 "$SRCDIR/tools/install-deps" strace >"$T/out" 2>"$T/err" && fail "a lock held for ever was not given up"
grep -q "apt's lock is still held after 0.3 s; run again once the other package manager is done" "$T/err" ||
	fail "no reason given: $(cat "$T/err")"
[ "$(grep -c update "$T/calls")" -ge 3 ] && ! grep -q install "$T/calls" || fail "tries: $(cat "$T/calls")"

# another error: at once, apt's words shown
rm -f "$T/calls" "$T/locked"
touch "$T/broken"
"$SRCDIR/tools/install-deps" nosuch >"$T/out" 2>"$T/err" && fail "a failing apt-get was not a failure"
grep -q "Unable to locate package nosuch" "$T/err" || fail "apt's error is lost: $(cat "$T/err")"
grep -q "waiting" "$T/err" && fail "an error that is no lock was waited on"
pass
