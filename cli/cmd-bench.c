/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>

#include "bench/applied.h"
#include "bench/bench.h"
#include "bench/engine.h"
#include "bench/result.h"
#include "bench/runner.h"
#include "command.h"
#include "lib/paths.h"
#include "lib/store.h"
#include "lib/term.h"
#include "tune/journal.h"
#include "tune/tune.h"

#define MAX_ITERATIONS 1000
#define MAX_WAIT_S 86400

static const struct option options[] = {
	{ "tests", required_argument, NULL, 't' },
	{ "iterations", required_argument, NULL, 'i' },
	{ "copies", required_argument, NULL, 'c' },
	{ "workdir", required_argument, NULL, 'w' },
	{ "quick", no_argument, NULL, 'q' },
	{ "json", no_argument, NULL, 'j' },
	{ "wait", required_argument, NULL, 'W' },
	{ "force", no_argument, NULL, 'f' },
	{ "no-store", no_argument, NULL, 'n' },
	{ "unixbench", required_argument, NULL, 'u' },
	{ "engine", required_argument, NULL, 'e' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

struct args {
	const char *tests, *copies, *workdir, *unixbench;
	unsigned iterations;
	double wait_s;
	bool quick, json, force, no_store;
	bool run_script; /* --engine=run */
	bool engine_given;
};

/* ---- progress on stderr ---- */

struct ui_state {
	bool tty;
	bool line_open; /* an updating line is on the terminal */
};

static void clock_text(double s, char *b, size_t n)
{
	long t = isnan(s) || s < 0 ? 0 : s > 359999 ? 359999 : lround(s);
	if (t >= 3600)
		snprintf(b, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(b, n, "%ld:%02ld", t / 60, t % 60);
}

static void on_progress(const struct bench_progress *p, void *data)
{
	struct ui_state *ui = data;
	char elapsed[32], eta[32];
	clock_text(p->elapsed_s, elapsed, sizeof(elapsed));
	clock_text(p->eta_s, eta, sizeof(eta));
	_cleanup_free_ char *left = isnan(p->eta_s) ? xstrdup("") : xasprintf(", about %s left", eta);
	if (ui->tty) {
		fprintf(stderr, "\r\033[K%s[%u/%u]%s %s · %u cop%s · pass %u/%u · %s elapsed%s", term_esc(stderr, ANSI_BOLD),
			p->step, p->steps, term_esc(stderr, ANSI_RESET), p->test->name, p->copies,
			p->copies == 1 ? "y" : "ies", p->pass, p->passes, elapsed, left);
		ui->line_open = true;
	} else {
		fprintf(stderr, "ubtune bench: [%u/%u] %s, %u cop%s, pass %u/%u (%s elapsed%s)\n", p->step, p->steps,
			p->test->name, p->copies, p->copies == 1 ? "y" : "ies", p->pass, p->passes, elapsed, left);
	}
	fflush(stderr);
}

static void end_line(struct ui_state *ui)
{
	if (ui->line_open)
		fputs("\r\033[K", stderr);
	ui->line_open = false;
}

static void on_notice(const char *msg, void *data)
{
	end_line(data);
	log_warning("%s", msg);
}

/* ---- options ---- */

static int parse_args(int argc, char **argv, struct args *a, int *code)
{
	int opt;
	uint64_t u;
	while ((opt = command_getopt(&cmd_bench, argc, argv, "+h", code)) != -1) {
		switch (opt) {
		case 't':
			a->tests = optarg;
			break;
		case 'c':
			a->copies = optarg;
			break;
		case 'w':
			a->workdir = optarg;
			break;
		case 'u':
			a->unixbench = optarg;
			break;
		case 'e':
			if (!streq(optarg, "programs") && !streq(optarg, "run"))
				return *code = command_usage_error(&cmd_bench, "--engine takes programs or run, not '%s'",
								   optarg);
			a->run_script = streq(optarg, "run");
			a->engine_given = true;
			break;
		case 'i':
			if (parse_u64(optarg, &u) < 0 || u < 1 || u > MAX_ITERATIONS)
				return *code = command_usage_error(&cmd_bench, "--iterations takes a number from 1 to %d, not '%s'",
								   MAX_ITERATIONS, optarg);
			a->iterations = (unsigned)u;
			break;
		case 'W':
			if (parse_double(optarg, &a->wait_s) < 0 || !(a->wait_s >= 0 && a->wait_s <= MAX_WAIT_S))
				return *code = command_usage_error(&cmd_bench, "--wait takes seconds from 0 to %d, not '%s'",
								   MAX_WAIT_S, optarg);
			break;
		case 'q':
			a->quick = true;
			break;
		case 'j':
			a->json = true;
			break;
		case 'f':
			a->force = true;
			break;
		case 'n':
			a->no_store = true;
			break;
		default:
			return -1;
		}
	}
	if (optind < argc)
		return *code = command_usage_error(&cmd_bench, "unexpected argument '%s'", argv[optind]);
	if (a->engine_given && !a->unixbench)
		return *code = command_usage_error(&cmd_bench, "--engine picks how a UnixBench tree runs: give "
							       "--unixbench DIR too");
	return 0;
}

/* Run before 6.0 runs no system test at more copies than its cap. */
static int check_run_cap(const struct bench_engine *e, const struct bench_opts *o)
{
	for (unsigned i = 0; e->kind == ENGINE_RUN && e->max_copies && i < o->ncopies; i++)
		if (o->copies[i] > e->max_copies) {
			log_error("UnixBench %s's Run runs no system test with more than %u copies, so a %u-copy run "
				  "would have no index; run its programs under ubtune instead (--engine=programs, no cap), "
				  "or give --copies %u or fewer",
				  e->version, e->max_copies, o->copies[i], e->max_copies);
			return EXIT_USAGE;
		}
	if (e->kind == ENGINE_RUN && o->quick)
		log_info("Run's tests keep their durations: --quick runs it with -i 3 (3 passes of the long "
			 "tests, 1 of the short ones)");
	return EXIT_OK;
}

/* Tests and copies from the command line, else the profile, else UnixBench's defaults. */
static int resolve_lists(const struct args *a, const struct applied_profile *p, struct bench_opts *o)
{
	const char *tests = a->tests ? a->tests : p->tests;
	if (tests) {
		_cleanup_free_ char *bad = NULL;
		if (ub_parse_tests(tests, ",", o->tests, &o->ntests, &bad) < 0) {
			_cleanup_free_ char *ids = ub_index_ids(", ");
			if (a->tests)
				return command_usage_error(&cmd_bench, "unknown test '%s'; the tests are: %s", bad, ids);
			log_error("%s: unknown test '%s' in bench.tests; the tests are: %s", p->path, bad, ids);
			return EXIT_FAIL;
		}
	} else {
		for (unsigned i = 0; i < UB_NINDEX; i++)
			o->tests[o->ntests++] = i;
	}
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	const char *copies = a->copies ? a->copies : p->copies ? p->copies : online > 1 ? "1,all" : "1";
	if (ub_parse_copies(copies, ",", online > 0 ? (unsigned)online : 1, o->copies, &o->ncopies, NULL) < 0) {
		if (a->copies)
			return command_usage_error(&cmd_bench, "--copies takes up to %d numbers from 1 to %d or 'all', "
							       "separated by commas, not '%s'",
						   UB_RUNS_MAX, UB_COPIES_MAX, copies);
		log_error("%s: bench.copies '%s' is not a list of copy counts", p->path, copies);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int store_result(json_object *rec)
{
	_cleanup_free_ char *dir = state_dir();
	_cleanup_free_ char *path = store_path(dir);
	_cleanup_store_ struct store *s = NULL;
	int64_t id;
	int r = store_open(dir, &s);
	if (r >= 0)
		r = store_add(s, rec, &id);
	if (r < 0)
		return log_error_errno(r, "Failed to store the result in %s: %m", path);
	log_info("result %" PRId64 " stored in %s (ubtune show %" PRId64 ")", id, path, id);
	return 0;
}

static int print_result(json_object *rec, bool json)
{
	if (json)
		printf("%s\n", jdump(rec, true));
	else
		result_render(rec, stdout);
	return command_flush("the report");
}

static int exit_code(int r)
{
	if (r == -EINTR)
		return 128 + (runner_stop_signal() ? runner_stop_signal() : SIGINT);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

static int run_bench(const struct args *a, struct bench_opts *o)
{
	struct ui_state ui = { .tty = term_is_tty(stderr) };
	struct bench_ui callbacks = { on_progress, on_notice, &ui };
	o->ui = &callbacks;
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_free_ char *error = NULL;
	int r = bench_run(o, &rec, &error);
	end_line(&ui);
	if (!rec || !bench_has_results(rec)) {
		log_error("%s%s", error ? error : "no test finished",
			  r == -EINTR ? " before any test finished; nothing is stored" : "");
		return exit_code(r ? r : -EIO);
	}
	if (r < 0)
		log_error("%s%s", error, r == -EINTR ? "; the tests that finished are kept, marked incomplete" : "");
	if (!a->no_store && store_result(rec) < 0 && r == 0)
		r = -EIO;
	if (print_result(rec, a->json) < 0 && r == 0)
		r = -EIO;
	return exit_code(r);
}

/* A profile applied in an earlier boot: its tmpfs workdir and other
 * runtime settings did not survive the reboot. */
static bool profile_stale(const struct applied_profile *p)
{
	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	if (!p->present || rootfs_new("/", &rf) < 0)
		return false;
	_cleanup_free_ char *boot = journal_boot_id(rf);
	return applied_profile_stale(p, boot);
}

static int run(int argc, char **argv)
{
	struct args a = {0};
	int code = EXIT_OK;
	if (parse_args(argc, argv, &a, &code) < 0 || code != EXIT_OK)
		return code;

	_cleanup_free_ char *state = tune_state_dir(NULL);
	_cleanup_free_ char *error = NULL, *profile_source = NULL;
	struct applied_profile profile;
	if (applied_profile_load(state, &profile, &error) < 0) {
		log_error("%s", error);
		return EXIT_FAIL;
	}
	struct bench_opts o = {
		.iterations = a.iterations,
		.quick = a.quick || profile.quick == 1,
		.wait_s = a.wait_s,
		.force = a.force,
		.profile = &profile,
		.profile_stale = profile_stale(&profile),
		.workdir_source = "current directory",
	};
	if (a.workdir) {
		o.workdir = a.workdir;
		o.workdir_source = "--workdir";
	} else if (profile.workdir && !o.profile_stale) {
		o.workdir = profile.workdir;
		o.workdir_source = profile_source = xasprintf("from %s", profile.path);
	}
	if (o.profile_stale)
		log_warning("%s was written before the last reboot: its runtime settings (%s) are gone; run "
			    "`ubtune status`, then apply the profile again",
			    profile.path, profile.workdir ? "the workdir, the governor, services" : "the governor, services");
	code = resolve_lists(&a, &profile, &o);
	struct bench_engine engine = {0};
	int r = 0;
	if (code == EXIT_OK) {
		r = a.unixbench ? engine_unixbench(a.unixbench, &profile, a.run_script, &engine, &error)
				: engine_workloads(&profile, &engine, &error);
		if (r < 0) {
			log_error("%s", error);
			code = EXIT_FAIL;
		}
	}
	if (engine.note)
		log_warning("%s", engine.note);
	if (code == EXIT_OK)
		code = check_run_cap(&engine, &o);
	if (code == EXIT_OK) {
		o.engine = &engine;
		code = run_bench(&a, &o);
	}
	engine_free(&engine);
	applied_profile_free(&profile);
	return code;
}

const struct command cmd_bench = {
	.name = "bench",
	.run = run,
	.args = "[--tests LIST] [--copies LIST] [--iterations N] [--quick] [--workdir DIR] [--json] "
		"[--wait SECONDS] [--force] [--no-store] [--unixbench DIR [--engine programs|run]]",
	.summary = "Run the UnixBench index tests, score them and store the result with its environment",
	.help = "Options:\n"
		"  --tests LIST       UnixBench test ids, comma-separated (default: all 12, 'index'):\n"
		"                     dhry2reg, whetstone-double, execl, fstime, fsbuffer, fsdisk,\n"
		"                     pipe, context1, spawn, syscall, shell1, shell8\n"
		"  --copies LIST      copy counts, one pass over the tests each: numbers or 'all'\n"
		"                     (online CPUs, never capped); default 1,all\n"
		"  --iterations N     long tests run N passes, short ones int((N+1)/3), at least 1\n"
		"                     (UnixBench's -i; default 10 and 3)\n"
		"  --quick            short durations and fewer passes (3 and 1) for a first look;\n"
		"                     the result is marked and not comparable with full runs\n"
		"  --workdir DIR      where File Copy and Shell Scripts run (in a temporary directory\n"
		"                     made inside DIR and removed afterwards; DIR itself is kept);\n"
		"                     default: the applied profile's workdir, else the current directory\n"
		"  --json             print the result record (schema ubtune.result/1) instead of text\n"
		"  --wait SECONDS     when the machine is busy, wait this long for it to calm down\n"
		"  --force            run even when the machine is busy\n"
		"  --no-store         do not add the result to the results store\n"
		"  --unixbench DIR    run a byte-unixbench tree (5.1.2, 5.1.3 or 6.x; DIR, a checkout\n"
		"                     holding UnixBench/, or its pgms/) instead of ubtune's workloads;\n"
		"                     it is built into a copy in the cache (never in DIR) with the\n"
		"                     applied profile's compiler and flags (5.1.x OPTON, 6.x\n"
		"                     UB_GCC_OPTIONS), and the record keeps the exact commands\n"
		"  --engine programs  its programs under ubtune's harness (the default: the same\n"
		"                     passes, scoring and sampling as the workloads; no copy cap)\n"
		"  --engine run       its own Run script, unchanged, with UB_TMPDIR in the workdir; its\n"
		"                     report becomes the result (5.1.x Run runs at most 16 copies)\n"
		"  -h, --help         show this help\n\n"
		"Every pass is preceded by UnixBench's settling (sync; sleep 1; sync; sleep 2) and\n"
		"starts all its copies at once. Scores follow UnixBench 6.0.0: the lowest third of\n"
		"the passes by count is dropped and the rest averaged geometrically; the index is\n"
		"10 x result / baseline. The report adds each test's dispersion, a 95 % interval of\n"
		"the score, events the sampler saw (clocks, temperature, undervoltage, throttling,\n"
		"steal, swapping, other processes) and the probe's findings.\n\n"
		"A profile applied with `ubtune apply` supplies defaults (copies, tests, quick,\n"
		"workdir) and compiler flags for the workloads; the command line wins.\n"
		"Ctrl-C stops the run: the tests that finished are stored, marked incomplete.\n"
		"A test that fails, or a machine too busy to measure, is a failure (status 1).\n",
	.options = options,
	.exits = "128+N stopped by signal N",
};
