/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan of a run as text (bench/run-plan.h). */
#include "bench/run-plan.h"

#include "lib/term.h"
#include "lib/util.h"

#define LABEL_W 10

static void fact(FILE *out, const char *label, const char *text, size_t width)
{
	fprintf(out, "%-*s", LABEL_W, label);
	term_print_wrapped(out, text, LABEL_W, width);
}

static double num(json_object *o, const char *path)
{
	double v = 0;
	jpath_double(o, path, &v);
	return v;
}

char *run_plan_expected_text(json_object *plan)
{
	json_object *e = jpath(plan, "expected");
	int64_t counts = 0;
	jpath_int(e, "copy_counts", &counts);
	_cleanup_free_ char *total = run_plan_duration_text(num(e, "total_s"));
	_cleanup_free_ char *one = run_plan_duration_text(num(e, "per_copy_count_s"));
	_cleanup_free_ char *build = num(e, "build_s") > 0 ? run_plan_duration_text(num(e, "build_s")) : NULL;
	_cleanup_free_ char *build_part = build ? xasprintf(", a build of about %s first", build) : xstrdup("");
	return xasprintf("about %s (%lld copy count%s of about %s%s%s and %.0f s checking that the machine is quiet; "
			 "an estimate from the tests' durations and passes: a busy machine takes longer)",
			 total, (long long)counts, counts == 1 ? "" : "s", one, counts == 1 ? "" : " each", build_part,
			 num(e, "preflight_s"));
}

static char *passes_text(json_object *plan)
{
	bool quick = false;
	int64_t it = 0;
	jpath_bool(plan, "quick", &quick);
	bool run = streq_ptr(jpath_str(plan, "engine.kind"), "run"), given = jpath_int(plan, "iterations", &it);
	unsigned n[2] = { 0, 0 }; /* the passes of a short test and of a long one */
	for (size_t i = 0; i < UB_NINDEX; i++)
		n[ub_tests[i].long_test] = ub_passes(&ub_tests[i], given ? (unsigned)it : 0, quick);
	_cleanup_free_ char *how = given ? xasprintf("--iterations %lld", (long long)it)
				 : quick && run ? xasprintf("quick: Run's -i %u", n[1])
				 : xstrdup(quick ? "quick" : "UnixBench's");
	return xasprintf("%s: %u of the long tests, %u of the short ones%s", how, n[1], n[0],
			 !quick ? "" : run ? ", at Run's own durations" : ", at short durations");
}

static char *build_text(json_object *plan)
{
	json_object *b = jpath(plan, "build");
	bool needed = false;
	jpath_bool(plan, "build_needed", &needed);
	const char *dir = jpath_str(b, "dir");
	if (needed) {
		_cleanup_free_ char *d = run_plan_duration_text(num(plan, "expected.build_s"));
		return xasprintf("to be built first (about %s) with %s %s into %s", d, jpath_str(b, "cc") ?: "?",
				 jpath_str(b, "cflags") ?: "(its default flags)", dir ?: "the cache");
	}
	if (dir)
		return xasprintf("in the cache: %s", dir);
	return xstrdup("none: the programs are run as they are");
}

/* The strings (or numbers) of a JSON array joined by sep. */
static char *joined(json_object *a, const char *sep)
{
	struct buf b = {0};
	for (size_t i = 0; i < jarr_len(a); i++)
		buf_printf(&b, "%s%s", i ? sep : "", json_object_get_string(json_object_array_get_idx(a, i)));
	return b.s ? buf_steal(&b) : xstrdup("");
}

static void engine_facts(json_object *plan, FILE *out, size_t width)
{
	fact(out, "Engine", jpath_str(plan, "engine.description") ?: "?", width);
	if (jpath_str(plan, "engine.note"))
		fact(out, "", jpath_str(plan, "engine.note"), width);
	if (jpath(plan, "engine.command")) {
		_cleanup_free_ char *line = joined(jpath(plan, "engine.command"), " ");
		fact(out, "Command", line, width);
	}
	_cleanup_free_ char *build = build_text(plan);
	fact(out, "Build", build, width);
}

static void place_facts(json_object *plan, FILE *out, size_t width)
{
	const char *problem = jpath_str(plan, "workdir_error");
	_cleanup_free_ char *wd = problem ? xasprintf("%s: the run would fail", problem)
					  : xasprintf("%s (%s); the tests run in a temporary directory made inside it",
						      jpath_str(plan, "workdir") ?: "?",
						      jpath_str(plan, "workdir_source") ?: "?");
	fact(out, "Workdir", wd, width);
	json_object *p = jpath(plan, "profile");
	bool stale = false;
	jpath_bool(p, "stale", &stale);
	_cleanup_free_ char *names = joined(jpath(p, "profiles"), ", ");
	_cleanup_free_ char *prof = !p ? xstrdup("none applied")
				       : xasprintf("%s (%s)%s", *names ? names : "?", jpath_str(p, "path") ?: "?",
						   stale ? ": applied before the last reboot, its runtime settings are "
							   "gone"
							 : "");
	fact(out, "Profile", prof, width);
}

static void run_facts(json_object *plan, FILE *out, size_t width)
{
	_cleanup_free_ char *copies = joined(jpath(plan, "copies"), ", ");
	fact(out, "Copies", copies, width);
	_cleanup_free_ char *passes = passes_text(plan);
	fact(out, "Passes", passes, width);
	_cleanup_free_ char *settle = xasprintf("%s before every pass", jpath_str(plan, "settle") ?: "?");
	fact(out, "Settling", settle, width);
	if (jpath_str(plan, "pin_single"))
		fact(out, "Pinning", "the 1-copy pass on the fastest kind of core", width);
	int64_t us;
	if (jpath_int(plan, "dma_latency_us", &us)) {
		_cleanup_free_ char *qos = xasprintf("/dev/cpu_dma_latency held at %lld \xc2\xb5s for the run",
						     (long long)us);
		fact(out, "Latency", qos, width);
	}
}

static void seconds(char *b, size_t n, double s)
{
	snprintf(b, n, s < 10 ? "%.1f s" : "%.0f s", s);
}

static void tests_table(json_object *plan, FILE *out)
{
	json_object *tests = jpath(plan, "tests");
	fprintf(out, "%-18s %6s %9s %9s %11s\n", "Test", "passes", "duration", "one pass", "all passes");
	for (size_t i = 0; i < jarr_len(tests); i++) {
		json_object *t = json_object_array_get_idx(tests, i);
		char d[32] = "its own", one[32], all[32];
		int64_t passes = 0;
		jpath_int(t, "passes", &passes);
		if (jpath(t, "duration_s"))
			seconds(d, sizeof(d), num(t, "duration_s"));
		seconds(one, sizeof(one), num(t, "pass_s"));
		seconds(all, sizeof(all), num(t, "total_s"));
		fprintf(out, "%-18s %6lld %9s %9s %11s\n", jpath_str(t, "label") ?: jpath_str(t, "id") ?: "?",
			(long long)passes, d, one, all);
	}
	char sum[32];
	seconds(sum, sizeof(sum), num(plan, "expected.per_copy_count_s"));
	fprintf(out, "%-18s %6s %9s %9s %11s\n", "One copy count", "", "", "", sum);
}

void run_plan_render(json_object *plan, FILE *out, size_t width)
{
	term_print_wrapped(out, "Plan of the run (--dry-run: nothing is run, built or written)", 0, width);
	engine_facts(plan, out, width);
	place_facts(plan, out, width);
	run_facts(plan, out, width);
	fputc('\n', out);
	tests_table(plan, out);
	fputc('\n', out);
	_cleanup_free_ char *expected = run_plan_expected_text(plan);
	_cleanup_free_ char *line = xasprintf("Expected time: %s.", expected);
	term_print_wrapped(out, line, 0, width);
}
