/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The option table of a command: each option is written once, here, and
 * getopt's long options and short string, the parsing and checking of its
 * value, the --help text, the usage line, the man page synopsis and shell
 * completion are all made from it.
 *
 * A value goes to `offset` in the command's own option struct (`struct
 * args` in its file, see OPT_AT()), or when `shared` in struct cmd_ctx,
 * where the options every command reads the same way (--json, --root,
 * --no-store) and the global ones (--color, --width) live.
 */

enum opt_type {
	OPT_FLAG,   /* no value: sets a bool */
	OPT_SET,    /* no value: sets an int to .set (one of several formats) */
	OPT_STRING, /* the value as given: const char * */
	OPT_CHOICE, /* one of .choices: const char * to the word matched */
	OPT_UINT,   /* a whole number from .min to .max: unsigned */
	OPT_NUMBER, /* a number from .min to .max: double */
	OPT_HELP,   /* -h, --help */
};

/* What completion offers for an option's value or for the operands. */
enum opt_complete {
	COMPLETE_NONE,
	COMPLETE_FILE,
	COMPLETE_DIR,
	COMPLETE_PROFILE,   /* shipped profile names, and files */
	COMPLETE_TESTS,     /* a comma-separated list of test ids */
	COMPLETE_RESULT_ID, /* ids of the results store and 'last' */
	COMPLETE_RESULT,    /* ids, 'last', and files */
	COMPLETE_ROUND,     /* the rounds of the results store */
	COMPLETE_COMMAND,   /* command names */
};

enum {
	OPTF_NO_OPERANDS = 1 << 0, /* given, the command takes no operands (apply --list) */
	OPTF_GLOBAL = 1 << 1,      /* every command takes it; listed by `ubtune help` */
};

struct cmd_option {
	const char *name;    /* the long name, without "--" */
	char short_name;     /* or 0 */
	enum opt_type type;
	const char *arg;     /* the value's name in help and usage ("DIR"); a choice's
			      * default: its words, "programs|run" */
	const char *help;    /* one paragraph, wrapped to the output's width */
	/* or, made when it is printed: a help that gives figures computed from
	 * other tables (bench --quick's durations from the catalogue) */
	char *(*help_fn)(void);
	size_t offset;       /* where the value goes: in struct args, */
	bool shared;         /* or in struct cmd_ctx */
	unsigned flags;      /* OPTF_* */
	const char *group;   /* at most one option of a group: [--markdown|--csv|--json] */
	const char *needs;   /* the long name of the option it goes with: [--chart F [--relative]] */
	int set;             /* OPT_SET: the value */
	double min, max;     /* OPT_UINT, OPT_NUMBER */
	const char *const *choices;     /* OPT_CHOICE: NULL-terminated */
	enum opt_complete complete;     /* for the value */
};

/* The operands after the options (anywhere among them, in fact). */
struct cmd_operands {
	const char *usage;    /* "RESULT RESULT...", "[ID|FILE]"; NULL: none */
	unsigned min, max;    /* max 0: any number */
	const char *missing;  /* the usage error when fewer than min are given */
	enum opt_complete complete;
	const char *const *words; /* also offered (a command's verbs); NULL-terminated */
};

/* `.offset` of an option of the command's `struct args`. */
#define OPT_AT(field) .offset = offsetof(struct args, field)
#define OPT_SHARED_AT(field) .offset = offsetof(struct cmd_ctx, field), .shared = true

/* The options several commands share: the value lands in struct cmd_ctx.
 * Further designated initializers may follow the help. */
#define OPT_JSON(help_, ...) \
	{ .name = "json", .type = OPT_FLAG, .help = help_, OPT_SHARED_AT(json), __VA_ARGS__ }
#define OPT_ROOT(arg_, help_) \
	{ .name = "root", .type = OPT_STRING, .arg = arg_, .help = help_, OPT_SHARED_AT(root), \
	  .complete = COMPLETE_DIR }
#define OPT_NO_STORE(help_) { .name = "no-store", .type = OPT_FLAG, .help = help_, OPT_SHARED_AT(no_store) }
#define OPT_WORKDIR(field, help_) \
	{ .name = "workdir", .type = OPT_STRING, .arg = "DIR", .help = help_, OPT_AT(field), \
	  .complete = COMPLETE_DIR }
#define OPT_END { 0 }

/* Taken by every command (after its name as well as before it). */
extern const struct cmd_option global_options[];

struct command;
struct cmd_ctx;

/* True when the option takes a value. */
static inline bool option_has_value(const struct cmd_option *o)
{
	return o->type == OPT_STRING || o->type == OPT_CHOICE || o->type == OPT_UINT || o->type == OPT_NUMBER;
}
