# The workloads' build, shared by this directory's Makefile and ubtune's.
#
# WORKLOAD_CFLAGS are UnixBench 6.0.0's default optimisation flags (its
# Makefile's OPTON on Linux): a profile may replace them; the rest of the
# command (feature macro, warnings, sources, libraries) stays.
WORKLOAD_ARCH := $(shell uname -m)
ifneq ($(filter ppc64 ppc64le,$(WORKLOAD_ARCH)),)
WORKLOAD_MARCH := -mcpu=native -mtune=native
else ifeq ($(WORKLOAD_ARCH),riscv64)
WORKLOAD_MARCH := -march=rv64g -mabi=lp64d
else
WORKLOAD_MARCH := -march=native -mtune=native
endif
WORKLOAD_CFLAGS ?= -O3 -ffast-math $(WORKLOAD_MARCH)
WORKLOAD_BASE := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra

# ubtune-workloads: every workload; ubtune-execl: the image Execl
# Throughput re-executes; ubtune-whetstone and ubtune-spawn, which
# ubtune-workloads runs: Whetstone, the only one that links libm, whose
# mappings every fork of the others would copy, and Process Creation, so
# that it forks from a program as small as UnixBench's spawn.
WORKLOAD_SRC := main.c common.c dhry.c dhry-procs.c execl.c fstime.c pipe.c \
	context1.c syscall.c looper.c shell-input.c
EXECL_IMAGE_SRC := execl-image.c execl.c common.c
SPAWN_IMAGE_SRC := spawn-image.c spawn.c common.c
WHETSTONE_SRC := whetstone-image.c whetstone.c common.c
WHETSTONE_LIBS := -lm
WORKLOAD_HDR := workloads.h dhry.h
WORKLOAD_SCRIPTS := multi.sh tst.sh
