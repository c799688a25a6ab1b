# Faults injected by strace into the syscalls named in $SYSCALLS, for
# test-tune-crash.sh and test-faults.sh. Sourced after lib.sh.
command -v strace >/dev/null || skip "strace is missing"
strace -qq -o /dev/null -e trace=write -e inject=write:retval=1:when=1000 true 2>/dev/null ||
	skip "strace cannot trace here (ptrace is not permitted)"

# count_calls CMD...: CMD's calls of each syscall of $SYSCALLS, as
# "SYSCALL COUNT" lines
count_calls() {
	strace -qq -o "$T/trace" -e trace="$(echo $SYSCALLS | tr ' ' ,)" "$@" >/dev/null 2>&1 || fail "$* failed under strace"
	sed -n 's/^\([a-z0-9_]*\)(.*/\1/p' "$T/trace" | sort | uniq -c | awk '{ print $2, $1 }'
}
# points COUNT: the fault points of a count with the stride $STRIDE:
# 1, 1+K, ..., and the last
points() { seq 1 "$STRIDE" "$1"; [ $(( ($1 - 1) % STRIDE )) -eq 0 ] || echo "$1"; }
# faulted SYSCALL N FAULT CMD...: runs CMD (its output in $T/out) with FAULT
# (error=ENOSPC, error=EIO, signal=SIGKILL) at its Nth call of SYSCALL
faulted() {
	local sc=$1 n=$2 how=$3
	shift 3
	# in a subshell, which reports the kill to /dev/null
	(strace -qq -o /dev/null -e trace="$sc" -e inject="$sc:$how:when=$n" "$@" >"$T/out" 2>&1; exit $?) 2>/dev/null
}
