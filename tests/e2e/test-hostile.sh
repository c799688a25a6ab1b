#!/bin/bash
# Hostile input, as a table: each row runs ubtune on one bad input and
# states the exit status and the error line it must give. For every row:
# no crash (no signal, no sanitizer report), no hang (a timeout), and
# nothing written (the state directory, the inputs, in the directory it
# runs in, and the temporary directory are the same before and after).
. "$(dirname "$0")/lib.sh"
# every message on one line, as the table matches them
export COLUMNS=400
# services only through a dump's files, never a bus of this machine
unset DBUS_SYSTEM_BUS_ADDRESS UBTUNE_TEST_ROOT_MOUNTS
IN=$T/in
mkdir -p "$IN" "$T/tmp" "$T/outside"
export TMPDIR=$T/tmp
LOG=$SRCDIR/tests/fixtures/unixbench-logs/v6-full/vm-2026-11-29-01
ST=$T/state
UBTUNE_STATE_DIR=$ST "$UBTUNE" import "$LOG" >/dev/null 2>&1 || fail "cannot store a result to start with"
root=false
[ "$(id -u)" = 0 ] && root=true

# what a row changed in the state directory, the inputs (and the directory
# it runs in) and outside: anything made, removed, written or chmod'ed since
# the stamp (a directory's time moves when an entry comes or goes); and what
# it left in the temporary directory (where an archive is unpacked). One
# find, and bash's own tests below: the machine may be loaded.
changed() {
	find "$ST" "$IN" "$T/outside" "$T/tmp" \( -path "$T/tmp/*" -o ! -path "$T/tmp" \
		\( -newer "$T/stamp" -o -cnewer "$T/stamp" \) \) -print 2>/dev/null
}

tried=0
# row EXIT PATTERN ARG...: `ubtune ARG...` exits EXIT and says, on a line
# of its standard error, something matching PATTERN (an extended regular
# expression; '': anything); WRITES=PATH: the output it is meant to write
row() {
	local want=$1 pattern=$2 rc line found=false
	local -a err written
	shift 2
	tried=$((tried + 1))
	echo >"$T/stamp"
	(cd "$IN" && UBTUNE_STATE_DIR=$ST exec timeout -k 5 30 "$UBTUNE" "$@" >"$T/out" 2>"$T/err" </dev/null)
	rc=$?
	mapfile -t err <"$T/err"
	[ $rc -ne 124 ] && [ $rc -ne 137 ] || fail "ubtune $*: hung (killed after 30 s)"
	[ $rc -lt 128 ] || fail "ubtune $*: died of signal $((rc - 128)): ${err[*]:0:3}"
	[ $rc -eq "$want" ] || fail "ubtune $*: exited $rc, expected $want: ${err[*]:0:3}"
	for line in "${err[@]}"; do
		[[ $line == *Sanitizer* || $line == *"runtime error:"* ]] && fail "ubtune $*: sanitizer report: ${err[*]}"
		[[ $line =~ $pattern ]] && found=true
	done
	$found || [ -z "$pattern" ] || fail "ubtune $*: no line like '$pattern' in: ${err[*]:0:3}"
	mapfile -t written < <(changed)
	for line in "${written[@]}"; do
		[ "$line" = "${WRITES:-}" ] || fail "ubtune $*: wrote ${written[*]:0:5}"
	done
	ERR_LINES=${#err[@]}
}
# the same, where the error is all that ubtune says (one line)
row1() {
	row "$@"
	[ "$ERR_LINES" -eq 1 ] || fail "ubtune ${*:3}: more than one line: $(head -c 400 "$T/err")"
}

# ---- UnixBench output and result files --------------------------------------
: >"$IN/empty"
$PY -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 256)' >"$IN/binary"
{ head -c 500 "$LOG"; printf '\0\0\0'; tail -c +501 "$LOG"; } >"$IN/nul.log"
truncate -s 200M "$IN/big.log"
head -c 10000000 /dev/zero | tr '\0' x >"$IN/line.log"
NO_RESULTS='no UnixBench results found'
row1 2 "^ubtune: empty: $NO_RESULTS" import empty
row1 2 '^ubtune: binary: binary data, not UnixBench output$' import binary
row1 2 '^ubtune: nul.log: binary data, not UnixBench output$' import nul.log
row1 2 '^ubtune: big.log: larger than 16 MiB; not UnixBench output$' import big.log
row1 2 "^ubtune: line.log: $NO_RESULTS.*a line longer than 256 KiB" import line.log
row1 2 '^ubtune: big.log: larger than 16 MiB' diagnose big.log
row1 2 '^ubtune: binary: binary data' compare binary 1
row1 2 "^ubtune: empty: $NO_RESULTS" report empty

# absurd numbers in an index row: a problem of line 31, the rest is read
dhry='Dhrystone 2 using register variables'
absurd() { # NAME BASELINE RESULT INDEX
	sed "31s/.*/$dhry         $2   $3   $4/" "$LOG" >"$IN/$1.log"
}
absurd base0 0.0 41920798.1 1e308
absurd index308 116700.0 41920798.1 1e308
absurd result308 116700.0 1e308 3592.2
absurd negative 116700.0 41920798.1 -3592.2
absurd nan 116700.0 41920798.1 NaN
absurd inf 116700.0 inf 3592.2
absurd zero 0.0 41920798.1 3592.2
for f in base0 index308 result308 negative nan inf; do
	row 0 "^ubtune: warning: $f.log: skipped line 31: $dhry: the numbers after the name could not be read" \
		import --no-store "$f.log"
done
row 0 "^ubtune: warning: zero.log: skipped line 31: $dhry: a baseline of 0" import --no-store zero.log
printf 'System Benchmarks Index Values    BASELINE    RESULT    INDEX\n%s    0.0    41920798.1    1e308\n' \
	"$dhry" >"$IN/only-absurd.txt"
row1 2 "^ubtune: only-absurd.txt: $NO_RESULTS.*closest: line 2" import only-absurd.txt

# result files
record() { # NAME SCORE BASELINE
	result_record "$IN/$1.json" "run$1" 4.5
	sed -i "s/\"score\": 4.5/\"score\": $2/; s/\"baseline\": 116700/\"baseline\": $3/" "$IN/$1.json"
}
record nan NaN 116700
record inf 1 Infinity
record big 1e308 116700
record negative -1 116700
record base0 1 0
row1 2 '^ubtune: nan.json: not a ubtune result: runs\[0\].index.score is NaN, expected a finite number$' import nan.json
row1 2 'inf.json: not a ubtune result: runs\[0\].tests\[0\].baseline is Infinity' import inf.json
row1 2 'big.json: not a ubtune result: runs\[0\].index.score is 1e\+308, expected 0 to 1e\+15$' import big.json
row1 2 'negative.json: not a ubtune result: runs\[0\].index.score is -1' compare negative.json 1
row1 2 'base0.json: not a ubtune result: runs\[0\].tests\[0\].baseline is 0' report base0.json
$PY -c 'print("{\"a\": " * 100000 + "1" + "}" * 100000)' >"$IN/deep.json"
printf '{"schema": "ubtune.result/1", "runs": [' >"$IN/cut.json"
row1 2 '^ubtune: deep.json: not valid JSON' import deep.json
row1 2 '^ubtune: cut.json: not valid JSON' diagnose cut.json

# ---- control characters in a record's strings --------------------------------
# a result whose host and a test's name hold a terminal's escapes (clear the
# screen, set the title, a C1 CSI, a bell, a carriage return): the text outputs show
# them escaped, never raw; JSON keeps them as JSON escapes them
$PY - "$SRCDIR/tests/fixtures/results/rpi4-undervoltage.json" "$IN/escapes.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["host"] = "evil\x1b[2J\x1b]0;pwned\x07\u009b31m\rhost"
d["run_id"] = "e" * 32
d["runs"][0]["tests"][0]["name"] = "Dhrystone\x1b[31m red"
json.dump(d, open(sys.argv[2], "w"))
PYEOF
ESC_ST=$T/state-escapes
UBTUNE_STATE_DIR=$ESC_ST "$UBTUNE" import "$IN/escapes.json" >/dev/null 2>&1 || fail "cannot import the record of escapes"
for cmd in "show 1" "history" "compare 1 $SRCDIR/tests/fixtures/results/rpi4-undervoltage.json" \
	"compare --markdown 1 $SRCDIR/tests/fixtures/results/rpi4-undervoltage.json" \
	"fleet 1 $SRCDIR/tests/fixtures/results/rpi4-undervoltage.json" "diagnose 1"; do
	# shellcheck disable=SC2086
	(cd "$IN" && UBTUNE_STATE_DIR=$ESC_ST "$UBTUNE" $cmd >"$T/out" 2>&1) || fail "$cmd on escapes failed: $(head -3 "$T/out")"
	$PY - "$T/out" <<'PYEOF' || fail "$cmd prints a control character raw: $(grep -a evil "$T/out" | head -2 | cat -v)"
import sys
text = open(sys.argv[1], "rb").read()
bad = [c for c in text if (c < 0x20 and c not in b"\n") or c == 0x7f] + [1 for i in range(len(text) - 1) if text[i:i + 2] == b"\xc2\x9b"]
assert not bad, bad
# where the host is named, it is named escaped (diagnose does not name it)
assert b"evil" not in text or b"evil\\x1b[2J\\x1b]0;pwned\\x07\\u009b31m\\x0dhost" in text, "no escaped host"
PYEOF
done
UBTUNE_STATE_DIR=$ESC_ST "$UBTUNE" show --json 1 >"$T/out" 2>&1
[ "$(json_get "$T/out" 'd["host"]')" = "$($PY -c 'print("evil\x1b[2J\x1b]0;pwned\x07\u009b31m\rhost")')" ] ||
	fail "show --json changed the host"

# ---- FIFOs, sockets and devices where a file is expected -------------------
mkfifo "$IN/fifo"
$PY -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$IN/sock"
dev=/dev/zero
if $root && mknod "$IN/dev" c 1 5 2>/dev/null; then dev=$IN/dev; fi
for c in import diagnose report fleet; do
	row1 2 '^ubtune: fifo is a FIFO, not a regular file$' $c fifo
done
row1 2 '^ubtune: fifo is a FIFO, not a regular file$' compare 1 fifo
row1 2 '^ubtune: sock is a socket, not a regular file$' import sock
row1 2 "^ubtune: $dev is a character device, not a regular file$" import "$dev"
row1 2 '^ubtune: /dev/stdin is a character device|/dev/stdin is a FIFO|/dev/stdin is a socket' import /dev/stdin
row1 2 '^ubtune: fifo is a FIFO, not a regular file$' diagnose --reference fifo 1
row1 2 '^ubtune: ./fifo is a FIFO, not a regular file$' apply --check ./fifo
row1 2 "^ubtune: $dev is a character device, not a regular file$" apply --check "$dev"
row1 2 '^ubtune: --record fifo is a FIFO, not a regular file$' apply --dry-run --record fifo generic
row1 2 "^ubtune: --record $dev is a character device" apply --dry-run --record "$dev" generic

# ---- reference data: the CPU catalogue, the model, the database of runs -------
printf '[core A]\narch = aarch64\ngroup = g\nmidr = 0x41-0xd08\n' >"$IN/midr.ini"
printf '[core A]\narch = aarch64\ngroup = g\nmatch = a\n[cpu B]\ncore = C\nmatch = b\n' >"$IN/core.ini"
printf '[core A]\0\n' >"$IN/nul.ini"
printf '[model]\nschema = ubtune.expect/1\n[core A]\nlevel = 1 2\n' >"$IN/model.ini"
printf '[core X]\nruns = 1\n' >"$IN/nomodel.ini"
{ head -1 "$SRCDIR/reference/runs.jsonl"; echo '{"id": "r#1", "source": "s", "tests": {"dhry2reg": "fast"}}'; } >"$IN/runs.jsonl"
{ head -1 "$SRCDIR/reference/runs.jsonl"; echo '{"id": "r#1", "source": "s", "tests": {"dhry9": 1}}'; } >"$IN/test.jsonl"
{ head -1 "$SRCDIR/reference/runs.jsonl"; echo '{"id": "r#1"'; } >"$IN/cut.jsonl"
head -c 5000000 /dev/zero | tr '\0' '#' >"$IN/big.ini"
row1 2 "^ubtune: midr.ini:4: \[core A\] midr: '0x41-0xd08' is not IMPLEMENTER:PART" diagnose --catalogue midr.ini 1
row1 2 "^ubtune: core.ini:6: \[cpu B\] core: 'C' is not a \[core\] of this file$" diagnose --catalogue core.ini 1
row1 2 '^ubtune: nul.ini: contains NUL bytes, not a CPU catalogue$' diagnose --catalogue nul.ini 1
row1 2 '^ubtune: cannot read big.ini: File too large$' diagnose --catalogue big.ini 1
row1 2 '^ubtune: fifo is a FIFO, not a regular file$' diagnose --catalogue fifo 1
row1 2 '^ubtune: model.ini:1: \[model\] tests: missing$' diagnose --model model.ini 1
row1 2 '^ubtune: nomodel.ini: the first section is not \[model\], not an expectation model$' diagnose --model nomodel.ini 1
row1 2 '^ubtune: midr.ini:4: \[core A\] midr: ' reference cores --catalogue midr.ini
row1 2 '^ubtune: runs.jsonl:2: tests.dhry2reg: not a number$' reference --database runs.jsonl
row1 2 '^ubtune: test.jsonl:2: tests.dhry9: not an index test$' reference --database test.jsonl
row1 2 '^ubtune: cut.jsonl:2: not a JSON object$' reference search x --database cut.jsonl
row1 2 '^ubtune: binary: contains NUL bytes, not a reference database$' reference --database binary
row1 2 '^ubtune: fifo is a FIFO, not a regular file$' reference --database fifo
row1 2 "^ubtune: no run 'nope' in " reference show nope

# ---- result ids --------------------------------------------------------------
for c in show export; do
	for id in -1 0 99999999999999999999 '1;DROP TABLE' "1' OR '1'='1" last~99999999999999999999 \
		' 1' +1 '1 ' 0x1 'last~ 1' last~+1; do
		row1 2 "^ubtune: '$(sed 's/[][\\.*^$+?(){}|]/\\&/g' <<<"$id")' is not a result id" $c -- "$id"
	done
	row1 1 "^ubtune: there is no result '9'" $c 9
done
row1 1 "^ubtune: no file '1;DROP TABLE' \(and not a result id" compare 1 '1;DROP TABLE'
row1 2 "^ubtune: '0' is not a result id" report 0

# ---- round ids -----------------------------------------------------------------
for id in 'a b' '../x' '' "r1'; DROP TABLE results; --" "$(printf 'r%.0s' {1..65})"; do
	# usage errors: the error and the --help hint
	row 2 "^ubtune[a-z ]*: '$id' is not a round id" fleet --round "$id"
	row 2 "^ubtune[a-z ]*: '$id' is not a round id" export --format samples --round "$id"
	row 2 "^ubtune[a-z ]*: '$id' is not a round id" bench --dry-run --round "$id"
	row 2 "^ubtune[a-z ]*: '$id' is not a round id" import --round "$id" "$LOG"
done
row1 2 "^ubtune: no result of round 'r9' is stored \(the rounds: none\)" fleet --round r9
row1 2 "^ubtune: no result of round 'r9' is stored" export --format openmetrics --round r9
row 2 '^ubtune fleet: --since chooses among the stored results' fleet --since r9 1

# ---- profiles ----------------------------------------------------------------
profile() { # NAME TEXT
	printf '%b' "$2" >"$IN/$1.profile"
}
profile loop-a '[profile]\ninclude = ./loop-b.profile\n'
profile loop-b '[profile]\ninclude = ./loop-a.profile\n'
profile self '[profile]\ninclude = ./self.profile\n'
profile missing '[profile]\ninclude = ./nowhere.profile\n'
profile inc-fifo '[profile]\ninclude = ./fifo\n'
profile inc-dev "[profile]\\ninclude = $dev\\n"
profile svc '[services]\nstop = cups;reboot $(reboot) `reboot`\n'
profile svc-lines '[services]\nstop = cups\n\t|reboot\n'
profile sched '[io]\nscheduler = none;reboot\n'
profile gov '[cpu]\ngovernor = performance\\nreboot\n'
profile core '[sysctl]\nkernel.core_pattern = |/x %%p\n'
profile modprobe '[sysctl]\nkernel.modprobe = /tmp/x\n'
profile workdir '[workdir]\ntype = dir\npath = /etc\n'
$PY -c 'print("[profile]\ndescription = " + "x" * (1 << 20))' >"$IN/huge.profile"
$PY -c 'print("[sysctl]\nvm.swappiness = " + "1" * 60000)' >"$IN/long.profile"
check() { row 2 "$1" apply --check "./$2.profile"; }
check '^ubtune: loop-b.profile:2: \[profile\] include: includes itself \(loop-a -> loop-b -> loop-a\)' loop-a
check '^ubtune: ./self.profile:2: \[profile\] include: includes itself \(self -> self\)' self
check 'missing.profile:2: \[profile\] include: .*nowhere.profile: No such file or directory' missing
check 'inc-fifo.profile:2: \[profile\] include: .*fifo is a FIFO, not a regular file' inc-fifo
check "inc-dev.profile:2: \\[profile\\] include: $dev is a character device, not a regular file" inc-dev
check "svc.profile:2: \\[services\\] stop: 'cups;reboot' is not a valid unit name" svc
check "svc-lines.profile:2: \\[services\\] stop: '\\|reboot' is not a valid unit name" svc-lines
check "sched.profile:2: \\[io\\] scheduler: 'none;reboot' is not a valid scheduler" sched
check "gov.profile:2: \\[cpu\\] governor: 'performance.nreboot' is not a valid governor name" gov
check "core.profile:2: \\[sysctl\\] kernel.core_pattern: a core_pattern starting with '\\|' makes the kernel run a program" core
check 'modprobe.profile:2: \[sysctl\] kernel.modprobe: kernel.modprobe names a program the kernel runs as root' modprobe
check "workdir.profile:3: \\[workdir\\] path: '/etc' is inside /etc" workdir
check 'huge.profile: larger than 64 KiB, not a profile' huge
check 'long.profile:2: line longer than' long

# ---- dumps (--root DIR) ------------------------------------------------------
# a copy of a whole fixture machine (with NUMA nodes, so that hwloc would
# read it), spoiled one way each
dump() {
	rm -rf "$IN/$1" && cp -a "$FIXTURES/qemu-tcg-x86" "$IN/$1"
}
mkfifo "$T/outside/fifo"
dump fifo-dump && rm "$IN/fifo-dump/proc/cpuinfo" && mkfifo "$IN/fifo-dump/proc/cpuinfo"
dump sock-dump && $PY -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
	"$IN/sock-dump/sys/devices/system/cpu/possible.sock"
dump link-dump && mkfifo "$IN/link-dump/dev-fifo" && rm "$IN/link-dump/proc/stat" &&
	ln -s ../dev-fifo "$IN/link-dump/proc/stat"
# links out of the dump (to a FIFO of this machine: hwloc would hang on it)
dump out-dump && rm "$IN/out-dump/proc/cpuinfo" && ln -s "$T/outside/fifo" "$IN/out-dump/proc/cpuinfo" &&
	ln -s ../../../../../../../../../.. "$IN/out-dump/sys/up" && ln -s /etc "$IN/out-dump/sys/etc"
dump loop-dump && ln -s b "$IN/loop-dump/sys/a" && ln -s a "$IN/loop-dump/sys/b" &&
	rm "$IN/loop-dump/proc/meminfo" && ln -s meminfo "$IN/loop-dump/proc/meminfo" &&
	ln -s . "$IN/loop-dump/sys/devices/system/cpu/cpu0/self"
row1 1 "^ubtune: $IN/fifo-dump/proc/cpuinfo is a FIFO, not a regular file$" probe --root fifo-dump
row1 1 "^ubtune: $IN/sock-dump/sys/devices/system/cpu/possible.sock is a socket" probe --root sock-dump
row1 1 "^ubtune: $IN/link-dump/proc/stat is a symbolic link to a FIFO, not to a regular file$" probe --root link-dump
row1 1 "^ubtune: $IN/fifo-dump/proc/cpuinfo is a FIFO" apply --dry-run --root fifo-dump generic
if $root && dump dev-dump && mknod "$IN/dev-dump/sys/devices/system/cpu/kmsg" c 1 11 2>/dev/null; then
	row1 1 "^ubtune: $IN/dev-dump/sys/devices/system/cpu/kmsg is a character device" probe --root dev-dump
fi
row 0 '' probe --root out-dump
grep -q 'proc/cpuinfo' "$T/out" || fail "probe of a dump whose cpuinfo leads out of it does not say it is missing"
row 0 '' probe --json --root loop-dump
# a cgroup 2000 levels deep with files that are no numbers and a link out of the dump
dump cgroup-dump && printf '0::/%s\n1:cpu,cpuset:/..\n' "$(printf 'a/%.0s' {1..2000})" >"$IN/cgroup-dump/proc/self/cgroup" &&
	mkdir -p "$IN/cgroup-dump/sys/fs/cgroup/a" && printf 'max -1\n' >"$IN/cgroup-dump/sys/fs/cgroup/cpu.max" &&
	printf '99999999999999999999 0\n' >"$IN/cgroup-dump/sys/fs/cgroup/a/cpu.max" &&
	printf 'nr_periods 18446744073709551615999\nthrottled_usec x\n' >"$IN/cgroup-dump/sys/fs/cgroup/cpu.stat" &&
	printf '0-99999999\n' >"$IN/cgroup-dump/sys/fs/cgroup/cpuset.cpus.effective" &&
	ln -s ../../../../../../../etc "$IN/cgroup-dump/sys/fs/cgroup/memory.max"
row 0 '' probe --json --root cgroup-dump
[ "$(json_get "$T/out" 'd["cgroup"]["cpu_quota_cpus"]')" = None ] || fail "a cgroup's garbage became a CPU quota"
row1 1 '^ubtune: root fifo: Not a directory$' probe --root fifo
row1 1 '^ubtune: root /dev/null: Not a directory$' probe --root /dev/null

# a tuned dump whose governor file is a FIFO, planned from a record (no probe)
. "$SRCDIR/tests/e2e/tune-fixture.sh"
R=$IN/tune-root
make_tune_root "$R"
make_tune_record "$IN/rec.json"
make_tune_profile "$IN/every.profile"
gov=/sys/devices/system/cpu/cpufreq/policy0/scaling_governor
rm "$R$gov" && mkfifo "$R$gov"
for dry in --dry-run ''; do
	row1 1 '^ubtune: every cannot be applied on this machine: .*nothing was changed$' \
		apply $dry --root tune-root --record rec.json ./every.profile
	grep -q "governor: $gov is a FIFO, not a regular file$" "$T/out" ||
		fail "apply $dry: the FIFO is not named: $(grep -A2 'Cannot apply' "$T/out")"
done

# ---- archives (--root FILE.tar.gz) --------------------------------------------
$PY - "$IN" "$T/outside" <<'PYEOF'
import io, sys, tarfile, zlib
d, outside = sys.argv[1:3]
def entry(name, **kw):
    i = tarfile.TarInfo(name)
    for k, v in kw.items():
        setattr(i, k, v)
    return i
def archive(name, entries):
    with tarfile.open(f"{d}/{name}.tar.gz", "w:gz") as tf:
        tf.addfile(entry("proc/", type=tarfile.DIRTYPE))
        for e, data in entries:
            tf.addfile(e, io.BytesIO(data) if data else None)
archive("dotdot", [(entry("proc/../../x", size=1), b"x")])
archive("absolute", [(entry(f"{outside}/y", size=1), b"y")])
archive("through", [(entry("sys", type=tarfile.SYMTYPE, linkname=outside), None), (entry("sys/z", size=1), b"z")])
archive("devices", [(entry("proc/cpuinfo", type=tarfile.CHRTYPE, devmajor=1, devminor=5), None),
                    (entry("proc/stat", type=tarfile.FIFOTYPE), None),
                    (entry("proc/meminfo", type=tarfile.BLKTYPE, devmajor=8, devminor=0), None)])
# nothing but devices; 900 directories one in the other; no proc/ or sys/
with tarfile.open(f"{d}/only-devices.tar.gz", "w:gz") as tf:
    tf.addfile(entry("proc/cpuinfo", type=tarfile.CHRTYPE, devmajor=1, devminor=5))
    tf.addfile(entry("proc/stat", type=tarfile.FIFOTYPE))
with tarfile.open(f"{d}/deep.tar.gz", "w:gz") as tf:
    for i in range(1, 901):
        tf.addfile(entry("d/" * i, type=tarfile.DIRTYPE))
with tarfile.open(f"{d}/no-dump.tar.gz", "w:gz") as tf:
    tf.addfile(entry("etc/hostname", size=2), io.BytesIO(b"x\n"))
# a gzip bomb: 1 GiB of zeros in one entry, 1 MB packed (gzip members of
# zeros one after the other make one stream)
def gz(data):
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()
header = entry("proc/cpuinfo", size=1 << 30).tobuf(format=tarfile.USTAR_FORMAT)
zeros = gz(bytes(1 << 20))
with open(f"{d}/bomb.tar.gz", "wb") as f:
    f.write(gz(header))
    for _ in range(1024 + 1):
        f.write(zeros)
PYEOF
if built_with archive; then
	row1 1 "bomb.tar.gz: entry 'proc/cpuinfo' holds 1024 MiB, more than a file of a dump \\(16 MiB\\)$" \
		probe --root bomb.tar.gz
	row1 1 "dotdot.tar.gz: unsafe entry name 'proc/../../x'" probe --root dotdot.tar.gz
	row1 1 "absolute.tar.gz: unsafe entry name '$T/outside/y'" probe --root absolute.tar.gz
	row1 1 'through.tar.gz: ' probe --root through.tar.gz
	row 0 '' probe --json --root devices.tar.gz
	# said of the archive, never of the directory it was unpacked into
	row1 1 "^ubtune: only-devices.tar.gz: none of its 2 entries is a file, directory or symlink" \
		probe --root only-devices.tar.gz
	row1 1 "^ubtune: deep.tar.gz: entry 'd/d/.*' lies 65 directories deep, more than a dump's \\(64\\)$" \
		probe --root deep.tar.gz
	row1 1 "^ubtune: root $IN/no-dump.tar.gz:/etc does not look like a machine dump" probe --root no-dump.tar.gz
	row1 1 "^ubtune: root $IN/no-dump.tar.gz:/etc does not look like a machine dump" \
		gather -o "$T/never.tar.gz" --root no-dump.tar.gz
	row1 1 'bomb.tar.gz: entry' gather -o "$T/never.tar.gz" --root bomb.tar.gz
	[ ! -e "$T/never.tar.gz" ] || fail "gather of a refused archive wrote its output"
else
	for a in bomb dotdot absolute through devices only-devices deep; do
		row1 1 "$a.tar.gz: reading an archive needs libarchive" probe --root "$a.tar.gz"
	done
fi

# ---- outputs that are not regular files ----------------------------------------
row1 1 '^ubtune: cannot write /dev/full: No space left on device$' report --html /dev/full 1
row1 1 '^ubtune: cannot write /dev/full: No space left on device$' export -o /dev/full 1
row1 1 '^ubtune: cannot write /dev/full: No space left on device$' export --format openmetrics -o /dev/full 1
row 1 '^ubtune: cannot write /dev/full: No space left on device$' compare --chart /dev/full 1 1
row1 1 '^ubtune: cannot write /dev/full: No space left on device$' fleet --html /dev/full 1
row1 2 "^ubtune: $IN is a directory: output goes to a regular file, a FIFO or a character device\$" report --html "$IN" 1
row1 2 "^ubtune: sock is a socket: output goes to" report --html sock 1
ln -s nowhere "$IN/dangling"
row1 1 '^ubtune: dangling is a symbolic link to nothing' export -o dangling 1
row1 0 '^ubtune: report written to /dev/null$' report --html /dev/null 1
cat "$IN/fifo" >"$T/from-fifo" &
WRITES=$IN/fifo row1 0 '^ubtune: report written to fifo$' report --html fifo 1
wait $!
grep -q '</html>' "$T/from-fifo" || fail "the page written to a FIFO is not whole"
if built_with archive; then
	row 1 '^ubtune: Failed to write /dev/full: No space left on device$' gather -o /dev/full --root loop-dump
	row 0 'gathered [0-9]+ entries .* into /dev/null' gather -o /dev/null --root loop-dump
fi

# ---- a state directory that is not one ---------------------------------------
good=$ST
ST=$IN/state-file && echo x >"$ST"
row1 1 "^ubtune: cannot open the results store in $ST: $ST is a regular file, not a directory\$" history
row1 1 "^ubtune: cannot read $ST/applied.json: $ST is a regular file, not a directory\$" status
ST=$IN/state-file/sub
row1 1 "^ubtune: cannot open the results store in $ST: $IN/state-file is a regular file, not a directory\$" \
	import "$LOG"
ST=$IN/state-store && mkdir -p "$ST"
if built_with sqlite; then
	store=$ST/results.db
	head -c 4096 "$IN/binary" >"$store"
	row1 1 "^ubtune: the results store $store is not an SQLite database \\(move it aside" history
	rm "$store" && mkfifo "$store"
	row1 1 "^ubtune: the results store $store is a FIFO, not an SQLite database\$" history
	rm "$store" && mkdir "$store"
	row1 1 "^ubtune: the results store $store is a directory, not an SQLite database\$" import "$LOG"
else
	store=$ST/results
	echo x >"$store"
	row1 1 "^ubtune: the results store $store is a regular file, not a directory of result files\$" history
	rm "$store" && mkfifo "$store"
	row1 1 "^ubtune: the results store $store is a FIFO, not a directory of result files\$" import "$LOG"
	# a result file of the store that is a FIFO is listed by its id, never waited on
	rm "$store" && mkdir "$store" && mkfifo "$store/1-abc.json" && mkfifo "$store/index"
	row 0 '' history
	row1 1 "^ubtune: result '1' of the store is damaged: its record cannot be read$" show 1
fi
ST=$good

echo "$tried bad inputs tried: no crash, no hang, nothing written"
pass
