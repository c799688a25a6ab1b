/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about the CPU: governor, boost, mitigations, kinds of core, isolated CPUs. */
#include "findings.h"

#define GOVERNOR_FIX "ubtune apply generic.profile, or as root: cpupower frequency-set -g performance"

/* Governors with a finding id of their own; any other non-performance one is cpu.governor.other. */
static const char *const named_governors[] = { "powersave", "ondemand", "schedutil", "conservative", "userspace" };

static bool governor_named(const char *g)
{
	for (size_t i = 0; i < ARRAY_SIZE(named_governors); i++)
		if (streq(g, named_governors[i]))
			return true;
	return false;
}

/*
 * Policies whose governor is `name` (NULL: a governor other than
 * performance and the named ones). Evidence: the first policy's file and
 * how many more share it.
 */
static bool governor_match(const struct env_record *env, struct finding *f, const char *name)
{
	size_t n = env->cpu.freq.policies.n, hits = 0;
	const struct env_policy *first = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct env_policy *p = &env->cpu.freq.policies.v[i];
		const char *g = p->governor;
		if (!g || streq(g, "performance") || (name ? !streq(g, name) : governor_named(g)))
			continue;
		if (!first)
			first = p;
		hits++;
	}
	if (!first)
		return false;
	const char *path = first->path, *governor = first->governor;
	if (hits > 1)
		finding_set(&f->evidence, "%s/scaling_governor = %s (and %zu more of %zu policies)",
			    path ? path : "cpufreq policy", governor, hits - 1, n);
	else
		finding_set(&f->evidence, "%s/scaling_governor = %s", path ? path : "cpufreq policy", governor);
	if (!name)
		finding_set(&f->message, "The CPU frequency governor %s is not performance: the clock follows its "
					 "own policy, so scores depend on how fast it ramps up and vary from run to run.",
			    governor);
	return true;
}

static bool governor_powersave(const struct env_record *env, struct finding *f)
{
	if (!governor_match(env, f, "powersave"))
		return false;
	/* The pstate drivers' powersave is their dynamic governor, not a fixed low clock. */
	const char *driver = env->cpu.freq.driver;
	if (streq_ptr(driver, "intel_pstate") || streq_ptr(driver, "amd-pstate-epp"))
		finding_set(&f->message, "%s's powersave is its dynamic governor (the clock follows load and the "
					 "energy preference), not a fixed low clock; it still ramps up later and settles "
					 "lower than performance, so short tests score lower and vary more.",
			    driver);
	return true;
}

static bool governor_ondemand(const struct env_record *env, struct finding *f)
{
	return governor_match(env, f, "ondemand");
}

static bool governor_schedutil(const struct env_record *env, struct finding *f)
{
	return governor_match(env, f, "schedutil");
}

static bool governor_conservative(const struct env_record *env, struct finding *f)
{
	return governor_match(env, f, "conservative");
}

static bool governor_userspace(const struct env_record *env, struct finding *f)
{
	return governor_match(env, f, "userspace");
}

static bool governor_other(const struct env_record *env, struct finding *f)
{
	return governor_match(env, f, NULL);
}

static bool boost_off(const struct env_record *env, struct finding *f)
{
	const char *source = env->cpu.freq.boost_source;
	if (!is_false(env->cpu.freq.boost) || !source)
		return false;
	/* nothing to switch on when the CPUs cannot exceed their nominal clock */
	if (is_false(env->cpu.freq.boost_available))
		return false;
	bool inverted = endswith(source, "/no_turbo");
	finding_set(&f->evidence, "%s = %d", source, inverted ? 1 : 0);
	finding_set(&f->fix, "as root: echo %d > %s", inverted ? 0 : 1, source);
	return true;
}

/* A policy whose scaling_max_freq is more than 1 % below its hardware maximum. */
static bool max_freq_capped(const struct env_record *env, struct finding *f)
{
	size_t n = env->cpu.freq.policies.n, hits = 0;
	const struct env_policy *first = NULL;

	/* boost switched off lowers the limit too: cpu.boost-off says so */
	if (is_false(env->cpu.freq.boost))
		return false;
	for (size_t i = 0; i < n; i++) {
		const struct env_policy *p = &env->cpu.freq.policies.v[i];
		/* in doubles: a record's numbers may be anything */
		if (!p->max_khz.known || !p->cpuinfo_max_khz.known ||
		    (double)p->max_khz.v * 100 >= (double)p->cpuinfo_max_khz.v * 99)
			continue;
		if (!first)
			first = p;
		hits++;
	}
	if (!first)
		return false;
	int64_t max = first->max_khz.v, hw = first->cpuinfo_max_khz.v;
	const char *path = first->path ?: "cpufreq policy";
	finding_set(&f->evidence, "%s/scaling_max_freq = %lld, cpuinfo_max_freq = %lld%s", path, (long long)max,
		    (long long)hw, hits > 1 ? " (and more policies)" : "");
	finding_set(&f->fix, "find what lowered it (thermal or power daemon, power profile); as root: cat "
			     "%s/cpuinfo_max_freq > %s/scaling_max_freq",
		    path, path);
	return true;
}

static bool mitigations(const struct env_record *env, struct finding *f)
{
	json_object *v = env->cpu.vulnerabilities;
	struct buf names = {0};
	size_t n = 0;
	if (!v || !json_object_is_type(v, json_type_object))
		return false;
	json_object_object_foreach(v, name, line)
	{
		const char *s = json_object_get_string(line);
		if (!s || !startswith(s, "Mitigation"))
			continue;
		buf_printf(&names, "%s%s", n ? ", " : "", name);
		n++;
	}
	if (n)
		finding_set(&f->evidence, "/sys/devices/system/cpu/vulnerabilities: %s say Mitigation", names.s);
	buf_free(&names);
	return n > 0;
}

static bool isolated(const struct env_record *env, struct finding *f)
{
	const char *iso = env->cpu.isolated, *nohz = env->cpu.nohz_full;
	const char *source = env->cpu.isolation_source ?: "kernel command line";
	bool has_iso = iso && *iso, has_nohz = nohz && *nohz;
	if (!has_iso && !has_nohz)
		return false;
	finding_set(&f->evidence, "%s: isolcpus %s, nohz_full %s", source, has_iso ? iso : iso ? "none" : "unknown",
		    has_nohz ? nohz : nohz ? "none" : "unknown");
	if (!has_iso)
		finding_set(&f->message, "CPUs %s run without the periodic tick when they have one task "
					 "(nohz_full=): copies on them are timed differently from the other CPUs, so "
					 "results do not compare with machines booted without it.",
			    nohz);
	return true;
}

/* The kind's name in a finding: its core type on Intel, else its model. */
static const char *kind_name(const struct env_cpu_kind *k)
{
	return streq_ptr(k->core_type, "performance") ? "P-cores"
	       : streq_ptr(k->core_type, "efficiency") ? "E-cores"
							: k->model ?: "CPUs";
}

static const char *cpus_word(const char *list)
{
	return list && !strpbrk(list, "-,") ? "CPU" : "CPUs";
}

static bool several_kinds(const struct env_record *env, struct finding *f)
{
	const struct env_cpu_kind *fast = NULL;
	struct buf b = {0};
	if (env->cpu.kinds.n < 2)
		return false;
	for (size_t i = 0; i < env->cpu.kinds.n; i++) {
		const struct env_cpu_kind *k = &env->cpu.kinds.v[i];
		if (is_true(k->fastest))
			fast = k;
		buf_printf(&b, "%s%s (%s %s%s)", b.len ? ", " : "cpu.kinds: ", kind_name(k), cpus_word(k->cpus),
			   k->cpus ?: "?", is_true(k->fastest) ? ", fastest" : "");
	}
	f->evidence = buf_steal(&b);
	if (fast && fast->cpus)
		finding_set(&f->fix, "`ubtune bench --pin-single fastest` (or `[bench] pin-single = fastest` in a profile) "
				     "runs the 1-copy pass on %s %s and records it; compare 1-copy scores only with runs "
				     "pinned alike",
			    cpus_word(fast->cpus), fast->cpus);
	return true;
}

const struct rule cpu_rules[] = {
	{
		.id = "cpu.governor.powersave",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "The powersave governor holds the CPUs at their lowest clock: every test scores far "
			   "below what the machine can do.",
		.fix = GOVERNOR_FIX,
		.check = governor_powersave,
	},
	{
		.id = "cpu.governor.ondemand",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "The ondemand governor raises the clock only after it has seen load for a sampling "
			   "period: short tests start slow and scores vary from run to run.",
		.fix = GOVERNOR_FIX,
		.check = governor_ondemand,
	},
	{
		.id = "cpu.governor.schedutil",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "The schedutil governor follows the scheduler's load estimate: tests that sleep and "
			   "wake a lot (pipes, context switches, process creation) run below the top clock and "
			   "vary from run to run.",
		.fix = GOVERNOR_FIX,
		.check = governor_schedutil,
	},
	{
		.id = "cpu.governor.conservative",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "The conservative governor raises the clock in small steps: much of a short test runs "
			   "below the top clock.",
		.fix = GOVERNOR_FIX,
		.check = governor_conservative,
	},
	{
		.id = "cpu.governor.userspace",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "The userspace governor holds whatever clock a program set: scores depend on that "
			   "setting, not on the machine.",
		.fix = GOVERNOR_FIX,
		.check = governor_userspace,
	},
	{
		.id = "cpu.governor.other",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "The CPU frequency governor is not performance.",
		.fix = GOVERNOR_FIX,
		.check = governor_other,
	},
	{
		.id = "cpu.boost-off",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "Boost (turbo) is switched off: the CPUs stay at or below their nominal clock, so scores "
			   "are lower than published runs with boost on. Keep it off only to compare with runs "
			   "that had it off too.",
		.check = boost_off,
	},
	{
		.id = "cpu.max-freq-capped",
		.area = "cpu",
		.severity = SEV_WARN,
		.message = "The frequency limit (scaling_max_freq) is below what the CPUs can reach: every test "
			   "runs at the lower clock, and the scores describe the limit, not the machine.",
		.check = max_freq_capped,
	},
	{
		.id = "cpu.mitigations",
		.area = "cpu",
		.severity = SEV_INFO,
		.message = "The kernel mitigates CPU vulnerabilities: every system call, context switch and page "
			   "fault costs more, so System Call Overhead, Pipe Throughput, Context Switching, Process "
			   "Creation and Shell Scripts score lower than on a kernel without them. Compare only "
			   "with runs under the same kernel and mitigations.",
		.fix = "nothing to fix for a fair comparison; to measure the cost, boot a test machine with "
		       "mitigations=off (it is then unprotected)",
		.check = mitigations,
	},
	{
		.id = "cpu.several-kinds",
		.area = "cpu",
		.severity = SEV_INFO,
		.message = "The CPUs are of several kinds (big.LITTLE, P- and E-cores): one copy scores what the core "
			   "it lands on gives, which can change from run to run, and N copies reach less than N times "
			   "one copy on the fastest kind.",
		.fix = "`ubtune bench --pin-single fastest` runs the 1-copy pass on the fastest kind and records it",
		.check = several_kinds,
	},
	{
		.id = "cpu.isolated",
		.area = "cpu",
		.severity = SEV_INFO,
		.message = "Some CPUs are isolated from the scheduler (isolcpus=): UnixBench starts one copy per "
			   "online CPU without pinning them, so the copies crowd onto the other CPUs and multi-copy "
			   "scores understate the machine.",
		.fix = "remove isolcpus=/nohz_full= from the kernel command line, or run one copy per CPU that "
		       "is not isolated (ubtune bench --copies N)",
		.check = isolated,
	},
	{ 0 },
};
