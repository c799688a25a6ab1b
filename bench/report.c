/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report of a result record, laid out like UnixBench's own. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "bench/background.h"
#include "bench/result.h"
#include "lib/term.h"
#include "lib/util.h"
#include "probe/findings.h"

#define RULE "------------------------------------------------------------------------"

/* The fields of a stored ISO time ("2026-01-01T12:00:00+0100") as the
 * run's own clock showed them; timegm() only fills in the weekday. */
static bool parse_time(const char *iso, struct tm *tm)
{
	*tm = (struct tm){0};
	if (!iso || sscanf(iso, "%d-%d-%dT%d:%d:%d", &tm->tm_year, &tm->tm_mon, &tm->tm_mday, &tm->tm_hour,
			   &tm->tm_min, &tm->tm_sec) != 6)
		return false;
	tm->tm_year -= 1900;
	tm->tm_mon -= 1;
	struct tm check = *tm;
	if (timegm(&check) == (time_t)-1 || check.tm_mday != tm->tm_mday || check.tm_hour != tm->tm_hour)
		return false;
	tm->tm_wday = check.tm_wday;
	tm->tm_yday = check.tm_yday;
	return true;
}

static void print_time(FILE *out, const char *iso, const char *fmt)
{
	struct tm tm;
	char b[64];
	if (parse_time(iso, &tm) && strftime(b, sizeof(b), fmt, &tm))
		fputs(b, out);
	else
		fputs("?", out);
}

/* "   Label: value", only for what the record has. */
static void header_line(FILE *out, const char *label, const char *value)
{
	if (value)
		fprintf(out, "   %s: %s\n", label, value);
}

/* What an imported log did not say is shown as such, never as a default. */
#define NOT_RECORDED "not recorded"

static bool is_imported(json_object *rec)
{
	bool imported = false;
	return jpath_bool(rec, "imported", &imported) && imported;
}

static void render_title(json_object *rec, FILE *out)
{
	const char *name = jpath_str(rec, "suite.name"), *version = jpath_str(rec, "suite.version");
	const char *tool = jpath_str(rec, "tool.version");
	bool imported = false;
	jpath_bool(rec, "imported", &imported);
	if (name && streq(name, "unixbench"))
		fprintf(out, "   BYTE UNIX Benchmarks (Version %s)%s%s\n", version ?: "unknown",
			!tool ? "" : imported ? ", imported by ubtune " : ", run by ubtune ", tool ?: "");
	else
		fprintf(out, "   ubtune %s native workloads (the %s index tests)\n", version ?: "?",
			jpath_str(rec, "suite.compatible_with") ?: "UnixBench 6.0.0");
	bool flag;
	if (jpath_bool(rec, "quick", &flag) && flag)
		fprintf(out, "   %sQUICK RUN: shorter tests and fewer passes; not comparable with full runs%s\n",
			term_esc(out, ANSI_YELLOW), term_esc(out, ANSI_RESET));
	if (jpath_bool(rec, "incomplete", &flag) && flag)
		fprintf(out, "   %sINCOMPLETE: stopped by %s; only the tests that finished are scored%s\n",
			term_esc(out, ANSI_YELLOW), jpath_str(rec, "interrupted_by") ?: "an error",
			term_esc(out, ANSI_RESET));
	if (jpath_bool(rec, "imported", &flag) && flag)
		fprintf(out, "   Imported result\n");
	fputc('\n', out);
}

/* What the run held while it lasted (bench/hold.h). */
static void render_holds(json_object *rec, FILE *out)
{
	json_object *pin = jpath(rec, "options.pin_single"), *qos = jpath(rec, "options.dma_latency");
	int64_t us, raised, soft;
	bool held;
	if (pin) {
		_cleanup_free_ char *t = jpath_str(pin, "cpus")
						 ? xasprintf("the 1-copy pass ran on %s (CPUs %s)", jpath_str(pin, "kind") ?: "the fastest kind",
							     jpath_str(pin, "cpus"))
						 : xasprintf("not pinned: %s", jpath_str(pin, "note") ?: "?");
		header_line(out, "Pinned", t);
	}
	if (qos && jpath_int(qos, "requested_us", &us) && jpath_bool(qos, "held", &held)) {
		_cleanup_free_ char *t = held ? xasprintf("%s held at %" PRId64 " us for the run", jpath_str(qos, "device"), us)
					      : xasprintf("not held (%s)", jpath_str(qos, "error") ?: "?");
		header_line(out, "DMA latency", t);
	}
	if (jpath_int(rec, "options.nproc.raised_to", &raised) && jpath_int(rec, "options.nproc.soft", &soft)) {
		_cleanup_free_ char *t = xasprintf("ulimit -u raised from %" PRId64 " to %" PRId64 " for the run", soft, raised);
		header_line(out, "Limits", t);
	}
}

static void render_header(json_object *rec, FILE *out)
{
	json_object *env = jpath(rec, "environment.before");
	render_title(rec, out);
	const char *host = jpath_str(rec, "host") ?: jpath_str(env, "host.hostname");
	/* an imported header keeps what UnixBench printed: uname -o, or the release file */
	const char *sys = jpath_str(env, "host.os") ?: jpath_str(env, "unixbench.system");
	_cleanup_free_ char *system = host ? xasprintf("%s: %s", host, sys ?: "unknown") : NULL;
	header_line(out, "System", system);
	const char *rel = jpath_str(env, "host.kernel_release"), *ver = jpath_str(env, "host.kernel_version");
	_cleanup_free_ char *os = rel ? xasprintf("%s -- %s -- %s", jpath_str(env, "unixbench.os") ?: "GNU/Linux", rel,
						  ver ?: "?")
				      : NULL;
	header_line(out, "OS", os);
	header_line(out, "Machine", jpath_str(env, "host.arch"));
	const char *locale = jpath_str(rec, "options.locale");
	_cleanup_free_ char *lang = locale ? xasprintf("%s (set for the tests)", locale) : NULL;
	if (is_imported(rec)) { /* the log's own Language line, or nothing */
		free(lang);
		lang = xstrdup(jpath_str(env, "unixbench.language") ?: NOT_RECORDED);
	}
	header_line(out, "Language", lang);
	const char *model = jpath_str(env, "cpu.model");
	double bogo;
	_cleanup_free_ char *cpu = !model ? NULL
				: jpath_double(env, "cpu.bogomips", &bogo) ? xasprintf("%s (%.1f bogomips)", model, bogo)
									   : xstrdup(model);
	header_line(out, "CPU", cpu);
	header_line(out, "Engine", jpath_str(rec, "engine.description"));
	header_line(out, "Note", jpath_str(rec, "engine.note"));
	json_object *cmds = jpath(rec, "build.commands");
	for (size_t i = 0; i < jarr_len(cmds); i++)
		header_line(out, i ? "         " : "Compiled", json_object_get_string(json_object_array_get_idx(cmds, i)));
	header_line(out, "Workdir", jpath_str(rec, "options.workdir_description"));
	json_object *profiles = jpath(rec, "profile.profiles");
	struct buf b = {0};
	for (size_t i = 0; i < jarr_len(profiles); i++)
		buf_printf(&b, "%s%s", i ? ", " : "", json_object_get_string(json_object_array_get_idx(profiles, i)));
	bool stale = false;
	if (b.s && jpath_bool(rec, "profile_stale", &stale) && stale)
		buf_puts(&b, " (applied before the last reboot: its runtime settings were gone)");
	header_line(out, "Profile applied", b.s);
	buf_free(&b);
	render_holds(rec, out);
	fputc('\n', out);
}

static int cmp_test_name(const void *a, const void *b)
{
	const char *x = jpath_str(*(json_object *const *)a, "name") ?: "";
	const char *y = jpath_str(*(json_object *const *)b, "name") ?: "";
	return strcmp(x, y);
}

/* Tests that have a result, sorted by report name in byte order as Run does. */
static json_object **sorted_results(json_object *run, size_t *n)
{
	json_object *tests = jpath(run, "tests");
	size_t nt = jarr_len(tests);
	json_object **v = xcalloc(nt ? nt : 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < nt; i++) {
		json_object *t = json_object_array_get_idx(tests, i);
		double r;
		if (jpath_double(t, "result", &r))
			v[(*n)++] = t;
	}
	qsort(v, *n, sizeof(*v), cmp_test_name);
	return v;
}

static void render_index(json_object *run, json_object **t, size_t n, FILE *out)
{
	double score;
	bool partial = true;
	jpath_bool(run, "index.partial", &partial);
	if (!jpath_double(run, "index.score", &score)) {
		fprintf(out, "No index results available for System Benchmarks\n\n");
		return;
	}
	fprintf(out, "%-40s %12s %12s %8s\n", partial ? "System Benchmarks Partial Index" : "System Benchmarks Index Values",
		"BASELINE", "RESULT", "INDEX");
	for (size_t i = 0; i < n; i++) {
		double base = 0, result = 0, index = 0;
		jpath_double(t[i], "baseline", &base);
		jpath_double(t[i], "result", &result);
		jpath_double(t[i], "index", &index);
		fprintf(out, "%-40s %12.1f %12.1f %8.1f\n", jpath_str(t[i], "name"), base, result, index);
	}
	fprintf(out, "%-40s %12s %12s %8s\n", "", "", "", "========");
	fprintf(out, "%-66s %8.1f\n", partial ? "System Benchmarks Index Score (Partial Only)" : "System Benchmarks Index Score",
		score);
	fputc('\n', out);
}

/* Per test, when the record has the passes (an imported log has none). */
static void render_dispersion(json_object *run, json_object **t, size_t n, FILE *out)
{
	bool header = false;
	for (size_t i = 0; i < n; i++) {
		double mean, median, sd, cv;
		int64_t np = 0;
		if (!jpath_double(t[i], "dispersion.mean", &mean) || !jpath_double(t[i], "dispersion.median", &median))
			continue;
		if (!header)
			fprintf(out, "%-43s %12s %12s %10s %7s %6s\n", "Dispersion of the pass rates (all passes)", "MEAN",
				"MEDIAN", "STDDEV", "CV", "PASSES");
		header = true;
		jpath_int(t[i], "dispersion.n", &np);
		fprintf(out, "%-43s %12.1f %12.1f", jpath_str(t[i], "name"), mean, median);
		if (jpath_double(t[i], "dispersion.stddev", &sd) && jpath_double(t[i], "dispersion.cv_pct", &cv))
			fprintf(out, " %10.1f %5.1f %% %6" PRId64 "\n", sd, cv, np);
		else
			fprintf(out, " %10s %7s %6" PRId64 "\n", "-", "-", np);
	}
	double lo, hi;
	int64_t resamples = 0;
	jpath_int(run, "index.resamples", &resamples);
	if (jpath_double(run, "index.ci95.0", &lo) && jpath_double(run, "index.ci95.1", &hi))
		fprintf(out, "Index score 95 %% interval: %.1f - %.1f (percentile bootstrap over passes, %" PRId64
			     " resamples)\n",
			lo, hi, resamples);
	if (header)
		fputc('\n', out);
}

/* Tests that failed, or were cut short, in this run. */
static void render_unfinished(json_object *run, FILE *out)
{
	json_object *tests = jpath(run, "tests");
	for (size_t i = 0; i < jarr_len(tests); i++) {
		json_object *t = json_object_array_get_idx(tests, i);
		const char *err = jpath_str(t, "error");
		bool complete = true;
		jpath_bool(t, "complete", &complete);
		if (err)
			fprintf(out, "%sFailed:%s %s: %s\n", term_esc(out, ANSI_RED), term_esc(out, ANSI_RESET),
				jpath_str(t, "name"), err);
		else if (!complete)
			fprintf(out, "Not finished: %s (%zu of %" PRId64 " passes)\n", jpath_str(t, "name"),
				jpath_len(t, "passes"), (int64_t)json_object_get_int64(jpath(t, "passes_planned")));
	}
}

/* "3657" or "2400/1800" (one per kind) MHz measured after the test; NULL without any. */
static char *clock_after(json_object *test)
{
	json_object *after = jpath(test, "clock.after");
	struct buf b = {0};
	for (size_t i = 0; i < jarr_len(after); i++) {
		int64_t khz;
		if (jpath_int(json_object_array_get_idx(after, i), "measured_khz", &khz))
			buf_printf(&b, "%s%.0f", b.len ? "/" : "", (double)khz / 1000);
		else
			buf_printf(&b, "%s?", b.len ? "/" : "");
	}
	return b.s;
}

static void pct_cell(FILE *out, json_object *b, const char *key, int width)
{
	double v;
	if (jpath_double(b, key, &v))
		fprintf(out, " %*.1f %%", width - 2, v);
	else
		fprintf(out, " %*s", width, "-");
}

/* The measured clock after each test and what else the machine did meanwhile. */
static void render_during(json_object *rec, json_object **t, size_t n, FILE *out)
{
	bool header = false, flagged = false;
	for (size_t i = 0; i < n; i++) {
		json_object *b = jpath(t[i], "background");
		_cleanup_free_ char *clock = clock_after(t[i]);
		if (!b && !clock)
			continue;
		if (!header)
			fprintf(out, "%-40s %12s %9s %8s %8s %8s\n", "Clock and background during each test", "MHz AFTER",
				"OTHERS", "SYS", "IOWAIT", "STEAL");
		header = true;
		bool untrusted = jarr_len(jpath(b, "untrusted")) > 0;
		flagged |= untrusted;
		fprintf(out, "%-40s %12s", jpath_str(t[i], "name"), clock ?: "-");
		pct_cell(out, b, "others_pct", 9);
		pct_cell(out, b, "sys_pct", 8);
		pct_cell(out, b, "iowait_pct", 8);
		pct_cell(out, b, "steal_pct", 8);
		fprintf(out, "%s\n", untrusted ? "  UNTRUSTWORTHY" : "");
	}
	if (!header)
		return;
	json_object *kinds = jpath(rec, "environment.before.cpu.kinds");
	if (jarr_len(kinds) > 1) {
		fputs("MHz after: measured on one CPU of each kind (", out);
		for (size_t i = 0; i < jarr_len(kinds); i++)
			fprintf(out, "%s%s", i ? "/" : "", jpath_str(json_object_array_get_idx(kinds, i), "model") ?: "?");
		fputs(")\n", out);
	}
	_cleanup_free_ char *why = background_thresholds_text();
	_cleanup_free_ char *line = flagged ? xasprintf("UNTRUSTWORTHY: %s.", why) : xasprintf("%c%s.", toupper(why[0]), why + 1);
	term_print_wrapped(out, line, 0, 78);
	fputc('\n', out);
}

static void render_run(json_object *rec, json_object *run, FILE *out)
{
	int64_t copies = 0, online;
	jpath_int(run, "copies", &copies);
	bool imported = is_imported(rec);
	fprintf(out, "%s\nBenchmark Run: ", RULE);
	/* an import without a date of its own is dated by the import: not the run's time */
	const char *start = jpath_str(run, "started_at") ?: imported ? NULL : jpath_str(rec, "started_at");
	if (start)
		print_time(out, start, "%a %b %d %Y %H:%M:%S");
	else
		fputs("time " NOT_RECORDED, out);
	const char *end = jpath_str(run, "ended_at") ?: imported ? NULL : jpath_str(rec, "ended_at");
	if (start && end) {
		fputs(" - ", out);
		print_time(out, end, "%H:%M:%S");
	}
	bool known = imported ? jpath_int(run, "cpus_in_system", &online) : jpath_int(rec, "online_cpus", &online);
	_cleanup_free_ char *cpus = known ? xasprintf("%" PRId64 " CPU%s in system", online, online == 1 ? "" : "s")
					  : xstrdup(imported ? "CPUs in system " NOT_RECORDED : "unknown CPUs in system");
	fprintf(out, "\n%s; running %" PRId64 " parallel cop%s of tests\n\n", cpus, copies,
		copies == 1 ? "y" : "ies");

	size_t n;
	_cleanup_free_ json_object **t = sorted_results(run, &n);
	for (size_t i = 0; i < n; i++) {
		double result = 0, time = 0;
		int64_t samples = 0;
		jpath_double(t[i], "result", &result);
		bool has_time = jpath_double(t[i], "time_s", &time), has_samples = jpath_int(t[i], "samples", &samples);
		_cleanup_free_ char *how = has_time || has_samples || !imported
						   ? xasprintf("%.1f s, %" PRId64 " samples", time, samples)
						   : xstrdup("time and samples " NOT_RECORDED);
		fprintf(out, "%-40s %12.1f %-5s (%s)\n", jpath_str(t[i], "name"), result, jpath_str(t[i], "unit") ?: "",
			how);
	}
	fputc('\n', out);
	render_index(run, t, n, out);
	render_dispersion(run, t, n, out);
	render_during(rec, t, n, out);
	render_unfinished(run, out);
}

static void render_events(json_object *rec, FILE *out)
{
	json_object *events = jpath(rec, "events");
	size_t n = jarr_len(events);
	if (!jpath(rec, "sampler"))
		return;
	fprintf(out, "%s\nEvents during the run\n", RULE);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(events, i);
		fputs("  ", out);
		print_time(out, jpath_str(e, "time"), "%H:%M:%S");
		fprintf(out, "  %s\n", jpath_str(e, "message") ?: "?");
	}
	int64_t count = 0, cpus = 0, freq = 0, zones = 0, alarms = 0;
	jpath_int(rec, "sampler.count", &count);
	jpath_int(rec, "sampler.sources.cpus", &cpus);
	jpath_int(rec, "sampler.sources.cpufreq", &freq);
	jpath_int(rec, "sampler.sources.thermal_zones", &zones);
	jpath_int(rec, "sampler.sources.hwmon_alarms", &alarms);
	if (n == 0)
		fprintf(out, "  none\n");
	fprintf(out, "  sampled %" PRId64 " times: clocks of %" PRId64 "/%" PRId64 " CPUs, %" PRId64
		     " thermal zones, %" PRId64 " hwmon alarms, steal, iowait, swap, other processes\n",
		count, freq, cpus, zones, alarms);
	double v, w;
	if (jpath_double(rec, "sampler.max_temp_mc", &v))
		fprintf(out, "  hottest %.1f °C", v / 1000);
	if (jpath_double(rec, "sampler.min_mhz", &v) && jpath_double(rec, "sampler.max_mhz", &w))
		fprintf(out, "%sclocks %.0f-%.0f MHz", jpath(rec, "sampler.max_temp_mc") ? "; " : "  ", v, w);
	if (jpath(rec, "sampler.max_temp_mc") || jpath(rec, "sampler.min_mhz"))
		fputc('\n', out);
	if (jpath_double(rec, "sampler.max_others_pct", &v))
		fprintf(out, "  other processes used at most %.0f %% of a CPU\n", v);
	if (jpath_double(rec, "sampler.cost_pct", &v) && jpath_double(rec, "sampler.cpu_s", &w))
		fprintf(out, "  the sampler used %.3f s of CPU (%.3f %% of one CPU)\n", w, v);
	fputc('\n', out);
}

void result_render(json_object *rec, FILE *out)
{
	render_header(rec, out);
	json_object *runs = jpath(rec, "runs");
	for (size_t i = 0; i < jarr_len(runs); i++)
		render_run(rec, json_object_array_get_idx(runs, i), out);
	render_events(rec, out);
	json_object *before = jpath(rec, "environment.before");
	if (before && is_imported(rec) && !jpath_len(before, "findings")) {
		/* the log's header is no probe: no finding means nothing was checked */
		fprintf(out, "%s\nThe machine before the run\n\nFindings  " NOT_RECORDED
			     ": an imported log holds no environment record to check\n",
			RULE);
	} else if (before && jpath(before, "findings")) {
		fprintf(out, "%s\nThe machine before the run (ubtune probe)\n", RULE);
		findings_render(before, out);
	}
}
