/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "findings.h"

const struct rule cpu_rules[] = {
	{ 0 },
};
