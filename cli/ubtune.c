/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <string.h>

#include "bench/embedded.h"
#include "command.h"
#include "lib/json.h"
#include "lib/term.h"
#include "lib/util.h"

static int cmd_help_run(int argc, char **argv);
static int cmd_complete_run(int argc, char **argv);

static const struct command cmd_help = {
	.name = "help",
	.run = cmd_help_run,
	.args = "[COMMAND]",
	.summary = "Show the commands, or the options of one command",
	.help = "With no COMMAND, lists the commands and the global options.\n",
};

/* Hidden: words for shell completion. */
static const struct command cmd_complete = {
	.name = "__complete",
	.run = cmd_complete_run,
	.args = "[COMMAND]",
	.summary = NULL,
};

const struct command *const commands[] = {
	&cmd_probe,
	&cmd_gather,
	&cmd_apply,
	&cmd_revert,
	&cmd_status,
	&cmd_bench,
	&cmd_history,
	&cmd_show,
	&cmd_export,
	&cmd_import,
	&cmd_compare,
	&cmd_report,
	&cmd_diagnose,
	&cmd_fleet,
	&cmd_help,
	&cmd_complete,
	NULL,
};

const struct command *command_find(const char *name)
{
	for (size_t i = 0; commands[i]; i++)
		if (streq(commands[i]->name, name))
			return commands[i];
	return NULL;
}

void command_help(const struct command *c, FILE *f)
{
	fprintf(f, "Usage: ubtune %s %s\n\n%s.\n", c->name, c->args, c->summary);
	if (c->help && *c->help)
		fprintf(f, "\n%s", c->help);
	fprintf(f, "\nExit status: 0 success, 1 failure, 2 usage error%s%s.\n", c->exits ? ", " : "",
		c->exits ? c->exits : "");
}

/* "'prbe' is not a command (did you mean 'probe'?)" */
static int unknown_command(const char *name)
{
	const char *names[ARRAY_SIZE(commands)];
	size_t n = 0;
	for (size_t i = 0; commands[i]; i++)
		if (commands[i]->summary)
			names[n++] = commands[i]->name;
	names[n] = NULL;
	const char *hint = str_closest(name, names);
	log_error("'%s' is not a command%s%s%s; see 'ubtune help'", name, hint ? " (did you mean '" : "",
		  hint ? hint : "", hint ? "'?)" : "");
	return EXIT_USAGE;
}

int command_usage_error(const struct command *c, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "ubtune %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ubtune %s --help' for more information.\n", c->name);
	return EXIT_USAGE;
}

int command_flush(const char *what)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return log_error_errno(errno ? -errno : -EIO, "Failed to write %s: %m", what);
}

int command_getopt(const struct command *c, int argc, char **argv, const char *shortopts, int *exit_code)
{
	opterr = 0;
	int opt = getopt_long(argc, argv, shortopts, c->options, NULL);
	if (opt == 'h') {
		command_help(c, stdout);
		*exit_code = EXIT_OK;
	} else if (opt == '?') {
		if (optopt)
			*exit_code = command_usage_error(c, "unknown option '-%c'", optopt);
		else
			*exit_code = command_usage_error(c, "unknown option '%s'", argv[optind - 1]);
	} else if (opt == ':') {
		*exit_code = command_usage_error(c, "option '%s' needs a value", argv[optind - 1]);
	}
	return opt;
}

/* What a static build carries, so that one copied file is enough. */
static void print_carried(void)
{
	size_t nw, nd, profiles = 0;
	bool reference = false;
	embedded_workloads(&nw);
	const struct embedded_file *data = builtin_data(&nd);
	for (size_t i = 0; i < nd; i++) {
		profiles += startswith(data[i].name, "profiles/") && endswith(data[i].name, ".profile");
		reference |= streq(data[i].name, "reference/published-results.json");
	}
	if (nw)
		printf("built in: the workloads\n");
	if (nd)
		printf("built in: %zu profile%s%s (used where no data directory is installed)\n", profiles,
		       profiles == 1 ? "" : "s", reference ? " and the published reference runs" : "");
}

static void main_usage(FILE *f)
{
	fprintf(f, "Usage: ubtune [--color=WHEN] COMMAND [OPTIONS]\n"
		   "       ubtune help COMMAND | ubtune COMMAND --help | ubtune --version\n\n"
		   "Makes UnixBench scores trustworthy and explainable.\n\nCommands:\n");
	for (size_t i = 0; commands[i]; i++)
		if (commands[i]->summary)
			fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\nOptions:\n"
		   "  --color=WHEN  colour the output: auto (default), always, never;\n"
		   "                NO_COLOR in the environment turns it off\n"
		   "  --version     show the version, the optional libraries and the data built in\n"
		   "  -h, --help    show this help\n\n"
		   "Exit status: 0 success, 1 failure, 2 usage error, 3 findings (probe --strict)\n"
		   "or a knob not as the profile set it (status), 128+N bench stopped by signal N.\n");
}

static int cmd_help_run(int argc, char **argv)
{
	if (argc < 2) {
		main_usage(stdout);
		return EXIT_OK;
	}
	if (streq(argv[1], "--help") || streq(argv[1], "-h")) {
		command_help(&cmd_help, stdout);
		return EXIT_OK;
	}
	const struct command *c = command_find(argv[1]);
	if (!c || !c->summary)
		return unknown_command(argv[1]);
	command_help(c, stdout);
	return EXIT_OK;
}

static int cmd_complete_run(int argc, char **argv)
{
	if (argc < 2) {
		for (size_t i = 0; commands[i]; i++)
			if (commands[i]->summary)
				printf("%s\n", commands[i]->name);
		return EXIT_OK;
	}
	const struct command *c = command_find(argv[1]);
	if (!c)
		return EXIT_USAGE;
	for (const struct option *o = c->options; o && o->name; o++)
		printf("--%s\n", o->name);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);

	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *v;
		if (streq(argv[i], "--version")) {
			/* the optional libraries of this build (MINIMAL=1: none) */
			printf("ubtune %s\n%csystemd %cudev %chwloc %csqlite %carchive\n", UBTUNE_VERSION,
			       HAVE_SYSTEMD ? '+' : '-', HAVE_UDEV ? '+' : '-', HAVE_HWLOC ? '+' : '-',
			       HAVE_SQLITE ? '+' : '-', HAVE_ARCHIVE ? '+' : '-');
			print_carried();
			return command_flush("the version") < 0 ? EXIT_FAIL : EXIT_OK;
		} else if (streq(argv[i], "-h") || streq(argv[i], "--help")) {
			main_usage(stdout);
			return command_flush("the help") < 0 ? EXIT_FAIL : EXIT_OK;
		} else if ((v = startswith(argv[i], "--color="))) {
			enum color_mode m;
			if (term_parse_color_mode(v, &m) < 0) {
				log_error("--color takes auto, always or never, not '%s'", v);
				return EXIT_USAGE;
			}
			term_set_color_mode(m);
		} else {
			log_error("unknown option '%s' (see 'ubtune --help')", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		main_usage(stderr);
		return EXIT_USAGE;
	}
	const struct command *c = command_find(argv[i]);
	if (!c)
		return unknown_command(argv[i]);
	optind = 1;
	int code = c->run(argc - i, argv + i);
	/* what a command printed without checking (its help, for one) */
	if (code == EXIT_OK && command_flush("the output") < 0)
		code = EXIT_FAIL;
	return code;
}
