/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <time.h>

#include "lib/env-record.h"
#include "lib/json.h"
#include "lib/rootfs.h"
#include "lib/tarball.h"

/*
 * The content of a machine dump made by `ubtune gather`: exactly the paths
 * a traced probe run read (files with the bytes it saw, directories with
 * their entries as placeholders of the same type, symlinks, things only
 * looked at), plus the facts that have no file on a live machine, from the
 * record: GATHER_META, GATHER_CPUID, GATHER_TOOLCHAIN, GATHER_UNITS and
 * GATHER_RECORD. The kernel log comes with the trace (DUMP_DMESG).
 */
#define GATHER_RECORD GATHER_DIR "/record.json"

struct gather {
	struct tar_item *items; /* sorted by path, parents first */
	size_t n;
	size_t unreadable;	/* traced files that could not be read again: left out */
	uint64_t bytes;		/* content of the files */
};

/* rec and rf come from probe_collect() with opts.trace set; -EBADMSG and
 * *error naming the key when rec does not decode (lib/env-record.h). */
int gather_build(json_object *rec, struct rootfs *rf, time_t now, struct gather *g, char **error);
void gather_free(struct gather *g);

/* The text of GATHER_META for a record. */
char *gather_meta_text(const struct env_record *env, time_t now);
