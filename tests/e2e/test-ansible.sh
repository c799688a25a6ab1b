#!/bin/bash
# The Ansible playbook of contrib/ansible run for real with ansible-playbook
# against five inventory hosts on this machine (Ansible's local connection):
# each host has its own ubtune (installed by the role from a binary
# directory), state directory, host name (a UTS namespace of its own), fixture
# root for probe, apply and revert, and workdir. p1, p2 and p3 benchmark in tmpfs,
# b7 in a directory of a disk with synchronous writes (chattr +S), x9 fails.
# Checked: the records of every good host reach the controller's store, x9 is
# listed and does not stop the others, the fixture root is back as it was, a
# second import stores nothing twice, `fleet` names b7 with its workdir as the
# reason, and --check changes nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bench-lib.sh"
. "$(dirname "$0")/tune-fixture.sh"
# the playbook is run once, by the full build's check (it takes minutes)
built_with sqlite || skip "a minimal build: the full build's check runs the playbook"
command -v ansible-playbook >/dev/null || skip "ansible-playbook is not installed (Debian's ansible-core)"
unshare --user --map-root-user --uts true 2>/dev/null || skip "no user and UTS namespaces here"
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "/dev/shm is not a tmpfs"
SHM=$(mktemp -d /dev/shm/ubtune-e2e.XXXXXX)
trap 'rm -rf "$T" "$SHM"' EXIT
mkdir "$T/b7-work"
chattr +S "$T/b7-work" 2>/dev/null || skip "chattr +S does not work in $T"
export ANSIBLE_FORKS=5 ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_LOCAL_TEMP="$T/ansible-local" \
	ANSIBLE_REMOTE_TEMP="$T/ansible-remote" ANSIBLE_HOME="$T/ansible-home" ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_PIPELINING=1
PLAYBOOK="$SRCDIR/contrib/ansible/benchmark.yml"
LIBEXEC=$(dirname "$UBTUNE")

# the binary directory the role installs from: the ubtune of this build
mkdir "$T/bin"
cp "$UBTUNE" "$T/bin/ubtune-$(uname -m)"
# p1's fixture root, which gets a profile applied and reverted
make_tune_root "$R"
cp -a "$R" "$T/pristine"
make_tune_profile "$T/tune.profile"

# host NAME WORKDIR [VAR: VALUE...]: an inventory entry
host() {
	local name=$1 work=$2
	shift 2
	mkdir -p "$T/$name"
	# a machine of its own: its machine id
	printf '%032x\n' "$(cksum <<<"$name" | cut -d' ' -f1)" >"$T/$name/machine-id"
	cat <<YAML
    $name:
      ubtune_bin: $T/$name/bin/ubtune
      ubtune_command: [unshare, --user, --map-root-user, --uts, --mount, sh, -c, 'hostname "\$0" && mount --bind "\$1" /etc/machine-id && shift && exec "\$@"', $name, $T/$name/machine-id, $T/$name/bin/ubtune]
      ubtune_workdir: $work
      ubtune_environment:
        UBTUNE_STATE_DIR: $T/$name/state
        UBTUNE_CACHE_DIR: $T/$name/cache
        UBTUNE_DATADIR: $SRCDIR
        UBTUNE_LIBEXECDIR: $LIBEXEC
YAML
	for v in "$@"; do echo "      $v"; done
}
{
	cat <<YAML
all:
  vars:
    ansible_connection: local
    ansible_python_interpreter: /usr/bin/python3
    ubtune_install: binary
    ubtune_binary_dir: $T/bin
    ubtune_bench_options: [--quick, --tests, fstime, --copies, "1", --force]
    ubtune_bench_throttle: 1
    ubtune_fetch_dir: $T/fetched
    ubtune_controller_command: [$UBTUNE]
    ubtune_controller_environment:
      UBTUNE_STATE_DIR: $T/controller
  hosts:
YAML
	host p1 "$SHM" "ubtune_root: $R" "ubtune_profile: $T/tune.profile"
	host p2 "$SHM"
	host p3 "$SHM"
	host b7 "$T/b7-work"
	host x9 "$SHM" "ubtune_bench_options: [--tests, nosuch]"
} >"$T/inventory.yml"

# --check (of two hosts): the plan, and nothing installed, fetched or stored
ansible-playbook -i "$T/inventory.yml" --check --limit b7,localhost "$PLAYBOOK" >"$T/check.log" 2>&1 ||
	fail "--check failed: $(tail -c 1500 "$T/check.log")"
grep -q "bench --quick --tests fstime --copies 1 --force --workdir $T/b7-work" "$T/check.log" ||
	fail "--check does not show the plan: $(tail -c 1500 "$T/check.log")"
[ ! -e "$T/b7/bin/ubtune" ] && [ ! -e "$T/fetched" ] && [ ! -e "$T/controller" ] ||
	fail "--check changed something: $(ls "$T/b7" "$T/fetched" "$T/controller" 2>&1)"

ansible-playbook -i "$T/inventory.yml" "$PLAYBOOK" >"$T/run.log" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "the playbook exited $rc, expected 2 (x9 fails): $(tail -c 2000 "$T/run.log")"
grep -q 'x9: Run the benchmark: .*nosuch' "$T/run.log" || fail "x9 is not listed as failed: $(tail -c 2000 "$T/run.log")"
grep -Eq '^x9 +: .*failed=1' "$T/run.log" || fail "x9 is not failed in the recap: $(tail -c 800 "$T/run.log")"
for h in p1 p2 p3 b7; do
	grep -Eq "^$h +: .*failed=0" "$T/run.log" || fail "$h failed: $(tail -c 2000 "$T/run.log")"
	cmp -s "$T/bin/ubtune-$(uname -m)" "$T/$h/bin/ubtune" || fail "$h: the binary is not installed"
	[ -s "$T/fetched/$h/probe.json" ] && ls "$T/fetched/$h/"*.result.json >/dev/null 2>&1 ||
		fail "$h: the records were not fetched: $(ls -R "$T/fetched")"
done
json_get "$T/fetched/p1/probe.json" 'd["root"]' | grep -qxF "$R" || fail "p1's probe did not read its root"
same_as_pristine "after the playbook (apply, then revert)"

# every good host's result in the controller's store, under its own name
export UBTUNE_STATE_DIR="$T/controller"
expect_exit 0 "$UBTUNE" history --json
json_get "$T/stdout" 'sorted(r["host"] for r in d)' | grep -qx "\['b7', 'p1', 'p2', 'p3'\]" ||
	fail "the controller's store: $(head -c 600 "$T/stdout")"
cp "$T/stdout" "$T/history-1.json"

# a second collection stores nothing twice
ansible-playbook -i "$T/inventory.yml" --tags import "$PLAYBOOK" >"$T/import.log" 2>&1 ||
	fail "the import alone failed: $(tail -c 1500 "$T/import.log")"
grep -Eq '^localhost +: .*changed=0' "$T/import.log" || fail "the second import changed something: $(tail -c 800 "$T/import.log")"
expect_exit 0 "$UBTUNE" history --json
cmp -s "$T/stdout" "$T/history-1.json" || fail "the second import stored again: $(head -c 600 "$T/stdout")"

# the fleet names b7, and its workdir (its sentence on one line)
expect_exit 0 "$UBTUNE" fleet --width 1000
grep -Eq "host b7 scores [0-9]+ (%|times) below its 3 peers in File Copy 1024( \(1 copy\))?: its workdir is on .*, theirs on tmpfs" "$T/stdout" ||
	fail "fleet does not name b7 with its workdir: $(cat "$T/stdout")"
grep -q "host b7" "$T/run.log" || fail "the playbook does not show the fleet"
pass
