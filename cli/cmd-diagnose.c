/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <sys/stat.h>

#include "analysis/diagnose.h"
#include "command.h"
#include "lib/paths.h"

#define RESULT_SCHEMA_NAME "ubtune.result/1"
/* A result with every pass and sample of a long run is a few MiB. */
#define RESULT_FILE_LIMIT (64u << 20)

static const struct option options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "reference", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* Reads a result file; EXIT_OK or the exit code after saying what is wrong. */
static int load_result(const char *path, json_object **rec)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return log_error_errno(-errno, "Failed to read %s: %m", path), EXIT_FAIL;
	if (!S_ISREG(st.st_mode) || st.st_size > RESULT_FILE_LIMIT) {
		log_error("%s: not a result file (%s)", path, S_ISREG(st.st_mode) ? "larger than 64 MiB" : "not a file");
		return EXIT_USAGE;
	}
	int r = jload_file(path, rec);
	if (r == -EBADMSG) {
		log_error("%s: not JSON", path);
		return EXIT_USAGE;
	}
	if (r < 0)
		return log_error_errno(r, "Failed to read %s: %m", path), EXIT_FAIL;
	const char *schema = jpath_str(*rec, "schema");
	if (!streq_ptr(schema, RESULT_SCHEMA_NAME)) {
		log_error("%s: not a ubtune result (schema %s, expected %s)", path, schema ?: "missing",
			  RESULT_SCHEMA_NAME);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int load_references(const char *given, struct diag_refs *refs)
{
	_cleanup_free_ char *path = given ? xstrdup(given) : data_path("reference/published-results.json");
	_cleanup_free_ char *error = NULL;
	if (diag_refs_load(path, refs, &error) == 0)
		return EXIT_OK;
	diag_refs_free(refs);
	if (given) {
		log_error("%s", error);
		return EXIT_USAGE;
	}
	log_warning("%s; comparing with no published run", error);
	return EXIT_OK;
}

static int run(int argc, char **argv)
{
	bool json = false;
	const char *reference = NULL;
	int opt, code;
	while ((opt = command_getopt(&cmd_diagnose, argc, argv, "+h", &code)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'r':
			reference = optarg;
			break;
		default:
			return code;
		}
	}
	if (optind >= argc)
		return command_usage_error(&cmd_diagnose, "which result? Give a result file (`ubtune bench --json`)");
	if (optind + 1 < argc)
		return command_usage_error(&cmd_diagnose, "unexpected argument '%s'", argv[optind + 1]);

	_cleanup_json_ json_object *rec = NULL;
	code = load_result(argv[optind], &rec);
	if (code != EXIT_OK)
		return code;
	struct diag_refs refs = {0};
	code = load_references(reference, &refs);
	if (code != EXIT_OK)
		return code;
	struct diag_case c;
	_cleanup_free_ char *error = NULL;
	if (diag_case_init(&c, rec, &refs, NULL, &error) < 0) {
		log_error("%s: %s", argv[optind], error);
		diag_refs_free(&refs);
		return EXIT_USAGE;
	}
	_cleanup_json_ json_object *report = diagnose(&c);
	diag_refs_free(&refs);
	if (json)
		printf("%s\n", jdump(report, true));
	else
		diagnose_render(report, stdout);
	if (fflush(stdout) != 0)
		return log_error_errno(-errno, "Failed to write the report: %m"), EXIT_FAIL;
	return EXIT_OK;
}

const struct command cmd_diagnose = {
	.name = "diagnose",
	.run = run,
	.args = "[--json] [--reference FILE] RESULT.json",
	.summary = "Explain a low score: ranked causes with evidence, fix and expected gain",
	.help = "Options:\n"
		"  --json            print the report (schema ubtune.diagnosis/1) as JSON\n"
		"  --reference FILE  published runs to compare with (schema ubtune.reference/1;\n"
		"                    default: the reference/published-results.json installed with ubtune)\n"
		"  -h, --help        show this help\n\n"
		"RESULT.json is a result record (schema ubtune.result/1) as `ubtune bench --json`\n"
		"writes it; an imported UnixBench log works too. The report combines the environment\n"
		"recorded before, during and after the run, the shape of the scores (each test\n"
		"against the others), and the closest published runs of the same CPU. Each cause\n"
		"has a confidence, the evidence, a fix and the gain expected per test; then what\n"
		"looks normal, what could not be checked (an imported log has no environment),\n"
		"and A/B experiments to confirm the fix with `ubtune compare`.\n",
	.options = options,
};
