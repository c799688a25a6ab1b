/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sectioned "key = value" data files whose entries keep their lines (lib/keyfile.h). */
#include "keyfile.h"

#include <errno.h>
#include <ini.h>

#include "util.h"

/* A joined value longer than this is no data of ours. */
#define VALUE_MAX 8192

struct parse {
	struct keyfile *kf;
	const char *text;
	size_t len, pos;
	unsigned lineno;
	char *error;       /* the first problem */
	bool indented;     /* the line being read */
	struct kf_entry *last; /* the entry an indented line continues */
};

static void fail(struct parse *ps, const char *fmt, ...) _printf_(2, 3);
static void fail(struct parse *ps, const char *fmt, ...)
{
	if (ps->error)
		return;
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	ps->error = xasprintf("%s:%u: %s", ps->kf->path, ps->lineno, msg);
}

static void start_section(struct parse *ps, const char *t, size_t n)
{
	const char *close = memchr(t, ']', n);
	if (!close) {
		fail(ps, "section header without ']'");
		return;
	}
	struct keyfile *kf = ps->kf;
	kf->s = xrealloc(kf->s, (kf->n + 1) * sizeof(*kf->s));
	kf->s[kf->n++] = (struct kf_section){ .name = strstrip(xstrndup(t + 1, (size_t)(close - t - 1))),
					      .line = ps->lineno };
}

const char *ini_feed_line(const char *text, size_t len, size_t *pos, char *str, int num, size_t max, size_t *n,
			  bool *too_long)
{
	if (*pos >= len)
		return NULL;
	const char *start = text + *pos;
	const char *nl = memchr(start, '\n', len - *pos);
	*n = nl ? (size_t)(nl - start) : len - *pos;
	*pos += *n + (nl ? 1 : 0);
	if (*n && start[*n - 1] == '\r')
		(*n)--;
	*too_long = *n > max || (int)*n + 3 > num;
	if (*too_long)
		*n = 0;
	memcpy(str, start, *n);
	str[*n] = '\n';
	str[*n + 1] = '\0';
	return start;
}

static char *reader(char *str, int num, void *stream)
{
	struct parse *ps = stream;
	size_t n;
	bool too_long;
	const char *start = ini_feed_line(ps->text, ps->len, &ps->pos, str, num, KEYFILE_LINE_MAX, &n, &too_long);
	if (!start)
		return NULL;
	ps->lineno++;
	if (too_long)
		fail(ps, "line longer than %d characters (continue it on an indented line)", KEYFILE_LINE_MAX);
	const char *t = start, *end = start + n;
	while (t < end && (*t == ' ' || *t == '\t'))
		t++;
	ps->indented = t > start;
	if (t == end || *t == '#' || *t == ';')
		return str;
	if (ps->indented) {
		if (!ps->last)
			fail(ps, "an indented line continues a value, but none is above it");
	} else if (*t == '[') {
		ps->last = NULL;
		start_section(ps, t, (size_t)(end - t));
	} else {
		ps->last = NULL;
		if (!memchr(t, '=', (size_t)(end - t)) && !memchr(t, ':', (size_t)(end - t)))
			fail(ps, "not a 'key = value' line, a [section] header or a comment");
	}
	return str;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse *ps = user;
	struct keyfile *kf = ps->kf;
	(void)section; /* the reader opened it */
	if (ps->error)
		return 1;
	if (!kf->n) {
		fail(ps, "%s: a key before the first [section]", key);
		return 1;
	}
	struct kf_section *s = &kf->s[kf->n - 1];
	if (ps->indented && ps->last) {
		char *joined = xasprintf("%s %s", ps->last->value, value);
		free(ps->last->value);
		ps->last->value = joined;
		if (strlen(joined) > VALUE_MAX)
			fail(ps, "[%s] %s: longer than %d characters", s->name, ps->last->key, VALUE_MAX);
		return 1;
	}
	const struct kf_entry *old = kf_get(s, key);
	if (old) {
		fail(ps, "[%s] %s: set twice in this section (first on line %u)", s->name, key, old->line);
		return 1;
	}
	s->e = xrealloc(s->e, (s->n + 1) * sizeof(*s->e));
	s->e[s->n] = (struct kf_entry){ xstrdup(key), xstrdup(value), ps->lineno };
	ps->last = &s->e[s->n++];
	return 1;
}

int keyfile_parse(const char *text, size_t len, const char *path, struct keyfile *kf, char **error)
{
	*kf = (struct keyfile){ .path = xstrdup(path) };
	*error = NULL;
	if (memchr(text, '\0', len)) {
		*error = xasprintf("%s: contains NUL bytes, not a text file", path);
		return -EINVAL;
	}
	struct parse ps = { .kf = kf, .text = text, .len = len };
	int line = ini_parse_stream(reader, &ps, handler, &ps);
	if (line > 0 && !ps.error) {
		ps.lineno = (unsigned)line;
		fail(&ps, "not a 'key = value' line, a [section] header or a comment");
	}
	if (ps.error) {
		*error = ps.error;
		return -EINVAL;
	}
	return 0;
}

void keyfile_free(struct keyfile *kf)
{
	for (size_t i = 0; i < kf->n; i++) {
		struct kf_section *s = &kf->s[i];
		for (size_t k = 0; k < s->n; k++) {
			free(s->e[k].key);
			free(s->e[k].value);
		}
		free(s->e);
		free(s->name);
	}
	free(kf->s);
	free(kf->path);
	*kf = (struct keyfile){0};
}

const struct kf_entry *kf_get(const struct kf_section *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (streq(s->e[i].key, key))
			return &s->e[i];
	return NULL;
}

char *kf_error(const struct keyfile *kf, const struct kf_section *s, const struct kf_entry *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (e)
		return xasprintf("%s:%u: [%s] %s: %s", kf->path, e->line, s->name, e->key, msg);
	return xasprintf("%s:%u: [%s]: %s", kf->path, s ? s->line : 0, s ? s->name : "", msg);
}

void kf_fail(struct kf_check *c, const struct kf_entry *e, const char *fmt, ...)
{
	if (c->error)
		return;
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	c->error = kf_error(c->kf, c->s, e, "%s", msg);
}

const struct kf_entry *kf_need(struct kf_check *c, const char *key)
{
	const struct kf_entry *e = kf_get(c->s, key);
	if (!e) {
		struct kf_entry missing = { (char *)key, (char *)"", c->s->line };
		kf_fail(c, &missing, "missing");
	}
	return e;
}
