/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each run of a case should score (unixbench/expect.h): the level the
 * report leads with, and result.runs[].expected.
 */
#include <ctype.h>

#include "diagnose.h"

/* The facts of run r: the environment record's, the header's CPU count and cores. */
static void case_facts(const struct diag_case *c, const struct diag_run *r, struct expect_facts *f)
{
	expect_facts_init(f);
	expect_facts_env(f, diag_env(c));
	f->copies = r->copies;
	if (c->cpus)
		f->cpus = c->cpus;
	if (c->hdr.cores && c->hdr.cores < f->cpus)
		f->cores = c->hdr.cores;
	if (f->cores >= f->cpus)
		f->cores = 0;
	if (!f->cpu.models[0] && c->cpu_model)
		f->cpu.models[0] = c->cpu_model;
	if (!f->cpu.arch)
		f->cpu.arch = c->arch;
	if (isnan(f->cpu.bogomips) && c->hdr.bogomips_mhz > 0)
		f->cpu.bogomips = c->hdr.bogomips_mhz * 2;
	switch (c->virt) {
	case DV_EMULATED:
		f->virt = EV_EMULATED;
		break;
	case DV_GUEST:
		if (f->virt == EV_UNKNOWN || f->virt == EV_NONE)
			f->virt = EV_VM;
		break;
	case DV_NONE:
		if (f->virt != EV_CONTAINER)
			f->virt = EV_NONE;
		break;
	default:
		break;
	}
}

void diag_case_expect(struct diag_case *c, const struct expect_ref *ref)
{
	c->expect_ref = ref && ref->loaded ? ref : NULL;
	for (size_t i = 0; i < c->nruns; i++) {
		struct expectation *e = &c->expect[i];
		if (!c->expect_ref) {
			*e = (struct expectation){0};
			snprintf(e->why, sizeof(e->why), "no expectation model was read");
			continue;
		}
		if (c->baselines_own) {
			*e = (struct expectation){0};
			snprintf(e->why, sizeof(e->why), "its score is against baselines of its own, not UnixBench's");
			continue;
		}
		struct expect_facts f;
		case_facts(c, &c->runs[i], &f);
		expect_run(ref, &f, e);
	}
}

const struct expectation *diag_expect_of(const struct diag_case *c, const struct diag_run *r)
{
	const struct expectation *e = r ? &c->expect[r - c->runs] : NULL;
	return c->expect_ref && e && e->placed ? e : NULL;
}

double diag_vs_expect(const struct diag_case *c, const struct diag_run *r, unsigned mask)
{
	const struct expectation *e = diag_expect_of(c, r);
	double sum = 0;
	unsigned n = 0;
	for (int t = 0; e && t < DIAG_NTESTS; t++)
		if ((mask & DT(t)) && r->index[t] > 0 && e->index[t] > 0) {
			sum += log(r->index[t] / e->index[t]);
			n++;
		}
	return n ? exp(sum / n) : NAN;
}

double diag_expected_score(const struct diag_case *c, const struct diag_run *r, double *low, double *high)
{
	const struct expectation *e = diag_expect_of(c, r);
	/* a score the log printed is of all its tests, read or not */
	unsigned mask = r->score_printed ? DT_ALL : 0;
	for (int t = 0; t < DIAG_NTESTS; t++)
		if (r->index[t] > 0)
			mask |= DT(t);
	*low = *high = NAN;
	return e ? expect_score_of(e, mask, low, high) : NAN;
}

/* ---- words ---- */

/* "(KVM)", "(bare metal)", "(a container)", "(not known whether virtual)". */
static void virt_words(const struct diag_case *c, char *buf, size_t size)
{
	const char *container = diag_env_str(c, virt.container);
	if (container && !streq(container, "none"))
		snprintf(buf, size, "a %s container", container);
	else if (c->virt == DV_GUEST)
		snprintf(buf, size, "%s", expect_hypervisor_word(c->hypervisor) ?: "a guest");
	else if (c->virt == DV_EMULATED)
		snprintf(buf, size, "emulated");
	else if (c->virt == DV_NONE)
		snprintf(buf, size, "bare metal");
	else
		snprintf(buf, size, "not known whether virtual");
}

json_object *diag_level_json(const struct diag_case *c)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < c->nruns; i++) {
		const struct diag_run *r = &c->runs[i];
		if (!(r->score > 0) || !r->copies)
			continue;
		json_object *o = json_object_new_object();
		jset_int(o, "copies", r->copies);
		const struct expectation *e = diag_expect_of(c, r);
		if (!e) {
			_cleanup_free_ char *text = xasprintf("Score %.1f (%u %s): nothing to expect it against, %s",
							      r->score, r->copies, r->copies == 1 ? "copy" : "copies",
							      c->expect[i].why);
			jset_str(o, "text", text);
			jset(o, "basis", NULL);
			jset(o, "verdict", NULL);
			json_object_array_add(a, o);
			continue;
		}
		double low, high, want = diag_expected_score(c, r, &low, &high);
		char virt[64];
		virt_words(c, virt, sizeof(virt));
		_cleanup_free_ char *text = expect_level_text(e, r->score, r->ntests < DIAG_NTESTS && !r->score_printed, want, low, high,
							      r->copies, c->cpus, c->virt == DV_GUEST, virt);
		jset_str(o, "text", text);
		jset_str(o, "basis", e->basis_text);
		jset_str(o, "verdict", expect_verdict(r->score, low, high));
		json_object_array_add(a, o);
	}
	return a;
}

json_object *diag_expected_json(const struct diag_case *c, size_t i)
{
	const struct diag_run *r = &c->runs[i];
	const struct expectation *e = diag_expect_of(c, r);
	if (!e)
		return NULL;
	json_object *o = json_object_new_object(), *basis = json_object_new_object(), *tests = json_object_new_array();
	double low, high, want = diag_expected_score(c, r, &low, &high);
	jset(o, "score", diag_jround(want, 0.1));
	jset(o, "low", diag_jround(low, 0.1));
	jset(o, "high", diag_jround(high, 0.1));
	jset(o, "ratio", diag_jround(r->score / want, 0.01));
	jset_str(o, "verdict", r->score > 0 ? expect_verdict(r->score, low, high) : NULL);
	static const char *const kinds[] = { "runs", "neighbours", "group", "all", "hidden" };
	jset_int(basis, "runs", e->runs);
	jset_int(basis, "sources", e->sources);
	jset_str(basis, "core_type", e->place.ncandidates ? NULL : e->core->name);
	json_object *cands = json_object_new_array();
	for (size_t k = 0; k < e->place.ncandidates; k++)
		jarr_add_str(cands, e->place.candidates[k]->name);
	jset(basis, "candidates", cands);
	jset_str(basis, "cpu", e->name);
	jset_str(basis, "kind", kinds[e->basis]);
	jset(basis, "clock_ghz", diag_jround(e->clock, 0.01));
	jset_str(basis, "clock_source", e->clock_guessed ? "median of the core's runs" : e->place.clock_source);
	jset_str(basis, "placed_by", e->place.by);
	jset(basis, "capacity", diag_jround(e->capacity, 0.01));
	jset_str(basis, "text", e->basis_text);
	jset(o, "basis", basis);
	for (int t = 0; t < DIAG_NTESTS; t++) {
		if (!(e->index[t] > 0) || !(r->index[t] > 0))
			continue;
		json_object *x = json_object_new_object();
		jset_str(x, "test", ub_tests[t].id);
		jset_str(x, "name", ub_tests[t].name);
		jset(x, "index", diag_jround(r->index[t], 0.1));
		jset(x, "expected_index", diag_jround(e->index[t], 0.1));
		jset(x, "low", diag_jround(e->low[t], 0.1));
		jset(x, "high", diag_jround(e->high[t], 0.1));
		jset(x, "ratio", diag_jround(r->index[t] / e->index[t], 0.01));
		json_object_array_add(tests, x);
	}
	jset(o, "tests", tests);
	return o;
}
