/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* A growable set of CPU (or NUMA node) numbers, as the kernel prints them:
 * lists ("0-3,8,10-11") and hex masks ("0000,55555555,55555555"). */
/* Far above any real machine; bounds what hostile input can allocate:
 * CPU numbers at or above it are not believed. */
#define CPUSET_MAX 65536

struct cpuset {
	unsigned long *bits;
	size_t nbits;
};

int cpuset_parse_list(const char *s, struct cpuset *out);
int cpuset_parse_mask(const char *s, struct cpuset *out);
/* Kernel list strings with spaces ("0 1 2 3", related_cpus) or commas. */
int cpu_list_parse(const char *s, struct cpuset *out);
void cpuset_set(struct cpuset *c, size_t cpu);
bool cpuset_isset(const struct cpuset *c, size_t cpu);
size_t cpuset_count(const struct cpuset *c);
/* Highest member + 1 (0 when empty). */
size_t cpuset_size(const struct cpuset *c);
bool cpuset_intersects(const struct cpuset *a, const struct cpuset *b);
bool cpuset_subset(const struct cpuset *a, const struct cpuset *b);
/* Canonical list form: "0-3,8"; "" for the empty set. */
char *cpuset_format(const struct cpuset *c);
void cpuset_free(struct cpuset *c);
