# Sourced by the end-to-end tests. Provides $UBTUNE, $SRCDIR, a private
# temp dir $T (removed on exit) and small assertion helpers.
set -u
: "${UBTUNE:?run through make check}" "${SRCDIR:?run through make check}"
T=$(mktemp -d /tmp/ubtune-e2e.XXXXXX)
trap 'rm -rf "$T"' EXIT
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
