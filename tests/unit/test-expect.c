/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The expectation model (unixbench/expect.h) on a small catalogue and a
 * model whose numbers are round, so that every expectation can be worked
 * out by hand: a placed CPU, an unplaced one, a guest, N copies, SMT, a
 * big.LITTLE chip, a hidden model, a clock not known; and bad model files.
 */
#include <errno.h>
#include <math.h>

#include "testlib.h"
#include "unixbench/expect.h"

static const char catalogue[] =
	"[core Big]\narch = aarch64\ngroup = g\nmidr = 0x41:0xd0b\nmatch = big\n"
	"[core Small]\narch = aarch64\ngroup = g\nmidr = 0x41:0xd05\nmatch = small\n"
	"[core X86]\narch = x86_64\ngroup = x\nmatch = x86core\n"
	"[core Other]\narch = x86_64\ngroup = x\nmatch = othercore\n"
	"[cpu Chip]\ncore = Big\nbig_cores = 4\nlittle = Small\nlittle_cores = 4\nlittle_clock = 1.0\nmatch = chip\n"
	"nominal = 2.0\n"
	"[cpu Xeon 1]\ncore = X86\nmatch = xeon 1\nnominal = 2.0\nboost = 3.0\n"
	"[hidden Guest]\ncandidates = X86, Other\nat.2.5 = Other\nmatch = guest\n";

/* log index per GHz: Big 1000 (Dhrystone), 500 (the others), Small 250,
 * X86 1000, Other 2000; factors as named; scaling 1 for Dhrystone, 0.5
 * for the rest; an SMT sibling adds 0.25. */
static char *model_text(void)
{
	struct buf b = {0};
	buf_printf(&b, "[model]\nschema = ubtune.expect/1\ntests = dhry2reg whetstone-double execl fstime fsbuffer "
		       "fsdisk pipe context1 spawn syscall shell1 shell8\nruns = 10\nsources = 4\nsmt = 0.25\n"
		       "concurrency = 1 1 1 1 1 1 1 1 1 1 1 8\n");
	const char *cores[] = { "Big", "Small", "X86", "Other" };
	const double dhry[] = { 1000, 250, 1000, 2000 }, rest[] = { 500, 250, 1000, 2000 };
	for (size_t i = 0; i < 4; i++) {
		buf_printf(&b, "[core %s]\nruns = %d\nsources = 2\nbasis = %s\n%sclock = 2.0\nclock_spread = -0.1 0.1\n"
			       "level = %.6f", cores[i], i == 1 ? 3 : 5, i == 1 ? "neighbours" : "runs",
			   i == 1 ? "from = Big\n" : "", log(dhry[i]));
		for (int t = 1; t < 12; t++)
			buf_printf(&b, " %.6f", log(rest[i]));
		buf_puts(&b, "\n");
	}
	buf_printf(&b, "[factor base-clock]\ntests = %.6f 0 0 0 0 0 0 0 0 0 0 0\n", log(1.2));
	buf_printf(&b, "[factor virt.vm]\ntests = 0 0 0 0 0 0 0 0 %.6f 0 0 0\n", log(0.5));
	buf_printf(&b, "[factor scaling]\ntests = 1 1 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5\n");
	buf_printf(&b, "[spread 1 runs]\nresiduals = 40\nlow = -0.2 -0.2 -0.3 -0.3 -0.3 -0.3 -0.3 -0.3 -0.3 -0.3 "
		       "-0.3 -0.3 -0.25\nhigh = 0.2 0.2 0.3 0.3 0.3 0.3 0.3 0.3 0.3 0.3 0.3 0.3 0.25\n");
	buf_printf(&b, "[spread n runs]\nresiduals = 20\nlow = -0.4 -0.4 -0.4 -0.4 -0.4 -0.4 -0.4 -0.4 -0.4 -0.4 "
		       "-0.4 -0.4 -0.4\nhigh = 0.4 0.4 0.4 0.4 0.4 0.4 0.4 0.4 0.4 0.4 0.4 0.4 0.4\n");
	buf_printf(&b, "[spread 1 neighbours]\nresiduals = 10\nlow = -0.5 -0.5 -0.5 -0.5 -0.5 -0.5 -0.5 -0.5 -0.5 "
		       "-0.5 -0.5 -0.5 -0.5\nhigh = 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5 0.5\n");
	return buf_steal(&b);
}

/* Process Creation: ub_tests[8] */
#define SPAWN 8

static struct expect_ref ref;

static int setup(void **state)
{
	(void)state;
	_cleanup_free_ char *error = NULL, *text = model_text();
	if (cpu_catalogue_parse(catalogue, strlen(catalogue), "cat.ini", &ref.cat, &error) < 0 ||
	    expect_model_parse(text, strlen(text), "model.ini", &ref.model, &error) < 0)
		fail_msg("%s", error);
	ref.loaded = true;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	expect_ref_free(&ref);
	return 0;
}

/* a and b within a millionth of each other (the model keeps six decimals of their logs) */
#define assert_near(a, b) assert_float_equal((a), (b), fabs((double)(b)) * 1e-5)

static struct expect_facts facts(const char *model, const char *arch, unsigned copies, unsigned cpus)
{
	struct expect_facts f;
	expect_facts_init(&f);
	f.cpu.models[0] = model;
	f.cpu.arch = arch;
	f.copies = copies;
	f.cpus = cpus;
	return f;
}

static void placed_cpu(void **state)
{
	(void)state;
	struct expect_facts f = facts("X86core @ 2.50GHz", "x86_64", 1, 4);
	f.virt = EV_NONE;
	struct expectation e;
	assert_true(expect_run(&ref, &f, &e));
	/* 1000 per GHz at the string's 2.5 GHz, a base clock (× 1.2) */
	assert_near(e.index[0], 1000 * 2.5 * 1.2);
	assert_near(e.low[0], e.index[0] * exp(-0.2));
	assert_near(e.high[0], e.index[0] * exp(0.2));
	/* the others are not base-clock scaled */
	assert_near(e.index[1], 1000 * 2.5);
	assert_int_equal(e.runs, 5);
	assert_non_null(strstr(e.basis_text, "from 5 runs of X86 (2 sources), scaled to 2.5 GHz (model string)"));
	/* the score: the geometric mean of the twelve */
	double sum = 0;
	for (int t = 0; t < UB_NINDEX; t++)
		sum += log(e.index[t]);
	assert_near(e.score, exp(sum / UB_NINDEX));
	assert_near(e.score_low, e.score * exp(-0.25));
	/* a chip with a boost clock: that one, and no base factor */
	f = facts("Intel Xeon 1", "x86_64", 1, 4);
	assert_true(expect_run(&ref, &f, &e));
	assert_string_equal(e.name, "Xeon 1");
	assert_near(e.index[0], 3000);
}

static void unplaced_cpu(void **state)
{
	(void)state;
	struct expect_facts f = facts("ARMv7 Processor rev 4 (v7l)", "armv7l", 1, 4);
	struct expectation e;
	assert_false(expect_run(&ref, &f, &e));
	assert_false(e.placed);
	assert_true(isnan(e.score));
	assert_non_null(strstr(e.why, "the CPU is not placed: no entry of the catalogue matches"));
	/* nothing expected of a run whose copies are not known */
	f = facts("x86core", "x86_64", 0, 4);
	assert_false(expect_run(&ref, &f, &e));
	assert_non_null(strstr(e.why, "copies"));
}

static void guest(void **state)
{
	(void)state;
	struct expect_facts f = facts("Intel Xeon 1", "x86_64", 1, 2);
	f.virt = EV_VM;
	struct expectation e;
	assert_true(expect_run(&ref, &f, &e));
	/* Process Creation halves in a guest, the CPU tests do not move */
	assert_near(e.index[SPAWN], 1000 * 3.0 * 0.5);
	assert_near(e.index[0], 3000);
	/* emulated: judged as a guest would be */
	f.virt = EV_EMULATED;
	struct expectation x;
	assert_true(expect_run(&ref, &f, &x));
	assert_near(x.index[SPAWN], e.index[SPAWN]);
}

static void copies_and_smt(void **state)
{
	(void)state;
	/* 4 copies on 4 CPUs: Dhrystone and Whetstone × 4, the others × 4^0.5 */
	struct expect_facts f = facts("Intel Xeon 1", "x86_64", 4, 4);
	struct expectation e;
	assert_true(expect_run(&ref, &f, &e));
	assert_near(e.index[0], 3000 * 4);
	assert_near(e.index[1], 3000 * 4);
	assert_near(e.index[2], 3000 * 2);
	assert_near(e.low[0], e.index[0] * exp(-0.4));
	/* more copies than CPUs gain nothing beyond the CPUs */
	f.copies = 8;
	assert_true(expect_run(&ref, &f, &e));
	assert_near(e.index[0], 3000 * 4);
	/* 4 copies on 2 cores with 2 threads each: 2 + 0.25 × 2 */
	f.copies = 4;
	f.cores = 2;
	assert_true(expect_run(&ref, &f, &e));
	assert_float_equal(e.capacity, 2.5, 1e-9);
	assert_near(e.index[0], 3000 * 2.5);
	/* one copy of Shell Scripts (8) runs eight scripts: 4 CPUs of 2 cores */
	f.copies = 1;
	assert_true(expect_run(&ref, &f, &e));
	assert_near(e.index[11], 3000 * sqrt(2.5));
	assert_near(e.index[10], 3000);
}

static void big_little(void **state)
{
	(void)state;
	/* 8 copies on 4 big cores at 2.0 GHz and 4 small at 1.0: Dhrystone
	 * 4 + 4 × (250 × 1.0) / (1000 × 2.0) */
	struct expect_facts f = facts("Chip", "aarch64", 8, 8);
	struct expectation e;
	assert_true(expect_run(&ref, &f, &e));
	assert_float_equal(e.capacity, 4.5, 1e-9);
	assert_near(e.index[0], 1000 * 2.0 * 4.5);
	/* the MIDR of the big core places it too, without the chip's clock */
	struct expect_facts g;
	expect_facts_init(&g);
	g.cpu.midr_implementer = 0x41;
	g.cpu.midr_part = 0xd0b;
	g.copies = 1;
	assert_true(expect_run(&ref, &g, &e));
	assert_string_equal(e.core->name, "Big");
	assert_true(e.clock_guessed);
	/* the clock not known: its runs' median, the interval widened by their spread */
	assert_near(e.index[0], 2000);
	assert_near(e.low[0], 2000 * exp(-0.2 - 0.1));
}

static void neighbours_and_hidden(void **state)
{
	(void)state;
	/* a core with no run of its own: the neighbours' spread */
	struct expect_facts f = facts("small", "aarch64", 1, 4);
	f.cpu.clock_mhz = 1000;
	struct expectation e;
	assert_true(expect_run(&ref, &f, &e));
	assert_int_equal(e.basis, EB_NEIGHBOURS);
	assert_near(e.low[0], 250 * exp(-0.5));
	assert_non_null(strstr(e.basis_text, "no published run of Small: from 3 runs of its neighbours Big"));
	/* a hidden model whose clock names its core */
	f = facts("Guest CPU @ 2.50GHz", "x86_64", 1, 1);
	assert_true(expect_run(&ref, &f, &e));
	assert_string_equal(e.core->name, "Other");
	assert_int_equal(e.place.ncandidates, 0);
	/* another clock: the candidates pooled (the mean of their logs), the
	 * interval widened by half their range; the 1-copy runs' spread */
	f = facts("Guest CPU @ 2.00GHz", "x86_64", 1, 1);
	assert_true(expect_run(&ref, &f, &e));
	assert_int_equal(e.place.ncandidates, 2);
	double mid = exp((log(1000) + log(2000)) / 2) * 2.0 * 1.2;
	assert_near(e.index[0], mid);
	assert_near(e.high[0], mid * exp(0.2 + log(2) / 2));
	assert_non_null(strstr(e.basis_text, "the model string hides the model"));
}

static void refuse(const char *text, const char *want)
{
	struct expect_model m;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(expect_model_parse(text, strlen(text), "m.ini", &m, &error), -EINVAL);
	if (!error || !strstr(error, want))
		fail_msg("got '%s', want '%s'", error ?: "(none)", want);
	expect_model_free(&m);
}

static void bad_models(void **state)
{
	(void)state;
	_cleanup_free_ char *good = model_text();
	static const char head[] = "[model]\nschema = ubtune.expect/1\ntests = dhry2reg whetstone-double execl "
				   "fstime fsbuffer fsdisk pipe context1 spawn syscall shell1 shell8\nruns = 1\n"
				   "sources = 1\nsmt = 0.25\nconcurrency = 1 1 1 1 1 1 1 1 1 1 1 8\n";
	refuse("[core A]\n", "m.ini: the first section is not [model]");
	refuse("[model]\nschema = ubtune.expect/9\n", "m.ini:2: [model] schema: 'ubtune.expect/9' is not ubtune.expect/1");
	refuse("[model]\nschema = ubtune.expect/1\ntests = dhry2reg\n", "m.ini:3: [model] tests: 1 tests, not the 12");
	char *t = xasprintf("%s[core A]\nruns = 1\nsources = 1\nbasis = runs\nclock = 2\n"
					   "clock_spread = 0 0\nlevel = 1 2 3\n", head);
	refuse(t, "m.ini:14: [core A] level: 3 numbers, not 12");
	free(t);
	t = xasprintf("%s[core A]\nruns = 1\nsources = 1\nbasis = guess\n", head);
	refuse(t, "m.ini:11: [core A] basis: 'guess' is not runs, neighbours, group or all");
	free(t);
	t = xasprintf("%s[factor turbo]\ntests = 0\n", head);
	refuse(t, "m.ini:8: [factor turbo]: not a factor of the model");
	free(t);
	t = xasprintf("%s[spread 1 runs]\nresiduals = 1\nlow = 1 1 1 1 1 1 1 1 1 1 1 1 1\n"
		      "high = 0 0 0 0 0 0 0 0 0 0 0 0 0\n", head);
	refuse(t, "m.ini:10: [spread 1 runs] low: above high");
	free(t);
	t = xasprintf("%s[factor scaling]\ntests = 1 1 1 1 1 1 1 1 1 1 1 nan\n", head);
	refuse(t, "m.ini:9: [factor scaling] tests: 'nan' is not a number");
	free(t);
	/* the good one parses, and has what the tests above use */
	struct expect_model m;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(expect_model_parse(good, strlen(good), "m.ini", &m, &error), 0);
	assert_int_equal(m.ncores, 4);
	assert_int_equal(m.concurrency[11], 8);
	expect_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(placed_cpu),
		cmocka_unit_test(unplaced_cpu),
		cmocka_unit_test(guest),
		cmocka_unit_test(copies_and_smt),
		cmocka_unit_test(big_little),
		cmocka_unit_test(neighbours_and_hidden),
		cmocka_unit_test(bad_models),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
