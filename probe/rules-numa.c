/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "findings.h"

const struct rule numa_rules[] = {
	{ 0 },
};
