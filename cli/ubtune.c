/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <string.h>

#include "bench/embedded.h"
#include "cli/store-setup.h"
#include "command.h"
#include "parse-options.h"
#include "lib/json.h"
#include "lib/term.h"
#include "lib/util.h"

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
	&cmd_reference,
	&cmd_help,
	&cmd_complete,
	&cmd_man,
	&cmd_expect_runs,
	NULL,
};

/* ubtune's own options, before the command; the global ones follow them. */
struct main_args {
	bool version;
};

static const struct cmd_option main_options[] = {
	{ .name = "version", .type = OPT_FLAG, .offset = offsetof(struct main_args, version),
	  .help = "show the version, the optional libraries and the data built in" },
	OPT_END,
};

static const struct command cmd_main = {
	.name = "",
	.options = main_options,
	.operands = { .usage = "COMMAND [OPTIONS]" },
	.flags = CMD_HIDDEN | CMD_OPTIONS_FIRST,
	.exits = "3 findings (probe --strict) or a knob not as the profile set it (status), 128+N bench "
		 "stopped by signal N",
};

const struct command *command_find(const char *name)
{
	for (size_t i = 0; commands[i]; i++)
		if (streq(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static void exit_status(const struct command *c, FILE *f, size_t width)
{
	_cleanup_free_ char *s = xasprintf("Exit status: 0 success, 1 failure, 2 usage error%s%s.", c->exits ? ", " : "",
					   c->exits ? c->exits : "");
	print_paragraphs(f, s, 0, width);
}

static void main_usage(FILE *f)
{
	size_t width = term_width(f);
	static const char head[] = "Usage: ubtune ";
	_cleanup_free_ char *synopsis = options_global_synopsis();
	fprintf(f, "%s%s COMMAND [OPTIONS]\n%*s[--] [OPERANDS]\n", head, synopsis, (int)strlen(head), "");
	fprintf(f, "       ubtune help COMMAND | ubtune COMMAND --help | ubtune --version\n\n"
		   "Makes UnixBench scores trustworthy and explainable.\n\nCommands:\n");
	for (size_t i = 0; commands[i]; i++)
		if (command_listed(commands[i])) {
			fprintf(f, "  %-10s ", commands[i]->name);
			term_print_wrapped(f, commands[i]->summary, 13, width);
		}
	fprintf(f, "\nOptions (after the command too):\n");
	struct command globals = { .name = "", .options = main_options };
	options_help(&globals, true, f, width);
	fputc('\n', f);
	print_paragraphs(f, "Options may come before or after the operands; \"--\" ends them.\n", 0, width);
	exit_status(&cmd_main, f, width);
}

void command_help(const struct command *c, FILE *f)
{
	if (!c || c == &cmd_main) {
		main_usage(f);
		return;
	}
	size_t width = term_width(f);
	options_usage(c, f, width);
	_cleanup_free_ char *summary = xasprintf("%s.", c->summary);
	fputc('\n', f);
	print_paragraphs(f, summary, 0, width);
	if (c->description) {
		fputc('\n', f);
		print_paragraphs(f, c->description, 0, width);
	}
	fprintf(f, "\nOptions:\n");
	options_help(c, false, f, width);
	if (c->notes) {
		fputc('\n', f);
		print_paragraphs(f, c->notes, 0, width);
	}
	fputc('\n', f);
	exit_status(c, f, width);
}

/* "'prbe' is not a command (did you mean 'probe'?)" */
int command_unknown(const char *name)
{
	const char *names[ARRAY_SIZE(commands)];
	size_t n = 0;
	for (size_t i = 0; commands[i]; i++)
		if (command_listed(commands[i]))
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
	fprintf(stderr, "ubtune%s%s: ", *c->name ? " " : "", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ubtune%s%s --help' for more information.\n", *c->name ? " " : "", c->name);
	return EXIT_USAGE;
}

int command_flush(const char *what)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return log_error_errno(errno ? -errno : -EIO, "Failed to write %s: %m", what);
}

int command_output_failed(int r, const char *error)
{
	log_error("%s", error);
	return r == -EISDIR || r == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
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

static int print_version(void)
{
	/* the optional libraries of this build (MINIMAL=1: none) */
	printf("ubtune %s\n%csystemd %cudev %chwloc %csqlite %carchive\n", UBTUNE_VERSION, HAVE_SYSTEMD ? '+' : '-',
	       HAVE_UDEV ? '+' : '-', HAVE_HWLOC ? '+' : '-', HAVE_SQLITE ? '+' : '-', HAVE_ARCHIVE ? '+' : '-');
	print_carried();
	return command_flush("the version") < 0 ? EXIT_FAIL : EXIT_OK;
}

/* --color and --width, wherever they were given. */
static int apply_globals(const struct cmd_ctx *ctx)
{
	enum color_mode m;
	if (ctx->color && term_parse_color_mode(ctx->color, &m) == 0)
		term_set_color_mode(m);
	if (ctx->width)
		term_set_width(ctx->width);
	return 0;
}

static int run_command(const struct command *c, int argc, char **argv)
{
	struct cmd_ctx ctx = {0};
	_cleanup_free_ void *opts = xcalloc(1, c->opts_size ? c->opts_size : 1);
	int code = options_parse(c, argc, argv, &ctx, opts);
	apply_globals(&ctx);
	if (code < 0 && (c->flags & CMD_STORE) && !ctx.no_store && cli_store_open(&ctx.store, false) < 0)
		code = EXIT_FAIL;
	if (code < 0)
		code = c->run(&ctx, opts);
	if (ctx.store)
		store_close(ctx.store);
	free(ctx.args);
	return code;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);

	struct cmd_ctx ctx = {0};
	struct main_args a = {0};
	int code = options_parse(&cmd_main, argc, argv, &ctx, &a);
	apply_globals(&ctx);
	if (code >= 0)
		return code == EXIT_OK && command_flush("the help") < 0 ? EXIT_FAIL : code;
	if (a.version) {
		free(ctx.args);
		return print_version();
	}
	if (!ctx.nargs) {
		free(ctx.args);
		main_usage(stderr);
		return EXIT_USAGE;
	}
	const struct command *c = command_find(ctx.args[0]);
	if (!c)
		code = command_unknown(ctx.args[0]);
	else
		code = run_command(c, (int)ctx.nargs, ctx.args);
	free(ctx.args);
	/* what a command printed without checking (its help, for one) */
	if (code == EXIT_OK && command_flush("the output") < 0)
		code = EXIT_FAIL;
	return code;
}
