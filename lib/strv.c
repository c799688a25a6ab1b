/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "strv.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "str.h"

void strv_take(struct strv *l, char *s)
{
	if (l->n + 2 > l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = xrealloc(l->v, l->cap * sizeof(char *));
	}
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

void strv_push(struct strv *l, const char *s)
{
	strv_take(l, xstrdup(s));
}

bool strv_contains(const struct strv *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (streq(l->v[i], s))
			return true;
	return false;
}

void strv_split(const char *value, const char *seps, struct strv *out)
{
	_cleanup_free_ char *copy = xstrdup(value);
	for (char *save = NULL, *t = strtok_r(copy, seps, &save); t; t = strtok_r(NULL, seps, &save)) {
		strstrip(t);
		if (*t)
			strv_push(out, t);
	}
}

char *strv_join(const struct strv *l, const char *sep)
{
	struct buf b = {0};
	for (size_t i = 0; i < l->n; i++)
		buf_printf(&b, "%s%s", i ? sep : "", l->v[i]);
	return buf_steal(&b);
}

static int cmp_nat(const void *a, const void *b)
{
	return strnatcmp(*(char *const *)a, *(char *const *)b);
}

void strv_sort(struct strv *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(char *), cmp_nat);
}

void strv_free(struct strv *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct strv){0};
}
