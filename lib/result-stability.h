/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/result-record.h"
#include "lib/util.h"

/*
 * Whether a result is to be trusted: the one verdict that the bench report
 * (each test's row and the last line), `show`, `history`'s flags, the HTML
 * page, the record's "verdict" and `bench --strict`'s exit status all show.
 *
 * A test is not to be trusted when its passes vary by more than
 * STABILITY_CV_MAX_PCT, when they fall into two groups STABILITY_GAP_MIN_PCT
 * apart (bimodal: Pipe-based Context Switching swings with where its two
 * processes are placed), when the machine did something else meanwhile
 * past a threshold of bench/sampler.h (its "background": other processes,
 * I/O wait, steal, kernel time), or when the sampler saw an event during
 * it. A test with fewer than two passes could not be judged (its spread is
 * not known).
 * A run is not to be trusted when one of its tests is not, when the
 * sampler saw an event, when the machine was busy as the run started, or
 * when the probe before or after the run has a critical finding (the
 * machine saturated, undervoltage, emulation without KVM); else it could
 * not be judged when one of its tests could not, or when it holds nothing
 * to judge by (an import of a report without passes); else it is stable.
 */
#define STABILITY_CV_MAX_PCT 5.0
#define STABILITY_GAP_MIN_PCT 15.0

enum verdict_state {
	VERDICT_STABLE,
	VERDICT_NOT_JUDGED,
	VERDICT_UNTRUSTED,
};

struct result_verdict {
	enum verdict_state state;
	/* each a sentence: why not to be trusted (untrusted), what could not
	 * be judged (not judged), nothing (stable) */
	struct strv reasons;
	size_t run_reasons; /* untrusted: the first reasons, of the whole run; the rest name a test */
	size_t tests, tests_untrusted, tests_not_judged;
};

/* The verdict of a result; free it with result_verdict_free(). */
void result_verdict(const struct result_record *r, struct result_verdict *v);
void result_verdict_free(struct result_verdict *v);

/* The verdict of one test of a run; appends to *why (may be NULL) the
 * reasons, worded without the test's name ("CV 7.3 % (above 5 %)"). */
enum verdict_state result_test_verdict(const struct result_record *r, const struct result_run *run,
				       const struct result_test *t, struct strv *why);

/* "stable", "not judged", "untrusted": the words of the record's "verdict". */
const char *verdict_state_name(enum verdict_state s);

/* Writes the verdict into the record: "verdict": {"state", "reasons"} and
 * runs[].tests[].verdict alike, replacing what it held. A record that
 * does not decode is left as it is; returns -EBADMSG then. */
int result_verdict_set(json_object *rec);
