/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "suite.h"

#include <errno.h>

/*
 * Durations, pass counts, units and baselines are UnixBench 6.0.0's
 * (Run's test table and pgms/index.base). extra_s is the wall time a pass
 * takes beyond its duration: Whetstone's calibration, and File Copy's
 * write and read priming with its own sync/sleep gaps; it only feeds the
 * progress estimate.
 */
const struct bench_test bench_tests[BENCH_NTESTS] = {
	{ "dhry2reg", "Dhrystone 2 using register variables", "lps", 1, 116700, true,
	  "dhry2reg", "{t}", NULL, 10, 1, 0, false },
	{ "whetstone-double", "Double-Precision Whetstone", "MWIPS", 0, 55.0, true,
	  "whetstone-double", "", "-t {t}", 0, 2, 12, false },
	{ "execl", "Execl Throughput", "lps", 1, 43.0, false,
	  "execl", "{t}", NULL, 30, 2, 0, false },
	{ "fstime", "File Copy 1024 bufsize 2000 maxblocks", "KBps", 0, 3960, false,
	  "fstime", "-c -t {t} -d {workdir} -b 1024 -m 2000", NULL, 30, 2, 15, false },
	{ "fsbuffer", "File Copy 256 bufsize 500 maxblocks", "KBps", 0, 1655, false,
	  "fstime", "-c -t {t} -d {workdir} -b 256 -m 500", NULL, 30, 2, 15, false },
	{ "fsdisk", "File Copy 4096 bufsize 8000 maxblocks", "KBps", 0, 5800, false,
	  "fstime", "-c -t {t} -d {workdir} -b 4096 -m 8000", NULL, 30, 2, 15, false },
	{ "pipe", "Pipe Throughput", "lps", 1, 12440, true,
	  "pipe", "{t}", NULL, 10, 1, 0, false },
	{ "context1", "Pipe-based Context Switching", "lps", 1, 4000, true,
	  "context1", "{t}", NULL, 10, 1, 0, false },
	{ "spawn", "Process Creation", "lps", 1, 126, false,
	  "spawn", "{t}", NULL, 30, 2, 0, false },
	{ "syscall", "System Call Overhead", "lps", 1, 15000, true,
	  "syscall", "{t}", NULL, 10, 1, 0, false },
	{ "shell1", "Shell Scripts (1 concurrent)", "lpm", 60, 42.4, false,
	  "looper", "{t} {bindir}/multi.sh 1", NULL, 60, 4, 0, true },
	{ "shell8", "Shell Scripts (8 concurrent)", "lpm", 60, 6, false,
	  "looper", "{t} {bindir}/multi.sh 8", NULL, 60, 4, 0, true },
};

const struct bench_test *bench_test_find(const char *id)
{
	for (size_t i = 0; i < BENCH_NTESTS; i++)
		if (streq(bench_tests[i].id, id))
			return &bench_tests[i];
	return NULL;
}

unsigned bench_passes(const struct bench_test *t, unsigned iterations, bool quick)
{
	if (iterations == 0) {
		if (quick)
			return t->long_test ? BENCH_QUICK_PASSES_LONG : BENCH_QUICK_PASSES_SHORT;
		return t->long_test ? BENCH_PASSES_LONG : BENCH_PASSES_SHORT;
	}
	if (t->long_test)
		return iterations;
	unsigned n = (iterations + 1) / 3;
	return n ? n : 1;
}

unsigned bench_duration(const struct bench_test *t, bool quick)
{
	return quick ? t->quick_duration_s : t->duration_s;
}

void bench_expand_args(const struct bench_test *t, bool quick, bool quick_args, const char *workdir,
		       const char *bindir, struct strv *argv)
{
	_cleanup_free_ char *words = xstrdup(quick && quick_args && t->quick_args ? t->quick_args : t->args);
	for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *rest;
		if (streq(w, "{t}"))
			strv_take(argv, xasprintf("%u", bench_duration(t, quick)));
		else if (streq(w, "{workdir}"))
			strv_push(argv, workdir);
		else if ((rest = startswith(w, "{bindir}")))
			strv_take(argv, xasprintf("%s%s", bindir, rest));
		else
			strv_push(argv, w);
	}
}

/* Adds a test index once, in the order given. */
static void tests_add(unsigned *out, unsigned *n, unsigned idx)
{
	for (unsigned i = 0; i < *n; i++)
		if (out[i] == idx)
			return;
	out[(*n)++] = idx;
}

int bench_parse_tests(const char *list, unsigned *out, unsigned *n, char **bad)
{
	struct strv words = {0};
	unsigned k = 0;
	int r = 0;
	strv_split(list, ",", &words);
	for (size_t i = 0; i < words.n && r == 0; i++) {
		const struct bench_test *t = bench_test_find(words.v[i]);
		if (streq(words.v[i], "index")) {
			for (unsigned j = 0; j < BENCH_NTESTS; j++)
				tests_add(out, &k, j);
		} else if (t) {
			tests_add(out, &k, (unsigned)(t - bench_tests));
		} else {
			*bad = xstrdup(words.v[i]);
			r = -EINVAL;
		}
	}
	strv_free(&words);
	if (r == 0 && k == 0) {
		*bad = xstrdup(list);
		r = -EINVAL;
	}
	if (r == 0)
		*n = k;
	return r;
}

int bench_parse_copies(const char *list, unsigned online_cpus, unsigned *out, unsigned *n)
{
	struct strv words = {0};
	unsigned k = 0;
	int r = 0;
	strv_split(list, ",", &words);
	for (size_t i = 0; i < words.n && r == 0; i++) {
		uint64_t v;
		if (online_cpus && streq(words.v[i], "all"))
			v = online_cpus;
		else if (parse_u64(words.v[i], &v) < 0) {
			r = -EINVAL;
			break;
		}
		if (v < 1 || v > BENCH_MAX_COPIES)
			r = -ERANGE;
		else if (k == BENCH_MAX_RUNS)
			r = -E2BIG;
		else
			out[k++] = (unsigned)v;
	}
	strv_free(&words);
	if (r == 0 && k == 0)
		r = -EINVAL;
	if (r == 0)
		*n = k;
	return r;
}
