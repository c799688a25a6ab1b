/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Power and health: parsers exported for the unit tests (the sysfs readers:
 * lib/hw.h), and the devfreq part (probe/idle.c). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "lib/env-record.h"
#include "lib/hw.h"
#include "lib/json.h"
#include "lib/util.h"

/* Lines of a kernel log reporting undervoltage; *last gets the last one. */
size_t power_undervoltage_events(const char *klog, char **last);

struct probe_ctx;
/* power.devfreq: each devfreq device, its governor and clocks; null without the class. */
void devfreq_collect(struct probe_ctx *ctx, json_object *power);
/* Its part of the report's Power lines ("devfreq: dmc (memory) ..."). */
void devfreq_render(const struct env_record *env, struct buf *b);
