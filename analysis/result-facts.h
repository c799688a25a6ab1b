/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/result-record.h"

/*
 * Facts of a result and the environment it ran in as short text, for the
 * tables that set results side by side (compare's environment, the
 * fleet's differences): each written once, in the words both print. NULL
 * when the record does not say; the caller frees.
 */

/* s, or NULL for NULL and "". */
char *fact_text(const char *s);

char *fact_kernel(const struct result_env *res);    /* "6.1.0-18-amd64" */
char *fact_cpu(const struct result_env *res);       /* "Cortex-A72" */
char *fact_governor(const struct result_env *res);  /* "performance" */
char *fact_max_clock(const struct result_env *res); /* "1500 MHz" */
char *fact_boost(const struct result_env *res);     /* "on", "off" */
char *fact_thp(const struct result_env *res);       /* "madvise" */
char *fact_online_cpus(const struct result_env *res); /* "8" */
/* "none" when no profile was applied; NULL when an imported result cannot say. */
char *fact_profile(const struct result_env *res);
