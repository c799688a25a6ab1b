/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's header ("BYTE UNIX Benchmarks (Version ...)", System:,
 * OS:, CPU lines, uptime and runlevel; the .html's title; 4.1.0's
 * "Start Benchmark Run:") and Run's output before the report (make, the
 * logo, the directories box, progress lines). */
#include "unixbench/parse.h"

#include <ctype.h>
#include <math.h>

#include "lib/util.h"
#include "unixbench/parse-internal.h"

/* A month's abbreviation as "%b" prints it under an English, Spanish,
 * German, French, Italian or Portuguese locale ("abr", "Okt", "févr."):
 * 1..12, 0 when it is none. */
static unsigned month_number(const char *mon)
{
	static const char *const names[][12] = {
		{ "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec" },
		{ "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic" },
		{ "jan", "feb", "m\xc3\xa4r", "apr", "mai", "jun", "jul", "aug", "sep", "okt", "nov", "dez" },
		{ "janv", "f\xc3\xa9vr", "mars", "avr", "mai", "juin", "juil", "ao\xc3\xbbt", "sept", "oct", "nov",
		  "d\xc3\xa9" "c" },
		{ "gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic" },
		{ "jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez" },
	};
	char low[16];
	size_t n = strlen(mon);
	if (n && mon[n - 1] == '.')
		n--;
	if (n == 0 || n >= sizeof(low))
		return 0;
	for (size_t i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)mon[i]);
	low[n] = '\0';
	for (size_t l = 0; l < ARRAY_SIZE(names); l++)
		for (unsigned m = 0; m < 12; m++)
			if (streq(low, names[l][m]))
				return m + 1;
	return 0;
}

/* "Sun Nov 29 2026" to "2026-11-29"; a zh_CN locale's "日 11月 29 2026"
 * ("%a %b %d %Y" there) and other locales' month names ("mié abr 26 2017")
 * too. */
char *parse_date(const char *s)
{
	char wday[16], mon[16], zone[16];
	unsigned day, year, m = 0, hh, mm, ss;
	/* date(1)'s "Sun Nov 29 22:44:56 UTC 2026", as UnixBench 4.1.0 prints it */
	if (sscanf(s, "%15s %15s %u %u:%u:%u %15s %u", wday, mon, &day, &hh, &mm, &ss, zone, &year) != 8 &&
	    sscanf(s, "%15s %15s %u %u", wday, mon, &day, &year) != 4)
		return NULL;
	if (day < 1 || day > 31 || year < 1970 || year > 9999)
		return NULL;
	m = month_number(mon);
	const char *v = mon;
	if (!m && take_uint(&v, 12, &m) && !streq(v, "月"))
		m = 0;
	return m ? xasprintf("%04u-%02u-%02u", year, m, day) : NULL;
}

/* "22:36:13" at s; the copy, or NULL. */
static char *parse_clock(const char *s, const char **end)
{
	unsigned h, m, sec;
	const char *p = s;
	if (!take_uint(&p, 23, &h) || *p++ != ':' || !take_uint(&p, 59, &m) || *p++ != ':' ||
	    !take_uint(&p, 60, &sec))
		return NULL;
	if (end)
		*end = p;
	return xasprintf("%02u:%02u:%02u", h, m, sec);
}

/* "HH:MM:SS - HH:MM:SS" into a block. */
void parse_span(const char *s, struct ub_block *b)
{
	const char *p;
	char *start = parse_clock(skip_spaces(s), &p);
	if (!start)
		return;
	free(b->start);
	b->start = start;
	p = skip_spaces(p);
	if (*p == '-')
		p = skip_spaces(p + 1 + (p[1] == '-'));
	char *end = parse_clock(p, NULL);
	if (end) {
		free(b->end);
		b->end = end;
	}
}

static bool parse_bogomips(const char *s, double *v)
{
	const char *close = strrchr(s, ')');
	const char *open = close ? memrchr(s, '(', (size_t)(close - s)) : NULL;
	if (!open)
		return false;
	char *e;
	*v = strtod(open + 1, &e);
	return e != open + 1 && startswith(skip_spaces(e), "bogomips") && isfinite(*v) && *v >= 0;
}

/* "MODEL (5192.3 bogomips)[ FLAGS]" of CPU n. */
static void header_cpu(struct parser *p, struct ub_result *r, const char *s)
{
	if (r->h.ncpus >= UB_CPUS_MAX)
		return;
	r->h.cpus = xrealloc(r->h.cpus, (r->h.ncpus + 1) * sizeof(*r->h.cpus));
	struct ub_cpu *c = &r->h.cpus[r->h.ncpus++];
	*c = (struct ub_cpu){0};
	const char *b = strstr(s, " bogomips)");
	const char *open = b ? memrchr(s, '(', (size_t)(b - s)) : NULL;
	if (open && parse_bogomips(s, &c->bogomips)) {
		c->has_bogomips = true;
		c->model = field(s, (size_t)(open - s));
		const char *flags = skip_spaces(b + strlen(" bogomips)"));
		if (*flags)
			c->flags = field(flags, strlen(flags));
	} else {
		c->model = field(s, strlen(s));
	}
	p->expect_flags = c->flags ? -1 : (int)(r->h.ncpus - 1);
}

/* "OS: GNU/Linux -- 6.18.44 -- #1 SMP ..." (typographic dashes arrive as "-"). */
static void header_os(struct ub_result *r, const char *v)
{
	const char *sep = strstr(v, " -- ") ? " -- " : " - ";
	size_t sl = strlen(sep);
	const char *a = strstr(v, sep);
	const char *b = a ? strstr(a + sl, sep) : NULL;
	if (!a) {
		set_field(&r->h.os, v, strlen(v));
		return;
	}
	set_field(&r->h.os, v, (size_t)(a - v));
	if (b) {
		set_field(&r->h.os_release, a + sl, (size_t)(b - a - sl));
		set_field(&r->h.os_version, b + sl, strlen(b + sl));
	} else {
		set_field(&r->h.os_release, a + sl, strlen(a + sl));
	}
}

/* "Machine: x86_64 (unknown)" or, in the .html, "x86_64: unknown". */
static void header_machine(struct ub_result *r, const char *v)
{
	const char *open = strchr(v, '(');
	const char *colon = strstr(v, ": ");
	if (open && endswith(v, ")")) {
		set_field(&r->h.machine, v, (size_t)(open - v));
		set_field(&r->h.platform, open + 1, strlen(open + 1) - 1);
	} else if (colon) {
		set_field(&r->h.machine, v, (size_t)(colon - v));
		set_field(&r->h.platform, colon + 2, strlen(colon + 2));
	} else {
		set_field(&r->h.machine, v, strlen(v));
	}
}

/* The line joined with the next one when that holds what this one lacks
 * (a mail client wrapped it); NULL otherwise. */
static char *join_next(struct parser *p, const char *s, const char *needed)
{
	if (p->i + 1 >= p->lines->n || !strstr(p->lines->v[p->i + 1].s, needed))
		return NULL;
	p->i++;
	p->doc->manglings |= UB_MANGLE_WRAPPED;
	return xasprintf("%s %s", s, p->lines->v[p->i].s);
}

/* "22:36:13 up 13 min, 0 user, load average: ...; runlevel 3" */
static bool header_uptime(struct parser *p, const char *s)
{
	const char *v = startswith(s, "Uptime: ");
	if (!v && !(strstr(s, " up ") && strstr(s, "load average")))
		return false;
	struct ub_result *r = result_last(p);
	if (!r || !r->has_header || r->nblocks)
		return false;
	_cleanup_free_ char *joined = strstr(s, "; runlevel") ? NULL : join_next(p, s, "runlevel");
	v = joined ? joined : s;
	v = startswith(v, "Uptime: ") ? v + strlen("Uptime: ") : v;
	const char *rl = strstr(v, "; runlevel");
	set_field(&r->h.uptime, v, rl ? (size_t)(rl - v) : strlen(v));
	if (rl)
		set_field(&r->h.runlevel, rl + strlen("; runlevel"), strlen(rl + strlen("; runlevel")));
	return true;
}

/* "Benchmark of vm / GNU/Linux on Sun Nov 29 2026" (the .html's title). */
static bool html_title(struct parser *p, const char *s)
{
	const char *v = startswith(s, "Benchmark of ");
	const char *on = v ? strstr(v, " on ") : NULL;
	if (!on)
		return false;
	while (strstr(on + 4, " on "))
		on = strstr(on + 4, " on ");
	_cleanup_free_ char *date = parse_date(on + 4);
	if (!date)
		return false;
	struct ub_result *r = result_last(p);
	if (!r || r->nblocks || r->h.version || (r->h.date && !streq(r->h.date, date)))
		r = result_new(p);
	if (!r)
		return true;
	r->has_header = true;
	free(r->h.date);
	r->h.date = TAKE_PTR(date);
	return true;
}

bool header_line(struct parser *p, const char *s)
{
	const char *v;
	if ((v = startswith(s, "BYTE UNIX Benchmarks (Version "))) {
		struct ub_result *r = result_last(p);
		if (!r || r->nblocks || r->h.version)
			r = result_new(p);
		if (!r)
			return true;
		r->has_header = true;
		size_t n = strcspn(v, ")");
		set_field(&r->h.version, v, n);
		mark_format(p, p->html ? UB_FMT_HTML : UB_FMT_REPORT);
		return true;
	}
	if (html_title(p, s))
		return true;
	if ((v = startswith(s, "Start Benchmark Run: "))) {
		/* UnixBench 4.1.0: the run's date in its header */
		struct ub_result *r = result_last(p);
		if (!r || !r->has_header || r->nblocks)
			return false;
		free(r->h.date);
		r->h.date = parse_date(v);
		const char *c = strchr(v, ':');
		free(p->pending_start);
		p->pending_start = c && c - v >= 2 ? parse_clock(c - 2, NULL) : NULL;
		return true;
	}
	if ((v = startswith(s, "System -- "))) {
		struct ub_result *r = result_for_header(p);
		if (r)
			set_field(&r->h.system, v, strlen(v));
		return true;
	}
	if ((v = startswith(s, "System: "))) {
		struct ub_result *r = result_for_header(p);
		if (!r)
			return true;
		const char *colon = strstr(v, ": ");
		if (colon) {
			set_field(&r->h.hostname, v, (size_t)(colon - v));
			set_field(&r->h.system, colon + 2, strlen(colon + 2));
		} else {
			set_field(&r->h.system, v, strlen(v));
		}
		return true;
	}
	struct ub_result *r = result_last(p);
	if (!r || !r->has_header || r->nblocks)
		return false;
	unsigned n;
	if ((v = startswith(s, "OS: "))) {
		header_os(r, v);
	} else if ((v = startswith(s, "Machine: "))) {
		header_machine(r, v);
	} else if ((v = startswith(s, "Language: "))) {
		_cleanup_free_ char *joined = strchr(v, '(') && !strchr(v, ')') ? join_next(p, v, ")") : NULL;
		v = joined ? joined : v;
		set_field(&r->h.language, v, strlen(v));
	} else if ((v = startswith(s, "Graphics: "))) {
		set_field(&r->h.graphics, v, strlen(v));
	} else if (startswith(s, "CPU: ") || streq(s, "Test System Information")) {
		/* "CPU: no details available" */
	} else if ((v = startswith(s, "CPU ")) && take_uint(&v, UB_CPUS_MAX, &n) && *v == ':') {
		header_cpu(p, r, skip_spaces(v + 1));
	} else if (((v = startswith(s, "CPUs: ")) || (v = s)) && take_uint(&v, UB_CPUS_MAX, &n) && *v == ':' &&
		   strstr(v, "bogomips)")) {
		header_cpu(p, r, skip_spaces(v + 1));
	} else if (header_uptime(p, s)) {
		p->expect_flags = -1;
	} else if (p->expect_flags >= 0 && (size_t)p->expect_flags < r->h.ncpus) {
		struct ub_cpu *c = &r->h.cpus[p->expect_flags];
		set_field(&c->flags, s, strlen(s));
		p->expect_flags = -1;
	} else {
		return false;
	}
	return true;
}

/* Run's stdout precedes the report it ends with. */
static void run_output_seen(struct parser *p)
{
	p->pending_formats |= UB_FMT_RUN_OUTPUT;
	p->doc->formats |= UB_FMT_RUN_OUTPUT;
}

/* Run's stdout before the report: the logo and the directories box. */
bool run_output_line(struct parser *p, const char *s)
{
	const char *v;
	if ((v = startswith(s, "Version ")) && strstr(v, "Based on the Byte Magazine")) {
		free(p->pending_version);
		p->pending_version = field(v, strcspn(v, " "));
		run_output_seen(p);
		return true;
	}
	if (startswith(s, "make[") || streq(s, "Checking distribution of files") || startswith(s, "make all")) {
		run_output_seen(p);
		return true;
	}
	if (streq(s, "Use directories for:"))
		return true;
	if ((v = startswith(s, "* File I/O tests (named fs***) = "))) {
		set_field(&p->pending_tmpdir, v, strlen(v));
		return true;
	}
	if ((v = startswith(s, "* Results")) && (v = strstr(v, "= "))) {
		set_field(&p->pending_resultdir, v + 2, strlen(v + 2));
		return true;
	}
	/* "1 x Pipe Throughput  1 2 3": progress */
	unsigned n;
	v = s;
	if (take_uint(&v, UB_COPIES_MAX, &n) && startswith(v, " x ")) {
		run_output_seen(p);
		return true;
	}
	/* the logo's letters are made of '#' and spaces; the .log's separator has no spaces */
	if (strchr(s, '#') && strchr(s, ' ') && strspn(s, "# ") == strlen(s))
		return true;
	return false;
}
