/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "lib/json.h"
#include "lib/util.h"

/*
 * What `ubtune apply` left for the benchmark in $(state_dir)/applied.json:
 * {"profiles": ["ft2000"], "build": {"cc": "gcc", "cflags": "-O3 ..."},
 *  "bench": {"copies": "1,all", "tests": null, "quick": false},
 *  "workdir": {"path": "/mnt/ubtune", "type": "tmpfs"}}
 * Every member may be missing or null.
 */
#define APPLIED_FILE "applied.json"

struct applied_profile {
	bool present;
	char *path;
	struct strv profiles;
	char *cc, *cflags;
	char *copies; /* "1,all" */
	char *tests;  /* "dhry2reg,pipe" */
	int quick;    /* -1: not set */
	char *workdir, *workdir_type;
	json_object *raw;
};

/* Reads dir/applied.json. A missing file is no profile (present false,
 * returns 0); a malformed one is -EBADMSG with *error naming file and key. */
int applied_load(const char *dir, struct applied_profile *out, char **error);
void applied_free(struct applied_profile *p);
