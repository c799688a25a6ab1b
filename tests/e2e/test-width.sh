#!/bin/bash
# Text output fits the width: every command's report, at COLUMNS=70 and
# COLUMNS=80 (and --width), has no line wider than that, counted in
# characters ("°C", "µs", "×" are one column); only a line that holds a
# word too long for any line (a path of 40 characters or more) may pass.
# Tables narrow their text columns and leave out the less important ones,
# headers staying over their values (history); a plan's reasons go under
# their rows.
. "$(dirname "$0")/lib.sh"

LOGS="$SRCDIR/tests/fixtures/unixbench-logs"
RESULTS="$SRCDIR/tests/fixtures/results"

expect_exit 0 "$UBTUNE" import "$LOGS/v6-full/vm-2026-11-29-01" "$LOGS/v5-full/vm-2026-11-29-01" \
	"$RESULTS/rpi4-undervoltage.json" "$RESULTS/laptop-knobs.json" "$RESULTS/bench-programs-quick.json"

# a fleet of five hosts, b7's workdir on a rotating disk and File Copy
# at half its peers'
. "$(dirname "$0")/fleet-results.sh"
for h in p1 p2 b7 p3 p4; do
	if [ $h = b7 ]; then fleet_result $h 0 0.5 hdd; else fleet_result $h 0 1 sd; fi
done
FLEET=("$T"/p1-0.json "$T"/p2-0.json "$T"/b7-0.json "$T"/p3-0.json "$T"/p4-0.json)

# fits WIDTH FILE: the lines of FILE wider than WIDTH, but for long words
fits() {
	$PY - "$@" <<'PY'
import sys
width, path = int(sys.argv[1]), sys.argv[2]
text = open(path, encoding="utf-8").read()
bad = [l for l in text.split("\n") if len(l) > width and max(len(w) for w in l.split()) < 40]
if not text.strip():
    sys.exit("no output")
if bad:
    sys.exit("\n".join(bad))
PY
}

# check NAME WIDTH CMD...: CMD's standard output at COLUMNS=WIDTH, not a terminal
check() {
	local name=$1 w=$2
	shift 2
	COLUMNS=$w "$@" >"$T/out" 2>"$T/err" || fail "$name failed: $(head -3 "$T/err")"
	fits "$w" "$T/out" >"$T/long" 2>&1 || fail "COLUMNS=$w $name: $(cat "$T/long")"
	# --width wins over COLUMNS
	COLUMNS=200 "$@" --width "$w" >"$T/out-w" 2>/dev/null || fail "$name --width $w failed"
	cmp -s "$T/out" "$T/out-w" || fail "$name --width $w differs from COLUMNS=$w"
}

for w in 70 80; do
	check history $w "$UBTUNE" history
	for id in 1 3 4 5; do
		check "show $id" $w "$UBTUNE" show $id
		check "diagnose $id" $w "$UBTUNE" diagnose $id
	done
	check "compare 1 2" $w "$UBTUNE" compare 1 2
	check "compare 3 4" $w "$UBTUNE" compare 3 4
	check "compare 1 2 3" $w "$UBTUNE" compare 1 2 3
	check "compare 5 3" $w "$UBTUNE" compare 5 3
	for root in rpi4-undervoltage laptop-battery-powersave x86-kvm-steal; do
		check "probe --root $root" $w "$UBTUNE" probe --root "$FIXTURES/$root"
	done
	check "bench --dry-run" $w "$UBTUNE" bench --dry-run
	check "fleet" $w "$UBTUNE" fleet "${FLEET[@]}"
	check "status" $w "$UBTUNE" status --root "$FIXTURES/rpi4-undervoltage"
	for plan in "rpi4-undervoltage rpi4" "ft2000plus-64 ft2000" "laptop-battery-powersave x86-server" \
		"rk3568-emmc-el2 rk3568" "x86-kvm-steal vm-guest"; do
		set -- $plan
		check "apply --dry-run --root $1 $2" $w "$UBTUNE" apply --dry-run --root "$FIXTURES/$1" "$2"
	done
done

# the plan: its reasons go under their rows where they have no room
# beside them, and wrap beside them where they have
for w in 80 200; do
	COLUMNS=$w "$UBTUNE" apply --dry-run --root "$FIXTURES/rpi4-undervoltage" rpi4 >"$T/plan$w" ||
		fail "apply --dry-run failed"
done
grep -q '^area  *what  *from  *to$' "$T/plan80" || fail "the plan at 80 columns: $(cat "$T/plan80")"
grep -A1 '^io  *mmcblk0 scheduler  *mq-deadline  *-> bfq$' "$T/plan80" |
	grep -q '^ *\[io\] scheduler (generic.profile:38): recommended for mmc$' ||
	fail "the reason is not under its row at 80 columns: $(cat "$T/plan80")"
grep -q '^area  *what  *from  *to  *why$' "$T/plan200" || fail "the plan at 200 columns: $(cat "$T/plan200")"
grep -q '^io  *mmcblk0 scheduler  *mq-deadline  *-> bfq  *\[io\] scheduler (generic.profile:38): recommended for mmc$' \
	"$T/plan200" || fail "the reason is not beside its row at 200 columns: $(cat "$T/plan200")"

# not a terminal and no COLUMNS: 80
env -u COLUMNS "$UBTUNE" compare 3 4 >"$T/plain"
COLUMNS=80 "$UBTUNE" compare 3 4 >"$T/c80"
cmp -s "$T/plain" "$T/c80" || fail "without COLUMNS compare is not 80 columns wide"
fits 80 "$T/plain" || fail "compare without COLUMNS passes 80 columns"

# history: each header starts where its values start (the id ends where
# its values end); narrower, the start time is left out and said to be
for w in 70 80 120; do
	COLUMNS=$w "$UBTUNE" history >"$T/history$w" || fail "history failed"
	$PY - "$T/history$w" <<'PY' || fail "COLUMNS=$w history: headers off their values: $(cat "$T/history$w")"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
head = lines[0]
cols = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", head)]
assert cols[0][2] == "ID", head
rows = [l for l in lines[1:] if re.match(r"^ *\d+  ", l)]
assert len(rows) == 5, lines
for row in rows:
    # the id right-aligned under ID
    assert row[cols[0][1] - 1] != " " and (len(row) == cols[0][1] or row[cols[0][1]] == " "), (head, row)
    for start, end, name in cols[1:]:
        # a value (or an empty flags cell at the end) starts under its header
        if start >= len(row):
            assert name == "FLAGS", (head, row)
            continue
        assert row[start] != " " and row[start - 1] == " ", (name, head, row)
PY
done
grep -q '^ID  STARTED  ' "$T/history120" || fail "history at 120 columns lost its start time: $(head -1 "$T/history120")"
grep -q '^ID  HOST ' "$T/history70" || fail "history at 70 columns kept its start time: $(head -1 "$T/history70")"
grep -q '^(left out to fit 70 columns: STARTED; --width shows more)$' "$T/history70" ||
	fail "history at 70 columns does not say what it left out: $(tail -2 "$T/history70")"
# compare at 70 leaves out the raw results and their units and says so;
# beside one change never its verdict
COLUMNS=70 "$UBTUNE" compare 1 2 >"$T/cmp70"
grep -q '^Test  *A index  B index  *B vs A  verdict$' "$T/cmp70" || fail "compare at 70: $(head -8 "$T/cmp70")"
tr -s '\n ' ' ' <"$T/cmp70" | grep -q '(left out to fit 70 columns: unit, A result, B result; --width shows more)' ||
	fail "compare at 70 does not say what it left out: $(cat "$T/cmp70")"
COLUMNS=200 "$UBTUNE" compare 1 2 >"$T/cmp200"
grep -q '^Test  *unit  *A result  *A index  *B result  *B index  *B vs A  verdict$' "$T/cmp200" || fail "compare at 200: $(head -8 "$T/cmp200")"
grep -q 'left out' "$T/cmp200" && fail "compare at 200 columns left something out"

# the fleet at 70 columns keeps the host, its score, its distance from
# the median, the tests a host is off in and what it is off in; the other
# tests are left out, and said to be; at 200 every test is there
for w in 70 200; do
	COLUMNS=$w "$UBTUNE" fleet "${FLEET[@]}" >"$T/fleet$w" || fail "fleet failed"
done
grep -q '^HOST  *score  *vs median  *fc1k  *fc256  *fc4k  *off in$' "$T/fleet70" ||
	fail "the fleet's table at 70 columns: $(cat "$T/fleet70")"
grep -q '^b7  .*v  *low: fc1k' "$T/fleet70" || fail "b7's row at 70 columns: $(cat "$T/fleet70")"
tr -s '\n ' ' ' <"$T/fleet70" |
	grep -q '(left out to fit 70 columns: dhry, whet, execl, pipe, ctx, spawn, syscall, sh1, sh8; --width or --json shows them all)' ||
	fail "the fleet at 70 columns does not say what it left out: $(cat "$T/fleet70")"
# the sentence on an outlier wraps under itself, two columns in
grep -A1 '^  host b7 scores 50 % below its 4 peers in File Copy 1024 (1 copy):' "$T/fleet70" | tail -1 |
	grep -q '^    [a-z]' || fail "the outlier's sentence does not wrap under itself: $(cat "$T/fleet70")"
grep -q '^HOST  *score  *vs median  *dhry  *whet  *execl  *fc1k  *fc256  *fc4k  *pipe  *ctx  *spawn  *syscall  *sh1  *sh8  *off in$' \
	"$T/fleet200" || fail "the fleet at 200 columns: $(head -8 "$T/fleet200")"
grep -q 'left out' "$T/fleet200" && fail "the fleet at 200 columns left something out"
grep -q '^  host b7 scores 50 % below its 4 peers in File Copy 1024 (1 copy): its workdir is on ext4 on a rotating disk, theirs on ext4 on an SD card$' \
	"$T/fleet200" || fail "the outlier's sentence at 200 columns: $(cat "$T/fleet200")"

# probe fits 70 columns on every fixture root, long paths too: cut after a '/'
for root in "$FIXTURES"/*/; do
	COLUMNS=70 "$UBTUNE" probe --root "$root" >"$T/probe70" 2>/dev/null
	$PY - "$T/probe70" <<'PY' || fail "probe --root $(basename "$root") at 70 columns: $(cat "$T/long")"
import sys
bad = [l for l in open(sys.argv[1], encoding="utf-8").read().split("\n") if len(l) > 70]
open(sys.argv[1].replace("probe70", "long"), "w").write("\n".join(bad))
sys.exit(1 if bad else 0)
PY
done

# on a terminal, a notice on stderr wraps at its width under its start; in
# a pipe or a file it stays one line
cp -a "$FIXTURES/rpi4-undervoltage" "$T/notice-root"
COLUMNS=80 script -qec "$UBTUNE apply --root $T/notice-root rpi4 >/dev/null" /dev/null >"$T/tty" 2>&1
$PY - "$T/tty" <<'PY' || fail "stderr at 80 columns on a terminal: $(cat -v "$T/tty")"
import sys
lines = [l for l in open(sys.argv[1], encoding="utf-8").read().replace("\r", "").split("\n") if l]
notice = [i for i, l in enumerate(lines) if "journaled, not carried out" in l or l.startswith("ubtune: tmpfs")]
assert notice and lines[notice[0]].startswith("ubtune: tmpfs on /var/tmp/ubtune-work"), lines
assert all(len(l) <= 80 for l in lines), [l for l in lines if len(l) > 80]
assert lines[notice[0] + 1].startswith("        ") and "mounts nothing" in " ".join(lines), lines
PY
"$UBTUNE" revert --root "$T/notice-root" >/dev/null 2>&1
COLUMNS=80 "$UBTUNE" apply --root "$T/notice-root" rpi4 >/dev/null 2>"$T/err"
grep -q "^ubtune: tmpfs on /var/tmp/ubtune-work, size=256M: none -> tmpfs journaled, not carried out: with --root, apply changes files of the root only and mounts nothing$" \
	"$T/err" || fail "a notice in a file is not one line: $(cat "$T/err")"
pass
