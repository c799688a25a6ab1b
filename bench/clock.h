/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/env-record.h"
#include "lib/json.h"
#include "lib/rootfs.h"

/*
 * The measured clock of each kind of core (lib/hw.h) during a run: the
 * bench measures it before and after each test, so the result says what
 * clock each test really got, whatever cpufreq claimed.
 */
struct bench_clock;

/* The kinds of the environment record (cpu.kinds); NULL when it names none. */
struct bench_clock *bench_clock_new(struct rootfs *rf, const struct env_record *env);
void bench_clock_free(struct bench_clock *c);
/* One measurement of every kind: [{"model", "cpu", "measured_khz", "cur_khz"}],
 * "measured_khz" null and "error" where it could not be measured. NULL
 * for c NULL. */
json_object *bench_clock_measure(struct bench_clock *c);
