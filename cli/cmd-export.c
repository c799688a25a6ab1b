/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>

#include <inttypes.h>

#include "analysis/export.h"
#include "analysis/fleet.h"
#include "command.h"
#include "lib/store.h"
#include "result-args.h"

static const struct option options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static int write_json(const char *path, json_object *rec)
{
	int fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644) : dup(STDOUT_FILENO);
	if (fd < 0)
		return -errno;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -errno;
	}
	bool ok = fprintf(f, "%s\n", jdump(rec, true)) >= 0;
	ok = fflush(f) == 0 && ok;
	int e = errno;
	ok = fclose(f) == 0 && ok;
	return ok ? 0 : -(e ? e : EIO);
}

/* The records the IDs name; without any, the latest of each host. */
static int load_records(char *const *ids, size_t nids, json_object ***recs, size_t *n)
{
	_cleanup_store_ struct store *s = NULL;
	_cleanup_free_ char *error = NULL;
	_cleanup_free_ int64_t *latest = NULL;
	if (store_open_state(&s, &error) < 0)
		return log_error("%s", error), EXIT_FAIL;
	if (!nids) {
		_cleanup_json_ json_object *list = NULL;
		int r = store_list(s, &list);
		if (r < 0)
			return log_error_errno(r, "Failed to list the results: %m"), EXIT_FAIL;
		fleet_latest(list, false, &latest, &nids);
	}
	*recs = xcalloc(nids ? nids : 1, sizeof(**recs));
	for (*n = 0; *n < nids; (*n)++) {
		int64_t id;
		_cleanup_free_ char *ref = latest ? xasprintf("%" PRId64, latest[*n]) : xstrdup(ids[*n]);
		if (store_lookup(s, ref, &id, &(*recs)[*n], &error) < 0)
			return log_error("%s", error), EXIT_FAIL;
	}
	return EXIT_OK;
}

/* OpenMetrics or samples of the results, to FILE by rename (a reader of
 * FILE, as node_exporter's textfile collector, never sees half of it). */
static int write_metrics(const char *format, const char *output, char *const *ids, size_t nids)
{
	json_object **recs = NULL;
	size_t n = 0;
	int code = load_records(ids, nids, &recs, &n);
	struct buf b = {0};
	_cleanup_free_ char *error = NULL;
	if (code == EXIT_OK && streq(format, "openmetrics") && export_openmetrics(recs, n, &b, &error) < 0) {
		log_error("%s", error);
		code = EXIT_USAGE;
	} else if (code == EXIT_OK && streq(format, "samples")) {
		export_samples(recs, n, &b);
	}
	for (size_t i = 0; i < n; i++)
		json_object_put(recs[i]);
	free(recs);
	int r = 0;
	if (code == EXIT_OK && output)
		r = write_file_atomic(output, b.s ? b.s : "", 0644);
	else if (code == EXIT_OK && b.len && fwrite(b.s, 1, b.len, stdout) != b.len)
		r = -EIO;
	buf_free(&b);
	if (r < 0)
		return log_error_errno(r, "Failed to write %s: %m", output ? output : "the metrics"), EXIT_FAIL;
	return code;
}

static int run(int argc, char **argv)
{
	const char *output = NULL, *format = "json";
	int opt, code;
	while ((opt = command_getopt(&cmd_export, argc, argv, "ho:", &code)) != -1) {
		if (opt == 'o')
			output = optarg;
		else if (opt == 'f')
			format = optarg;
		else
			return code;
	}
	if (streq_ptr(output, "-"))
		output = NULL;
	if (!streq(format, "json") && !streq(format, "openmetrics") && !streq(format, "samples"))
		return command_usage_error(&cmd_export, "--format takes json, openmetrics or samples, not '%s'", format);
	if (!streq(format, "json"))
		return write_metrics(format, output, argv + optind, (size_t)(argc - optind));
	_cleanup_json_ json_object *rec = NULL;
	code = command_result_arg(&cmd_export, argc, argv, &rec);
	if (code != EXIT_OK)
		return code;
	int r = write_json(output, rec);
	if (r < 0)
		return log_error_errno(r, "Failed to write %s: %m", output ? output : "the result"), EXIT_FAIL;
	return EXIT_OK;
}

const struct command cmd_export = {
	.name = "export",
	.run = run,
	.args = "[--format json|openmetrics|samples] [-o FILE] [ID...]",
	.summary = "Write stored results as JSON, OpenMetrics or samples, to share them or feed fleet tools",
	.help = "ID is a number from `ubtune history`, 'last', or 'last~N'.\n\n"
		"Options:\n"
		"  --format json        the result record, as `ubtune import` reads it back (the\n"
		"                       default; exactly one ID)\n"
		"  --format openmetrics OpenMetrics text for Prometheus: a gauge per index test and\n"
		"                       the score, labelled by host and copies (node_exporter's\n"
		"                       textfile collector reads FILE.prom)\n"
		"  --format samples     one JSON sample a line (metric, value, unit, labels,\n"
		"                       timestamp), as PerfKitBenchmarker writes them\n"
		"                       openmetrics and samples take any number of IDs; without one,\n"
		"                       the latest result of each host\n"
		"  -o, --output FILE    write to FILE (default, and \"-\": standard output); metrics\n"
		"                       are written to a temporary file renamed to FILE\n"
		"  -h, --help           show this help\n\n"
		"docs/exports.md describes both metric formats.\n",
	.options = options,
};
