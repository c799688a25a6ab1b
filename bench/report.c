/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report of a result record, laid out like UnixBench's own. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "bench/background.h"
#include "bench/result.h"
#include "bench/stability.h"
#include "lib/result-record.h"
#include "lib/table.h"
#include "lib/term.h"
#include "report-expect.h"
#include "lib/util.h"
#include "probe/findings.h"

/* The rule between the parts: 72 dashes as UnixBench draws, fewer on a
 * narrower output. */
static void print_rule(FILE *out)
{
	size_t w = term_width(out);
	for (size_t i = 0; i < (w < 72 ? w : 72); i++)
		fputc('-', out);
	fputc('\n', out);
}

/* Prints a table at the output's width and frees it. */
static void print_table(struct table *t, FILE *out)
{
	table_print(t, out, term_width(out));
	table_free(t);
}

/* UnixBench's own lines where they fit the output, so that scripts that
 * read them keep working; the table of the same cells where they do not.
 * Frees both. */
static void print_fixed_or_table(struct buf *fixed, struct table *t, FILE *out)
{
	size_t widest = 0;
	for (const char *p = fixed->s ?: ""; *p;) {
		size_t n = strcspn(p, "\n"), w = term_columns_n(p, n);
		widest = w > widest ? w : widest;
		p += n + (p[n] == '\n');
	}
	if (widest <= term_width(out))
		fputs(fixed->s ?: "", out);
	else
		table_print(t, out, term_width(out));
	buf_free(fixed);
	table_free(t);
}

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
	if (value) {
		fprintf(out, "   %s: ", label);
		term_print_wrapped(out, value, 5 + strlen(label), term_width(out));
	}
}

/* What an imported log did not say is shown as such, never as a default. */
#define NOT_RECORDED "not recorded"

/* A warning of the title, in yellow on a terminal. */
static void warning_line(FILE *out, const char *text)
{
	fprintf(out, "   %s", term_esc(out, ANSI_YELLOW));
	term_print_wrapped(out, text, 3, term_width(out));
	fputs(term_esc(out, ANSI_RESET), out);
}

static void render_title(const struct result_record *r, FILE *out)
{
	const char *name = r->suite.name, *version = r->suite.version, *tool = r->tool.version;
	bool imported = is_true(r->imported);
	if (name && streq(name, "unixbench"))
		fprintf(out, "   BYTE UNIX Benchmarks (Version %s)%s%s\n", version ?: "unknown",
			!tool ? "" : imported ? ", imported by ubtune " : ", run by ubtune ", tool ?: "");
	else
		fprintf(out, "   ubtune %s native workloads (the %s index tests)\n", version ?: "?",
			r->suite.compatible_with ?: "UnixBench 6.0.0");
	if (is_true(r->quick))
		warning_line(out, "QUICK RUN: shorter tests and fewer passes; not comparable with full runs");
	if (is_true(r->incomplete)) {
		_cleanup_free_ char *line = xasprintf("INCOMPLETE: stopped by %s; only the tests that finished are scored",
						      r->interrupted_by ?: "an error");
		warning_line(out, line);
	}
	if (imported)
		fprintf(out, "   Imported result\n");
	fputc('\n', out);
}

/* A limit raised to a number; "unlimited" is not one. */
static bool raised_number(json_object *v, int64_t *out)
{
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

/* What the run held while it lasted (bench/hold.h). */
static void render_holds(const struct result_options *o, FILE *out)
{
	int64_t raised;
	if (o->pin_single.json) {
		_cleanup_free_ char *t = o->pin_single.cpus
						 ? xasprintf("the 1-copy pass ran on %s (CPUs %s)",
							     o->pin_single.kind ?: "the fastest kind", o->pin_single.cpus)
						 : xasprintf("not pinned: %s", o->pin_single.note ?: "?");
		header_line(out, "Pinned", t);
	}
	if (o->dma_latency.requested_us.known && o->dma_latency.held.known) {
		_cleanup_free_ char *t = o->dma_latency.held.v
						 ? xasprintf("%s held at %" PRId64 " us for the run", o->dma_latency.device,
							     o->dma_latency.requested_us.v)
						 : xasprintf("not held (%s)", o->dma_latency.error ?: "?");
		header_line(out, "DMA latency", t);
	}
	if (raised_number(o->nproc.raised_to, &raised) && o->nproc.soft.known) {
		_cleanup_free_ char *t = xasprintf("ulimit -u raised from %" PRId64 " to %" PRId64 " for the run",
						   o->nproc.soft.v, raised);
		header_line(out, "Limits", t);
	}
}

static void render_header(const struct result_env *rp, FILE *out)
{
	const struct result_record *r = &rp->r;
	const struct env_record *env = &rp->env;
	render_title(r, out);
	const char *host = r->host ?: env->host.hostname;
	/* an imported header keeps what UnixBench printed: uname -o, or the release file */
	const char *sys = env->host.os ?: env->unixbench.system;
	_cleanup_free_ char *system = host ? xasprintf("%s: %s", host, sys ?: "unknown") : NULL;
	header_line(out, "System", system);
	const char *rel = env->host.kernel_release, *ver = env->host.kernel_version;
	_cleanup_free_ char *os = rel ? xasprintf("%s -- %s -- %s", env->unixbench.os ?: "GNU/Linux", rel, ver ?: "?")
				      : NULL;
	header_line(out, "OS", os);
	header_line(out, "Machine", env->host.arch);
	const char *locale = r->options.locale;
	_cleanup_free_ char *lang = locale ? xasprintf("%s (set for the tests)", locale) : NULL;
	if (is_true(r->imported)) { /* the log's own Language line, or nothing */
		free(lang);
		lang = xstrdup(env->unixbench.language ?: NOT_RECORDED);
	}
	header_line(out, "Language", lang);
	const char *model = env->cpu.model;
	_cleanup_free_ char *cpu = !model		    ? NULL
				   : env->cpu.bogomips.known ? xasprintf("%s (%.1f bogomips)", model, env->cpu.bogomips.v)
							     : xstrdup(model);
	header_line(out, "CPU", cpu);
	header_line(out, "Engine", r->engine.description);
	header_line(out, "Note", r->engine.note);
	for (size_t i = 0; i < r->build.commands.n; i++)
		header_line(out, i ? "         " : "Compiled", r->build.commands.v[i]);
	header_line(out, "Workdir", r->options.workdir_description);
	struct buf b = {0};
	for (size_t i = 0; i < r->profile.profiles.n; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", r->profile.profiles.v[i]);
	if (b.s && is_true(r->profile_stale))
		buf_puts(&b, " (applied before the last reboot: its runtime settings were gone)");
	header_line(out, "Profile applied", b.s);
	buf_free(&b);
	render_holds(&r->options, out);
	fputc('\n', out);
}

static int cmp_test_name(const void *a, const void *b)
{
	const char *x = (*(const struct result_test *const *)a)->name ?: "";
	const char *y = (*(const struct result_test *const *)b)->name ?: "";
	return strcmp(x, y);
}

/* Tests that have a result, sorted by report name in byte order as Run does. */
static const struct result_test **sorted_results(const struct result_run *run, size_t *n)
{
	const struct result_test **v = xcalloc(run->tests.n ? run->tests.n : 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < run->tests.n; i++)
		if (run->tests.v[i].result.known)
			v[(*n)++] = &run->tests.v[i];
	qsort(v, *n, sizeof(*v), cmp_test_name);
	return v;
}

static void render_index(const struct result_run *run, const struct result_test **t, size_t n, FILE *out)
{
	/* an index that does not say is not called complete */
	bool partial = !is_false(run->index.partial);
	if (!run->index.score.known) {
		fprintf(out, "No index results available for System Benchmarks\n\n");
		return;
	}
	const struct table_column cols[] = {
		{ .head = partial ? "System Benchmarks Partial Index" : "System Benchmarks Index Values", .flags = TABLE_WRAP },
		{ .head = "BASELINE", .flags = TABLE_RIGHT },
		{ .head = "RESULT", .flags = TABLE_RIGHT },
		{ .head = "INDEX", .flags = TABLE_RIGHT },
	};
	struct table *tab = table_new(cols, ARRAY_SIZE(cols), 0, 2);
	struct buf fixed = {0};
	buf_printf(&fixed, "%-40s %12s %12s %8s\n", cols[0].head, "BASELINE", "RESULT", "INDEX");
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *base = xasprintf("%.1f", num_or(t[i]->baseline, 0));
		_cleanup_free_ char *res = xasprintf("%.1f", num_or(t[i]->result, 0));
		_cleanup_free_ char *idx = xasprintf("%.1f", num_or(t[i]->index, 0));
		table_addv(tab, t[i]->name, base, res, idx);
		buf_printf(&fixed, "%-40s %12s %12s %8s\n", t[i]->name, base, res, idx);
	}
	const char *total = partial ? "System Benchmarks Index Score (Partial Only)" : "System Benchmarks Index Score";
	_cleanup_free_ char *score = xasprintf("%.1f", run->index.score.v);
	table_addv(tab, "", "", "", "========");
	table_addv(tab, total, "", "", score);
	buf_printf(&fixed, "%-40s %12s %12s %8s\n", "", "", "", "========");
	buf_printf(&fixed, "%-66s %8s\n", total, score);
	print_fixed_or_table(&fixed, tab, out);
	fputc('\n', out);
}

/* A test's verdict (lib/result-stability.h) as its rows show it. */
static const char *verdict_cell(const struct result_record *r, const struct result_run *run, const struct result_test *t)
{
	switch (result_test_verdict(r, run, t, NULL)) {
	case VERDICT_UNTRUSTED:
		return "UNTRUSTWORTHY";
	case VERDICT_NOT_JUDGED:
		return "not judged";
	default:
		return "";
	}
}

/* Per test, when the record has the passes (an imported log has none),
 * with its verdict. */
static void render_dispersion(const struct result_record *r, const struct result_run *run,
			      const struct result_test **t, size_t n, FILE *out)
{
	static const struct table_column cols[] = {
		{ .head = "Pass rates (all passes)", .flags = TABLE_WRAP },
		/* CV says the spread relative to the mean; the median is the middle */
		{ .head = "MEAN", .flags = TABLE_RIGHT, .drop = 1 },
		{ .head = "MEDIAN", .flags = TABLE_RIGHT },
		{ .head = "STDDEV", .flags = TABLE_RIGHT, .drop = 2 },
		{ .head = "CV", .flags = TABLE_RIGHT },
		{ .head = "PASSES", .flags = TABLE_RIGHT },
		{ 0 },
	};
	struct table *tab = table_new(cols, ARRAY_SIZE(cols), 0, 2);
	bool header = false;
	for (size_t i = 0; i < n; i++) {
		const struct result_dispersion *d = &t[i]->dispersion;
		if (!d->mean.known || !d->median.known)
			continue;
		header = true;
		bool spread = d->stddev.known && d->cv_pct.known;
		_cleanup_free_ char *mean = xasprintf("%.1f", d->mean.v);
		_cleanup_free_ char *median = xasprintf("%.1f", d->median.v);
		_cleanup_free_ char *sd = spread ? xasprintf("%.1f", d->stddev.v) : xstrdup("-");
		_cleanup_free_ char *cv = spread ? xasprintf("%.1f %%", d->cv_pct.v) : xstrdup("-");
		_cleanup_free_ char *np = xasprintf("%" PRId64, int_or(d->n, 0));
		table_addv(tab, t[i]->name, mean, median, sd, cv, np, verdict_cell(r, run, t[i]));
	}
	if (header) {
		print_table(tab, out);
	} else {
		table_free(tab);
	}
	const struct result_index *x = &run->index;
	if (x->ci95.n >= 2 && x->ci95.v[0].known && x->ci95.v[1].known)
		term_printf_wrapped(out, 0,
			      "Index score 95 %% interval: %.1f - %.1f (percentile bootstrap over passes, %" PRId64
			      " resamples)",
			      x->ci95.v[0].v, x->ci95.v[1].v, int_or(x->resamples, 0));
	if (header)
		fputc('\n', out);
}

/* Tests that failed, or were cut short, in this run. */
static void render_unfinished(const struct result_run *run, FILE *out)
{
	for (size_t i = 0; i < run->tests.n; i++) {
		const struct result_test *t = &run->tests.v[i];
		if (t->error)
			fprintf(out, "%sFailed:%s %s: %s\n", term_esc(out, ANSI_RED), term_esc(out, ANSI_RESET), t->name,
				t->error);
		else if (is_false(t->complete))
			fprintf(out, "Not finished: %s (%zu of %" PRId64 " passes)\n", t->name, t->passes.n,
				int_or(t->passes_planned, 0));
	}
}

/* "3657" or "2400/1800" (one per kind) MHz measured after the test; NULL without any. */
static char *clock_after(const struct result_test *test)
{
	struct buf b = {0};
	for (size_t i = 0; i < test->clock.after.n; i++) {
		struct opt_int khz = test->clock.after.v[i].measured_khz;
		if (khz.known)
			buf_printf(&b, "%s%.0f", b.len ? "/" : "", (double)khz.v / 1000);
		else
			buf_printf(&b, "%s?", b.len ? "/" : "");
	}
	return b.s;
}

static char *pct_cell(struct opt_num v)
{
	return v.known ? xasprintf("%.1f %%", v.v) : xstrdup("-");
}

/* The measured clock after each test and what else the machine did meanwhile. */
static void render_during(const struct result_env *rp, const struct result_test **t, size_t n, FILE *out)
{
	static const struct table_column cols[] = {
		{ .head = "Clock and background during each test", .flags = TABLE_WRAP },
		{ .head = "MHz AFTER", .flags = TABLE_RIGHT },
		{ .head = "OTHERS", .flags = TABLE_RIGHT },
		{ .head = "SYS", .flags = TABLE_RIGHT },
		{ .head = "IOWAIT", .flags = TABLE_RIGHT },
		{ .head = "STEAL", .flags = TABLE_RIGHT },
		{ 0 },
	};
	struct table *tab = table_new(cols, ARRAY_SIZE(cols), 0, 2);
	bool header = false, flagged = false;
	for (size_t i = 0; i < n; i++) {
		const struct result_background *b = &t[i]->background;
		_cleanup_free_ char *clock = clock_after(t[i]);
		if (!b->json && !clock)
			continue;
		header = true;
		bool untrusted = b->untrusted.n > 0;
		flagged |= untrusted;
		_cleanup_free_ char *others = pct_cell(b->others_pct), *sys = pct_cell(b->sys_pct);
		_cleanup_free_ char *iowait = pct_cell(b->iowait_pct), *steal = pct_cell(b->steal_pct);
		table_addv(tab, t[i]->name, clock ?: "-", others, sys, iowait, steal, untrusted ? "UNTRUSTWORTHY" : "");
	}
	if (!header) {
		table_free(tab);
		return;
	}
	print_table(tab, out);
	const struct env_cpu *cpu = &rp->env.cpu;
	if (cpu->kinds.n > 1) {
		fputs("MHz after: measured on one CPU of each kind (", out);
		for (size_t i = 0; i < cpu->kinds.n; i++)
			fprintf(out, "%s%s", i ? "/" : "", cpu->kinds.v[i].model ?: "?");
		fputs(")\n", out);
	}
	_cleanup_free_ char *why = background_thresholds_text();
	_cleanup_free_ char *line = flagged ? xasprintf("UNTRUSTWORTHY: %s.", why) : xasprintf("%c%s.", toupper(why[0]), why + 1);
	term_print_wrapped(out, line, 0, term_width(out));
	fputc('\n', out);
}

static void render_run(const struct result_env *rp, const struct result_run *run, FILE *out)
{
	const struct result_record *r = &rp->r;
	int64_t copies = int_or(run->copies, 0);
	bool imported = is_true(r->imported);
	print_rule(out);
	fprintf(out, "Benchmark Run: ");
	/* an import without a date of its own is dated by the import: not the run's time */
	const char *start = run->started_at ?: imported ? NULL : r->started_at;
	if (start)
		print_time(out, start, "%a %b %d %Y %H:%M:%S");
	else
		fputs("time " NOT_RECORDED, out);
	const char *end = run->ended_at ?: imported ? NULL : r->ended_at;
	if (start && end) {
		fputs(" - ", out);
		print_time(out, end, "%H:%M:%S");
	}
	struct opt_int online = imported ? run->cpus_in_system : r->online_cpus;
	_cleanup_free_ char *cpus = online.known
					    ? xasprintf("%" PRId64 " CPU%s in system", online.v, online.v == 1 ? "" : "s")
					    : xstrdup(imported ? "CPUs in system " NOT_RECORDED : "unknown CPUs in system");
	fprintf(out, "\n%s; running %" PRId64 " parallel cop%s of tests\n\n", cpus, copies,
		copies == 1 ? "y" : "ies");

	size_t n;
	_cleanup_free_ const struct result_test **t = sorted_results(run, &n);
	static const struct table_column cols[] = {
		{ .flags = TABLE_WRAP },
		{ .flags = TABLE_RIGHT },
		{ 0 },
		{ .flags = TABLE_WRAP },
	};
	struct table *tab = table_new(cols, ARRAY_SIZE(cols), 0, 1);
	struct buf fixed = {0};
	for (size_t i = 0; i < n; i++) {
		bool timed = t[i]->time_s.known || t[i]->samples.known;
		_cleanup_free_ char *how = timed || !imported ? xasprintf("(%.1f s, %" PRId64 " samples)",
									  num_or(t[i]->time_s, 0), int_or(t[i]->samples, 0))
							      : xstrdup("(time and samples " NOT_RECORDED ")");
		_cleanup_free_ char *result = xasprintf("%.1f", num_or(t[i]->result, 0));
		table_addv(tab, t[i]->name, result, t[i]->unit ?: "", how);
		buf_printf(&fixed, "%-40s %12s %-5s %s\n", t[i]->name, result, t[i]->unit ?: "", how);
	}
	print_fixed_or_table(&fixed, tab, out);
	fputc('\n', out);
	render_index(run, t, n, out);
	render_dispersion(r, run, t, n, out);
	render_during(rp, t, n, out);
	render_unfinished(run, out);
}

static void render_events(const struct result_record *r, FILE *out)
{
	typeof(r->sampler) *s = &r->sampler;
	if (!s->json)
		return;
	print_rule(out);
	fprintf(out, "Events during the run\n");
	for (size_t i = 0; i < r->events.n; i++) {
		fputs("  ", out);
		print_time(out, r->events.v[i].time, "%H:%M:%S");
		fputs("  ", out);
		term_print_wrapped(out, r->events.v[i].message ?: "?", 12, term_width(out));
	}
	if (r->events.n == 0)
		term_printf_wrapped(out, 2, "none; what else each test shared the machine with is in the table above");
	term_printf_wrapped(out, 2,
		      "sampled %" PRId64 " times: clocks of %" PRId64 "/%" PRId64 " CPUs, %" PRId64
		      " thermal zones, %" PRId64 " hwmon alarms, steal, iowait, swap, other processes",
		int_or(s->count, 0), int_or(s->sources.cpufreq, 0), int_or(s->sources.cpus, 0),
		int_or(s->sources.thermal_zones, 0), int_or(s->sources.hwmon_alarms, 0));
	if (s->max_temp_mc.known)
		fprintf(out, "  hottest %.1f °C", (double)s->max_temp_mc.v / 1000);
	if (s->min_mhz.known && s->max_mhz.known)
		fprintf(out, "%sclocks %.0f-%.0f MHz", s->max_temp_mc.known ? "; " : "  ", (double)s->min_mhz.v,
			(double)s->max_mhz.v);
	if (s->max_temp_mc.known || s->min_mhz.known)
		fputc('\n', out);
	if (s->max_others_pct.known)
		fprintf(out, "  other processes used at most %.0f %% of a CPU\n", s->max_others_pct.v);
	if (s->cost_pct.known && s->cpu_s.known)
		fprintf(out, "  the sampler used %.3f s of CPU (%.3f %% of one CPU)\n", s->cpu_s.v, s->cost_pct.v);
	fputc('\n', out);
}

int result_render(json_object *rec, FILE *out, char **error)
{
	struct result_env rp;
	int r = result_env_decode(rec, &rp, error);
	if (r < 0)
		return r;
	render_header(&rp, out);
	for (size_t i = 0; i < rp.r.runs.n; i++)
		render_run(&rp, &rp.r.runs.v[i], out);
	/* what published runs of this CPU reach: nothing said when the shipped model is missing */
	struct expect_ref ref;
	_cleanup_free_ char *why = NULL;
	if (expect_ref_load(&ref, NULL, NULL, &why) == 0) {
		report_expect_render(&ref, &rp, out);
		expect_ref_free(&ref);
	}
	render_events(&rp.r, out);
	if (rp.r.environment.before && is_true(rp.r.imported) && !rp.env.findings.n) {
		/* the log's header is no probe: no finding means nothing was checked */
		print_rule(out);
		fprintf(out, "The machine before the run\n\nFindings  ");
		term_print_wrapped(out, NOT_RECORDED ": an imported log holds no environment record to check", 10,
				   term_width(out));
	} else if (rp.r.environment.before && rp.env.findings.json) {
		print_rule(out);
		fprintf(out, "The machine before the run (ubtune probe)\n");
		findings_render(&rp.env, out);
	}
	result_env_free(&rp);
	stability_render(rec, "", out);
	return 0;
}
