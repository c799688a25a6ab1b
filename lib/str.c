/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "str.h"

#include <ctype.h>
#include <stdio.h>

#include "alloc.h"
#include "buf.h"

bool endswith(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

bool str_numbered(const char *s, const char *prefix)
{
	const char *d = startswith(s, prefix);
	if (!d || !*d)
		return false;
	for (; *d; d++)
		if (!isdigit((unsigned char)*d))
			return false;
	return true;
}

char *strstrip(char *s)
{
	char *start = s;
	while (isspace((unsigned char)*start))
		start++;
	size_t n = strlen(start);
	while (n > 0 && isspace((unsigned char)start[n - 1]))
		n--;
	memmove(s, start, n);
	s[n] = '\0';
	return s;
}

char *strsqueeze(char *s)
{
	char *w = s;
	bool space = false;
	for (const char *r = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			space = true;
			continue;
		}
		if (space && w != s)
			*w++ = ' ';
		space = false;
		*w++ = *r;
	}
	*w = '\0';
	return s;
}

char *kv_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *value = NULL;
	size_t len = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		while (*l == ' ' || *l == '\t')
			l++;
		if (strncmp(l, key, n) != 0 || l[n] != '=')
			continue;
		value = l + n + 1;
		len = strcspn(value, "\n");
	}
	while (len && isspace((unsigned char)value[len - 1]))
		len--;
	return len ? xstrndup(value, len) : NULL;
}

void kib_text(int64_t kib, char *buf, size_t n)
{
	if (kib >= 1024 * 1024)
		snprintf(buf, n, "%.1f GiB", (double)kib / (1024.0 * 1024.0));
	else
		snprintf(buf, n, "%lld MiB", (long long)(kib / 1024));
}

int strnatcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			size_t la = 0, lb = 0;
			while (isdigit((unsigned char)a[la]))
				la++;
			while (isdigit((unsigned char)b[lb]))
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(a, b, la);
			if (c)
				return c;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

size_t str_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return SIZE_MAX;
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
			size_t best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *str_closest(const char *word, const char *const *choices)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	for (size_t i = 0; choices[i]; i++) {
		size_t d = str_edit_distance(word, choices[i]);
		if (d < best_d) {
			best_d = d;
			best = choices[i];
		}
	}
	/* close enough: a typo, not a different word */
	size_t limit = strlen(word) <= 4 ? 1 : strlen(word) <= 8 ? 2 : 3;
	return best_d <= limit ? best : NULL;
}

/* The length of the UTF-8 sequence at p (no overlong 0xc0/0xc1, nothing
 * past U+10FFFF); 0 when it is none. */
static size_t utf8_length(const unsigned char *p)
{
	size_t n = *p >= 0xf0 && *p <= 0xf4 ? 4 : *p >= 0xe0 ? (*p <= 0xef ? 3 : 0) : *p >= 0xc2 ? 2 : 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

bool text_printable(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		if (*p < 0x20 || *p == 0x7f)
			return false;
		if (*p < 0x80) {
			p++;
			continue;
		}
		size_t n = utf8_length(p);
		if (n == 0)
			return false;
		p += n;
	}
	return true;
}

char *str_escape_controls(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct buf b = {0};
	bool changed = false;
	while (*p) {
		size_t n = *p < 0x80 ? 1 : utf8_length(p);
		/* C0 controls and DEL; C1 controls (U+0080-U+009F, 0xc2 0x80-0x9f) */
		bool c1 = n == 2 && p[0] == 0xc2 && p[1] < 0xa0;
		/* a line break and a tab are layout (a finding's lines), not commands */
		if (n == 1 && ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)) {
			buf_printf(&b, "\\x%02x", *p);
		} else if (n == 0) {
			buf_printf(&b, "\\x%02x", *p); /* a byte that is not text */
			n = 1;
		} else if (c1) {
			buf_printf(&b, "\\u%04x", p[1]);
		} else {
			buf_add(&b, (const char *)p, n);
			p += n;
			continue;
		}
		changed = true;
		p += n;
	}
	if (!changed) {
		buf_free(&b);
		return NULL;
	}
	return b.s;
}
