/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Power and health: parsers exported for the unit tests (the sysfs readers: lib/hw.h). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "lib/hw.h"

/* Lines of a kernel log reporting undervoltage; *last gets the last one. */
size_t power_undervoltage_events(const char *klog, char **last);
