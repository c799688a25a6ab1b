#!/bin/bash
# Where bench finds the prebuilt workloads: UBTUNE_LIBEXECDIR decides over
# every other place (a board's ubtune pointed at another build, tests run
# through an emulator).
. "$(dirname "$0")/lib.sh"
mkdir -p "$T/empty" "$T/fake" "$T/run"

UBTUNE_LIBEXECDIR=$T/empty expect_exit 1 "$UBTUNE" bench --quick --tests dhry2reg --no-store
grep -q "UBTUNE_LIBEXECDIR=$T/empty holds no ubtune-workloads" "$T/stderr" ||
	fail "the error does not name the variable: $(cat "$T/stderr")"

# a workloads program that only reports, in UnixBench's protocol, and says it ran
cat >"$T/fake/ubtune-workloads" <<EOF2
#!/bin/sh
echo "\$*" >>"$T/fake/calls"
echo "COUNT|123456|1|lps" >&2
EOF2
chmod +x "$T/fake/ubtune-workloads"
cd "$T/run" || fail "no run directory"
UBTUNE_LIBEXECDIR=$T/fake expect_exit 0 "$UBTUNE" bench --quick --iterations 1 --copies 1 --tests dhry2reg \
	--force --no-store --json
grep -q "^dhry2reg " "$T/fake/calls" || fail "the program in UBTUNE_LIBEXECDIR did not run"
$PY - "$T/stdout" "$T/fake/ubtune-workloads" <<'PY' || fail "the result does not come from UBTUNE_LIBEXECDIR"
import json, sys
r = json.load(open(sys.argv[1]))
assert sys.argv[2] in r["engine"]["description"], r["engine"]
# it does not say how it was built: nothing is made up
assert r["engine"]["prebuilt"] is True and r["build"] is None, (r["engine"], r["build"])
t = r["runs"][0]["tests"][0]
assert t["id"] == "dhry2reg" and t["complete"], t
assert t["passes"][0]["count"] == 123456, t["passes"][0]
PY

# a relative directory works from the working directory the copies run in
cd "$T" || fail "no $T"
UBTUNE_LIBEXECDIR=fake expect_exit 0 "$UBTUNE" bench --quick --iterations 1 --copies 1 --tests dhry2reg \
	--force --no-store --workdir "$T/run"
[ "$(grep -c "^dhry2reg " "$T/fake/calls")" -eq 2 ] || fail "a relative UBTUNE_LIBEXECDIR was not found"
pass
