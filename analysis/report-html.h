/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

#include "analysis/compare.h"
#include "lib/result-record.h"
#include "unixbench/expect.h"

/*
 * One self-contained HTML page for a result or a comparison of several:
 * the scores, the environment (what differs first), the probe's findings
 * and the sampler's events, every test with its dispersion, the charts
 * and the clock/temperature timeline as inline SVG. No script, no network
 * asset; the markup is well-formed XML (XHTML served as HTML). -EBADMSG and
 * *error naming the key when a result does not decode (lib/result-record.h).
 */
int report_html(const struct compare_input *in, size_t n, FILE *out, char **error);

/* The start of a page of the same look (doctype, the style, the title as
 * its heading), and its end (the footer); other pages (the fleet's) write
 * their body between them. */
void report_html_open(FILE *out, const char *title);
void report_html_close(FILE *out);
/* The section of every run against what published runs of its CPU reach
 * (analysis/report-html-expect.c); labels name the results when n > 1. */
void report_html_expected(FILE *out, const struct result_env *in, size_t n, const char *const *labels,
			  const struct expect_ref *ref);
