#!/bin/bash
# apply, status and revert on a writable fixture root: every file comes back
# byte for byte, also after apply was killed at any step or a reboot.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tune-fixture.sh"
# the plan unwrapped, a row and its reason a line, for the lines checked below
export COLUMNS=1000

make_tune_root "$R"
make_tune_record "$T/rec.json"
make_tune_profile "$T/t.profile"
cp -a "$R" "$T/pristine"

# --check: every shipped profile is valid; a broken one gives file:line errors
for p in "$SRCDIR"/profiles/*.profile; do
	expect_exit 0 "$UBTUNE" apply --check "$p"
	grep -q "valid (generic" "$T/stdout" || fail "--check $p: $(cat "$T/stdout")"
done
expect_exit 0 "$UBTUNE" apply --check rpi4
printf '[profile]\ninclude = generic\n[cpu]\ngovenor = performance\n' >"$T/bad.profile"
expect_exit 2 "$UBTUNE" apply --check "$T/bad.profile"
grep -qF "$T/bad.profile:4: [cpu] govenor: unknown key (did you mean 'governor'?)" "$T/stderr" ||
	fail "--check error: $(cat "$T/stderr")"
expect_exit 2 apply "$T/bad.profile"
expect_exit 2 "$UBTUNE" apply --check nosuchprofile
grep -q "shipped profiles" "$T/stderr" || fail "a missing profile does not list the shipped ones"
expect_exit 2 "$UBTUNE" apply --check rpi
grep -q "did you mean 'rpi4'? Shipped profiles" "$T/stderr" || fail "a mistyped profile: $(cat "$T/stderr")"
expect_exit 2 "$UBTUNE" apply
expect_exit 2 "$UBTUNE" apply a b

# --dry-run prints the plan and changes nothing
expect_exit 0 apply --dry-run "$T/t.profile"
grep -q "^cpu .*policy0 (CPUs 0-3) governor .*ondemand .*-> performance .*\[cpu\] governor (t.profile:" "$T/stdout" ||
	fail "the plan lacks the governor line: $(cat "$T/stdout")"
grep -q "^io .*sda scheduler .*mq-deadline .*-> bfq .*recommended for hdd" "$T/stdout" || fail "no scheduler line"
grep -q "^irq .*IRQ 33 (ahci) affinity .*0-7 .*-> 4-7" "$T/stdout" || fail "no IRQ line"
grep -q "services: not stopped" "$T/stdout" || fail "services are not reported as left alone"
n_actions=$(grep -cE '^(services|cpu|io|sysctl|vm|irq|workdir) ' "$T/stdout")
[ "$n_actions" -eq 15 ] || fail "expected 15 planned changes, got $n_actions"
rm -rf "$STATE"
same_as_pristine "--dry-run"

# apply: the files hold the profile's values, status agrees
expect_exit 0 apply "$T/t.profile"
[ "$(cat "$CPUFREQ/policy4/scaling_governor")" = performance ] || fail "governor not set"
[ "$(cat "$CPUFREQ/policy0/scaling_min_freq")" = 1992000 ] || fail "min freq not pinned"
[ "$(cat "$CPUFREQ/boost")" = 1 ] || fail "boost not on"
[ "$(cat "$R/sys/block/sda/queue/scheduler")" = "mq-deadline kyber [bfq] none" ] || fail "scheduler not set"
[ "$(cat "$R/sys/kernel/mm/transparent_hugepage/enabled")" = "always [madvise] never" ] || fail "THP not set"
[ "$(cat "$R/proc/irq/34/smp_affinity_list")" = 4-7 ] || fail "IRQ affinity not set"
[ "$(cat "$R/proc/sys/net/ipv4/tcp_rmem")" = "4096 87380 6291456" ] || fail "sysctl not set"
[ "$(stat -c %a "$R/var/tmp/bench/work")" = 1777 ] || fail "workdir not created 1777"
[ "$(grep -c '"op":"set"' "$STATE/journal")" -eq 15 ] || fail "the journal does not hold 15 entries"
json_get "$STATE/applied.json" '(d["profiles"] == ["t"] and d["bench"]["copies"] == [1, 8] and
	d["workdir"] == {"path": "/var/tmp/bench/work", "type": "dir"} and d["build"]["cc"] == "gcc")' |
	grep -q True || fail "applied.json: $(cat "$STATE/applied.json")"
expect_exit 0 "$UBTUNE" status --root "$R" --json
json_get "$T/stdout" '(d["applied"] and d["drifted"] == 0 and len(d["knobs"]) == 15 and
	all(k["state"] == "ok" for k in d["knobs"]))' | grep -q True || fail "status: $(cat "$T/stdout")"

# an ordinary user sees the status too (root's journal is not readable to them)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$T"
	expect_exit 0 setpriv --reuid=65534 --regid=65534 --clear-groups "$UBTUNE" status --root "$R" --json
	json_get "$T/stdout" '(d["applied"] and not d["journal_readable"] and d["drifted"] == 0 and len(d["knobs"]) == 15)' |
		grep -q True || fail "status as a user: $(cat "$T/stdout")"
fi

# applying again changes nothing
cp "$STATE/journal" "$T/journal.1"
expect_exit 0 apply "$T/t.profile"
grep -q "Nothing to change" "$T/stdout" || fail "re-apply planned changes: $(cat "$T/stdout")"
cmp -s "$STATE/journal" "$T/journal.1" || fail "re-apply wrote to the journal"

# drift is reported, with exit status 3
echo powersave >"$CPUFREQ/policy4/scaling_governor"
expect_exit 3 "$UBTUNE" status --root "$R"
grep -q "drifted  policy4 (CPUs 4-7) governor: performance, now powersave" "$T/stdout" ||
	fail "drift not shown: $(cat "$T/stdout")"

# a second profile stacks; revert undoes both
printf '[profile]\n[cpu]\ngovernor = schedutil\n[sysctl]\nvm.swappiness = 20\n[bench]\nquick = yes\n' >"$T/t2.profile"
expect_exit 0 apply "$T/t2.profile"
[ "$(cat "$CPUFREQ/policy0/scaling_governor")" = schedutil ] || fail "second profile not applied"
json_get "$STATE/applied.json" '(d["profiles"] == ["t", "t2"] and d["bench"]["quick"] is True and
	d["bench"]["copies"] == [1, 8])' | grep -q True || fail "stacked applied.json: $(cat "$STATE/applied.json")"
expect_exit 0 "$UBTUNE" revert --root "$R"
grep -q "restored  policy0 (CPUs 0-3) governor: schedutil -> ondemand" "$T/stdout" ||
	fail "revert output: $(cat "$T/stdout")"
same_as_pristine "apply, apply again, drift, second profile, revert"
expect_exit 0 "$UBTUNE" revert --root "$R"
grep -q "Nothing to revert" "$T/stdout" || fail "a second revert: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" status --root "$R"
grep -q "No profile is applied" "$T/stdout" || fail "status after revert: $(cat "$T/stdout")"

# a profile of settings only: nothing to journal, applied.json alone
printf '[build]\ncflags = -O2\n' >"$T/flags.profile"
expect_exit 0 apply "$T/flags.profile"
grep -q "Nothing changed; settings recorded in" "$T/stdout" || fail "settings-only apply: $(cat "$T/stdout")"
[ ! -e "$STATE/journal" ] || fail "an empty journal was left"
json_get "$STATE/applied.json" 'd["build"]["cflags"]' | grep -qx -- -O2 || fail "cflags not recorded"
expect_exit 0 "$UBTUNE" revert --root "$R"
grep -q "No changes to revert; the recorded settings" "$T/stdout" || fail "revert of settings: $(cat "$T/stdout")"
same_as_pristine "settings only"

# kill -9 after each single step of apply (journal entry written, change made)
steps=$((2 * n_actions))
for k in $(seq 1 "$steps"); do
	UBTUNE_FAULT_AT=$k apply "$T/t.profile" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 137 ] || fail "apply with UBTUNE_FAULT_AT=$k exited $rc, not killed"
	expect_exit 3 "$UBTUNE" status --root "$R" --json
	json_get "$T/stdout" 'd["interrupted"]' | grep -q True || fail "step $k: status does not say interrupted"
	expect_exit 0 "$UBTUNE" revert --root "$R"
	same_as_pristine "killed at step $k of $steps"
done

# after a reboot, runtime values are reported, not written; created directories go
expect_exit 0 apply "$T/t.profile"
echo 0b7e6c1a-93f4-4d2a-8c55-1e2f3a4b5c6d >"$R/proc/sys/kernel/random/boot_id"
expect_exit 0 "$UBTUNE" status --root "$R" --json
json_get "$T/stdout" 'd["rebooted"] and sum(k["state"] == "lost" for k in d["knobs"]) == 0' | grep -q True ||
	fail "status after reboot: $(cat "$T/stdout")"
echo ondemand >"$CPUFREQ/policy0/scaling_governor" # as the reboot would have reset it
expect_exit 3 "$UBTUNE" status --root "$R" --json
json_get "$T/stdout" '[k["state"] for k in d["knobs"] if k["target"].endswith("policy0/scaling_governor")] == ["lost"]' |
	grep -q True || fail "a value reset by the reboot is not 'lost': $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" revert --root "$R"
grep -q "reset     policy4 (CPUs 4-7) governor: set to performance before a reboot" "$T/stdout" ||
	fail "revert after reboot: $(cat "$T/stdout")"
[ "$(cat "$CPUFREQ/policy4/scaling_governor")" = performance ] || fail "revert wrote a value lost in the reboot"
[ ! -e "$R/var/tmp/bench" ] || fail "revert after reboot left the created directories"
[ ! -e "$STATE/journal" ] || fail "revert after reboot kept the journal"

# --json: the list, a check, the plan (nothing changed), what apply did and what revert put back
expect_exit 0 "$UBTUNE" apply --list --json
json_get "$T/stdout" 'sorted(p["name"] for p in d)' | grep -q "'rpi4'" || fail "apply --list --json: $(head -c 300 "$T/stdout")"
expect_exit 0 "$UBTUNE" apply --check --json rpi4
[ "$(json_get "$T/stdout" '(d["valid"], d["chain"])')" = "(True, ['generic', 'rpi4'])" ] || fail "apply --check --json"
rm -rf "$R" && cp -a "$T/pristine" "$R"
expect_exit 0 apply --dry-run --json "$T/t.profile"
[ "$(json_get "$T/stdout" '(d["schema"], d["dry_run"], len(d["actions"]) > 0, "result" in d)')" = \
	"('ubtune.apply/1', True, True, False)" ] || fail "apply --dry-run --json: $(head -c 400 "$T/stdout")"
[ ! -e "$STATE" ] || fail "apply --dry-run --json changed the root"
expect_exit 0 apply --json "$T/t.profile"
[ "$(json_get "$T/stdout" '(d["dry_run"], d["result"]["applied"] == len(d["actions"]), d["result"]["failure"])')" = \
	"(False, True, None)" ] || fail "apply --json: $(json_get "$T/stdout" 'd.get("result")')"
expect_exit 0 "$UBTUNE" revert --json --root "$R"
[ "$(json_get "$T/stdout" '(d["schema"], d["cleared"], {i["outcome"] for i in d["items"]} <= {"restored", "already"}, len(d["items"]) > 0)')" = \
	"('ubtune.revert/1', True, True, True)" ] || fail "revert --json: $(head -c 400 "$T/stdout")"
same_as_pristine "apply --json and revert --json"

# a damaged journal stops revert before it changes anything
rm -rf "$R" && cp -a "$T/pristine" "$R"
expect_exit 0 apply "$T/t.profile"
sed -i '3s/.*/{"op": broken/' "$STATE/journal"
expect_exit 1 "$UBTUNE" revert --root "$R"
grep -q "journal: line 3 (byte [0-9]*): not a journal entry; nothing was changed or cleared" "$T/stderr" ||
	fail "damaged journal: $(cat "$T/stderr")"
[ "$(cat "$CPUFREQ/policy4/scaling_governor")" = performance ] || fail "revert changed something"

# a journal that cannot be read whole is refused, said where, and kept with
# applied.json: a NUL byte, emptied, cut short, gone; apply refuses it too
damaged() { # damaged WHAT PATTERN EDIT...: revert and apply refuse the journal EDIT leaves
	local what=$1 pattern=$2
	shift 2
	rm -rf "$R" && cp -a "$T/pristine" "$R"
	expect_exit 0 apply "$T/t.profile"
	"$@"
	cp "$STATE/applied.json" "$T/applied.before"
	[ -e "$STATE/journal" ] && cp "$STATE/journal" "$T/journal.before"
	expect_exit 1 "$UBTUNE" revert --root "$R"
	grep -Eq "$pattern" "$T/stderr" || fail "$what: revert said $(cat "$T/stderr")"
	grep -q "Done" "$T/stdout" && fail "$what: revert says it is done"
	[ "$(cat "$CPUFREQ/policy4/scaling_governor")" = performance ] || fail "$what: revert changed a knob"
	cmp -s "$STATE/applied.json" "$T/applied.before" || fail "$what: applied.json was cleared"
	if [ -e "$T/journal.before" ]; then
		cmp -s "$STATE/journal" "$T/journal.before" || fail "$what: the journal was changed"
		expect_exit 1 apply "$T/t.profile"
		grep -Eq "$pattern|nothing was changed" "$T/stderr" || fail "$what: apply said $(cat "$T/stderr")"
		cmp -s "$STATE/journal" "$T/journal.before" || fail "$what: apply wrote to the journal"
		rm -f "$T/journal.before"
	else
		expect_exit 1 apply "$T/t.profile"
		grep -Eq "$pattern" "$T/stderr" || fail "$what: apply said $(cat "$T/stderr")"
		[ -e "$STATE/journal" ] && fail "$what: apply left a journal"
	fi
	cmp -s "$STATE/applied.json" "$T/applied.before" || fail "$what: apply changed applied.json"
}
nul() { printf '\0' | dd of="$STATE/journal" bs=1 seek=40 conv=notrunc status=none; }
damaged "a NUL byte" "journal: line 1 \(byte 40\): a NUL byte; the journal is damaged; nothing was changed or cleared" nul
damaged "an empty journal" "journal holds 0 changes, but apply journaled [0-9]+ \(applied.json\)" truncate -s 0 "$STATE/journal"
cut() { head -n 2 "$STATE/journal" >"$T/cut" && cat "$T/cut" >"$STATE/journal"; }
damaged "a journal cut short" "journal holds 1 change, but apply journaled [0-9]+ \(applied.json\)" cut
damaged "a journal gone" "journal holds 0 changes, but apply journaled" rm "$STATE/journal"
# an applied.json from before the count: an empty journal is as lost
uncounted() { $PY -c 'import json, sys; d = json.load(open(sys.argv[1])); del d["journaled"]; json.dump(d, open(sys.argv[1], "w"))' "$STATE/applied.json"; truncate -s 0 "$STATE/journal"; }
damaged "an empty journal, applied.json uncounted" "journal holds no change, but applied.json lists [0-9]+ knobs" uncounted

# status, apply and revert refuse an applied.json they cannot read
for garbage in 'not json' '[1, 2]' '{"profiles": 5}' '{"profiles": ["a"], "knobs": [{"what": "x"}]}'; do
	rm -rf "$R" && cp -a "$T/pristine" "$R"
	expect_exit 0 apply "$T/t.profile"
	printf '%s\n' "$garbage" >"$STATE/applied.json"
	expect_exit 1 "$UBTUNE" status --root "$R"
	grep -Eq "cannot read .*/applied.json: (not JSON|not a JSON object|profiles is a number, not a list|knobs\[0\] has no kind and target)$" \
		"$T/stderr" || fail "status of '$garbage': $(cat "$T/stderr")"
	[ -s "$T/stdout" ] && fail "status of '$garbage' printed: $(cat "$T/stdout")"
	expect_exit 1 "$UBTUNE" revert --root "$R"
	grep -q "applied.json: .*; nothing was changed" "$T/stderr" || fail "revert of '$garbage': $(cat "$T/stderr")"
	expect_exit 1 apply "$T/t.profile"
	grep -q "applied.json: .*; nothing was changed" "$T/stderr" || fail "apply on '$garbage': $(cat "$T/stderr")"
done
pass
