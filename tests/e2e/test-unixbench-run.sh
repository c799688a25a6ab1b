#!/bin/bash
# The Run engine on a stand-in tree, so it is tested everywhere: a Makefile
# that "builds" the programs as scripts, and a Run that prints progress like
# UnixBench's and writes a real report and .log into UB_RESULTDIR. Checks
# what Run is given, the record made of its report, a failing Run, Ctrl-C
# in the middle (Run and its children gone, the finished copy count kept),
# 5.1.x's 16-copy cap, and that the tree given is never written to.
. "$(dirname "$0")/lib.sh"
command -v make >/dev/null && command -v cc >/dev/null || skip "make and a C compiler are needed"

LOGS="$SRCDIR/tests/fixtures/unixbench-logs/v6-multi"
tree="$T/tree"
mkdir -p "$tree/src" "$tree/pgms" "$tree/testdir" "$T/cwd"
echo 'int main(void) { return 0; }' >"$tree/src/dhry_1.c"
echo 'a' >"$tree/testdir/sort.src"
printf '   Version 6.0.0   Based on the Byte Magazine Unix Benchmark\n' >"$tree/pgms/unixbench.logo"
cat >"$tree/Makefile" <<'MK'
CC?=gcc
ifdef UB_GCC_OPTIONS
  OPTON = $(UB_GCC_OPTIONS)
else
  OPTON = -O3 -ffast-math
endif
PROGS = dhry2reg whetstone-double execl fstime pipe context1 spawn syscall looper
all:
	@for p in $(PROGS); do echo "$(CC) -o pgms/$$p $(OPTON) src/dhry_1.c"; printf '#!/bin/sh\n' >pgms/$$p; chmod 755 pgms/$$p; done
MK
# shellcheck disable=SC2016
cat >"$tree/Run" <<'RUN'
#!/bin/sh
# stands in for UnixBench's Run
my_version='$version = "6.0.0";'
echo "$UB_TMPDIR $UB_RESULTDIR $*" >>"$FAKE_RUN_LOG"
[ -d "$UB_TMPDIR" ] && [ -d "$UB_RESULTDIR" ] || exit 9
echo "make all"
echo "   Version 6.0.0                      Based on the Byte Magazine Unix Benchmark"
report="$UB_RESULTDIR/vm-2026-11-29-02"
sed '/^Benchmark Run: Sun Nov 29 2026 22:43:57/,$d' "$FAKE_RUN_REPORT" | sed '$d' >"$report"
for c in 1 2; do
	for t in "System Call Overhead" "Pipe Throughput" "Process Creation"; do
		printf '\n%s x %s ' "$c" "$t"
		sleep 0.1
		printf ' 1'
		[ "$FAKE_RUN_MODE" = hang ] && [ $c = 2 ] && { sleep 60 & sleep 60; }
	done
	printf '\n'
done
[ "$FAKE_RUN_MODE" = fail ] && { echo "Run: can't write to $report"; exit 3; }
cp "$FAKE_RUN_REPORT" "$report"
cp "$FAKE_RUN_REPORT.log" "$report.log"
RUN
chmod 755 "$tree/Run"
# built as bench-lib.sh wants a tree to be; the Run engine builds its own copy anyway
printf '#!/bin/sh\n' >"$tree/pgms/dhry2reg" && chmod 755 "$tree/pgms/dhry2reg"
export FAKE_RUN_LOG="$T/run.log" FAKE_RUN_REPORT="$LOGS/vm-2026-11-29-02" UNIXBENCH_DIR="$tree"
(cd "$tree" && find . -printf '%P %s %T@\n' | sort) >"$T/before"
. "$(dirname "$0")/bench-lib.sh"
cd "$T/cwd" || fail "no directory"

FAKE_RUN_MODE=ok expect_exit 0 "$UBTUNE" bench --unixbench "$tree" --engine run --iterations 1 \
	--tests syscall,pipe,spawn --copies 1,2 --force --json
cp "$T/stdout" "$T/ok.json"
grep -q 'ubtune bench: \[4/6\] System Call Overhead, 2 copies, pass 1/1' "$T/stderr" ||
	fail "Run's progress was not followed: $(cat "$T/stderr")"
read -r tmpdir resdir args <"$T/run.log"
[ "$args" = "-i 1 -c 1 -c 2 syscall pipe spawn" ] || fail "Run was given '$args'"
case $tmpdir in "$T"/cwd/ubtune-bench.*) ;; *) fail "UB_TMPDIR was $tmpdir, not the run's working directory" ;; esac
[ "$resdir" = "$tmpdir/results" ] || fail "UB_RESULTDIR was $resdir"
$PY - "$T/ok.json" <<'PY' || fail "the record of Run's report is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["engine"]["kind"] == "run" and r["engine"]["layout"] == "6.x"
assert r["build"]["cflags"] == "-O3 -ffast-math" and r["build"]["flags_source"] == "tree"
assert [run["copies"] for run in r["runs"]] == [1, 2]
two = {t["id"]: t for t in r["runs"][1]["tests"]}
assert two["pipe"]["result"] == 2701063.8 and two["pipe"]["index"] == 2171.3
assert len(two["pipe"]["passes"]) == 1 and two["pipe"]["passes"][0]["copies"][1]["count"] > 0
assert r["runs"][1]["index"]["score"] == 1109.4
assert r["unixbench"]["version"] == "6.0.0" and r["unixbench"]["cpus_in_system"] == 2
assert r["imported"] is False and r["incomplete"] is False
PY

# with the profile's flags: another build, UB_GCC_OPTIONS given to make
printf '{"profiles": ["t"], "build": {"cc": "cc", "cflags": "-O1"}}\n' >"$UBTUNE_STATE_DIR/applied.json"
FAKE_RUN_MODE=ok expect_exit 0 "$UBTUNE" bench --unixbench "$tree" --engine run --tests pipe --copies 1 \
	--force --no-store --json
json_get "$T/stdout" 'd["build"]["make"]' | grep -q "'UB_GCC_OPTIONS=-O1'" || fail "the flags did not reach make"
rm "$UBTUNE_STATE_DIR/applied.json"

# Run fails: its words in the error, nothing stored
expect_exit 1 env FAKE_RUN_MODE=fail "$UBTUNE" bench --unixbench "$tree" --engine run --tests pipe --copies 1 --force
grep -q "Run failed with exit status 3: .*Run: can't write to" "$T/stderr" || fail "unclear failure: $(cat "$T/stderr")"

# Ctrl-C while Run's children run: all gone, the finished copy count kept
FAKE_RUN_MODE=hang "$UBTUNE" bench --unixbench "$tree" --engine run --tests syscall,pipe,spawn --copies 1,2 \
	--force >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 100); do
	grep -q '2 copies' "$T/err" && break
	sleep 0.1
done
wait_for_processes $pid 3 "$T/procs"
stop_and_check $pid INT 130 "$T/procs"
[ -z "$(ls -A "$T/cwd")" ] || fail "left behind in the working directory: $(ls -A "$T/cwd")"
"$UBTUNE" show last --json >"$T/last.json" || fail "the interrupted run was not stored"
$PY - "$T/last.json" <<'PY' || fail "the interrupted record is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["incomplete"] is True and r["interrupted_by"] == "SIGINT"
assert [run["copies"] for run in r["runs"]] == [1], r["runs"]
PY

# Run before 6.0 runs no system test beyond 16 copies
sed -i 's/UB_GCC_OPTIONS/NO_SUCH_OPTIONS/; 1a OPTON = -O2' "$tree/Makefile"
sed -i 's/6\.0\.0/5.1.3/' "$tree/Run" "$tree/pgms/unixbench.logo"
(cd "$tree" && find . -printf '%P %s %T@\n' | sort) >"$T/before"
expect_exit 2 "$UBTUNE" bench --unixbench "$tree" --engine run --tests pipe --copies 1,17 --force
grep -q "UnixBench 5.1.3's Run runs no system test with more than 16 copies" "$T/stderr" &&
	grep -q -- '--engine=programs' "$T/stderr" || fail "the cap is not explained: $(cat "$T/stderr")"

(cd "$tree" && find . -printf '%P %s %T@\n' | sort) >"$T/after"
diff "$T/before" "$T/after" >"$T/diff" || fail "the tree was written to: $(head "$T/diff")"
pass
