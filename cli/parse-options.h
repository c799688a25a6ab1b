/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parser and printers of a command's option table (cli/options.h):
 * getopt, the usage line, --help and the man page lines. */
#pragma once

#include <stdio.h>

#include "cli/command.h"

/*
 * Parses argv[1..] of a command (argv[0] is its name): options anywhere
 * among the operands, GNU style ("--" ends the options, "--name=value",
 * unique prefixes of long names, "-ofile"). Values go into ctx and opts;
 * the operands into ctx->args. Returns -1 when the command is to run, else
 * its exit status: 0 after --help, 2 after a usage error (said on stderr).
 */
int options_parse(const struct command *c, int argc, char **argv, struct cmd_ctx *ctx, void *opts);

/* Calls fn for the command's options and then the global ones. */
void options_foreach(const struct command *c, void (*fn)(const struct cmd_option *o, void *data), void *data);
/* The option a long name (or, when name is one character, a short one)
 * names, or NULL. */
const struct cmd_option *options_find(const struct command *c, const char *name);
/* "Usage: ubtune NAME [--json] ... OPERANDS", wrapped to width. */
void options_usage(const struct command *c, FILE *f, size_t width);
/* "[--color WHEN] [--width COLUMNS]": the global options in a synopsis. */
char *options_global_synopsis(void);
/* The same synopsis on one line, as README and the man page check want it. */
char *options_synopsis(const struct command *c);
/* The synopsis in roff, for the man page (one request per line). */
void options_synopsis_roff(const struct command *c, FILE *f);
/* The man page's tag line of each option (".B \-\-json"), one a line. */
void options_roff_tags(const struct command *c, FILE *f);
/* The option list of --help (the command's and -h; with globals, the
 * global options too), wrapped to width. */
void options_help(const struct command *c, bool globals, FILE *f, size_t width);
/* "--engine programs|run", "-o, --output FILE": the left column of --help. */
char *option_label(const struct cmd_option *o);
