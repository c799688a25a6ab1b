/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/store.h"

/* The results store of this user (state_dir()), opened for a command:
 * says why on stderr when it cannot be. create: made when missing (bench,
 * import), else a store that is not there is opened empty and nothing is
 * created (what only reads it). */
int cli_store_open(struct store **out, bool create);
/* The store when it exists already, else NULL (nothing is created): for
 * what only reads it, such as diagnose's history and completion. */
struct store *cli_store_if_any(void);
