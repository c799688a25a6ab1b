/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * whetstone-double [-t TARGET_SECONDS]: Double-Precision Whetstone, the
 * published benchmark (Curnow and Wichmann; the eight-loop C version of
 * Longbottom and Aburto) in double precision, written for ubtune and run
 * the way UnixBench 6.0 runs it:
 *
 * - each of the sections N1-N8 runs an inner loop of its constant x 100
 *   iterations, repeated for XTRA outer passes, and is timed on its own
 *   with the wall clock (gettimeofday);
 * - N1 runs ten times longer than it counts for: its time is divided by 10;
 * - calibration starts with XTRA = 1 and multiplies it by 5 (at most ten
 *   rounds) until the measured time exceeds 0.5 s; then XTRA is set for
 *   TARGET_SECONDS (10) of measured time and the measurement runs once;
 * - MWIPS = XTRA x 100 / (10 x measured seconds).
 *
 * Checks: the first calibration round (XTRA = 1) must reproduce the
 * published double-precision results of every section; the measured run
 * must give the exact values of N3, N4 and N7 and finite ones elsewhere;
 * and the sections whose floating-point work cannot be folded away (N1, N2,
 * N5, N6, N8) must have taken time. N3, N4 and N7 may legally be computed
 * at compile time: gcc removes N4 entirely, in UnixBench's build too.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "workloads.h"

#define X100 100
#define SECTIONS 8

struct whet_section {
	const char *title;
	long count;	    /* inner iterations per outer pass, / 100 */
	int ops;	    /* operations per inner iteration */
	bool is_float;	    /* rated in MFLOPS, else MOPS */
	bool exact;	    /* the same result after any number of passes */
	bool takes_time;    /* work the compiler cannot fold away */
	double published;   /* result of one pass, double precision */
};

static const struct whet_section sections[SECTIONS] = {
	{ "N1 floating point", 12, 16, true, false, true, -1.12398255667391900 },
	{ "N2 floating point", 14, 96, true, false, true, -1.12187079889284400 },
	{ "N3 if then else", 345, 3, false, true, false, 1.0 },
	{ "N4 fixed point", 210, 15, false, true, false, 12.0 },
	{ "N5 sin,cos etc.", 32, 26, false, false, true, 0.49902937281515140 },
	{ "N6 floating point", 899, 6, true, false, true, 0.99999987890802820 },
	{ "N7 assignments", 616, 3, false, true, false, 3.0 },
	{ "N8 exp,sqrt etc.", 93, 4, false, false, true, 0.75100163018457870 },
};

struct whet_run {
	double seconds[SECTIONS];
	double value[SECTIONS];
	double total; /* the measured time: N1's share divided by 10 */
};

/* Section 2's procedure: the array as a parameter. */
void whet_array_param(double e[4], double t, double t2);
/* Section 6's procedure: three values through pointers. */
void whet_pointer_args(double *x, double *y, double *z, double t, double t1, double t2);
/* Section 7's procedure: array references. */
void whet_array_refs(double e1[4], long j, long k, long l);

void whet_array_param(double e[4], double t, double t2)
{
	for (long j = 0; j < 6; j++) {
		e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
		e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
		e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
		e[3] = (-e[0] + e[1] + e[2] + e[3]) / t2;
	}
}

void whet_pointer_args(double *x, double *y, double *z, double t, double t1, double t2)
{
	*x = *y;
	*y = *z;
	*x = t * (*x + *y);
	*y = t1 * (*x + *y);
	*z = (*x + *y) / t2;
}

void whet_array_refs(double e1[4], long j, long k, long l)
{
	e1[j] = e1[k];
	e1[k] = e1[l];
	e1[l] = e1[j];
}

static void record(struct whet_run *run, int section, double start, double value)
{
	double secs = wl_now() - start;
	if (section == 0)
		secs /= 10;
	run->seconds[section] = secs;
	run->value[section] = value;
	run->total += secs;
}

/* One run of the eight sections with XTRA outer passes. */
static void whetstones(long xtra, struct whet_run *run)
{
	const double t0 = 0.49999975, t1 = 0.50000025, t2 = 2.0;
	double t = t0;
	double e1[4], x, y, z, start;
	long i, ix, j, k, l;
	long n1 = 12 * X100, n2 = 14 * X100, n3 = 345 * X100, n4 = 210 * X100;
	long n5 = 32 * X100, n6 = 899 * X100, n7 = 616 * X100, n8 = 93 * X100;
	const long n1_mult = 10;

	memset(run, 0, sizeof(*run));

	/* N1: array elements, run n1_mult times longer than counted */
	e1[0] = 1.0;
	e1[1] = -1.0;
	e1[2] = -1.0;
	e1[3] = -1.0;
	start = wl_now();
	for (ix = 0; ix < xtra; ix++) {
		for (i = 0; i < n1 * n1_mult; i++) {
			e1[0] = (e1[0] + e1[1] + e1[2] - e1[3]) * t;
			e1[1] = (e1[0] + e1[1] - e1[2] + e1[3]) * t;
			e1[2] = (e1[0] - e1[1] + e1[2] + e1[3]) * t;
			e1[3] = (-e1[0] + e1[1] + e1[2] + e1[3]) * t;
		}
		t = 1.0 - t;
	}
	t = t0;
	record(run, 0, start, e1[3]);

	/* N2: array as parameter */
	start = wl_now();
	for (ix = 0; ix < xtra; ix++) {
		for (i = 0; i < n2; i++)
			whet_array_param(e1, t, t2);
		t = 1.0 - t;
	}
	t = t0;
	record(run, 1, start, e1[3]);

	/* N3: conditional jumps */
	j = 1;
	start = wl_now();
	for (ix = 0; ix < xtra; ix++) {
		for (i = 0; i < n3; i++) {
			if (j == 1)
				j = 2;
			else
				j = 3;
			if (j > 2)
				j = 0;
			else
				j = 1;
			if (j < 1)
				j = 1;
			else
				j = 0;
		}
	}
	record(run, 2, start, (double)j);

	/* N4: integer arithmetic */
	j = 1;
	k = 2;
	l = 3;
	start = wl_now();
	for (ix = 0; ix < xtra; ix++) {
		for (i = 0; i < n4; i++) {
			j = j * (k - j) * (l - k);
			k = l * k - (l - j) * k;
			l = (l - k) * (k + j);
			e1[l - 2] = j + k + l;
			e1[k - 2] = j * k * l;
		}
	}
	record(run, 3, start, e1[0] + e1[1]);

	/* N5: trigonometric functions */
	x = 0.5;
	y = 0.5;
	start = wl_now();
	for (ix = 0; ix < xtra; ix++) {
		for (i = 1; i < n5; i++) {
			x = t * atan(t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1.0));
			y = t * atan(t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1.0));
		}
		t = 1.0 - t;
	}
	t = t0;
	record(run, 4, start, y);

	/* N6: procedure calls */
	x = 1.0;
	y = 1.0;
	z = 1.0;
	start = wl_now();
	for (ix = 0; ix < xtra; ix++)
		for (i = 0; i < n6; i++)
			whet_pointer_args(&x, &y, &z, t, t1, t2);
	record(run, 5, start, z);

	/* N7: array references */
	j = 0;
	k = 1;
	l = 2;
	e1[0] = 1.0;
	e1[1] = 2.0;
	e1[2] = 3.0;
	start = wl_now();
	for (ix = 0; ix < xtra; ix++)
		for (i = 0; i < n7; i++)
			whet_array_refs(e1, j, k, l);
	record(run, 6, start, e1[2]);

	/* N8: standard functions */
	x = 0.75;
	start = wl_now();
	for (ix = 0; ix < xtra; ix++)
		for (i = 0; i < n8; i++)
			x = sqrt(exp(log(x) / t1));
	record(run, 7, start, x);
}

/* The first calibration round must reproduce the published results. */
static void check_published(const struct whet_run *run)
{
	for (int s = 0; s < SECTIONS; s++) {
		double want = sections[s].published;
		if (!(fabs(run->value[s] - want) <= 1e-9 * fabs(want)))
			wl_fail("wrong result: %s gave %.17f in one pass, the published result is %.17f",
				sections[s].title, run->value[s], want);
	}
}

static void check_measured(const struct whet_run *run)
{
	for (int s = 0; s < SECTIONS; s++) {
		const struct whet_section *sec = &sections[s];
		if (!isfinite(run->value[s]))
			wl_fail("wrong result: %s gave %g", sec->title, run->value[s]);
		if (sec->exact && run->value[s] != sec->published)
			wl_fail("wrong result: %s gave %.17f, it must be %.1f", sec->title,
				run->value[s], sec->published);
		if (sec->takes_time && !(run->seconds[s] > 0))
			wl_fail("%s took no time: the compiler removed its work, the score would be meaningless",
				sec->title);
	}
}

static void print_table(const struct whet_run *run, long xtra)
{
	printf("\nLoop content                  Result              MFLOPS      MOPS   Seconds\n\n");
	for (int s = 0; s < SECTIONS; s++) {
		const struct whet_section *sec = &sections[s];
		double ops = (double)sec->count * X100 * sec->ops * (double)xtra;
		double rate = run->seconds[s] > 0 ? ops / (1e6 * run->seconds[s]) : 0;
		printf("%-18s %24.17f    ", sec->title, run->value[s]);
		if (sec->is_float)
			printf(" %9.3f          %9.3f\n", rate, run->seconds[s]);
		else
			printf("           %9.3f%9.3f\n", rate, run->seconds[s]);
	}
}

int whetstone_main(int argc, char **argv)
{
	double target = 10;
	int opt;
	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't')
			wl_usage("unknown option");
		target = wl_parse_seconds(optarg);
	}
	if (optind != argc)
		wl_usage("unexpected argument '%s'", argv[optind]);
	/* UnixBench calibrates past 0.5 s for its 10 s target */
	double threshold = 0.5 * target / 10;

	struct whet_run run;
	long xtra = 1;
	printf("Calibrate\n");
	for (int round = 1; round <= 10; round++) {
		whetstones(xtra, &run);
		printf("%11.2f Seconds %10ld   Passes (x 100)\n", run.total, xtra);
		if (round == 1) {
			if (wl_corrupt())
				run.value[1] += 1e-6;
			check_published(&run);
		}
		if (run.total > threshold)
			break;
		xtra *= 5;
	}
	if (run.total > 0)
		xtra = (long)(target * (double)xtra / run.total);
	if (xtra < 1)
		xtra = 1;
	printf("\nUse %ld  passes (x 100)\n", xtra);
	printf("\n          Double Precision C/C++ Whetstone Benchmark\n");

	whetstones(xtra, &run);
	print_table(&run, xtra);
	double mwips = run.total > 0 ? (float)xtra * (float)X100 / (10 * run.total) : 0;
	printf("\nMWIPS            %39.3f%19.3f\n\n", mwips, run.total);
	fflush(stdout);
	check_measured(&run);
	if (!(mwips > 0))
		wl_fail("measured no time: MWIPS cannot be computed");
	fprintf(stderr, "COUNT|%.3f|0|MWIPS\n", mwips);
	fprintf(stderr, "TIME|%.3f\n", run.total);
	return 0;
}
