#!/bin/bash
# Two apply --root (or an apply and a revert) on one dump at once: each
# either does its work or says that another apply or revert is running,
# never that the journal is missing; what the one that ran did is then
# reverted in full.
. "$(dirname "$0")/lib.sh"

R=$T/root
# the dump after one apply and its revert, as every round must leave it (a
# sysfs choice file of the dump reads back as the value written)
cp -a "$FIXTURES/rpi4-undervoltage" "$T/after"
expect_exit 0 "$UBTUNE" apply --root "$T/after" rpi4
expect_exit 0 "$UBTUNE" revert --root "$T/after"
for round in $(seq 10); do
	rm -rf "$R" && cp -a "$FIXTURES/rpi4-undervoltage" "$R"
	if [ $((round % 2)) = 0 ]; then
		second=(apply --root "$R" rpi4)
	else
		# a revert racing the apply: with nothing applied yet it has nothing to do
		second=(revert --root "$R")
	fi
	"$UBTUNE" apply --root "$R" rpi4 >"$T/1.out" 2>"$T/1.err" &
	p1=$!
	"$UBTUNE" "${second[@]}" >"$T/2.out" 2>"$T/2.err" &
	p2=$!
	wait $p1
	r1=$?
	wait $p2
	r2=$?
	for k in 1 2; do
		rc=r$k
		[ "${!rc}" = 0 ] && continue
		grep -q "another ubtune apply or revert is running" "$T/$k.err" ||
			fail "round $round, ${second[0]} race: command $k exited ${!rc}: $(cat "$T/$k.err")"
	done
	[ "$r1" = 0 ] || [ "$r2" = 0 ] || fail "round $round: both failed: $(cat "$T/1.err" "$T/2.err")"
	expect_exit 0 "$UBTUNE" revert --root "$R"
	diff -r --no-dereference "$T/after" "$R" >"$T/diff" || fail "round $round: the root is not as it was: $(head "$T/diff")"
done
pass
