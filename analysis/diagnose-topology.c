/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What N copies can reach: the kinds of core a machine has, their cores
 * and SMT siblings, and the speed of each kind against the fastest. The
 * probe's cpu.kinds say it (sysfs: core types, cpu_capacity, topology);
 * an imported log has only its header's CPU lines (model names, the
 * Hyper-Threading flag). Copies fill the fastest cores first, then the
 * slower kinds, then the siblings of busy cores, as the scheduler places
 * them once every CPU has work.
 */
#include "diagnose.h"
#include "lib/cpuset.h"

/* A hyperthread adds this share of a core to Dhrystone and Whetstone: the
 * two threads of a core share its execution units. */
#define SMT_GAIN 0.25
/* A small core of a hybrid CPU against a big one on Dhrystone and
 * Whetstone where nothing measures it: Cortex-A55 at 1.8 GHz against
 * Cortex-A76 at 2.4 GHz (RK3588), an Intel E-core against a P-core at
 * their clocks: about half. */
#define LITTLE_SPEED 0.45

/* The small core of two kinds: Cortex-A5x/A3x against A7x/X, an E-core. */
static bool little_kind(const char *model)
{
	return model && (strstr(model, "A55") || strstr(model, "A53") || strstr(model, "A35") || strstr(model, "A510") ||
			 strstr(model, "A520") || strcasestr(model, "efficien") || strstr(model, "E-core"));
}

/* Intel parts whose cores are of two kinds (Alder Lake and later): a log
 * that names one model for all its CPUs does not give the split. */
static bool hybrid_model(const char *model)
{
	static const char *const parts[] = { "12th Gen Intel", "13th Gen Intel", "14th Gen Intel", "Core(TM) Ultra",
					     "Core Ultra" };
	for (size_t i = 0; model && i < ARRAY_SIZE(parts); i++)
		if (strstr(model, parts[i]))
			return true;
	return false;
}

static unsigned list_count(const char *list)
{
	struct cpuset set = {0};
	unsigned n = list && cpuset_parse_list(list, &set) == 0 ? (unsigned)cpuset_count(&set) : 0;
	cpuset_free(&set);
	return n;
}

static unsigned positive(struct opt_int v)
{
	return v.known && v.v > 0 && v.v < 1000000 ? (unsigned)v.v : 0;
}

static void add_kind(struct diag_topology *t, const char *name, unsigned cpus, unsigned cores, double speed)
{
	if (t->n >= DIAG_MAX_KINDS || !cpus)
		return;
	t->kinds[t->n++] = (struct diag_kind){ name, cpus, cores && cores <= cpus ? cores : cpus, speed };
}

/* The probe's kinds: one entry per kind of core, with its CPUs, cores,
 * threads, core type (Intel) and capacity (arm64's cpu_capacity, the
 * scheduler's measure of a core's speed at its top clock). */
static void probe_kinds(const struct env_record *env, struct diag_topology *t)
{
	size_t n = env->cpu.kinds.n;
	int64_t top = 0;
	bool capacities = n > 1, any_big = false;
	for (size_t i = 0; i < n; i++) {
		const struct env_cpu_kind *k = &env->cpu.kinds.v[i];
		capacities &= positive(k->capacity) > 0;
		top = int_or(k->capacity, 0) > top ? k->capacity.v : top;
		any_big |= !streq_ptr(k->core_type, "efficiency") && !little_kind(k->model);
	}
	for (size_t i = 0; i < n; i++) {
		const struct env_cpu_kind *k = &env->cpu.kinds.v[i];
		unsigned cpus = list_count(k->cpus) ?: positive(k->threads), cores = positive(k->cores);
		if (n == 1) {
			cpus = cpus ?: positive(env->cpu.threads);
			cores = cores ?: positive(env->cpu.cores);
		}
		double speed = 1;
		if (capacities)
			speed = (double)k->capacity.v / (double)top;
		else if (any_big && (streq_ptr(k->core_type, "efficiency") || little_kind(k->model)))
			speed = LITTLE_SPEED;
		const char *name = streq_ptr(k->core_type, "performance") ? "P-core"
				   : streq_ptr(k->core_type, "efficiency") ? "E-core"
									   : k->model;
		add_kind(t, name ?: "CPU", cpus, cores, speed);
	}
}

/* Two kinds of model among a log's CPU lines, the small one known. */
static bool header_kinds(const struct env_record *env, struct diag_topology *t)
{
	const char *a = NULL, *b = NULL;
	unsigned na = 0, nb = 0;
	for (size_t i = 0; i < env->unixbench.cpus.n; i++) {
		const char *m = env->unixbench.cpus.v[i].model;
		if (!m)
			return false;
		if (!a || streq(m, a)) {
			a = m;
			na++;
		} else if (!b || streq(m, b)) {
			b = m;
			nb++;
		} else {
			return false;
		}
	}
	if (!b || little_kind(a) == little_kind(b))
		return false; /* one kind, or two but not which is the fast one */
	bool a_little = little_kind(a);
	add_kind(t, a_little ? b : a, a_little ? nb : na, 0, 1);
	add_kind(t, a_little ? a : b, a_little ? na : nb, 0, LITTLE_SPEED);
	return true;
}

static int kind_cmp(const void *pa, const void *pb)
{
	const struct diag_kind *a = pa, *b = pb;
	return a->speed > b->speed ? -1 : a->speed < b->speed;
}

void diag_case_topology(struct diag_case *c)
{
	const struct env_record *env = diag_env(c);
	struct diag_topology *t = &c->topo;
	*t = (struct diag_topology){0};
	if (env->cpu.kinds.n) {
		probe_kinds(env, t);
		t->source = "probe";
	} else if (header_kinds(env, t)) {
		t->source = "header";
	} else if (c->hdr.threads) {
		/* one kind: SMT from the probe's cores, or every CPU line flagging Hyper-Threading */
		add_kind(t, NULL, c->hdr.threads, c->hdr.cores, 1);
		t->source = env->cpu.threads.known ? "probe" : "header";
	}
	qsort(t->kinds, t->n, sizeof(*t->kinds), kind_cmp);
	/* a hybrid part seen as one kind: its split is not known */
	const char *model = c->cpu_model ?: env->unixbench.cpus.n ? env->unixbench.cpus.v[0].model : NULL;
	if (t->n <= 1 && hybrid_model(model)) {
		t->hybrid_unsplit = true;
		t->hybrid_model = model;
	}
}

/* One slot per core at its kind's speed, then one per SMT sibling. */
static size_t slots(const struct diag_topology *t, double *v, size_t max)
{
	size_t n = 0;
	for (size_t k = 0; k < t->n; k++)
		for (unsigned i = 0; i < t->kinds[k].cpus && n < max; i++)
			v[n++] = i < t->kinds[k].cores ? t->kinds[k].speed : t->kinds[k].speed * SMT_GAIN;
	return n;
}

static int slot_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return a > b ? -1 : a < b;
}

#define MAX_SLOTS 4096

double diag_topology_capacity(const struct diag_topology *t, unsigned n)
{
	double v[MAX_SLOTS];
	size_t m = slots(t, v, ARRAY_SIZE(v));
	if (!m)
		return n;
	qsort(v, m, sizeof(*v), slot_cmp);
	double sum = 0;
	for (size_t i = 0; i < m && i < n; i++)
		sum += v[i];
	return sum;
}

double diag_smt_capacity(unsigned n)
{
	return (n + 1) / 2 + n / 2 * SMT_GAIN;
}

double diag_capacity(const struct diag_case *c, const struct diag_run *r)
{
	return diag_topology_capacity(&c->topo, diag_parallel(c, r));
}

/*
 * The CPUs n copies get, by kind, as slots() fills them: "4 Cortex-A76 + 4
 * Cortex-A55", "8 threads on 4 cores", "12 threads on 6 P-cores + 8 E-cores".
 */
void diag_topology_text(const struct diag_topology *t, unsigned n, char *buf, size_t size)
{
	struct buf b = {0};
	unsigned left = n, cores_used[DIAG_MAX_KINDS] = {0}, cpus_used[DIAG_MAX_KINDS] = {0};
	/* cores first, fastest kind first; then the siblings */
	for (size_t k = 0; k < t->n && left; k++) {
		unsigned u = t->kinds[k].cores < left ? t->kinds[k].cores : left;
		cores_used[k] = cpus_used[k] = u;
		left -= u;
	}
	for (size_t k = 0; k < t->n && left; k++) {
		unsigned u = t->kinds[k].cpus - t->kinds[k].cores < left ? t->kinds[k].cpus - t->kinds[k].cores : left;
		cpus_used[k] += u;
		left -= u;
	}
	bool named = t->n > 1;
	for (size_t k = 0; k < t->n; k++) {
		if (!cpus_used[k])
			continue;
		const char *name = named ? t->kinds[k].name : NULL;
		bool plural = cores_used[k] != 1, pkind = name && (streq(name, "P-core") || streq(name, "E-core"));
		if (cpus_used[k] > cores_used[k])
			buf_printf(&b, "%s%u threads on %u %s%s", b.len ? " + " : "", cpus_used[k], cores_used[k],
				   name ?: "core", plural ? "s" : "");
		else if (name)
			buf_printf(&b, "%s%u %s%s", b.len ? " + " : "", cpus_used[k], name, pkind && plural ? "s" : "");
		else
			buf_printf(&b, "%s%u %s", b.len ? " + " : "", cpus_used[k], cpus_used[k] == 1 ? "CPU" : "CPUs");
	}
	if (!b.len || left)
		snprintf(buf, size, "%u %s", n, n == 1 ? "CPU" : "CPUs");
	else
		snprintf(buf, size, "%s", b.s);
	buf_free(&b);
}

void diag_cpus_text(const struct diag_case *c, const struct diag_run *r, char *buf, size_t size)
{
	diag_topology_text(&c->topo, diag_parallel(c, r), buf, size);
}
