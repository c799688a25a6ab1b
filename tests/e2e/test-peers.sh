#!/bin/bash
# The dumps of lscpu's, hwloc's and virt-what's test suites: ubtune agrees
# with what each peer expects of them, but for the differences named in
# tests/fixtures/real/peer-quirks.txt, and no probe fails or hangs
# (tools/check-peers; the facts come from tools/peer-import).
. "$(dirname "$0")/lib.sh"

dumps=$SRCDIR/build/fixtures
[ -d "$dumps" ] || skip "no unpacked dumps in $dumps (make check unpacks them)"
$PY "$SRCDIR/tools/check-peers" --check --ubtune "$UBTUNE" --dumps "$dumps" >"$T/out" 2>&1 ||
	fail "ubtune and its peers differ: $(cat "$T/out")"
grep -q "^virt-what " "$T/out" || fail "no virt-what dump was compared: $(cat "$T/out")"
pass
