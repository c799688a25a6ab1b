# Sourced by the bench end-to-end tests, after lib.sh.
# ENGINE: the options that pick what runs the tests: ubtune's own workloads
# when they are built, else a built UnixBench tree named by UNIXBENCH_DIR.
if [ -x "$SRCDIR/build/ubtune-workloads" ]; then
	ENGINE=()
elif [ -n "${UNIXBENCH_DIR:-}" ] && [ -x "$UNIXBENCH_DIR/pgms/dhry2reg" ]; then
	ENGINE=(--unixbench "$UNIXBENCH_DIR")
else
	skip "no workloads: build build/ubtune-workloads, or set UNIXBENCH_DIR to a built UnixBench tree"
fi

# Every live descendant of PID as "pid pgid starttime", one per line.
descendants() {
	$PY - "$1" <<'PY'
import os, sys
root = int(sys.argv[1])
procs = {}
for d in os.listdir("/proc"):
    if not d.isdigit():
        continue
    try:
        s = open(f"/proc/{d}/stat").read()
    except OSError:
        continue
    f = s[s.rindex(")") + 2:].split()
    procs[int(d)] = (int(f[1]), int(f[2]), f[19])
for pid, (ppid, pgid, start) in procs.items():
    p, seen = pid, 0
    while p in procs and seen < 4096:
        p, seen = procs[p][0], seen + 1
        if p == root:
            print(pid, pgid, start)
            break
PY
}

# True when a process of this "pid pgid starttime" line still exists.
still_alive() {
	local pid=$1 start=$3
	[ -r "/proc/$pid/stat" ] || return 1
	local now
	now=$($PY -c 'import sys; s=open(f"/proc/{sys.argv[1]}/stat").read(); print(s[s.rindex(")")+2:].split()[19])' "$pid" 2>/dev/null) || return 1
	[ "$now" = "$start" ]
}

# wait_for_processes PID N FILE: waits until PID has N descendants, listed in FILE.
wait_for_processes() {
	local pid=$1 n=$2 file=$3
	for _ in $(seq 50); do
		descendants "$pid" >"$file"
		[ "$(wc -l <"$file")" -ge "$n" ] && return 0
		sleep 0.1
	done
	kill -9 "$pid"
	fail "the copies did not start: $(cat "$file")"
}

# stop_and_check PID SIGNAL STATUS FILE: sends SIGNAL, expects exit STATUS, and
# checks that no process of FILE (as wait_for_processes wrote it) and
# nothing of their process groups is left.
stop_and_check() {
	local pid=$1 sig=$2 want=$3 file=$4 rc p g s
	kill "-$sig" "$pid"
	wait "$pid"
	rc=$?
	[ $rc -eq "$want" ] || fail "exit status $rc after SIG$sig, expected $want"
	while read -r p g s; do
		still_alive "$p" "$g" "$s" && fail "process $p ($(cat /proc/$p/comm 2>/dev/null)) outlived the run"
	done <"$file"
	local groups d want_g
	groups=$(awk '{print $2}' "$file" | sort -u)
	for d in /proc/[0-9]*; do
		g=$(awk '{ sub(/.*\) /, ""); print $3 }' "$d/stat" 2>/dev/null) || continue
		for want_g in $groups; do
			[ "$g" = "$want_g" ] && fail "process ${d#/proc/} of a copy's group $g is still there"
		done
	done
	return 0
}
