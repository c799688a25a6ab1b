/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fills a results store for `make bench-store` and `make bench-fleet`: N
 * results of HOSTS hosts (one result of each host in turn, a minute apart;
 * each turn a round of the fleet, "r1", "r2", ...), made from a template
 * result record with a new run id, host name, machine id, round and start
 * time, and each
 * host's scores moved by a steady factor of its own (within ±3 %; host 7
 * scores 25 % lower in the File Copy tests). SAMPLES sampler readings of a
 * 4-CPU board are added to each record, as a run of that length carries.
 *   bench-store-fill STATE_DIR TEMPLATE.json N HOSTS [SAMPLES]
 * Prints the seconds the adds took.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/fleet.h"
#include "lib/json.h"
#include "lib/store.h"
#include "lib/util.h"

/* splitmix64: the same store on every run */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static double host_factor(unsigned host, const char *test)
{
	double f = 1 + ((double)(mix(host) % 6001) / 1000.0 - 3.0) / 100.0;
	if (host == 7 && startswith(test, "fs"))
		f *= 0.75;
	return f;
}

static void scale(json_object *o, const char *key, double f)
{
	double v;
	if (jpath_double(o, key, &v))
		jset_double(o, key, v * f);
}

static void vary(json_object *rec, unsigned host)
{
	json_object *runs = jpath(rec, "runs");
	for (size_t i = 0; i < jarr_len(runs); i++) {
		json_object *run = json_object_array_get_idx(runs, i);
		json_object *tests = jpath(run, "tests");
		double logsum = 0;
		size_t n = 0;
		for (size_t k = 0; k < jarr_len(tests); k++) {
			json_object *t = json_object_array_get_idx(tests, k);
			double f = host_factor(host, jpath_str(t, "id") ?: ""), index;
			scale(t, "result", f);
			scale(t, "index", f);
			if (jpath_double(t, "index", &index) && index > 0) {
				logsum += log(index / 10);
				n++;
			}
		}
		if (n)
			jset_double(jchild(run, "index"), "score", 10 * exp(logsum / (double)n));
	}
}

static json_object *samples(unsigned n)
{
	json_object *a = json_object_new_array();
	for (unsigned i = 0; i < n; i++) {
		json_object *s = json_object_new_object(), *busy = json_object_new_array();
		json_object *mhz = json_object_new_array();
		for (int c = 0; c < 4; c++) {
			json_object_array_add(busy, json_object_new_double(99.5 - c * 0.25));
			json_object_array_add(mhz, json_object_new_int(1800));
		}
		jset_double(s, "t", i);
		jset_str(s, "test", "dhry2reg");
		jset_int(s, "copies", 4);
		jset(s, "busy_pct", busy);
		jset(s, "mhz", mhz);
		jset_int(s, "temp_mc", 61000 + (int)(i % 50) * 100);
		jset_str(s, "temp_zone", "cpu-thermal");
		jset_double(s, "steal_pct", 0);
		jset_double(s, "iowait_pct", 0);
		jset_int(s, "swap_in", 0);
		jset_int(s, "swap_out", 0);
		jset_double(s, "others_pct", 0.4);
		json_object_array_add(a, s);
	}
	return a;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: bench-store-fill STATE_DIR TEMPLATE.json N HOSTS [SAMPLES]\n");
		return 2;
	}
	/* as ubtune writes numbers (cli/ubtune.c) */
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
	uint64_t n, hosts, nsamples = 0;
	if (parse_u64(argv[3], &n) < 0 || parse_u64(argv[4], &hosts) < 0 || hosts == 0 ||
	    (argc > 5 && parse_u64(argv[5], &nsamples) < 0)) {
		fprintf(stderr, "bench-store-fill: N, HOSTS and SAMPLES are numbers\n");
		return 2;
	}
	_cleanup_json_ json_object *tmpl = NULL;
	_cleanup_free_ char *error = NULL;
	if (result_load_file(argv[2], &tmpl, &error) < 0) {
		fprintf(stderr, "bench-store-fill: %s\n", error);
		return 1;
	}
	struct store *s;
	int r = store_open(argv[1], &s);
	if (r < 0) {
		fprintf(stderr, "bench-store-fill: cannot open the store in %s: %s\n", argv[1], strerror(-r));
		return 1;
	}
	jset(tmpl, "samples", samples((unsigned)nsamples));
	const char *text = jdump(tmpl, false);
	double t0 = now_s();
	/* a fleet's import: many adds to one transaction */
	r = store_begin(s);
	for (uint64_t i = 0; i < n && r >= 0; i++) {
		json_object *rec = NULL;
		jload_string(text, &rec);
		unsigned host = (unsigned)(i % hosts);
		_cleanup_free_ char *run_id = xasprintf("%016" PRIx64 "%016" PRIx64, mix(i), i);
		_cleanup_free_ char *name = xasprintf("node%03u", host);
		time_t when = 1767225600 + (time_t)i * 60;
		_cleanup_free_ char *started = iso8601_local(when);
		jset_str(rec, "run_id", run_id);
		jset_str(rec, "host", name);
		_cleanup_free_ char *machine = xasprintf("%016" PRIx64 "%016" PRIx64, mix(host + 1000000007), mix(host));
		_cleanup_free_ char *round = xasprintf("r%" PRIu64, i / hosts + 1);
		jset_str(rec, "started_at", started);
		jset_str(rec, "round", round);
		jset_str(jpath(rec, "environment.before.host"), "hostname", name);
		jset_str(jpath(rec, "environment.before.host"), "machine_id", machine);
		vary(rec, host);
		int64_t id;
		r = fleet_store_add(s, rec, &id);
		json_object_put(rec);
		if (r >= 0 && i % 1000 == 999 && (r = store_commit(s)) >= 0)
			r = store_begin(s);
	}
	if (r >= 0)
		r = store_commit(s);
	double secs = now_s() - t0;
	store_close(s);
	if (r < 0) {
		fprintf(stderr, "bench-store-fill: adding a result: %s\n", strerror(-r));
		return 1;
	}
	printf("%.3f\n", secs);
	return 0;
}
