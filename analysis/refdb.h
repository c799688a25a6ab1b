/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "lib/json.h"
#include "unixbench/catalogue.h"

/*
 * The reference database (reference/runs.jsonl, reference/README.md): the
 * published runs the expectation model is fitted from, one JSON object a
 * line after a header line, as tools/build-reference writes it.
 */
struct refdb_run {
	json_object *json;   /* the line (owned by the database) */
	unsigned line;
	const char *id, *source, *origin, *cpu, *core, *chip, *arch, *virt, *cloud, *instance;
	const char *not_used; /* why the fit does not use it; NULL: used */
	unsigned copies, cpus; /* 0: not known */
	double clock_ghz, score; /* NAN: not known */
	bool used, healthy;
	double index[UB_NINDEX]; /* NAN: not printed */
};

struct refdb {
	char *path;
	json_object *head; /* the header line: schema, counts */
	struct refdb_run *v;
	size_t n;
};

/* Reads a database; -EINVAL with *error "FILE:LINE: KEY: why" for a line
 * that does not fit; refdb_free() it either way. */
int refdb_parse(const char *text, size_t len, const char *path, struct refdb *db, char **error);
int refdb_load(const char *path, struct refdb *db, char **error);
void refdb_free(struct refdb *db);
const struct refdb_run *refdb_find(const struct refdb *db, const char *id);
/* Every word (case does not matter) in one of the run's texts. */
bool refdb_matches(const struct refdb_run *r, char *const *words, size_t n);
