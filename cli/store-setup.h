/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/store.h"

/* The results store of this user (state_dir()), opened for a command:
 * says why on stderr when it cannot be. */
int cli_store_open(struct store **out);
/* The store when it exists already, else NULL (nothing is created): for
 * what only reads it, such as diagnose's history and completion. */
struct store *cli_store_if_any(void);
