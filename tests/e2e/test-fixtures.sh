#!/bin/bash
# The built binary on every fixture root: the record matches the reviewed
# expected JSON, passes the contract, and the text report renders.
. "$(dirname "$0")/lib.sh"

"$SRCDIR/tools/fixture-record" check || fail "fixture records differ (make update-expected, then review)"
for r in "$FIXTURES"/*/ "$PARTIAL"/*/ "$SRCDIR"/build/fixtures/*/; do
	[ -d "$r" ] || continue
	n=$(basename "$r")
	[ -f "$SRCDIR/tests/fixtures/expected/$n.json" ] || grep -qx "$n" "$SRCDIR/tests/fixtures/expected/PENDING" 2>/dev/null || fail "fixture $n has no expected record"
	"$UBTUNE" probe --json --root "$r" >"$T/rec.json" || fail "probe --root $n failed"
	$PY "$SRCDIR/tests/e2e/check-contract.py" "$T/rec.json" || fail "$n breaks the contract"
	"$UBTUNE" probe --root "$r" >"$T/text" || fail "text probe of $n failed"
done
pass
