/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/diagnose.h"
#include "lib/json.h"
#include "lib/result-record.h"

/*
 * The fleet view: results of many hosts side by side, per copy count one
 * table of hosts × tests, the fleet's median and spread per test, and the
 * hosts outside the normal range by a robust rule; for each such host the
 * recorded facts that set it apart from the others, ranked, and the causes
 * diagnose finds. fleet_build() makes the record (schema ubtune.fleet/1,
 * docs/fleet-json.md); text, JSON and the HTML page draw it.
 */
#define FLEET_SCHEMA "ubtune.fleet/1"

/*
 * The rule: a host is an outlier in a test when its value lies more than
 * FLEET_K robust standard deviations from the fleet's median, on the scale
 * of ratios (the logarithms of the values: a host twice as fast is as far
 * off as one half as fast, and a fleet that varies by a factor is not
 * judged by its fastest hosts' absolute spread). The robust standard
 * deviation is FLEET_MAD_SCALE × the median absolute deviation, which
 * equals the standard deviation for normal data. It must also be at least
 * FLEET_MIN_PCT % from the median (runs of one machine vary by a few per
 * cent from run to run: a tight fleet is not a reason to call that noise
 * an outlier). It needs FLEET_MIN_HOSTS hosts with a value.
 */
#define FLEET_K 3.0
#define FLEET_MAD_SCALE 1.4826
#define FLEET_MIN_PCT 5.0
#define FLEET_MIN_HOSTS 3

struct fleet_stats {
	size_t n;                 /* values (NAN ones left out) */
	double median, mad;       /* of the values */
	double sigma;             /* FLEET_MAD_SCALE × the MAD of the logarithms */
	double low, high;         /* the normal range: median × exp(∓reach) */
	double min, max;
	bool judged;              /* enough values to call outliers */
};

/* The statistics of n values; NAN values do not count. */
void fleet_stats(const double *v, size_t n, struct fleet_stats *s);
/* -1 below the normal range, +1 above, 0 inside it (or not judged, or NAN). */
int fleet_outlier(const struct fleet_stats *s, double v);
/* The median of n values (NAN ones left out); NAN when none. */
double fleet_median(const double *v, size_t n);

/* ---- the facts that set a host apart ---- */

/* A fact compared between hosts. */
struct fleet_fact {
	const char *name;     /* "workdir medium" */
	unsigned tests;       /* DT mask of the tests it moves */
	/* The value compared (caller frees), NULL when the record does not say;
	 * read once, into the result's digest. */
	char *(*get)(const struct result_env *res);
	const char *own;      /* "its workdir is on %s" */
	const char *theirs;   /* "theirs on %s" */
};
/* In the order they rank when all else is equal. */
extern const struct fleet_fact fleet_facts[];
extern const size_t fleet_nfacts;

/*
 * The facts in which one host (res) differs from its peers, ranked, for
 * test t (a DT_* index, or -1 for the index score): an array of
 * {"fact", "value", "peers": [{"value", "hosts"}] (most common first),
 * "share": the part of the peers whose value is the host's, "relevant":
 * the fact moves this test, "own", "theirs": the sentence halves}. A fact
 * is listed when the host's value is known, at least one peer's is, and
 * fewer than half of the peers share it. Ranked by relevance, then by how
 * clearly it separates ((1 - share) × the part of the peers that agree on
 * one value), then by how few tests the fact moves (the workdir says more
 * about File Copy than the governor does), then by the order of
 * fleet_facts[].
 */
struct fleet_digest;
json_object *fleet_differences(const struct fleet_digest *own, const struct fleet_digest *const *peers, size_t npeers,
			       int t);

/* ---- a result's digest ---- */

/*
 * What the fleet view and the exports read of a result, instead of the
 * whole record (about a thousand times smaller): per run and test the
 * values and the rates of the passes kept, the facts of fleet_facts[] as
 * their text, and what diagnose's references need. The store keeps it
 * beside the record (store_get_digest()); FLEET_DIGEST_VERSION changes
 * whenever what it holds changes, and a digest of another version is made
 * again from the record.
 */
/* 2: the CPU quota among the facts */
#define FLEET_DIGEST_VERSION 2

struct fleet_test {
	char *id, *name, *unit;
	double result, index, baseline, time_s; /* NAN: not known */
	int64_t samples;                         /* -1: not known */
	double *kept;                            /* the rates of the passes kept */
	size_t nkept;
};

struct fleet_run {
	unsigned copies; /* 0: not known */
	char *started_at;
	double score, ci_lo, ci_hi; /* NAN: not known */
	bool partial;
	struct fleet_test *tests;
	size_t ntests;
	struct diag_run diag; /* as diagnose reads the run */
};

struct fleet_digest {
	char *run_id, *host, *machine_id, *round, *started_at, *suite, *suite_version, *interrupted_by;
	char *os;
	bool quick, imported, incomplete;
	char **facts; /* fleet_nfacts values, NULL: not known */
	/* the machine as diagnose's references describe it */
	char *cpu, *arch, *kernel, *vmm;
	unsigned cpus;
	enum diag_virt virt;
	int workdir_memory;
	bool undervoltage;
	struct fleet_run *runs;
	size_t nruns;
	struct fleet_pool *pool; /* keeps the strings that repeat from digest to digest; NULL: its own */
};

/* Strings that the digests of a fleet share (test names, units, facts):
 * kept once for all of them, and freed with the pool, after them. */
struct fleet_pool;
struct fleet_pool *fleet_pool_new(void);
void fleet_pool_free(struct fleet_pool *p);

/* The digest of a result record; -EBADMSG (*error says why) when it does not decode. */
int fleet_digest_make(json_object *rec, struct fleet_digest *d, char **error);
/* As JSON text, and back: -ESTALE for a digest of another version, -EBADMSG
 * for no digest. pool may be NULL; without passes, no test's kept[]
 * (only --since needs them). */
char *fleet_digest_text(const struct fleet_digest *d);
int fleet_digest_parse(const char *text, struct fleet_digest *d, struct fleet_pool *pool, bool passes);
void fleet_digest_free(struct fleet_digest *d);
/* The test of a run with this id; NULL when it has none. */
const struct fleet_test *fleet_run_test(const struct fleet_run *run, const char *id);

struct store;
/* The digest of stored result id: the one kept, else made from the record
 * (and kept, when the store can be written). */
int fleet_digest_load(struct store *s, int64_t id, struct fleet_digest *d, struct fleet_pool *pool, bool passes,
		      char **error);
/* store_add() and the record's digest beside it. */
int fleet_store_add(struct store *s, json_object *rec, int64_t *id);

/* ---- which results ---- */

/*
 * The results a fleet view shows, chosen from the store's listing read one
 * summary at a time: the results of a round (the latest, by default), else
 * the latest of each host at each copy count. A host is a machine: results
 * that record the same machine id are one host whatever their host names,
 * two machines of one name are two hosts; a result without a machine id is
 * the host of its name (the machine of that name, when exactly one machine
 * id goes with it), and a result with neither a host of its own. The
 * choice says which results it grouped as one host and why, which it left
 * out and why, and the hosts of other rounds missing from the one shown.
 */
struct fleet_pick;
struct fleet_pick *fleet_pick_new(void);
void fleet_pick_free(struct fleet_pick *p);
/* One result: its id (or any number unique among them) and listing
 * summary (store_list(), result_summary()). */
void fleet_pick_add(struct fleet_pick *p, int64_t id, json_object *summary);

struct fleet_choice {
	int64_t *ids;      /* ascending */
	char **labels;     /* the host of each: its name, "bench [3f2a91]" when two machines share it */
	char **machines;   /* the host of each as a key: results with the same key are one host */
	size_t n;
	char *round;       /* the round shown; NULL: no round */
	json_object *selection; /* docs/fleet-json.md "selection" */
};
enum fleet_pick_mode {
	FLEET_PICK_LATEST, /* the latest round, else the latest result of each host at each copy count */
	FLEET_PICK_ROUND,  /* the round given */
	FLEET_PICK_ALL,    /* every result added (the results named on the command line) */
};
/* -ENOENT, with *error naming the rounds there are, for a round not among them. */
int fleet_pick_choose(struct fleet_pick *p, enum fleet_pick_mode mode, const char *round, struct fleet_choice *out,
		      char **error);
void fleet_choice_free(struct fleet_choice *c);

/* ---- the view ---- */

struct fleet_input {
	struct fleet_digest d;
	const char *source;  /* "result 12", a file name */
	int64_t id;          /* in the store; 0: not stored */
	const char *label;   /* its host, as fleet_choice labels it */
	const char *machine; /* its host as a key */
};

struct fleet_opts {
	struct diag_refs *refs; /* the published runs diagnose compares an outlier with; may be NULL */
	/* The record of input i, for diagnose (the caller's reference, which
	 * fleet_build() puts), or NULL. */
	json_object *(*record)(void *ctx, size_t i);
	void *ctx;
	json_object *selection; /* fleet_choice's, taken into the record (may be NULL) */
	const char *round;
	/* --since: the same hosts in an earlier round */
	const struct fleet_input *then;
	size_t nthen;
	const char *since;
};

/* The fleet record of n results. diagnose compares an outlier with the
 * published runs and the other hosts: each is added to refs as a history
 * of its own. */
json_object *fleet_build(const struct fleet_input *in, size_t n, const struct fleet_opts *o);

/* The "since" part of the record: per host (matched by machine) and copy
 * count the changes of each test and the score from the round then,
 * their significance, and the sentences of those that moved. */
json_object *fleet_since(const struct fleet_input *now, size_t n, char *const *labels, const struct fleet_input *then,
			 size_t nthen, const char *since);

/* The rows of a section of the record: its tests, then its score when
 * the hosts' scores are compared; how many (at most max). */
size_t fleet_section_rows(json_object *sec, json_object **rows, size_t max);
/* A value as the table shows it: "1234.5", "123457" from 100000 on, "-" for none. */
void fleet_value_text(json_object *v, char *b, size_t n);
/* "22 % below", "776 times below": how far a value is off its peers' median. */
void fleet_off_text(double value, double median, char *b, size_t n);

void fleet_render(json_object *fleet, FILE *out);
/* The self-contained HTML page: table, strip charts with the outliers
 * named, the outliers' facts and causes. */
void fleet_html(json_object *fleet, FILE *out);
