/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "lib/json.h"
#include "lib/util.h"

/*
 * What `ubtune apply` left for the benchmark in applied.json (in
 * tune_state_dir(), docs/tune-state.md):
 * {"profiles": ["ft2000"], "build": {"cc": "gcc", "cflags": "-O3 ..."},
 *  "bench": {"copies": [1, "all"], "tests": null, "quick": false},
 *  "workdir": {"path": "/mnt/ubtune", "type": "tmpfs"}, "boot_id": "..."}
 * Every member may be missing or null.
 */

struct applied_profile {
	bool present;
	char *path;
	struct strv profiles;
	char *cc, *cflags;
	char *copies; /* "1,all" */
	char *tests;  /* "dhry2reg,pipe" */
	int quick;    /* -1: not set */
	char *workdir, *workdir_type;
	char *boot_id; /* of the boot it was applied in */
	json_object *raw;
};

/* Reads dir/applied.json. A missing file is no profile (present false,
 * returns 0); a malformed one is -EBADMSG with *error naming file and key,
 * and *out holds nothing to free. */
int applied_profile_load(const char *dir, struct applied_profile *out, char **error);
void applied_profile_free(struct applied_profile *p);
/* True when the profile was applied in another boot than current_boot_id:
 * its runtime settings (a tmpfs workdir, the governor) are gone. */
bool applied_profile_stale(const struct applied_profile *p, const char *current_boot_id);
