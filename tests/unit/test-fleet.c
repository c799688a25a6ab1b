/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fleet view: the outlier rule, which results it starts from, the
 * ranking of the facts that set a host apart, and the record. */
#include <errno.h>
#include <math.h>

#include "analysis/fleet.h"
#include "testlib.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int outliers_of(const double *v, size_t n, int *dir)
{
	struct fleet_stats s;
	fleet_stats(v, n, &s);
	int count = 0;
	for (size_t i = 0; i < n; i++) {
		dir[i] = fleet_outlier(&s, v[i]);
		count += dir[i] != 0;
	}
	return count;
}

/* Median and MAD: one slow host among steady ones stands out, and does not
 * widen the range the others are judged by (as it would a standard
 * deviation). */
static void rule_one_slow_host(void **state)
{
	const double v[] = { 100, 101, 99, 100.5, 60, 99.5 };
	struct fleet_stats s;
	fleet_stats(v, N(v), &s);
	assert_true(s.judged);
	assert_float_equal(s.median, 99.75, 1e-9);
	assert_float_equal(s.mad, 0.75, 1e-9);
	/* on the scale of ratios: the median of |log(v / 99.75)| is that of
	 * 100.5 and 99 (0.75 off, a ratio of 1.0075) */
	assert_float_equal(s.sigma, 1.4826 * (log(100.5 / 99.75) + log(99.75 / 99)) / 2, 1e-9);
	/* 3 sigma is 3.3 %: the 5 % floor decides the range */
	assert_float_equal(s.low, 99.75 / 1.05, 1e-9);
	assert_float_equal(s.high, 99.75 * 1.05, 1e-9);
	int dir[N(v)];
	assert_int_equal(outliers_of(v, N(v), dir), 1);
	assert_int_equal(dir[4], -1);

	/* a mean and standard deviation rule misses it: 60 is within 2.1 sd */
	double mean = 0, sd = 0;
	for (size_t i = 0; i < N(v); i++)
		mean += v[i] / N(v);
	for (size_t i = 0; i < N(v); i++)
		sd += (v[i] - mean) * (v[i] - mean) / (N(v) - 1);
	assert_true(fabs(60 - mean) / sqrt(sd) < 3);
}

/* Two bad hosts of ten are both caught (no masking), high ones too. */
static void rule_several_and_high(void **state)
{
	const double v[] = { 200, 202, 198, 201, 199, 200, 20, 25, 203, 320 };
	int dir[N(v)];
	assert_int_equal(outliers_of(v, N(v), dir), 3);
	assert_int_equal(dir[6], -1);
	assert_int_equal(dir[7], -1);
	assert_int_equal(dir[9], 1);
}

/* Noise of a few per cent is never an outlier, even in a fleet so steady
 * that its MAD is 0; a wide fleet has no outlier at all; fewer than three
 * hosts are not judged; missing values do not count. */
static void rule_floor_and_limits(void **state)
{
	int dir[8];
	const double same[] = { 100, 100, 100, 100, 96, 104 };
	assert_int_equal(outliers_of(same, N(same), dir), 0);
	const double off[] = { 100, 100, 100, 100, 94 };
	assert_int_equal(outliers_of(off, N(off), dir), 1);
	assert_int_equal(dir[4], -1);

	const double wide[] = { 50, 100, 150, 200, 250 };
	assert_int_equal(outliers_of(wide, N(wide), dir), 0);

	/* a fleet that varies by a factor (a loaded machine) still shows the
	 * host a hundred times slower, which the spread of the values hides */
	const double factor[] = { 1.4, 84.6, 192.2, 284.0 };
	assert_int_equal(outliers_of(factor, N(factor), dir), 1);
	assert_int_equal(dir[0], -1);
	/* a host that scored nothing is below any range */
	const double zero[] = { 100, 102, 0, 98 };
	assert_int_equal(outliers_of(zero, N(zero), dir), 1);
	assert_int_equal(dir[2], -1);

	const double two[] = { 100, 10 };
	struct fleet_stats s;
	fleet_stats(two, N(two), &s);
	assert_false(s.judged);
	assert_int_equal(outliers_of(two, N(two), dir), 0);

	const double gaps[] = { NAN, 100, 101, NAN, 50, 99 };
	fleet_stats(gaps, N(gaps), &s);
	assert_int_equal(s.n, 4);
	assert_int_equal(outliers_of(gaps, N(gaps), dir), 1);
	assert_int_equal(dir[4], -1);
	assert_int_equal(dir[0], 0);
	assert_true(isnan(fleet_median(gaps, 1)));
}

/* A listing summary as the store gives it. */
static json_object *summary(const char *host, const char *machine, const char *round, const char *copies)
{
	_cleanup_free_ char *text = xasprintf("{\"host\": %s%s%s, \"machine_id\": %s%s%s, \"round\": %s%s%s,"
					      " \"copies\": [%s]}",
					      host ? "\"" : "", host ?: "null", host ? "\"" : "", machine ? "\"" : "",
					      machine ?: "null", machine ? "\"" : "", round ? "\"" : "", round ?: "null",
					      round ? "\"" : "", copies);
	return json_lit(text);
}

static void pick(struct fleet_pick *p, int64_t id, const char *host, const char *machine, const char *round,
		 const char *copies)
{
	_cleanup_json_ json_object *s = summary(host, machine, round, copies);
	fleet_pick_add(p, id, s);
}

static void assert_ids(const struct fleet_choice *c, const int64_t *want, size_t n)
{
	assert_int_equal(c->n, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(c->ids[i], want[i]);
}

/* Without rounds: the latest result of each host at each copy count. */
static void latest_results(void **state)
{
	struct fleet_pick *p = fleet_pick_new();
	pick(p, 1, "a", NULL, NULL, "1, 4");
	pick(p, 2, "b", NULL, NULL, "1");
	pick(p, 3, "a", NULL, NULL, "1");
	pick(p, 4, NULL, NULL, NULL, "2");
	pick(p, 5, "b", NULL, NULL, "8");
	pick(p, 6, "c", NULL, NULL, "null");
	struct fleet_choice c;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(fleet_pick_choose(p, FLEET_PICK_LATEST, NULL, &c, &error), 0);
	/* a at 1: 3, a at 4: 1, b at 1: 2, b at 8: 5, no host at 2: 4; c says no copy count */
	assert_ids(&c, (const int64_t[]){ 1, 2, 3, 4, 5 }, 5);
	assert_string_equal(c.labels[0], "a");
	assert_string_equal(c.labels[3], "unnamed host (result 4)");
	assert_string_equal(c.machines[0], c.machines[2]);
	assert_null(c.round);
	assert_int_equal(jint(c.selection, "hosts"), 3);
	json_object *left = jpath(c.selection, "left_out");
	assert_int_equal(jarr_len(left), 1);
	assert_jstr(json_object_array_get_idx(left, 0), "why", "no run says its copy count");
	/* a is one host of two results, by its name */
	json_object *g = json_object_array_get_idx(jpath(c.selection, "grouped"), 0);
	assert_jstr(g, "host", "a");
	assert_jstr(g, "why", "the same host name, and no machine id recorded");
	fleet_choice_free(&c);
	fleet_pick_free(p);
}

/* Rounds: the latest by default, another by name; hosts of other rounds
 * missing from it, results of other rounds left out. */
static void rounds(void **state)
{
	struct fleet_pick *p = fleet_pick_new();
	pick(p, 1, "h1", "m1", "r1", "1");
	pick(p, 2, "h2", "m2", "r1", "1");
	pick(p, 3, "h3", "m3", "r1", "1");
	pick(p, 4, "h1", "m1", "r2", "1");
	pick(p, 5, "h2", "m2", "r2", "1");
	/* h2 ran again in r2: its later result counts */
	pick(p, 6, "h2", "m2", "r2", "1");
	struct fleet_choice c;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(fleet_pick_choose(p, FLEET_PICK_LATEST, NULL, &c, &error), 0);
	assert_string_equal(c.round, "r2");
	assert_ids(&c, (const int64_t[]){ 4, 6 }, 2);
	json_object *missing = jpath(c.selection, "missing");
	assert_int_equal(jarr_len(missing), 1);
	assert_jstr(json_object_array_get_idx(missing, 0), "host", "h3");
	assert_jstr(json_object_array_get_idx(missing, 0), "round", "r1");
	assert_int_equal(jint(json_object_array_get_idx(missing, 0), "latest"), 3);
	json_object *left = jpath(c.selection, "left_out");
	assert_int_equal(jarr_len(left), 2);
	assert_jstr(json_object_array_get_idx(left, 0), "round", "r1");
	assert_int_equal(jint(json_object_array_get_idx(left, 0), "results"), 3);
	assert_jstr(json_object_array_get_idx(left, 1), "why", "a later result of the same host and copy count is shown");
	fleet_choice_free(&c);

	assert_int_equal(fleet_pick_choose(p, FLEET_PICK_ROUND, "r1", &c, &error), 0);
	assert_ids(&c, (const int64_t[]){ 1, 2, 3 }, 3);
	assert_int_equal(jarr_len(jpath(c.selection, "missing")), 0);
	fleet_choice_free(&c);
	assert_int_equal(fleet_pick_choose(p, FLEET_PICK_ROUND, "r9", &c, &error), -ENOENT);
	assert_string_equal(error, "no result of round 'r9' is stored (the rounds: r2, r1)");
	fleet_pick_free(p);
}

/* Hosts are machines: two of one name are two hosts, told apart by their
 * ids; one machine under two names is one host; a result without a
 * machine id goes to the only machine of its name. */
static void machines(void **state)
{
	struct fleet_pick *p = fleet_pick_new();
	pick(p, 1, "bench", "aaaaaa11", NULL, "1");
	pick(p, 2, "bench", "bbbbbb22", NULL, "1");
	pick(p, 3, "renamed", "aaaaaa11", NULL, "4");
	pick(p, 4, "solo", "cccccc33", NULL, "1");
	pick(p, 5, "solo", NULL, NULL, "4");
	struct fleet_choice c;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(fleet_pick_choose(p, FLEET_PICK_LATEST, NULL, &c, &error), 0);
	assert_ids(&c, (const int64_t[]){ 1, 2, 3, 4, 5 }, 5);
	assert_string_equal(c.labels[0], "bench [aaaaaa]");
	assert_string_equal(c.labels[1], "bench [bbbbbb]");
	assert_string_equal(c.machines[0], c.machines[2]);
	assert_string_equal(c.machines[3], c.machines[4]);
	assert_int_equal(jint(c.selection, "hosts"), 3);
	json_object *grouped = jpath(c.selection, "grouped");
	assert_int_equal(jarr_len(grouped), 2);
	assert_jstr(json_object_array_get_idx(grouped, 0), "why", "the same machine id");
	assert_jstr(json_object_array_get_idx(grouped, 1), "why",
		    "the same machine id; a result without one goes to the only machine of its host name");
	fleet_choice_free(&c);
	fleet_pick_free(p);
}

/* A result of a host whose environment has these facts. */
static json_object *host(const char *name, const char *fstype, const char *kind, const char *governor,
			 const char *kernel, double fstime)
{
	_cleanup_free_ char *text = xasprintf(
		"{\"schema\": \"ubtune.result/1\", \"run_id\": \"%s\", \"host\": \"%s\", \"suite\": {\"name\": \"native\"},"
		" \"started_at\": \"2026-01-01T12:00:00+0100\", \"online_cpus\": 4,"
		" \"environment\": {\"before\": {\"host\": {\"kernel_release\": \"%s\"},"
		"  \"cpu\": {\"model\": \"Cortex-A72\", \"freq\": {\"governor\": \"%s\"}},"
		"  \"storage\": {\"mount\": {\"fstype\": \"%s\"}, \"device\": {\"kind\": \"%s\"}}}},"
		" \"runs\": [{\"copies\": 1, \"index\": {\"score\": 100}, \"tests\": ["
		"  {\"id\": \"dhry2reg\", \"name\": \"Dhrystone 2 using register variables\", \"index\": 1500},"
		"  {\"id\": \"fstime\", \"name\": \"File Copy 1024 bufsize 2000 maxblocks\", \"index\": %g}]}]}",
		name, name, kernel, governor, fstype, kind, fstime);
	return json_lit(text);
}

/* A record's digest, through its text as the store keeps it. */
static void digest_of(json_object *rec, struct fleet_digest *d)
{
	_cleanup_free_ char *error = NULL;
	struct fleet_digest made;
	if (fleet_digest_make(rec, &made, &error) < 0)
		fail_msg("%s", error);
	_cleanup_free_ char *text = fleet_digest_text(&made);
	fleet_digest_free(&made);
	assert_int_equal(fleet_digest_parse(text, d, NULL, true), 0);
}

/* fleet_differences() of records as the store gives them. */
static json_object *differences(json_object *rec, json_object *const *peers, size_t npeers, int t)
{
	struct fleet_digest own, *decoded = xcalloc(npeers, sizeof(*decoded));
	const struct fleet_digest **p = xcalloc(npeers, sizeof(*p));
	digest_of(rec, &own);
	for (size_t i = 0; i < npeers; i++) {
		digest_of(peers[i], &decoded[i]);
		p[i] = &decoded[i];
	}
	json_object *d = fleet_differences(&own, p, npeers, t);
	for (size_t i = 0; i < npeers; i++)
		fleet_digest_free(&decoded[i]);
	fleet_digest_free(&own);
	free(decoded);
	free(p);
	return d;
}

static json_object *difference(json_object *diffs, size_t i)
{
	assert_true(i < jarr_len(diffs));
	return json_object_array_get_idx(diffs, i);
}

/* The facts that set a host apart: what its peers share and it does not,
 * the facts that move the test first, the most specific of those first. */
static void fact_ranking(void **state)
{
	json_object *peers[4] = {
		host("p1", "tmpfs", "tmpfs", "performance", "6.1.0-18", 450),
		host("p2", "tmpfs", "tmpfs", "performance", "6.1.0-18", 452),
		host("p3", "tmpfs", "tmpfs", "performance", "6.1.0-9", 449),
		host("p4", "tmpfs", "tmpfs", "performance", "6.1.0-18", 451),
	};
	_cleanup_json_ json_object *slow = host("b7", "ext4", "hdd", "powersave", "6.1.0-18", 90);

	/* File Copy: the workdir and the governor separate fully; the workdir
	 * moves fewer tests, so it comes first; the kernel is shared */
	_cleanup_json_ json_object *fc = differences(slow, peers, 4, DT_FC1K);
	assert_int_equal(jarr_len(fc), 2);
	json_object *d = difference(fc, 0);
	assert_jstr(d, "fact", "workdir medium");
	assert_jstr(d, "value", "ext4 on a rotating disk");
	assert_jstr(d, "own", "its workdir is on ext4 on a rotating disk");
	assert_jstr(d, "theirs", "theirs on tmpfs");
	assert_true(json_object_get_boolean(jpath(d, "relevant")));
	assert_jstr(difference(fc, 1), "fact", "governor");

	/* Dhrystone: the workdir does not move it, so it goes last */
	_cleanup_json_ json_object *dhry = differences(slow, peers, 4, DT_DHRY);
	assert_jstr(difference(dhry, 0), "fact", "governor");
	assert_jstr(difference(dhry, 0), "theirs", "theirs performance");
	assert_jstr(difference(dhry, 1), "fact", "workdir medium");
	assert_false(json_object_get_boolean(jpath(difference(dhry, 1), "relevant")));

	/* peers that disagree: the common value is named with its count; a
	 * value half the peers share does not set the host apart */
	_cleanup_json_ json_object *odd = host("k9", "tmpfs", "tmpfs", "performance", "6.1.0-9", 300);
	_cleanup_json_ json_object *k = differences(odd, peers, 4, DT_FC1K);
	assert_int_equal(jarr_len(k), 1);
	assert_jstr(difference(k, 0), "fact", "kernel");
	assert_jstr(difference(k, 0), "own", "it runs kernel 6.1.0-9");
	assert_jstr(difference(k, 0), "theirs", "they run 6.1.0-18 (3 of 4)");
	json_object *p2[2] = { peers[0], peers[2] };
	json_object_put(k);
	k = differences(odd, p2, 2, DT_FC1K);
	assert_int_equal(jarr_len(k), 0);

	/* a separation of every peer beats a partial one of a more specific fact */
	json_object *mixed[4] = {
		host("m1", "ext4", "hdd", "powersave", "6.1.0-18", 450),
		host("m2", "tmpfs", "tmpfs", "powersave", "6.1.0-18", 450),
		host("m3", "tmpfs", "tmpfs", "powersave", "6.1.0-18", 450),
		host("m4", "tmpfs", "tmpfs", "powersave", "6.1.0-18", 450),
	};
	_cleanup_json_ json_object *perf = host("q1", "ext4", "ssd", "performance", "6.1.0-18", 300);
	_cleanup_json_ json_object *m = differences(perf, mixed, 4, DT_FC1K);
	assert_jstr(difference(m, 0), "fact", "governor");
	assert_jstr(difference(m, 1), "fact", "workdir medium");
	assert_jstr(difference(m, 1), "theirs", "theirs on tmpfs (3 of 4)");

	/* a fact the host's record does not have is not compared */
	_cleanup_json_ json_object *bare = json_lit("{\"schema\": \"ubtune.result/1\", \"run_id\": \"x\", \"host\": \"x\","
						   " \"started_at\": \"2026-01-01T12:00:00+0100\","
						   " \"suite\": {\"name\": \"native\"}, \"runs\": []}");
	_cleanup_json_ json_object *none = differences(bare, peers, 4, DT_FC1K);
	assert_int_equal(jarr_len(none), 0);
	for (int i = 0; i < 4; i++) {
		json_object_put(peers[i]);
		json_object_put(mixed[i]);
	}
}

/* The record: the slow host named in File Copy with its workdir as the
 * reason, nobody in Dhrystone. */
static void fleet_record(void **state)
{
	json_object *recs[5] = {
		host("p1", "tmpfs", "tmpfs", "performance", "6.1.0-18", 450),
		host("p2", "tmpfs", "tmpfs", "performance", "6.1.0-18", 455),
		host("b7", "ext4", "hdd", "performance", "6.1.0-18", 350),
		host("p3", "tmpfs", "tmpfs", "performance", "6.1.0-18", 448),
		host("p4", "tmpfs", "tmpfs", "performance", "6.1.0-18", 452),
	};
	struct fleet_input in[5];
	for (int i = 0; i < 5; i++) {
		in[i] = (struct fleet_input){ .source = "test", .id = i + 1 };
		digest_of(recs[i], &in[i].d);
	}
	_cleanup_json_ json_object *f = fleet_build(in, 5, NULL);
	assert_jstr(f, "schema", "ubtune.fleet/1");
	json_object *sec = json_object_array_get_idx(jpath(f, "sections"), 0);
	assert_int_equal(jint(sec, "copies"), 1);
	json_object *dhry = json_object_array_get_idx(jpath(sec, "tests"), 0);
	json_object *fc = json_object_array_get_idx(jpath(sec, "tests"), 1);
	assert_jstr(dhry, "id", "dhry2reg");
	assert_int_equal(jarr_len(jpath(dhry, "outliers")), 0);
	assert_jstr(fc, "basis", "index");
	assert_float_equal(json_object_get_double(jpath(fc, "stats.median")), 450, 1e-9);
	assert_int_equal(jarr_len(jpath(fc, "outliers")), 1);
	json_object *o = json_object_array_get_idx(jpath(fc, "outliers"), 0);
	assert_jstr(o, "host", "b7");
	assert_jstr(o, "direction", "low");
	assert_int_equal(jint(o, "peers"), 4);
	assert_jstr(o, "sentence", "host b7 scores 22 % below its 4 peers in File Copy 1024: its workdir is on ext4 on "
				  "a rotating disk, theirs on tmpfs");
	/* the score is over the same tests on every host: compared too */
	assert_int_equal(jarr_len(jpath(sec, "score.outliers")), 0);
	assert_int_equal(jarr_len(jpath(f, "outliers")), 1);
	for (int i = 0; i < 5; i++) {
		json_object_put(recs[i]);
		fleet_digest_free(&in[i].d);
	}
}

/* How far off: a percentage, or a factor where a percentage would round
 * the difference away (0.9 against 697 is not "100 % below"). */
static void off_text(void **state)
{
	char b[64];
	fleet_off_text(0.9, 697, b, sizeof(b));
	assert_string_equal(b, "774 times below");
	fleet_off_text(78, 100, b, sizeof(b));
	assert_string_equal(b, "22 % below");
	fleet_off_text(251, 100, b, sizeof(b));
	assert_string_equal(b, "151 % above");
	fleet_off_text(1500, 100, b, sizeof(b));
	assert_string_equal(b, "15 times above");
	fleet_off_text(0, 100, b, sizeof(b));
	assert_string_equal(b, "100 % below");
}

/* A fact that does not move the test is never the reason: Whetstone far
 * above its peers on another workdir says no fact sets it apart. */
static void reason_is_relevant(void **state)
{
	json_object *recs[4] = {
		host("p1", "tmpfs", "tmpfs", "performance", "6.1.0-18", 450),
		host("p2", "tmpfs", "tmpfs", "performance", "6.1.0-18", 452),
		host("p3", "tmpfs", "tmpfs", "performance", "6.1.0-18", 449),
		host("w9", "ext4", "hdd", "performance", "6.1.0-18", 451),
	};
	/* w9's Dhrystone is 2.5 times its peers' */
	jset_double(jpath(recs[3], "runs.0.tests.0"), "index", 3750);
	struct fleet_input in[4];
	for (int i = 0; i < 4; i++) {
		in[i] = (struct fleet_input){ .source = "test", .id = i + 1 };
		digest_of(recs[i], &in[i].d);
	}
	_cleanup_json_ json_object *f = fleet_build(in, 4, NULL);
	json_object *o = json_object_array_get_idx(jpath(f, "outliers"), 0);
	assert_non_null(o);
	assert_jstr(o, "sentence", "host w9 scores 150 % above its 3 peers in Dhrystone 2; no recorded fact that moves "
				  "this test sets it apart");
	json_object *dhry = json_object_array_get_idx(jpath(f, "sections.0.tests"), 0);
	json_object *d = json_object_array_get_idx(jpath(json_object_array_get_idx(jpath(dhry, "outliers"), 0), "differences"), 0);
	assert_jstr(d, "fact", "workdir medium");
	assert_false(json_object_get_boolean(jpath(d, "relevant")));
	for (int i = 0; i < 4; i++) {
		json_object_put(recs[i]);
		fleet_digest_free(&in[i].d);
	}
}

/* A digest of one run of two tests, each with its passes kept. */
static void since_digest(struct fleet_digest *d, double dhry, double fs, double spread)
{
	*d = (struct fleet_digest){ .host = xstrdup("h2"), .facts = xcalloc(fleet_nfacts, sizeof(char *)),
				    .runs = xcalloc(1, sizeof(struct fleet_run)), .nruns = 1 };
	struct fleet_run *r = &d->runs[0];
	*r = (struct fleet_run){ .copies = 1, .score = NAN, .ci_lo = NAN, .ci_hi = NAN,
				 .tests = xcalloc(2, sizeof(struct fleet_test)), .ntests = 2 };
	const char *ids[] = { "dhry2reg", "fstime" };
	double v[] = { dhry, fs };
	for (int t = 0; t < 2; t++) {
		struct fleet_test *x = &r->tests[t];
		*x = (struct fleet_test){ .id = xstrdup(ids[t]), .result = v[t] * 100, .index = v[t], .baseline = NAN,
					  .time_s = NAN, .samples = 3, .kept = xcalloc(3, sizeof(double)), .nkept = 3 };
		for (int k = 0; k < 3; k++)
			x->kept[k] = v[t] * 100 * (1 + (k - 1) * spread);
	}
}

/* What moved since a round: a change beyond the passes' spread and 5 %
 * moved; one inside the spread, or of less than 5 %, did not. */
static void since_round(void **state)
{
	struct fleet_input then = { .source = "result 1", .id = 1, .label = "h2", .machine = "m:2" };
	struct fleet_input now = { .source = "result 2", .id = 2, .label = "h2", .machine = "m:2" };
	since_digest(&then.d, 1000, 500, 0.005);
	/* Dhrystone 3 % up, File Copy 40 % down */
	since_digest(&now.d, 1030, 300, 0.005);
	char *labels[] = { "h2" };
	_cleanup_json_ json_object *o = fleet_since(&now, 1, labels, &then, 1, "r1");
	assert_jstr(o, "round", "r1");
	json_object *moved = jpath(o, "moved");
	assert_int_equal(jarr_len(moved), 1);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(moved, 0)),
			    "host h2 got slower since round r1: File Copy 1024 -40 % (p<0.01)");
	json_object *changes = jpath(json_object_array_get_idx(jpath(o, "hosts"), 0), "changes");
	assert_int_equal(jarr_len(changes), 2);
	json_object *dhry = json_object_array_get_idx(changes, 0);
	assert_jstr(dhry, "method", "welch");
	assert_true(json_object_get_boolean(jpath(dhry, "significant")));
	assert_false(json_object_get_boolean(jpath(dhry, "moved")));
	fleet_digest_free(&now.d);

	/* the same change with passes that spread as far: not significant */
	since_digest(&now.d, 1030, 300, 0.5);
	fleet_digest_free(&then.d);
	since_digest(&then.d, 1000, 500, 0.5);
	json_object_put(o);
	o = fleet_since(&now, 1, labels, &then, 1, "r1");
	assert_int_equal(jarr_len(jpath(o, "moved")), 0);
	fleet_digest_free(&now.d);
	fleet_digest_free(&then.d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_one_slow_host),
		cmocka_unit_test(rule_several_and_high),
		cmocka_unit_test(rule_floor_and_limits),
		cmocka_unit_test(latest_results),
		cmocka_unit_test(rounds),
		cmocka_unit_test(machines),
		cmocka_unit_test(fact_ranking),
		cmocka_unit_test(fleet_record),
		cmocka_unit_test(off_text),
		cmocka_unit_test(reason_is_relevant),
		cmocka_unit_test(since_round),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
