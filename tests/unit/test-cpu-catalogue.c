/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPU catalogue (lib/cpu-catalogue.h): the shipped file, placing CPUs, refusing bad files. */
#include <errno.h>
#include <math.h>

#include "lib/cpu-catalogue.h"
#include "testlib.h"

static struct cpu_catalogue cat;

static int load(void **state)
{
	(void)state;
	_cleanup_free_ char *path = xasprintf("%s/reference/cpus.ini", SRCDIR), *error = NULL;
	int r = cpu_catalogue_load(path, &cat, &error);
	if (r < 0)
		fail_msg("%s", error);
	return 0;
}

static int unload(void **state)
{
	(void)state;
	cpu_catalogue_free(&cat);
	return 0;
}

static void normalize(void **state)
{
	(void)state;
	char out[256];
	double ghz;
	cpu_model_normalize("Intel(R) Xeon(R) CPU E5645 @ 2.40GHz", out, sizeof(out), &ghz);
	assert_string_equal(out, "intel xeon e5645");
	assert_float_equal(ghz, 2.4, 1e-9);
	cpu_model_normalize("AMD EPYC Processor (with IBPB)", out, sizeof(out), &ghz);
	assert_string_equal(out, "amd epyc (with ibpb)");
	assert_true(isnan(ghz));
	cpu_model_normalize("Intel® Core™ i7-4720HQ CPU @2400 MHz", out, sizeof(out), &ghz);
	assert_string_equal(out, "intel core i7-4720hq");
	assert_float_equal(ghz, 2.4, 1e-9);
	/* an '@' without a clock is only dropped */
	cpu_model_normalize("Board @ home", out, sizeof(out), &ghz);
	assert_string_equal(out, "board home");
	/* a tiny buffer is never overrun */
	char tiny[6];
	cpu_model_normalize("Intel Xeon Platinum", tiny, sizeof(tiny), &ghz);
	assert_string_equal(tiny, "intel");
}

static bool place(struct cpu_place *p, const char *model, const char *arch)
{
	struct cpu_facts f;
	cpu_facts_init(&f);
	f.models[0] = model;
	f.arch = arch;
	return cpu_place(&cat, &f, p);
}

static void place_models(void **state)
{
	(void)state;
	struct cpu_place p;
	/* a chip: its core and its boost clock */
	assert_true(place(&p, "Intel(R) Xeon(R) CPU E5645 @ 2.40GHz", "x86_64"));
	assert_string_equal(p.core->name, "Westmere");
	assert_string_equal(p.cpu->name, "Xeon E5645");
	assert_float_equal(p.clock_ghz, 2.67, 1e-9);
	assert_string_equal(p.clock_source, "boost");
	assert_false(p.clock_base);
	/* a family pattern: the core; the clock of the string, a base clock */
	assert_true(place(&p, "Intel(R) Xeon(R) CPU E5-2660 v3 @ 2.60GHz", "x86_64"));
	assert_string_equal(p.core->name, "Haswell");
	assert_null(p.cpu);
	assert_float_equal(p.clock_ghz, 2.6, 1e-9);
	assert_string_equal(p.clock_source, "model string");
	assert_true(p.clock_base);
	/* the more specific pattern wins: a Ryzen 5 3400G is a Zen+ APU */
	assert_true(place(&p, "AMD Ryzen 5 3400G with Radeon Vega Graphics", "x86_64"));
	assert_string_equal(p.core->name, "Zen+");
	assert_true(place(&p, "AMD Ryzen 9 5950X 16-Core Processor", "x86_64"));
	assert_string_equal(p.cpu->name, "Ryzen 9 5950X");
	assert_float_equal(p.clock_ghz, 4.9, 1e-9);
	/* ARM chips named by the source */
	assert_true(place(&p, "Kunpeng 920-4826", "aarch64"));
	assert_string_equal(p.core->name, "TSV110");
	assert_float_equal(p.clock_ghz, 2.6, 1e-9);
	assert_string_equal(p.clock_source, "nominal");
	assert_false(p.clock_base); /* an ARM server has no turbo to hide */
	assert_true(place(&p, "Raspberry Pi 4 Model B Rev 1.4", "aarch64"));
	assert_string_equal(p.cpu->name, "BCM2711");
	assert_float_equal(p.clock_ghz, 1.8, 1e-9);
	assert_true(place(&p, "Phytium FT-2000+/64", NULL));
	assert_string_equal(p.core->name, "FTC662");
	/* the architecture rules out a core of another one */
	assert_false(place(&p, "Cortex-A72", "x86_64"));
	/* nothing fits: said, not guessed */
	assert_false(place(&p, "ARMv7 Processor rev 4 (v7l)", "armv7l"));
	assert_null(p.core);
	assert_non_null(strstr(p.by, "no entry of the catalogue matches"));
}

static void place_hidden(void **state)
{
	(void)state;
	struct cpu_place p;
	/* GCE names its Skylake hosts' clock only */
	assert_true(place(&p, "Intel(R) Xeon(R) CPU @ 2.00GHz", "x86_64"));
	assert_non_null(p.hidden);
	assert_string_equal(p.core->name, "Skylake");
	assert_int_equal(p.ncandidates, 0);
	assert_float_equal(p.clock_ghz, 2.0, 1e-9);
	/* a clock that names no core: the candidates, none chosen silently */
	assert_true(place(&p, "Intel(R) Xeon(R) CPU @ 2.40GHz", "x86_64"));
	assert_true(p.ncandidates >= 2);
	/* QEMU's named models say the generation */
	assert_true(place(&p, "Intel Xeon Processor (Skylake, IBRS)", "x86_64"));
	assert_string_equal(p.core->name, "Skylake");
	assert_true(isnan(p.clock_ghz));
	assert_true(place(&p, "AMD EPYC Processor", "x86_64"));
	assert_true(p.ncandidates >= 2);
	/* a whole-string pattern does not match a longer model */
	assert_true(place(&p, "AMD EPYC 7B13", "x86_64"));
	assert_null(p.hidden);
	assert_string_equal(p.core->name, "Zen 3");
	assert_true(place(&p, "Common KVM processor", NULL));
	assert_true(p.ncandidates >= 2);
}

static void place_ids(void **state)
{
	(void)state;
	struct cpu_place p;
	struct cpu_facts f;
	cpu_facts_init(&f);
	f.midr_implementer = 0x41;
	f.midr_part = 0xd08;
	f.clock_mhz = 1500;
	assert_true(cpu_place(&cat, &f, &p));
	assert_string_equal(p.core->name, "Cortex-A72");
	assert_string_equal(p.by, "MIDR 0x41:0xd08");
	assert_float_equal(p.clock_ghz, 1.5, 1e-9);
	assert_string_equal(p.clock_source, "stated");
	/* a chip of the same core adds its clocks */
	f.models[0] = "BCM2711";
	f.clock_mhz = NAN;
	assert_true(cpu_place(&cat, &f, &p));
	assert_string_equal(p.cpu->name, "BCM2711");
	/* a MIDR beats a model string that says another core */
	f.models[0] = "Cortex-A53";
	assert_true(cpu_place(&cat, &f, &p));
	assert_string_equal(p.core->name, "Cortex-A72");
	/* x86 family and model; the narrowest range wins */
	cpu_facts_init(&f);
	f.x86_vendor = "AuthenticAMD";
	f.x86_family = 0x17;
	f.x86_model = 0x31;
	f.bogomips = 4491.5;
	f.arch = "x86_64";
	assert_true(cpu_place(&cat, &f, &p));
	assert_string_equal(p.core->name, "Zen 2");
	assert_string_equal(p.clock_source, "BogoMIPS");
	assert_float_equal(p.clock_ghz, 2.24575, 1e-9);
}

/* Every entry of the shipped file is reachable: each [cpu] by its own patterns. */
static void shipped_entries_place_themselves(void **state)
{
	(void)state;
	for (size_t i = 0; i < cat.ncpus; i++) {
		struct cpu_place p;
		const char *pattern = cat.cpus[i].match.v[0];
		if (strpbrk(pattern, "*?#["))
			continue;
		if (!place(&p, pattern, NULL) || p.cpu != &cat.cpus[i])
			fail_msg("[cpu %s]: its pattern '%s' places %s", cat.cpus[i].name, pattern,
				 p.cpu ? p.cpu->name : p.core ? p.core->name : "nothing");
	}
	for (size_t i = 0; i < cat.ncores; i++)
		for (size_t k = 0; k < cat.cores[i].neighbour_names.n; k++)
			assert_non_null(cpu_catalogue_core(&cat, cat.cores[i].neighbour_names.v[k]));
}

static void refuse(const char *text, const char *want)
{
	struct cpu_catalogue c;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(cpu_catalogue_parse(text, strlen(text), "t.ini", &c, &error), -EINVAL);
	if (!error || !strstr(error, want))
		fail_msg("got '%s', want '%s'", error ?: "(none)", want);
	cpu_catalogue_free(&c);
}

static void bad_files(void **state)
{
	(void)state;
	static const char core[] = "[core A]\narch = aarch64\ngroup = g\nmatch = a\n";
	refuse("[core A]\narch = aarch64\ngroup = g\nmidr = 0x41-0xd08\n",
	       "t.ini:4: [core A] midr: '0x41-0xd08' is not IMPLEMENTER:PART");
	refuse("[core A]\narch = vax\n", "t.ini:2: [core A] arch: 'vax' is not an architecture");
	refuse("[core A]\narch = aarch64\ngroup = g\nmatch = Cortex\n", "t.ini:4: [core A] match: 'Cortex': a pattern "
	       "is written in lower case");
	refuse("[core A]\narch = aarch64\ngroup = g\nmatch = a[b\n", "t.ini:4: [core A] match: 'a[b': unbalanced");
	refuse("[core A]\narch = aarch64\narch = x86_64\n", "t.ini:3: [core A] arch: set twice");
	refuse("[core A]\narch = aarch64\nspeed = 3\n", "t.ini:3: [core A] speed: not a key of a [core]");
	refuse("[core A]\narch = aarch64\ngroup = g\nneighbours = B\n", "t.ini:4: [core A] neighbours: 'B' is not a "
	       "[core] of this file");
	refuse("[core A]\narch = aarch64\n", "t.ini:1: [core A] group: missing");
	refuse("[chip A]\n", "t.ini:1: [chip A]: a section is [core NAME]");
	refuse("arch = aarch64\n", "t.ini:1: arch: a key before the first [section]");
	refuse("[core A]\narch aarch64\n", "t.ini:2: not a 'key = value' line");
	refuse("[core A]\n  arch = aarch64\n", "t.ini:2: an indented line continues a value");
	_cleanup_free_ char *cpu = xasprintf("%s[cpu B]\ncore = A\nmatch = b\nnominal = 2.6\nboost = 2.4\n", core);
	refuse(cpu, "t.ini:9: [cpu B] boost: below the nominal clock");
	free(cpu);
	cpu = xasprintf("%s[cpu B]\ncore = A\nmatch = b\nnominal = 26000\n", core);
	refuse(cpu, "t.ini:8: [cpu B] nominal: '26000' is not a clock in GHz");
	free(cpu);
	cpu = xasprintf("%s[cpu B]\ncore = C\n", core);
	refuse(cpu, "t.ini:6: [cpu B] core: 'C' is not a [core] of this file");
	free(cpu);
	cpu = xasprintf("%s[hidden H]\ncandidates = A\nat.x = A\nmatch = h\n", core);
	refuse(cpu, "t.ini:7: [hidden H] at.x: 'x' is not a clock in GHz");
	refuse("[core A]\narch = aarch64\ngroup = g\nmatch = a\n[core A]\n", "t.ini:5: [core A]: listed twice");
	{
		struct cpu_catalogue c;
		_cleanup_free_ char *error = NULL;
		assert_int_equal(cpu_catalogue_parse("[core A]\0\n", 10, "t.ini", &c, &error), -EINVAL);
		assert_string_equal(error, "t.ini: contains NUL bytes, not a CPU catalogue");
		cpu_catalogue_free(&c);
	}
	refuse("# nothing\n", "no [core] section");
	/* a long line is refused, not cut */
	_cleanup_free_ char *longline = xasprintf("[core A]\narch = aarch64\ngroup = g\nmatch = %0300d\n", 0);
	refuse(longline, "t.ini:4: line longer than");
}

static void continuation_lines(void **state)
{
	(void)state;
	static const char text[] = "[core A]\narch = aarch64\ngroup = g\nmatch = a one |\n    a two\n";
	struct cpu_catalogue c;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(cpu_catalogue_parse(text, strlen(text), "t.ini", &c, &error), 0);
	assert_int_equal(c.cores[0].match.n, 2);
	assert_string_equal(c.cores[0].match.v[1], "a two");
	cpu_catalogue_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(normalize),
		cmocka_unit_test(place_models),
		cmocka_unit_test(place_hidden),
		cmocka_unit_test(place_ids),
		cmocka_unit_test(shipped_entries_place_themselves),
		cmocka_unit_test(bad_files),
		cmocka_unit_test(continuation_lines),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
