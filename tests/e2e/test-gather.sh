#!/bin/bash
# gather, then probe --root of the archive: the same record as the one
# gathered (apart from generated_at and root), on this machine, as an
# unprivileged user, from dumps, and with unit states from a mock systemd.
# Hostile archives are refused.
. "$(dirname "$0")/lib.sh"

# same_record A B: the records agree apart from generated_at and root (and what
# probe's output adds to the record: the machine's expected score)
same_record() {
	$PY - "$1" "$2" <<'PYEOF' || fail "records differ: $1 $2"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("generated_at", None)
    d.pop("root", None)
    d.pop("expected", None)
def walk(x, y, path):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            walk(x.get(k), y.get(k), f"{path}.{k}")
    elif x != y:
        print(f"{path}: {json.dumps(x)[:200]} != {json.dumps(y)[:200]}", file=sys.stderr)
        walk.bad = True
walk.bad = False
walk(a, b, "")
sys.exit(1 if walk.bad else 0)
PYEOF
}

# round_trip NAME [gather args...]: gather, probe the archive, compare with its record.json
round_trip() {
	local name=$1
	shift
	"$UBTUNE" gather -o "$T/$name.tar.gz" "$@" 2>"$T/$name.err" || fail "gather $name: $(cat "$T/$name.err")"
	grep -q "^ubtune: gathered [0-9]* entries" "$T/$name.err" || fail "gather $name gave no summary: $(cat "$T/$name.err")"
	mkdir -p "$T/$name.x"
	tar -xzf "$T/$name.tar.gz" -C "$T/$name.x" || fail "the $name archive does not unpack with tar"
	"$UBTUNE" probe --json --root "$T/$name.tar.gz" >"$T/$name.json" || fail "probe --root $name.tar.gz failed"
	$PY "$SRCDIR/tests/e2e/check-contract.py" "$T/$name.json" || fail "record of $name.tar.gz breaks the contract"
	same_record "$T/$name.x/.ubtune/record.json" "$T/$name.json"
}

# without libarchive (a minimal build) gather and archive roots say so in one line
if ! built_with archive; then
	expect_exit 1 "$UBTUNE" gather -o "$T/x.tar.gz"
	[ "$(cat "$T/stderr")" = "ubtune: gather needs libarchive, and this ubtune is built without it" ] ||
		fail "gather without libarchive: $(cat "$T/stderr")"
	[ ! -e "$T/x.tar.gz" ] || fail "gather without libarchive wrote an archive"
	packed="$SRCDIR/tests/fixtures/real/util-linux-armv7.tar.gz"
	expect_exit 1 "$UBTUNE" probe --root "$packed"
	grep -q "^ubtune: $packed: reading an archive needs libarchive (this ubtune is built without it); unpack it with tar -xzf and pass the directory$" \
		"$T/stderr" || fail "probe of an archive without libarchive: $(cat "$T/stderr")"
	[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "error is not one line: $(cat "$T/stderr")"
	pass
fi

# archives are unpacked under $T/tmp, where their removal can be checked
mkdir -p "$T/tmp" && chmod 1777 "$T/tmp"
export TMPDIR=$T/tmp

# this machine
mkdir -p "$T/work"
round_trip live --workdir "$T/work"
grep -q "^workdir=$T/work$" "$T/live.x/.ubtune/gather" || fail "gather metadata lacks the workdir"
[ -d "$T/live.x$T/work" ] || fail "the workdir is not in the dump"
[ -L "$T/live.x/proc/self" ] || fail "/proc/self is not kept as a symlink"
grep -q '"root": "/"' "$T/live.x/.ubtune/record.json" || fail "the gathered record is not of the live root"
# the machine id stays on the machine: the dump has the id derived from it
if [ -s /etc/machine-id ]; then
	[ ! -e "$T/live.x/etc/machine-id" ] || fail "the dump carries /etc/machine-id"
	id=$(json_get "$T/live.json" 'd["host"]["machine_id"]')
	[ ${#id} = 32 ] && [ "$id" != "$(cat /etc/machine-id)" ] || fail "machine id of the dump: $id"
	grep -qx "machine-id=$id" "$T/live.x/.ubtune/gather" || fail "gather metadata lacks the machine's id"
fi
# probe of the unpacked directory agrees too
"$UBTUNE" probe --json --root "$T/live.x" >"$T/live-dir.json" || fail "probe of the unpacked archive failed"
same_record "$T/live.x/.ubtune/record.json" "$T/live-dir.json"

# unprivileged
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	mkdir -p "$T/nobody" && chown 65534:65534 "$T/nobody" && chmod 755 "$T"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$UBTUNE" gather -o "$T/nobody/n.tar.gz" \
		--workdir "$T/nobody" 2>"$T/nobody.err" || fail "gather as nobody failed: $(cat "$T/nobody.err")"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$UBTUNE" probe --json --root "$T/nobody/n.tar.gz" \
		>"$T/nobody.json" || fail "probe of the unprivileged archive failed"
	mkdir -p "$T/nobody.x" && tar -xzf "$T/nobody/n.tar.gz" -C "$T/nobody.x"
	same_record "$T/nobody.x/.ubtune/record.json" "$T/nobody.json"
fi

# dumps: the archive of a dump probes like the dump itself
for n in systemd-desktop busybox-board-noisy; do
	round_trip "$n" --root "$PARTIAL/$n"
	"$UBTUNE" probe --json --root "$PARTIAL/$n" >"$T/$n-dir.json" || fail "probe of $n failed"
	same_record "$T/$n-dir.json" "$T/$n.json"
done
cmp -s "$PARTIAL/systemd-desktop/proc/1500/stat" "$T/systemd-desktop.x/proc/1500/stat" ||
	fail "a file read is not kept byte for byte"
[ -e "$T/systemd-desktop.x/README.md" ] && fail "a file the probe never read was archived"
# a small real dump (unpacking thousands of files takes seconds on slow disks)
real="$SRCDIR/build/fixtures/util-linux-armv7"
if [ -d "$real" ]; then
	round_trip real --root "$real"
	"$UBTUNE" probe --json --root "$real" >"$T/real-dir.json" || fail "probe of $real failed"
	same_record "$T/real-dir.json" "$T/real.json"
	# a packed real dump (top directory inside) is read directly too
	packed="$SRCDIR/tests/fixtures/real/$(basename "$real").tar.gz"
	"$UBTUNE" probe --json --root "$packed" >"$T/packed.json" || fail "probe --root $packed failed"
	same_record "$T/real-dir.json" "$T/packed.json"
fi

# unit states from a mock systemd travel in the archive
$PY "$SRCDIR/tests/lib/mock-systemd.py" --default-target graphical.target --unit cups.service=active/running \
	--unit gdm3.service=active/running -- "$UBTUNE" gather -o "$T/mock.tar.gz" --workdir "$T/work" 2>"$T/mock.err"
rc=$?
if [ $rc -ne 77 ]; then
	[ $rc -eq 0 ] || fail "gather with the mock bus failed: $(cat "$T/mock.err")"
	mkdir -p "$T/mock.x" && tar -xzf "$T/mock.tar.gz" -C "$T/mock.x"
	grep -qx "default-target=graphical.target" "$T/mock.x/.ubtune/units" || fail "no default target in the unit states"
	grep -qx "gdm3.service loaded active running" "$T/mock.x/.ubtune/units" || fail "gdm3 missing from the unit states"
	"$UBTUNE" probe --json --root "$T/mock.tar.gz" >"$T/mock.json" || fail "probe of the mock archive failed"
	same_record "$T/mock.x/.ubtune/record.json" "$T/mock.json"
fi

# standard output, and the default name
"$UBTUNE" gather -o - --workdir "$T/work" 2>/dev/null | tar -tzf - >"$T/list" || fail "gather -o - is not a tar.gz"
grep -qx ".ubtune/record.json" "$T/list" || fail "gather -o - lacks the record"
(cd "$T/work" && "$UBTUNE" gather 2>/dev/null) || fail "gather with the default name failed"
ls "$T/work" | grep -Eq '^ubtune-gather-.+-[0-9]{8}-[0-9]{6}\.tar\.gz$' || fail "default name: $(ls "$T/work")"

# bad input: one-line errors, nothing left behind
expect_exit 1 "$UBTUNE" gather -o "$T/no/such/dir/x.tar.gz"
grep -q "cannot create $T/no/such/dir/x.tar.gz: No such file" "$T/stderr" || fail "unwritable output not named: $(cat "$T/stderr")"

# outputs that are not regular files: a device or a FIFO is written in
# place, a failed write leaves it as it was, what cannot take an archive is
# refused, and nothing but the archive's own temporary is ever removed
small="$PARTIAL/busybox-board-noisy"
"$UBTUNE" gather -o /dev/null --root "$small" 2>"$T/null.err" || fail "gather -o /dev/null: $(cat "$T/null.err")"
[ -c /dev/null ] || fail "gather -o /dev/null replaced /dev/null"
expect_exit 1 "$UBTUNE" gather -o /dev/full --root "$small"
grep -qx "ubtune: Failed to write /dev/full: No space left on device" "$T/stderr" ||
	fail "gather -o /dev/full: $(cat "$T/stderr")"
[ -c /dev/full ] || fail "a failed write removed /dev/full"
mkfifo "$T/pipe"
tar -tzf - <"$T/pipe" >"$T/pipe.list" &
"$UBTUNE" gather -o "$T/pipe" --root "$small" 2>"$T/pipe.err" || fail "gather -o FIFO: $(cat "$T/pipe.err")"
wait $! || fail "the archive written to a FIFO is not a tar.gz"
grep -qx ".ubtune/record.json" "$T/pipe.list" || fail "the archive through a FIFO lacks the record"
[ -p "$T/pipe" ] || fail "gather -o FIFO replaced the FIFO"
mkdir -p "$T/outdir"
expect_exit 2 "$UBTUNE" gather -o "$T/outdir" --root "$small"
grep -qx "ubtune: $T/outdir is a directory: output goes to a regular file, a FIFO or a character device" \
	"$T/stderr" || fail "gather -o DIR: $(cat "$T/stderr")"
[ -z "$(ls -A "$T/outdir")" ] || fail "a refused output left $(ls -A "$T/outdir")"
# a regular file whose new content cannot be written (past the file size
# limit: EFBIG) is left as it was, and no temporary beside it
mkdir -p "$T/keep" && echo old >"$T/keep/kept.tar.gz"
(ulimit -f 2 && trap '' XFSZ && exec "$UBTUNE" gather -o "$T/keep/kept.tar.gz" --root "$small") 2>"$T/stderr" &&
	fail "gather past the file size limit succeeded"
grep -q "File too large" "$T/stderr" || fail "gather past the file size limit: $(cat "$T/stderr")"
[ "$(cat "$T/keep/kept.tar.gz")" = old ] || fail "a failed gather changed the file it was to replace"
[ "$(ls -A "$T/keep")" = kept.tar.gz ] || fail "a failed gather left $(ls -A "$T/keep")"
echo "not an archive" >"$T/junk.tar.gz"
expect_exit 1 "$UBTUNE" probe --root "$T/junk.tar.gz"
grep -q "$T/junk.tar.gz: not a readable tar archive" "$T/stderr" || fail "junk archive: $(cat "$T/stderr")"
[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "error is not one line: $(cat "$T/stderr")"
mkdir -p "$T/outside"
$PY - "$T" <<'PYEOF'
import io, sys, tarfile
t = sys.argv[1]
def evil(name, entries):
    with tarfile.open(f"{t}/{name}.tar.gz", "w:gz") as tf:
        for e, data in entries:
            tf.addfile(e, io.BytesIO(data) if data else None)
def entry(name, **kw):
    i = tarfile.TarInfo(name)
    for k, v in kw.items():
        setattr(i, k, v)
    return i
evil("dotdot", [(entry("proc/../../outside/x", size=1), b"x")])
evil("absolute", [(entry(f"{t}/outside/y", size=1), b"y")])
evil("link", [(entry("proc", type=tarfile.SYMTYPE, linkname=f"{t}/outside"), None),
              (entry("proc/z", size=1), b"z")])
PYEOF
for a in dotdot absolute link; do
	expect_exit 1 "$UBTUNE" probe --root "$T/$a.tar.gz"
	[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "$a: error is not one line: $(cat "$T/stderr")"
done
[ -z "$(ls -A "$T/outside")" ] || fail "a hostile archive wrote outside: $(ls "$T/outside")"

# interrupted at any moment, probe of an archive leaves no unpacked copy: it
# dies of the signal before unpacking, or after removing what it unpacked
packed="$SRCDIR/tests/fixtures/real/util-linux-armv7.tar.gz"
for delay in 0.005 0.02 0.05 0.1 0.2 0.4; do
	for sig in INT TERM; do
		timeout -s $sig $delay "$UBTUNE" probe --json --root "$packed" >/dev/null 2>&1
		rc=$?
		[ $rc -eq 0 ] || [ $rc -eq 124 ] || fail "probe stopped by SIG$sig after $delay s exited $rc"
		[ -z "$(ls -A "$T/tmp")" ] || fail "SIG$sig after $delay s left $(ls "$T/tmp")"
	done
done
[ -z "$(ls -A "$T/tmp")" ] || fail "an unpacked archive was left behind: $(ls "$T/tmp")"
pass
