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
static double test_index(json_object *t)
{
	double index, result, baseline;
	if (jpath_double(t, "index", &index))
		return index > 0 ? index : NAN;
	if (jpath_double(t, "result", &result) && jpath_double(t, "baseline", &baseline) && result > 0 && baseline > 0)
		return 10 * result / baseline;
	return NAN;
}

void diag_read_run(json_object *o, struct diag_run *r)
{
	int64_t copies = 0;
	jpath_int(o, "copies", &copies);
	r->copies = copies > 0 && copies < 1000000 ? (unsigned)copies : 0;
	for (int t = 0; t < DIAG_NTESTS; t++)
		r->index[t] = NAN;
	json_object *tests = jpath(o, "tests");
	size_t n = jpath_len(o, "tests");
	for (size_t i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(tests, i);
		int k = diag_test_lookup(jpath_str(t, "id"));
		if (k < 0)
			k = diag_test_lookup(jpath_str(t, "name"));
		if (k >= 0)
			r->index[k] = test_index(t);
	}
	diag_run_score(r);
	/* a score the log printed is the score (the mean of rounded indexes
	 * can differ in the last digit) */
	double printed;
	if (r->ntests && streq_ptr(jpath_str(o, "index.score_source"), "report") &&
	    jpath_double(o, "index.score", &printed) && printed > 0)
		r->score = printed;
}

/* ---- the machine ---- */

unsigned diag_env_cpus(json_object *rec, json_object *env)
{
	int64_t n;
	if (jpath_int(rec, "online_cpus", &n) && n > 0 && n < 1000000)
		return (unsigned)n;
	const char *list = jpath_str(env, "cpu.online");
	struct cpuset set = {0};
	unsigned count = 0;
	if (list && cpuset_parse_list(list, &set) == 0)
		count = (unsigned)cpuset_count(&set);
	cpuset_free(&set);
	return count;
}

enum diag_virt diag_env_virt(json_object *env, const char **hypervisor)
{
	const char *role = jpath_str(env, "virt.role");
	*hypervisor = jpath_str(env, "virt.hypervisor");
	if (streq_ptr(*hypervisor, "qemu-tcg"))
		return DV_EMULATED;
	if (streq_ptr(role, "guest"))
		return DV_GUEST;
	/* a host (it can run KVM guests) is not itself virtual */
	if (streq_ptr(role, "none") || streq_ptr(role, "host"))
		return DV_NONE;
	return DV_UNKNOWN;
}

int diag_env_workdir_memory(json_object *env)
{
	static const char *const memory_fs[] = { "tmpfs", "ramfs" }, *const memory_kinds[] = { "tmpfs", "ram", "zram" };
	const char *fstype = jpath_str(env, "storage.mount.fstype"), *kind = jpath_str(env, "storage.device.kind");
	for (size_t i = 0; i < ARRAY_SIZE(memory_fs); i++)
		if (streq_ptr(fstype, memory_fs[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(memory_kinds); i++)
		if (streq_ptr(kind, memory_kinds[i]))
			return 1;
	return fstype || kind ? 0 : -1;
}

bool diag_env_undervoltage(json_object *rec, json_object *env)
{
	bool now = false;
	int64_t events = 0;
	jpath_bool(env, "power.undervoltage_now", &now);
	jpath_int(env, "power.undervoltage_events", &events);
	json_object *ev = jpath(rec, "events");
	for (size_t i = 0; i < jpath_len(rec, "events"); i++)
		now |= streq_ptr(jpath_str(json_object_array_get_idx(ev, i), "kind"), "undervoltage");
	return now || events > 0;
}

/*
 * A probe record with its findings evaluated, rather than the few facts
 * of an imported log's header (which says "unavailable": [{"area": "all"}]):
 * only then does a missing finding mean that nothing was found.
 */
static bool whole_record(json_object *env)
{
	if (!json_object_is_type(jpath(env, "findings"), json_type_array))
		return false;
	json_object *un = jpath(env, "unavailable");
	for (size_t i = 0; i < jpath_len(env, "unavailable"); i++)
		if (streq_ptr(jpath_str(json_object_array_get_idx(un, i), "area"), "all"))
			return false;
	return true;
}

static json_object *object_or_null(json_object *o)
{
	return o && json_object_is_type(o, json_type_object) ? o : NULL;
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
	if (streq_ptr(diag_env_str(c, "host.kernel_release"), r->kernel))
		s += 3;
	/* the person's own earlier run of this machine is closer than any */
	if (r->history && streq_ptr(jpath_str(c->rec, "host"), r->host))
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
			 streq_ptr(diag_env_str(c, "host.kernel_release"), m->refs[0]->kernel) ? "; same kernel" : "");
	}
}

int diag_case_init(struct diag_case *c, json_object *rec, const struct diag_refs *refs, const char *exclude_group,
		   char **error)
{
	*c = (struct diag_case){ .rec = rec, .refs = refs, .exclude_group = exclude_group };
	*error = NULL;
	json_object *runs = jpath(rec, "runs");
	size_t n = jpath_len(rec, "runs"), uncounted = 0;
	for (size_t i = 0; i < n && c->nruns < DIAG_MAX_RUNS; i++) {
		struct diag_run *r = &c->runs[c->nruns];
		diag_read_run(json_object_array_get_idx(runs, i), r);
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
			diag_read_run(json_object_array_get_idx(runs, i), r);
			if (r->ntests)
				c->nruns++;
		}
		scored = c->nruns > 0;
		c->copies_unknown = true;
	}
	if (!scored) {
		*error = xstrdup("the result has no scored test (runs[].tests[].index)");
		return -EINVAL;
	}

	c->before = object_or_null(jpath(rec, "environment.before"));
	c->after = object_or_null(jpath(rec, "environment.after"));
	json_object *env = c->before ?: c->after;
	c->probed = whole_record(c->before) || whole_record(c->after);
	c->cpu_model = jpath_str(env, "cpu.model");
	c->arch = jpath_str(env, "cpu.arch") ?: jpath_str(env, "host.arch");
	c->cpus = diag_env_cpus(rec, env);
	c->virt = diag_env_virt(env, &c->hypervisor);
	if (diag_finding(c, "virt.emulated"))
		c->virt = DV_EMULATED;
	/* events only mean something when the sampler ran */
	json_object *events = jpath(rec, "events");
	if (object_or_null(jpath(rec, "sampler")) && json_object_is_type(events, json_type_array))
		c->events = events;
	c->build = object_or_null(jpath(rec, "build"));
	bool imported = false;
	jpath_bool(rec, "imported", &imported);
	c->imported = imported;
	diag_case_header(c);
	for (size_t i = 0; i < c->nruns; i++)
		match_run(c, &c->runs[i], &c->match[i]);
	return 0;
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

static json_object *finding_in(json_object *env, const char *id)
{
	json_object *all = jpath(env, "findings");
	size_t n = jpath_len(env, "findings");
	size_t len = strlen(id);
	for (size_t i = 0; i < n; i++) {
		json_object *f = json_object_array_get_idx(all, i);
		const char *fid = jpath_str(f, "id");
		if (fid && strncmp(fid, id, len) == 0 && (fid[len] == '\0' || fid[len] == '.'))
			return f;
	}
	return NULL;
}

json_object *diag_finding(const struct diag_case *c, const char *id)
{
	return finding_in(c->before, id) ?: finding_in(c->after, id);
}

size_t diag_events(const struct diag_case *c, const char *kind, json_object **first)
{
	size_t n = c->events ? json_object_array_length(c->events) : 0, count = 0;
	if (first)
		*first = NULL;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(c->events, i);
		if (kind && !streq_ptr(jpath_str(e, "kind"), kind))
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
	return c->before || c->after ? "not in the partial environment record" : "no environment record";
}

const char *diag_env_str(const struct diag_case *c, const char *path)
{
	return jpath_str(c->before, path) ?: jpath_str(c->after, path);
}
