/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pictures' parts that answer their question: the fleet strips' axis
 * fits the hosts (a far one clipped with its value), ticks keep their
 * decimals, a legend; the timeline names every band and the copy counts
 * and numbers its events. tests/e2e/test-pages.sh looks at them drawn. */
#include "analysis/chart.h"
#include "analysis/fleet.h"
#include "testlib.h"

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* A host's result: Dhrystone at dhry, File Copy at fs. */
static json_object *host(const char *name, double dhry, double fs)
{
	_cleanup_free_ char *text = xasprintf(
		"{\"schema\": \"ubtune.result/1\", \"run_id\": \"%s\", \"host\": \"%s\", \"suite\": {\"name\": \"native\"},"
		" \"started_at\": \"2026-01-01T12:00:00+0100\", \"runs\": [{\"copies\": 1, \"tests\": ["
		"  {\"id\": \"dhry2reg\", \"name\": \"Dhrystone 2 using register variables\", \"index\": %g},"
		"  {\"id\": \"fstime\", \"name\": \"File Copy 1024 bufsize 2000 maxblocks\", \"index\": %g}]}]}",
		name, name, dhry, fs);
	return json_lit(text);
}

static void fleet_axis(void **state)
{
	(void)state;
	json_object *recs[6] = { host("p1", 1500, 450), host("p2", 1510, 450), host("p3", 1490, 449),
				 host("p4", 1505, 451), host("p5", 1495, 450),
				 /* an x86 server among boards: 25 times their File Copy */
				 host("x86", 1500, 11250) };
	struct fleet_input in[6];
	for (int i = 0; i < 6; i++) {
		_cleanup_free_ char *error = NULL;
		in[i] = (struct fleet_input){ .source = "test", .id = i + 1 };
		if (fleet_digest_make(recs[i], &in[i].d, &error) < 0)
			fail_msg("%s", error);
	}
	_cleanup_json_ json_object *f = fleet_build(in, 6, NULL);
	char *svg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&svg, &len);
	chart_fleet(f, json_object_array_get_idx(jpath(f, "sections"), 0), CHART_FILE, m);
	fclose(m);
	/* the axis is the boards' (a default of ±10 %), not the server's 2400 % */
	assert_non_null(strstr(svg, ">10 %</text>"));
	assert_null(strstr(svg, ">20 %</text>"));
	/* steps of 2.5 keep their decimals: no "-8 %, -5 %, -2 %" */
	assert_non_null(strstr(svg, ">-7.5 %</text>"));
	assert_null(strstr(svg, ">-8 %</text>"));
	assert_non_null(strstr(svg, ">0 %</text>"));
	/* the server at the edge, with its value */
	assert_int_equal(count(svg, "class=\"clipped\""), 1);
	assert_non_null(strstr(svg, ">x86 +2400 %</text>"));
	assert_non_null(strstr(svg, "<title>x86: 11250.0 (+2400.0 % of the median)</title>"));
	/* a legend for the band, the dots and the edge's mark */
	assert_int_equal(count(svg, "class=\"legend\""), 4);
	assert_non_null(strstr(svg, "normal range: 3 robust standard deviations"));
	assert_int_equal(count(svg, "class=\"host-dot\""), 11);
	free(svg);
	for (int i = 0; i < 6; i++) {
		fleet_digest_free(&in[i].d);
		json_object_put(recs[i]);
	}
}

static void timeline_names(void **state)
{
	(void)state;
	_cleanup_json_ json_object *rec = json_lit(
		"{\"schema\": \"ubtune.result/1\", \"run_id\": \"ab\", \"started_at\": \"t\", \"suite\": {\"name\": \"native\"}, \"runs\": [],"
		" \"samples\": ["
		"  {\"t\": 1, \"test\": \"dhry2reg\", \"copies\": 1, \"busy_pct\": [100, 3]},"
		"  {\"t\": 2, \"test\": \"pipe\", \"copies\": 1, \"busy_pct\": [100, 3]},"
		"  {\"t\": 3, \"test\": \"dhry2reg\", \"copies\": 2, \"busy_pct\": [100, 100]},"
		"  {\"t\": 4, \"test\": \"pipe\", \"copies\": 2, \"busy_pct\": [100, 100]}],"
		" \"events\": [{\"kind\": \"others\", \"offset_s\": 3, \"message\": \"the second\"},"
		"  {\"kind\": \"others\", \"offset_s\": 1, \"message\": \"the first\"}]}");
	struct result_record r;
	_cleanup_free_ char *error = NULL;
	assert_int_equal(result_decode(rec, &r, &error), 0);
	char *svg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&svg, &len);
	assert_true(chart_timeline(&r, CHART_FILE, m));
	fclose(m);
	/* four bands, each named; the copy counts named, one boundary between them */
	assert_int_equal(count(svg, "class=\"band\""), 4);
	assert_int_equal(count(svg, "class=\"band-label\""), 4);
	assert_int_equal(count(svg, ">Dhrystone 2</text>"), 2);
	assert_int_equal(count(svg, ">Pipe Throughput</text>"), 2);
	assert_non_null(strstr(svg, ">1 copy</text>"));
	assert_non_null(strstr(svg, ">2 copies</text>"));
	assert_int_equal(count(svg, "class=\"copies-boundary\""), 1);
	/* events numbered as the record lists them, wherever they fall */
	assert_int_equal(count(svg, "class=\"event\""), 2);
	assert_non_null(strstr(svg, "<title>event 1 at 3 s: the second</title>"));
	assert_non_null(strstr(svg, "<title>event 2 at 1 s: the first</title>"));
	/* the note on what is drawn sits with the legend, off the plot */
	assert_non_null(strstr(svg, "y=\"34.0\" text-anchor=\"start\" class=\"note\""));
	free(svg);
	result_record_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fleet_axis),
		cmocka_unit_test(timeline_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
