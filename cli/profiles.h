/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/util.h"

/* The names of the shipped profiles ("rpi4" for profiles/rpi4.profile),
 * sorted; with descriptions, each one's description (its [profile]
 * description, or "" when it has none or cannot be read) at the same
 * index. */
void profiles_list(struct strv *names, struct strv *descriptions);
