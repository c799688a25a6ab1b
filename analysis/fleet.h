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

/*
 * The results a fleet view starts from, from a store listing (store_list()):
 * the latest stored result (the highest id) of each host, or with by_copies
 * that of each host at each copy count (a host may then give several
 * results). *ids (caller frees) in ascending order.
 */
void fleet_latest(json_object *list, bool by_copies, int64_t **ids, size_t *n);

/* ---- the facts that set a host apart ---- */

/* A fact compared between hosts. */
struct fleet_fact {
	const char *name;     /* "workdir medium" */
	unsigned tests;       /* DT mask of the tests it moves */
	/* The value compared (caller frees), NULL when the record does not say. */
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
json_object *fleet_differences(const struct result_env *res, const struct result_env *const *peers, size_t npeers,
			       int t);

/* ---- the view ---- */

struct fleet_input {
	json_object *rec;   /* a result record (borrowed) */
	const char *source; /* "result 12", a file name */
	int64_t id;         /* in the store; 0: not stored */
};

/* The fleet record of n results. diagnose compares an outlier with refs
 * (the published runs; may be NULL) and the other hosts: the results are
 * added to refs, each as a history of its own. */
json_object *fleet_build(const struct fleet_input *in, size_t n, struct diag_refs *refs);

/* The rows of a section of the record: its tests, then its score when
 * the hosts' scores are compared; how many (at most max). */
size_t fleet_section_rows(json_object *sec, json_object **rows, size_t max);
/* A value as the table shows it: "1234.5", "123457" from 100000 on, "-" for none. */
void fleet_value_text(json_object *v, char *b, size_t n);

void fleet_render(json_object *fleet, FILE *out);
/* The self-contained HTML page: table, strip charts with the outliers
 * named, the outliers' facts and causes. */
void fleet_html(json_object *fleet, FILE *out);
