# Sourced by the end-to-end tests. Provides $UBTUNE, $SRCDIR, a private
# temp dir $T (removed on exit) and small assertion helpers.
set -u
: "${UBTUNE:?run through make check}" "${SRCDIR:?run through make check}"
T=$(mktemp -d /tmp/ubtune-e2e.XXXXXX)
trap 'rm -rf "$T"' EXIT
# the results store and the cache of a test are its own, never this
# machine's (/var/lib/ubtune as root) nor another test's running beside it
export UBTUNE_STATE_DIR="$T/state" UBTUNE_CACHE_DIR="$T/cache"
# a bench run's kernel-log marker goes to a stand-in, never to this machine's log
: >"$T/kmsg"
export UBTUNE_KMSG_DEV="$T/kmsg"
FIXTURES="$SRCDIR/tests/fixtures/roots"
# Partial roots: only the files one area reads, for that area's tests.
PARTIAL="$SRCDIR/tests/fixtures/partial"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
skip() {
	echo "skipped: $*"
	exit 77
}
pass() {
	exit 0
}
# expect_exit CODE CMD...: runs CMD, stderr to $T/stderr, checks the exit code.
expect_exit() {
	local want=$1
	shift
	"$@" >"$T/stdout" 2>"$T/stderr"
	local got=$?
	[ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want: $(head -c 400 "$T/stderr")"
}
# jq-free JSON access through python3 (the system one, not a pyenv shim).
PY=/usr/bin/python3
json_get() { # json_get FILE EXPR  (EXPR in Python on `d`)
	$PY -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"
}
# built_with LIBRARY: this ubtune has it (systemd, udev, hwloc, sqlite,
# archive); a minimal build (make MINIMAL=1) has none.
built_with() {
	"$UBTUNE" --version | grep -qw -- "+$1"
}
# result_record FILE RUN_ID SCORE: a small imported result record of a
# 4-copy run (SCORE's integer part is the day of January it was made)
result_record() {
	cat >"$1" <<EOR
{"schema": "ubtune.result/1", "run_id": "$2", "host": "board", "started_at": "2026-01-0${3%%.*}T12:00:00+0100",
 "suite": {"name": "unixbench", "version": "6.0.0"}, "imported": true,
 "runs": [{"copies": 4, "index": {"score": $3}, "tests": [
   {"id": "dhry2reg", "name": "Dhrystone 2 using register variables", "unit": "lps", "baseline": 116700,
    "result": 30000000.0, "index": 2570.7, "time_s": 10.0, "samples": 7}]}]}
EOR
}
# session FILE ARGS...: appends `ubtune ARGS`, its exit status, stdout and
# stderr to FILE (the golden tests' record of a command)
session() {
	local file=$1 rc
	shift
	"$UBTUNE" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	{
		echo "\$ ubtune $*"
		echo "exit $rc"
		echo "--- stdout"
		cat "$T/out"
		echo "--- stderr"
		cat "$T/err"
	} >>"$file"
}
# check_goldens GOT GOLDEN FILE...: each FILE (under GOT) is byte for byte
# its golden under GOLDEN; UPDATE_GOLDEN=1 writes the goldens instead.
check_goldens() {
	local gotdir=$1 golden=$2 f name want
	shift 2
	for f in "$@"; do
		name=${f#"$gotdir/"}
		want="$golden/$name"
		if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
			mkdir -p "$(dirname "$want")"
			cp "$f" "$want"
		elif [ ! -f "$want" ]; then
			fail "${name%.txt} has no golden output: UPDATE_GOLDEN=1 writes $want (then review it)"
		else
			diff -u "$want" "$f" >"$T/diff" || fail "${name%.txt} differs from $want: $(head -40 "$T/diff")"
		fi
	done
}
