/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every test of UnixBench 5.1.x and 6.x as its reports name it
 * (Run's "logmsg"), with the baselines of pgms/index.base. */
#include "unixbench/catalogue.h"

#include <errno.h>

#include "lib/util.h"

/*
 * The index tests: durations, pass counts, units, timebases and baselines
 * are UnixBench 6.0.0's (Run's test table and pgms/index.base). extra_s is
 * the wall time a pass takes beyond its duration: Whetstone's calibration,
 * and File Copy's write and read priming with its own sync/sleep gaps
 * (quick_extra: what ubtune's workloads add in a quick run, measured with
 * `time ubtune-workloads`); they only feed the estimates of a run's
 * duration (bench/plan.h). procs: Shell Scripts runs multi.sh, its tst.sh
 * copies (1 or 8) and up to 3 pipeline stages each; Process Creation and
 * Context Switching a parent and a child. user: Dhrystone and Whetstone
 * compute and make no system call while they are timed.
 */
#define INDEX(id, name, label, unit, baseline, timebase, long_test, program, args, quick_args, dur, quick_dur, \
	      extra, quick_extra, input, procs, user)                                                       \
	{ id, name, label, unit, "system", baseline, timebase, long_test, program, args, quick_args, dur, quick_dur, \
	  extra, quick_extra, input, procs, user }
/* The others: what a report may hold, read but never run. */
#define OTHER(id_, name_, unit_, category_, baseline_) \
	{ .id = id_, .name = name_, .unit = unit_, .category = category_, .baseline = baseline_ }

const struct ub_test_info ub_tests[] = {
	INDEX("dhry2reg", "Dhrystone 2 using register variables", "Dhrystone 2", "lps", 116700, 1, true,
	      "dhry2reg", "{t}", NULL, 10, 1, 0, 0, false, 1, true),
	INDEX("whetstone-double", "Double-Precision Whetstone", "Whetstone", "MWIPS", 55.0, 0, true,
	      "whetstone-double", "", "-t {t}", 0, 2, 12, 0.3, false, 1, true),
	INDEX("execl", "Execl Throughput", "Execl", "lps", 43.0, 1, false,
	      "execl", "{t}", NULL, 30, 2, 0, 0, false, 1, false),
	INDEX("fstime", "File Copy 1024 bufsize 2000 maxblocks", "File Copy 1024", "KBps", 3960, 0, false,
	      "fstime", "-c -t {t} -d {workdir} -b 1024 -m 2000", NULL, 30, 2, 15, 0.4, false, 1, false),
	INDEX("fsbuffer", "File Copy 256 bufsize 500 maxblocks", "File Copy 256", "KBps", 1655, 0, false,
	      "fstime", "-c -t {t} -d {workdir} -b 256 -m 500", NULL, 30, 2, 15, 0.4, false, 1, false),
	INDEX("fsdisk", "File Copy 4096 bufsize 8000 maxblocks", "File Copy 4096", "KBps", 5800, 0, false,
	      "fstime", "-c -t {t} -d {workdir} -b 4096 -m 8000", NULL, 30, 2, 15, 0.4, false, 1, false),
	INDEX("pipe", "Pipe Throughput", "Pipe Throughput", "lps", 12440, 1, true,
	      "pipe", "{t}", NULL, 10, 1, 0, 0, false, 1, false),
	INDEX("context1", "Pipe-based Context Switching", "Context Switching", "lps", 4000, 1, true,
	      "context1", "{t}", NULL, 10, 1, 0, 0, false, 2, false),
	INDEX("spawn", "Process Creation", "Process Creation", "lps", 126, 1, false,
	      "spawn", "{t}", NULL, 30, 2, 0, 0, false, 2, false),
	INDEX("syscall", "System Call Overhead", "System Call", "lps", 15000, 1, true,
	      "syscall", "{t}", NULL, 10, 1, 0, 0, false, 1, false),
	INDEX("shell1", "Shell Scripts (1 concurrent)", "Shell Scripts 1", "lpm", 42.4, 60, false,
	      "looper", "{t} {bindir}/multi.sh 1", NULL, 60, 4, 0, 0, true, 5, false),
	INDEX("shell8", "Shell Scripts (8 concurrent)", "Shell Scripts 8", "lpm", 6, 60, false,
	      "looper", "{t} {bindir}/multi.sh 8", NULL, 60, 4, 0, 0, true, 33, false),

	OTHER("fstime-w", "File Write 1024 bufsize 2000 maxblocks", "KBps", "system", 0),
	OTHER("fstime-r", "File Read 1024 bufsize 2000 maxblocks", "KBps", "system", 0),
	OTHER("fsbuffer-w", "File Write 256 bufsize 500 maxblocks", "KBps", "system", 0),
	OTHER("fsbuffer-r", "File Read 256 bufsize 500 maxblocks", "KBps", "system", 0),
	OTHER("fsdisk-w", "File Write 4096 bufsize 8000 maxblocks", "KBps", "system", 0),
	OTHER("fsdisk-r", "File Read 4096 bufsize 8000 maxblocks", "KBps", "system", 0),
	OTHER("shell16", "Shell Scripts (16 concurrent)", "lpm", "system", 0),
	OTHER("2d-rects", "2D graphics: rectangles", "score", "2d", 15),
	OTHER("2d-lines", "2D graphics: lines", "score", "2d", 0),
	OTHER("2d-circle", "2D graphics: circles", "score", "2d", 0),
	OTHER("2d-ellipse", "2D graphics: ellipses", "score", "2d", 15),
	OTHER("2d-shapes", "2D graphics: polygons", "score", "2d", 0),
	OTHER("2d-aashapes", "2D graphics: aa polygons", "score", "2d", 15),
	OTHER("2d-polys", "2D graphics: complex polygons", "score", "2d", 0),
	OTHER("2d-text", "2D graphics: text", "score", "2d", 15),
	OTHER("2d-blit", "2D graphics: images and blits", "score", "2d", 15),
	OTHER("2d-window", "2D graphics: windows", "score", "2d", 15),
	OTHER("ubgears", "3D graphics: gears", "fps", "3d", 33.4),
	/* the compiler's name follows in parentheses: matched as a prefix */
	OTHER("C", "C Compiler Throughput", "lpm", "misc", 0),
	OTHER("arithoh", "Arithoh", "lps", "misc", 0),
	OTHER("short", "Arithmetic Test (short)", "lps", "misc", 0),
	OTHER("int", "Arithmetic Test (int)", "lps", "misc", 0),
	OTHER("long", "Arithmetic Test (long)", "lps", "misc", 0),
	OTHER("float", "Arithmetic Test (float)", "lps", "misc", 0),
	OTHER("double", "Arithmetic Test (double)", "lps", "misc", 0),
	OTHER("dc", "Dc: sqrt(2) to 99 decimal places", "lpm", "misc", 0),
	OTHER("hanoi", "Recursion Test -- Tower of Hanoi", "lps", "misc", 0),
	OTHER("grep", "Grep a large file (system's grep)", "lpm", "misc", 1),
	OTHER("sysexec", "Exec System Call Overhead", "lps", "misc", 25),
	{ .id = NULL },
};

#define NTESTS (ARRAY_SIZE(ub_tests) - 1)

const struct ub_test_info *ub_test_in_report_order(size_t i)
{
	if (i >= NTESTS)
		return NULL;
	if (i >= UB_NINDEX)
		return &ub_tests[i];
	/* the index test with i names before it */
	for (size_t k = 0; k < UB_NINDEX; k++) {
		size_t before = 0;
		for (size_t j = 0; j < UB_NINDEX; j++)
			before += strcmp(ub_tests[j].name, ub_tests[k].name) < 0;
		if (before == i)
			return &ub_tests[k];
	}
	return NULL;
}

/* a and b are one name but for spaces around "--": UnixBench 4.1 prints
 * "Recursion Test--Tower of Hanoi", 5.x "Recursion Test -- Tower of Hanoi". */
static bool same_but_dash_spaces(const char *a, const char *b)
{
	while (*a && *b) {
		if (startswith(a, " --") || startswith(b, " --")) {
			a += *a == ' ';
			b += *b == ' ';
			continue;
		}
		if (*a != *b)
			return false;
		bool dash = startswith(a, "--") && startswith(b, "--");
		a++, b++;
		if (dash) {
			a++, b++;
			a += *a == ' ';
			b += *b == ' ';
		}
	}
	return !*a && !*b;
}

const struct ub_test_info *ub_test_by_name(const char *name)
{
	for (const struct ub_test_info *t = ub_tests; t->id; t++) {
		if (streq(t->name, name) || (strstr(name, "--") && same_but_dash_spaces(t->name, name)))
			return t;
		const char *rest = streq(t->id, "C") ? startswith(name, t->name) : NULL;
		if (rest && rest[0] == ' ' && rest[1] == '(' && endswith(rest, ")"))
			return t;
	}
	return NULL;
}

const struct ub_test_info *ub_most_procs(void)
{
	const struct ub_test_info *most = &ub_tests[0];
	for (size_t i = 1; i < UB_NINDEX; i++)
		if (ub_tests[i].procs > most->procs)
			most = &ub_tests[i];
	return most;
}

const struct ub_test_info *ub_index_test(const char *id)
{
	for (size_t i = 0; i < UB_NINDEX; i++)
		if (streq(ub_tests[i].id, id))
			return &ub_tests[i];
	return NULL;
}

char *ub_index_ids(const char *sep)
{
	struct buf b = {0};
	for (size_t i = 0; i < UB_NINDEX; i++)
		buf_printf(&b, "%s%s", i ? sep : "", ub_tests[i].id);
	return buf_steal(&b);
}

unsigned ub_passes(const struct ub_test_info *t, unsigned iterations, bool quick)
{
	if (iterations == 0) {
		if (quick)
			return t->long_test ? UB_QUICK_PASSES_LONG : UB_QUICK_PASSES_SHORT;
		return t->long_test ? UB_PASSES_LONG : UB_PASSES_SHORT;
	}
	if (t->long_test)
		return iterations;
	unsigned n = (iterations + 1) / 3;
	return n ? n : 1;
}

unsigned ub_duration(const struct ub_test_info *t, bool quick)
{
	return quick ? t->quick_duration_s : t->duration_s;
}

void ub_expand_args(const struct ub_test_info *t, bool quick, bool quick_args, const char *workdir,
		    const char *bindir, struct strv *argv)
{
	_cleanup_free_ char *words = xstrdup(quick && quick_args && t->quick_args ? t->quick_args : t->args);
	for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *rest;
		if (streq(w, "{t}"))
			strv_take(argv, xasprintf("%u", ub_duration(t, quick)));
		else if (streq(w, "{workdir}"))
			strv_push(argv, workdir);
		else if ((rest = startswith(w, "{bindir}")))
			strv_take(argv, xasprintf("%s%s", bindir, rest));
		else
			strv_push(argv, w);
	}
}

static int fail_on(char **bad, const char *word, int r)
{
	if (bad)
		*bad = word ? xstrdup(word) : NULL;
	return r;
}

/* Adds a test position once, in the order given. */
static void tests_add(unsigned *out, unsigned *n, unsigned pos)
{
	for (unsigned i = 0; i < *n; i++)
		if (out[i] == pos)
			return;
	out[(*n)++] = pos;
}

int ub_parse_tests(const char *list, const char *separators, unsigned *out, unsigned *n, char **bad)
{
	_cleanup_strv_ struct strv words = {0};
	unsigned k = 0;
	strv_split(list, separators, &words);
	for (size_t i = 0; i < words.n; i++) {
		const struct ub_test_info *t = ub_index_test(words.v[i]);
		if (streq(words.v[i], "index")) {
			for (unsigned j = 0; j < UB_NINDEX; j++)
				tests_add(out, &k, j);
		} else if (t) {
			tests_add(out, &k, (unsigned)(t - ub_tests));
		} else {
			return fail_on(bad, words.v[i], -EINVAL);
		}
	}
	if (k == 0)
		return fail_on(bad, list, -EINVAL);
	*n = k;
	return 0;
}

int ub_parse_copies(const char *list, const char *separators, unsigned all_cpus, unsigned *out, unsigned *n,
		    char **bad)
{
	_cleanup_strv_ struct strv words = {0};
	unsigned k = 0;
	strv_split(list, separators, &words);
	for (size_t i = 0; i < words.n; i++) {
		uint64_t v;
		if (all_cpus && streq(words.v[i], "all"))
			v = all_cpus;
		else if (parse_u64(words.v[i], &v) < 0)
			return fail_on(bad, words.v[i], -EINVAL);
		if (v < 1 || v > UB_COPIES_MAX)
			return fail_on(bad, words.v[i], -ERANGE);
		if (k == UB_RUNS_MAX)
			return fail_on(bad, NULL, -E2BIG);
		out[k++] = (unsigned)v;
	}
	if (k == 0)
		return fail_on(bad, NULL, -EINVAL);
	*n = k;
	return 0;
}
