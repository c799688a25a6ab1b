/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML page's section of every run against what published runs of its CPU reach. */
#include "report-html.h"

#include "bench/report-expect.h"
#include "xml.h"

static void cell(FILE *out, const char *cls, const char *s)
{
	fprintf(out, "<td class=\"%s\">", cls);
	xml_escape(out, s);
	fputs("</td>", out);
}

void report_html_expected(FILE *out, const struct result_env *in, size_t n, const char *const *labels,
			  const struct expect_ref *ref)
{
	if (!ref || !ref->loaded)
		return;
	fputs("<h2 id=\"expected\">Against what published runs of the CPU reach</h2>\n", out);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < in[i].r.runs.n; k++) {
			const struct result_run *run = &in[i].r.runs.v[k];
			if (!run->index.score.known)
				continue;
			struct expectation e;
			fputs("<p>", out);
			if (n > 1) {
				xml_escape(out, labels[i]);
				fputs(": ", out);
			}
			if (!report_expect_run(ref, &in[i], run, &e)) {
				_cleanup_free_ char *s = xasprintf("%lld %s: nothing expected, %s",
								   (long long)int_or(run->copies, 0),
								   int_or(run->copies, 0) == 1 ? "copy" : "copies", e.why);
				xml_escape(out, s);
				fputs("</p>\n", out);
				continue;
			}
			_cleanup_free_ char *line = report_expect_line(&in[i], run, &e);
			xml_escape(out, line);
			fputs("<br/><span class=\"muted\">", out);
			xml_escape(out, e.basis_text);
			fputs("</span></p>\n<div class=\"wide\"><table>\n<tr><th>Test</th><th class=\"num\">index</th>"
			      "<th class=\"num\">expected</th><th class=\"num\">80 % interval</th>"
			      "<th class=\"num\">of expected</th></tr>\n", out);
			struct report_expect_row rows[UB_NINDEX];
			size_t nrows = report_expect_rows(run, &e, rows);
			for (size_t r = 0; r < nrows; r++) {
				char mid[32], range[64];
				report_expect_texts(&rows[r], mid, sizeof(mid), range, sizeof(range));
				_cleanup_free_ char *idx = xasprintf("%.1f", rows[r].index);
				_cleanup_free_ char *pct = report_expect_pct(&rows[r]);
				fputs("<tr>", out);
				cell(out, "name", rows[r].test->name);
				cell(out, "num", idx);
				cell(out, "num", mid);
				cell(out, "num", range);
				cell(out, rows[r].index < rows[r].low ? "num warn" : "num", pct);
				fputs("</tr>\n", out);
			}
			fputs("</table></div>\n", out);
		}
}
