/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU: model, kinds, topology, BogoMIPS, frequency, isolation, vulnerabilities. */
#include <ctype.h>
#include <errno.h>

#include "cpu.h"
#include "lib/hw.h"

/* A set of CPUs of one kind: same MIDR on ARM, same model name elsewhere. */
struct kind {
	struct midr midr;
	char *model;
	char *vendor;
	struct cpuset cpus;
};

struct kinds {
	struct kind *v;
	size_t n;
};

static void kinds_free(struct kinds *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].model);
		free(k->v[i].vendor);
		cpuset_free(&k->v[i].cpus);
	}
	free(k->v);
	*k = (struct kinds){0};
}

static bool midr_equal(const struct midr *a, const struct midr *b)
{
	return a->implementer == b->implementer && a->part == b->part && a->variant == b->variant &&
	       a->revision == b->revision;
}

/* Adds CPU n to its kind (created on first sight, in CPU order). */
static void kinds_add(struct kinds *k, size_t n, const struct midr *m, const char *model, const char *vendor,
		      bool *known)
{
	for (size_t i = 0; i < k->n; i++) {
		struct kind *x = &k->v[i];
		if (midr_valid(m) ? midr_equal(&x->midr, m) : streq_ptr(x->model, model)) {
			cpuset_set(&x->cpus, n);
			return;
		}
	}
	k->v = xrealloc(k->v, (k->n + 1) * sizeof(*k->v));
	struct kind *x = &k->v[k->n++];
	*x = (struct kind){ .midr = *m };
	if (midr_valid(m)) {
		x->model = arm_model_name(m, known);
		const char *v = arm_implementer_name(m->implementer);
		x->vendor = v ? xstrdup(v) : xasprintf("0x%02x", (unsigned)m->implementer);
	} else {
		x->model = xstrdup_or_null(model);
		x->vendor = xstrdup_or_null(vendor);
	}
	cpuset_set(&x->cpus, n);
}

/* MIDR of CPU n: its cpuinfo block, else regs/identification/midr_el1. */
static struct midr cpu_midr(struct probe_ctx *ctx, const struct cpuinfo *ci, const struct cpuinfo_cpu *c, size_t n)
{
	struct midr m = c ? c->midr : ci->shared.midr;
	if (midr_valid(&m))
		return m;
	_cleanup_free_ char *path = xasprintf(CPU_SYS "/cpu%zu/regs/identification/midr_el1", n);
	_cleanup_free_ char *reg = NULL;
	if (rootfs_read_line(ctx->rf, path, &reg) == 0 && midr_parse_register(reg, &m) == 0)
		return m;
	return MIDR_UNKNOWN;
}

static void collect_kinds(struct probe_ctx *ctx, const struct cpuinfo *ci, const struct cpuset *cpus,
			  struct kinds *k)
{
	bool unknown_part = false;
	for (size_t n = 0; n < cpuset_size(cpus); n++) {
		if (!cpuset_isset(cpus, n))
			continue;
		const struct cpuinfo_cpu *c = cpuinfo_find(ci, (long)n);
		const struct cpuinfo_cpu *src = c ? c : &ci->shared;
		struct midr m = cpu_midr(ctx, ci, c, n);
		const char *model = src->model_name ?: src->cpu_name ?: src->processor_name;
		if (!midr_valid(&m) && !model)
			continue;
		bool known = true;
		kinds_add(k, n, &m, model, src->vendor_id, &known);
		if (!known && !unknown_part) {
			unknown_part = true;
			probe_unavailable(ctx, "cpu", "model: CPU implementer 0x%02x part 0x%03x is not in the name table",
					  (unsigned)m.implementer, (unsigned)m.part);
		}
	}
}

static json_object *midr_json(const struct midr *m)
{
	if (!midr_valid(m))
		return NULL;
	json_object *o = json_object_new_object();
	char s[16];
	snprintf(s, sizeof(s), "0x%02x", (unsigned)m->implementer);
	jset_str(o, "implementer", s);
	snprintf(s, sizeof(s), "0x%03x", (unsigned)m->part);
	jset_str(o, "part", s);
	if (m->variant >= 0) {
		snprintf(s, sizeof(s), "0x%x", (unsigned)m->variant);
		jset_str(o, "variant", s);
	} else {
		jset_null(o, "variant");
	}
	if (m->revision >= 0)
		jset_int(o, "revision", m->revision);
	else
		jset_null(o, "revision");
	return o;
}

/* Distinct models (or vendors) of the kinds joined with " + ", or NULL. */
static char *kinds_join(const struct kinds *k, bool vendors)
{
	struct buf b = {0};
	struct strv seen = {0};
	for (size_t i = 0; i < k->n; i++) {
		const char *s = vendors ? k->v[i].vendor : k->v[i].model;
		if (!s || strv_contains(&seen, s))
			continue;
		strv_push(&seen, s);
		buf_printf(&b, "%s%s", b.len ? " + " : "", s);
	}
	strv_free(&seen);
	return b.s;
}

static void set_identity(struct probe_ctx *ctx, json_object *cpu, const struct kinds *k)
{
	_cleanup_free_ char *model = kinds_join(k, false);
	_cleanup_free_ char *vendor = kinds_join(k, true);
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < k->n; i++) {
		json_object *o = json_object_new_object();
		_cleanup_free_ char *list = cpuset_format(&k->v[i].cpus);
		jset_str(o, "model", k->v[i].model);
		jset_str(o, "vendor", k->v[i].vendor);
		jset(o, "midr", midr_json(&k->v[i].midr));
		jset_str(o, "cpus", list);
		json_object_array_add(arr, o);
	}
	if (!model)
		probe_unavailable(ctx, "cpu", "model: /proc/cpuinfo names no model and no MIDR could be read");
	if (!vendor && model)
		probe_unavailable(ctx, "cpu", "vendor: /proc/cpuinfo has neither vendor_id nor CPU implementer");
	jset_str(cpu, "vendor", vendor);
	jset_str(cpu, "model", model);
	jset(cpu, "midr", k->n ? midr_json(&k->v[0].midr) : NULL);
	jset(cpu, "kinds", arr);
}

static size_t count_distinct(const int64_t *v, size_t n)
{
	size_t d = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < i && v[j] != v[i])
			j++;
		d += j == i;
	}
	return d;
}

/*
 * Whether sysfs package ids are really clusters: arm and arm64 kernels
 * before 6.0 numbered the device-tree cpu-map clusters as packages (a
 * big.LITTLE phone shows 2-3 "packages"). Not so with ACPI PPTT, or when
 * the kernel reports clusters separately (cluster_id >= 0).
 */
static bool packages_are_clusters(struct probe_ctx *ctx, size_t first, size_t n_kinds)
{
	int64_t cluster;
	_cleanup_free_ char *path = xasprintf(CPU_SYS "/cpu%zu/topology/cluster_id", first);
	if (rootfs_exists(ctx->rf, "/sys/firmware/acpi/tables/PPTT") == 0)
		return false;
	if (rootfs_read_s64(ctx->rf, path, &cluster) == 0 && cluster >= 0)
		return false;
	if (rootfs_exists(ctx->rf, "/sys/firmware/devicetree/base") == 0 ||
	    rootfs_exists(ctx->rf, "/proc/device-tree") == 0)
		return true;
	/* A partial dump: CPUs of different kinds are one SoC. */
	return n_kinds > 1;
}

/* Sockets of a device-tree machine: socketN nodes of cpu-map (Linux 6.0 binding), else one. */
static int64_t dt_sockets(struct probe_ctx *ctx)
{
	struct strv names = {0};
	int64_t n = 0;
	if (rootfs_list(ctx->rf, "/proc/device-tree/cpus/cpu-map", &names) == 0)
		for (size_t i = 0; i < names.n; i++)
			n += startswith(names.v[i], "socket") != NULL;
	strv_free(&names);
	return n > 0 ? n : 1;
}

/* The package and core of CPU n; false when the source does not say. */
typedef bool topology_reader(struct probe_ctx *ctx, const struct cpuinfo *ci, size_t n, int64_t *pkg,
			     int64_t *core);

/* The first CPU of a sibling set of CPU n: the first of its files that
 * reads (lists, or the masks of kernels that have no lists). -1 when none. */
static int64_t first_sibling(struct probe_ctx *ctx, size_t n, const char *const *files, size_t nfiles)
{
	for (size_t i = 0; i < nfiles; i++) {
		_cleanup_free_ char *path = xasprintf(CPU_SYS "/cpu%zu/topology/%s", n, files[i]), *s = NULL;
		struct cpuset set = {0};
		bool mask = !endswith(files[i], "_list");
		int64_t first = -1;
		if (rootfs_read_line(ctx->rf, path, &s) == 0 &&
		    (mask ? cpuset_parse_mask(s, &set) : cpu_list_parse(s, &set)) == 0)
			for (size_t c = 0; c < cpuset_size(&set) && first < 0; c++)
				if (cpuset_isset(&set, c))
					first = (int64_t)c;
		cpuset_free(&set);
		if (first >= 0)
			return first;
	}
	return -1;
}

/*
 * cpuN/topology: CPUs are grouped as lscpu and hwloc group them, by the
 * sets of siblings each names by its first CPU: a core by its hardware
 * threads, a package by its package's CPUs (core_siblings before 5.x).
 * physical_package_id is the fallback: it is -1 on POWER, s390 and SPARC
 * and repeats across the nodes of some ia64 machines.
 */
static bool topology_from_sysfs(struct probe_ctx *ctx, const struct cpuinfo *ci, size_t n, int64_t *pkg,
				int64_t *core)
{
	static const char *const threads[] = { "thread_siblings_list", "core_cpus_list", "thread_siblings",
					       "core_cpus" };
	static const char *const package[] = { "package_cpus_list", "core_siblings_list", "package_cpus",
					       "core_siblings" };
	*core = first_sibling(ctx, n, threads, ARRAY_SIZE(threads));
	*pkg = first_sibling(ctx, n, package, ARRAY_SIZE(package));
	bool sysfs = *core >= 0 || *pkg >= 0;
	if (*pkg < 0) {
		_cleanup_free_ char *p = xasprintf(CPU_SYS "/cpu%zu/topology/physical_package_id", n);
		const struct cpuinfo_cpu *c = cpuinfo_find(ci, (long)n);
		if (rootfs_read_s64(ctx->rf, p, pkg) == 0 && *pkg >= 0)
			sysfs = true;
		else
			*pkg = c ? c->physical_id : -1;
		/* keys apart from the CPU numbers that name sibling sets */
		if (*pkg >= 0)
			*pkg += CPU_NUMBER_MAX;
	}
	/* no thread siblings: core_id, which repeats across packages */
	_cleanup_free_ char *core_id = xasprintf(CPU_SYS "/cpu%zu/topology/core_id", n);
	int64_t id;
	if (*core < 0 && *pkg >= 0 && rootfs_read_s64(ctx->rf, core_id, &id) == 0 && id >= 0 && id < INT32_MAX)
		*core = CPU_NUMBER_MAX + (*pkg << 32 | id);
	return sysfs;
}

/* Fallback for kernels without sysfs topology: physical id / core id of /proc/cpuinfo. */
static bool topology_from_cpuinfo(struct probe_ctx *ctx, const struct cpuinfo *ci, size_t n, int64_t *pkg,
				  int64_t *core)
{
	const struct cpuinfo_cpu *c = cpuinfo_find(ci, (long)n);
	if (!c || c->physical_id < 0 || c->core_id < 0)
		return false;
	*pkg = c->physical_id;
	/* core ids repeat across packages */
	*core = (int64_t)((uint64_t)c->physical_id << 32 | (uint64_t)c->core_id);
	return true;
}

/* Sockets and cores of the CPUs, each -1 when a CPU's is unknown; false
 * when the source tells neither for a CPU. */
static bool count_topology(struct probe_ctx *ctx, const struct cpuinfo *ci, const struct cpuset *cpus,
			   topology_reader *read, int64_t *sockets, int64_t *cores)
{
	size_t total = cpuset_count(cpus), i = 0;
	bool no_pkg = false, no_core = false;
	_cleanup_free_ int64_t *pkg = xcalloc(total ? total : 1, sizeof(int64_t));
	_cleanup_free_ int64_t *core = xcalloc(total ? total : 1, sizeof(int64_t));

	for (size_t n = 0; n < cpuset_size(cpus); n++) {
		if (!cpuset_isset(cpus, n))
			continue;
		if (!read(ctx, ci, n, &pkg[i], &core[i]))
			return false;
		no_pkg |= pkg[i] < 0;
		no_core |= core[i] < 0;
		i++;
	}
	*sockets = no_pkg ? -1 : (int64_t)count_distinct(pkg, total);
	*cores = no_core ? -1 : (int64_t)count_distinct(core, total);
	return total > 0;
}

/* Sockets and cores of a set of CPUs (-1 each where unknown) and what told:
 * "sysfs", "sysfs-clusters" (arm's device-tree clusters counted as
 * packages: sockets from the cpu-map), "cpuinfo", or NULL. */
static const char *topology_of(struct probe_ctx *ctx, const struct cpuinfo *ci, const struct cpuset *cpus, bool arm,
			       size_t n_kinds, int64_t *sockets, int64_t *cores)
{
	size_t first = 0;
	while (first < cpuset_size(cpus) && !cpuset_isset(cpus, first))
		first++;
	if (count_topology(ctx, ci, cpus, topology_from_sysfs, sockets, cores)) {
		if (arm && *sockets > 1 && packages_are_clusters(ctx, first, n_kinds)) {
			*sockets = dt_sockets(ctx);
			return "sysfs-clusters";
		}
		return "sysfs";
	}
	if (count_topology(ctx, ci, cpus, topology_from_cpuinfo, sockets, cores))
		return "cpuinfo";
	return NULL;
}

bool cpu_topology_of(struct probe_ctx *ctx, const struct cpuset *cpus, int64_t *sockets, int64_t *cores)
{
	_cleanup_free_ char *text = NULL;
	struct cpuinfo ci;
	rootfs_read(ctx->rf, "/proc/cpuinfo", &text, NULL);
	cpuinfo_parse(text ?: "", &ci);
	const struct cpuinfo_cpu *c = ci.n ? &ci.cpus[0] : &ci.shared;
	bool arm = midr_valid(&c->midr);
	const char *source = topology_of(ctx, &ci, cpus, arm, 1, sockets, cores);
	cpuinfo_free(&ci);
	return source != NULL;
}

static void collect_topology(struct probe_ctx *ctx, json_object *cpu, const struct cpuinfo *ci,
			     const struct cpuset *cpus, const struct kinds *k)
{
	int64_t sockets = 0, cores = 0;
	bool arm = k->n && midr_valid(&k->v[0].midr);
	const char *source = topology_of(ctx, ci, cpus, arm, k->n, &sockets, &cores);

	if (streq_ptr(source, "cpuinfo"))
		probe_unavailable(ctx, "cpu", "topology: no " CPU_SYS "/cpuN/topology; sockets and cores from "
					      "physical id / core id of /proc/cpuinfo");
	else if (!source && cpuset_count(cpus))
		probe_unavailable(ctx, "cpu", "sockets, cores: no " CPU_SYS "/cpuN/topology and no physical id / "
					      "core id in /proc/cpuinfo");
	if (source && sockets < 0)
		probe_unavailable(ctx, "cpu", "sockets: neither package siblings nor physical_package_id in " CPU_SYS
					      "/cpuN/topology, nor physical id in /proc/cpuinfo");
	if (source && cores < 0)
		probe_unavailable(ctx, "cpu", "cores: no thread siblings in " CPU_SYS "/cpuN/topology");
	if (source) {
		jset(cpu, "sockets", sockets < 0 ? NULL : json_object_new_int64(sockets));
		jset(cpu, "cores", cores < 0 ? NULL : json_object_new_int64(cores));
	} else {
		jset_null(cpu, "sockets");
		jset_null(cpu, "cores");
	}
	jset_str(cpu, "topology_source", source);
	if (cpuset_count(cpus))
		jset_int(cpu, "threads", (int64_t)cpuset_count(cpus));
	else
		jset_null(cpu, "threads");
}

static void collect_bogomips(struct probe_ctx *ctx, json_object *cpu, const struct cpuinfo *ci,
			     const struct cpuset *cpus)
{
	json_object *per_cpu = json_object_new_array();
	json_object *first = NULL;
	for (size_t n = 0; n < cpuset_size(cpus); n++) {
		if (!cpuset_isset(cpus, n))
			continue;
		const struct cpuinfo_cpu *c = cpuinfo_find(ci, (long)n);
		json_object *v = c && c->bogomips >= 0 ? json_object_new_double(c->bogomips) : NULL;
		if (v && !first)
			first = json_object_new_double(c->bogomips);
		json_object_array_add(per_cpu, v);
	}
	if (!first) {
		json_object_put(per_cpu);
		per_cpu = NULL;
		probe_unavailable(ctx, "cpu", "BogoMIPS: not in /proc/cpuinfo");
	}
	jset(cpu, "bogomips", first);
	jset(cpu, "bogomips_per_cpu", per_cpu);
}

/* CPU list string of a sysfs file ("" when empty or "(null)"), or NULL. */
static char *sysfs_cpu_list(struct probe_ctx *ctx, const char *path)
{
	_cleanup_free_ char *s = NULL;
	struct cpuset set = {0};
	if (rootfs_read_line(ctx->rf, path, &s) < 0)
		return NULL;
	if (!*s || streq(s, "(null)"))
		return xstrdup("");
	if (cpu_list_parse(s, &set) < 0)
		return NULL;
	char *list = cpuset_format(&set);
	cpuset_free(&set);
	return list;
}

static void collect_isolation(struct probe_ctx *ctx, json_object *cpu)
{
	_cleanup_free_ char *cmdline = NULL, *isolated = NULL, *nohz = NULL;
	const char *source;
	if (rootfs_read(ctx->rf, "/proc/cmdline", &cmdline, NULL) == 0) {
		source = "/proc/cmdline";
		isolated = cmdline_cpu_list(cmdline, "isolcpus");
		nohz = cmdline_cpu_list(cmdline, "nohz_full");
		if (!isolated)
			probe_unavailable(ctx, "cpu", "isolated CPUs: isolcpus= on /proc/cmdline is not a CPU list");
		if (!nohz)
			probe_unavailable(ctx, "cpu", "nohz_full CPUs: nohz_full= on /proc/cmdline is not a CPU list");
	} else {
		/* the same facts as the kernel applied them */
		source = CPU_SYS "/{isolated,nohz_full}";
		isolated = sysfs_cpu_list(ctx, CPU_SYS "/isolated");
		nohz = sysfs_cpu_list(ctx, CPU_SYS "/nohz_full");
		if (!isolated)
			probe_unavailable(ctx, "cpu", "isolated CPUs: neither /proc/cmdline nor " CPU_SYS "/isolated is readable");
		if (!nohz)
			probe_unavailable(ctx, "cpu", "nohz_full CPUs: neither /proc/cmdline nor " CPU_SYS "/nohz_full is readable");
	}
	jset_str(cpu, "isolated", isolated);
	jset_str(cpu, "nohz_full", nohz);
	jset_str(cpu, "isolation_source", isolated || nohz ? source : NULL);
}

static void collect_vulnerabilities(struct probe_ctx *ctx, json_object *cpu)
{
	struct strv names = {0};
	if (rootfs_list(ctx->rf, CPU_SYS "/vulnerabilities", &names) < 0) {
		jset_null(cpu, "vulnerabilities");
		probe_unavailable(ctx, "cpu", "vulnerabilities: no " CPU_SYS "/vulnerabilities");
		return;
	}
	json_object *v = json_object_new_object();
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *path = xasprintf(CPU_SYS "/vulnerabilities/%s", names.v[i]);
		_cleanup_free_ char *line = NULL;
		if (rootfs_read_line(ctx->rf, path, &line) == 0)
			jset_str(v, names.v[i], line);
	}
	strv_free(&names);
	jset(cpu, "vulnerabilities", v);
}

/* The online CPUs (hw_online_cpus(): cpu/online, else the processors of
 * /proc/cpuinfo, else the cpuN/topology directories). False when nothing says. */
static bool collect_online(struct probe_ctx *ctx, json_object *cpu, const struct cpuinfo *ci, struct cpuset *online)
{
	_cleanup_free_ char *possible = sysfs_cpu_list(ctx, CPU_SYS "/possible");
	struct cpuset listed = {0};
	enum hw_online_source source;
	for (size_t i = 0; i < ci->n; i++)
		cpuset_set(&listed, (size_t)ci->cpus[i].processor);
	bool have = hw_online_cpus(ctx->rf, &listed, online, &source) == 0;
	cpuset_free(&listed);

	if (!have)
		probe_unavailable(ctx, "cpu", "online CPUs: neither " CPU_SYS "/online, /proc/cpuinfo nor "
					      CPU_SYS "/cpuN/topology lists them");
	else if (source == HW_ONLINE_FALLBACK)
		probe_unavailable(ctx, "cpu", "online CPUs: no " CPU_SYS "/online; taken from the processors in /proc/cpuinfo");
	else if (source == HW_ONLINE_DIRS)
		probe_unavailable(ctx, "cpu", "online CPUs: neither " CPU_SYS "/online nor /proc/cpuinfo; taken from "
					      "the " CPU_SYS "/cpuN/topology directories");
	if (!possible || !*possible) {
		free(possible);
		possible = NULL;
		probe_unavailable(ctx, "cpu", "possible CPUs: no " CPU_SYS "/possible");
	}
	_cleanup_free_ char *list = have ? cpuset_format(online) : NULL;
	jset_str(cpu, "online", list);
	jset_str(cpu, "possible", possible);
	return have;
}

/* x86: the family and model numbers of the first CPU (what the CPU catalogue places a hidden model
 * string by: a guest's "AMD EPYC Processor" is family 0x17 model 0x31, Zen 2); null elsewhere. */
static void set_x86_model(json_object *cpu, const struct cpuinfo *ci)
{
	const struct cpuinfo_cpu *c = ci->n ? &ci->cpus[0] : NULL;
	json_object *o = NULL;
	if (c && c->vendor_id && c->family >= 0 && c->model >= 0) {
		o = json_object_new_object();
		jset_int(o, "family", c->family);
		jset_int(o, "model", c->model);
	}
	jset(cpu, "x86", o);
}

int cpu_collect(struct probe_ctx *ctx)
{
	json_object *cpu = jchild(ctx->rec, "cpu");
	_cleanup_free_ char *text = NULL;
	struct cpuinfo ci = {0};
	struct cpuset online = {0};
	struct kinds kinds = {0};

	jset_str(cpu, "arch", jpath_str(ctx->rec, "host.arch"));
	int r = rootfs_read(ctx->rf, "/proc/cpuinfo", &text, NULL);
	if (r < 0)
		probe_unavailable(ctx, "cpu", "/proc/cpuinfo: %s", strerror(-r));
	cpuinfo_parse(text ? text : "", &ci);

	bool have_online = collect_online(ctx, cpu, &ci, &online);
	collect_kinds(ctx, &ci, &online, &kinds);
	set_identity(ctx, cpu, &kinds);
	set_x86_model(cpu, &ci);
	collect_topology(ctx, cpu, &ci, &online, &kinds);
	collect_bogomips(ctx, cpu, &ci, &online);
	struct hw_policies pols;
	hw_cpufreq_policies(ctx->rf, have_online ? &online : NULL, &pols);
	cpufreq_collect(ctx, cpu, &pols);
	kinds_collect(ctx, cpu, &pols);
	clock_collect(ctx, cpu, &pols);
	kinds_mark_fastest(cpu);
	hw_policies_free(&pols);
	collect_isolation(ctx, cpu);
	collect_vulnerabilities(ctx, cpu);
	size_t first = 0;
	while (have_online && first < cpuset_size(&online) && !cpuset_isset(&online, first))
		first++;
	idle_collect(ctx, cpu, have_online && first < cpuset_size(&online) ? (unsigned)first : 0);

	kinds_free(&kinds);
	cpuset_free(&online);
	cpuinfo_free(&ci);
	return 0;
}

char *cmdline_cpu_list(const char *cmdline, const char *option)
{
	_cleanup_free_ char *copy = xstrdup(cmdline), *value = NULL;
	for (char *save = NULL, *tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		const char *v = startswith(tok, option);
		if (v && *v == '=') {
			free(value);
			value = xstrdup(v + 1);
		}
	}
	if (!value)
		return xstrdup("");
	/* isolcpus=[flag,...,]list: flags are words, the list starts with a digit */
	char *list = value;
	while (*list && !isdigit((unsigned char)*list)) {
		char *comma = strchr(list, ',');
		if (!comma)
			return NULL;
		list = comma + 1;
	}
	struct cpuset set = {0};
	if (cpuset_parse_list(list, &set) < 0)
		return NULL;
	char *s = cpuset_format(&set);
	cpuset_free(&set);
	return s;
}

/* "10 × ARM Cortex-A725 r0p1 (0x41/0xd87)" */
static void render_kind(const struct env_cpu_kind *kind, struct buf *b)
{
	struct cpuset cpus = {0};
	const char *model = kind->model, *vendor = kind->vendor;
	const struct env_midr *midr = &kind->midr;

	if (kind->cpus && cpu_list_parse(kind->cpus, &cpus) == 0)
		buf_printf(b, "%zu × ", cpuset_count(&cpus));
	cpuset_free(&cpus);
	if (midr->json && vendor && model && !startswith(model, vendor))
		buf_printf(b, "%s ", vendor);
	buf_puts(b, model ? model : "unknown model");
	if (kind->core_type)
		buf_printf(b, " (%s cores)", kind->core_type);
	if (!midr->json)
		return;
	if (midr->variant && midr->revision.known)
		buf_printf(b, " r%lup%lld", strtoul(midr->variant, NULL, 16), (long long)midr->revision.v);
	buf_printf(b, " (%s/%s)", midr->implementer, midr->part);
}

void cpu_render(const struct env_record *env, FILE *out)
{
	const struct env_cpu *cpu = &env->cpu;
	struct buf b = {0};

	for (size_t i = 0; i < cpu->kinds.n; i++) {
		if (i)
			buf_puts(&b, " + ");
		render_kind(&cpu->kinds.v[i], &b);
	}
	if (!cpu->kinds.n)
		buf_puts(&b, "model unknown");
	if (cpu->sockets.known)
		buf_printf(&b, " · %lld socket%s", (long long)cpu->sockets.v, cpu->sockets.v == 1 ? "" : "s");
	if (cpu->cores.known && cpu->threads.known)
		buf_printf(&b, ", %lld cores, %lld threads", (long long)cpu->cores.v, (long long)cpu->threads.v);
	if (cpu->bogomips.known)
		buf_printf(&b, " · BogoMIPS %.2f%s", cpu->bogomips.v,
			   streq_ptr(cpu->arch, "aarch64") ? " (timer rate on arm64)" : "");
	render_line(out, "CPU", "%s", b.s);
	buf_free(&b);

	cpufreq_render(env, out);
	clock_render(env, out);
	idle_render(env, out);

	const char *online = cpu->online, *possible = cpu->possible;
	const char *isolated = cpu->isolated, *nohz = cpu->nohz_full;
	if (online && possible && !streq(online, possible))
		buf_printf(&b, "online %s of possible %s", online, possible);
	if (isolated && *isolated)
		buf_printf(&b, "%sisolated %s", b.len ? " · " : "", isolated);
	if (nohz && *nohz)
		buf_printf(&b, "%snohz_full %s", b.len ? " · " : "", nohz);
	if (b.len)
		render_line(out, NULL, "%s", b.s);
	buf_free(&b);
}
