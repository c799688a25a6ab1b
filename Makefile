# ubtune — GNU make build.
#
#   make              build build/ubtune
#   make run          install missing packages, build, run `ubtune probe`
#   make check        install missing packages, build, run every test
#   make fuzz         libFuzzer on every parser of outside input (FUZZ_SECONDS=60 each)
#   make bench-*      timings (bench-import: how fast and how linear import reads)
#   make install      PREFIX=/usr/local DESTDIR= (binary, man page, profiles, completion)
#
# Optional libraries: WITH_SYSTEMD=0 WITH_UDEV=0 WITH_HWLOC=0 WITH_SQLITE=0
# WITH_ARCHIVE=0, or MINIMAL=1 for all of them off.

VERSION := 0.1.0

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/ubtune
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
DESTDIR ?=

CROSS_COMPILE ?=
CC := $(CROSS_COMPILE)gcc
AR := $(CROSS_COMPILE)ar
PKG_CONFIG ?= pkg-config

# STATIC=1: one self-contained binary to copy onto a board. Debian ships no
# static libsystemd or libudev, hwloc's static library needs libudev, and a
# static libarchive pulls in glibc's NSS: those default to off.
STATIC ?= 0
STATIC_NOT := SYSTEMD UDEV HWLOC ARCHIVE
ifeq ($(STATIC),1)
$(foreach w,$(STATIC_NOT),$(eval WITH_$(w) ?= 0))
$(foreach w,$(STATIC_NOT),$(if $(filter 1,$(WITH_$(w))),$(error STATIC=1 cannot link WITH_$(w)=1: \
	Debian has no static build of it (or of what it needs); use WITH_$(w)=0)))
endif

MINIMAL ?= 0
ifeq ($(MINIMAL),1)
WITH_SYSTEMD ?= 0
WITH_UDEV ?= 0
WITH_HWLOC ?= 0
WITH_SQLITE ?= 0
WITH_ARCHIVE ?= 0
endif
WITH_SYSTEMD ?= 1
WITH_UDEV ?= 1
WITH_HWLOC ?= 1
WITH_SQLITE ?= 1
WITH_ARCHIVE ?= 1

PKGS := json-c inih
# /proc/config.gz is inflated in memory (probe/virt.c)
PKGS += zlib
# HMAC-SHA256 derives the machine's id from /etc/machine-id (lib/machine-id.c)
PKGS += nettle
ifeq ($(WITH_SYSTEMD),1)
PKGS += libsystemd
endif
ifeq ($(WITH_UDEV),1)
PKGS += libudev
endif
ifeq ($(WITH_HWLOC),1)
PKGS += hwloc
endif
ifeq ($(WITH_SQLITE),1)
PKGS += sqlite3
endif
ifeq ($(WITH_ARCHIVE),1)
PKGS += libarchive
endif

B := build
CFLAGS ?= -O2 -g
override CFLAGS += -std=gnu11 -Wall -Wextra -Wshadow -Wno-unused-parameter -Wmissing-prototypes \
	-I. -MMD -MP -D_GNU_SOURCE -DUBTUNE_VERSION='"$(VERSION)"' -DUBTUNE_DATADIR='"$(DATADIR)"' \
	-DHAVE_SYSTEMD=$(WITH_SYSTEMD) -DHAVE_UDEV=$(WITH_UDEV) -DHAVE_HWLOC=$(WITH_HWLOC) \
	-DHAVE_SQLITE=$(WITH_SQLITE) -DHAVE_ARCHIVE=$(WITH_ARCHIVE)
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS))
LDLIBS += -lm -pthread

ifeq ($(STATIC),1)
# UBTUNE_STATIC: the C library linked in is not the system's (probe/toolchain.c asks the system)
override CFLAGS += -DUBTUNE_STATIC
override LDFLAGS += -static
override PKG_CONFIG += --static
ifeq ($(WITH_SQLITE),1)
# SQLite's dlopen() goes to lib/nodl.c (linked as an object, so that it is
# there when SQLite asks): glibc's static one draws a linker warning
override LDFLAGS += -Wl,--wrap=dlopen
$(B)/ubtune: $(B)/lib/nodl.o
endif
endif
# Workloads prebuilt for other machines are not tuned for this one: no
# -march=native (UnixBench's default, which a cross compiler rejects).
ifneq ($(filter 1,$(STATIC))$(CROSS_COMPILE),)
WORKLOAD_CFLAGS ?= -O3 -ffast-math
endif
# A cross build takes the target's libraries from Debian's multiarch -dev
# packages (make deps ARCH=arm64), e.g. CROSS_COMPILE=aarch64-linux-gnu-.
ifneq ($(CROSS_COMPILE),)
export PKG_CONFIG_LIBDIR ?= /usr/lib/$(CROSS_COMPILE:%-=%)/pkgconfig:/usr/share/pkgconfig
endif

LIB_SRC := $(wildcard lib/*.c unixbench/*.c probe/*.c tune/*.c bench/*.c analysis/*.c)
CLI_SRC := $(wildcard cli/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(wildcard tests/unit/test-*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

all: $(B)/ubtune
.PHONY: all deps run check check-unit check-e2e install clean update-expected bench-probe bench-sampler bench-clock \
	bench-quick

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

# Written anew each time: `ar r` would keep the objects of moved or removed
# sources, and replace the wrong one of two objects with the same name
# (probe/services.o, tune/services.o).
$(B)/libubtune.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/ubtune: $(CLI_OBJ) $(B)/libubtune.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(B)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(B)/libubtune.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $$($(PKG_CONFIG) --cflags cmocka) -DSRCDIR='"$(CURDIR)"' -o $@ $< \
		$(B)/libubtune.a $(PKG_LIBS) $$($(PKG_CONFIG) --libs cmocka) $(LDLIBS)

# Debian packages: to build, to test, and tools the tests drive.
DEPS_BUILD := gcc make pkg-config libjson-c-dev libinih-dev libsystemd-dev libudev-dev \
	libhwloc-dev libsqlite3-dev libarchive-dev
DEPS_BUILD += zlib1g-dev nettle-dev
DEPS_TEST := libcmocka-dev dbus python3-dbusmock python3 util-linux
# xmllint checks that the SVG charts and HTML reports are well-formed XML
DEPS_TEST += libxml2-utils
# the Prometheus client's parsers and promtool check export --format openmetrics
DEPS_TEST += python3-prometheus-client prometheus
# the playbook of contrib/ansible: tests/e2e/test-ansible.sh runs it over SSH
# to hosts in network namespaces of their own, each with its sshd
DEPS_TEST += ansible-core openssh-server openssh-client iproute2
DEPS_DEB := dpkg-dev debhelper lintian
# strace injects kills and I/O errors into apply, revert and the store
DEPS_TEST += strace
# headless Chromium lays out the HTML pages and charts (test-pages.sh,
# tools/screenshot-pages), in the font the pages ask for first
DEPS_TEST += chromium fonts-dejavu-core
# check-arm64: the arm64 cross build (static, MINIMAL) and its tests under
# qemu-user; the target's libraries come as Debian multiarch packages.
DEPS_CROSS := gcc-aarch64-linux-gnu qemu-user-static \
	$(addsuffix :arm64,libjson-c-dev libinih-dev zlib1g-dev nettle-dev libsqlite3-dev libcmocka-dev)
# check-vm: Debian's kernels under qemu-system (TCG), busybox in the initramfs.
DEPS_VM := qemu-system-arm qemu-system-x86 busybox-static cpio
# make deps ARCH=arm64: every library of the full build for arm64 as well.
ifeq ($(ARCH),arm64)
DEPS_CROSS += $(addsuffix :arm64,$(filter lib%-dev zlib1g-dev,$(DEPS_BUILD)))
endif
# make fuzz: clang's libFuzzer and sanitizer runtimes
DEPS_FUZZ := clang libclang-rt-14-dev
deps:
	@tools/install-deps $(DEPS_BUILD) $(DEPS_TEST) $(DEPS_CROSS) $(DEPS_VM) $(DEPS_DEB)

# Builds made on the way (check's, the minimal, sanitizer, static and arm64
# ones) use every CPU unless make was given -j itself.
NPROC := $(shell nproc 2>/dev/null || echo 2)
SUBMAKE = $(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

# run needs only what builds ubtune
run:
	@tools/install-deps $(DEPS_BUILD)
	@$(SUBMAKE) all
	$(B)/ubtune probe

# check also runs check-arm64 and check-vm where their tools are installed
# (make deps installs them). Expanded when check's recipe runs, after deps.
have = $(shell command -v $(1) >/dev/null 2>&1 && echo yes)
CHECK_ARM64 = $(if $(and $(call have,aarch64-linux-gnu-gcc),$(call have,qemu-aarch64-static)),check-arm64)
CHECK_VM = $(if $(and $(CHECK_ARM64),$(call have,qemu-system-aarch64),$(call have,qemu-system-x86_64)),check-vm)
CHECK_MORE = check-static $(CHECK_ARM64) $(CHECK_VM)
# The stages run side by side (most of a test's time is waiting), each
# printing its lines when it ends.
check: deps
	@$(SUBMAKE) all $(UNIT_BIN)
	@$(SUBMAKE) --keep-going --output-sync=target check-layers check-unit check-e2e check-minimal check-san $(CHECK_MORE)

# No #include runs from a lower layer to a higher one, no two units include
# each other (docs/HACKING.md: the layers).
.PHONY: check-layers
check-layers:
	@tools/check-layers && echo "layers: every include runs downwards, no circles"

# Real dumps are kept packed; tests read them unpacked under build/fixtures/.
REAL_DUMPS := $(wildcard tests/fixtures/real/*.tar.gz)
FIXTURE_STAMP := $(B)/fixtures/.stamp
$(FIXTURE_STAMP): $(REAL_DUMPS) tools/relink-dump
	@rm -rf $(B)/fixtures && mkdir -p $(B)/fixtures
	@for f in $(REAL_DUMPS); do tar -C $(B)/fixtures -xzf $$f || exit 1; done
	@tools/relink-dump $(B)/fixtures/*/
	@touch $@

check-unit: $(UNIT_BIN) $(FIXTURE_STAMP)
	@tools/run-tests unit $(UNIT_BIN)

check-e2e: $(B)/ubtune $(FIXTURE_STAMP)
	@tools/run-tests e2e tests/e2e/test-*.sh

# The same tests against the minimal build (MINIMAL=1: no optional library)
# in $(MIN_B): unit tests, fixture records and every end-to-end test; what
# needs a library left out is checked to say so. It is compiled with -Werror:
# code left unused by a missing library shows there first.
MIN_B := $(B)-min
MIN_UNIT_BIN := $(UNIT_BIN:$(B)/%=$(MIN_B)/%)
.PHONY: check-minimal
check-minimal: $(FIXTURE_STAMP)
	@$(SUBMAKE) MINIMAL=1 B=$(MIN_B) CFLAGS="-O2 -g -Werror" all $(MIN_UNIT_BIN)
	@echo "minimal build ($(MIN_B)/ubtune):"
	@tools/run-tests unit $(MIN_UNIT_BIN)
	@UBTUNE=$(CURDIR)/$(MIN_B)/ubtune tools/run-tests e2e tests/e2e/test-*.sh

.PHONY: unit-tests check-arm64 check-vm check-builds check-crash
# The kill and I/O-error tests at every point of apply, revert and the
# store (make check tries every few): about 5 minutes on 2 cores.
check-crash: $(B)/ubtune
	@CRASH_STRIDE=1 FAULT_STRIDE=1 tools/run-tests e2e tests/e2e/test-tune-crash.sh tests/e2e/test-faults.sh

# the unit test programs, without running them
unit-tests: $(UNIT_BIN)

# The static minimal arm64 build, run under qemu-user: unit tests, and every
# fixture root recorded as the native build records it (tools/check-arm64).
ARM64_B := $(B)/arm64
ARM64_MAKE = $(SUBMAKE) CROSS_COMPILE=aarch64-linux-gnu- MINIMAL=1 STATIC=1 B=$(ARM64_B)
# check-arm64 and check-vm both need it: one build, never two at once under -j.
.PHONY: arm64-build static-build
arm64-build:
	+@$(ARM64_MAKE) all unit-tests
check-arm64: $(B)/ubtune $(FIXTURE_STAMP) arm64-build
	@tools/check-arm64 $(ARM64_B) $(B)/ubtune

# Debian's arm64 and amd64 kernels under qemu-system (TCG): the static
# ubtune in real guests (tools/check-vm); kernels are cached in $(B)/vm/cache.
STATIC_B := $(B)/static
static-build:
	+@$(SUBMAKE) STATIC=1 B=$(STATIC_B) all
check-vm: static-build arm64-build
	@tools/check-vm $(B)/vm $(STATIC_B) $(ARM64_B)

# Every combination of WITH_*=0/1 builds warning-free (-Werror), natively or
# with CROSS_COMPILE=; about 4 minutes on 2 cores, so not part of check.
check-builds:
	@tools/check-builds $(if $(CROSS_COMPILE),CROSS_COMPILE=$(CROSS_COMPILE))

# Benchmarks (timings are measured here, never asserted by tests).
bench-probe: $(B)/ubtune
	@tools/install-deps hwloc util-linux
	tools/bench-probe $(RUNS)

# `bench --quick` against the duration it states (with UNIXBENCH=DIR, a
# tree's Run too: about 20 minutes more).
bench-quick: $(B)/ubtune $(WORKLOAD_BIN)
	tools/bench-quick $(UNIXBENCH)

# Benchmark programs of tools/ linked with the library.
$(B)/bench-%: tools/bench-%.c $(B)/libubtune.a
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(B)/libubtune.a $(PKG_LIBS) $(LDLIBS)

# The bench sampler's CPU cost (goal: under 0.5 % of one CPU).
bench-sampler: $(B)/bench-sampler
	$(B)/bench-sampler $(SECONDS)

# The measured clock on this machine: median, spread, cost per CPU.
$(B)/bench-clock: tools/bench-clock.c $(B)/libubtune.a
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(B)/libubtune.a $(PKG_LIBS) $(LDLIBS)
bench-clock: $(B)/bench-clock
	$(B)/bench-clock $(ROUNDS)

# The results store with a fleet's history, SQLite (this build) and JSON
# files (the minimal build): history, show, compare, fleet and export over
#   make bench-store [N=10000] [HOSTS=100] [SAMPLES=0] [RUNS=5]
# results (SAMPLES: sampler readings added to each record); the stores
# are kept in $(B)/bench-store/ for the next run.
.PHONY: bench-store
bench-store:
	@$(SUBMAKE) all $(B)/bench-store-fill
	@$(SUBMAKE) MINIMAL=1 B=$(MIN_B) CFLAGS="-O2 -g -Werror" all $(MIN_B)/bench-store-fill
	tools/bench-store $(B) $(MIN_B) $(B)/bench-store $(or $(N),10000) $(or $(HOSTS),100) $(or $(SAMPLES),0) $(or $(RUNS),5)

# How fleet and export scale: stores of 1,000 and 10,000 hosts with PER
# results each, the wall time and peak RSS of fleet (text, JSON, HTML) and
# export (OpenMetrics, samples), and the ratio of the two sizes:
#   make bench-fleet [HOSTS="1000 10000"] [PER=10] [RUNS=3]
# The stores are kept in $(B)/bench-fleet/ for the next run.
.PHONY: bench-fleet
bench-fleet:
	@$(SUBMAKE) all $(B)/bench-store-fill
	PER=$(or $(PER),10) RUNS=$(or $(RUNS),3) tools/bench-fleet $(B)/ubtune $(B)/bench-store-fill $(B)/bench-fleet \
		$(or $(HOSTS),1000 10000)

# How fast import reads UnixBench output (report, .log, one long line) at 1,
# 15 and 100 MB, whether time per MB stays flat, and the libFuzzer rates of
# tests/fuzz/fuzz-unixbench.c and fuzz-ubtext.c over SECONDS s each when
# clang is installed:
#   make bench-import [RUNS=3] [SECONDS=5]
# The inputs are kept in $(B)/bench-import/ for the next run.
.PHONY: bench-import
bench-import: $(B)/ubtune
	@if command -v clang >/dev/null; then $(SUBMAKE) B=$(FUZZ_B) CC=clang \
		CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" $(FUZZ_B)/fuzz-unixbench $(FUZZ_B)/fuzz-ubtext; fi
	tools/bench-import $(B) $(B)/bench-import $(or $(RUNS),3) \
		$(if $(shell command -v clang),$(FUZZ_B)) $(or $(SECONDS),5)

# How often diagnose ranks first (and in its top three) the cause that the
# sources of the published corpus state, and its false alarms (medium or
# high) on the runs they call healthy:
#   make bench-diagnose [VERBOSE=1] [UBTUNE_OLD=path of another build to measure]
.PHONY: bench-diagnose
bench-diagnose: $(B)/ubtune
	tools/bench-diagnose $(if $(VERBOSE),--verbose) $(or $(UBTUNE_OLD),$(B)/ubtune) tests/fixtures/unixbench-published

# The Debian package, built by dpkg-buildpackage from debian/ in a copy of
# the tree (the source tree stays clean) and checked by lintian:
# $(B)/deb/ubtune_VERSION_ARCH.deb.
DEB_B := $(B)/deb
.PHONY: deb
deb:
	@tools/install-deps $(DEPS_BUILD) $(DEPS_DEB)
	rm -rf $(DEB_B) && mkdir -p $(DEB_B)/ubtune
	git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t $(DEB_B)/ubtune
	cd $(DEB_B)/ubtune && dpkg-buildpackage -us -uc -b
	lintian --fail-on error,warning $(DEB_B)/*.changes
	@ls $(DEB_B)/*.deb

# The static binaries the Ansible role installs on hosts that do not take the
# Debian package (contrib/ansible/README.md): x86_64 (STATIC=1) and aarch64
# (the arm64 build of check-arm64), in contrib/ansible/bin/ubtune-ARCH.
FLEET_BIN := contrib/ansible/bin
.PHONY: fleet-binaries
FLEET_DEPS := gcc-aarch64-linux-gnu $(addsuffix :arm64,libjson-c-dev libinih-dev zlib1g-dev nettle-dev)
fleet-binaries:
	@tools/install-deps $(DEPS_BUILD) $(FLEET_DEPS)
	+@$(SUBMAKE) STATIC=1 B=$(STATIC_B) all
	+@$(ARM64_MAKE) all
	install -Dm755 $(STATIC_B)/ubtune $(FLEET_BIN)/ubtune-$(shell uname -m)
	install -Dm755 $(ARM64_B)/ubtune $(FLEET_BIN)/ubtune-aarch64
	@ls -l $(FLEET_BIN)

# The reference data: the published runs diagnose compares with, the CPU
# catalogue, the database of published runs and the expectation model fitted
# from it (reference/README.md). `make reference` rebuilds the generated ones
# from the corpus (tests/fixtures/unixbench-published) and the catalogue;
# make check fails when they differ from what it builds.
REFERENCE_FILES := reference/published-results.json reference/cpus.ini reference/runs.jsonl reference/expect.ini
.PHONY: reference bench-expect
reference: $(B)/ubtune
	tools/build-reference --ubtune $(B)/ubtune

# The model left one source out at a time: per test group the median error of
# the expected index against the printed one and the share of healthy runs
# inside their interval (docs/expect.md).
bench-expect: $(B)/ubtune
	@d=$$(mktemp -d) && tools/build-reference --ubtune $(B)/ubtune --validate --out $$d; r=$$?; rm -rf $$d; exit $$r

# Rewrites tests/fixtures/expected/*.json from the current probe: review the diff.
update-expected: $(B)/ubtune $(FIXTURE_STAMP)
	tools/fixture-record update

install: all
	install -Dm755 $(B)/ubtune $(DESTDIR)$(BINDIR)/ubtune
	install -Dm644 man/ubtune.1 $(DESTDIR)$(MANDIR)/man1/ubtune.1
	install -Dm644 completion/ubtune.bash $(DESTDIR)$(COMPLETIONDIR)/ubtune
	install -d $(DESTDIR)$(DATADIR)/profiles
	$(if $(wildcard profiles/*.profile),install -m644 profiles/*.profile $(DESTDIR)$(DATADIR)/profiles/)
	install -Dm644 -t $(DESTDIR)$(DATADIR)/reference $(REFERENCE_FILES)

clean:
	rm -rf $(B) $(MIN_B) $(B)-san $(B)-fuzz

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
# unit tests are rebuilt when a header they include changes
-include $(UNIT_BIN:=.d)

# The workloads (bench/workloads/): a program of their own, built with
# UnixBench 6.0.0's default flags, WORKLOAD_CFLAGS, never with ours, and
# installed with their sources so that `ubtune bench` can rebuild them.
LIBEXECDIR ?= $(PREFIX)/libexec/ubtune
override CFLAGS += -DUBTUNE_LIBEXECDIR='"$(LIBEXECDIR)"'
WL := bench/workloads
include $(WL)/flags.mk
WORKLOAD_BIN := $(B)/ubtune-workloads $(B)/ubtune-execl $(B)/ubtune-whetstone $(B)/ubtune-spawn
all: $(WORKLOAD_BIN)
install: install-workloads
.PHONY: install-workloads bench-fidelity

# The prebuilt program says how it was compiled (ubtune-workloads build-info),
# so that a result records the flags of the programs it ran.
WORKLOAD_BUILD_INFO = -DWL_BUILD_CC_VERSION='"$(shell $(CC) --version 2>/dev/null | head -n 1)"' \
	-DWL_BUILD_CFLAGS='"$(WORKLOAD_CFLAGS)"'
$(B)/ubtune-workloads: $(addprefix $(WL)/,$(WORKLOAD_SRC) $(WORKLOAD_HDR))
	@mkdir -p $(@D)
	$(CC) $(WORKLOAD_BASE) $(WORKLOAD_CFLAGS) $(WORKLOAD_BUILD_INFO) -o $@ $(addprefix $(WL)/,$(WORKLOAD_SRC))

$(B)/ubtune-execl: $(addprefix $(WL)/,$(EXECL_IMAGE_SRC) $(WORKLOAD_HDR))
$(B)/ubtune-spawn: $(addprefix $(WL)/,$(SPAWN_IMAGE_SRC) $(WORKLOAD_HDR))
$(B)/ubtune-execl $(B)/ubtune-spawn:
	@mkdir -p $(@D)
	$(CC) $(WORKLOAD_BASE) $(WORKLOAD_CFLAGS) -o $@ $(filter %.c,$^)

$(B)/ubtune-whetstone: $(addprefix $(WL)/,$(WHETSTONE_SRC) $(WORKLOAD_HDR))
	@mkdir -p $(@D)
	$(CC) $(WORKLOAD_BASE) $(WORKLOAD_CFLAGS) -o $@ $(addprefix $(WL)/,$(WHETSTONE_SRC)) $(WHETSTONE_LIBS)

install-workloads: $(WORKLOAD_BIN)
	install -Dm755 -t $(DESTDIR)$(LIBEXECDIR) $(WORKLOAD_BIN)
	install -Dm644 -t $(DESTDIR)$(DATADIR)/workloads $(sort $(addprefix $(WL)/,$(WORKLOAD_SRC) \
		$(EXECL_IMAGE_SRC) $(SPAWN_IMAGE_SRC) $(WHETSTONE_SRC) $(WORKLOAD_HDR) Makefile flags.mk README.md))
	install -Dm755 -t $(DESTDIR)$(DATADIR)/workloads $(addprefix $(WL)/,$(WORKLOAD_SCRIPTS))

# Our workloads against a real UnixBench tree's programs, test by test, in
# many short alternating pairs, with a 95 % interval of the median pair
# ratio per test and for the score, at 1 copy and at one copy per CPU:
#   make bench-fidelity UNIXBENCH=DIR [DURATION=s] [PAIRS=n] [LONG_PAIRS=n]
#        [MAX_PAIRS=n] [MAX_LONG_PAIRS=n] [TESTS=id,...] [SETTLE=s]
#        [COPIES=n,...] [FIDELITY_JSON=file] [CONTINUE=file]
# MAX_PAIRS and MAX_LONG_PAIRS allow a second stage: a test whose first pairs
# spread too widely for its interval to fit the band gets as many more pairs
# as that spread needs, up to these. CONTINUE=FILE adds to the pairs of an
# earlier run's FIDELITY_JSON (the same programs), and rewrites FILE.
# About 27 minutes per copies count with the defaults; it says how long
# before it starts, and the load average at its start and end.
bench-fidelity: $(WORKLOAD_BIN)
	@test -n "$(UNIXBENCH)" || { echo "usage: make bench-fidelity UNIXBENCH=DIR [DURATION=s] [PAIRS=n] [LONG_PAIRS=n] [MAX_PAIRS=n] [MAX_LONG_PAIRS=n] [TESTS=id,...] [COPIES=n,...] [FIDELITY_JSON=file] [CONTINUE=file]" >&2; exit 2; }
	/usr/bin/python3 tools/bench-fidelity --unixbench "$(UNIXBENCH)" --build $(B) --sources $(WL) \
		$(if $(DURATION),--duration $(DURATION)) $(if $(PAIRS),--pairs $(PAIRS)) \
		$(if $(LONG_PAIRS),--long-pairs $(LONG_PAIRS)) $(if $(MAX_PAIRS),--max-pairs $(MAX_PAIRS)) \
		$(if $(MAX_LONG_PAIRS),--max-long-pairs $(MAX_LONG_PAIRS)) \
		$(if $(TESTS),--tests $(TESTS)) $(if $(SETTLE),--settle $(SETTLE)) \
		$(if $(COPIES),--copies $(COPIES)) $(if $(FIDELITY_JSON),--json $(FIDELITY_JSON)) \
		$(if $(CONTINUE),--continue $(CONTINUE)) --workdir $(B)

# A static ubtune carries its prebuilt workloads (bench/embedded.c), which
# are static too, so that one copied file runs bench: EMBED_WORKLOADS=0
# leaves them out.
EMBED_WORKLOADS ?= $(STATIC)
ifeq ($(STATIC),1)
$(WORKLOAD_BIN): WORKLOAD_BASE += -static
endif
ifeq ($(EMBED_WORKLOADS),1)
EMBED_FILES := $(WORKLOAD_BIN) $(addprefix $(WL)/,$(WORKLOAD_SCRIPTS))
$(B)/bench/embedded.o: $(EMBED_FILES)
$(B)/bench/embedded.o: override CFLAGS += -DUBTUNE_EMBED_WORKLOADS=1 \
	-DUBTUNE_EMBED_BIN='"$(abspath $(B))"' -DUBTUNE_EMBED_SCRIPTS='"$(abspath $(WL))"'
endif

# A static ubtune carries its data too (lib/builtin-data.c): the shipped
# profiles and the published reference runs, read from memory when no data
# directory is on disk (lib/paths.h). EMBED_DATA=0 leaves them out.
EMBED_DATA ?= $(STATIC)
ifeq ($(EMBED_DATA),1)
EMBED_DATA_FILES := $(sort $(wildcard profiles/*.profile)) $(sort $(REFERENCE_FILES))
EMBED_DATA_LIST := $(B)/builtin-data.list
$(B)/lib/builtin-data.o: $(EMBED_DATA_LIST) $(EMBED_DATA_FILES)
$(B)/lib/builtin-data.o: override CFLAGS += -DUBTUNE_EMBED_DATA=1 \
	-DUBTUNE_EMBED_DATA_LIST='"$(abspath $(EMBED_DATA_LIST))"'
# The list of the files, replaced only when it changes: a profile added or
# removed rebuilds builtin-data.o.
$(EMBED_DATA_LIST): FORCE
	@mkdir -p $(@D)
	@i=0; for f in $(EMBED_DATA_FILES); do \
		printf 'DATA_FILE(ubtune_data_%d, "%s", "%s")\n' $$i $$f "$(CURDIR)/$$f"; i=$$((i + 1)); \
	done >$@.tmp && { cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@; }
endif
.PHONY: FORCE check-static
FORCE:

# The static build as a board runs it: one copied file, no data directory.
check-static: static-build
	@UBTUNE=$(CURDIR)/$(STATIC_B)/ubtune TESTS_LABEL=e2e-static tools/run-tests e2e tests/e2e/test-builtin-data.sh

# ---- sanitizers and fuzzing --------------------------------------------------
# check-san: the project built with AddressSanitizer and UndefinedBehavior-
# Sanitizer in $(SAN_B); the unit tests, the end-to-end tests of the parsers
# and of the tune and store paths (SAN_E2E), and every harness of
# tests/fuzz/ replayed on its kept inputs and seeds run against it. Any
# report fails the run (halt_on_error, and the reports it writes).
SAN_B := $(B)-san
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_UNIT_BIN := $(UNIT_BIN:$(B)/%=$(SAN_B)/%)
# (not the chroot tests: LeakSanitizer needs /proc; nor strace's, which
# it cannot run under; the whole suite takes 3 times as long)
SAN_E2E := $(addprefix tests/e2e/test-,$(addsuffix .sh,import diagnose store fixture-roots bench \
	tune tune-services tune-tmpfs root-containment hostile reference))
SAN_REPORTS = $(CURDIR)/$(SAN_B)/reports
SAN_ENV = ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:exitcode=86:log_path=$(SAN_REPORTS)/asan \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86:log_path=$(SAN_REPORTS)/ubsan
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
# the seeds of each harness, beside its kept inputs in tests/fuzz/NAME/
FUZZ_SEEDS_unixbench := tests/fixtures/unixbench-logs tests/fixtures/unixbench-published
FUZZ_SEEDS_ubtext = $(FUZZ_SEEDS_unixbench)
FUZZ_DICT_ubtext := tests/fuzz/unixbench.dict
# the reader alone mutates small inputs (libFuzzer's default is 4 KiB): the
# whole-path harness keeps files of up to 1 MiB
FUZZ_MAXLEN_ubtext := 8192
FUZZ_SEEDS_result := tests/fixtures/results tests/fixtures/compare tests/fixtures/expected
FUZZ_SEEDS_profile := profiles
FUZZ_SEEDS_archive := tests/fixtures/real
# check-san replays a few small dumps only (unpacking every one takes minutes)
FUZZ_CHECK_SEEDS_archive := $(addprefix tests/fixtures/real/,pytorch-cpuinfo-raspberrypi3.tar.gz virt-what-esx-arm.tar.gz)
FUZZ_SEEDS_proc = $(1)/seeds/proc
FUZZ_SEEDS_hw = $(1)/seeds/hw
fuzz_corpus = tests/fuzz/$(2) $(call FUZZ_SEEDS_$(2),$(1))
san_corpus = tests/fuzz/$(2) $(or $(FUZZ_CHECK_SEEDS_$(2)),$(call FUZZ_SEEDS_$(2),$(1)))
.PHONY: check-san fuzz fuzz-build
check-san: $(FIXTURE_STAMP)
	@$(SUBMAKE) B=$(SAN_B) CFLAGS="-O1 -g $(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" \
		all $(SAN_UNIT_BIN) $(FUZZ_NAMES:%=$(SAN_B)/replay-%) $(SAN_B)/seeds/proc $(SAN_B)/seeds/hw
	@rm -rf $(SAN_REPORTS) && mkdir -p $(SAN_REPORTS)
	@echo "sanitizer build ($(SAN_B)/ubtune):"
	@$(SAN_ENV) TESTS_LABEL=unit-san tools/run-tests unit $(SAN_UNIT_BIN); r1=$$?; \
	$(SAN_ENV) UBTUNE=$(CURDIR)/$(SAN_B)/ubtune TESTS_LABEL=e2e-san tools/run-tests e2e $(SAN_E2E); r2=$$?; \
	r3=0; $(foreach f,$(FUZZ_NAMES),$(SAN_ENV) $(SAN_B)/replay-$(f) $(call san_corpus,$(SAN_B),$(f)) || r3=1;) \
	if ls $(SAN_REPORTS)/* >/dev/null 2>&1; then cat $(SAN_REPORTS)/*; echo "sanitizer reports above"; exit 1; fi; \
	[ $$r1 = 0 ] && [ $$r2 = 0 ] && [ $$r3 = 0 ]

# A harness: without libFuzzer, replayed by tests/fuzz/replay.c
$(B)/replay-%: tests/fuzz/fuzz-%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(B)/libubtune.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -DSRCDIR='"$(CURDIR)"' -o $@ $< tests/fuzz/replay.c $(B)/libubtune.a \
		$(LDFLAGS) $(PKG_LIBS) $(LDLIBS)

# The /proc files of the fixture roots, each behind the byte that picks
# its parser (tests/fuzz/fuzz-proc.c), with a few /proc/PID/stat of each
$(B)/seeds/proc: $(FIXTURE_STAMP) tests/fuzz/fuzz-proc.c
	@rm -rf $@ && mkdir -p $@
	@for r in tests/fixtures/roots/* $(B)/fixtures/*; do n=$$(basename $$r); \
		for f in c:cpuinfo m:self/mountinfo M:mounts i:interrupts k:../dmesg s:stat; do \
			[ -f $$r/proc/$${f#*:} ] && { printf %s $${f%%:*}; cat $$r/proc/$${f#*:}; } >$@/$${f%%:*}-$$n; \
		done; \
		for s in $$(ls -d $$r/proc/[0-9]*/stat 2>/dev/null | head -n 3); do \
			{ printf p; cat $$s; } >$@/p-$$n-$$(basename $$(dirname $$s)); done; \
	done; true

# The hwmon and thermal files of the fixture roots as "CLASS/ENTRY/FILE=its
# first line" (tests/fuzz/fuzz-hw.c)
$(B)/seeds/hw: $(FIXTURE_STAMP) tests/fuzz/fuzz-hw.c
	@rm -rf $@ && mkdir -p $@
	@for r in tests/fixtures/roots/* $(B)/fixtures/*; do \
		for c in hwmon thermal; do for e in $$r/sys/class/$$c/*/; do [ -d $$e ] || continue; \
			(cd $$e && find -L . -maxdepth 2 -type f -size -4k 2>/dev/null | sort | sed 's|^\./||' | \
			while read -r f; do printf '%s/%s/%s=%s\n' $$c $$(basename $$e) "$$f" "$$(head -n 1 "$$f")"; done); \
		done; done >$@/$$(basename $$r); [ -s $@/$$(basename $$r) ] || rm -f $@/$$(basename $$r); \
	done; true

# make fuzz [FUZZ_SECONDS=N] [FUZZ_NAMES="proc hw"]: the harnesses of
# tests/fuzz/ (or those named) built with clang's libFuzzer (and the same
# sanitizers) in $(FUZZ_B), each run for N
# seconds (default 60) from its kept inputs and seeds; new inputs go to
# $(FUZZ_B)/corpus/NAME, a crash's input to $(FUZZ_B)/crash-NAME-*. Keep a
# crash's input in tests/fuzz/NAME/ once it is fixed: check-san replays it.
FUZZ_B := $(B)-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -O1 -g $(SAN_FLAGS)
fuzz-build:
	@tools/install-deps $(DEPS_FUZZ)
	@$(SUBMAKE) B=$(FUZZ_B) CC=clang CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" \
		$(FUZZ_NAMES:%=$(FUZZ_B)/fuzz-%) $(FUZZ_B)/seeds/proc $(FUZZ_B)/seeds/hw
fuzz_run = mkdir -p $(FUZZ_B)/corpus/$(1) && echo "fuzz-$(1): $(FUZZ_SECONDS) s (log: $(FUZZ_B)/log-$(1))" && \
	{ ASAN_OPTIONS=detect_leaks=1 $(FUZZ_B)/fuzz-$(1) -max_total_time=$(FUZZ_SECONDS) -max_len=$(or $(FUZZ_MAXLEN_$(1)),1048576) \
		-print_final_stats=1 -artifact_prefix=$(FUZZ_B)/crash-$(1)- \
		$(addprefix -dict=,$(or $(FUZZ_DICT_$(1)),$(wildcard tests/fuzz/$(1).dict))) \
		$(FUZZ_B)/corpus/$(1) $(call fuzz_corpus,$(FUZZ_B),$(1)) >$(FUZZ_B)/log-$(1) 2>&1 || r=1; } && \
	grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^SUMMARY|^artifact_prefix|Test unit written' \
		$(FUZZ_B)/log-$(1);
fuzz: fuzz-build
	@r=0; $(foreach f,$(FUZZ_NAMES),$(call fuzz_run,$(f))) exit $$r

$(B)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(B)/libubtune.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -DSRCDIR='"$(CURDIR)"' -o $@ $< $(B)/libubtune.a \
		$(PKG_LIBS) $(LDLIBS)
