/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The case a diagnosis works on: a result's runs, its machine, its references. */
#include <errno.h>

#include "diagnose.h"
#include "lib/cpuset.h"

/* Every test this many times off the references: another class of machine
 * (emulated, another clock), whose test-by-test ratios mean nothing. */
#define COMPARABLE_FACTOR 4.0

int diag_test_lookup(const char *s)
{
	if (!s)
		return -1;
	for (int t = 0; t < DIAG_NTESTS; t++)
		if (streq(s, ub_tests[t].id) || streq(s, ub_tests[t].name))
			return t;
	return -1;
}

double diag_gm(const struct diag_run *r, unsigned mask)
{
	double sum = 0;
	unsigned n = 0;
	for (int t = 0; t < DIAG_NTESTS; t++)
		if ((mask & DT(t)) && r->index[t] > 0) {
			sum += log(r->index[t]);
			n++;
		}
	return n ? exp(sum / n) : NAN;
}

void diag_run_score(struct diag_run *r)
{
	r->ntests = 0;
	for (int t = 0; t < DIAG_NTESTS; t++)
		r->ntests += r->index[t] > 0;
	r->score = diag_gm(r, DT_ALL);
}

const char *diag_virt_name(enum diag_virt v)
{
	static const char *const names[] = { "unknown", "bare metal", "guest", "emulated" };
	return names[v];
}

/* ---- the result's runs ---- */

/* A test entry's index: its own, else 10 × result / baseline. */
static double test_index(const struct result_test *t)
{
	if (t->index.known)
		return t->index.v > 0 ? t->index.v : NAN;
	if (t->result.known && t->baseline.known && t->result.v > 0 && t->baseline.v > 0)
		return 10 * t->result.v / t->baseline.v;
	return NAN;
}

void diag_read_run(const struct result_run *o, struct diag_run *r)
{
	int64_t copies = int_or(o->copies, 0);
	r->copies = copies > 0 && copies < 1000000 ? (unsigned)copies : 0;
	for (int t = 0; t < DIAG_NTESTS; t++)
		r->index[t] = NAN;
	for (size_t i = 0; i < o->tests.n; i++) {
		const struct result_test *t = &o->tests.v[i];
		int k = diag_test_lookup(t->id);
		if (k < 0)
			k = diag_test_lookup(t->name);
		if (k >= 0)
			r->index[k] = test_index(t);
	}
	diag_run_score(r);
	/* a score the log printed is the score (the mean of rounded indexes
	 * can differ in the last digit) */
	if (r->ntests && streq_ptr(o->index.score_source, "report") && num_or(o->index.score, 0) > 0) {
		r->score = o->index.score.v;
		r->score_printed = !is_true(o->index.partial);
	}
}

/* ---- the machine ---- */

unsigned diag_env_cpus(const struct result_record *rec, const struct env_record *env)
{
	int64_t n = int_or(rec->online_cpus, 0);
	if (n > 0 && n < 1000000)
		return (unsigned)n;
	const char *list = env->cpu.online;
	struct cpuset set = {0};
	unsigned count = 0;
	if (list && cpuset_parse_list(list, &set) == 0)
		count = (unsigned)cpuset_count(&set);
	cpuset_free(&set);
	return count;
}

enum diag_virt diag_env_virt(const struct env_record *env, const char **hypervisor)
{
	const char *role = env->virt.role;
	*hypervisor = env->virt.hypervisor;
	if (streq_ptr(*hypervisor, "qemu-tcg"))
		return DV_EMULATED;
	if (streq_ptr(role, "guest"))
		return DV_GUEST;
	/* a host (it can run KVM guests) is not itself virtual */
	if (streq_ptr(role, "none") || streq_ptr(role, "host"))
		return DV_NONE;
	return DV_UNKNOWN;
}

int diag_env_workdir_memory(const struct env_record *env)
{
	static const char *const memory_fs[] = { "tmpfs", "ramfs" }, *const memory_kinds[] = { "tmpfs", "ram", "zram" };
	const char *fstype = env->storage.mount.fstype, *kind = env->storage.device ? env->storage.device->kind : NULL;
	for (size_t i = 0; i < ARRAY_SIZE(memory_fs); i++)
		if (streq_ptr(fstype, memory_fs[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(memory_kinds); i++)
		if (streq_ptr(kind, memory_kinds[i]))
			return 1;
	return fstype || kind ? 0 : -1;
}

bool diag_env_undervoltage(const struct result_record *rec, const struct env_record *env)
{
	bool now = is_true(env->power.undervoltage_now);
	for (size_t i = 0; i < rec->events.n; i++)
		now |= streq_ptr(rec->events.v[i].kind, "undervoltage");
	return now || int_or(env->power.undervoltage_events, 0) > 0;
}

/*
 * A probe record with its findings evaluated, rather than the few facts
 * of an imported log's header (which says "unavailable": [{"area": "all"}]):
 * only then does a missing finding mean that nothing was found.
 */
static bool whole_record(const struct env_record *env)
{
	if (!env->findings.json)
		return false;
	for (size_t i = 0; i < env->unavailable.n; i++)
		if (streq_ptr(env->unavailable.v[i].area, "all"))
			return false;
	return true;
}

static json_object *object_or_null(json_object *o)
{
	return o && json_object_is_type(o, json_type_object) ? o : NULL;
}

/* The environment record at path ("environment.before"), when the result has one. */
static int decode_env(json_object *o, const char *path, struct env_record *env, char **error)
{
	return env_decode(object_or_null(o), path, env, error);
}

/* ---- matching reference runs ---- */

/*
 * How close a reference run is to the case (higher is closer). Unknown
 * virtualisation prefers bare metal: what the CPU can do.
 */
static int similarity(const struct diag_case *c, const struct diag_ref *r)
{
	int s = 0;
	if (c->virt == DV_UNKNOWN)
		s += r->virt == DV_NONE ? 4 : r->virt == DV_GUEST ? 2 : r->virt == DV_UNKNOWN ? 1 : 0;
	else if (r->virt == c->virt)
		s += 4;
	else if (r->virt == DV_UNKNOWN)
		s += 1;
	if (c->virt == DV_GUEST && r->vmm && streq_ptr(c->hypervisor, r->vmm))
		s += 1;
	if (c->cpus && r->cpus)
		s += c->cpus == r->cpus ? 2 : 0;
	else
		s += 1;
	/* the kernel moves the system tests more than a hypervisor does: System
	 * Call Overhead 85 on a Raspberry Pi 4 with 6.1, 135 with 5.4, 426 in a
	 * 4.19 guest on it */
	if (streq_ptr(diag_env_str(c, host.kernel_release), r->kernel))
		s += 3;
	/* the person's own earlier run of this machine is closer than any */
	if (r->history && streq_ptr(c->r.host, r->host))
		s += 3;
	return s;
}

static void match_run(const struct diag_case *c, const struct diag_run *run, struct diag_match *m)
{
	*m = (struct diag_match){0};
	if (!c->refs || !c->cpu_model)
		return;
	int best = -1;
	for (size_t i = 0; i < c->refs->n; i++) {
		const struct diag_ref *r = &c->refs->v[i];
		if (r->run.copies != run->copies || !diag_same_cpu(c->cpu_model, r->cpu) ||
		    streq_ptr(r->group, c->exclude_group))
			continue;
		int s = similarity(c, r);
		if (s > best) {
			best = s;
			m->n = 0;
		}
		if (s == best && m->n < DIAG_MAX_MATCH)
			m->refs[m->n++] = r;
	}
	for (int t = 0; t < DIAG_NTESTS; t++) {
		double sum = 0;
		unsigned n = 0;
		for (size_t i = 0; i < m->n; i++) {
			double v = m->refs[i]->run.index[t];
			if (!(v > 0) || !diag_ref_clean(m->refs[i], (enum diag_test)t))
				continue;
			m->lo[t] = n ? fmin(m->lo[t], v) : v;
			m->hi[t] = n ? fmax(m->hi[t], v) : v;
			sum += log(v);
			n++;
		}
		m->has[t] = n > 0;
		m->mid[t] = n ? exp(sum / n) : NAN;
	}
	if (m->n) {
		static const char *const kinds[] = { "not said whether virtual", "bare metal", "guests", "emulated" };
		snprintf(m->basis, sizeof(m->basis), "%ssame CPU and copies; %s%s",
			 m->refs[0]->history ? "your own results; " : "", kinds[m->refs[0]->virt],
			 streq_ptr(diag_env_str(c, host.kernel_release), m->refs[0]->kernel) ? "; same kernel" : "");
	}
}

int diag_case_init(struct diag_case *c, json_object *rec, const struct diag_refs *refs, const char *exclude_group,
		   char **error)
{
	*c = (struct diag_case){ .rec = rec, .refs = refs, .exclude_group = exclude_group };
	*error = NULL;
	if (result_decode(rec, &c->r, error) < 0 ||
	    decode_env(c->r.environment.before, "environment.before", &c->before, error) < 0 ||
	    decode_env(c->r.environment.after, "environment.after", &c->after, error) < 0) {
		diag_case_free(c);
		return -EINVAL;
	}
	const struct result_run *runs = c->r.runs.v;
	size_t n = c->r.runs.n, uncounted = 0;
	for (size_t i = 0; i < n && c->nruns < DIAG_MAX_RUNS; i++) {
		struct diag_run *r = &c->runs[c->nruns];
		diag_read_run(&runs[i], r);
		if (r->copies)
			c->nruns++;
		else if (r->ntests)
			uncounted++;
	}
	bool scored = false;
	for (size_t i = 0; i < c->nruns; i++)
		scored |= c->runs[i].ntests > 0;
	if (!scored && uncounted) {
		/* no run says its copies: keep them, as runs of unknown copies (0), so that what does not
		   depend on copies (the header, ratios within a run) is still read */
		for (size_t i = 0; i < n && c->nruns < DIAG_MAX_RUNS; i++) {
			struct diag_run *r = &c->runs[c->nruns];
			diag_read_run(&runs[i], r);
			if (r->ntests)
				c->nruns++;
		}
		scored = c->nruns > 0;
		c->copies_unknown = true;
	}
	for (size_t i = 0; i < n; i++)
		c->baselines_own |= runs[i].index.comparable.known && !runs[i].index.comparable.v;
	if (!scored) {
		/* runs of which only the score is printed: compared with their
		 * siblings by the score, and only their header is judged */
		c->nruns = 0;
		for (size_t i = 0; i < n && c->nruns < DIAG_MAX_RUNS; i++) {
			struct diag_run *r = &c->runs[c->nruns];
			diag_read_run(&runs[i], r);
			if (runs[i].tests.n || num_or(runs[i].index.score, 0) <= 0)
				continue;
			r->score = runs[i].index.score.v;
			c->nruns++;
		}
		scored = c->scores_only = c->nruns > 0;
	}
	if (!scored) {
		*error = xstrdup("the result has no scored test (runs[].tests[].index)");
		diag_case_free(c);
		return -EINVAL;
	}

	const struct env_record *env = diag_env(c);
	c->probed = whole_record(&c->before) || whole_record(&c->after);
	c->cpu_model = env->cpu.model;
	c->arch = env->cpu.arch ?: env->host.arch;
	c->cpus = diag_env_cpus(&c->r, env);
	c->virt = diag_env_virt(env, &c->hypervisor);
	if (diag_finding(c, "virt.emulated"))
		c->virt = DV_EMULATED;
	/* events only mean something when the sampler ran */
	c->sampled = c->r.sampler.json && c->r.events.json;
	c->imported = is_true(c->r.imported);
	diag_case_header(c);
	diag_case_topology(c);
	for (size_t i = 0; i < c->nruns; i++)
		match_run(c, &c->runs[i], &c->match[i]);
	return 0;
}

void diag_case_free(struct diag_case *c)
{
	result_record_free(&c->r);
	env_record_free(&c->before);
	env_record_free(&c->after);
	c->nruns = 0;
}

/* ---- what rules ask ---- */

const struct diag_run *diag_single(const struct diag_case *c)
{
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].copies == 1 && c->runs[i].ntests)
			return &c->runs[i];
	return NULL;
}

const struct diag_run *diag_multi(const struct diag_case *c)
{
	const struct diag_run *best = NULL;
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].copies > 1 && c->runs[i].ntests && (!best || c->runs[i].copies > best->copies))
			best = &c->runs[i];
	return best;
}

const struct diag_match *diag_match_of(const struct diag_case *c, const struct diag_run *r)
{
	return r ? &c->match[r - c->runs] : NULL;
}

unsigned diag_parallel(const struct diag_case *c, const struct diag_run *r)
{
	return c->cpus && c->cpus < r->copies ? c->cpus : r->copies;
}

double diag_scaling(const struct diag_case *c, enum diag_test t)
{
	const struct diag_run *one = diag_single(c), *many = diag_multi(c);
	if (!one || !many || !(one->index[t] > 0) || !(many->index[t] > 0))
		return NAN;
	return many->index[t] / (one->index[t] * diag_capacity(c, many));
}

bool diag_comparable(const struct diag_case *c, const struct diag_run *r)
{
	double all = diag_vs_ref(c, r, DT_ALL);
	return all > 1 / COMPARABLE_FACTOR && all < COMPARABLE_FACTOR;
}

double diag_vs_ref(const struct diag_case *c, const struct diag_run *r, unsigned mask)
{
	const struct diag_match *m = diag_match_of(c, r);
	double sum = 0;
	unsigned n = 0;
	for (int t = 0; m && t < DIAG_NTESTS; t++)
		if ((mask & DT(t)) && m->has[t] && r->index[t] > 0) {
			sum += log(r->index[t] / m->mid[t]);
			n++;
		}
	return n ? exp(sum / n) : NAN;
}

#define SMALL_BOARD_CPUS 8

bool diag_small_board(const struct diag_case *c)
{
	bool arm = c->arch ? startswith(c->arch, "aarch64") || startswith(c->arch, "arm")
			   : c->cpu_model && startswith(c->cpu_model, "Cortex-");
	const struct diag_run *many = diag_multi(c);
	unsigned cpus = c->cpus ?: many ? many->copies : 0;
	return arm && cpus && cpus <= SMALL_BOARD_CPUS && c->virt != DV_GUEST && c->virt != DV_EMULATED;
}

/* ---- the environment ---- */

static const struct env_finding *finding_in(const struct env_record *env, const char *id)
{
	size_t len = strlen(id);
	for (size_t i = 0; i < env->findings.n; i++) {
		const struct env_finding *f = &env->findings.v[i];
		if (strncmp(f->id, id, len) == 0 && (f->id[len] == '\0' || f->id[len] == '.'))
			return f;
	}
	return NULL;
}

const struct env_finding *diag_finding(const struct diag_case *c, const char *id)
{
	return finding_in(&c->before, id) ?: finding_in(&c->after, id);
}

size_t diag_events(const struct diag_case *c, const char *kind, const struct result_event **first)
{
	size_t count = 0;
	if (first)
		*first = NULL;
	diag_foreach_event(c, e) {
		if (kind && !streq_ptr(e->kind, kind))
			continue;
		if (first && !*first)
			*first = e;
		count++;
	}
	return count;
}

const char *diag_hypervisor_name(const struct diag_case *c)
{
	return c->hypervisor && !streq(c->hypervisor, "unknown") ? c->hypervisor : "a hypervisor not identified";
}

const char *diag_env_missing(const struct diag_case *c)
{
	if (c->imported)
		return "not in an imported log";
	return c->before.json || c->after.json ? "not in the partial environment record" : "no environment record";
}
