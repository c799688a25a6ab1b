/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>

#include "bench/applied.h"
#include "bench/bench.h"
#include "bench/engine.h"
#include "bench/result.h"
#include "bench/run-plan.h"
#include "bench/runner.h"
#include "bench/stability.h"
#include "bench/ubrun.h"
#include "analysis/fleet.h"
#include "command.h"
#include "lib/cgroup.h"
#include "lib/paths.h"
#include "cli/store-setup.h"
#include "lib/store.h"
#include "lib/term.h"
#include "tune/journal.h"
#include "tune/tune.h"

#define MAX_ITERATIONS 1000
#define MAX_WAIT_S 86400
#define MAX_DMA_LATENCY_US 2000000000

struct args {
	const char *tests, *copies, *workdir, *unixbench, *engine, *round;
	unsigned iterations;
	double wait_s;
	bool quick, json, force, no_store, strict, dry_run;
	bool run_script; /* --engine run */
	const char *pin_single; /* "fastest" | "off" | NULL (the profile's) */
	const char *dma_latency; /* microseconds | "off" | NULL (the profile's) */
};

static const char *const engine_words[] = { "programs", "run", NULL };
static const char *const pin_words[] = { "fastest", "off", NULL };

/* What --quick saves, from the estimates every run states (bench/run-plan.h). */
static char *quick_help(void)
{
	unsigned all[UB_NINDEX];
	for (unsigned i = 0; i < UB_NINDEX; i++)
		all[i] = i;
	double quick_s = run_plan_copy_count_s(ENGINE_WORKLOADS, all, UB_NINDEX, 0, true);
	double full_s = run_plan_copy_count_s(ENGINE_WORKLOADS, all, UB_NINDEX, 0, false);
	double run_s = run_plan_copy_count_s(ENGINE_RUN, all, UB_NINDEX, 0, true);
	_cleanup_free_ char *quick = run_plan_duration_text(quick_s), *full = run_plan_duration_text(full_s);
	_cleanup_free_ char *run = run_plan_duration_text(run_s);
	return xasprintf("short durations and fewer passes (%d and %d) for a first look: the 12 tests take about %s "
			 "per copy count with ubtune's workloads, against about %s in a full run (a tree's Run keeps "
			 "its durations: -i %d, about %s); the result is marked and not comparable with full runs",
			 UB_QUICK_PASSES_LONG, UB_QUICK_PASSES_SHORT, quick, full, UB_QUICK_PASSES_LONG, run);
}

static const struct cmd_option options[] = {
	{ .name = "tests", .type = OPT_STRING, .arg = "LIST", OPT_AT(tests), .complete = COMPLETE_TESTS,
	  .help = "UnixBench test ids, comma-separated (default: all 12, 'index'): dhry2reg, whetstone-double, "
		  "execl, fstime, fsbuffer, fsdisk, pipe, context1, spawn, syscall, shell1, shell8" },
	{ .name = "copies", .type = OPT_STRING, .arg = "LIST", OPT_AT(copies),
	  .help = "copy counts, one pass over the tests each: numbers or 'all' (the online CPUs this process may "
		  "keep busy: its cgroup's cpuset and CPU quota and its affinity count; never capped at 16); "
		  "default 1,all" },
	{ .name = "iterations", .type = OPT_UINT, .arg = "N", OPT_AT(iterations), .min = 1, .max = MAX_ITERATIONS,
	  .help = "long tests run N passes, short ones int((N+1)/3), at least 1 (UnixBench's -i; default 10 "
		  "and 3)" },
	{ .name = "quick", .type = OPT_FLAG, OPT_AT(quick), .help_fn = quick_help },
	OPT_WORKDIR(workdir, "where File Copy and Shell Scripts run (in a temporary directory made inside DIR and "
			     "removed afterwards; DIR itself is kept); default: the applied profile's workdir, else "
			     "the current directory"),
	OPT_JSON("print the result record (schema ubtune.result/1; with --dry-run the plan, ubtune.bench-plan/1) "
		 "instead of text"),
	{ .name = "wait", .type = OPT_NUMBER, .arg = "SECONDS", OPT_AT(wait_s), .min = 0, .max = MAX_WAIT_S,
	  .help = "when the machine is busy, wait this long for it to calm down" },
	{ .name = "force", .type = OPT_FLAG, OPT_AT(force), .help = "run even when the machine is busy" },
	{ .name = "round", .type = OPT_STRING, .arg = "ROUND", OPT_AT(round), .complete = COMPLETE_ROUND,
	  .help = "the round of a fleet this run belongs to (letters, digits and . _ : + -; the playbook gives "
		  "one to all its hosts): `ubtune fleet` shows a round's hosts side by side, names those missing "
		  "from it and, with --since, what moved since an earlier one" },
	{ .name = "dry-run", .type = OPT_FLAG, OPT_AT(dry_run),
	  .help = "print the plan (tests, copy counts, passes, the duration of each pass, engine, workdir, build "
		  "flags, the applied profile) and the expected time; run, build and write nothing" },
	{ .name = "strict", .type = OPT_FLAG, OPT_AT(strict),
	  .help = "exit with status 3 unless the result is judged stable (the stability verdict)" },
	OPT_NO_STORE("do not add the result to the results store"),
	{ .name = "pin-single", .type = OPT_CHOICE, .choices = pin_words, OPT_AT(pin_single),
	  .help = "on machines with several kinds of core (big.LITTLE, P/E cores), run the 1-copy pass on the "
		  "fastest kind only (default: the applied profile's [bench] pin-single, else off); recorded" },
	{ .name = "dma-latency", .type = OPT_STRING, .arg = "US", OPT_AT(dma_latency),
	  .help = "hold /dev/cpu_dma_latency at US microseconds (0: no idle state deeper than polling) for the "
		  "run, as root, or off; said and recorded (default: the applied profile's [bench] dma-latency, else off)" },
	{ .name = "unixbench", .type = OPT_STRING, .arg = "DIR", OPT_AT(unixbench), .complete = COMPLETE_DIR,
	  .help = "run a byte-unixbench tree (5.1.2, 5.1.3 or 6.x; DIR, a checkout holding UnixBench/, or its "
		  "pgms/) instead of ubtune's workloads; it is built into a copy in the cache (never in DIR) with "
		  "the applied profile's compiler and flags (5.1.x OPTON, 6.x UB_GCC_OPTIONS), and the record "
		  "keeps the exact commands" },
	{ .name = "engine", .type = OPT_CHOICE, .choices = engine_words, OPT_AT(engine), .needs = "unixbench",
	  .help = "programs: its programs under ubtune's harness (the default: the same passes, scoring and "
		  "sampling as the workloads; no copy cap); run: its own Run script, unchanged, with UB_TMPDIR "
		  "in the workdir; its report becomes the result (5.1.x Run runs at most 16 copies)" },
	OPT_END,
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

/* One line on the terminal that the next one replaces: cut to its width
 * (a column spare, so that the cursor does not wrap), for \r to redraw it
 * in place. */
static void draw_line(struct ui_state *ui, const char *head, const char *rest)
{
	size_t width = term_width(stderr), room = width > strlen(head) + 1 ? width - strlen(head) - 1 : 0;
	fprintf(stderr, "\r\033[K%s%s%s%.*s", term_esc(stderr, ANSI_BOLD), head, term_esc(stderr, ANSI_RESET),
		(int)term_fit(rest, room), rest);
	ui->line_open = true;
}

static void on_progress(const struct bench_progress *p, void *data)
{
	struct ui_state *ui = data;
	char elapsed[32], eta[32];
	clock_text(p->elapsed_s, elapsed, sizeof(elapsed));
	clock_text(p->eta_s, eta, sizeof(eta));
	_cleanup_free_ char *left = isnan(p->eta_s) ? xstrdup("") : xasprintf(", about %s left", eta);
	if (ui->tty) {
		_cleanup_free_ char *step = xasprintf("[%u/%u]", p->step, p->steps);
		_cleanup_free_ char *rest = xasprintf(" %s, %u cop%s, pass %u/%u, %s elapsed%s", p->test->name, p->copies,
						      p->copies == 1 ? "y" : "ies", p->pass, p->passes, elapsed, left);
		draw_line(ui, step, rest);
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

/* Waiting for the machine to calm down: redrawn in place as the progress is. */
static void on_status(const char *msg, void *data)
{
	struct ui_state *ui = data;
	if (!ui->tty) {
		log_warning("%s", msg);
		return;
	}
	_cleanup_free_ char *rest = xasprintf(" %s", msg);
	draw_line(ui, "[waiting]", rest);
	fflush(stderr);
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
	if (e->kind == ENGINE_RUN && o->quick && !o->iterations)
		log_info("Run's tests keep their durations: --quick runs it with -i 3 (3 passes of the long "
			 "tests, 1 of the short ones)");
	return EXIT_OK;
}

/*
 * "all" copies: as many as this process can keep busy, which its cgroup (a
 * container's CPU quota or cpuset) and its CPU affinity may make fewer
 * than the online CPUs in *all. Lowers *all and says why, else NULL.
 */
static char *copies_note(unsigned *all)
{
	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	_cleanup_free_ char *source = NULL;
	unsigned allowed;
	double quota;
	unsigned usable = rootfs_new("/", &rf) == 0 ? cgroup_process_cpus(rf, &allowed, &quota, &source) : 0;
	if (!usable || usable >= *all)
		return NULL;
	unsigned online = *all;
	*all = usable;
	if (source && quota < allowed)
		return xasprintf("'all' copies: %u, not %u: the CPU quota of this process's cgroup is %g CPUs (%s)",
				 usable, online, quota, source);
	return xasprintf("'all' copies: %u, not %u: this process may run on %u of the %u online CPUs (its cgroup's "
			 "cpuset or its CPU affinity)",
			 usable, online, allowed, online);
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
	unsigned all = online > 0 ? (unsigned)online : 1;
	_cleanup_free_ char *note = copies_note(&all);
	const char *given = a->copies ? a->copies : p->copies;
	const char *copies = given ? given : all > 1 ? "1,all" : "1";
	/* UnixBench's default, 1 and all, where all is what the cgroup allows */
	if (note && (!given || strstr(given, "all"))) {
		log_info("%s", note);
		o->copies_note = TAKE_PTR(note);
	}
	if (ub_parse_copies(copies, ",", all, o->copies, &o->ncopies, NULL) < 0) {
		if (a->copies)
			return command_usage_error(&cmd_bench, "--copies takes up to %d numbers from 1 to %d or 'all', "
							       "separated by commas, not '%s'",
						   UB_RUNS_MAX, UB_COPIES_MAX, copies);
		log_error("%s: bench.copies '%s' is not a list of copy counts", p->path, copies);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* The store is opened after the run, when there is a result to keep. */
static int store_result(json_object *rec)
{
	_cleanup_free_ char *dir = state_dir();
	_cleanup_free_ char *path = store_path(dir);
	_cleanup_store_ struct store *s = NULL;
	int64_t id;
	int r = cli_store_open(&s, true);
	if (r < 0)
		return r;
	r = fleet_store_add(s, rec, &id);
	if (r < 0)
		return log_error_errno(r, "Failed to store the result in %s: %m", path);
	log_info("result %" PRId64 " stored in %s (ubtune show %" PRId64 ")", id, path, id);
	return 0;
}

static int print_result(json_object *rec, bool json)
{
	_cleanup_free_ char *error = NULL;
	if (json)
		printf("%s\n", jdump(rec, true));
	else if (result_render(rec, stdout, &error) < 0)
		return log_error_errno(-EBADMSG, "Cannot show the result: %s", error);
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
	struct bench_ui callbacks = { .progress = on_progress, .notice = on_notice, .status = on_status, .data = &ui };
	o->ui = &callbacks;
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_free_ char *error = NULL;
	int r = bench_run(o, &rec, &error);
	end_line(&ui);
	if (rec && a->round)
		jset_str(rec, "round", a->round);
	if (!rec || !bench_has_results(rec)) {
		log_error("%s%s", error ? error : "no test finished",
			  r == -EINTR ? " before any test finished; nothing is stored" : "");
		return exit_code(r ? r : -EIO);
	}
	if (r < 0)
		log_error("%s%s", error, r == -EINTR ? "; the tests that finished are kept, marked incomplete" : "");
	/* the one verdict, kept in the record as every report shows it */
	(void)result_verdict_set(rec);
	if (!a->no_store && store_result(rec) < 0 && r == 0)
		r = -EIO;
	if (print_result(rec, a->json) < 0 && r == 0)
		r = -EIO;
	/* the report ends with the verdict; after JSON it goes to stderr */
	if (a->json)
		stability_render(rec, "", stderr);
	if (command_flush("the verdict") < 0 && r == 0)
		r = -EIO;
	/* --strict: only a result judged stable passes */
	if (r == 0 && a->strict && !streq_ptr(jpath_str(rec, "verdict.state"), "stable"))
		return EXIT_FINDINGS;
	return exit_code(r);
}

/* The engine of the run; in a plan, what it would be, built or written nothing. */
static int find_engine(const struct args *a, const struct applied_profile *p, bool plan, struct bench_engine *e)
{
	_cleanup_free_ char *error = NULL;
	int r = a->unixbench ? engine_unixbench(a->unixbench, p, a->run_script, plan, e, &error)
			     : engine_workloads(p, plan, e, &error);
	if (r < 0) {
		log_error("%s", error);
		return r == -EINTR ? exit_code(r) : EXIT_FAIL;
	}
	return EXIT_OK;
}

/* The plan of the run: all of it with --dry-run (on stdout), else the
 * expected duration, one line on stderr before anything starts. */
static int state_plan(const struct args *a, struct bench_opts *o, const struct bench_engine *planned)
{
	o->engine = planned;
	_cleanup_json_ json_object *plan = run_plan_json(o);
	if (planned->kind == ENGINE_RUN) {
		struct strv argv = {0};
		json_object *cmd = json_object_new_array();
		ubrun_argv(o, &argv);
		for (size_t i = 0; i < argv.n; i++)
			jarr_add_str(cmd, argv.v[i]);
		strv_free(&argv);
		jset(jpath(plan, "engine"), "command", cmd);
	}
	o->engine = NULL;
	if (!a->dry_run) {
		_cleanup_free_ char *expected = run_plan_expected_text(plan);
		log_info("expected to take %s", expected);
		return EXIT_OK;
	}
	if (jpath_str(plan, "workdir_error"))
		log_warning("%s", jpath_str(plan, "workdir_error"));
	if (a->json)
		printf("%s\n", jdump(plan, true));
	else
		run_plan_render(plan, stdout, term_width(stdout));
	return command_flush("the plan") < 0 ? EXIT_FAIL : EXIT_OK;
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

static int run(struct cmd_ctx *ctx, void *opts)
{
	struct args a = *(struct args *)opts;
	a.json = ctx->json;
	a.no_store = ctx->no_store;
	a.run_script = streq_ptr(a.engine, "run");
	int code = EXIT_OK;
	uint64_t us;
	if (a.round && !round_valid(a.round))
		return command_usage_error(&cmd_bench, "'%s' is not a round id (1 to %d letters, digits and . _ : + -)",
					   a.round, ROUND_MAX);
	if (a.dma_latency && !streq(a.dma_latency, "off") &&
	    (parse_u64(a.dma_latency, &us) < 0 || us > MAX_DMA_LATENCY_US))
		return command_usage_error(&cmd_bench, "--dma-latency takes microseconds from 0 to %d or off, not '%s'",
					   MAX_DMA_LATENCY_US, a.dma_latency);

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
	const char *pin = a.pin_single ? a.pin_single : profile.pin_single;
	o.pin_single = pin && streq(pin, "fastest") ? "fastest" : NULL;
	const char *qos = a.dma_latency ? a.dma_latency : profile.dma_latency;
	if (qos && !streq(qos, "off") && parse_u64(qos, &us) == 0 && us <= MAX_DMA_LATENCY_US) {
		o.dma_latency = true;
		o.dma_latency_us = (unsigned)us;
	}
	if (o.profile_stale)
		log_warning("%s was written before the last reboot: its runtime settings (%s) are gone; run "
			    "`ubtune status`, then apply the profile again",
			    profile.path, profile.workdir ? "the workdir, the governor, services" : "the governor, services");
	code = resolve_lists(&a, &profile, &o);
	struct bench_engine planned = {0}, engine = {0};
	if (code == EXIT_OK)
		code = find_engine(&a, &profile, true, &planned);
	if (code == EXIT_OK)
		code = check_run_cap(&planned, &o);
	if (code == EXIT_OK)
		code = state_plan(&a, &o, &planned);
	if (code == EXIT_OK && !a.dry_run)
		code = find_engine(&a, &profile, false, &engine);
	if (engine.note)
		log_warning("%s", engine.note);
	if (code == EXIT_OK && !a.dry_run) {
		o.engine = &engine;
		code = run_bench(&a, &o);
	}
	engine_free(&planned);
	engine_free(&engine);
	applied_profile_free(&profile);
	free(o.copies_note);
	return code;
}

const struct command cmd_bench = {
	.name = "bench",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.summary = "Run the UnixBench index tests, score them and store the result with its environment",
	.notes = "Before anything starts, one line says how long the run should take: an estimate from\n"
		"the tests' durations, passes and copy counts, the settling and a build not yet in the\n"
		"cache (a busy machine takes longer). --dry-run prints the whole plan instead.\n\n"
		"Every pass is preceded by UnixBench's settling (sync; sleep 1; sync; sleep 2) and\n"
		"starts all its copies at once. Scores follow UnixBench 6.0.0: the lowest third of\n"
		"the passes by count is dropped and the rest averaged geometrically; the index is\n"
		"10 x result / baseline. The report adds each test's dispersion, a 95 % interval of\n"
		"the score, events the sampler saw (clocks, temperature, undervoltage, throttling,\n"
		"steal, swapping, other processes) and the probe's findings.\n\n"
		"A profile applied with `ubtune apply` supplies defaults (copies, tests, quick,\n"
		"workdir) and compiler flags for the workloads; the command line wins.\n"
		"Ctrl-C stops the run: the tests that finished are stored, marked incomplete.\n"
		"A test that fails, or a machine too busy to measure, is a failure (status 1).\n\n"
		"The last line is the stability verdict, the one that show, history, report and the\n"
		"record's \"verdict\" give: not to be trusted when a test's passes vary by more than\n"
		"5 % (CV) or fall into two groups 15 % apart (bimodal), when a test shared the machine\n"
		"past a threshold (other processes, I/O wait, steal, kernel time), when the sampler saw\n"
		"events, when the machine was busy as the run started, or when the probe before or\n"
		"after it has a critical finding; not judged when a test ran one pass. The exit status\n"
		"stays 0 unless --strict, which asks for a result judged stable.",
	.exits = "3 the result is not judged stable (--strict), 128+N stopped by signal N",
};
