#!/bin/bash
# Every run of the published UnixBench corpus (tests/fixtures/unixbench-published) and of the
# mangled forms (tests/fixtures/unixbench-logs/mangled) imports with every number its source
# printed: runs, labels, copies, scores, each test's result, unit and index. The corpus comes
# from at least 25 sources and 25 independent authors. diagnose reads
# every file: one diagnosis per run, several runs compared, and what it cannot do said; on the
# runs the manifest marks healthy it finds nothing above low.
. "$(dirname "$0")/lib.sh"

CORPUS="$SRCDIR/tests/fixtures/unixbench-published"
"$PY" "$SRCDIR/tests/e2e/check-corpus.py" --healthy "$UBTUNE" "$CORPUS" >"$T/corpus" 2>&1 || fail "$(cat "$T/corpus")"
tail -1 "$T/corpus" | grep -Eq '^[0-9]+ files, ([6-9][0-9]|[1-9][0-9]{2,}) runs checked, 0 problems$' ||
	fail "the corpus is short of 60 runs: $(tail -1 "$T/corpus")"
grep -Eq '^([3-9][0-9]|[1-9][0-9]{2,}) healthy results diagnosed' "$T/corpus" ||
	fail "too few healthy results diagnosed: $(cat "$T/corpus")"
grep -Eq '^(2[5-9]|[3-9][0-9]|[1-9][0-9]{2,}) sources, ' "$T/corpus" ||
	fail "the corpus comes from fewer than 25 sources: $(cat "$T/corpus")"
# counted by who ran and published the runs, a repost counting once
grep -Eq ' (2[5-9]|[3-9][0-9]|[1-9][0-9]{2,}) independent authors, ' "$T/corpus" ||
	fail "the corpus comes from fewer than 25 independent authors: $(cat "$T/corpus")"
# the healthy check notices a finding above low: the header of this run shows a load of 1.44
mkdir "$T/h" && cp "$CORPUS/vpsbenches-DO.1GB.SF.log" "$T/h/"
"$PY" -c 'import json, sys
m = json.load(open(sys.argv[1]))
m["files"] = [f for f in m["files"] if f["file"] == "vpsbenches-DO.1GB.SF.log"]
m["files"][0]["runs"][0]["healthy"] = True
json.dump(m, open(sys.argv[2], "w"))' "$CORPUS/manifest.json" "$T/h/manifest.json"
"$PY" "$SRCDIR/tests/e2e/check-corpus.py" --healthy "$UBTUNE" "$T/h" >"$T/bad" 2>&1 && fail "a false alarm passed"
grep -q 'vpsbenches-DO.1GB.SF.log result 1: healthy, yet diag.loaded-at-start (medium)' "$T/bad" || fail "$(cat "$T/bad")"
"$PY" "$SRCDIR/tests/e2e/check-corpus.py" "$UBTUNE" "$SRCDIR/tests/fixtures/unixbench-logs/mangled" >"$T/mangled" 2>&1 ||
	fail "$(cat "$T/mangled")"

# the checker itself notices a file whose author the manifest does not name
mkdir "$T/a" && cp "$CORPUS/gist-sorz-4cpu.txt" "$T/a/"
"$PY" -c 'import json, sys
m = json.load(open(sys.argv[1]))
m["files"] = [f for f in m["files"] if f["file"] == "gist-sorz-4cpu.txt"]
del m["files"][0]["author"]
json.dump(m, open(sys.argv[2], "w"))' "$CORPUS/manifest.json" "$T/a/manifest.json"
"$PY" "$SRCDIR/tests/e2e/check-corpus.py" "$UBTUNE" "$T/a" >"$T/bad" 2>&1 && fail "a file without an author passed"
grep -q 'gist-sorz-4cpu.txt: an origin but no author' "$T/bad" || fail "$(cat "$T/bad")"

# the checker itself notices a wrong number
sed 's/"1084.8"/"1084.9"/' "$SRCDIR/tests/fixtures/unixbench-logs/mangled/manifest.json" >"$T/manifest.json"
mkdir "$T/m" && cp "$SRCDIR/tests/fixtures/unixbench-logs/mangled/mail-qp.txt" "$T/m/" && cp "$T/manifest.json" "$T/m/"
"$PY" "$SRCDIR/tests/e2e/check-corpus.py" "$UBTUNE" "$T/m" mail-qp.txt >"$T/bad" 2>&1 && fail "a wrong score passed"
grep -q 'mail-qp.txt run 1: score 1084.8 (report), expected 1084.9 as printed' "$T/bad" || fail "$(cat "$T/bad")"

# diagnose on every file: a diagnosis, or (for what it cannot judge) one clear line and 2
for f in "$CORPUS"/*; do
	case "$f" in */manifest.json | */README.md) continue ;; esac
	"$UBTUNE" diagnose --json "$f" >"$T/d" 2>"$T/e"
	rc=$?
	if [ $rc -eq 2 ]; then
		grep -q 'has no scored test' "$T/e" ||
			fail "diagnose $(basename "$f"): $(cat "$T/e")"
		continue
	fi
	[ $rc -eq 0 ] || fail "diagnose $(basename "$f") exited $rc: $(cat "$T/e")"
	n=$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(len(d["reports"]) if d["schema"] == "ubtune.diagnosis-set/1" else 1)' "$T/d") || fail "diagnose $(basename "$f"): not JSON"
	runs=$("$UBTUNE" import --json --no-store "$f" 2>/dev/null | "$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))')
	[ "$n" = "$runs" ] || fail "diagnose $(basename "$f"): $n diagnoses for $runs results"
done

# several runs in one file: each diagnosed and compared, no "store them first"
expect_exit 0 "$UBTUNE" diagnose "$CORPUS/wychlw-vf2-bext.md"
grep -q "^== What differs ==" "$T/stdout" || fail "two runs, no comparison: $(head -c 600 "$T/stdout")"
! grep -qi "store them" "$T/stdout" "$T/stderr" || fail "several runs refused"
# runs whose copies no line says: the header is still judged, the scores are not
expect_exit 0 "$UBTUNE" diagnose "$CORPUS/deepin-kernel-pr2014.txt"
grep -q '^Score 1854.7 (copies unknown); the log does not say how many copies ran' "$T/stdout" ||
	fail "unknown copies: $(head -c 600 "$T/stdout")"
grep -q 'the scores were not judged' "$T/stdout" || fail "unknown copies: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" diagnose --json "$CORPUS/deepin-kernel-pr913-turn1.txt"
"$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["result"]["runs"][0]["copies"] is None, d' "$T/stdout" ||
	fail "unknown copies stored as a number: $(head -c 600 "$T/stdout")"
# FILE ID CONFIDENCE [EVIDENCE]: diagnose names ID first, with that
# confidence (and a line of evidence holding EVIDENCE)
first_cause() {
	expect_exit 0 "$UBTUNE" diagnose --json "$CORPUS/$1"
	"$PY" -c 'import json, sys
c = json.load(open(sys.argv[1]))["causes"][0]
assert c["id"] == sys.argv[2] and c["confidence"] == sys.argv[3], c
assert any(sys.argv[4] in e for e in c["evidence"]), c' "$T/stdout" "$2" "$3" "${4:-}" ||
		fail "$1: $2 not named first: $(head -c 600 "$T/stdout")"
}
# a test that scored almost nothing is named, not averaged in: Process Creation at 1.0 lps
first_cause jolestar-ramhost-41wht.md diag.test-failed high "Process Creation index 0.0"
# 2 copies on 2 CPUs no faster than 1 copy (an OpenVZ container): the copies shared one CPU
first_cause teddysun-unixbench-openvz.md diag.copies-no-gain high
# the header's "0 CPUs in system": Run could not count them
expect_exit 0 "$UBTUNE" diagnose --json "$CORPUS/vpsbenches-Scaleway.ARM64.2GB.log"
grep -q '"diag.cpus-not-counted"' "$T/stdout" || fail "0 CPUs in system not said"
# a riscv64 guest of QEMU: its Dhrystone is what real boards do, its pipe
# test is not; a real board of that speed is not called normal for it
first_cause oerv2309-QEMU.log diag.software-emulation medium "Pipe Throughput 12.8 per copy, 5.8 % of Dhrystone 2"
expect_exit 0 "$UBTUNE" diagnose --json "$CORPUS/oerv2309-NezhaD1.log"
"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert all(c["confidence"] == "low" for c in d["causes"]), d["causes"]
assert not [n for n in d["normal"] if n["id"] == "diag.software-emulation"], d["normal"]
assert [n for n in d["not_checked"] if n["id"] == "diag.software-emulation" and "fits a slow core and an emulator alike" in n["text"]], d["not_checked"]' "$T/stdout" ||
	fail "a slow riscv64 board: $(head -c 600 "$T/stdout")"
exit 0
