/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a run's header says about the machine when Run started: UnixBench
 * prints the uptime line (load average, runlevel), the kernel, one line per
 * CPU (model, BogoMIPS, flags) and "N CPUs in system". An imported log has
 * nothing else to go on; a probe record has the same facts in its fields.
 */
#include <ctype.h>

#include "diagnose.h"

/* A hyperthread adds this share of a core to Dhrystone and Whetstone: the
 * two threads of a core share its execution units. */
#define SMT_GAIN 0.25
/* A small core of a hybrid CPU against a big one on Dhrystone and
 * Whetstone: Cortex-A55 at 1.8 GHz against Cortex-A76 at 2.4 GHz (RK3588),
 * an Intel E-core against a P-core at their clocks: about half. */
#define LITTLE_SPEED 0.45

/* token appears in s as a word of a kernel release: "+debug", "-debug", ".debug" */
static bool has_token(const char *s, const char *token)
{
	size_t n = strlen(token);
	for (const char *p = s ? strcasestr(s, token) : NULL; p; p = strcasestr(p + 1, token)) {
		bool start = p == s || !isalnum((unsigned char)p[-1]);
		bool end = !isalpha((unsigned char)p[n]);
		if (start && end)
			return true;
	}
	return false;
}

static bool debug_kernel(const char *release)
{
	return has_token(release, "debug") || has_token(release, "dbg") || has_token(release, "kasan");
}

/* "6.1.0-rt-amd64", "5.15.65-rt49", or PREEMPT_RT in the version */
static bool rt_kernel(const char *release, const char *version)
{
	for (const char *p = release ? strstr(release, "rt") : NULL; p; p = strstr(p + 1, "rt")) {
		bool start = p > release && (p[-1] == '-' || p[-1] == '.' || p[-1] == '+');
		bool end = p[2] == '\0' || p[2] == '-' || p[2] == '.' || isdigit((unsigned char)p[2]);
		if (start && end)
			return true;
	}
	return version && (strstr(version, "PREEMPT_RT") || strstr(version, "PREEMPT RT"));
}

/* The small core of two kinds: Cortex-A5x/A3x against A7x/X, an E-core. */
static bool little_kind(const char *model)
{
	return model && (strstr(model, "A55") || strstr(model, "A53") || strstr(model, "A35") || strstr(model, "A510") ||
			 strstr(model, "A520") || strcasestr(model, "efficien") || strstr(model, "E-core"));
}

/* Counts the CPUs of each of two kinds (models); false with one kind or more than two. */
static bool two_kinds(const char *const *models, size_t n, struct diag_header *h)
{
	const char *a = NULL, *b = NULL;
	unsigned na = 0, nb = 0;
	for (size_t i = 0; i < n; i++) {
		if (!models[i])
			return false;
		if (!a || streq(models[i], a)) {
			a = models[i];
			na++;
		} else if (!b || streq(models[i], b)) {
			b = models[i];
			nb++;
		} else
			return false;
	}
	if (!b)
		return false;
	bool a_little = little_kind(a), b_little = little_kind(b);
	if (a_little == b_little)
		return false; /* two kinds, but not which is the fast one */
	h->big = a_little ? nb : na;
	h->little = a_little ? na : nb;
	h->big_model = a_little ? b : a;
	h->little_model = a_little ? a : b;
	return true;
}

/* The probe's cpu.kinds: [{"model", "cpus": "0-3"}, ...] */
static void probe_kinds(const struct env_record *env, struct diag_header *h)
{
	if (env->cpu.kinds.n != 2)
		return;
	const char *models[2];
	unsigned counts[2];
	for (size_t i = 0; i < 2; i++) {
		const struct env_cpu_kind *k = &env->cpu.kinds.v[i];
		models[i] = k->model;
		counts[i] = 0;
		const char *list = k->cpus;
		unsigned lo, hi;
		for (const char *p = list; p && *p;) {
			int used = 0;
			if (sscanf(p, "%u-%u%n", &lo, &hi, &used) == 2 && hi >= lo)
				counts[i] += hi - lo + 1;
			else if (sscanf(p, "%u%n", &lo, &used) == 1)
				counts[i]++;
			else
				break;
			p += used;
			p += *p == ',';
		}
	}
	if (!models[0] || !models[1] || little_kind(models[0]) == little_kind(models[1]))
		return;
	size_t big = little_kind(models[0]) ? 1 : 0;
	h->big = counts[big];
	h->little = counts[!big];
	h->big_model = models[big];
	h->little_model = models[!big];
}

static bool x86(const struct diag_case *c)
{
	const char *arch = c->arch;
	return arch ? startswith(arch, "x86") || streq(arch, "amd64") || (arch[0] == 'i' && strstr(arch, "86"))
		    : c->cpu_model && (strstr(c->cpu_model, "Intel") || strstr(c->cpu_model, "AMD"));
}

/* UnixBench's CPU lines: {"model", "bogomips", "flags"} per logical CPU. */
static void cpu_lines(const struct diag_case *c, const struct env_record *env, struct diag_header *h)
{
	size_t n = env->unixbench.cpus.n;
	if (!n)
		return;
	if (!h->threads)
		h->threads = (unsigned)n;
	const char *models[64];
	size_t m = n < ARRAY_SIZE(models) ? n : ARRAY_SIZE(models);
	bool ht = true;
	for (size_t i = 0; i < n; i++) {
		const struct env_unixbench_cpu *cpu = &env->unixbench.cpus.v[i];
		if (i < m)
			models[i] = cpu->model;
		ht &= strstr(cpu->flags ?: "", "Hyper-Threading") != NULL;
	}
	if (!h->big && n <= ARRAY_SIZE(models))
		two_kinds(models, m, h);
	/* every CPU line flags Hyper-Threading: two threads per core (a cloud
	 * vCPU is one too); an odd count cannot be pairs */
	if (!h->cores && x86(c) && ht && n >= 2 && n % 2 == 0)
		h->cores = (unsigned)n / 2;
}

void diag_case_header(struct diag_case *c)
{
	struct diag_header *h = &c->hdr;
	*h = (struct diag_header){ .load1 = NAN, .bogomips_mhz = NAN };
	const struct env_record *env = diag_env(c);
	if (env->host.load_avg.n && num_or(env->host.load_avg.v[0], -1) >= 0)
		h->load1 = env->host.load_avg.v[0].v;
	h->kernel = diag_env_str(c, host.kernel_release);
	h->kernel_version = diag_env_str(c, host.kernel_version);
	h->debug_kernel = debug_kernel(h->kernel);
	h->rt_kernel = rt_kernel(h->kernel, h->kernel_version);

	h->cpus_said = env->unixbench.cpus_in_system.known;
	if (int_or(env->unixbench.cpus_in_system, -1) == 0)
		h->cpus_uncounted = true;
	for (size_t i = 0; i < c->r.runs.n; i++) {
		h->cpus_said |= c->r.runs.v[i].cpus_in_system.known;
		if (int_or(c->r.runs.v[i].cpus_in_system, -1) == 0)
			h->cpus_uncounted = true;
	}

	h->runlevel = diag_env_str(c, unixbench.runlevel);
	h->graphical = streq_ptr(h->runlevel, "5") || diag_finding(c, "services.graphical-target") != NULL;

	int64_t v = int_or(env->cpu.threads, 0);
	if (v > 0 && v < 100000)
		h->threads = (unsigned)v;
	v = int_or(env->cpu.cores, 0);
	if (v > 0 && (unsigned)v < h->threads)
		h->cores = (unsigned)v;
	probe_kinds(env, h);
	cpu_lines(c, env, h);

	double bogo = num_or(env->cpu.bogomips, 0);
	if (x86(c) && bogo > 100)
		h->bogomips_mhz = bogo / 2;
}

double diag_capacity(const struct diag_case *c, const struct diag_run *r)
{
	const struct diag_header *h = &c->hdr;
	double n = diag_parallel(c, r);
	if (h->big && h->little && h->big + h->little >= n)
		return n <= h->big ? n : h->big + (n - h->big) * LITTLE_SPEED;
	if (h->cores && h->threads > h->cores && n > h->cores)
		return h->cores + (fmin(n, h->threads) - h->cores) * SMT_GAIN;
	return n;
}

void diag_cpus_text(const struct diag_case *c, const struct diag_run *r, char *buf, size_t size)
{
	const struct diag_header *h = &c->hdr;
	unsigned n = diag_parallel(c, r);
	if (h->big && h->little && h->big + h->little >= n && n > h->big)
		snprintf(buf, size, "%u %s + %u %s", h->big, h->big_model, n - h->big, h->little_model);
	else if (h->cores && h->threads > h->cores && n > h->cores)
		snprintf(buf, size, "%u threads on %u cores", n < h->threads ? n : h->threads, h->cores);
	else
		snprintf(buf, size, "%u %s", n, n == 1 ? "CPU" : "CPUs");
}
