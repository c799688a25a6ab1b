/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The expected index of every test and the score of a run (unixbench/expect.h). */
#include "expect.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>

#include "lib/paths.h"

#define EXPECT_SCHEMA "ubtune.expect/1"
/* The shipped model is about 30 KiB. */
#define MODEL_MAX (4u << 20)

static const char *const basis_names[] = { "runs", "neighbours", "group", "all", "hidden" };
static const char *const virt_names[] = { "none", "vm", "xen-pv", "container", "emulated", "unknown" };

const char *expect_article(const char *name)
{
	unsigned char a = (unsigned char)name[0], b = a ? (unsigned char)name[1] : 0;
	if (a && strchr("AEIOUaeiou", a))
		return "an";
	if (a && strchr("FHLMNRSX", a) && (isupper(b) || isdigit(b) || b == '-'))
		return "an";
	return "a";
}

/* 870, 1,090, 31,200: three significant digits, thousands apart. */
void expect_number_text(double v, char *buf, size_t size)
{
	double mag = v >= 100 ? pow(10, floor(log10(v)) - 2) : v >= 10 ? 0.1 : 0.01;
	double r = round(v / mag) * mag;
	char digits[64];
	snprintf(digits, sizeof(digits), "%.*f", r >= 100 ? 0 : r >= 10 ? 1 : 2, r);
	char *dot = strchr(digits, '.');
	size_t whole = dot ? (size_t)(dot - digits) : strlen(digits), o = 0;
	for (size_t i = 0; digits[i] && o + 2 < size; i++) {
		if (i > 0 && i < whole && (whole - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

enum expect_virt expect_virt_class(const char *w)
{
	static const char *const vm[] = { "kvm", "xen", "hyper-v", "hyperv", "microsoft", "vmware", "virtualbox", "oracle",
					  "vm", "bhyve", "parallels", "firecracker", "wsl2", "qemu", "acrn", "kvm-host",
					  "zvm", "powervm", "apple", "bochs", "uml", "xen-hvm", "amazon", "google",
					  "lkvm", "kvmtool" };
	static const char *const container[] = { "openvz", "lxc", "docker", "podman", "container", "systemd-nspawn",
						 "rkt", "wsl", "proot", "lxc-libvirt", "container-other" };
	if (!w || !*w || streq(w, "unknown"))
		return EV_UNKNOWN;
	if (streq(w, "none"))
		return EV_NONE;
	if (streq(w, "qemu-tcg") || streq(w, "emulated"))
		return EV_EMULATED;
	if (streq(w, "xen-pv"))
		return EV_XEN_PV;
	for (size_t i = 0; i < ARRAY_SIZE(container); i++)
		if (streq(w, container[i]))
			return EV_CONTAINER;
	for (size_t i = 0; i < ARRAY_SIZE(vm); i++)
		if (streq(w, vm[i]))
			return EV_VM;
	return EV_UNKNOWN;
}

/* ---- the model file ---- */

struct load {
	struct kf_check c;
	struct expect_model *m;
	int order[UB_NINDEX]; /* the file's i-th test is ub_tests[order[i]] */
};

/* n numbers (finite, |v| < limit) in file order into out[] (test order when per_test). */
static void numbers(struct load *l, const struct kf_entry *e, size_t n, double limit, bool per_test, double *out)
{
	if (!e)
		return;
	_cleanup_strv_ struct strv list = {0};
	strv_split(e->value, " \t", &list);
	if (list.n != n) {
		kf_fail(&l->c, e, "%zu numbers, not %zu", list.n, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		double v;
		if (parse_double(list.v[i], &v) < 0 || !isfinite(v) || fabs(v) > limit) {
			kf_fail(&l->c, e, "'%s' is not a number from %g to %g", list.v[i], -limit, limit);
			return;
		}
		out[per_test && i < UB_NINDEX ? (size_t)l->order[i] : i] = v;
	}
}

static unsigned count(struct load *l, const struct kf_entry *e)
{
	uint64_t v = 0;
	if (e && (parse_u64(e->value, &v) < 0 || v > 100000000))
		kf_fail(&l->c, e, "'%s' is not a count", e->value);
	return (unsigned)v;
}

static void read_head(struct load *l)
{
	const struct kf_entry *e = kf_need(&l->c, "schema");
	if (e && !streq(e->value, EXPECT_SCHEMA))
		kf_fail(&l->c, e, "'%s' is not %s", e->value, EXPECT_SCHEMA);
	e = kf_need(&l->c, "tests");
	if (e) {
		_cleanup_strv_ struct strv ids = {0};
		strv_split(e->value, " \t", &ids);
		bool seen[UB_NINDEX] = {0};
		if (ids.n != UB_NINDEX)
			kf_fail(&l->c, e, "%zu tests, not the %d index tests", ids.n, UB_NINDEX);
		for (size_t i = 0; i < ids.n && i < UB_NINDEX; i++) {
			const struct ub_test_info *t = ub_index_test(ids.v[i]);
			if (!t || seen[t - ub_tests]) {
				kf_fail(&l->c, e, "'%s' is not an index test, or named twice", ids.v[i]);
				return;
			}
			seen[t - ub_tests] = true;
			l->order[i] = (int)(t - ub_tests);
		}
	}
	l->m->runs = count(l, kf_need(&l->c, "runs"));
	l->m->sources = count(l, kf_need(&l->c, "sources"));
	double smt = 0;
	numbers(l, kf_need(&l->c, "smt"), 1, 1, false, &smt);
	if (smt < 0)
		kf_fail(&l->c, kf_get(l->c.s, "smt"), "below 0");
	l->m->smt = smt;
	double conc[UB_NINDEX];
	const struct kf_entry *e2 = kf_need(&l->c, "concurrency");
	numbers(l, e2, UB_NINDEX, 64, true, conc);
	for (int t = 0; t < UB_NINDEX && e2 && !l->c.error; t++) {
		if (conc[t] < 1 || conc[t] != floor(conc[t]))
			kf_fail(&l->c, e2, "'%g' is not a count of processes (1 to 64)", conc[t]);
		l->m->concurrency[t] = (unsigned)conc[t];
	}
}

static int name_index(const char *const *names, size_t n, const char *word)
{
	for (size_t i = 0; i < n; i++)
		if (streq(names[i], word))
			return (int)i;
	return -1;
}

static void read_core(struct load *l, const char *name)
{
	struct expect_model *m = l->m;
	if (expect_model_core(m, name)) {
		kf_fail(&l->c, NULL, "listed twice");
		return;
	}
	m->cores = xrealloc(m->cores, (m->ncores + 1) * sizeof(*m->cores));
	struct expect_core *c = &m->cores[m->ncores++];
	*c = (struct expect_core){ .name = xstrdup(name) };
	c->runs = count(l, kf_need(&l->c, "runs"));
	c->sources = count(l, kf_need(&l->c, "sources"));
	const struct kf_entry *e = kf_need(&l->c, "basis");
	int b = e ? name_index(basis_names, EB_HIDDEN, e->value) : 0;
	if (b < 0)
		kf_fail(&l->c, e, "'%s' is not runs, neighbours, group or all", e->value);
	c->basis = b < 0 ? EB_RUNS : (enum expect_basis)b;
	e = kf_get(l->c.s, "from");
	c->from = e ? xstrdup(e->value) : NULL;
	numbers(l, kf_need(&l->c, "clock"), 1, 10, false, &c->clock);
	double spread[2] = { 0, 0 };
	numbers(l, kf_need(&l->c, "clock_spread"), 2, 3, false, spread);
	c->clock_low = spread[0];
	c->clock_high = spread[1];
	if (!(c->clock > 0))
		kf_fail(&l->c, kf_get(l->c.s, "clock"), "not a clock");
	numbers(l, kf_need(&l->c, "level"), UB_NINDEX, 50, true, c->level);
	for (size_t i = 0; i < l->c.s->n; i++) {
		const char *k = l->c.s->e[i].key;
		if (!streq(k, "runs") && !streq(k, "sources") && !streq(k, "basis") && !streq(k, "from") &&
		    !streq(k, "clock") && !streq(k, "clock_spread") && !streq(k, "level"))
			kf_fail(&l->c, &l->c.s->e[i], "not a key of a [core] (runs, sources, basis, from, clock, clock_spread, level)");
	}
}

static void read_factor(struct load *l, const char *name)
{
	double *out = NULL;
	if (streq(name, "base-clock"))
		out = l->m->base;
	else if (streq(name, "word-32"))
		out = l->m->word32;
	else if (streq(name, "one-cpu"))
		out = l->m->one_cpu;
	else if (streq(name, "kernel-old"))
		out = l->m->kernel_old;
	else if (streq(name, "kernel-6"))
		out = l->m->kernel_6;
	else if (streq(name, "scaling"))
		out = l->m->scaling;
	else if (startswith(name, "virt.")) {
		int v = name_index(virt_names, EXPECT_NVIRT, name + 5);
		if (v >= 0)
			out = l->m->virt[v];
	}
	if (!out) {
		kf_fail(&l->c, NULL, "not a factor of the model (base-clock, word-32, one-cpu, kernel-old, kernel-6, "
			"scaling, virt.CLASS)");
		return;
	}
	numbers(l, kf_need(&l->c, "tests"), UB_NINDEX, 20, true, out);
}

static void read_spread(struct load *l, const char *name)
{
	_cleanup_strv_ struct strv w = {0};
	strv_split(name, " ", &w);
	int b = w.n == 2 ? name_index(basis_names, EXPECT_NBASIS, w.v[1]) : -1;
	if (b < 0 || (!streq(w.v[0], "1") && !streq(w.v[0], "n"))) {
		kf_fail(&l->c, NULL, "a spread is [spread 1|n runs|neighbours|group|all|hidden]");
		return;
	}
	struct expect_spread *s = &l->m->spread[b][streq(w.v[0], "n")];
	double lo[UB_NINDEX + 1], hi[UB_NINDEX + 1];
	s->residuals = count(l, kf_need(&l->c, "residuals"));
	numbers(l, kf_need(&l->c, "low"), UB_NINDEX + 1, 10, true, lo);
	numbers(l, kf_need(&l->c, "high"), UB_NINDEX + 1, 10, true, hi);
	for (size_t i = 0; i <= UB_NINDEX && !l->c.error; i++) {
		s->low[i] = lo[i];
		s->high[i] = hi[i];
		if (lo[i] > hi[i])
			kf_fail(&l->c, kf_get(l->c.s, "low"), "above high");
	}
	s->known = true;
}

int expect_model_parse(const char *text, size_t len, const char *path, struct expect_model *m, char **error)
{
	*m = (struct expect_model){ .path = xstrdup(path) };
	struct keyfile kf;
	int r = keyfile_parse(text, len, path, &kf, error);
	if (r < 0) {
		keyfile_free(&kf);
		return r;
	}
	struct load l = { .c.kf = &kf, .m = m };
	for (int i = 0; i < UB_NINDEX; i++)
		l.order[i] = i;
	if (!kf.n || !streq(kf.s[0].name, "model"))
		l.c.error = xasprintf("%s: the first section is not [model], not an expectation model", path);
	for (size_t i = 0; i < kf.n && !l.c.error; i++) {
		l.c.s = &kf.s[i];
		const char *n = l.c.s->name;
		if (i == 0)
			read_head(&l);
		else if (startswith(n, "core "))
			read_core(&l, n + 5);
		else if (startswith(n, "factor "))
			read_factor(&l, n + 7);
		else if (startswith(n, "spread "))
			read_spread(&l, n + 7);
		else
			kf_fail(&l.c, NULL, "a section is [core NAME], [factor NAME] or [spread COPIES BASIS]");
	}
	if (!l.c.error && (!m->ncores || !m->spread[EB_RUNS][0].known))
		l.c.error = xasprintf("%s: no [core] or no [spread 1 runs], not a fitted model", path);
	keyfile_free(&kf);
	*error = l.c.error;
	return l.c.error ? -EINVAL : 0;
}

int expect_model_load(const char *path, struct expect_model *m, char **error)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	*m = (struct expect_model){0};
	*error = NULL;
	int r = data_read(path, MODEL_MAX, &text, &len, error);
	if (r < 0) {
		if (!*error)
			*error = xasprintf("cannot read %s: %s", path, strerror(-r));
		return r;
	}
	return expect_model_parse(text, len, path, m, error);
}

void expect_model_free(struct expect_model *m)
{
	for (size_t i = 0; i < m->ncores; i++) {
		free(m->cores[i].name);
		free(m->cores[i].from);
	}
	free(m->cores);
	free(m->path);
	*m = (struct expect_model){0};
}

const struct expect_core *expect_model_core(const struct expect_model *m, const char *name)
{
	for (size_t i = 0; name && i < m->ncores; i++)
		if (streq(m->cores[i].name, name))
			return &m->cores[i];
	return NULL;
}

int expect_ref_load(struct expect_ref *ref, const char *catalogue, const char *model, char **error)
{
	*ref = (struct expect_ref){0};
	_cleanup_free_ char *cat_path = catalogue ? xstrdup(catalogue) : data_path("reference/cpus.ini");
	_cleanup_free_ char *model_path = model ? xstrdup(model) : data_path("reference/expect.ini");
	int r = cpu_catalogue_load(cat_path, &ref->cat, error);
	if (r == 0)
		r = expect_model_load(model_path, &ref->model, error);
	if (r < 0) {
		expect_ref_free(ref);
		return r;
	}
	ref->loaded = true;
	return 0;
}

void expect_ref_free(struct expect_ref *ref)
{
	cpu_catalogue_free(&ref->cat);
	expect_model_free(&ref->model);
	ref->loaded = false;
}

/* ---- the facts of a run ---- */

void expect_facts_init(struct expect_facts *f)
{
	*f = (struct expect_facts){ .virt = EV_UNKNOWN };
	cpu_facts_init(&f->cpu);
}

static int hex_of(const char *s, unsigned max)
{
	uint64_t v;
	return s && parse_u64_base(s, 0, &v) == 0 && v <= max ? (int)v : -1;
}

void expect_facts_env(struct expect_facts *f, const struct env_record *env)
{
	const struct env_cpu *cpu = &env->cpu;
	size_t n = 0;
	/* the fastest kind's model first (a big.LITTLE chip's big core) */
	for (size_t i = 0; i < cpu->kinds.n && n < CPU_FACTS_MAX_MODELS - 1; i++)
		if (is_true(cpu->kinds.v[i].fastest) && (cpu->kinds.v[i].core_type || cpu->kinds.v[i].model))
			f->cpu.models[n++] = cpu->kinds.v[i].core_type ?: cpu->kinds.v[i].model;
	if (cpu->model && n < CPU_FACTS_MAX_MODELS)
		f->cpu.models[n++] = cpu->model;
	for (size_t i = 0; i < env->unixbench.cpus.n && n < CPU_FACTS_MAX_MODELS && !cpu->model; i++)
		if (env->unixbench.cpus.v[i].model) {
			f->cpu.models[n++] = env->unixbench.cpus.v[i].model;
			break;
		}
	f->cpu.arch = cpu->arch ?: env->host.arch ?: env->unixbench.machine;
	f->kernel = env->host.kernel_release;
	const struct env_midr *midr = &cpu->midr;
	for (size_t i = 0; i < cpu->kinds.n && !midr->json; i++)
		if (is_true(cpu->kinds.v[i].fastest))
			midr = &cpu->kinds.v[i].midr;
	if (midr->json) {
		f->cpu.midr_implementer = hex_of(midr->implementer, 0xff);
		f->cpu.midr_part = hex_of(midr->part, 0xfff);
		if (f->cpu.midr_implementer < 0 || f->cpu.midr_part < 0)
			f->cpu.midr_implementer = f->cpu.midr_part = -1;
	}
	if (cpu->x86.json && cpu->vendor && int_or(cpu->x86.family, -1) >= 0 && int_or(cpu->x86.model, -1) >= 0) {
		f->cpu.x86_vendor = cpu->vendor;
		f->cpu.x86_family = (int)int_or(cpu->x86.family, -1);
		f->cpu.x86_model = (int)int_or(cpu->x86.model, -1);
	}
	f->cpu.bogomips = num_or(cpu->bogomips, NAN);
	/* the hardware's ceiling (cpuinfo_max_freq), not a governor's cap on it */
	for (size_t i = 0; i < cpu->kinds.n; i++)
		if (is_true(cpu->kinds.v[i].fastest) && int_or(cpu->kinds.v[i].max_khz, 0) > 0) {
			f->cpu.clock_mhz = (double)int_or(cpu->kinds.v[i].max_khz, 0) / 1000;
			f->cpu.clock_said_by = "cpufreq";
		}
	for (size_t i = 0; i < cpu->freq.policies.n && isnan(f->cpu.clock_mhz); i++)
		if (int_or(cpu->freq.policies.v[i].cpuinfo_max_khz, 0) > 0) {
			f->cpu.clock_mhz = (double)int_or(cpu->freq.policies.v[i].cpuinfo_max_khz, 0) / 1000;
			f->cpu.clock_said_by = "cpufreq";
		}
	int64_t threads = int_or(cpu->threads, 0), cores = int_or(cpu->cores, 0);
	if (threads > 0 && threads < 100000)
		f->cpus = (unsigned)threads;
	else if (int_or(env->unixbench.cpus_in_system, 0) > 0 && int_or(env->unixbench.cpus_in_system, 0) < 100000)
		f->cpus = (unsigned)int_or(env->unixbench.cpus_in_system, 0);
	if (cores > 0 && cores <= threads)
		f->cores = (unsigned)cores;
	const char *role = env->virt.role, *hv = env->virt.hypervisor, *container = env->virt.container;
	if (streq_ptr(hv, "qemu-tcg"))
		f->virt = EV_EMULATED;
	else if (streq_ptr(role, "guest"))
		f->virt = expect_virt_class(hv) == EV_UNKNOWN ? EV_VM : expect_virt_class(hv);
	else if (container && !streq(container, "none"))
		f->virt = EV_CONTAINER;
	else if (streq_ptr(role, "none") || streq_ptr(role, "host"))
		f->virt = EV_NONE;
}

/* ---- the expectation ---- */

/* The level of test t of the placed CPU: a hidden model's candidates pooled
 * (their mean; *extra half their range, for the interval). */
static double level_of(const struct expect_model *m, const struct cpu_place *p, const struct expect_core *core, int t,
		       double *extra)
{
	*extra = 0;
	if (!p->ncandidates)
		return core->level[t];
	double sum = 0, lo = INFINITY, hi = -INFINITY;
	unsigned n = 0;
	for (size_t i = 0; i < p->ncandidates; i++) {
		const struct expect_core *c = p->candidates[i] ? expect_model_core(m, p->candidates[i]->name) : NULL;
		if (!c)
			continue;
		sum += c->level[t];
		lo = fmin(lo, c->level[t]);
		hi = fmax(hi, c->level[t]);
		n++;
	}
	if (!n)
		return core->level[t];
	*extra = (hi - lo) / 2;
	return sum / n;
}

/* The kernel's era: -1 before 4.15 (no page-table isolation), 1 from 6.0 on, 0 between or not known. */
static int kernel_era(const char *release)
{
	unsigned major, minor;
	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2)
		return 0;
	return major < 4 || (major == 4 && minor < 15) ? -1 : major >= 6 ? 1 : 0;
}

/* A 32-bit userland (armv7l, i686) on a core that runs 64-bit code. */
static bool word32_on_64(const char *arch, const struct cat_core *core)
{
	if (!arch || !(startswith(arch, "arm") || (arch[0] == 'i' && strstr(arch, "86"))))
		return false;
	return strv_contains(&core->arch, "aarch64") || strv_contains(&core->arch, "x86_64");
}

/* How many times one copy's speed the copies reach on test t. */
static double capacity(const struct expect_model *m, const struct expect_facts *f, const struct cpu_place *p,
		       const struct expect_core *core, double clock, int t)
{
	unsigned n = f->copies * m->concurrency[t];
	if (f->cpus && f->cpus < n)
		n = f->cpus;
	const struct cat_cpu *chip = p->cpu;
	if (n <= 1)
		return 1;
	if (chip && chip->little && chip->big_cores) {
		const struct expect_core *little = expect_model_core(m, chip->little->name);
		double ratio = little ? exp(little->level[t] - core->level[t]) * chip->little_clock / clock : 0.5;
		unsigned big = n < chip->big_cores ? n : chip->big_cores;
		unsigned rest = n - big < chip->little_cores ? n - big : chip->little_cores;
		return big + rest * fmin(ratio, 1);
	}
	if (f->cores && f->cpus > f->cores) {
		unsigned whole = n < f->cores ? n : f->cores;
		return whole + m->smt * (n - whole);
	}
	return n;
}

static void describe(const struct expect_facts *f, struct expectation *e)
{
	const struct cpu_place *p = &e->place;
	const struct expect_core *c = e->core;
	if (p->cpu)
		snprintf(e->name, sizeof(e->name), "%s", p->cpu->name);
	else if (p->hidden && !p->ncandidates)
		snprintf(e->name, sizeof(e->name), "%s (%s by its clock)", p->hidden->name, p->core->name);
	else if (p->hidden)
		snprintf(e->name, sizeof(e->name), "%s", p->hidden->name);
	else
		snprintf(e->name, sizeof(e->name), "%s", p->core->name);

	char clock[96];
	if (e->clock_guessed)
		snprintf(clock, sizeof(clock), "at %s GHz, the median clock of its runs (the run's clock is not known)",
			 e->clock_text);
	else
		snprintf(clock, sizeof(clock), "scaled to %s GHz (%s)", e->clock_text, p->clock_source);
	char kind[96] = "";
	if (f->virt == EV_UNKNOWN)
		snprintf(kind, sizeof(kind), "; not known whether virtual");
	if (p->ncandidates) {
		struct buf b = {0};
		for (size_t i = 0; i < p->ncandidates; i++)
			buf_printf(&b, "%s%s", i ? ", " : "", p->candidates[i]->name);
		_cleanup_free_ char *names = buf_steal(&b);
		snprintf(e->basis_text, sizeof(e->basis_text), "the model string hides the model: from the runs of "
			 "%s, %s%s, wider interval", names, clock, kind);
	} else if (c->basis == EB_RUNS)
		snprintf(e->basis_text, sizeof(e->basis_text), "from %u run%s of %s (%u source%s), %s%s", c->runs,
			 c->runs == 1 ? "" : "s", c->name, c->sources, c->sources == 1 ? "" : "s", clock, kind);
	else
		snprintf(e->basis_text, sizeof(e->basis_text), "no published run of %s: from %u run%s of its %s "
			 "%s (%u source%s), %s%s, wider interval", c->name, c->runs, c->runs == 1 ? "" : "s",
			 c->basis == EB_NEIGHBOURS ? "neighbours" : c->basis == EB_GROUP ? "kind of core," : "peers,",
			 c->from ?: "", c->sources, c->sources == 1 ? "" : "s", clock, kind);
}

bool expect_run(const struct expect_ref *ref, const struct expect_facts *f, struct expectation *e)
{
	const struct expect_model *m = &ref->model;
	*e = (struct expectation){ .score = NAN, .score_low = NAN, .score_high = NAN };
	for (int t = 0; t < UB_NINDEX; t++)
		e->index[t] = e->low[t] = e->high[t] = NAN;
	if (!ref->loaded) {
		snprintf(e->why, sizeof(e->why), "no expectation model");
		return false;
	}
	if (!f->copies) {
		snprintf(e->why, sizeof(e->why), "the copies of the run are not known");
		return false;
	}
	if (!cpu_place(&ref->cat, &f->cpu, &e->place)) {
		snprintf(e->why, sizeof(e->why), "the CPU is not placed: %s", e->place.by);
		return false;
	}
	const struct cpu_place *p = &e->place;
	e->core = expect_model_core(m, p->core->name);
	if (!e->core) {
		snprintf(e->why, sizeof(e->why), "the model has no level for %s", p->core->name);
		return false;
	}
	e->placed = true;
	e->basis = p->ncandidates ? EB_HIDDEN : e->core->basis;
	e->runs = e->core->runs;
	e->sources = e->core->sources;
	e->clock = p->clock_ghz;
	if (!(e->clock > 0)) {
		e->clock = e->core->clock;
		e->clock_guessed = true;
	}
	/* one decimal where that says it all (2.0), else two (2.67) */
	snprintf(e->clock_text, sizeof(e->clock_text), fabs(e->clock * 10 - round(e->clock * 10)) < 0.05 ? "%.1f" : "%.2f",
		 e->clock);
	bool many = f->copies > 1;
	const struct expect_spread *s = &m->spread[e->basis][many];
	if (!s->known)
		s = m->spread[EB_RUNS][many].known ? &m->spread[EB_RUNS][many] : &m->spread[EB_RUNS][0];
	double widen_lo = e->clock_guessed ? e->core->clock_low : 0, widen_hi = e->clock_guessed ? e->core->clock_high : 0;
	double sum = 0, lo = 0, hi = 0;
	enum expect_virt virt = f->virt == EV_EMULATED ? EV_VM : f->virt;
	bool word32 = word32_on_64(f->cpu.arch, p->core);
	int era = kernel_era(f->kernel);
	for (int t = 0; t < UB_NINDEX; t++) {
		double extra;
		double v = level_of(m, p, e->core, t, &extra) + log(e->clock) + m->virt[virt][t];
		if (p->clock_base && !e->clock_guessed)
			v += m->base[t];
		if (word32)
			v += m->word32[t];
		if (f->cpus == 1)
			v += m->one_cpu[t];
		v += era < 0 ? m->kernel_old[t] : era > 0 ? m->kernel_6[t] : 0;
		double cap = capacity(m, f, p, e->core, e->clock, t);
		if (t == 0)
			e->capacity = cap;
		v += m->scaling[t] * log(cap);
		e->index[t] = exp(v);
		e->low[t] = exp(v + s->low[t] + widen_lo - extra);
		e->high[t] = exp(v + s->high[t] + widen_hi + extra);
		sum += v;
		lo = fmin(lo, -extra);
		hi = fmax(hi, extra);
	}
	e->score = exp(sum / UB_NINDEX);
	e->score_low = e->score * exp(s->low[UB_NINDEX] + widen_lo + lo);
	e->score_high = e->score * exp(s->high[UB_NINDEX] + widen_hi + hi);
	describe(f, e);
	return true;
}

double expect_score_of(const struct expectation *e, unsigned mask, double *low, double *high)
{
	double sum = 0;
	unsigned n = 0;
	for (int t = 0; t < UB_NINDEX; t++)
		if ((mask & (1u << t)) && e->index[t] > 0) {
			sum += log(e->index[t]);
			n++;
		}
	if (!n) {
		*low = *high = NAN;
		return NAN;
	}
	double score = exp(sum / n);
	*low = score * e->score_low / e->score;
	*high = score * e->score_high / e->score;
	return score;
}

const char *expect_hypervisor_word(const char *hv)
{
	static const char *const names[][2] = { { "kvm", "KVM" }, { "xen", "Xen" }, { "vmware", "VMware" },
						{ "hyper-v", "Hyper-V" }, { "microsoft", "Hyper-V" },
						{ "virtualbox", "VirtualBox" }, { "qemu", "QEMU" }, { "bhyve", "bhyve" } };
	for (size_t i = 0; hv && i < ARRAY_SIZE(names); i++)
		if (streq(hv, names[i][0]))
			return names[i][1];
	return NULL;
}

const char *expect_verdict(double score, double low, double high)
{
	return score < low ? "below" : score > high ? "above" : "within";
}

char *expect_level_text(const struct expectation *e, double score, bool partial, double want, double low,
			double high, unsigned copies, unsigned cpus, bool guest, const char *virt)
{
	char w[32], l[32], h[32];
	expect_number_text(want, w, sizeof(w));
	expect_number_text(low, l, sizeof(l));
	expect_number_text(high, h, sizeof(h));
	struct buf b = {0};
	buf_printf(&b, "Score %.1f%s is %.0f %% of the %s (%s-%s) expected of %u %s on", score, partial ? " (partial)" : "",
		   score / want * 100, w, l, h, copies, copies == 1 ? "copy" : "copies");
	if (cpus)
		buf_printf(&b, " %u %s%s of", cpus, guest ? "vCPU" : "CPU", cpus == 1 ? "" : "s");
	buf_printf(&b, " %s %s at %s%s GHz", expect_article(e->name), e->name, e->clock_guessed ? "about " : "",
		   e->clock_text);
	if (virt)
		buf_printf(&b, " (%s)", virt);
	const char *v = expect_verdict(score, low, high);
	buf_puts(&b, streq(v, "within")	 ? ": within its interval"
		     : streq(v, "below") ? ": below its interval"
					 : ": above its interval, at or beyond what the published runs reach");
	return buf_steal(&b);
}
