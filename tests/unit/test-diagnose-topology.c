/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What N copies can reach on a topology: SMT x86, an RK3588 (4 Cortex-A76
 * + 4 Cortex-A55), an Intel hybrid (P-cores with SMT, E-cores without), a
 * phone SoC of four kinds with cpu_capacity, plain SMP and a machine of
 * which nothing is known; and the scaling diagnosis on them.
 */
#include "diagtest.h"

/* The topology of a case: a result of 1 copy with the environment env. */
static struct diag_topology topology_of(json_object *env)
{
	_cleanup_json_ json_object *rec = result_new();
	static const double one[DIAG_NTESTS] = { 1000, 300 };
	result_add_run(rec, 1, one);
	jset(jchild(rec, "environment"), "before", json_object_get(env));
	struct diag_case c;
	_cleanup_free_ char *error = NULL;
	if (diag_case_init(&c, rec, NULL, NULL, &error) < 0)
		fail_msg("%s", error);
	struct diag_topology t = c.topo;
	/* the names borrow from env, which the caller keeps */
	diag_case_free(&c);
	return t;
}

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-6)
		fail_msg("%.6f, expected %.6f", got, want);
}

static void assert_text(const struct diag_topology *t, unsigned n, const char *want)
{
	char buf[128];
	diag_topology_text(t, n, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void plain_and_unknown(void **state)
{
	_cleanup_json_ json_object *smp = json_lit("{\"cpu\": {\"cores\": 4, \"threads\": 4}}");
	struct diag_topology t = topology_of(smp);
	assert_int_equal(t.n, 1);
	assert_near(diag_topology_capacity(&t, 4), 4);
	assert_near(diag_topology_capacity(&t, 2), 2);
	assert_text(&t, 4, "4 CPUs");
	assert_false(t.hybrid_unsplit);
	/* nothing known: one copy per CPU, as many as asked */
	_cleanup_json_ json_object *none = json_lit("{}");
	t = topology_of(none);
	assert_int_equal(t.n, 0);
	assert_near(diag_topology_capacity(&t, 8), 8);
	assert_text(&t, 8, "8 CPUs");
}

static void smt(void **state)
{
	/* a 2-core/4-thread laptop: 2 cores and a quarter of a core per sibling */
	_cleanup_json_ json_object *laptop = json_lit("{\"cpu\": {\"arch\": \"x86_64\", \"cores\": 2, \"threads\": 4}}");
	struct diag_topology t = topology_of(laptop);
	assert_near(diag_topology_capacity(&t, 4), 2.5);
	assert_near(diag_topology_capacity(&t, 2), 2);
	assert_text(&t, 4, "4 threads on 2 cores");
	assert_text(&t, 2, "2 CPUs");
	/* the probe's kind says the same */
	_cleanup_json_ json_object *kind = json_lit("{\"cpu\": {\"kinds\": [{\"model\": \"Xeon\", \"cpus\": \"0-63\", "
						    "\"cores\": 32, \"threads\": 64}]}}");
	t = topology_of(kind);
	assert_near(diag_topology_capacity(&t, 64), 40);
	assert_near(diag_topology_capacity(&t, 32), 32);
	assert_text(&t, 64, "64 threads on 32 cores");
}

static void rk3588(void **state)
{
	/* model names alone: the A55 at about half an A76 */
	_cleanup_json_ json_object *names = json_lit("{\"cpu\": {\"kinds\": [{\"model\": \"Cortex-A55\", \"cpus\": \"0-3\", "
						     "\"cores\": 4, \"threads\": 4}, {\"model\": \"Cortex-A76\", \"cpus\": "
						     "\"4-7\", \"cores\": 4, \"threads\": 4}]}}");
	struct diag_topology t = topology_of(names);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.kinds[0].name, "Cortex-A76");
	assert_near(diag_topology_capacity(&t, 8), 4 + 4 * 0.45);
	assert_near(diag_topology_capacity(&t, 4), 4);
	assert_text(&t, 8, "4 Cortex-A76 + 4 Cortex-A55");
	assert_text(&t, 4, "4 Cortex-A76");
	assert_text(&t, 6, "4 Cortex-A76 + 2 Cortex-A55");
	/* the kernel's cpu_capacity decides where it is known */
	_cleanup_json_ json_object *cap = json_lit("{\"cpu\": {\"kinds\": [{\"model\": \"Cortex-A55\", \"cpus\": \"0-3\", "
						   "\"capacity\": 512}, {\"model\": \"Cortex-A76\", \"cpus\": \"4-7\", "
						   "\"capacity\": 1024}]}}");
	t = topology_of(cap);
	assert_near(diag_topology_capacity(&t, 8), 6);
}

static void phone_of_four_kinds(void **state)
{
	/* Cortex-X3 (1024), A715 and A710 (855), A510 (280), as the probe reads the util-linux dump */
	_cleanup_json_ json_object *env = probe_fixture("util-linux-arm-A510-A710-A715-X3", NULL);
	struct diag_topology t = topology_of(env);
	assert_int_equal(t.n, 4);
	assert_string_equal(t.kinds[0].name, "Cortex-X3");
	assert_near(diag_topology_capacity(&t, 8), 1 + 4 * 855.0 / 1024 + 3 * 280.0 / 1024);
	assert_near(diag_topology_capacity(&t, 1), 1);
	assert_text(&t, 8, "1 Cortex-X3 + 2 Cortex-A715 + 2 Cortex-A710 + 3 Cortex-A510");
}

static void intel_hybrid(void **state)
{
	/* the i7-1370P dump: 6 P-cores with their siblings (CPUs 0-11), 8 E-cores (12-19) */
	_cleanup_json_ json_object *env = probe_fixture("hwloc-20em64t-hybrid-1p6c2t+2ca4co1t", NULL);
	struct diag_topology t = topology_of(env);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.kinds[0].name, "P-core");
	assert_int_equal(t.kinds[0].cpus, 12);
	assert_int_equal(t.kinds[0].cores, 6);
	assert_string_equal(t.kinds[1].name, "E-core");
	assert_false(t.hybrid_unsplit);
	/* the E-cores come before the P-cores' siblings */
	assert_near(diag_topology_capacity(&t, 14), 6 + 8 * 0.45);
	assert_near(diag_topology_capacity(&t, 20), 6 + 8 * 0.45 + 6 * 0.25);
	assert_text(&t, 20, "12 threads on 6 P-cores + 8 E-cores");
	assert_text(&t, 14, "6 P-cores + 8 E-cores");
	assert_text(&t, 4, "4 P-cores");
	/* a log that names one model for all CPUs does not give the split */
	_cleanup_json_ json_object *header = json_lit("{\"cpu\": {\"arch\": \"x86_64\", \"model\": \"12th Gen Intel(R) "
						      "Core(TM) i7-1260P\"}}");
	t = topology_of(header);
	assert_true(t.hybrid_unsplit);
}

/* A 1-copy and an n-copy run whose CPU tests reach `speedup` times one copy. */
static json_object *scaled(unsigned n, double speedup, const char *env)
{
	double one[DIAG_NTESTS], many[DIAG_NTESTS];
	for (int t = 0; t < DIAG_NTESTS; t++) {
		one[t] = healthy1[t];
		many[t] = healthy1[t] * ((DT(t) & DT_CPU) ? speedup : 2.0);
	}
	json_object *rec = result_new();
	result_add_run(rec, 1, one);
	result_add_run(rec, n, many);
	jset_int(rec, "online_cpus", n);
	if (env)
		result_env(rec, env);
	return rec;
}

static void scaling_on_topologies(void **state)
{
	/* a 64-core machine at 0.44× per copy with 32 copies: still poor */
	_cleanup_json_ json_object *big = scaled(32, 32 * 0.44, "{\"cpu\": {\"cores\": 64, \"threads\": 64}}");
	jset_int(big, "online_cpus", 64);
	expect_rule("diag.poor-scaling", big, DC_MEDIUM, "14.08× as fast as 1 copy on 32 CPUs");
	/* SMT does not excuse it either: 32 copies get 32 of its 64 cores' worth */
	_cleanup_json_ json_object *smt = scaled(32, 32 * 0.44, "{\"cpu\": {\"cores\": 64, \"threads\": 128}}");
	jset_int(smt, "online_cpus", 128);
	expect_rule("diag.poor-scaling", smt, DC_MEDIUM, NULL);
	/* the hybrid laptop: 20 copies at 10× one copy is what its cores give */
	char *probe = NULL;
	{
		_cleanup_json_ json_object *env = probe_fixture("hwloc-20em64t-hybrid-1p6c2t+2ca4co1t", NULL);
		probe = xstrdup(json_object_to_json_string(env));
	}
	_cleanup_json_ json_object *hybrid = scaled(20, 10, probe);
	expect_rule("diag.poor-scaling", hybrid, DC_NONE, "on 12 threads on 6 P-cores + 8 E-cores");
	/* and 5× is poor on it */
	_cleanup_json_ json_object *slow = scaled(20, 5, probe);
	expect_rule("diag.poor-scaling", slow, DC_MEDIUM, NULL);
	free(probe);
	/* an RK3588: 8 copies at 5.5× */
	_cleanup_json_ json_object *rk = scaled(8, 5.5, "{\"cpu\": {\"arch\": \"aarch64\", \"kinds\": [{\"model\": "
							"\"Cortex-A55\", \"cpus\": \"0-3\"}, {\"model\": \"Cortex-A76\", "
							"\"cpus\": \"4-7\"}]}}");
	expect_rule("diag.poor-scaling", rk, DC_NONE, "4 Cortex-A76 + 4 Cortex-A55");
	/* an imported Alder Lake log: one model on every line, so the split is not
	 * known; what would be poor on 8 cores is only a hint */
	_cleanup_json_ json_object *adl = scaled(16, 5, "{\"cpu\": {\"arch\": \"x86_64\", \"model\": \"12th Gen Intel(R) "
							"Core(TM) i7-1260P\", \"cores\": 8, \"threads\": 16}}");
	expect_rule("diag.poor-scaling", adl, DC_LOW, NULL);
	struct diagnosis d;
	rule_on("diag.poor-scaling", adl, &d);
	bool said = false;
	for (size_t i = 0; i < d.evidence.n; i++)
		said |= strstr(d.evidence.v[i], "has performance and efficiency cores") != NULL;
	assert_true(said);
	diagnosis_clear(&d);
	/* nothing known of the machine: one copy per CPU is the expectation, and
	 * what is poor even on 2 cores with a sibling each is said so */
	_cleanup_json_ json_object *unknown = scaled(4, 1.2, NULL);
	expect_rule("diag.poor-scaling", unknown, DC_MEDIUM, "on 4 CPUs");
	/* 2.0× on 4 CPUs: poor on 4 cores, 80 % of 2 cores and their siblings */
	_cleanup_json_ json_object *maybe = scaled(4, 2.0, NULL);
	expect_rule("diag.poor-scaling", maybe, DC_LOW, "on 4 CPUs");
	rule_on("diag.poor-scaling", maybe, &d);
	said = false;
	for (size_t i = 0; i < d.evidence.n; i++)
		said |= strstr(d.evidence.v[i], "on 2 cores with a sibling each, this is 80 %") != NULL;
	assert_true(said);
	diagnosis_clear(&d);
	/* the CPU lines count its cores: no sibling to excuse it */
	_cleanup_json_ json_object *counted = scaled(4, 2.0, "{\"cpu\": {\"cores\": 4, \"threads\": 4}}");
	expect_rule("diag.poor-scaling", counted, DC_MEDIUM, "on 4 CPUs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_and_unknown), cmocka_unit_test(smt),	     cmocka_unit_test(rk3588),
		cmocka_unit_test(phone_of_four_kinds), cmocka_unit_test(intel_hybrid),
		cmocka_unit_test(scaling_on_topologies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
