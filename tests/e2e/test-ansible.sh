#!/bin/bash
# The commands of README.md's "A fleet" (and contrib/ansible/README.md's)
# run for real against hosts reached over SSH: each host is a network
# namespace of its own, linked to this test's, with its own sshd, host
# name, machine id, /usr/local/bin, /var/lib, /var/cache and /root (mount
# and UTS namespaces), started and stopped here. h1 and h2 are good
# hosts (h1 applies and reverts a profile on a fixture root), b7 benchmarks
# on a disk that syncs every write, w4 is busy (its /proc/stat says so), k3
# is killed in the middle of its run, x5 cannot be reached. Then a second
# round of h1 and h2 alone (--limit), an import alone, and --check. What the
# play shows and how it ends, what reaches the controller, and what
# `ubtune fleet` says of both rounds are checked.
#
# Everything lives in a network and mount namespace of this test's (the
# links and mounts go with it): it needs root, as in CI.
if [ -z "${UBTUNE_ANSIBLE_NS:-}" ] && [ "$(id -u)" = 0 ] && unshare --net --mount true 2>/dev/null; then
	UBTUNE_ANSIBLE_NS=1 exec unshare --net --mount --propagation private --fork -- "$BASH" "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/tune-fixture.sh"
# the playbook is run once, by the full build's check (it takes minutes)
built_with sqlite || skip "a minimal build: the full build's check runs the playbook"
[ -n "${UBTUNE_ANSIBLE_NS:-}" ] || skip "needs root and network namespaces (hosts of their own with an sshd each)"
for tool in ansible-playbook /usr/sbin/sshd ssh ssh-keygen ip timeout; do
	command -v "$tool" >/dev/null || skip "$tool is not installed (make deps)"
done
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "/dev/shm is not a tmpfs"
mkdir "$T/b7-work"
chattr +S "$T/b7-work" 2>/dev/null || skip "chattr +S does not work in $T"

# the test's own /run: ip netns keeps its names there, sshd its privilege separation directory
mount -t tmpfs tmpfs /run && mkdir -p /run/netns /run/sshd || fail "cannot mount a tmpfs on /run"
ip link set lo up
ssh-keygen -q -t ed25519 -N '' -f "$T/id" && ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey" &&
	cp "$T/id.pub" "$T/authorized_keys" || fail "ssh-keygen failed"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# start_host NAME N [FAKE_PROC_STAT]: host NAME at 10.26.N.2
start_host() {
	local name=$1 n=$2 stat=${3:-} d=$T/$1
	mkdir -p "$d/usr-local-bin" "$d/var-lib" "$d/var-cache"
	printf '%032x\n' "$(cksum <<<"$name" | cut -d' ' -f1)" >"$d/machine-id"
	ip netns add "$name" &&
		ip link add "v$name" type veth peer name eth0 netns "$name" &&
		ip addr add "10.26.$n.1/24" dev "v$name" && ip link set "v$name" up &&
		ip -n "$name" addr add "10.26.$n.2/24" dev eth0 && ip -n "$name" link set eth0 up &&
		ip -n "$name" link set lo up || fail "cannot make the network of $name"
	cat >"$d/sshd_config" <<EOF
ListenAddress 10.26.$n.2
HostKey $T/hostkey
AuthorizedKeysFile $T/authorized_keys
PidFile none
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
Subsystem sftp internal-sftp
LogLevel ERROR
EOF
	ip netns exec "$name" unshare --mount --uts --propagation private sh -c '
		hostname "$1" &&
		mount --bind "$2/machine-id" /etc/machine-id &&
		mount --bind "$2/usr-local-bin" /usr/local/bin &&
		mount --bind "$2/var-lib" /var/lib && mount --bind "$2/var-cache" /var/cache &&
		mount -t tmpfs tmpfs /root &&
		{ [ -z "$3" ] || mount --bind "$3" /proc/stat; } &&
		exec /usr/sbin/sshd -D -e -f "$2/sshd_config"' sh "$name" "$d" "$stat" 2>"$d/sshd.log" &
	pids+=($!)
}
start_host h1 1
start_host h2 2
start_host b7 7
start_host k3 3
# busy: more processes runnable than ubtune runs with
sed 's/^procs_running .*/procs_running 9/' /proc/stat >"$T/busy-stat"
start_host w4 4 "$T/busy-stat"
for n in 1 2 7 3 4; do
	for ((i = 0; i < 50; i++)); do
		timeout 1 bash -c "echo >/dev/tcp/10.26.$n.2/22" 2>/dev/null && break
		sleep 0.2
	done
done

# the binary directory the role installs from: the ubtune of this build
mkdir "$T/bin"
cp "$UBTUNE" "$T/bin/ubtune-$(uname -m)"
# h1's fixture root, which gets a profile applied and reverted
make_tune_root "$R"
cp -a "$R" "$T/pristine"
make_tune_profile "$T/tune.profile"
SHM=$(mktemp -d /dev/shm/ubtune-e2e.XXXXXX)
trap 'cleanup; rm -rf "$SHM"' EXIT

# host NAME N [VAR: VALUE...]: an inventory entry
host() {
	local name=$1 n=$2
	shift 2
	echo "    $name:"
	echo "      ansible_host: 10.26.$n.2"
	for v in "$@"; do echo "      $v"; done
}
{
	cat <<YAML
all:
  vars:
    ansible_user: root
    ansible_ssh_private_key_file: $T/id
    ansible_ssh_common_args: -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o ConnectTimeout=10
    ansible_python_interpreter: /usr/bin/python3
    ubtune_binary_dir: $T/bin
    ubtune_bench_options: [--quick, --tests, "dhry2reg,fstime,pipe", --copies, "1"]
    ubtune_force: true
    ubtune_poll_interval: 2
    ubtune_fetch_dir: $T/fetched
    ubtune_controller_command: [$UBTUNE]
    ubtune_controller_environment:
      UBTUNE_STATE_DIR: $T/controller
    # this build's ubtune is not static: its workloads and data are here
    ubtune_environment:
      UBTUNE_LIBEXECDIR: $(dirname "$UBTUNE")
      UBTUNE_DATADIR: $SRCDIR
  hosts:
YAML
	host h1 1 "ubtune_root: $R" "ubtune_profile: $T/tune.profile" "ubtune_workdir: $SHM"
	host h2 2 "ubtune_workdir: $SHM"
	host b7 7 "ubtune_workdir: $T/b7-work"
	host k3 3 "ubtune_workdir: $SHM"
	host w4 4 "ubtune_force: false"
	host x5 5
} >"$T/inventory.yml"
export ANSIBLE_FORKS=6 ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_LOCAL_TEMP="$T/ansible-local" \
	ANSIBLE_HOME="$T/ansible-home" ANSIBLE_SSH_CONTROL_PATH_DIR="$T/cp" ANSIBLE_STDOUT_CALLBACK=default \
	ANSIBLE_PIPELINING=1

# the command both READMEs give, with the test's inventory
cmd=$(sed -n 's/^ *\(ansible-playbook -i INVENTORY [^#]*[^ #]\) *\(#.*\)\?$/\1/p' "$SRCDIR/README.md")
[ -n "$cmd" ] || fail "README.md gives no ansible-playbook command"
grep -qxF "    $cmd" "$SRCDIR/contrib/ansible/README.md" || fail "contrib/ansible/README.md does not give '$cmd'"
grep -q "^    make fleet-binaries" "$SRCDIR/README.md" "$SRCDIR/contrib/ansible/README.md" ||
	fail "the READMEs do not say how the binaries are made"
play() { # play LOG [ARGS...]: the README's command, then ARGS
	local log=$1
	shift
	(cd "$SRCDIR" && ${cmd/INVENTORY/$T/inventory.yml} "$@") >"$log" 2>&1
}

# --check of h1, as a Debian host with the package: the plan names the
# package's path; nothing is installed, fetched or stored
play "$T/check.log" --check --limit h1 -e ubtune_deb=/srv/ubtune_0.1.0_amd64.deb ||
	fail "--check failed: $(tail -c 1500 "$T/check.log")"
grep -q "install package as /usr/bin/ubtune from /srv/ubtune_0.1.0_amd64.deb; /usr/bin/ubtune probe --json --root $R" \
	"$T/check.log" || fail "--check does not plan the package: $(tail -c 1500 "$T/check.log")"
play "$T/check2.log" --check --limit h1 || fail "--check failed: $(tail -c 1500 "$T/check2.log")"
grep -q "install binary as /usr/local/bin/ubtune; .*bench --json --round [0-9TZ]* --quick" "$T/check2.log" ||
	fail "--check does not plan the binary: $(tail -c 1500 "$T/check2.log")"
[ -z "$(ls -A "$T/h1/usr-local-bin")" ] && [ ! -e "$T/fetched" ] && [ ! -e "$T/controller" ] ||
	fail "--check changed something: $(ls "$T/h1/usr-local-bin" "$T/fetched" "$T/controller" 2>&1)"

# round 1: k3 is stopped once its second test has begun
kill_k3() {
	local p
	for ((i = 0; i < 2400; i++)); do
		for p in $(ip netns pids k3 2>/dev/null); do
			if [ "$(cat "/proc/$p/comm" 2>/dev/null)" = ubtune ] && grep -q '\[2/3\]' "/proc/$p/fd/2" 2>/dev/null; then
				kill -TERM "$p"
				echo "$p" >"$T/k3.killed"
				return
			fi
		done
		sleep 0.25
	done
}
kill_k3 &
killer=$!
play "$T/run.log"
rc=$?
kill "$killer" 2>/dev/null
wait "$killer"
[ -s "$T/k3.killed" ] || fail "k3's benchmark was never seen running"
[ $rc -eq 4 ] || fail "the play exited $rc, expected 4 (x5 unreachable): $(tail -c 2500 "$T/run.log")"
round1=$(json_get "$T/fetched/h2/"*.result.json 'd["round"]')
[ -n "$round1" ] || fail "h2's result has no round"
# each host's progress while it ran
grep -Eq '"msg": "h1: \[[123]/3\] ' "$T/run.log" || fail "no progress of h1 shown: $(grep -A3 Progress "$T/run.log" | head -20)"
# what failed, and why; the hosts that did not fail did not
sed -n '/TASK \[The hosts that failed\]/,/^$/p' "$T/run.log" >"$T/failed"
grep -q '"x5: unreachable' "$T/failed" || fail "x5 is not listed: $(cat "$T/failed")"
grep -q '"w4: Run the benchmark: the machine is busy: [0-9.]* processes runnable' "$T/failed" &&
	grep -q 'Set ubtune_force=true to benchmark it anyway' "$T/failed" || fail "w4's refusal: $(cat "$T/failed")"
grep -q '"k3: Run the benchmark: stopped by signal 15: the tests that finished are brought back' "$T/failed" ||
	fail "k3 is not listed as stopped: $(cat "$T/failed")"
! grep -Eq '"(h1|h2|b7):' "$T/failed" || fail "a good host is listed as failed: $(cat "$T/failed")"
grep -Eq '^x5 +: .*unreachable=1' "$T/run.log" || fail "x5 is not unreachable in the recap"
for h in w4 k3; do
	grep -Eq "^$h +: .*failed=1" "$T/run.log" || fail "$h is not failed in the recap: $(tail -c 800 "$T/run.log")"
done
# what came back: every host's probe, the results (k3's with the tests that
# finished), the errors; the binary installed where the plan said
for h in h1 h2 b7 k3; do
	grep -Eq "^$h +: .*failed=[01] " "$T/run.log" || fail "$h: $(tail -c 800 "$T/run.log")"
	cmp -s "$T/bin/ubtune-$(uname -m)" "$T/$h/usr-local-bin/ubtune" || fail "$h: the binary is not in /usr/local/bin"
	[ -s "$T/fetched/$h/probe.json" ] && ls "$T/fetched/$h/"*.result.json >/dev/null 2>&1 ||
		fail "$h: the records were not fetched: $(ls -R "$T/fetched")"
	# h1 probes its fixture root
	[ $h = h1 ] || json_get "$T/fetched/$h/probe.json" 'd["host"]["hostname"]' | grep -qx "$h" ||
		fail "$h's probe is not of $h"
done
# (on a loaded machine the kill may come once the second test is done)
json_get "$T/fetched/k3/"*.result.json '(d["incomplete"], d["interrupted_by"], [t["id"] for t in d["runs"][0]["tests"]
	if t.get("index")], d["runs"][0]["index"]["partial"])' |
	grep -Eqx "\(True, 'SIGTERM', \['dhry2reg'(, 'fstime')?\], True\)" ||
	fail "k3's partial result: $(head -c 400 "$T/fetched/k3/"*.result.json)"
grep -q "stopped by signal 15" "$T/fetched/k3/$round1.error" && grep -q "^ubtune bench: \[2/3\]" "$T/fetched/k3/$round1.error" ||
	fail "k3's error: $(cat "$T/fetched/k3/"*.error)"
grep -q "the machine is busy" "$T/fetched/w4/$round1.error" && [ -s "$T/fetched/w4/probe.json" ] ||
	fail "w4 sent back no probe or error: $(ls "$T/fetched/w4")"
[ ! -e "$T/fetched/x5" ] || fail "x5 sent something: $(ls "$T/fetched/x5")"
json_get "$T/fetched/h1/probe.json" 'd["root"]' | grep -qxF "$R" || fail "h1's probe did not read its root"
same_as_pristine "after the playbook (apply, then revert)"
grep -Eq "changed: \[[a-z0-9]+ -> localhost\]" <(sed -n '/TASK \[Import them/,/^$/p' "$T/run.log") ||
	fail "the import did not say it stored: $(sed -n '/TASK \[Import them/,/^$/p' "$T/run.log")"

# the controller's store: the four results of the round, four machines
export UBTUNE_STATE_DIR="$T/controller"
expect_exit 0 "$UBTUNE" history --json
json_get "$T/stdout" 'sorted((r["host"], r["round"]) for r in d)' |
	grep -qxF "[('b7', '$round1'), ('h1', '$round1'), ('h2', '$round1'), ('k3', '$round1')]" ||
	fail "the controller's store: $(head -c 800 "$T/stdout")"
json_get "$T/stdout" 'len({r["machine_id"] for r in d})' | grep -qx 4 || fail "not four machines: $(cat "$T/stdout")"
# the fleet of round 1: b7 and its workdir, k3 cut short
expect_exit 0 "$UBTUNE" fleet --width 1000
cp "$T/stdout" "$T/fleet-1.txt"
grep -q "^Round $round1: 4 hosts, from 4 of 4 stored results" "$T/fleet-1.txt" || fail "round 1: $(cat "$T/fleet-1.txt")"
grep -Eq "host b7 scores [0-9]+ (%|times) below its [23] peers in File Copy 1024: its workdir is on .*, theirs on tmpfs" \
	"$T/fleet-1.txt" || fail "fleet does not name b7 with its workdir: $(cat "$T/fleet-1.txt")"
grep -Eq "^Note: k3's result is incomplete: stopped by SIGTERM after [12] tests?$" "$T/fleet-1.txt" ||
	fail "fleet does not say k3 was cut short: $(cat "$T/fleet-1.txt")"
grep -q "host b7" "$T/run.log" || fail "the play does not show the fleet"

# round 2: h1 and h2 alone, h2 given 9 s (stopped in the middle); the
# controller stores them all the same, and nothing is installed again
sleep 1
sed 's/^    h2:$/&\n      ubtune_bench_timeout: 9/' "$T/inventory.yml" >"$T/inventory-2.yml"
cp "$T/inventory-2.yml" "$T/inventory.yml"
play "$T/run2.log" --limit h1,h2
rc=$?
[ $rc -eq 2 ] || fail "round 2 exited $rc, expected 2 (h2 stopped): $(tail -c 2000 "$T/run2.log")"
grep -q '"h2: Run the benchmark: stopped after 9 s (ubtune_bench_timeout): the tests that finished are brought back' \
	"$T/run2.log" || fail "h2's timeout: $(sed -n '/The hosts that failed/,/^$/p' "$T/run2.log")"
sed -n '/TASK \[ubtune : Copy the binary\]/,/^$/p' "$T/run2.log" | grep -q "^ok: \[h1\]" ||
	fail "h1's binary was copied again: $(sed -n '/Copy the binary/,/^$/p' "$T/run2.log")"
expect_exit 0 "$UBTUNE" history --json
# h2's result, when a test finished in its 9 s, is marked incomplete
json_get "$T/stdout" '[r["flags"] for r in d if r["host"] == "h2"][1:]' | grep -Eqx "\[\]|\[\['quick', 'incomplete'.*\]\]" ||
	fail "h2's stopped result: $(cat "$T/stdout")"
stored=$(json_get "$T/stdout" 'len(d)')
expect_exit 0 "$UBTUNE" fleet --width 1000
round2=$(sed -n "s/^Round \([^:]*\): [12] hosts\?, from [12] of $stored stored results\..*/\1/p" "$T/stdout")
[ -n "$round2" ] && [ "$round2" != "$round1" ] || fail "round 2: $(cat "$T/stdout")"
# (h2 too, had its 9 s ended before a test did)
grep -Eq "^Missing from round $round2 \([23] hosts\): b7 \(its latest result, [0-9]+, is of round $round1, started [^)]*\); (h2 \([^)]*\); )?k3 \(" \
	"$T/stdout" || fail "the hosts missing from round 2: $(cat "$T/stdout")"
expect_exit 0 "$UBTUNE" fleet --since "$round1" --json
json_get "$T/stdout" '(d["since"]["round"], sorted({h["host"] for h in d["since"]["hosts"]} - {"h2"}), sorted(set(d["since"]["gone"]) - {"h2"}))' |
	grep -qxF "('$round1', ['h1'], ['b7', 'k3'])" || fail "--since: $(json_get "$T/stdout" 'd["since"]')"
expect_exit 0 "$UBTUNE" fleet --round "$round1" --json
json_get "$T/stdout" 'sorted(r["host"] for r in d["results"])' | grep -qxF "['b7', 'h1', 'h2', 'k3']" ||
	fail "--round $round1: $(head -c 600 "$T/stdout")"

# the import alone stores nothing twice and changes nothing
expect_exit 0 "$UBTUNE" history --json
cp "$T/stdout" "$T/history-2.json"
play "$T/import.log" --tags import --limit h1,h2 || fail "the import alone failed: $(tail -c 1500 "$T/import.log")"
! grep -Eq '^[a-z0-9]+ +: .*changed=[1-9]' "$T/import.log" || fail "the import alone changed something: $(tail -c 800 "$T/import.log")"
expect_exit 0 "$UBTUNE" history --json
cmp -s "$T/stdout" "$T/history-2.json" || fail "the import alone stored again"
pass
