/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "analysis/chart.h"

#include <math.h>

#include "analysis/compare.h"
#include "analysis/fleet.h"
#include "analysis/xml.h"
#include "lib/result-record.h"
#include "lib/util.h"
#include "unixbench/catalogue.h"

#define WIDTH 920
#define FONT "DejaVu Sans, Helvetica, Arial, sans-serif"

/* Okabe and Ito's palette: told apart with every common colour blindness. */
static const char *const palette[] = { "#0072B2", "#E69F00", "#009E73", "#CC79A7",
				       "#56B4E9", "#D55E00", "#F0E442", "#000000" };

static const char *colour(size_t i)
{
	return palette[i % ARRAY_SIZE(palette)];
}

static json_object *at(json_object *a, size_t i)
{
	return i < jarr_len(a) ? json_object_array_get_idx(a, i) : NULL;
}

static void svg_open(FILE *out, enum chart_mode mode, int width, int height, const char *title, const char *desc)
{
	if (mode == CHART_FILE)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\" font-size=\"12\" role=\"img\">\n",
		width, height, width, height, FONT);
	xml_element(out, "title", NULL, title);
	fputc('\n', out);
	xml_element(out, "desc", NULL, desc);
	fprintf(out, "\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
}

/* Text at (x, y); anchor "start", "middle" or "end"; extra attributes are a literal. */
static void svg_text(FILE *out, double x, double y, const char *anchor, const char *attrs, const char *text)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y, anchor, attrs ? " " : "",
		attrs ? attrs : "");
	xml_escape(out, text);
	fputs("</text>\n", out);
}

/* A step of 1, 2, 2.5 or 5 times a power of ten giving about `ticks` ticks. */
static double nice_step(double max, int ticks)
{
	if (!(max > 0))
		return 1;
	double raw = max / ticks, p = pow(10, floor(log10(raw)));
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++)
		if (raw <= steps[i] * p)
			return steps[i] * p;
	return 10 * p;
}

/* A tick's value with the decimals its step needs ("-7.5", never "-8" for
 * it), less the zeros at the end ("-5", "0"). */
static void tick_label(double v, double step, char *b, size_t n)
{
	int decimals = 0;
	for (double f = step; decimals < 3 && fabs(f - round(f)) > 1e-6 * fabs(f); f *= 10)
		decimals++;
	snprintf(b, n, "%.*f", decimals, fabs(v) < step / 1000 ? 0.0 : v);
	if (decimals) {
		char *e = b + strlen(b);
		while (e[-1] == '0')
			*--e = '\0';
		if (e[-1] == '.')
			e[-1] = '\0';
	}
}

/* ---- comparison bars ---- */

#define BAR_LEFT 300
#define BAR_RIGHT 100
#define GROUP_GAP 10
#define LEGEND_LINE 18
#define PANEL_HEAD 56 /* a panel's title, its axis title and tick labels */

struct bars {
	size_t n;         /* results */
	double bar_h, gap;
	double scale_max; /* value at the right end of the plot */
	bool relative;
};

static double plot_width(void)
{
	return WIDTH - BAR_LEFT - BAR_RIGHT;
}

/* The value drawn for result i of a row: index (or result), or the
 * percentage of the first result's. */
static bool bar_value(json_object *values, size_t i, bool relative, double *out)
{
	double v, first;
	json_object *vi = at(values, i), *v0 = at(values, 0);
	const char *key = "index";
	if (!jpath_double(vi, key, &v)) {
		key = "result";
		if (!jpath_double(vi, key, &v))
			return false;
	}
	if (!relative) {
		*out = v;
		return true;
	}
	if (!jpath_double(v0, key, &first) || !(first > 0))
		return false;
	*out = 100 * v / first;
	return true;
}

static bool score_value(json_object *values, size_t i, bool relative, double *out)
{
	double s, s0;
	if (!jpath_double(at(values, i), "score", &s))
		return false;
	if (!relative) {
		*out = s;
		return true;
	}
	if (!jpath_double(at(values, 0), "score", &s0) || !(s0 > 0))
		return false;
	*out = 100 * s / s0;
	return true;
}

/* Runs of different test sets: the geometric mean of the tests they all
 * indexed (the section's "common"), in place of their scores. */
static bool common_value(json_object *means, size_t i, bool relative, double *out)
{
	json_object *m = at(means, i), *m0 = at(means, 0);
	if (!m)
		return false;
	*out = json_object_get_double(m);
	if (relative) {
		double first = m0 ? json_object_get_double(m0) : 0;
		if (!(first > 0))
			return false;
		*out = 100 * *out / first;
	}
	return true;
}

typedef bool (*value_fn)(json_object *values, size_t i, bool relative, double *out);

/* A row is drawn when every result has a value in it: the chart compares,
 * and a bar facing nothing compares nothing. */
static bool row_complete(json_object *values, value_fn get, size_t n)
{
	double v;
	for (size_t i = 0; i < n; i++)
		if (!get(values, i, false, &v))
			return false;
	return n > 0;
}

/* The row under the tests: the scores, or the common tests' mean when the
 * runs index different tests; NULL when not every result has one. */
static json_object *summary_row(json_object *sec, size_t n, value_fn *get, char **name)
{
	json_object *common = jpath(sec, "common");
	json_object *values = common ? jpath(common, "geomeans") : jpath(sec, "score.values");
	*get = common ? common_value : score_value;
	if (!row_complete(values, *get, n))
		return NULL;
	size_t k = jpath_len(common, "tests");
	*name = common ? xasprintf("Geometric mean of the %zu common test%s", k, k == 1 ? "" : "s")
		       : xstrdup("System Benchmarks Index Score");
	return values;
}

/* Rows of a section that are drawn: the complete test rows and a summary. */
static size_t drawn_rows(json_object *sec, size_t n)
{
	json_object *tests = jpath(sec, "tests");
	size_t k = 0;
	for (size_t i = 0; i < jarr_len(tests); i++)
		k += row_complete(jpath(at(tests, i), "values"), bar_value, n);
	return k;
}

static double section_max(json_object *sec, const struct bars *b)
{
	double max = 0, v;
	json_object *tests = jpath(sec, "tests");
	for (size_t k = 0; k < jarr_len(tests); k++) {
		json_object *values = jpath(at(tests, k), "values");
		for (size_t i = 0; row_complete(values, bar_value, b->n) && i < b->n; i++)
			if (bar_value(values, i, b->relative, &v) && v > max)
				max = v;
	}
	value_fn get;
	_cleanup_free_ char *name = NULL;
	json_object *summary = summary_row(sec, b->n, &get, &name);
	for (size_t i = 0; summary && i < b->n; i++)
		if (get(summary, i, b->relative, &v) && v > max)
			max = v;
	return b->relative && max < 110 ? 110 : max;
}

static double group_height(const struct bars *b)
{
	return (double)b->n * (b->bar_h + b->gap) + GROUP_GAP;
}

/* One row of bars: the test's name, a bar per result, its value. */
static void bar_row(FILE *out, const struct bars *b, double y, const char *name, json_object *values,
		    json_object *changes, value_fn get, json_object *cmp)
{
	bool score = get != bar_value;
	svg_text(out, BAR_LEFT - 10, y + (double)b->n * (b->bar_h + b->gap) / 2 + 4, "end",
		 score ? "font-weight=\"bold\"" : NULL, name);
	for (size_t i = 0; i < b->n; i++) {
		double v, yy = y + (double)i * (b->bar_h + b->gap);
		char label[64], tip[320];
		const char *rl = jpath_str(at(jpath(cmp, "results"), i), "label") ?: "?";
		json_object *change = at(changes, i);
		if (!get(values, i, b->relative, &v)) {
			svg_text(out, BAR_LEFT + 4, yy + b->bar_h - 2, "start", "fill=\"#777777\" font-size=\"10\"", "n/a");
			continue;
		}
		double w = v / b->scale_max * plot_width();
		bool sig = true, high = false;
		jpath_bool(change, "significant", &sig);
		jpath_bool(change, "highlight", &high);
		snprintf(label, sizeof(label), b->relative ? "%.1f %%%s" : "%.1f%s", v,
			 change && jpath(change, "significant") && !sig ? " ~" : "");
		snprintf(tip, sizeof(tip), "%s, %s: %s", rl, name, label);
		fprintf(out, "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s>", BAR_LEFT, yy,
			w < 0.5 ? 0.5 : w, b->bar_h, colour(i), score ? " stroke=\"#333333\" stroke-width=\"0.5\"" : "");
		xml_element(out, "title", NULL, tip);
		fputs("</rect>\n", out);
		svg_text(out, BAR_LEFT + w + 4, yy + b->bar_h - 2, "start",
			 high ? "font-size=\"10\" font-weight=\"bold\"" : "font-size=\"10\"", label);
	}
}

static void axis(FILE *out, const struct bars *b, double top, double bottom)
{
	double step = nice_step(b->scale_max, 5);
	for (double v = 0; v <= b->scale_max + step / 1000; v += step) {
		double x = BAR_LEFT + v / b->scale_max * plot_width();
		char label[32];
		tick_label(v, step, label, sizeof(label));
		if (b->relative)
			strcat(label, " %");
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", x, top, x,
			bottom);
		svg_text(out, x, top - 4, "middle", "font-size=\"10\" fill=\"#555555\"", label);
	}
	if (b->relative) {
		double x = BAR_LEFT + 100 / b->scale_max * plot_width();
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333333\" "
			     "stroke-dasharray=\"4 3\"/>\n",
			x, top, x, bottom);
	}
}

/* The height of a section's panel; 0: it is left out (no test every result ran). */
static double panel_height(json_object *sec, const struct bars *b)
{
	size_t rows = drawn_rows(sec, b->n);
	value_fn get;
	_cleanup_free_ char *name = NULL;
	if (!rows)
		return 0;
	return PANEL_HEAD + (double)(rows + (summary_row(sec, b->n, &get, &name) != NULL)) * group_height(b) + 20;
}

static double panel(FILE *out, json_object *cmp, json_object *sec, struct bars *b, double y)
{
	json_object *tests = jpath(sec, "tests");
	size_t rows = drawn_rows(sec, b->n);
	value_fn get;
	_cleanup_free_ char *name = NULL;
	json_object *summary = summary_row(sec, b->n, &get, &name);
	b->scale_max = section_max(sec, b);
	b->scale_max = ceil(b->scale_max / nice_step(b->scale_max, 5)) * nice_step(b->scale_max, 5);
	if (!(b->scale_max > 0))
		b->scale_max = 1;
	_cleanup_free_ char *only = rows < jarr_len(tests) ? xasprintf(", the %zu test%s every result ran", rows,
								       rows == 1 ? "" : "s")
							   : xstrdup("");
	_cleanup_free_ char *title = xasprintf("%s: %s%s", jpath_str(sec, "title") ?: "",
					       b->relative ? "each test as a percentage of A" : "index per test", only);
	svg_text(out, 10, y + 14, "start", "font-size=\"14\" font-weight=\"bold\"", title);
	svg_text(out, BAR_LEFT + plot_width() / 2, y + 32, "middle", "class=\"axis-title\" font-size=\"11\" fill=\"#333333\"",
		 b->relative ? "index as a percentage of A's (100 %: the same; longer is better)"
			     : "index: 10 \xc3\x97 result / baseline (a SPARCstation 20-61); longer is better");
	y += PANEL_HEAD;
	double top = y - 6, bottom = y + (double)(rows + (summary != NULL)) * group_height(b);
	axis(out, b, top, bottom);
	for (size_t k = 0; k < jarr_len(tests); k++) {
		json_object *t = at(tests, k);
		if (!row_complete(jpath(t, "values"), bar_value, b->n))
			continue;
		bar_row(out, b, y, jpath_str(t, "name") ?: jpath_str(t, "id") ?: "?", jpath(t, "values"),
			jpath(t, "changes"), bar_value, cmp);
		y += group_height(b);
	}
	if (summary) {
		fprintf(out, "<line x1=\"10\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#999999\"/>\n",
			y - GROUP_GAP / 2.0, WIDTH - 10, y - GROUP_GAP / 2.0);
		/* the common tests' mean has no change of its own to mark */
		bar_row(out, b, y, name, summary, get == score_value ? jpath(sec, "score.changes") : NULL, get, cmp);
		y += group_height(b);
	}
	return y + 20;
}

void chart_compare(json_object *cmp, bool relative, enum chart_mode mode, FILE *out)
{
	json_object *results = jpath(cmp, "results"), *sections = jpath(cmp, "sections");
	struct bars b = { .n = jarr_len(results), .relative = relative };
	b.bar_h = b.n <= 2 ? 14 : b.n <= 4 ? 10 : 7;
	b.gap = 2;
	/* the results, then what bold and "~" say when there is a change to mark */
	size_t legend = b.n + (b.n > 1);
	double height = 30 + (double)legend * LEGEND_LINE + 10, panels = 0;
	for (size_t s = 0; s < jarr_len(sections); s++)
		panels += panel_height(at(sections, s), &b);
	height += panels > 0 ? panels : 40;
	struct buf desc = {0};
	buf_puts(&desc, relative ? "Each test's index as a percentage of the first result's, for " : "UnixBench index "
												  "per test of ");
	for (size_t i = 0; i < b.n; i++)
		buf_printf(&desc, "%s%s (%s)", i ? ", " : "", jpath_str(at(results, i), "label") ?: "?",
			   jpath_str(at(results, i), "name") ?: "?");
	buf_puts(&desc, ". A \"~\" marks a change within the measured noise; bold values are the biggest changes.");
	svg_open(out, mode, WIDTH, (int)ceil(height), relative ? "UnixBench index per test, relative to the first result"
							       : "UnixBench index per test",
		 desc.s);
	buf_free(&desc);
	double y = 20;
	for (size_t i = 0; i < b.n; i++, y += LEGEND_LINE) {
		json_object *r = at(results, i);
		_cleanup_free_ char *text = xasprintf("%s  %s", jpath_str(r, "label") ?: "?", jpath_str(r, "name") ?: "?");
		fprintf(out, "<rect x=\"10\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", y, colour(i));
		svg_text(out, 28, y + 10, "start", NULL, text);
	}
	if (b.n > 1) {
		svg_text(out, 10, y + 10, "start", "class=\"legend\" font-size=\"11\" fill=\"#333333\"",
			 "Values in bold: the biggest changes against A; \"~\": a change within the noise of the passes "
			 "(not significant)");
		y += LEGEND_LINE;
	}
	y += 10;
	for (size_t s = 0; s < jarr_len(sections); s++)
		if (panel_height(at(sections, s), &b) > 0)
			y = panel(out, cmp, at(sections, s), &b, y);
	if (!(panels > 0))
		svg_text(out, 10, y + 14, "start", "fill=\"#777777\"",
			 "No test has a value in every result: there is nothing to draw side by side.");
	fputs("</svg>\n", out);
}

/* ---- timeline ---- */

/* From the top: the legend and a note, the copy counts over their stretch,
 * the bands' names (turned upright, above the plot), the plot, the time
 * axis, the events' triangles and their numbers, the axis title. */
#define TL_LEFT 64
#define TL_RIGHT 64
#define TL_COPIES 58       /* baseline of the copy counts' names */
#define TL_TOP 168         /* the plot */
#define TL_PLOT_H 190
#define TL_BOTTOM (TL_TOP + TL_PLOT_H)
#define TL_HEIGHT (TL_BOTTOM + 76)
#define TL_LABEL_GAP 11    /* between the upright names of neighbouring bands */

struct timeline {
	double t_max, mhz_max, temp_min, temp_max, pct_max;
	bool has_mhz, has_temp, has_pct;
};

/* Without clock readings (VMs, boards without cpufreq) the left axis shows
 * load instead: the CPUs' mean busy share, other processes, steal. */
enum line { LINE_MHZ_MEAN, LINE_MHZ_LOW, LINE_TEMP, LINE_BUSY, LINE_OTHERS, LINE_STEAL };

static bool sample_busy(const struct result_sample *s, double *mean)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < s->busy_pct.n; i++) {
		if (s->busy_pct.v[i].known) {
			sum += s->busy_pct.v[i].v;
			n++;
		}
	}
	if (!n)
		return false;
	*mean = sum / (double)n;
	return true;
}

static bool sample_mhz(const struct result_sample *s, double *mean, double *low)
{
	double sum = 0, lo = INFINITY;
	size_t n = 0;
	for (size_t i = 0; i < s->mhz.n; i++) {
		if (!s->mhz.v[i].known)
			continue;
		double f = s->mhz.v[i].v;
		sum += f;
		lo = f < lo ? f : lo;
		n++;
	}
	if (!n)
		return false;
	*mean = sum / (double)n;
	*low = lo;
	return true;
}

/* The sampler's readings, as the record has them. */
struct readings {
	const struct result_sample *v;
	size_t n;
};

static void timeline_ranges(struct readings samples, struct timeline *tl)
{
	*tl = (struct timeline){ .temp_min = INFINITY, .temp_max = -INFINITY };
	for (size_t i = 0; i < samples.n; i++) {
		const struct result_sample *s = &samples.v[i];
		double mean, low;
		if (s->t.known && s->t.v > tl->t_max)
			tl->t_max = s->t.v;
		if (sample_mhz(s, &mean, &low)) {
			tl->has_mhz = true;
			tl->mhz_max = mean > tl->mhz_max ? mean : tl->mhz_max;
		}
		if (s->temp_mc.known) {
			double c = s->temp_mc.v / 1000;
			tl->has_temp = true;
			tl->temp_min = c < tl->temp_min ? c : tl->temp_min;
			tl->temp_max = c > tl->temp_max ? c : tl->temp_max;
		}
		double pct;
		if (sample_busy(s, &pct))
			tl->has_pct = true;
		if (s->others_pct.known && s->others_pct.v > tl->pct_max)
			tl->pct_max = s->others_pct.v;
	}
	tl->pct_max = tl->pct_max > 100 ? ceil(tl->pct_max / 50) * 50 : 100;
	tl->t_max = tl->t_max > 0 ? tl->t_max : 1;
	tl->mhz_max = ceil(tl->mhz_max * 1.1 / nice_step(tl->mhz_max * 1.1, 4)) * nice_step(tl->mhz_max * 1.1, 4);
	if (tl->has_temp) {
		tl->temp_min = floor(tl->temp_min / 10) * 10 - 10;
		tl->temp_max = ceil(tl->temp_max / 10) * 10 + 10;
	}
}

static double tl_x(const struct timeline *tl, double t)
{
	return TL_LEFT + t / tl->t_max * (WIDTH - TL_LEFT - TL_RIGHT);
}

static double tl_y(double v, double lo, double hi)
{
	return TL_TOP + TL_PLOT_H - (v - lo) / (hi - lo) * TL_PLOT_H;
}

/* Places labels meant for x positions c[0..n) (ascending) at p[], each at
 * least gap from the next and no further right than hi, as near their
 * place as that allows. */
static void spread(double *p, const double *c, size_t n, double gap, double hi)
{
	for (size_t i = 0; i < n; i++)
		p[i] = i && c[i] < p[i - 1] + gap ? p[i - 1] + gap : c[i];
	for (size_t i = n; i-- > 0;) {
		double max = i + 1 < n ? p[i + 1] - gap : hi;
		p[i] = p[i] > max ? max : p[i];
	}
}

/* A label moved off its place keeps a thin line to it. */
static void leader(FILE *out, double x0, double y0, double x1, double y1)
{
	if (fabs(x0 - x1) > 0.5)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#aaaaaa\" stroke-width=\"0.5\"/>\n",
			x0, y0, x1, y1);
}

/* One stretch of readings under the same test and copy count. */
struct band {
	const char *test;
	int64_t copies;
	double t0, t1, x0, x1;
};

static size_t timeline_band_list(struct readings samples, const struct timeline *tl, struct band **out)
{
	struct band *v = xcalloc(samples.n ? samples.n : 1, sizeof(*v));
	size_t n = 0, start = 0;
	for (size_t i = 1; i <= samples.n; i++) {
		const struct result_sample *a = &samples.v[start], *b = i < samples.n ? &samples.v[i] : NULL;
		int64_t ca = int_or(a->copies, 0);
		if (b && streq_ptr(a->test, b->test) && ca == int_or(b->copies, 0))
			continue;
		double t0 = num_or(a->t, 0), t1 = num_or(samples.v[i - 1].t, 0);
		if (a->test)
			v[n++] = (struct band){ a->test, ca, t0, t1, tl_x(tl, t0 - 0.5 < 0 ? 0 : t0 - 0.5),
						tl_x(tl, t1 + 0.5 > tl->t_max ? tl->t_max : t1 + 0.5) };
		start = i;
	}
	*out = v;
	return n;
}

/* "Dhrystone 2" for an index test's id, else the id. */
static const char *band_name(const char *id)
{
	const struct ub_test_info *t = ub_index_test(id);
	return t && t->label ? t->label : id;
}

/* Shaded bands, a tone per copy count; each band's name upright above the
 * plot (moved aside, with a line to it, where bands are narrow), the copy
 * counts named over their stretch and a dashed line where they change. */
static void timeline_bands(FILE *out, struct readings samples, const struct timeline *tl)
{
	static const char *const tones[2][2] = { { "#f4f4f4", "#e9eef5" }, { "#fbf1e4", "#f4e4cf" } };
	struct band *b;
	size_t n = timeline_band_list(samples, tl, &b);
	double *c = xcalloc(n ? n : 1, sizeof(double)), *p = xcalloc(n ? n : 1, sizeof(double));
	size_t stretch = 0, first = 0;
	for (size_t i = 0; i < n; i++) {
		bool change = i && b[i].copies != b[i - 1].copies;
		stretch += change;
		char tip[200];
		snprintf(tip, sizeof(tip), "%s (%s), %lld cop%s, %.0f-%.0f s", band_name(b[i].test), b[i].test,
			 (long long)b[i].copies, b[i].copies == 1 ? "y" : "ies", b[i].t0, b[i].t1);
		fprintf(out, "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">", b[i].x0,
			TL_TOP, b[i].x1 - b[i].x0, TL_PLOT_H, tones[stretch % 2][i % 2]);
		xml_element(out, "title", NULL, tip);
		fputs("</rect>\n", out);
		c[i] = (b[i].x0 + b[i].x1) / 2;
		if (i + 1 < n && b[i + 1].copies == b[i].copies)
			continue;
		/* the end of a stretch of one copy count */
		double x0 = b[first].x0, x1 = b[i].x1;
		_cleanup_free_ char *name = xasprintf("%lld cop%s", (long long)b[i].copies, b[i].copies == 1 ? "y" : "ies");
		if (first)
			fprintf(out, "<line class=\"copies-boundary\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
				     "stroke=\"#333333\" stroke-dasharray=\"5 3\"/>\n",
				x0, TL_COPIES - 12, x0, TL_BOTTOM);
		svg_text(out, x1 - x0 > 60 ? (x0 + x1) / 2 : x0 + 4, TL_COPIES, x1 - x0 > 60 ? "middle" : "start",
			 "class=\"copies\" font-size=\"11\" font-weight=\"bold\"", name);
		first = i + 1;
	}
	spread(p, c, n, TL_LABEL_GAP, WIDTH - TL_RIGHT);
	for (size_t i = 0; i < n; i++) {
		char attrs[128];
		double foot = TL_TOP - 8;
		snprintf(attrs, sizeof(attrs), "class=\"band-label\" font-size=\"9\" fill=\"#333333\" transform=\"rotate(-90 %.1f %.1f)\"",
			 p[i] + 3, foot);
		svg_text(out, p[i] + 3, foot, "start", attrs, band_name(b[i].test));
		leader(out, p[i], TL_TOP - 6, c[i], TL_TOP);
	}
	free(p);
	free(c);
	free(b);
}

/* The value of a line in a reading, on its axis. */
static bool line_y(const struct result_sample *s, const struct timeline *tl, enum line which, double *y)
{
	double mean, low, v;
	switch (which) {
	case LINE_MHZ_MEAN:
	case LINE_MHZ_LOW:
		if (!sample_mhz(s, &mean, &low))
			return false;
		*y = tl_y(which == LINE_MHZ_MEAN ? mean : low, 0, tl->mhz_max);
		return true;
	case LINE_TEMP:
		if (!s->temp_mc.known)
			return false;
		*y = tl_y(s->temp_mc.v / 1000, tl->temp_min, tl->temp_max);
		return true;
	case LINE_BUSY:
		if (!sample_busy(s, &v))
			return false;
		break;
	case LINE_OTHERS:
		if (!s->others_pct.known)
			return false;
		v = s->others_pct.v;
		break;
	case LINE_STEAL:
		if (!s->steal_pct.known)
			return false;
		v = s->steal_pct.v;
		break;
	}
	*y = tl_y(v, 0, tl->pct_max);
	return true;
}

static void polyline(FILE *out, struct readings samples, const struct timeline *tl, enum line which,
		     const char *stroke, const char *extra)
{
	struct buf pts = {0};
	for (size_t i = 0; i < samples.n; i++) {
		const struct result_sample *s = &samples.v[i];
		double y;
		if (!s->t.known || !line_y(s, tl, which, &y))
			continue;
		buf_printf(&pts, "%.1f,%.1f ", tl_x(tl, s->t.v), y);
	}
	if (pts.len)
		fprintf(out, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s/>\n", pts.s, stroke,
			extra ? extra : "");
	buf_free(&pts);
}

static void timeline_axes(FILE *out, const struct timeline *tl)
{
	fprintf(out, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>\n", TL_LEFT,
		TL_BOTTOM, WIDTH - TL_RIGHT, TL_BOTTOM);
	double step = nice_step(tl->t_max, 8);
	char label[32];
	for (double t = 0; t <= tl->t_max + step / 1000; t += step) {
		tick_label(t, step, label, sizeof(label));
		svg_text(out, tl_x(tl, t), TL_BOTTOM + 14, "middle", "font-size=\"10\"", label);
	}
	svg_text(out, (TL_LEFT + WIDTH - TL_RIGHT) / 2.0, TL_BOTTOM + 66, "middle", "font-size=\"10\"",
		 "seconds since the first reading; triangles: the events, numbered as the report lists them");
	if (tl->has_mhz) {
		double s = nice_step(tl->mhz_max, 4);
		for (double v = 0; v <= tl->mhz_max + s / 1000; v += s) {
			tick_label(v, s, label, sizeof(label));
			svg_text(out, TL_LEFT - 6, tl_y(v, 0, tl->mhz_max) + 3, "end", "font-size=\"10\" fill=\"#0072B2\"", label);
		}
		svg_text(out, TL_LEFT - 6, TL_TOP - 8, "end", "font-size=\"10\" fill=\"#0072B2\"", "MHz");
	} else if (tl->has_pct) {
		double s = tl->pct_max > 100 ? 50 : 25;
		for (double v = 0; v <= tl->pct_max + 0.01; v += s) {
			tick_label(v, s, label, sizeof(label));
			svg_text(out, TL_LEFT - 6, tl_y(v, 0, tl->pct_max) + 3, "end", "font-size=\"10\" fill=\"#555555\"", label);
		}
		svg_text(out, TL_LEFT - 6, TL_TOP - 8, "end", "font-size=\"10\" fill=\"#555555\"", "%");
	}
	if (tl->has_temp) {
		for (double v = tl->temp_min; v <= tl->temp_max + 0.01; v += 10) {
			snprintf(label, sizeof(label), "%.0f", v);
			svg_text(out, WIDTH - TL_RIGHT + 6, tl_y(v, tl->temp_min, tl->temp_max) + 3, "start",
				 "font-size=\"10\" fill=\"#D55E00\"", label);
		}
		svg_text(out, WIDTH - TL_RIGHT + 6, TL_TOP - 8, "start", "font-size=\"10\" fill=\"#D55E00\"", "\xc2\xb0" "C");
	}
}

/* Red ticks where an hwmon alarm was raised; a numbered triangle per event,
 * its message as the tooltip. */
static void timeline_marks(FILE *out, const struct result_record *r, const struct timeline *tl)
{
	for (size_t i = 0; i < r->samples.n; i++) {
		const struct result_sample *s = &r->samples.v[i];
		if (!s->alarms.n || !s->t.known)
			continue;
		char tip[160];
		snprintf(tip, sizeof(tip), "alarm at %.0f s: %s", s->t.v, s->alarms.v[0] ?: "?");
		fprintf(out, "<line class=\"alarm\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#cc0000\" "
			     "stroke-width=\"2\">",
			tl_x(tl, s->t.v), TL_TOP, tl_x(tl, s->t.v), TL_BOTTOM);
		xml_element(out, "title", NULL, tip);
		fputs("</line>\n", out);
	}
	size_t n = 0;
	double *c = xcalloc(r->events.n ? r->events.n : 1, sizeof(double)), *p = xcalloc(r->events.n ? r->events.n : 1, sizeof(double));
	size_t *which = xcalloc(r->events.n ? r->events.n : 1, sizeof(size_t));
	for (size_t i = 0; i < r->events.n; i++) {
		const struct result_event *e = &r->events.v[i];
		if (!e->offset_s.known)
			continue;
		double t = e->offset_s.v;
		/* the events come in the order they began; the kernel's, after the sampler's */
		size_t at = n++;
		while (at && c[at - 1] > tl_x(tl, t > tl->t_max ? tl->t_max : t)) {
			c[at] = c[at - 1];
			which[at] = which[at - 1];
			at--;
		}
		c[at] = tl_x(tl, t > tl->t_max ? tl->t_max : t);
		which[at] = i;
	}
	spread(p, c, n, 14, WIDTH - TL_RIGHT);
	for (size_t k = 0; k < n; k++) {
		const struct result_event *e = &r->events.v[which[k]];
		char num[24];
		snprintf(num, sizeof(num), "%zu", which[k] + 1);
		_cleanup_free_ char *tip = xasprintf("event %zu at %.0f s: %s", which[k] + 1, e->offset_s.v,
						     e->message ?: e->kind ?: "?");
		fprintf(out, "<g class=\"event\"><path d=\"M %.1f %d l -5 9 l 10 0 z\" fill=\"#cc0000\"/>", c[k],
			TL_BOTTOM + 20);
		svg_text(out, p[k], TL_BOTTOM + 42, "middle", "class=\"event-label\" font-size=\"9\" fill=\"#cc0000\"", num);
		xml_element(out, "title", NULL, tip);
		fputs("</g>\n", out);
		leader(out, p[k], TL_BOTTOM + 33, c[k], TL_BOTTOM + 29);
	}
	free(which);
	free(p);
	free(c);
}

static void timeline_legend(FILE *out, const struct timeline *tl, bool alarms, bool events)
{
	double x = TL_LEFT;
	bool load = !tl->has_mhz && tl->has_pct;
	struct {
		bool show;
		const char *colour, *text;
	} items[] = {
		{ tl->has_mhz, "#0072B2", "CPU clock, mean of the CPUs" },
		{ tl->has_mhz, "#56B4E9", "CPU clock, lowest CPU" },
		{ load, "#0072B2", "CPUs busy, mean %" },
		{ load, "#CC79A7", "other processes, % of a CPU" },
		{ load, "#009E73", "steal %" },
		{ tl->has_temp, "#D55E00", "hottest thermal zone" },
		{ alarms, "#cc0000", "hwmon alarm raised" },
		{ events, "#cc0000", "event (triangle)" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(items); i++) {
		if (!items[i].show)
			continue;
		fprintf(out, "<rect x=\"%.1f\" y=\"12\" width=\"14\" height=\"4\" fill=\"%s\"/>\n", x, items[i].colour);
		svg_text(out, x + 18, 18, "start", "class=\"legend\" font-size=\"10\"", items[i].text);
		x += 28 + 6.0 * (double)strlen(items[i].text);
	}
	if (!tl->has_mhz && !tl->has_temp)
		svg_text(out, TL_LEFT, 34, "start", "class=\"note\" font-size=\"10\" fill=\"#777777\"",
			 "no clock or temperature readings on this machine (no cpufreq, no thermal zone): load shown instead");
}

bool chart_has_timeline(const struct result_record *r)
{
	struct readings samples = { r->samples.v, r->samples.n };
	struct timeline tl;
	if (!samples.n)
		return false;
	timeline_ranges(samples, &tl);
	return tl.has_mhz || tl.has_temp || tl.has_pct;
}

bool chart_timeline(const struct result_record *r, enum chart_mode mode, FILE *out)
{
	struct readings samples = { r->samples.v, r->samples.n };
	if (!chart_has_timeline(r))
		return false;
	struct timeline tl;
	timeline_ranges(samples, &tl);
	bool alarms = false;
	for (size_t i = 0; i < samples.n; i++)
		alarms = alarms || samples.v[i].alarms.n;
	bool events = r->events.n > 0;
	_cleanup_free_ char *desc = xasprintf("%zu readings over %.0f s: CPU clock%s, temperature%s, alarms and events, "
					      "on bands naming the test that ran, a tone per copy count.",
					      samples.n, tl.t_max, tl.has_mhz ? "" : " (not available)",
					      tl.has_temp ? "" : " (not available)");
	svg_open(out, mode, WIDTH, TL_HEIGHT, "Clock, temperature and alarms during the run", desc);
	timeline_bands(out, samples, &tl);
	if (tl.has_mhz) {
		polyline(out, samples, &tl, LINE_MHZ_LOW, "#56B4E9", " stroke-dasharray=\"3 2\"");
		polyline(out, samples, &tl, LINE_MHZ_MEAN, "#0072B2", NULL);
	} else if (tl.has_pct) {
		polyline(out, samples, &tl, LINE_BUSY, "#0072B2", NULL);
		polyline(out, samples, &tl, LINE_OTHERS, "#CC79A7", NULL);
		polyline(out, samples, &tl, LINE_STEAL, "#009E73", " stroke-dasharray=\"3 2\"");
	}
	if (tl.has_temp)
		polyline(out, samples, &tl, LINE_TEMP, "#D55E00", NULL);
	timeline_marks(out, r, &tl);
	timeline_axes(out, &tl);
	timeline_legend(out, &tl, alarms, events);
	fputs("</svg>\n", out);
	return true;
}

/* ---- fleet strips ---- */

#define STRIP_LEFT 190
#define STRIP_RIGHT 40
#define STRIP_ROW 34
#define STRIP_TOP 92
/* The axis reaches no further right than twice the median: a host
 * beyond it is drawn at the edge with its value written. */
#define STRIP_CAP_PCT 100.0

struct strip {
	double lo, hi; /* the axis, % off the fleet's median */
};

static double strip_x(const struct strip *s, double pct)
{
	return STRIP_LEFT + (pct - s->lo) / (s->hi - s->lo) * (WIDTH - STRIP_LEFT - STRIP_RIGHT);
}

static bool pct_of(json_object *row, double v, double *pct)
{
	double median;
	if (!jpath_double(row, "stats.median", &median) || !(median > 0))
		return false;
	*pct = (v / median - 1) * 100;
	return true;
}

static void strip_extend(struct strip *s, double pct)
{
	if (pct > STRIP_CAP_PCT)
		return;
	s->lo = pct < s->lo ? pct : s->lo;
	s->hi = pct > s->hi ? pct : s->hi;
}

/* The rows of a section (its tests and the score, when compared) and the
 * axis they share: every host and the normal ranges, up to the cap. */
static size_t strip_rows(json_object *sec, json_object **rows, size_t max, struct strip *s)
{
	size_t n = fleet_section_rows(sec, rows, max);
	*s = (struct strip){ -10, 10 };
	for (size_t r = 0; r < n; r++) {
		json_object *values = jpath(rows[r], "values");
		double pct, low, high;
		for (size_t k = 0; k < jarr_len(values); k++)
			if (at(values, k) && pct_of(rows[r], json_object_get_double(at(values, k)), &pct))
				strip_extend(s, pct);
		if (jpath_double(rows[r], "stats.low", &low) && pct_of(rows[r], low, &pct))
			strip_extend(s, pct);
		if (jpath_double(rows[r], "stats.high", &high) && pct_of(rows[r], high, &pct))
			strip_extend(s, pct);
	}
	double step = nice_step(s->hi - s->lo, 8);
	s->lo = floor(s->lo / step) * step;
	s->hi = ceil(s->hi / step) * step;
	return n;
}

/* The label of result k of a section. */
static const char *strip_host(json_object *fleet, json_object *sec, size_t k)
{
	int64_t r = json_object_get_int64(at(jpath(sec, "hosts"), k));
	return jpath_str(at(jpath(fleet, "results"), (size_t)r), "label") ?: "?";
}

static bool strip_is_outlier(json_object *row, json_object *sec, size_t k)
{
	int64_t r = json_object_get_int64(at(jpath(sec, "hosts"), k)), o;
	json_object *outliers = jpath(row, "outliers");
	for (size_t i = 0; i < jarr_len(outliers); i++)
		if (jpath_int(at(outliers, i), "result", &o) && o == r)
			return true;
	return false;
}

/* An outlier's name beside its dot, on the side away from the others
 * unless that leaves the plot; a host beyond the axis with its value. */
static void strip_name(FILE *out, const struct strip *s, double x, double y, double pct, const char *host)
{
	bool clipped = pct > s->hi;
	_cleanup_free_ char *text = clipped ? xasprintf("%s %+.0f %%", host, pct) : xstrdup(host);
	double w = 7.0 * (double)strlen(text); /* bold 11 px: about 7 px a character */
	bool left = clipped || (pct < 0 && x - 8 - w >= STRIP_LEFT) || (pct >= 0 && x + 8 + w > WIDTH - STRIP_RIGHT / 2.0);
	svg_text(out, left ? x - 8 : x + 8, y - 7, left ? "end" : "start",
		 "class=\"outlier\" font-size=\"11\" fill=\"#D55E00\" font-weight=\"bold\"", text);
}

static void strip_row(FILE *out, json_object *fleet, json_object *sec, json_object *row, const struct strip *s,
		      double y)
{
	double low, high, lp, hp;
	bool score = streq_ptr(jpath_str(row, "id"), "score");
	svg_text(out, STRIP_LEFT - 10, y + 4, "end", score ? "font-weight=\"bold\"" : NULL,
		 score ? "Index score" : jpath_str(row, "label") ?: "?");
	if (jpath_double(row, "stats.low", &low) && jpath_double(row, "stats.high", &high) && pct_of(row, low, &lp) &&
	    pct_of(row, high, &hp))
		fprintf(out, "<rect class=\"normal-range\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" fill=\"#e8eef6\"/>\n",
			strip_x(s, lp), y - 10, strip_x(s, hp > s->hi ? s->hi : hp) - strip_x(s, lp));
	json_object *values = jpath(row, "values");
	for (size_t k = 0; k < jarr_len(values); k++) {
		double v, pct;
		if (!at(values, k) || !pct_of(row, v = json_object_get_double(at(values, k)), &pct))
			continue;
		bool odd = strip_is_outlier(row, sec, k);
		/* a steady jitter, so that equal values stay apart */
		double x = strip_x(s, pct > s->hi ? s->hi : pct), yy = y + (double)((int)(k % 5) - 2) * 3;
		_cleanup_free_ char *tip = xasprintf("%s: %.1f (%+.1f %% of the median)", strip_host(fleet, sec, k), v, pct);
		if (pct > s->hi)
			fprintf(out, "<path class=\"clipped\" d=\"M %.1f %.1f l -9 -6 l 0 12 z\" fill=\"%s\">", x + 4, yy,
				palette[5]);
		else
			fprintf(out, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\" fill-opacity=\"%s\">",
				odd ? "outlier-dot" : "host-dot", x, yy, odd ? "5" : "3.5", odd ? palette[5] : palette[0],
				odd ? "1" : "0.55");
		xml_element(out, "title", NULL, tip);
		fputs(pct > s->hi ? "</path>\n" : "</circle>\n", out);
		if (odd || pct > s->hi)
			strip_name(out, s, x, yy, pct, strip_host(fleet, sec, k));
	}
}

/* What the band, the dots and the edge's marks mean. */
static void strip_legend(FILE *out, bool clipped)
{
	double y = 40, x = 10;
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"12\" fill=\"#e8eef6\"/>\n", x, y - 9);
	svg_text(out, x + 24, y, "start", "class=\"legend\" font-size=\"11\"",
		 "normal range: 3 robust standard deviations, at least 5 %, around the median (dashed)");
	y += 18;
	fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" fill-opacity=\"0.55\"/>\n", x + 9, y - 4,
		palette[0]);
	svg_text(out, x + 24, y, "start", "class=\"legend\" font-size=\"11\"", "a host");
	fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>\n", x + 84, y - 4, palette[5]);
	svg_text(out, x + 99, y, "start", "class=\"legend\" font-size=\"11\"", "an outlier, named");
	if (clipped) {
		fprintf(out, "<path d=\"M %.1f %.1f l -9 -6 l 0 12 z\" fill=\"%s\"/>\n", x + 234, y - 4, palette[5]);
		svg_text(out, x + 244, y, "start", "class=\"legend\" font-size=\"11\"",
			 "beyond the axis (more than twice the median): its value written");
	}
}

void chart_fleet(json_object *fleet, json_object *sec, enum chart_mode mode, FILE *out)
{
	json_object *rows[64];
	struct strip s;
	size_t n = strip_rows(sec, rows, ARRAY_SIZE(rows), &s);
	int64_t copies = 0;
	jpath_int(sec, "copies", &copies);
	double height = STRIP_TOP + (double)n * STRIP_ROW + 30;
	bool clipped = false;
	for (size_t r = 0; r < n; r++)
		for (size_t k = 0; k < jpath_len(rows[r], "values"); k++) {
			double pct;
			json_object *v = at(jpath(rows[r], "values"), k);
			clipped |= v && pct_of(rows[r], json_object_get_double(v), &pct) && pct > s.hi;
		}
	_cleanup_free_ char *title = xasprintf("Each host's index per test, %lld cop%s, as %% off the fleet's median",
					       (long long)copies, copies == 1 ? "y" : "ies");
	svg_open(out, mode, WIDTH, (int)ceil(height), title,
		 "One dot per host and test; the band is the normal range (3 robust standard deviations, at least "
		 "5 % from the median); hosts outside it are drawn larger and named; a host more than twice the "
		 "median is drawn at the right edge with its value.");
	svg_text(out, 10, 18, "start", "font-size=\"14\" font-weight=\"bold\"", title);
	strip_legend(out, clipped);
	double top = STRIP_TOP - 12, bottom = STRIP_TOP + (double)n * STRIP_ROW - 12;
	double step = nice_step(s.hi - s.lo, 8);
	for (double v = s.lo; v <= s.hi + step / 1000; v += step) {
		char label[32];
		bool zero = fabs(v) < step / 1000;
		tick_label(zero ? 0 : v, step, label, sizeof(label));
		strcat(label, " %");
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>\n", strip_x(&s, v),
			top, strip_x(&s, v), bottom, zero ? "#333333" : "#dddddd", zero ? " stroke-dasharray=\"4 3\"" : "");
		svg_text(out, strip_x(&s, v), bottom + 14, "middle", "class=\"tick\" font-size=\"10\" fill=\"#555555\"", label);
	}
	for (size_t r = 0; r < n; r++)
		strip_row(out, fleet, sec, rows[r], &s, STRIP_TOP + (double)r * STRIP_ROW);
	fputs("</svg>\n", out);
}
