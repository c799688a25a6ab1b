/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <sched.h>
#include <stdbool.h>

#include "lib/env-record.h"
#include "lib/json.h"

/*
 * What a run holds for its length, each asked for by an option or the
 * applied profile, recorded in the result's options and said on stderr:
 * the CPU DMA latency (PM QoS) that keeps idle CPUs out of deep idle
 * states, the CPUs the 1-copy pass is pinned to on hybrid machines, and
 * a soft process limit raised to the hard one when copies would hit it.
 */

/* Where the PM QoS device is; UBTUNE_DMA_LATENCY_DEV names another file
 * (tests: never this machine's device). */
const char *hold_dma_latency_device(void);

/*
 * Opens the device and writes us (microseconds): the kernel keeps the
 * latency while the file stays open. *fd is the descriptor to close at
 * the end (-1 when not held). Returns {"requested_us", "device", "held",
 * "error"}.
 */
json_object *hold_dma_latency(int us, int *fd);

/*
 * The CPUs of the fastest kind of core (cpu.kinds[].fastest of the
 * environment record) when there are several kinds; into *set (size
 * bytes, CPU_ALLOC). Returns {"requested": "fastest", "cpus", "kind",
 * "note"}; *pinned says whether *set holds CPUs to pin to.
 */
json_object *hold_pin_fastest(const struct env_record *env, cpu_set_t *set, size_t size, bool *pinned);

/*
 * The processes the copies of the widest run need against RLIMIT_NPROC:
 * raises the soft limit to the hard one when they would not fit.
 * {"soft", "hard", "needed", "raised_to"}, or NULL when nothing is known.
 */
json_object *hold_nproc(unsigned copies, unsigned per_copy);
