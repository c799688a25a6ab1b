/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The facts of a result that set its host apart from the others of a
 * fleet, and their ranking. */
#include "analysis/fleet.h"

#include <math.h>

#include "analysis/result-facts.h"
#include "lib/util.h"

/* The vulnerabilities the kernel mitigates: "spectre_v1, spectre_v2", or "none". */
static char *get_mitigations(const struct result_env *res)
{
	json_object *v = res->env.cpu.vulnerabilities;
	if (!v || !json_object_is_type(v, json_type_object))
		return NULL;
	struct strv names = {0};
	json_object_object_foreach(v, name, state) {
		const char *s = json_object_get_string(state);
		if (s && startswith(s, "Mitigation"))
			strv_push(&names, name);
	}
	strv_sort(&names);
	char *out = names.n ? strv_join(&names, ", ") : xstrdup("none");
	strv_free(&names);
	return out;
}

/* "a rotating disk", "an SD card": the medium under a file system. */
static const char *medium_words(const struct env_device *dev)
{
	static const struct {
		const char *kind, *words;
	} kinds[] = {
		{ "hdd", "a rotating disk" }, { "ssd", "an SSD" }, { "nvme", "an NVMe SSD" },
		{ "virtio", "a virtio disk" }, { "usb", "a USB disk" }, { "loop", "a loop device" },
		{ "zram", "zram" }, { "ram", "a RAM disk" },
	};
	const char *kind = dev ? dev->kind : NULL;
	if (kind && streq(kind, "mmc")) {
		const char *type = dev->mmc_type;
		return type && streq(type, "sd") ? "an SD card" : type && streq(type, "emmc") ? "eMMC" : "an MMC card";
	}
	for (size_t i = 0; kind && i < ARRAY_SIZE(kinds); i++)
		if (streq(kind, kinds[i].kind))
			return kinds[i].words;
	return NULL;
}

/* "tmpfs", "ext4 on a rotating disk", "xfs" (the device not known). */
static char *get_workdir(const struct result_env *res)
{
	const struct env_storage *st = &res->env.storage;
	const char *fs = st->mount.fstype, *kind = st->device ? st->device->kind : NULL;
	if ((fs && streq(fs, "tmpfs")) || (kind && streq(kind, "tmpfs")))
		return xstrdup("tmpfs");
	const char *medium = medium_words(st->device);
	if (fs && medium)
		return xasprintf("%s on %s", fs, medium);
	if (fs)
		return xstrdup(fs);
	return medium ? xstrdup(medium) : NULL;
}

/* Rounded so that the same memory with another kernel's reservations is
 * the same: to 0.5 GiB below 16 GiB, to 1 GiB above. */
static char *get_memory(const struct result_env *res)
{
	int64_t kib = int_or(res->env.memory.total_kib, 0);
	if (kib <= 0)
		return NULL;
	double gib = (double)kib / (1024.0 * 1024.0);
	if (gib < 1)
		return xasprintf("%.0f MiB", round(gib * 1024 / 64) * 64);
	if (gib < 16)
		return xasprintf("%.1f GiB", round(gib * 2) / 2);
	return xasprintf("%.0f GiB", round(gib));
}

static const char *steal_bucket(double pct)
{
	return pct < 2 ? "none" : pct < 5 ? "2-5 %" : pct < 10 ? "5-10 %" : pct < 20 ? "10-20 %" : "over 20 %";
}

/* Steal time during the run (the sampler's readings), else since boot. */
static char *get_steal(const struct result_env *res)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < res->r.samples.n; i++)
		if (res->r.samples.v[i].steal_pct.known) {
			sum += res->r.samples.v[i].steal_pct.v;
			n++;
		}
	if (n)
		return xasprintf("%s during the run", steal_bucket(sum / (double)n));
	if (res->env.virt.steal_pct.known)
		return xasprintf("%s since boot", steal_bucket(res->env.virt.steal_pct.v));
	return NULL;
}

/* The CPU time its cgroup may use: "25 % of a CPU", "2 CPUs", "none";
 * NULL when the probe read no cgroup (an older record, an imported log). */
static char *get_cpu_quota(const struct result_env *res)
{
	const struct env_cgroup *cg = &res->env.cgroup;
	if (!cg->version.known)
		return NULL;
	if (!cg->cpu_quota_cpus.known)
		return xstrdup("none");
	double cpus = cg->cpu_quota_cpus.v;
	if (cpus < 1)
		return xasprintf("%.0f %% of a CPU", cpus * 100);
	return xasprintf("%g CPU%s", round(cpus * 100) / 100, cpus == 1 ? "" : "s");
}

/* "thermal x2, low-clock", "none": the sampler's events that lower clocks. */
static char *get_throttling(const struct result_env *res)
{
	static const char *const kinds[] = { "undervoltage", "thermal", "throttle", "low-clock", "hwmon-alarm" };
	if (!res->r.sampler.json)
		return NULL;
	struct buf b = {0};
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		size_t count = 0;
		for (size_t i = 0; i < res->r.events.n; i++)
			count += streq_ptr(res->r.events.v[i].kind, kinds[k]);
		if (count)
			buf_printf(&b, "%s%s", b.len ? ", " : "", kinds[k]);
		if (count > 1)
			buf_printf(&b, " x%zu", count);
	}
	return b.len ? buf_steal(&b) : xstrdup("none");
}

static char *get_services(const struct result_env *res)
{
	const struct env_services *sv = &res->env.services;
	if (!sv->noisy.json)
		return NULL;
	struct strv names = {0};
	for (size_t i = 0; i < sv->noisy.n; i++) {
		const char *name = sv->noisy.v[i].unit ?: sv->noisy.v[i].process;
		if (name && !strv_contains(&names, name))
			strv_push(&names, name);
	}
	strv_sort(&names);
	char *out = names.n ? strv_join(&names, ", ") : xstrdup("none");
	strv_free(&names);
	return out;
}

/* "gcc (Debian 12.2.0-14) 12.2.0, -O3 -ffast-math" */
static char *get_build(const struct result_env *res)
{
	const char *flags = res->r.build.cflags, *cc = res->r.build.cc_version;
	if (!flags && !cc)
		return NULL;
	return xasprintf("%s%s%s", cc ? cc : "", cc && flags ? ", " : "", flags ? flags : "");
}

/* "LENOVO 20XW005JGE (ThinkPad X1 Carbon Gen 9), BIOS LENOVO" */
static char *get_firmware(const struct result_env *res)
{
	typeof(res->env.virt.dmi) *dmi = &res->env.virt.dmi;
	const char *vendor = dmi->sys_vendor, *product = dmi->product_name;
	const char *version = dmi->product_version, *bios = dmi->bios_vendor;
	if (!vendor && !product && !bios)
		return NULL;
	struct buf b = {0};
	buf_printf(&b, "%s%s%s", vendor ?: "", vendor && product ? " " : "", product ?: "");
	if (version && *version)
		buf_printf(&b, " (%s)", version);
	if (bios)
		buf_printf(&b, "%sBIOS %s", b.len ? ", " : "", bios);
	return buf_steal(&b);
}

/* "bare metal", "a kvm guest", "in a docker container" */
static char *get_virt(const struct result_env *res)
{
	const char *role = res->env.virt.role, *hv = res->env.virt.hypervisor, *ct = res->env.virt.container;
	if (!role)
		return NULL;
	struct buf b = {0};
	if (streq(role, "guest"))
		buf_printf(&b, "a %s guest", hv ? hv : "virtual machine");
	else
		buf_puts(&b, streq(role, "none") || streq(role, "host") ? "bare metal" : role);
	if (ct)
		buf_printf(&b, " in a %s container", ct);
	return buf_steal(&b);
}

/* The tests the kernel's entry paths weigh on: all but the CPU-bound two. */
#define DT_SYSTEM (DT_ALL & ~DT_CPU)

const struct fleet_fact fleet_facts[] = {
	{ "governor", DT_ALL, fact_governor, "its governor is %s", "theirs %s" },
	{ "kernel", DT_SYSTEM, fact_kernel, "it runs kernel %s", "they run %s" },
	{ "mitigations", DT_SYSTEM, get_mitigations, "its kernel mitigates %s", "theirs %s" },
	{ "workdir medium", DT_FILECOPY | DT_SHELL, get_workdir, "its workdir is on %s", "theirs on %s" },
	{ "memory", DT_FILECOPY | DT_PROCESS | DT_SHELL, get_memory, "it has %s of memory", "they have %s" },
	{ "CPU quota", DT_ALL, get_cpu_quota, "its cgroup's CPU quota is %s", "theirs %s" },
	{ "steal time", DT_ALL, get_steal, "its steal time is %s", "theirs %s" },
	{ "throttling events", DT_ALL, get_throttling, "its run had throttling events: %s",
	  "theirs: %s" },
	{ "noisy services", DT_ALL, get_services, "noisy services on it: %s", "on them: %s" },
	{ "build", DT_CPU, get_build, "its workloads were built with %s", "theirs with %s" },
	{ "firmware", DT_ALL, get_firmware, "its firmware says %s", "theirs %s" },
	{ "CPU", DT_ALL, fact_cpu, "its CPU is %s", "theirs %s" },
	{ "online CPUs", DT_ALL, fact_online_cpus, "it has %s CPUs online", "they have %s" },
	{ "virtualisation", DT_ALL, get_virt, "it runs on %s", "they on %s" },
	{ "profile", DT_ALL, fact_profile, "its profile is %s", "theirs %s" },
	{ "max clock", DT_ALL, fact_max_clock, "its CPUs reach %s", "theirs %s" },
	{ "boost", DT_ALL, fact_boost, "its boost is %s", "theirs %s" },
	{ "THP", DT_PROCESS | DT_SHELL, fact_thp, "its transparent huge pages are %s", "theirs %s" },
};
const size_t fleet_nfacts = ARRAY_SIZE(fleet_facts);

/* ---- ranking ---- */

struct difference {
	size_t fact;
	bool relevant;
	double separation;
	json_object *o;
};

/* How many tests a fact moves: the fewer, the more it says about one. */
static int breadth(size_t fact)
{
	return __builtin_popcount(fleet_facts[fact].tests);
}

static int by_rank(const void *a, const void *b)
{
	const struct difference *x = a, *y = b;
	if (x->relevant != y->relevant)
		return x->relevant ? -1 : 1;
	if (x->separation != y->separation)
		return x->separation > y->separation ? -1 : 1;
	if (breadth(x->fact) != breadth(y->fact))
		return breadth(x->fact) < breadth(y->fact) ? -1 : 1;
	return (x->fact > y->fact) - (x->fact < y->fact);
}

/* The peers' values of a fact, most common first (ties: first seen). */
struct tally {
	struct strv values;
	size_t *counts;
	size_t known;
};

static void tally_add(struct tally *t, const char *v)
{
	t->known++;
	for (size_t i = 0; i < t->values.n; i++)
		if (streq(t->values.v[i], v)) {
			t->counts[i]++;
			return;
		}
	strv_push(&t->values, v);
	t->counts[t->values.n - 1] = 1;
}

static void tally_sort(struct tally *t)
{
	for (size_t i = 1; i < t->values.n; i++)
		for (size_t j = i; j > 0 && t->counts[j] > t->counts[j - 1]; j--) {
			size_t c = t->counts[j];
			t->counts[j] = t->counts[j - 1];
			t->counts[j - 1] = c;
			char *s = t->values.v[j];
			t->values.v[j] = t->values.v[j - 1];
			t->values.v[j - 1] = s;
		}
}

static size_t tally_count(const struct tally *t, const char *v)
{
	for (size_t i = 0; i < t->values.n; i++)
		if (streq(t->values.v[i], v))
			return t->counts[i];
	return 0;
}

static json_object *difference_json(const struct fleet_fact *f, const char *own, const struct tally *t,
				    double share, bool relevant)
{
	json_object *o = json_object_new_object(), *peers = json_object_new_array();
	jset_str(o, "fact", f->name);
	jset_str(o, "value", own);
	for (size_t i = 0; i < t->values.n; i++) {
		json_object *p = json_object_new_object();
		jset_str(p, "value", t->values.v[i]);
		jset_int(p, "hosts", (int64_t)t->counts[i]);
		json_object_array_add(peers, p);
	}
	jset(o, "peers", peers);
	jset_int(o, "peers_known", (int64_t)t->known);
	jset_round(o, "share", share, 3);
	jset_bool(o, "relevant", relevant);
	_cleanup_free_ char *mine = xasprintf(f->own, own);
	_cleanup_free_ char *theirs = xasprintf(f->theirs, t->values.v[0]);
	if (t->counts[0] < t->known) {
		char *more = xasprintf("%s (%zu of %zu)", theirs, t->counts[0], t->known);
		free(theirs);
		theirs = more;
	}
	jset_str(o, "own", mine);
	jset_str(o, "theirs", theirs);
	return o;
}

json_object *fleet_differences(const struct fleet_digest *res, const struct fleet_digest *const *peers, size_t npeers,
			       int t)
{
	struct difference *d = xcalloc(fleet_nfacts, sizeof(*d));
	size_t nd = 0;
	for (size_t f = 0; f < fleet_nfacts; f++) {
		const char *own = res->facts[f];
		if (!own)
			continue;
		struct tally tl = { .counts = xcalloc(npeers + 1, sizeof(size_t)) };
		for (size_t p = 0; p < npeers; p++)
			if (peers[p]->facts[f])
				tally_add(&tl, peers[p]->facts[f]);
		double share = tl.known ? (double)tally_count(&tl, own) / (double)tl.known : 1;
		if (tl.known && share < 0.5) {
			tally_sort(&tl);
			bool relevant = t < 0 || (fleet_facts[f].tests & DT(t));
			d[nd] = (struct difference){ f, relevant, (1 - share) * (double)tl.counts[0] / (double)tl.known,
						     difference_json(&fleet_facts[f], own, &tl, share, relevant) };
			nd++;
		}
		strv_free(&tl.values);
		free(tl.counts);
	}
	qsort(d, nd, sizeof(*d), by_rank);
	json_object *out = json_object_new_array();
	for (size_t i = 0; i < nd; i++) {
		jset_double(d[i].o, "separation", round(d[i].separation * 1000) / 1000);
		json_object_array_add(out, d[i].o);
	}
	free(d);
	return out;
}
