/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * Where ubtune finds its data and keeps its state.
 *
 * Data (profiles/, reference/, workloads/): $UBTUNE_DATADIR, else the
 * source tree when the binary runs from its build/ folder, else the
 * installed DATADIR.
 * State (results, journal): /var/lib/ubtune as root, else
 * $XDG_DATA_HOME/ubtune (~/.local/share/ubtune); $UBTUNE_STATE_DIR overrides.
 * Cache (compiled workloads): /var/cache/ubtune as root, else
 * $XDG_CACHE_HOME/ubtune (~/.cache/ubtune); $UBTUNE_CACHE_DIR overrides.
 */

/* Path of a data item ("profiles", "reference/published-results.json",
 * "workloads"); the caller frees it. */
char *data_path(const char *item);
char *state_dir(void);
char *cache_dir(void);
/* Directory of the running binary (for the prebuilt workloads). */
char *self_dir(void);
/* mkdir -p with mode 0755 (0700 for the last component when private). */
int mkdir_p(const char *path, int private_last);
