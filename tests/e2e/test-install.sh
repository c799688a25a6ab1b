#!/bin/bash
# make install puts everything where PREFIX and DESTDIR say: the binary, the
# workloads and their sources, the man page, bash completion, the profiles
# and the reference runs; the installed binary finds its data there.
. "$(dirname "$0")/lib.sh"

dest=$T/dest
make -s -C "$SRCDIR" install DESTDIR="$dest" PREFIX=/usr >"$T/make.log" 2>&1 || fail "make install failed: $(tail -5 "$T/make.log")"
for f in usr/bin/ubtune usr/share/man/man1/ubtune.1 usr/share/bash-completion/completions/ubtune \
	usr/share/ubtune/reference/published-results.json usr/libexec/ubtune/ubtune-workloads \
	usr/share/ubtune/workloads/Makefile; do
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
pass
