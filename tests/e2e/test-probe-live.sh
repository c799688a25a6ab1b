#!/bin/bash
# The built binary probes this machine: JSON parses and has every contract key.
. "$(dirname "$0")/lib.sh"

"$UBTUNE" probe --json >"$T/rec.json" || fail "probe --json failed"
$PY "$SRCDIR/tests/e2e/check-contract.py" "$T/rec.json" || fail "record breaks the contract"

"$UBTUNE" probe >"$T/text" || fail "probe (text) failed"
grep -q '^Host ' "$T/text" || fail "text report has no Host line"
grep -q $'\033' "$T/text" && fail "colour escapes written to a pipe"

# unprivileged: still works, says what it could not read
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$UBTUNE" probe --json --workdir /tmp >"$T/nobody.json" ||
		fail "probe as nobody failed"
	$PY "$SRCDIR/tests/e2e/check-contract.py" "$T/nobody.json" || fail "unprivileged record breaks the contract"
fi

expect_exit 1 "$UBTUNE" probe --workdir /nonexistent/dir
grep -q "workdir /nonexistent/dir" "$T/stderr" || fail "missing workdir error does not name it"
[ "$(wc -l <"$T/stderr")" -eq 1 ] || fail "error is not one line: $(cat "$T/stderr")"
expect_exit 1 "$UBTUNE" probe --root "$T"
grep -q "does not look like a machine dump" "$T/stderr" || fail "empty root accepted: $(cat "$T/stderr")"
expect_exit 1 "$UBTUNE" probe --root /nonexistent/root
pass
