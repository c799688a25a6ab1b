/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <time.h>

#include "command.h"
#include "lib/env-record.h"
#include "lib/output-file.h"
#include "lib/tarball.h"
#include "probe/gather.h"
#include "probe/probe.h"

struct args {
	const char *output, *workdir;
};

static const struct cmd_option options[] = {
	{ .name = "output", .short_name = 'o', .type = OPT_STRING, .arg = "FILE.tar.gz", OPT_AT(output),
	  .complete = COMPLETE_FILE,
	  .help = "write the archive to FILE (\"-\": standard output); default "
		  "ubtune-gather-HOST-YYYYmmdd-HHMMSS.tar.gz in the current directory" },
	OPT_WORKDIR(workdir, "the benchmark directory whose storage is examined"),
	OPT_ROOT("DIR|FILE.tar.gz|-", "gather from a dump of another machine (a directory, an archive, or - for an "
				      "archive on standard input) instead of this one"),
	OPT_END,
};

/* ubtune-gather-HOST-YYYYmmdd-HHMMSS.tar.gz, HOST reduced to safe characters. */
static char *default_name(json_object *rec, time_t now)
{
	struct env_record env;
	_cleanup_free_ char *error = NULL;
	/* the probe's own record: a key of the wrong type leaves the host unknown */
	(void)env_decode(rec, "", &env, &error);
	_cleanup_free_ char *host = xstrdup(env.host.hostname ?: "unknown");
	env_record_free(&env);
	for (char *p = host; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_", *p))
			*p = '_';
	char stamp[32];
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	return xasprintf("ubtune-gather-%s-%s.tar.gz", host, stamp);
}

static void format_size(uint64_t bytes, char *s, size_t n)
{
	if (bytes >= 1024 * 1024)
		snprintf(s, n, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
	else
		snprintf(s, n, "%.1f KiB", (double)bytes / 1024.0);
}

/* Writes the archive to `output` ("-": stdout; NULL: a new file with the
 * default name, never overwriting one). A failed write leaves the file
 * named as it was. */
static int write_archive(const char *output, json_object *rec, const struct gather *g, time_t now)
{
	_cleanup_free_ char *name = NULL, *error = NULL;
	bool to_stdout = streq_ptr(output, "-");
	struct output_file out = { .fd = STDOUT_FILENO };
	uint64_t written = 0;

	if (to_stdout) {
		if (isatty(out.fd)) {
			log_error("refusing to write an archive to a terminal: use -o FILE or redirect the output");
			return EXIT_USAGE;
		}
	} else {
		name = output ? xstrdup(output) : default_name(rec, now);
		int r = output_file_open(&out, name, output ? 0 : OUTPUT_NEW, &error);
		if (r < 0)
			return command_output_failed(r, error);
	}
	int r = tarball_write(out.fd, g->items, g->n, now, &written, &error);
	if (r < 0) {
		log_error("Failed to write %s: %s", name ? name : "the archive to stdout", error);
		if (!to_stdout)
			output_file_abort(&out);
		return EXIT_FAIL;
	}
	if (!to_stdout && (r = output_file_finish(&out, &error)) < 0)
		return command_output_failed(r, error);

	char content[32], packed[32];
	format_size(g->bytes, content, sizeof(content));
	format_size(written, packed, sizeof(packed));
	log_info("gathered %zu entries (%s of content) into %s (%s)", g->n, content, name ? name : "stdout", packed);
	if (g->unreadable)
		log_info("%zu file%s could not be read again and %s left out", g->unreadable,
			 g->unreadable == 1 ? "" : "s", g->unreadable == 1 ? "is" : "are");
	return EXIT_OK;
}

static int run(struct cmd_ctx *ctx, void *args)
{
	const struct args *a = args;
	struct probe_opts opts = { .trace = true, .root = ctx->root, .workdir = a->workdir };
	const char *output = a->output;
	int code;
	if (!HAVE_ARCHIVE) {
		log_error("gather needs libarchive, and this ubtune is built without it");
		return EXIT_FAIL;
	}

	struct unpacked_root unpacked = {0};
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_rootfs_ struct rootfs *rf = NULL;
	_cleanup_free_ char *error = NULL;
	struct gather g = {0};
	time_t now = time(NULL);
	int r = unpacked_root_open(opts.root, &unpacked, &error);
	if (r > 0)
		opts.root = unpacked.root;
	if (r >= 0 && (r = probe_collect(&opts, &rec, &rf, &error)) >= 0) {
		if (unpacked.root)
			jset_str(rec, "root", unpacked.source);
		r = gather_build(rec, rf, now, &g, &error);
	}
	if (r < 0) {
		error = unpacked_root_message(&unpacked, error);
		log_error("%s", error);
		unpacked_root_close(&unpacked);
		return EXIT_FAIL;
	}
	code = write_archive(output, rec, &g, now);
	gather_free(&g);
	unpacked_root_close(&unpacked);
	return code;
}

const struct command cmd_gather = {
	.name = "gather",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.summary = "Save the files probe reads into an archive that `probe --root` reads back",
	.notes = "The archive holds exactly what the probe read (with the content it saw), the\n"
		"kernel log, unit states, CPUID and toolchain facts, and the record itself as\n"
		".ubtune/record.json. `ubtune probe --root FILE.tar.gz` reads it back and gives\n"
		"the same record. Nothing else of the machine is copied; gather never changes it.",
};
