/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers, tokens and the row of numbers after a test name, as every
 * layout of UnixBench output writes them. */
#include "unixbench/parse.h"

#include <ctype.h>
#include <math.h>

#include "lib/util.h"
#include "unixbench/parse-internal.h"

/* ---- small text helpers ---- */

char *field(const char *s, size_t n)
{
	if (n > UB_FIELD_MAX)
		n = UB_FIELD_MAX;
	char *f = xstrndup(s, n);
	return strstrip(f);
}

void set_field(char **dst, const char *s, size_t n)
{
	free(*dst);
	*dst = field(s, n);
}

/* Whether s[0] is a decimal comma: a report printed under a locale that
 * writes "116700,0" (one or two digits after it, as UnixBench prints);
 * "4,151" is a thousands separator. */
static bool decimal_comma(const char *s)
{
	if (s[0] != ',' || !isdigit((unsigned char)s[1]))
		return false;
	size_t d = isdigit((unsigned char)s[2]) ? 2 : 1;
	return !isdigit((unsigned char)s[d + 1]) && (s[d + 1] == '\0' || strchr(" ()", s[d + 1]));
}

/* Whether the n bytes at s are digits grouped by thousands separators:
 * "41,920,798" (a first group of one to three digits, then groups of
 * three). */
static bool thousands(const char *s, size_t n)
{
	size_t lead = 0;
	while (lead < n && lead < 4 && isdigit((unsigned char)s[lead]))
		lead++;
	if (lead == 0 || lead > 3 || lead == n)
		return false;
	for (size_t i = lead; i < n; i += 4)
		if (i + 4 > n || s[i] != ',' || strspn(s + i + 1, "0123456789") < 3)
			return false;
	return true;
}

/* The end of the integer part at s when it holds thousands separators
 * ("116,700.0", "41,920,798.1"); s when it does not. */
static const char *grouped_end(const char *s)
{
	const char *e = s;
	while (isdigit((unsigned char)*e) || (*e == ',' && isdigit((unsigned char)e[1])))
		e++;
	return thousands(s, (size_t)(e - s)) && !isdigit((unsigned char)*e) ? e : s;
}

/* A whole token that is a plain decimal number ("41920798.1", "1e+06",
 * "3363,7", "41,920,798.1"). */
bool parse_number(const char *s, size_t n, double *out)
{
	char b[48];
	if (n == 0 || n >= sizeof(b))
		return false;
	memcpy(b, s, n);
	b[n] = '\0';
	const char *g = grouped_end(b);
	if (g != b) {
		/* drop the separators */
		size_t w = 0;
		for (size_t r = 0; b[r]; r++)
			if (b[r] != ',' || b + r >= g)
				b[w++] = b[r];
		b[w] = '\0';
	}
	size_t k = 0;
	if (!isdigit((unsigned char)b[0]))
		return false;
	while (isdigit((unsigned char)b[k]))
		k++;
	if (decimal_comma(b + k))
		b[k] = '.';
	if (b[k] == '.') {
		k++;
		while (isdigit((unsigned char)b[k]))
			k++;
	}
	if (b[k] == 'e' || b[k] == 'E') {
		k++;
		if (b[k] == '+' || b[k] == '-')
			k++;
		if (!isdigit((unsigned char)b[k]))
			return false;
		while (isdigit((unsigned char)b[k]))
			k++;
	}
	if (b[k])
		return false;
	char *end;
	double v = strtod(b, &end);
	/* UnixBench prints nothing near 1e15 (256 copies of Dhrystone: 1e11 lps) */
	if (*end || !isfinite(v) || v < 0 || v > 1e15)
		return false;
	*out = v;
	return true;
}

bool parse_uint(const char *s, unsigned max, unsigned *out)
{
	uint64_t v;
	if (parse_u64(s, &v) < 0 || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

/* Reads an unsigned number at *s and advances past it. */
bool take_uint(const char **s, unsigned max, unsigned *out)
{
	const char *p = *s;
	uint64_t v = 0;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (uint64_t)(*p++ - '0');
		if (v > max)
			return false;
	}
	*out = (unsigned)v;
	*s = p;
	return true;
}

const char *skip_spaces(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}


/* Splits s on white space, commas, parentheses and colons. -1 when there
 * are more than max tokens. */
int tokenize(const char *s, struct tok *t, int max)
{
	int n = 0;
	while (*s) {
		while (*s == ' ' || *s == ',' || *s == '(' || *s == ')' || *s == ':')
			s++;
		if (!*s)
			break;
		const char *start = s;
		const char *grouped = grouped_end(start);
		while (*s && *s != ' ' &&
		       (*s != ',' || s < grouped || (s > start && isdigit((unsigned char)s[-1]) && decimal_comma(s))) &&
		       *s != '(' && *s != ')' && *s != ':')
			s++;
		if (n == max)
			return -1;
		size_t len = (size_t)(s - start);
		struct tok *k = &t[n++];
		*k = (struct tok){ T_WORD, 0, start, len };
		if (parse_number(start, len, &k->v))
			k->kind = T_NUM;
		else if (len >= 2 && strspn(start, "-") >= len)
			k->kind = T_DASH;
	}
	return n;
}

bool tok_is(const struct tok *t, const char *word)
{
	return t->kind == T_WORD && t->n == strlen(word) && strncmp(t->s, word, t->n) == 0;
}

/* A unit as UnixBench prints it: lps, lpm, KBps, MWIPS, score, fps. */
static bool tok_unit(const struct tok *t)
{
	if (t->kind != T_WORD || t->n == 0 || t->n > 8 || tok_is(t, "s") || tok_is(t, "secs") || tok_is(t, "samples"))
		return false;
	for (size_t i = 0; i < t->n; i++)
		if (!isalpha((unsigned char)t->s[i]))
			return false;
	return true;
}


static bool set_samples(struct row *r, const struct tok *t)
{
	if (t->kind != T_NUM || t->v != floor(t->v) || t->v > SAMPLES_MAX)
		return false;
	r->samples = (unsigned)t->v;
	r->has_samples = true;
	return true;
}

/* Results line: RESULT UNIT (TIME s, N samples); the HTML row adds
 * BASELINE INDEX; a pasted one may stop after the unit. */
static bool row_raw(const struct tok *t, int n, struct row *r)
{
	if (n < 2 || t[0].kind != T_NUM || !tok_unit(&t[1]))
		return false;
	r->raw = r->has_result = true;
	r->result = t[0].v;
	snprintf(r->unit, sizeof(r->unit), "%.*s", (int)t[1].n, t[1].s);
	if (n == 2)
		return true;
	if (n < 5 || t[2].kind != T_NUM || !(tok_is(&t[3], "s") || tok_is(&t[3], "secs")) || !set_samples(r, &t[4]))
		return false;
	r->time = t[2].v;
	r->has_time = true;
	if (n == 5 || (n == 6 && tok_is(&t[5], "samples")))
		return true;
	if (n == 7 && t[5].kind == T_NUM && t[5].v > 0 && t[6].kind == T_NUM) {
		r->baseline = t[5].v;
		r->index = t[6].v;
		r->has_baseline = r->has_index = r->indexed = true;
		return true;
	}
	return false;
}

/* Index line: BASELINE RESULT INDEX (or "--- RESULT ---"), or fewer bare
 * numbers placed later by the table's columns. */
static bool row_numbers(const struct tok *t, int n, struct row *r)
{
	if (n == 3 && t[0].kind == T_DASH && t[1].kind == T_NUM && t[2].kind == T_DASH) {
		r->dashes = r->has_result = r->indexed = true;
		r->result = t[1].v;
		return true;
	}
	if (n < 1 || n > 3)
		return false;
	for (int i = 0; i < n; i++) {
		if (t[i].kind != T_NUM)
			return false;
		r->nums[i] = t[i].v;
	}
	r->nnums = n;
	r->indexed = true;
	return true;
}

bool parse_row(const char *rest, struct row *r)
{
	struct tok t[TOKENS_MAX];
	*r = (struct row){0};
	int n = tokenize(rest, t, TOKENS_MAX);
	if (n <= 0)
		return false;
	if (row_raw(t, n, r))
		return true;
	*r = (struct row){0};
	return row_numbers(t, n, r);
}
