/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>

#include "lib/json.h"

/*
 * A byte-unixbench tree: found, told apart by layout, and built with a
 * profile's compiler and flags into a copy in the cache, so the tree the
 * person gave is never written to.
 *
 * Layouts: 5.1.2 (Google Code, 2009: dhry objects shared between dhry2
 * and dhry2reg, so no parallel make), 5.1.3 (the flags in OPTON), 6.x
 * (UB_GCC_OPTIONS replaces OPTON; -march=native by default).
 */
enum ub_layout {
	UB_LAYOUT_512,
	UB_LAYOUT_513,
	UB_LAYOUT_6,
};

struct ub_tree {
	char *root;           /* the directory holding Run, Makefile, src/, pgms/, testdir/ */
	char *version;        /* Run's $version ("6.0.0"), else the logo's */
	enum ub_layout layout;
	const char *layout_name; /* "5.1.2", "5.1.3", "6.x" */
	const char *flags_var;   /* "OPTON" | "UB_GCC_OPTIONS" */
	unsigned max_copies;     /* Run runs no system test with more copies; 0: no cap */
	bool built;              /* its programs are there, built in place */
};

/* DIR: the UnixBench directory (Run, a Makefile or built programs beside
 * pgms/), a checkout holding UnixBench/, or pgms/. */
int ubtree_find(const char *dir, struct ub_tree *out, char **error);
void ubtree_free(struct ub_tree *t);

/*
 * Copies the tree (without built programs, objects, results and temporary
 * files) into cachedir/unixbench/<key>/ and runs its make there with
 * CC=cc, GRAPHIC_TESTS= (no X or GL needed) and, when cflags is given,
 * OPTON= or UB_GCC_OPTIONS= cflags; key =
 * hash of the tree's files, the compiler and its version, the flags. A
 * finished build with the same key is reused. *build gets {"cc",
 * "cc_version", "cflags" (given, else those make used), "flags_var",
 * "make": [the make command], "commands": [what make ran], "tree", "dir",
 * "key", "layout", "cached"}. plan: nothing is copied, built or written;
 * *build is the cached record, or the one a build would make (no
 * commands, "cached": false).
 */
int ubtree_build(const struct ub_tree *t, const char *cc, const char *cflags, const char *cachedir, bool plan,
		 json_object **build, char **error);

/* The flags a compile command used: its -O, -f, -m and -W options, or NULL. */
char *ubtree_flags_of(const char *command);
