#!/bin/bash
# make install puts everything where PREFIX and DESTDIR say: the binary, the
# workloads and their sources, the man page, bash completion, the profiles
# and the reference runs; the installed binary finds its data there.
. "$(dirname "$0")/lib.sh"

dest=$T/dest
make -s -C "$SRCDIR" install DESTDIR="$dest" PREFIX=/usr >"$T/make.log" 2>&1 || fail "make install failed: $(tail -5 "$T/make.log")"
for f in usr/bin/ubtune usr/share/man/man1/ubtune.1 usr/share/bash-completion/completions/ubtune \
	usr/share/ubtune/reference/published-results.json usr/share/ubtune/workloads/Makefile \
	usr/libexec/ubtune/ubtune-{workloads,execl,whetstone,spawn} usr/share/ubtune/workloads/spawn-image.c; do
	[ -s "$dest/$f" ] || fail "make install did not install $f"
done
[ -x "$dest/usr/bin/ubtune" ] || fail "the installed binary is not executable"
for p in "$SRCDIR"/profiles/*.profile; do
	cmp -s "$p" "$dest/usr/share/ubtune/profiles/$(basename "$p")" || fail "profile $(basename "$p") not installed"
done
find "$dest" -path '*/build*' | grep -q . && fail "build files were installed"

# make deb and make fleet-binaries install what they need first: the first
# command of README.md installs only what builds ubtune
make -s -n -C "$SRCDIR" deb >"$T/deb.plan" 2>&1 || fail "make -n deb: $(cat "$T/deb.plan")"
# (a make that runs this test may add a line of its own first)
grep -v '^make' "$T/deb.plan" | head -n 1 | grep -q "^tools/install-deps .* dpkg-dev debhelper lintian$" ||
	fail "make deb does not install debhelper and lintian first: $(head -n 3 "$T/deb.plan")"
make -s -n -C "$SRCDIR" fleet-binaries >"$T/bin.plan" 2>&1 || fail "make -n fleet-binaries: $(cat "$T/bin.plan")"
grep -v '^make' "$T/bin.plan" | head -n 1 | grep -q "^tools/install-deps .* gcc-aarch64-linux-gnu .*nettle-dev:arm64" ||
	fail "make fleet-binaries does not install the cross compiler first: $(head -n 3 "$T/bin.plan")"
# the names the Ansible role copies (ubtune-{{ architecture }})
grep -q "contrib/ansible/bin/ubtune-$(uname -m)$" "$T/bin.plan" && grep -q "contrib/ansible/bin/ubtune-aarch64$" "$T/bin.plan" ||
	fail "make fleet-binaries does not make the role's binaries: $(cat "$T/bin.plan")"

# the installed binary, pointed at the installed data (DESTDIR moved it)
export UBTUNE_DATADIR=$dest/usr/share/ubtune
"$dest/usr/bin/ubtune" apply --check rk3568.profile >"$T/check" 2>&1 || fail "installed apply --check: $(cat "$T/check")"
"$dest/usr/bin/ubtune" probe --json --root "$FIXTURES/rpi4-undervoltage" >/dev/null || fail "installed probe failed"
man -l "$dest/usr/share/man/man1/ubtune.1" >/dev/null 2>&1 || ! command -v man >/dev/null || fail "the man page does not render"
bash -n "$dest/usr/share/bash-completion/completions/ubtune" || fail "the completion script has a syntax error"

# the installed workloads run the tests that are programs of their own
# (Whetstone, Execl Throughput, Process Creation): prebuilt, and compiled
# from the installed sources with a profile's flags
mkdir -p "$T/run" "$T/profiled"
printf '{"profiles": ["flags"], "build": {"cc": "gcc", "cflags": "-O1"}}\n' >"$T/profiled/applied.json"
for state in "$UBTUNE_STATE_DIR" "$T/profiled"; do
	(cd "$T/run" && UBTUNE_STATE_DIR=$state UBTUNE_LIBEXECDIR=$dest/usr/libexec/ubtune "$dest/usr/bin/ubtune" \
		bench --quick --iterations 1 --copies 1 --tests whetstone-double,execl,spawn --force --no-store --json) \
		>"$T/bench.json" 2>"$T/bench.err" || fail "installed bench ($state): $(tail -n 3 "$T/bench.err")"
	$PY - "$T/bench.json" "$dest" "$state" <<'PY' || fail "the installed bench did not run its workloads ($state)"
import json, os, sys
r = json.load(open(sys.argv[1]))
profiled = sys.argv[3].endswith("/profiled")
assert r["engine"]["prebuilt"] is not profiled, r["engine"]
where = r["engine"]["path"]
assert where.startswith(sys.argv[2] + "/usr/libexec/ubtune/" if not profiled else os.environ["UBTUNE_CACHE_DIR"] + "/workloads/"), where
for t in r["runs"][0]["tests"]:
    assert t["complete"] and t["error"] is None and t["result"] > 0, t
PY
done
pass
