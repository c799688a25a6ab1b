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

/* cpuN/topology: a core is named by the first of its hardware threads. */
static bool topology_from_sysfs(struct probe_ctx *ctx, const struct cpuinfo *ci, size_t n, int64_t *pkg,
				int64_t *core)
{
	_cleanup_free_ char *p = xasprintf(CPU_SYS "/cpu%zu/topology/physical_package_id", n);
	_cleanup_free_ char *s = xasprintf(CPU_SYS "/cpu%zu/topology/thread_siblings_list", n);
	_cleanup_free_ char *siblings = NULL;
	struct cpuset sib = {0};
	bool ok = rootfs_read_s64(ctx->rf, p, pkg) == 0 && rootfs_read_line(ctx->rf, s, &siblings) == 0 &&
		  cpu_list_parse(siblings, &sib) == 0 && cpuset_count(&sib) > 0;
	if (ok)
		for (*core = 0; !cpuset_isset(&sib, (size_t)*core); (*core)++)
			;
	cpuset_free(&sib);
	return ok;
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

/* Sockets and cores of the CPUs; false when a CPU's topology is unknown. */
static bool count_topology(struct probe_ctx *ctx, const struct cpuinfo *ci, const struct cpuset *cpus,
			   topology_reader *read, int64_t *sockets, int64_t *cores)
{
	size_t total = cpuset_count(cpus), i = 0;
	_cleanup_free_ int64_t *pkg = xcalloc(total ? total : 1, sizeof(int64_t));
	_cleanup_free_ int64_t *core = xcalloc(total ? total : 1, sizeof(int64_t));

	for (size_t n = 0; n < cpuset_size(cpus); n++) {
		if (!cpuset_isset(cpus, n))
			continue;
		if (!read(ctx, ci, n, &pkg[i], &core[i]))
			return false;
		i++;
	}
	*sockets = (int64_t)count_distinct(pkg, total);
	*cores = (int64_t)count_distinct(core, total);
	return total > 0;
}

static void collect_topology(struct probe_ctx *ctx, json_object *cpu, const struct cpuinfo *ci,
			     const struct cpuset *cpus, const struct kinds *k)
{
	int64_t sockets = 0, cores = 0;
	const char *source = NULL;
	size_t first = 0;
	while (first < cpuset_size(cpus) && !cpuset_isset(cpus, first))
		first++;

	if (count_topology(ctx, ci, cpus, topology_from_sysfs, &sockets, &cores)) {
		source = "sysfs";
		bool arm = k->n && midr_valid(&k->v[0].midr);
		if (arm && sockets > 1 && packages_are_clusters(ctx, first, k->n)) {
			sockets = dt_sockets(ctx);
			source = "sysfs-clusters";
		}
	} else if (count_topology(ctx, ci, cpus, topology_from_cpuinfo, &sockets, &cores)) {
		source = "cpuinfo";
		probe_unavailable(ctx, "cpu", "topology: no " CPU_SYS "/cpuN/topology; sockets and cores from "
					      "physical id / core id of /proc/cpuinfo");
	} else if (cpuset_count(cpus)) {
		probe_unavailable(ctx, "cpu", "sockets, cores: no " CPU_SYS "/cpuN/topology and no physical id / "
					      "core id in /proc/cpuinfo");
	}
	if (source) {
		jset_int(cpu, "sockets", sockets);
		jset_int(cpu, "cores", cores);
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

/* The online CPUs: cpu/online, else the processors of /proc/cpuinfo
 * (which lists online CPUs only). False when neither says. */
static bool collect_online(struct probe_ctx *ctx, json_object *cpu, const struct cpuinfo *ci, struct cpuset *online)
{
	_cleanup_free_ char *list = sysfs_cpu_list(ctx, CPU_SYS "/online");
	_cleanup_free_ char *possible = sysfs_cpu_list(ctx, CPU_SYS "/possible");
	bool have = list && *list && cpu_list_parse(list, online) == 0;

	if (!have && ci->n > 0) {
		for (size_t i = 0; i < ci->n; i++)
			cpuset_set(online, (size_t)ci->cpus[i].processor);
		free(list);
		list = cpuset_format(online);
		have = true;
		probe_unavailable(ctx, "cpu", "online CPUs: no " CPU_SYS "/online; taken from the processors in /proc/cpuinfo");
	} else if (!have) {
		free(list);
		list = NULL;
		probe_unavailable(ctx, "cpu", "online CPUs: neither " CPU_SYS "/online nor /proc/cpuinfo lists them");
	}
	if (!possible || !*possible) {
		free(possible);
		possible = NULL;
		probe_unavailable(ctx, "cpu", "possible CPUs: no " CPU_SYS "/possible");
	}
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
