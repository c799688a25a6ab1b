/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a run's header says about the machine when Run started: UnixBench
 * prints the uptime line (load average, runlevel), the kernel, one line per
 * CPU (model, BogoMIPS, flags) and "N CPUs in system". An imported log has
 * nothing else to go on; a probe record has the same facts in its fields.
 */
#include <ctype.h>

#include "diagnose.h"

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
	bool ht = true;
	for (size_t i = 0; i < n; i++)
		ht &= strstr(env->unixbench.cpus.v[i].flags ?: "", "Hyper-Threading") != NULL;
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

	/* `who -r` prints only a date where the init system keeps no runlevel
	 * ("runlevel 2023-05-10") */
	const char *rl = diag_env_str(c, unixbench.runlevel);
	h->runlevel = rl && strlen(rl) == 1 && strchr("0123456Ss", rl[0]) ? rl : NULL;
	h->graphical = streq_ptr(h->runlevel, "5") || diag_finding(c, "services.graphical-target") != NULL;

	int64_t v = int_or(env->cpu.threads, 0);
	if (v > 0 && v < 100000)
		h->threads = (unsigned)v;
	v = int_or(env->cpu.cores, 0);
	if (v > 0 && (unsigned)v < h->threads)
		h->cores = (unsigned)v;
	cpu_lines(c, env, h);

	double bogo = num_or(env->cpu.bogomips, 0);
	if (x86(c) && bogo > 100)
		h->bogomips_mhz = bogo / 2;
}
