/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tuning profiles: the shipped ones, inheritance, conditions, and the
 * documented errors of malformed ones. */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include "testlib.h"
#include "tune/profile.h"
#include "unixbench/catalogue.h"

static char *tmpdir;

static int setup(void **state)
{
	tmpdir = xstrdup("/tmp/ubtune-profile.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int teardown(void **state)
{
	_cleanup_closedir_ DIR *d = opendir(tmpdir);
	struct strv l = {0};
	if (d)
		dir_list_sorted(d, &l);
	for (size_t i = 0; i < l.n; i++) {
		_cleanup_free_ char *p = xasprintf("%s/%s", tmpdir, l.v[i]);
		unlink(p);
	}
	strv_free(&l);
	rmdir(tmpdir);
	free(tmpdir);
	return 0;
}

/* Writes tmpdir/name and returns its path. */
static char *write_profile(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", tmpdir, name);
	FILE *f = fopen(p, "we");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

/* Loads a profile that must fail, and checks the one error it gives. */
static void expect_error(const char *text, const char *error)
{
	_cleanup_free_ char *path = write_profile("bad.profile", text);
	struct strv errors = {0};
	struct profile *p = NULL;
	assert_int_equal(profile_load(path, NULL, &p, &errors), -EINVAL);
	assert_null(p);
	_cleanup_free_ char *want = xasprintf("%s:%s", path, error);
	if (errors.n != 1 || !streq(errors.v[0], want))
		fail_msg("want '%s', got %zu errors, first '%s'", want, errors.n, errors.n ? errors.v[0] : "");
	strv_free(&errors);
}

static void shipped_profiles_validate(void **state)
{
	_cleanup_free_ char *dir = xasprintf("%s/profiles", SRCDIR);
	_cleanup_closedir_ DIR *d = opendir(dir);
	assert_non_null(d);
	struct strv l = {0};
	dir_list_sorted(d, &l);
	size_t n = 0;
	for (size_t i = 0; i < l.n; i++) {
		if (!endswith(l.v[i], ".profile"))
			continue;
		_cleanup_free_ char *path = xasprintf("%s/%s", dir, l.v[i]);
		struct strv errors = {0};
		_cleanup_profile_ struct profile *p = NULL;
		if (profile_load(path, NULL, &p, &errors) < 0)
			fail_msg("%s: %s", l.v[i], errors.n ? errors.v[0] : "failed");
		assert_non_null(p->description);
		/* every machine profile builds on the generic one */
		assert_string_equal(p->chain.v[0], "generic");
		n++;
	}
	strv_free(&l);
	assert_int_equal(n, 7);
}

static void shipped_profiles_on_machines(void **state)
{
	_cleanup_free_ char *rpi4 = xasprintf("%s/profiles/rpi4.profile", SRCDIR);
	_cleanup_json_ json_object *pi = json_lit("{\"cpu\": {\"arch\": \"aarch64\", \"model\": \"Cortex-A72\"},"
						  " \"virt\": {\"role\": \"none\", \"hypervisor\": null}}");
	struct strv errors = {0};
	_cleanup_profile_ struct profile *p = NULL;
	assert_int_equal(profile_load(rpi4, pi, &p, &errors), 0);
	assert_string_equal(profile_get(p, "build", "cflags")->value, "-O3 -ffast-math -mcpu=cortex-a72");
	assert_string_equal(profile_get(p, "cpu", "governor")->value, "performance|schedutil");
	assert_string_equal(profile_get(p, "cpu", "min-freq")->value, "max");
	assert_string_equal(profile_get(p, "workdir", "size")->value, "256M");
	/* bare metal: generic's [irq.guest] does not apply */
	assert_string_equal(profile_get(p, "irq", "storage-affinity")->value, "device-node");
	assert_int_equal(p->chain.n, 2);
	assert_string_equal(p->chain.v[1], "rpi4");

	/* a KVM guest: [irq.guest] leaves the IRQs alone */
	_cleanup_free_ char *generic = xasprintf("%s/profiles/generic.profile", SRCDIR);
	_cleanup_json_ json_object *vm = json_lit("{\"cpu\": {\"arch\": \"x86_64\"}, \"virt\": {\"role\": \"guest\","
						  " \"hypervisor\": \"kvm\"}}");
	_cleanup_profile_ struct profile *g = NULL;
	assert_int_equal(profile_load(generic, vm, &g, &errors), 0);
	assert_string_equal(profile_get(g, "irq", "storage-affinity")->value, "keep");
	assert_int_equal(g->notes.n, 1);
	assert_non_null(strstr(g->notes.v[0], "[irq.guest] applies"));
}

static void includes_and_overrides(void **state)
{
	_cleanup_free_ char *base = write_profile("base.profile", "[profile]\ndescription = base\n"
								"[cpu]\ngovernor = ondemand\nboost = off\n"
								"[sysctl]\nvm.swappiness = 60\n");
	_cleanup_free_ char *mid = write_profile("mid", "[profile]\ninclude = base\n[cpu]\nboost = on\n");
	_cleanup_free_ char *top = write_profile("top.profile", "; comment\n[profile]\ndescription = top\n"
							       "include = mid\n\n[cpu]\ngovernor = performance\n"
							       "# comment\n[services]\nstop = a b\n\tc   d\n");
	struct strv errors = {0};
	_cleanup_profile_ struct profile *p = NULL;
	assert_int_equal(profile_load(top, NULL, &p, &errors), 0);
	assert_string_equal(p->name, "top");
	assert_string_equal(p->description, "top");
	assert_int_equal(p->chain.n, 3);
	assert_string_equal(p->chain.v[0], "base");
	assert_string_equal(p->chain.v[1], "mid");
	assert_string_equal(p->chain.v[2], "top");
	const struct profile_setting *s = profile_get(p, "cpu", "governor");
	assert_string_equal(s->value, "performance");
	assert_int_equal(s->line, 7);
	assert_string_equal(profile_get(p, "cpu", "boost")->value, "on");
	s = profile_get(p, "sysctl", "vm.swappiness");
	assert_string_equal(s->value, "60");
	assert_true(endswith(s->file, "/base.profile"));
	/* an indented line continues the value */
	assert_string_equal(profile_get(p, "services", "stop")->value, "a b c   d");
	_cleanup_free_ char *origin = profile_origin(profile_get(p, "cpu", "boost"));
	assert_string_equal(origin, "[cpu] boost (mid:4)");
	assert_null(profile_get(p, "io", "scheduler"));
}

static void conditional_sections(void **state)
{
	_cleanup_free_ char *path = write_profile("cond.profile",
		"[build]\ncflags = -O2\n"
		"[build.a72]\nmatch-arch = arm64\nmatch-cpu = *a72*|*A76*\ncflags = -O3 -mcpu=cortex-a72\n"
		"[build.x86]\nmatch-arch = x86_64\ncflags = -O3 -march=native\n"
		"[cpu.guest]\nmatch-virt = kvm|xen\ngovernor = keep\n");
	struct strv errors = {0};
	_cleanup_json_ json_object *a72 = json_lit("{\"cpu\": {\"arch\": \"aarch64\", \"model\": \"Cortex-A72\"}}");
	_cleanup_profile_ struct profile *p = NULL;
	assert_int_equal(profile_load(path, a72, &p, &errors), 0);
	assert_string_equal(profile_get(p, "build", "cflags")->value, "-O3 -mcpu=cortex-a72");
	assert_null(profile_get(p, "cpu", "governor"));
	assert_int_equal(p->notes.n, 3);
	assert_non_null(strstr(p->notes.v[2], "virt.role/virt.hypervisor is not known"));

	/* the arch comes from host.arch when cpu.arch is missing */
	_cleanup_json_ json_object *x86 = json_lit("{\"host\": {\"arch\": \"x86_64\"}, \"cpu\": {\"model\": null},"
						   " \"virt\": {\"role\": \"guest\", \"hypervisor\": \"kvm\"}}");
	_cleanup_profile_ struct profile *q = NULL;
	assert_int_equal(profile_load(path, x86, &q, &errors), 0);
	assert_string_equal(profile_get(q, "build", "cflags")->value, "-O3 -march=native");
	assert_string_equal(profile_get(q, "cpu", "governor")->value, "keep");

	/* no machine (--check): conditional sections are checked, not applied */
	_cleanup_profile_ struct profile *r = NULL;
	assert_int_equal(profile_load(path, NULL, &r, &errors), 0);
	assert_string_equal(profile_get(r, "build", "cflags")->value, "-O2");
	assert_int_equal(errors.n, 0);
}

static void documented_errors(void **state)
{
	expect_error("[cpu]\ngovenor = performance\n", "2: [cpu] govenor: unknown key (did you mean 'governor'?)");
	expect_error("[cpu]\nboost = maybe\n", "2: [cpu] boost: 'maybe' is not one of on, off, keep");
	expect_error("[cpux]\nx = 1\n", "1: [cpux]: unknown section (did you mean [cpu]?)");
	expect_error("[bench]\ncopies = 1, 0\n", "2: [bench] copies: '0' is neither a number of copies (1-4096) nor 'all'");
	expect_error("[bench]\ncopies = 8000\n", "2: [bench] copies: '8000' is neither a number of copies (1-4096) nor 'all'");
	expect_error("[bench]\ntests = system\n",
		     "2: [bench] tests: 'system' is not a test `ubtune bench` runs (index, or some of dhry2reg, "
		     "whetstone-double, execl, fstime, fsbuffer, fsdisk, pipe, context1, spawn, syscall, shell1, "
		     "shell8)");
	expect_error("[bench]\ntests = pipe, shel8\n",
		     "2: [bench] tests: 'shel8' is not a test `ubtune bench` runs (index, or some of dhry2reg, "
		     "whetstone-double, execl, fstime, fsbuffer, fsdisk, pipe, context1, spawn, syscall, shell1, "
		     "shell8) (did you mean 'shell8'?)");
	expect_error("[cpu]\ngovernor = performance\ngovernor = ondemand\n",
		     "3: [cpu] governor: set twice in this section (first on line 2)");
	expect_error("[cpu]\nthis line has no value\n", "2: not a 'key = value' line, a [section] header or a comment");
	expect_error("speed = 1\n", "1: speed: key outside of any section");
	expect_error("[cpu\n", "1: section header without ']'");
	expect_error("[profile.x]\n", "1: [profile.x]: [profile] cannot be qualified");
	expect_error("[io]\nscheduler = mq-dedline\n",
		     "2: [io] scheduler: 'mq-dedline' is not one of auto, keep, none, mq-deadline, bfq, kyber, "
		     "deadline, cfq, noop (did you mean 'mq-deadline'?)");
	expect_error("[io]\nscheduler = auto|bfq\n", "2: [io] scheduler: 'auto' cannot be combined with other values");
	expect_error("[cpu]\nmin-freq = 1800\n",
		     "2: [cpu] min-freq: '1800' is neither max|keep nor a frequency with its unit (1800MHz, 2.2GHz)");
	expect_error("[workdir]\npath = /proc/ub\n",
		     "2: [workdir] path: '/proc/ub' is inside /proc, which is no place for a benchmark directory");
	expect_error("[workdir]\npath = /etc\n",
		     "2: [workdir] path: '/etc' is inside /etc, which is no place for a benchmark directory");
	expect_error("[workdir]\npath = /var/./../etc\n",
		     "2: [workdir] path: '/var/./../etc' must name a directory below / without '.', '..' or '//'");
	expect_error("[sysctl]\nkernel.core_pattern = |/tmp/prog %p\n",
		     "2: [sysctl] kernel.core_pattern: a core_pattern starting with '|' makes the kernel run a program "
		     "as root on every crash: not set by a profile");
	expect_error("[sysctl]\nkernel/modprobe = /tmp/prog\n",
		     "2: [sysctl] kernel/modprobe: kernel.modprobe names a program the kernel runs as root: not set by a profile");
	expect_error("[workdir]\nsize = 2T\n", "2: [workdir] size: '2T' is not a size such as 2G, 512M or 50%");
	expect_error("[build]\ncflags = -O2 `rm -rf`\n",
		     "2: [build] cflags: '`rm' is not a compiler option (options start with '-' and use no shell characters)");
	expect_error("[sysctl]\n../etc/passwd = x\n",
		     "2: [sysctl] ../etc/passwd: '../etc/passwd' is not a sysctl name such as kernel.randomize_va_space");
	expect_error("[irq]\nstorage-affinity = node\n",
		     "2: [irq] storage-affinity: 'node' is neither device-node|keep nor a CPU list such as 0-3,8");
	expect_error("[services]\nstop = cups;rm\n", "2: [services] stop: 'cups;rm' is not a valid unit name or glob");
	expect_error("[profile]\ninclude = nosuchprofile\n",
		     "2: [profile] include: no profile 'nosuchprofile' next to this file or among the shipped profiles");
	expect_error("[vm]\nmatch-cpu =\n", "2: [vm] match-cpu: needs at least one pattern");
	expect_error("[profile]\nmatch-arch = x86_64\n", "2: [profile] match-arch: unknown key");
}

/* A profile takes the [bench] lists `ubtune bench` takes, and no other. */
static void bench_lists_as_bench_takes_them(void **state)
{
	const char *copies[] = { "1", "1, all", "all", "1 8", "4096", "4097", "8000", "0", "-1", "x", "1,,2",
				 "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17" };
	const char *tests[] = { "index", "dhry2reg", "pipe, syscall", "shell1 shell8", "system", "dhry", "whets",
				"fs", "shell16", "ubgears", "C", "index,misc" };
	for (size_t i = 0; i < ARRAY_SIZE(copies) + ARRAY_SIZE(tests); i++) {
		bool is_copies = i < ARRAY_SIZE(copies);
		const char *v = is_copies ? copies[i] : tests[i - ARRAY_SIZE(copies)];
		unsigned out[UB_RUNS_MAX], n;
		/* bench reads the list the plan recorded: split on blanks and commas, joined with commas */
		_cleanup_strv_ struct strv words = {0};
		strv_split(v, " \t,", &words);
		_cleanup_free_ char *joined = strv_join(&words, ",");
		bool bench_takes = is_copies ? ub_parse_copies(joined, ",", 8, out, &n, NULL) == 0
					     : ub_parse_tests(joined, ",", out, &n, NULL) == 0;

		_cleanup_free_ char *text = xasprintf("[bench]\n%s = %s\n", is_copies ? "copies" : "tests", v);
		_cleanup_free_ char *path = write_profile("lists.profile", text);
		_cleanup_strv_ struct strv errors = {0};
		_cleanup_profile_ struct profile *p = NULL;
		int r = profile_load(path, NULL, &p, &errors);
		if ((r == 0) != bench_takes)
			fail_msg("%s: the profile %s it, bench %s it", text, r == 0 ? "takes" : "refuses",
				 bench_takes ? "takes" : "refuses");
	}
}

static void include_cycles(void **state)
{
	_cleanup_free_ char *a = write_profile("a.profile", "[profile]\ninclude = b\n");
	_cleanup_free_ char *b = write_profile("b.profile", "[profile]\ninclude = a\n");
	struct strv errors = {0};
	struct profile *p = NULL;
	assert_int_equal(profile_load(a, NULL, &p, &errors), -EINVAL);
	assert_int_equal(errors.n, 1);
	_cleanup_free_ char *want = xasprintf("%s:2: [profile] include: includes itself (a -> b -> a)", b);
	assert_string_equal(errors.v[0], want);
	strv_free(&errors);

	_cleanup_free_ char *self = write_profile("self.profile", "[profile]\ninclude = self.profile\n");
	assert_int_equal(profile_load(self, NULL, &p, &errors), -EINVAL);
	assert_non_null(strstr(errors.v[0], "includes itself (self -> self)"));
	strv_free(&errors);
}

static void bounds(void **state)
{
	/* a line longer than the limit */
	struct buf b = {0};
	buf_puts(&b, "[build]\ncflags =");
	for (int i = 0; i < 60; i++)
		buf_puts(&b, " -O3");
	buf_puts(&b, "\n");
	expect_error(b.s, "2: line longer than 190 characters (continue a long value on indented lines)");
	buf_free(&b);

	/* a file that is too large, or not text */
	char *big = xmalloc(PROFILE_FILE_MAX + 2);
	memset(big, '#', PROFILE_FILE_MAX + 1);
	big[PROFILE_FILE_MAX + 1] = '\0';
	_cleanup_free_ char *path = write_profile("big.profile", big);
	free(big);
	struct strv errors = {0};
	struct profile *p = NULL;
	assert_int_equal(profile_load(path, NULL, &p, &errors), -EFBIG);
	_cleanup_free_ char *want = xasprintf("%s: larger than 64 KiB, not a profile", path);
	assert_string_equal(errors.v[0], want);
	strv_free(&errors);

	_cleanup_free_ char *nul = xasprintf("%s/nul.profile", tmpdir);
	FILE *f = fopen(nul, "we");
	fwrite("[cpu]\0x", 1, 7, f);
	fclose(f);
	assert_int_equal(profile_load(nul, NULL, &p, &errors), -EINVAL);
	assert_non_null(strstr(errors.v[0], "contains NUL bytes"));
	strv_free(&errors);

	/* many errors: at most PROFILE_ERRORS_MAX are kept */
	struct buf many = {0};
	buf_puts(&many, "[cpu]\n");
	for (int i = 0; i < 50; i++)
		buf_printf(&many, "k%d = 1\n", i);
	_cleanup_free_ char *m = write_profile("many.profile", many.s);
	buf_free(&many);
	assert_int_equal(profile_load(m, NULL, &p, &errors), -EINVAL);
	assert_int_equal(errors.n, PROFILE_ERRORS_MAX);
	strv_free(&errors);

	/* a missing file */
	assert_int_equal(profile_load("/nonexistent/x.profile", NULL, &p, &errors), -ENOENT);
	assert_string_equal(errors.v[0], "/nonexistent/x.profile: No such file or directory");
	strv_free(&errors);
}

/* Hostile input: random edits of a real profile never crash the parser;
 * it either loads or says what is wrong, naming the file and a line. */
static void mutations(void **state)
{
	_cleanup_free_ char *src = xasprintf("%s/profiles/generic.profile", SRCDIR);
	FILE *f = fopen(src, "re");
	assert_non_null(f);
	char base[8192];
	size_t len = fread(base, 1, sizeof(base) - 1, f);
	fclose(f);
	static const char alphabet[] = "[]=:;#\n\t .|*-_aZ09\\\"\x01\xff";
	unsigned seed = 20240501;
	size_t loaded = 0, refused = 0;
	for (int iter = 0; iter < 600; iter++) {
		char text[8192 + 64];
		memcpy(text, base, len);
		size_t n = len;
		for (int e = 0; e < 1 + iter % 8; e++) {
			size_t at = (size_t)rand_r(&seed) % n;
			char c = alphabet[(size_t)rand_r(&seed) % (sizeof(alphabet) - 1)];
			switch (rand_r(&seed) % 3) {
			case 0: /* replace */
				text[at] = c;
				break;
			case 1: /* insert */
				if (n < sizeof(text) - 1) {
					memmove(text + at + 1, text + at, n - at);
					text[at] = c;
					n++;
				}
				break;
			default: /* delete */
				memmove(text + at, text + at + 1, n - at - 1);
				n--;
			}
		}
		text[n] = '\0';
		_cleanup_free_ char *path = write_profile("mutant.profile", text);
		struct strv errors = {0};
		struct profile *p = NULL;
		int r = profile_load(path, NULL, &p, &errors);
		if (r == 0) {
			assert_int_equal(errors.n, 0);
			profile_free(p);
			loaded++;
		} else {
			assert_int_equal(r, -EINVAL);
			assert_true(errors.n > 0 && errors.n <= PROFILE_ERRORS_MAX);
			for (size_t i = 0; i < errors.n; i++)
				if (!startswith(errors.v[i], path) && !strstr(errors.v[i], "generic.profile:"))
					fail_msg("error without a file: %s", errors.v[i]);
			refused++;
		}
		strv_free(&errors);
	}
	/* both outcomes happen: the edits hit values as well as syntax */
	assert_true(loaded > 0 && refused > 0);
}

static void values(void **state)
{
	uint64_t khz;
	assert_int_equal(profile_parse_freq("1800MHz", &khz), 0);
	assert_int_equal(khz, 1800000);
	assert_int_equal(profile_parse_freq("2.2GHz", &khz), 0);
	assert_int_equal(khz, 2200000);
	assert_int_equal(profile_parse_freq("408000kHz", &khz), 0);
	assert_int_equal(khz, 408000);
	assert_int_equal(profile_parse_freq("1800", &khz), -EINVAL);
	assert_int_equal(profile_parse_freq("-1GHz", &khz), -EINVAL);
	bool b;
	assert_int_equal(profile_parse_bool("Yes", &b), 0);
	assert_true(b);
	assert_int_equal(profile_parse_bool("off", &b), 0);
	assert_false(b);
	assert_int_equal(profile_parse_bool("maybe", &b), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shipped_profiles_validate),
		cmocka_unit_test(shipped_profiles_on_machines),
		cmocka_unit_test(includes_and_overrides),
		cmocka_unit_test(conditional_sections),
		cmocka_unit_test(documented_errors),
		cmocka_unit_test(bench_lists_as_bench_takes_them),
		cmocka_unit_test(include_cycles),
		cmocka_unit_test(bounds),
		cmocka_unit_test(mutations),
		cmocka_unit_test(values),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
