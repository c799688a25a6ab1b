/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The summary that lists a result in the store. */
#include "result-summary.h"

#include "result-stability.h"
#include "util.h"

json_object *result_summary(json_object *rec)
{
	struct result_env re;
	const struct result_record *rr = &re.r;
	_cleanup_free_ char *error = NULL;
	/* records are checked when they enter the store: a record that does
	 * not decode is listed with what is known of it, nothing */
	(void)result_env_decode(rec, &re, &error);
	json_object *s = json_object_new_object();
	jset_str(s, "run_id", rr->run_id);
	jset_str(s, "started_at", rr->started_at);
	jset_str(s, "host", rr->host);
	/* which machine, and which round of a fleet: fleet's choice of results */
	jset_str(s, "machine_id", re.env.host.machine_id);
	jset_str(s, "round", rr->round);
	const char *name = rr->suite.name, *version = rr->suite.version;
	_cleanup_free_ char *suite = version ? xasprintf("%s %s", name, version) : xstrdup_or_null(name);
	jset_str(s, "suite", suite);

	json_object *copies = json_object_new_array(), *scores = json_object_new_array();
	json_object *flags = json_object_new_array();
	bool partial = false;
	for (size_t i = 0; i < rr->runs.n; i++) {
		const struct result_run *run = &rr->runs.v[i];
		json_object_array_add(copies, run->copies.known ? json_object_new_int64(run->copies.v) : NULL);
		json_object_array_add(scores, run->index.score.known ? json_object_new_double(run->index.score.v) : NULL);
		partial |= is_true(run->index.partial);
	}
	if (is_true(rr->quick))
		jarr_add_str(flags, "quick");
	if (is_true(rr->incomplete))
		jarr_add_str(flags, "incomplete");
	if (is_true(rr->imported))
		jarr_add_str(flags, "imported");
	if (partial)
		jarr_add_str(flags, "partial");
	for (size_t i = 0; i < rr->profile.profiles.n; i++) {
		const char *p = rr->profile.profiles.v[i];
		_cleanup_free_ char *f = xasprintf("profile:%s", p ? p : "?");
		jarr_add_str(flags, f);
	}
	struct result_verdict v;
	result_verdict(rr, &v);
	if (v.state != VERDICT_STABLE)
		jarr_add_str(flags, v.state == VERDICT_UNTRUSTED ? "unstable" : "unjudged");
	result_verdict_free(&v);
	jset(s, "copies", copies);
	jset(s, "scores", scores);
	jset(s, "flags", flags);
	jset_int(s, "summary_version", RESULT_SUMMARY_VERSION);
	result_env_free(&re);
	return s;
}

bool result_summary_current(json_object *summary)
{
	int64_t v;
	return jpath_int(summary, "summary_version", &v) && v == RESULT_SUMMARY_VERSION;
}

void result_summary_copy(json_object *row, json_object *summary)
{
	json_object_object_foreach(summary, k, v)
		if (!streq(k, "summary_version"))
			jset(row, k, json_object_get(v));
}
