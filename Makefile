# ubtune — GNU make build.
#
#   make              build build/ubtune
#   make run          install missing packages, build, run `ubtune probe`
#   make check        install missing packages, build, run every test
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

LIB_SRC := $(wildcard lib/*.c probe/*.c tune/*.c bench/*.c analysis/*.c)
CLI_SRC := $(wildcard cli/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(wildcard tests/unit/test-*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

all: $(B)/ubtune
.PHONY: all deps run check check-unit check-e2e install clean update-expected bench-probe bench-sampler

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(B)/libubtune.a: $(LIB_OBJ)
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
DEPS_BUILD += zlib1g-dev
DEPS_TEST := libcmocka-dev dbus python3-dbusmock python3 util-linux
# xmllint checks that the SVG charts and HTML reports are well-formed XML
DEPS_TEST += libxml2-utils
deps:
	@tools/install-deps $(DEPS_BUILD) $(DEPS_TEST)

run: deps
	@$(MAKE) --no-print-directory all
	$(B)/ubtune probe

check: deps
	@$(MAKE) --no-print-directory all $(UNIT_BIN)
	@$(MAKE) --no-print-directory check-unit check-e2e check-minimal

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
# needs a library left out is checked to say so.
MIN_B := $(B)-min
MIN_UNIT_BIN := $(UNIT_BIN:$(B)/%=$(MIN_B)/%)
.PHONY: check-minimal
check-minimal: $(FIXTURE_STAMP)
	@$(MAKE) --no-print-directory MINIMAL=1 B=$(MIN_B) all $(MIN_UNIT_BIN)
	@echo "minimal build ($(MIN_B)/ubtune):"
	@tools/run-tests unit $(MIN_UNIT_BIN)
	@UBTUNE=$(CURDIR)/$(MIN_B)/ubtune tools/run-tests e2e tests/e2e/test-*.sh

# Benchmarks (timings are measured here, never asserted by tests).
bench-probe: $(B)/ubtune
	@tools/install-deps hwloc util-linux
	tools/bench-probe $(RUNS)

# The bench sampler's CPU cost (goal: under 0.5 % of one CPU).
$(B)/bench-sampler: tools/bench-sampler.c $(B)/libubtune.a
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(B)/libubtune.a $(PKG_LIBS) $(LDLIBS)
bench-sampler: $(B)/bench-sampler
	$(B)/bench-sampler $(SECONDS)

# Rewrites tests/fixtures/expected/*.json from the current probe: review the diff.
update-expected: $(B)/ubtune $(FIXTURE_STAMP)
	tools/fixture-record update

install: all
	install -Dm755 $(B)/ubtune $(DESTDIR)$(BINDIR)/ubtune
	install -Dm644 man/ubtune.1 $(DESTDIR)$(MANDIR)/man1/ubtune.1
	install -Dm644 completion/ubtune.bash $(DESTDIR)$(COMPLETIONDIR)/ubtune
	install -d $(DESTDIR)$(DATADIR)/profiles
	$(if $(wildcard profiles/*.profile),install -m644 profiles/*.profile $(DESTDIR)$(DATADIR)/profiles/)
	install -Dm644 reference/published-results.json $(DESTDIR)$(DATADIR)/reference/published-results.json

clean:
	rm -rf $(B) $(MIN_B)

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
WORKLOAD_BIN := $(B)/ubtune-workloads $(B)/ubtune-execl
all: $(WORKLOAD_BIN)
install: install-workloads
.PHONY: install-workloads bench-fidelity

$(B)/ubtune-workloads: $(addprefix $(WL)/,$(WORKLOAD_SRC) $(WORKLOAD_HDR))
	@mkdir -p $(@D)
	$(CC) $(WORKLOAD_BASE) $(WORKLOAD_CFLAGS) -o $@ $(addprefix $(WL)/,$(WORKLOAD_SRC)) $(WORKLOAD_LIBS)

$(B)/ubtune-execl: $(addprefix $(WL)/,$(EXECL_IMAGE_SRC) $(WORKLOAD_HDR))
	@mkdir -p $(@D)
	$(CC) $(WORKLOAD_BASE) $(WORKLOAD_CFLAGS) -o $@ $(addprefix $(WL)/,$(EXECL_IMAGE_SRC))

install-workloads: $(WORKLOAD_BIN)
	install -Dm755 -t $(DESTDIR)$(LIBEXECDIR) $(WORKLOAD_BIN)
	install -Dm644 -t $(DESTDIR)$(DATADIR)/workloads $(sort $(addprefix $(WL)/,$(WORKLOAD_SRC) \
		$(EXECL_IMAGE_SRC) $(WORKLOAD_HDR) Makefile flags.mk README.md))
	install -Dm755 -t $(DESTDIR)$(DATADIR)/workloads $(addprefix $(WL)/,$(WORKLOAD_SCRIPTS))

# Our workloads against a real UnixBench tree's programs, test by test:
#   make bench-fidelity UNIXBENCH=DIR [DURATION=s] [PASSES=n] [TESTS=id,...] [SETTLE=s] [COPIES=n]
# Without DURATION and PASSES it runs UnixBench's durations and pass counts
# (about an hour).
bench-fidelity: $(WORKLOAD_BIN)
	@test -n "$(UNIXBENCH)" || { echo "usage: make bench-fidelity UNIXBENCH=DIR [DURATION=s] [PASSES=n] [TESTS=id,...]" >&2; exit 2; }
	/usr/bin/python3 tools/bench-fidelity --unixbench "$(UNIXBENCH)" --build $(B) --sources $(WL) \
		$(if $(DURATION),--duration $(DURATION)) $(if $(PASSES),--passes $(PASSES)) \
		$(if $(TESTS),--tests $(TESTS)) $(if $(SETTLE),--settle $(SETTLE)) \
		$(if $(COPIES),--copies $(COPIES)) --workdir $(B)
