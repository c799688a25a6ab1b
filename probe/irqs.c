/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The storage controller's IRQs: which ones (the PCI function's msi_irqs/,
 * else the names in /proc/interrupts), where the kernel may and does serve
 * them (/proc/irq/N/), and whether that is on the controller's NUMA node.
 */
#include "numa.h"

#include <ctype.h>
#include <errno.h>
#include <strings.h>

#include "lib/cpuset.h"
#include "storage.h"

static bool all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* "edge", "Level", "2-edge", "IR-IO-APIC-fasteoi": the column before the action names. */
static bool is_trigger(const char *tok)
{
	static const char *const triggers[] = { "edge", "level", "fasteoi", "simple", "percpu", "percpu_devid", "eoi" };
	const char *dash = strrchr(tok, '-');
	const char *t = dash ? dash + 1 : tok;
	for (size_t i = 0; i < ARRAY_SIZE(triggers); i++)
		if (strcasecmp(t, triggers[i]) == 0)
			return true;
	return false;
}

/* The action names after the chip, hwirq and trigger columns; NULL when there are none. */
static char *action_names(char *rest)
{
	char *tok[64];
	size_t n = 0, start = 0;
	for (char *save = NULL, *t = strtok_r(rest, " \t", &save); t && n < ARRAY_SIZE(tok); t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	for (size_t i = 0; i < n; i++)
		if (is_trigger(tok[i])) {
			start = i + 1;
			break;
		}
	/* No trigger column (unknown chip): everything after the chip name. */
	if (start == 0)
		start = n > 1 ? 1 : n;
	if (start >= n)
		return NULL;
	struct buf b = {0};
	for (size_t i = start; i < n; i++)
		buf_printf(&b, "%s%s", i > start ? " " : "", tok[i]);
	return buf_steal(&b);
}

static bool parse_line(char *line, size_t ncpus, struct irq_line *out)
{
	char *colon = strchr(line, ':');
	if (!colon)
		return false;
	char *id = line;
	while (isspace((unsigned char)*id))
		id++;
	if (!all_digits(id, (size_t)(colon - id)))
		return false;
	uint64_t irq;
	*colon = '\0';
	if (parse_u64(id, &irq) < 0 || irq > UINT32_MAX)
		return false;

	char *p = colon + 1;
	uint64_t sum = 0;
	for (size_t i = 0; i < ncpus; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		if (*end && !isspace((unsigned char)*end))
			break;
		sum += v;
		p = end;
	}
	*out = (struct irq_line){ .irq = (unsigned)irq, .count = sum, .names = action_names(p) };
	return true;
}

int irq_table_parse(const char *text, struct irq_table *t)
{
	_cleanup_free_ char *copy = xstrdup(text);
	size_t ncpus = 0;
	bool header = false;
	*t = (struct irq_table){0};
	for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!header) {
			for (char *s2 = NULL, *tok = strtok_r(l, " \t", &s2); tok; tok = strtok_r(NULL, " \t", &s2))
				if (startswith(tok, "CPU"))
					ncpus++;
			header = ncpus > 0;
			if (!header)
				return -EBADMSG;
			continue;
		}
		struct irq_line e;
		if (!parse_line(l, ncpus, &e))
			continue;
		t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
		t->v[t->n++] = e;
	}
	return header ? 0 : -EBADMSG;
}

const struct irq_line *irq_table_find(const struct irq_table *t, unsigned irq)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].irq == irq)
			return &t->v[i];
	return NULL;
}

void irq_table_free(struct irq_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].names);
	free(t->v);
	*t = (struct irq_table){0};
}

/* The path component after the one named after, or the first "prefixN" one. */
static char *component(const char *path, const char *prefix, const char *after)
{
	_cleanup_free_ char *copy = xstrdup(path);
	bool next = false;
	for (char *save = NULL, *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		const char *d = startswith(c, prefix);
		if ((next || !after) && d && str_numbered(d, ""))
			return xstrdup(c);
		next = after && streq(c, after);
	}
	return NULL;
}

void irq_names_for_disk(const char *syspath, const char *driver, const char *pci, struct irq_names *n)
{
	_cleanup_free_ char *nvme = component(syspath, "nvme", NULL);
	_cleanup_free_ char *virtio = component(syspath, "virtio", NULL);
	_cleanup_free_ char *mmc = component(syspath, "mmc", "mmc_host");
	_cleanup_free_ char *usb = component(syspath, "usb", NULL);

	*n = (struct irq_names){0};
	if (nvme)
		strv_take(&n->prefix, xasprintf("%sq", nvme));
	if (virtio) {
		/* virtio-pci: "virtio1-req.0"; virtio-mmio: "virtio1" */
		strv_take(&n->prefix, xasprintf("%s-", virtio));
		strv_push(&n->exact, virtio);
	}
	if (mmc)
		strv_push(&n->exact, mmc);
	if (driver) {
		strv_push(&n->exact, driver);
		if (pci)
			strv_take(&n->exact, xasprintf("%s[%s]", driver, pci));
		if (usb)
			strv_take(&n->exact, xasprintf("%s:%s", driver, usb));
	}
}

bool irq_names_match(const struct irq_names *n, const char *names)
{
	_cleanup_free_ char *copy = xstrdup_or_null(names);
	for (char *save = NULL, *a = copy ? strtok_r(copy, ", ", &save) : NULL; a; a = strtok_r(NULL, ", ", &save)) {
		if (strv_contains(&n->exact, a))
			return true;
		for (size_t i = 0; i < n->prefix.n; i++)
			if (startswith(a, n->prefix.v[i]))
				return true;
	}
	return false;
}

void irq_names_free(struct irq_names *n)
{
	strv_free(&n->exact);
	strv_free(&n->prefix);
}

struct irq_scan {
	struct probe_ctx *ctx;
	struct irq_table table;
	bool have_table;
	struct strv controllers; /* sysfs paths seen */
	json_object *out;
	bool no_controller;   /* a disk whose controller is not known */
	bool no_affinity;     /* /proc/irq/N/ missing */
	const char *silent;   /* a controller no IRQ was found for */
};

/* A list file, else the mask file beside it, as a canonical list; NULL when neither reads. */
static char *read_affinity(struct rootfs *rf, unsigned irq, const char *list_name, const char *mask_name)
{
	_cleanup_free_ char *lp = xasprintf("/proc/irq/%u/%s", irq, list_name);
	_cleanup_free_ char *mp = xasprintf("/proc/irq/%u/%s", irq, mask_name);
	_cleanup_free_ char *s = NULL;
	struct cpuset c = {0};
	int r;
	if (rootfs_read_line(rf, lp, &s) == 0)
		r = cpuset_parse_list(s, &c);
	else if (rootfs_read_line(rf, mp, &s) == 0)
		r = cpuset_parse_mask(s, &c);
	else
		return NULL;
	char *out = r == 0 ? cpuset_format(&c) : NULL;
	cpuset_free(&c);
	return out;
}

/* The CPUs of node id in numa.nodes, false when unknown. */
static bool node_cpus(json_object *rec, int64_t id, struct cpuset *c)
{
	json_object *nodes = jpath(rec, "numa.nodes");
	for (size_t i = 0; nodes && i < json_object_array_length(nodes); i++) {
		json_object *node = json_object_array_get_idx(nodes, i);
		int64_t nid;
		const char *cpus = jpath_str(node, "cpus");
		if (jpath_int(node, "id", &nid) && nid == id && cpus)
			return cpuset_parse_list(cpus, c) == 0;
	}
	return false;
}

static void add_irq(struct irq_scan *s, unsigned irq, json_object *disk)
{
	struct rootfs *rf = s->ctx->rf;
	for (size_t i = 0; i < json_object_array_length(s->out); i++) {
		int64_t seen;
		if (jpath_int(json_object_array_get_idx(s->out, i), "irq", &seen) && seen == irq)
			return;
	}
	const struct irq_line *line = s->have_table ? irq_table_find(&s->table, irq) : NULL;
	_cleanup_free_ char *aff = read_affinity(rf, irq, "smp_affinity_list", "smp_affinity");
	_cleanup_free_ char *eff = read_affinity(rf, irq, "effective_affinity_list", "effective_affinity");
	json_object *q = json_object_new_object();

	jset_int(q, "irq", irq);
	jset_str(q, "name", line ? line->names : NULL);
	if (line)
		jset_int(q, "count", (int64_t)line->count);
	else
		jset_null(q, "count");
	jset_str(q, "affinity", aff);
	jset_str(q, "effective", eff);
	jset_str(q, "controller", jpath_str(disk, "controller.pci") ? jpath_str(disk, "controller.pci")
								   : jpath_str(disk, "controller.path"));
	jset(q, "device_node", json_object_get(jpath(disk, "numa_node")));
	if (!aff)
		s->no_affinity = true;

	/* Where it is served: the effective CPUs, else (older kernels) the allowed ones. */
	int64_t node;
	struct cpuset where = {0}, local = {0};
	const char *served = eff ? eff : aff;
	if (served && jpath_int(disk, "numa_node", &node) && node_cpus(s->ctx->rec, node, &local) &&
	    cpuset_parse_list(served, &where) == 0 && cpuset_count(&where) > 0)
		jset_bool(q, "on_device_node", cpuset_subset(&where, &local));
	else
		jset_null(q, "on_device_node");
	cpuset_free(&where);
	cpuset_free(&local);
	json_object_array_add(s->out, q);
}

/* MSI vectors of a PCI function: the names of msi_irqs/. */
static size_t add_msi_irqs(struct irq_scan *s, const char *ctrl, json_object *disk)
{
	_cleanup_free_ char *dir = xasprintf("%s/msi_irqs", ctrl);
	struct strv names = {0};
	size_t n = 0;
	if (rootfs_list(s->ctx->rf, dir, &names) < 0)
		return 0;
	for (size_t i = 0; i < names.n; i++) {
		uint64_t irq;
		if (parse_u64(names.v[i], &irq) < 0 || irq > UINT32_MAX)
			continue;
		/* The names are the data: a gathered dump must hold each entry. */
		_cleanup_free_ char *entry = xasprintf("%s/%s", dir, names.v[i]);
		rootfs_trace_add(s->ctx->rf, entry, TRACE_EXISTS);
		add_irq(s, (unsigned)irq, disk);
		n++;
	}
	strv_free(&names);
	return n;
}

static size_t add_named_irqs(struct irq_scan *s, json_object *disk)
{
	struct irq_names names;
	size_t n = 0;
	const char *syspath = jpath_str(disk, "syspath");
	if (!s->have_table || !syspath)
		return 0;
	irq_names_for_disk(syspath, jpath_str(disk, "controller.driver"), jpath_str(disk, "controller.pci"), &names);
	for (size_t i = 0; i < s->table.n; i++)
		if (irq_names_match(&names, s->table.v[i].names)) {
			add_irq(s, s->table.v[i].irq, disk);
			n++;
		}
	irq_names_free(&names);
	return n;
}

static void scan_disk(json_object *disk, void *data)
{
	struct irq_scan *s = data;
	const char *ctrl = jpath_str(disk, "controller.path");
	const char *kind = jpath_str(disk, "kind");
	static const char *const no_controller[] = { "loop", "zram", "ram" };
	for (size_t i = 0; i < ARRAY_SIZE(no_controller); i++)
		if (streq_ptr(kind, no_controller[i]))
			return;
	if (!ctrl) {
		s->no_controller = true;
		return;
	}
	if (strv_contains(&s->controllers, ctrl))
		return;
	strv_push(&s->controllers, ctrl);
	if (add_msi_irqs(s, ctrl, disk) || add_named_irqs(s, disk))
		return;
	/* A legacy INTx line: the PCI function's irq. */
	_cleanup_free_ char *p = xasprintf("%s/irq", ctrl);
	uint64_t irq;
	if (jpath_str(disk, "controller.pci") && rootfs_read_u64(s->ctx->rf, p, &irq) == 0 && irq > 0 &&
	    irq <= UINT32_MAX)
		add_irq(s, (unsigned)irq, disk);
	else
		s->silent = ctrl;
}

json_object *numa_storage_irqs(struct probe_ctx *ctx)
{
	struct irq_scan s = { .ctx = ctx };
	_cleanup_free_ char *text = NULL;
	json_object *dev = jpath(ctx->rec, "storage.device");

	if (!dev) {
		probe_unavailable(ctx, "numa", "storage IRQs: the workdir's device is not known");
		return NULL;
	}
	if (rootfs_read(ctx->rf, "/proc/interrupts", &text, NULL) == 0)
		s.have_table = irq_table_parse(text, &s.table) == 0;
	s.out = json_object_new_array();
	storage_foreach_disk(ctx->rec, scan_disk, &s);
	if (json_object_array_length(s.out) == 0 && (s.no_controller || s.silent)) {
		if (s.silent)
			probe_unavailable(ctx, "numa", "storage IRQs: none found for %s (no msi_irqs/, and %s)", s.silent,
					  s.have_table ? "no line of /proc/interrupts names it" : "no readable /proc/interrupts");
		else
			probe_unavailable(ctx, "numa", "storage IRQs: the controller of the workdir's disk is not known");
		json_object_put(s.out);
		s.out = NULL;
	} else if (s.no_affinity) {
		probe_unavailable(ctx, "numa", "storage IRQs: /proc/irq/N/smp_affinity_list is missing");
	}
	irq_table_free(&s.table);
	strv_free(&s.controllers);
	return s.out;
}
