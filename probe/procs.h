/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "lib/rootfs.h"

/* The processes of a root as /proc lists them, with their command names. */
struct proc_entry {
	int pid;
	char *comm; /* /proc/PID/comm, without the newline */
};

struct procs {
	struct proc_entry *v;
	size_t n;
};

/*
 * Every numeric entry of /proc whose comm can be read, in pid order. A
 * process that exits while the list is read is left out. -errno when /proc
 * cannot be listed; an empty list when it holds no processes (most dumps).
 */
int procs_list(struct rootfs *rf, struct procs *out);
/* The first process named comm, or NULL. */
const struct proc_entry *procs_find(const struct procs *p, const char *comm);
void procs_free(struct procs *p);
