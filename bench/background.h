/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/json.h"

/*
 * What else the machine did during each test, from the sampler's readings
 * taken while it ran: kernel time, I/O wait, steal and other processes'
 * CPU, and whether any passed the thresholds (bench/sampler.h) that make
 * the test's score untrustworthy. Sets runs[].tests[].background of a
 * result record from its samples; a record without samples is left as
 * it is.
 */
void background_per_test(json_object *rec);

/* The thresholds, as one sentence for reports (caller frees). */
char *background_thresholds_text(void);
