/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NUMA: the nodes with their CPUs and memory, the storage controller's
 * IRQs and where they are served, and whether irqbalance or numad run.
 */
#include "numa.h"

#include <errno.h>
#include <sys/stat.h>
#if HAVE_HWLOC
#include <hwloc.h>
#endif

#include "lib/cpuset.h"
#include "lib/hw.h"
#include "services.h"

#define NODE_DIR "/sys/devices/system/node"
#define CPU_DIR "/sys/devices/system/cpu"

/* "Node 0 MemTotal:  5335244 kB" (node meminfo) or "MemTotal:  5335244 kB". */
static bool memtotal_kib(const char *meminfo, int64_t *kib)
{
	const char *p = strstr(meminfo, "MemTotal:");
	if (!p)
		return false;
	char *end;
	long long v = strtoll(p + strlen("MemTotal:"), &end, 10);
	if (end == p + strlen("MemTotal:") || v < 0)
		return false;
	*kib = v;
	return true;
}

static void set_node_mem(struct rootfs *rf, json_object *node, unsigned id)
{
	_cleanup_free_ char *path = xasprintf(NODE_DIR "/node%u/meminfo", id), *text = NULL;
	int64_t kib;
	if (rootfs_read(rf, path, &text, NULL) == 0 && memtotal_kib(text, &kib))
		jset_int(node, "mem_kib", kib);
	else
		jset_null(node, "mem_kib");
}

/* A list file ("0-3,8") parsed into c; false when missing or malformed. */
static bool read_cpuset(struct rootfs *rf, const char *path, bool mask, struct cpuset *c)
{
	_cleanup_free_ char *s = NULL;
	if (rootfs_read_line(rf, path, &s) < 0)
		return false;
	return (mask ? cpuset_parse_mask(s, c) : cpuset_parse_list(s, c)) == 0;
}

/* The node's CPUs from cpulist (else cpumap), as "0-7"; NULL when unreadable. */
static char *node_cpus(struct rootfs *rf, unsigned id, const struct cpuset *online)
{
	_cleanup_free_ char *list = xasprintf(NODE_DIR "/node%u/cpulist", id);
	_cleanup_free_ char *map = xasprintf(NODE_DIR "/node%u/cpumap", id);
	struct cpuset c = {0}, both = {0};
	if (!read_cpuset(rf, list, false, &c) && !read_cpuset(rf, map, true, &c))
		return NULL;
	/* Offline CPUs may still be listed; they serve nothing. */
	for (size_t i = 0; i < cpuset_size(&c); i++)
		if (cpuset_isset(&c, i) && (!online || cpuset_isset(online, i)))
			cpuset_set(&both, i);
	char *s = cpuset_format(&both);
	cpuset_free(&c);
	cpuset_free(&both);
	return s;
}

static bool node_id(const char *name, unsigned *id)
{
	uint64_t v;
	if (!str_numbered(name, "node") || parse_u64(name + strlen("node"), &v) < 0 || v > 65535)
		return false;
	*id = (unsigned)v;
	return true;
}

int numa_nodes_sysfs(struct rootfs *rf, json_object **out)
{
	struct strv names = {0};
	struct cpuset online_nodes = {0}, online_cpus = {0};
	enum hw_online_source source;
	int r = rootfs_list(rf, NODE_DIR, &names);
	if (r < 0)
		return r;
	bool have_nodes = read_cpuset(rf, NODE_DIR "/online", false, &online_nodes);
	bool have_cpus = hw_online_cpus(rf, NULL, &online_cpus, &source) == 0;

	json_object *a = json_object_new_array();
	for (size_t i = 0; i < names.n; i++) {
		unsigned id;
		if (!node_id(names.v[i], &id) || (have_nodes && !cpuset_isset(&online_nodes, id)))
			continue;
		json_object *node = json_object_new_object();
		_cleanup_free_ char *cpus = node_cpus(rf, id, have_cpus ? &online_cpus : NULL);
		jset_int(node, "id", id);
		jset_str(node, "cpus", cpus);
		set_node_mem(rf, node, id);
		json_object_array_add(a, node);
	}
	strv_free(&names);
	cpuset_free(&online_nodes);
	cpuset_free(&online_cpus);
	*out = a;
	return 0;
}

#if HAVE_HWLOC
struct env_save {
	const char *name;
	char *old;
};

static void env_set(struct env_save *e, const char *name, const char *value)
{
	const char *old = getenv(name);
	e->name = name;
	e->old = xstrdup_or_null(old);
	setenv(name, value, 1);
}

static void env_restore(struct env_save *e)
{
	if (e->old)
		setenv(e->name, e->old, 1);
	else
		unsetenv(e->name);
	free(e->old);
}

/* Loads what NUMA nodes need: no caches, no I/O devices, no distances. */
static int load_topology(struct rootfs *rf, hwloc_topology_t *topo)
{
	struct env_save env[5];
	size_t n = 0;
	if (!rootfs_is_live(rf)) {
		env_set(&env[n++], "HWLOC_FSROOT", rootfs_path(rf));
		env_set(&env[n++], "HWLOC_THISSYSTEM", "0");
	}
	/* A root without CPU topology is reported by us, not on stderr. */
	env_set(&env[n++], "HWLOC_HIDE_ERRORS", "2");
	/* every node the kernel lists, as the sysfs reader gives them: GPU
	 * memory nodes too, and nodes whose CPUs a firmware bug overlaps */
	env_set(&env[n++], "HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES", "1");
	env_set(&env[n++], "HWLOC_DEBUG_ALLOW_OVERLAPPING_NODE_CPUSETS", "2");

	int r = hwloc_topology_init(topo) < 0 ? -errno : 0;
	if (r == 0) {
		hwloc_topology_set_cache_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_NONE);
		hwloc_topology_set_icache_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_NONE);
		hwloc_topology_set_io_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_NONE);
		hwloc_topology_set_type_filter(*topo, HWLOC_OBJ_MISC, HWLOC_TYPE_FILTER_KEEP_NONE);
		hwloc_topology_set_flags(*topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED | HWLOC_TOPOLOGY_FLAG_NO_DISTANCES |
							HWLOC_TOPOLOGY_FLAG_NO_MEMATTRS | HWLOC_TOPOLOGY_FLAG_NO_CPUKINDS);
		/* The x86 backend runs CPUID on this machine, even for a dump. */
		hwloc_topology_set_components(*topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
		if (hwloc_topology_load(*topo) < 0) {
			r = -errno;
			hwloc_topology_destroy(*topo);
		}
	}
	while (n > 0)
		env_restore(&env[--n]);
	if (r < 0)
		return r;
	/* Without sysfs CPU topology hwloc describes this machine instead. */
	if (!streq_ptr(hwloc_obj_get_info_by_name(hwloc_get_root_obj(*topo), "Backend"), "Linux")) {
		hwloc_topology_destroy(*topo);
		return -ENODATA;
	}
	return 0;
}

static int cmp_node_id(const void *a, const void *b)
{
	int64_t x = 0, y = 0;
	jpath_int(*(json_object *const *)a, "id", &x);
	jpath_int(*(json_object *const *)b, "id", &y);
	return x < y ? -1 : x > y;
}

int numa_nodes_hwloc(struct rootfs *rf, json_object **out)
{
	hwloc_topology_t topo;
	struct cpuset online = {0};
	enum hw_online_source source;
	int r = load_topology(rf, &topo);
	if (r < 0)
		return r;
	bool have_online = hw_online_cpus(rf, NULL, &online, &source) == 0;
	json_object *a = json_object_new_array();
	for (hwloc_obj_t o = NULL; (o = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, o));) {
		json_object *node = json_object_new_object();
		char *cpus = NULL;
		jset_int(node, "id", o->os_index);
		/* the node's own CPUs as the kernel lists them: hwloc gives a
		 * node without CPUs (memory tiers, GPU memory) the CPUs near it */
		_cleanup_free_ char *own = node_cpus(rf, o->os_index, have_online ? &online : NULL);
		if (own)
			jset_str(node, "cpus", own);
		else if (hwloc_bitmap_list_asprintf(&cpus, o->cpuset) >= 0)
			jset_str(node, "cpus", cpus);
		else
			jset_null(node, "cpus");
		free(cpus);
		/* hwloc says 0 both for a memoryless node and for a missing meminfo. */
		if (o->attr->numanode.local_memory)
			jset_int(node, "mem_kib", (int64_t)(o->attr->numanode.local_memory / 1024));
		else
			set_node_mem(rf, node, o->os_index);
		json_object_array_add(a, node);
	}
	hwloc_topology_destroy(topo);
	cpuset_free(&online);
	/* in the kernel's order: hwloc lists nodes by locality */
	json_object_array_sort(a, cmp_node_id);
	*out = a;
	return 0;
}

/* Adds the regular files of dir (and of its subdirectories, depth levels down) to the trace. */
static void trace_files(struct rootfs *rf, const char *dir, int depth)
{
	struct strv names = {0};
	if (rootfs_list(rf, dir, &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *p = xasprintf("%s/%s", dir, names.v[i]);
		struct stat st;
		if (rootfs_lstat(rf, p, &st) < 0)
			continue;
		if (S_ISREG(st.st_mode))
			rootfs_trace_add(rf, p, TRACE_FILE);
		else if (S_ISDIR(st.st_mode) && depth > 0)
			trace_files(rf, p, depth - 1);
	}
	strv_free(&names);
}

/*
 * hwloc reads the root by itself: for `ubtune gather` the files it needs
 * (node maps and memory, CPU topology, online lists) go into the trace.
 */
static void trace_hwloc_inputs(struct rootfs *rf)
{
	static const char *const files[] = { "/proc/cpuinfo", "/proc/meminfo", CPU_DIR "/online", CPU_DIR "/possible" };
	struct strv cpus = {0};
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		if (rootfs_exists(rf, files[i]) == 0)
			rootfs_trace_add(rf, files[i], TRACE_FILE);
	trace_files(rf, NODE_DIR, 3);
	if (rootfs_list(rf, CPU_DIR, &cpus) < 0)
		return;
	for (size_t i = 0; i < cpus.n; i++) {
		const char *d = startswith(cpus.v[i], "cpu");
		if (!d || !*d || strspn(d, "0123456789") != strlen(d))
			continue;
		_cleanup_free_ char *online = xasprintf(CPU_DIR "/%s/online", cpus.v[i]);
		_cleanup_free_ char *topo = xasprintf(CPU_DIR "/%s/topology", cpus.v[i]);
		if (rootfs_exists(rf, online) == 0)
			rootfs_trace_add(rf, online, TRACE_FILE);
		trace_files(rf, topo, 0);
	}
	strv_free(&cpus);
}
#endif

/* A kernel without NUMA has no node directory: one node with every online CPU and all memory. */
static json_object *single_node(struct probe_ctx *ctx)
{
	_cleanup_free_ char *online = NULL, *meminfo = NULL;
	struct cpuset cpus = {0};
	enum hw_online_source source;
	int64_t kib;
	if (hw_online_cpus(ctx->rf, NULL, &cpus, &source) < 0)
		return NULL;
	online = cpuset_format(&cpus);
	cpuset_free(&cpus);
	json_object *node = json_object_new_object();
	jset_int(node, "id", 0);
	jset_str(node, "cpus", online);
	if (rootfs_read(ctx->rf, "/proc/meminfo", &meminfo, NULL) == 0 && memtotal_kib(meminfo, &kib))
		jset_int(node, "mem_kib", kib);
	else
		jset_null(node, "mem_kib");
	json_object *a = json_object_new_array();
	json_object_array_add(a, node);
	return a;
}

static void collect_nodes(struct probe_ctx *ctx, json_object *o)
{
	json_object *nodes = NULL;
	struct stat st;
	if (rootfs_stat(ctx->rf, NODE_DIR, &st) < 0) {
		nodes = single_node(ctx);
		jset(o, "nodes", nodes);
		if (nodes) {
			jset_bool(o, "kernel_numa", false);
			return;
		}
		jset_null(o, "kernel_numa");
		probe_unavailable(ctx, "numa", "nodes: neither %s nor %s/online in this root", NODE_DIR, CPU_DIR);
		return;
	}
	jset_bool(o, "kernel_numa", true);
	int r = -ENODATA;
#if HAVE_HWLOC
	/* hwloc follows a dump's links out of it, to this machine's files */
	if (!ctx->links_leave_dump)
		r = numa_nodes_hwloc(ctx->rf, &nodes);
	if (r == 0 && rootfs_is_tracing(ctx->rf))
		trace_hwloc_inputs(ctx->rf);
#endif
	if (r < 0)
		r = numa_nodes_sysfs(ctx->rf, &nodes);
	if (r < 0)
		probe_unavailable(ctx, "numa", "nodes: %s: %s", NODE_DIR, strerror(-r));
	jset(o, "nodes", r < 0 ? NULL : nodes);
}

/* irqbalance and numad move IRQs and memory while the benchmark runs. */
static void collect_daemons(struct probe_ctx *ctx, json_object *o)
{
	static const char *const daemons[] = { "irqbalance", "numad" };
	const struct proc_table *procs;
	int r = probe_procs(ctx, &procs);
	for (size_t i = 0; i < ARRAY_SIZE(daemons); i++) {
		bool running = false;
		for (size_t k = 0; k < procs->n && !running; k++)
			running = streq(procs->v[k].comm, daemons[i]);
		if (r < 0 || !procs->seen)
			jset_null(o, daemons[i]);
		else
			jset_bool(o, daemons[i], running);
	}
	if (r < 0 || !procs->seen)
		probe_unavailable(ctx, "numa", "irqbalance, numad: %s",
				  r < 0 ? strerror(-r) : "no readable /proc/[pid]/stat in this root");
}

int numa_collect(struct probe_ctx *ctx)
{
	json_object *o = jchild(ctx->rec, "numa");
	collect_nodes(ctx, o);
	jset(o, "storage_irqs", numa_storage_irqs(ctx));
	collect_daemons(ctx, o);
	return 0;
}

static void format_mem(struct buf *b, const struct env_node *node)
{
	char s[32];
	if (node->mem_kib.known) {
		kib_text(node->mem_kib.v, s, sizeof(s));
		buf_printf(b, ", %s", s);
	}
}

static int cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* The storage IRQs of the record. */
struct irqs {
	const struct env_irq *v;
	size_t n;
};

/* IRQ numbers as a list: "27-28", "43", "51,53-54". */
static char *format_irq_numbers(struct irqs irqs)
{
	size_t k = 0;
	int64_t *v = xcalloc(irqs.n ? irqs.n : 1, sizeof(*v));
	struct buf b = {0};
	for (size_t i = 0; i < irqs.n; i++)
		if (irqs.v[i].irq.known)
			v[k++] = irqs.v[i].irq.v;
	qsort(v, k, sizeof(*v), cmp_int64);
	buf_puts(&b, "");
	for (size_t i = 0; i < k; i++) {
		size_t j = i;
		while (j + 1 < k && v[j + 1] == v[j] + 1)
			j++;
		buf_printf(&b, "%s%lld", b.len ? "," : "", (long long)v[i]);
		if (j > i)
			buf_printf(&b, "-%lld", (long long)v[j]);
		i = j;
	}
	free(v);
	return buf_steal(&b);
}

/* "ahci IRQ 43 on CPU 40" / "IRQs 51,53-54 on CPUs 0-3" */
static void format_irqs(struct buf *b, struct irqs irqs)
{
	struct cpuset cpus = {0};
	size_t n = irqs.n, known = 0, remote = 0;
	for (size_t i = 0; i < n; i++) {
		const struct env_irq *q = &irqs.v[i];
		struct cpuset c = {0};
		const char *eff = q->effective ? q->effective : q->affinity;
		if (eff && cpuset_parse_list(eff, &c) == 0) {
			known++;
			for (size_t k = 0; k < cpuset_size(&c); k++)
				if (cpuset_isset(&c, k))
					cpuset_set(&cpus, k);
		}
		if (is_false(q->on_device_node))
			remote++;
		cpuset_free(&c);
	}
	_cleanup_free_ char *ns = format_irq_numbers(irqs), *cs = cpuset_format(&cpus);
	const char *name = irqs.v[0].name;
	buf_printf(b, " · storage %s%s %s", name && n == 1 ? name : "IRQ", n == 1 ? (name ? " IRQ" : "") : "s", ns);
	if (known)
		buf_printf(b, " on CPU%s %s", cpuset_count(&cpus) == 1 ? "" : "s", cs);
	else
		buf_puts(b, " (affinity not known)");
	if (remote)
		buf_printf(b, ", %zu outside the controller's node", remote);
	cpuset_free(&cpus);
}

void numa_render(const struct env_record *env, FILE *out)
{
	const struct env_numa *numa = &env->numa;
	struct buf b = {0};
	size_t n = numa->nodes.n;

	if (numa->nodes.json)
		buf_printf(&b, "%zu node%s", n, n == 1 ? "" : "s");
	else
		buf_puts(&b, "nodes unknown");
	if (n == 1)
		format_mem(&b, &numa->nodes.v[0]);
	if (numa->storage_irqs.n)
		format_irqs(&b, (struct irqs){ numa->storage_irqs.v, numa->storage_irqs.n });
	if (numa->irqbalance.known)
		buf_printf(&b, " · irqbalance %s", numa->irqbalance.v ? "running" : "not running");
	if (is_true(numa->numad))
		buf_puts(&b, " · numad running");
	render_line(out, "NUMA", "%s", b.s);
	buf_free(&b);
	for (size_t i = 0; n > 1 && i < n; i++) {
		const struct env_node *node = &numa->nodes.v[i];
		buf_printf(&b, "node %lld: CPUs %s", (long long)int_or(node->id, 0), node->cpus ? node->cpus : "?");
		format_mem(&b, node);
		render_line(out, NULL, "%s", b.s);
		buf_free(&b);
	}
}
