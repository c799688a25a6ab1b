/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

/*
 * Files linked into the binary, so that one copied static ubtune needs
 * nothing else: the workloads (bench/embedded.h) and the data files
 * (lib/builtin-data.c).
 */
struct embedded_file {
	const char *name;
	const unsigned char *data;
	size_t size;
};

/*
 * Places the bytes of the file at path in .rodata between the symbols sym
 * and sym_end; the assembler reads the file, so path is absolute (the
 * Makefile names it). Declare the two symbols with EMBEDDED_SYMBOLS(sym).
 */
#define EMBED_FILE(sym, path)                                                                            \
	__asm__(".pushsection .rodata\n\t.balign 16\n\t.globl " #sym "\n" #sym ":\n\t.incbin \"" path    \
		"\"\n\t.globl " #sym "_end\n" #sym "_end:\n\t.popsection")
#define EMBEDDED_SYMBOLS(sym) extern const unsigned char sym[], sym##_end[]
#define EMBEDDED_SIZE(sym) ((size_t)(sym##_end - sym))

/*
 * The data files this binary carries (make STATIC=1, or EMBED_DATA=1):
 * the shipped profiles and the published reference runs, named by their
 * path in the data directory ("profiles/rk3568.profile"), sorted by name;
 * *n = 0 in builds without them. lib/paths.h reads them.
 */
const struct embedded_file *builtin_data(size_t *n);
