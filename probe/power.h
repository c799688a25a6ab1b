/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Power and health: parsers exported for the unit tests. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/*
 * A hwmon attribute file name split up: "in0_lcrit_alarm" -> kind "in",
 * index 0, attribute "lcrit_alarm". Only the sensor kinds ubtune reports
 * (temp, in, fan, power, curr) are accepted. 0 or -EINVAL.
 */
int hwmon_parse_attr(const char *file, char kind[8], unsigned *index, const char **attr);

/* Unit of a sensor kind's values as the kernel gives them ("temp" -> "mdegC"). */
const char *hwmon_unit(const char *kind);

struct thermal_trip {
	int64_t temp_mc;
	const char *type; /* "passive", "active", "hot", "critical", ... */
};

/*
 * The trip point that matters for a temperature: the lowest throttling
 * or shutdown trip (not "active", which only starts a fan) at or above
 * it, else the highest one already crossed. Index into trips, or -1.
 */
int thermal_nearest_trip(int64_t temp_mc, const struct thermal_trip *trips, size_t n);

/* Lines of a kernel log reporting undervoltage; *last gets the last one. */
size_t power_undervoltage_events(const char *klog, char **last);
