#!/bin/bash
# I/O errors and kills where ubtune writes its own files, injected by
# strace (-e inject=SYSCALL:error=ENOSPC|EIO:when=N, or signal=SIGKILL):
#   apply: at each write, sync, rename, directory and unlink call. apply
#     fails or goes on, but a file of the root is changed only when the
#     journal holds its old value, and revert then puts every byte back;
#   the results store: at each write and sync of an import (SQLite, or the
#     JSON files of a minimal build). No earlier result is lost: history
#     lists them all, SQLite's integrity_check is ok, and the new result is
#     stored whole or not at all.
# FAULT_STRIDE=K tries every Kth point of each syscall (and the last);
# `make check-crash` runs all of them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tune-fixture.sh"
. "$(dirname "$0")/strace-lib.sh"
STRIDE=${FAULT_STRIDE:-8}
SYSCALLS="write writev pwrite64 rename renameat renameat2 fsync fdatasync mkdir mkdirat unlink unlinkat ftruncate"

# ---- apply ------------------------------------------------------------------
make_tune_root "$R"
make_tune_record "$T/rec.json"
make_tune_profile "$T/t.profile"
cp -a "$R" "$T/pristine"
apply_cmd=("$UBTUNE" apply --root "$R" --record "$T/rec.json" "$T/t.profile")
# every file of the root that differs from the pristine copy is the
# target of a journaled change
journaled_before_changed() {
	"$PY" - "$T/pristine" "$R" "$STATE/journal" <<'PYEOF' || fail "$1: $(cat "$T/why")"
import filecmp, json, os, sys
pristine, root, journal = sys.argv[1:]
targets = set()
if os.path.exists(journal):
    for line in open(journal):
        try:
            e = json.loads(line)
        except ValueError:
            continue  # a torn last line
        if e.get('op') == 'set':
            real = os.path.realpath(root + e['target'])
            targets.add(os.path.relpath(real, root))
bad = []
for d, dirs, files in os.walk(pristine):
    for f in files:
        rel = os.path.relpath(os.path.join(d, f), pristine)
        if not filecmp.cmp(os.path.join(pristine, rel), os.path.join(root, rel), shallow=False) and rel not in targets:
            bad.append(rel)
open(os.environ['T'] + '/why', 'w').write('changed without a journal entry: %s' % bad)
sys.exit(1 if bad else 0)
PYEOF
}
export T
count_calls "${apply_cmd[@]}" >"$T/apply.calls"
expect_exit 0 "$UBTUNE" revert --root "$R"
tried=0
while read -r sc n; do
	for k in $(points "$n"); do
		for how in error=ENOSPC error=EIO; do
			faulted "$sc" "$k" "$how" "${apply_cmd[@]}"
			rc=$?
			[ $rc -le 1 ] || fail "apply with $how at $sc #$k exited $rc: $(cat "$T/out")"
			if [ $rc -eq 1 ]; then
				grep -q "ubtune: " "$T/out" || fail "apply with $how at $sc #$k failed without saying why: $(cat "$T/out")"
			fi
			journaled_before_changed "apply with $how at $sc #$k"
			"$UBTUNE" revert --root "$R" >"$T/stdout" 2>&1 || fail "revert after $how at $sc #$k: $(cat "$T/stdout")"
			same_as_pristine "apply with $how at $sc #$k, revert"
			tried=$((tried + 1))
		done
	done
done <"$T/apply.calls"
echo "apply: $tried I/O errors tried ($(tr '\n' ' ' <"$T/apply.calls")), 0 changes without a journal entry, 0 left after revert"

# ---- the results store --------------------------------------------------------
result_record "$T/a.json" 0123456789abcdef0123456789abcdef 1.5
result_record "$T/b.json" fedcba9876543210fedcba9876543210 2.5
result_record "$T/c.json" 00112233445566778899aabbccddeeff 3.5
"$UBTUNE" import "$T/a.json" "$T/b.json" >/dev/null 2>&1 || fail "the first imports failed"
cp -a "$T/state" "$T/state.before"
# history holds a and b, and c only when it was stored (whole)
store_intact() { # WHAT RC
	if [ -e "$T/state/results.db" ]; then
		"$PY" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); r = c.execute("PRAGMA integrity_check").fetchone()[0]; sys.exit(r != "ok")' \
			"$T/state/results.db" || fail "$1: integrity_check is not ok"
	fi
	"$UBTUNE" history --json >"$T/history" 2>"$T/stderr" || fail "$1: history fails: $(cat "$T/stderr")"
	ids=$(json_get "$T/history" '" ".join(e["run_id"][:4] for e in d)')
	case "$ids" in
	"0123 fedc") [ "$2" -ne 0 ] || fail "$1: import said it stored c, history lacks it" ;;
	"0123 fedc 0011") "$UBTUNE" show 3 >/dev/null 2>&1 || fail "$1: result 3 is listed but cannot be read" ;;
	*) fail "$1: history after the fault: $ids" ;;
	esac
}
import_cmd=("$UBTUNE" import "$T/c.json")
count_calls "${import_cmd[@]}" >"$T/import.calls"
tried=0
while read -r sc n; do
	for k in $(points "$n"); do
		for how in error=ENOSPC error=EIO signal=SIGKILL; do
			rm -rf "$T/state" && cp -a "$T/state.before" "$T/state"
			faulted "$sc" "$k" "$how" "${import_cmd[@]}"
			rc=$?
			[ $rc -le 1 ] || { [ "$how" = signal=SIGKILL ] && [ $rc -eq 137 ]; } ||
				fail "import with $how at $sc #$k exited $rc: $(cat "$T/out")"
			store_intact "import with $how at $sc #$k" "$rc"
			# the store takes the next result
			"$UBTUNE" import "$T/c.json" >"$T/stdout" 2>&1 || fail "import after $how at $sc #$k: $(cat "$T/stdout")"
			tried=$((tried + 1))
		done
	done
done <"$T/import.calls"
echo "store: $tried faults tried ($(tr '\n' ' ' <"$T/import.calls")), 0 results lost"
pass
