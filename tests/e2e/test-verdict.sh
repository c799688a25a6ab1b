#!/bin/bash
# One stability verdict, the same everywhere: the report's rows and last
# paragraph (show), history's flags, show --json's "verdict", the HTML page,
# compare, and bench --strict's exit status. A run whose rows say
# UNTRUSTWORTHY with no event and one pass per test (the machine was busy)
# is not to be trusted; one pass per test alone could not be judged.
. "$(dirname "$0")/lib.sh"
export COLUMNS=200

# from the Raspberry Pi result: steady (its undervoltage and events taken
# out), a pass per test, and a pass per test with Pipe Throughput sharing
# the machine with other processes
$PY - "$SRCDIR/tests/fixtures/results/rpi4-undervoltage.json" "$T" <<'PY' || fail "cannot derive the records"
import copy, json, sys
base = json.load(open(sys.argv[1]))
base["events"] = []
for env in base["environment"].values():
    env["findings"] = [f for f in env["findings"] if f["severity"] != "crit"]
def one_pass(r):
    for run in r["runs"]:
        for t in run["tests"]:
            t["passes"] = t["passes"][:1]
            t["dispersion"].update(n=1, stddev=None, cv_pct=None)
def busy(r):
    one_pass(r)
    pipe = next(t for t in r["runs"][0]["tests"] if t["id"] == "pipe")
    pipe["background"] = {"samples": 10, "sys_pct": 3.0, "iowait_pct": 0, "steal_pct": 0, "others_pct": 62.0,
                          "others_max_pct": 80.0, "busiest": "cc1 (pid 42)", "untrusted": ["others"]}
for name, run_id, edit in (("steady", "1" * 32, lambda r: None), ("single", "2" * 32, one_pass),
                           ("busy", "3" * 32, busy)):
    r = copy.deepcopy(base)
    r["run_id"] = run_id
    edit(r)
    json.dump(r, open(f"{sys.argv[2]}/{name}.json", "w"))
PY
expect_exit 0 "$UBTUNE" import "$T/steady.json" "$T/single.json" "$T/busy.json"

# verdict_of ID: the words of show's last paragraph ("to be trusted", ...)
verdict_of() {
	"$UBTUNE" show "$1" >"$T/show" || fail "show $1 failed"
	sed -n '/^Stability: /,$p' "$T/show" | tr -s '\n ' ' ' | sed -E 's/^Stability: (to be trusted|not to be trusted|not judged).*/\1/'
}
# check ID STATE WORDS FLAG: every place says the same of result ID
check() {
	local id=$1 state=$2 words=$3 flag=$4 got
	got=$(verdict_of "$id")
	[ "$got" = "$words" ] || fail "show $id says '$got', expected '$words': $(tail -4 "$T/show")"
	expect_exit 0 "$UBTUNE" show "$id" --json
	got=$(json_get "$T/stdout" 'd["verdict"]["state"]')
	[ "$got" = "$state" ] || fail "show $id --json: verdict $got, expected $state"
	expect_exit 0 "$UBTUNE" history --json
	got=$(json_get "$T/stdout" "[f for r in d if r['id'] == $id for f in r['flags'] if f in ('unstable', 'unjudged')]")
	[ "$got" = "$flag" ] || fail "history flags result $id $got, expected $flag"
	expect_exit 0 "$UBTUNE" report --html "$T/page.html" "$id"
	grep -q "Stability: <span class=\"verdict-${state// /-}\">$words</span>" "$T/page.html" ||
		fail "the page of result $id does not say '$words'"
	expect_exit 0 "$UBTUNE" compare "$id" 1
	grep -q "^A (result $id): Stability: $words" "$T/stdout" || fail "compare: $(grep Stability "$T/stdout")"
}
check 1 stable "to be trusted" "[]"
check 2 "not judged" "not judged" "['unjudged']"
check 3 untrusted "not to be trusted" "['unstable']"

# the busy run: its row, the reason and the events section agree
"$UBTUNE" show 3 >"$T/show"
grep -q "^Pipe Throughput .* UNTRUSTWORTHY$" "$T/show" || fail "Pipe Throughput's row: $(grep '^Pipe' "$T/show")"
grep -q "^Dhrystone 2 using register variables .* not judged$" "$T/show" || fail "a one-pass row is not 'not judged'"
tr -s '\n ' ' ' <"$T/show" | grep -Eq "Stability: not to be trusted: Pipe Throughput, 1 copy: other processes used 62.0 % of a CPU ?$" ||
	fail "the busy run's reason: $(tail -3 "$T/show")"
grep -q "^  none; what else each test shared the machine with is in the table above" "$T/show" ||
	fail "the events section: $(grep -A2 '^Events during' "$T/show")"
expect_exit 0 "$UBTUNE" show 3 --json
json_get "$T/stdout" '[t["verdict"]["state"] for t in d["runs"][0]["tests"] if t["id"] in ("pipe", "dhry2reg")]' |
	grep -qx "\['not judged', 'untrusted'\]" || fail "per-test verdicts: $(json_get "$T/stdout" '[t["verdict"] for t in d["runs"][0]["tests"]][:2]')"

# bench: a pass per test can only be not judged or untrusted, --strict exits 3,
# and the stored result says what the report said
. "$(dirname "$0")/bench-lib.sh"
"$UBTUNE" bench --tests syscall --iterations 1 --copies 1 --force --strict "${ENGINE[@]}" >"$T/bench" 2>"$T/err"
code=$?
[ "$code" = 3 ] || fail "bench --strict of one pass exited $code: $(tail -3 "$T/err")"
said=$(sed -n '/^Stability: /,$p' "$T/bench" | tr -s '\n ' ' ' | sed -E 's/^Stability: (not to be trusted|not judged).*/\1/')
case $said in
"not judged" | "not to be trusted") ;;
*) fail "bench's verdict of one pass: $(tail -3 "$T/bench")" ;;
esac
[ "$(verdict_of last)" = "$said" ] || fail "show last says $(verdict_of last), bench said $said"
pass
