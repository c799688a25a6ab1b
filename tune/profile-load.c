/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "profile-section.h"

#include <errno.h>
#include <ini.h>

#include "lib/keyfile.h"
#include "lib/paths.h"

/* Reading a profile file with its includes: the lines, the sections and
 * their keys, checked against the key schema (profile-keys.c). */

struct loader {
	json_object *rec;
	struct strv *errors;
	struct strv stack;  /* real paths being read, for cycles */
	struct strv files;  /* every path read (owns the strings sections point to) */
	struct strv chain;
	struct profile_section **flat; /* in the order they apply */
	size_t n_flat;
	char *description;
	int depth;
};

struct parse {
	struct loader *l;
	const char *path;
	const char *text;
	size_t len, pos;
	unsigned lineno;
	bool cont;   /* the line being parsed is indented: a continuation */
	struct profile_section **secs;
	size_t n;
	struct profile_entry *last; /* entry a continuation line extends */
};

static void add_error(struct loader *l, const char *file, unsigned line, const char *fmt, ...) _printf_(4, 5);
static void add_error(struct loader *l, const char *file, unsigned line, const char *fmt, ...)
{
	if (l->errors->n >= PROFILE_ERRORS_MAX)
		return;
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (line)
		strv_take(l->errors, xasprintf("%s:%u: %s", file, line, msg));
	else
		strv_take(l->errors, xasprintf("%s: %s", file, msg));
}

static bool has_error_at(struct loader *l, const char *file, unsigned line)
{
	_cleanup_free_ char *prefix = xasprintf("%s:%u: ", file, line);
	for (size_t i = 0; i < l->errors->n; i++)
		if (startswith(l->errors->v[i], prefix))
			return true;
	return false;
}

static unsigned error_line(const char *msg, size_t skip)
{
	return (unsigned)strtoul(msg + skip, NULL, 10);
}

/* Errors of one file in line order (headers are checked as they are read,
 * keys after the whole file). */
static void sort_errors(struct loader *l, size_t from, const char *path)
{
	size_t skip = strlen(path) + 1;
	char **v = l->errors->v;
	for (size_t i = from + 1; i < l->errors->n; i++)
		for (size_t k = i; k > from && startswith(v[k], path) && startswith(v[k - 1], path) &&
				   error_line(v[k], skip) < error_line(v[k - 1], skip); k--) {
			char *t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
}

static void section_free(struct profile_section *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->e[i].key);
		free(s->e[i].value);
	}
	free(s->e);
	free(s->type);
	free(s->name);
	free(s);
}

/* A "[name]" line: checks the name and opens a section for the keys below. */
static void start_section(struct parse *ps, const char *line)
{
	struct profile_section *s = xcalloc(1, sizeof(*s));
	s->file = ps->path;
	s->line = ps->lineno;
	ps->secs = xrealloc(ps->secs, (ps->n + 1) * sizeof(*ps->secs));
	ps->secs[ps->n++] = s;
	ps->last = NULL;

	const char *close = strchr(line, ']');
	if (!close) {
		add_error(ps->l, ps->path, ps->lineno, "section header without ']'");
		return;
	}
	s->name = strstrip(xstrndup(line + 1, (size_t)(close - line - 1)));
	_cleanup_free_ char *why = profile_check_section_name(s->name, &s->type);
	if (why)
		add_error(ps->l, ps->path, ps->lineno, "[%s]: %s", s->name, why);
}

/* Feeds inih one line at a time, so that we know the line number, spot
 * section headers (even repeated ones) and enforce the line length. */
static char *reader(char *str, int num, void *stream)
{
	struct parse *ps = stream;
	size_t n;
	bool too_long;
	const char *start = ini_feed_line(ps->text, ps->len, &ps->pos, str, num, PROFILE_LINE_MAX, &n, &too_long);
	if (!start)
		return NULL;
	ps->lineno++;
	if (too_long)
		add_error(ps->l, ps->path, ps->lineno, "line longer than %d characters (continue a long value on "
			  "indented lines)", PROFILE_LINE_MAX);

	ps->cont = n && (start[0] == ' ' || start[0] == '\t');
	const char *t = start;
	while (t < start + n && (*t == ' ' || *t == '\t'))
		t++;
	if (t < start + n && *t == '[' && !ps->cont)
		start_section(ps, str + (t - start));
	else if (t < start + n && !strchr("#;", *t) && !ps->cont && !memchr(t, '=', n - (size_t)(t - start)) &&
		 !memchr(t, ':', n - (size_t)(t - start)))
		add_error(ps->l, ps->path, ps->lineno, "not a 'key = value' line, a [section] header or a comment");
	return str;
}

static int handler(void *user, const char *section_name, const char *key, const char *value)
{
	struct parse *ps = user;
	struct profile_section *s = ps->n ? ps->secs[ps->n - 1] : NULL;

	if (!s) {
		add_error(ps->l, ps->path, ps->lineno, "%s: key outside of any section", key);
		return 1;
	}
	if (ps->cont) {
		/* an indented line continues the value above it */
		if (ps->last) {
			char *joined = xasprintf("%s %s", ps->last->value, value);
			free(ps->last->value);
			ps->last->value = joined;
			if (strlen(joined) > 4 * PROFILE_LINE_MAX) {
				add_error(ps->l, ps->path, ps->lineno, "[%s] %s: value longer than %d characters",
					  s->name, key, 4 * PROFILE_LINE_MAX);
				ps->last = NULL;
			}
		}
		return 1;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (streq(s->e[i].key, key)) {
			add_error(ps->l, ps->path, ps->lineno, "[%s] %s: set twice in this section (first on line %u)",
				  s->name ? s->name : section_name, key, s->e[i].line);
			ps->last = NULL;
			return 1;
		}
	}
	s->e = xrealloc(s->e, (s->n + 1) * sizeof(*s->e));
	s->e[s->n] = (struct profile_entry){ xstrdup(key), xstrdup(value), ps->lineno };
	ps->last = &s->e[s->n++];
	return 1;
}

/* Checks every key of a section against the table. */
static void check_section(struct loader *l, struct profile_section *s)
{
	if (!s->type)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct profile_entry *e = &s->e[i];
		_cleanup_free_ char *err = profile_check_key(s->type, e->key, e->value);
		if (err)
			add_error(l, s->file, e->line, "[%s] %s: %s", s->name, e->key, err);
	}
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* dir/name, without the "./" that would only lengthen messages */
static char *join(const char *dir, const char *name, const char *suffix)
{
	while (startswith(name, "./"))
		name += 2;
	return streq(dir, ".") ? xasprintf("%s%s", name, suffix) : xasprintf("%s/%s%s", dir, name, suffix);
}

/* An include name: a path when it has a '/', else NAME.profile (or NAME)
 * next to the including file, then among the shipped profiles. */
static char *resolve_include(const char *from, const char *name)
{
	_cleanup_free_ char *dir = dir_of(from);
	if (strchr(name, '/'))
		return name[0] == '/' ? xstrdup(name) : join(dir, name, "");
	_cleanup_free_ char *shipped = data_path("profiles");
	const char *dirs[] = { dir, shipped };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *p = join(dirs[i], name, ".profile");
		if (data_exists(p))
			return p;
		free(p);
		p = join(dirs[i], name, "");
		if (data_exists(p))
			return p;
		free(p);
	}
	return NULL;
}

static char *profile_name_of(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (endswith(base, ".profile"))
		n -= strlen(".profile");
	return xstrndup(base, n);
}

static int load_file(struct loader *l, const char *path, const char *from, unsigned from_line);

/* The [profile] include= keys of a file, loaded before its own sections. */
static int load_includes(struct loader *l, struct parse *ps)
{
	int r = 0;
	for (size_t i = 0; i < ps->n; i++) {
		struct profile_section *s = ps->secs[i];
		if (!s->type || !streq(s->type, "profile"))
			continue;
		for (size_t j = 0; j < s->n; j++) {
			if (!streq(s->e[j].key, "include"))
				continue;
			struct strv names = {0};
			strv_split(s->e[j].value, " \t,", &names);
			for (size_t k = 0; k < names.n; k++) {
				_cleanup_free_ char *p = resolve_include(ps->path, names.v[k]);
				if (!p) {
					add_error(l, ps->path, s->e[j].line,
						  "[profile] include: no profile '%s' next to this file or among the shipped profiles",
						  names.v[k]);
					r = -EINVAL;
					continue;
				}
				int q = load_file(l, p, ps->path, s->e[j].line);
				if (q < 0)
					r = q;
			}
			strv_free(&names);
		}
	}
	return r;
}

static int load_file(struct loader *l, const char *path, const char *from, unsigned from_line)
{
	_cleanup_free_ char *real = data_realpath(path);
	if (!real) {
		int r = -errno;
		if (from)
			add_error(l, from, from_line, "[profile] include: %s: %s", path, strerror(-r));
		else
			add_error(l, path, 0, "%s", strerror(-r));
		return r;
	}
	if (strv_contains(&l->stack, real)) {
		struct buf b = {0};
		for (size_t i = 0; i < l->stack.n; i++) {
			_cleanup_free_ char *n = profile_name_of(l->stack.v[i]);
			buf_printf(&b, "%s -> ", n);
		}
		_cleanup_free_ char *n = profile_name_of(real);
		buf_puts(&b, n);
		_cleanup_free_ char *cycle = buf_steal(&b);
		add_error(l, from, from_line, "[profile] include: includes itself (%s)", cycle);
		return -EINVAL;
	}
	if (l->depth >= PROFILE_INCLUDE_DEPTH) {
		add_error(l, from, from_line, "[profile] include: more than %d levels of includes",
			  PROFILE_INCLUDE_DEPTH);
		return -EINVAL;
	}

	_cleanup_free_ char *text = NULL, *kind = NULL;
	size_t len = 0;
	int r = data_read(path, PROFILE_FILE_MAX, &text, &len, &kind);
	if (r < 0) {
		const char *why = r == -EFBIG ? "larger than 64 KiB, not a profile" : strerror(-r);
		if (from && kind)
			add_error(l, from, from_line, "[profile] include: %s", kind);
		else if (from)
			add_error(l, from, from_line, "[profile] include: %s: %s", path, why);
		else if (kind)
			strv_push(l->errors, kind); /* "PATH is a FIFO, not a regular file" */
		else
			add_error(l, path, 0, "%s", why);
		return r;
	}
	if (memchr(text, '\0', len)) {
		add_error(l, path, 0, "contains NUL bytes, not a profile");
		return -EINVAL;
	}

	strv_push(&l->files, path);
	struct parse ps = { .l = l, .path = l->files.v[l->files.n - 1], .text = text, .len = len };
	size_t errors_before = l->errors->n;
	int line = ini_parse_stream(reader, &ps, handler, &ps);
	if (line > 0 && !has_error_at(l, ps.path, (unsigned)line))
		add_error(l, ps.path, (unsigned)line, "not a 'key = value' line, a [section] header or a comment");
	for (size_t i = 0; i < ps.n; i++)
		check_section(l, ps.secs[i]);
	sort_errors(l, errors_before, ps.path);

	strv_push(&l->stack, real);
	l->depth++;
	r = load_includes(l, &ps);
	l->depth--;
	free(l->stack.v[--l->stack.n]);
	l->stack.v[l->stack.n] = NULL;

	for (size_t i = 0; i < ps.n; i++) {
		struct profile_section *s = ps.secs[i];
		if (s->type && streq(s->type, "profile"))
			for (size_t j = 0; j < s->n; j++)
				if (streq(s->e[j].key, "description") && !from) {
					free(l->description);
					l->description = xstrdup(s->e[j].value);
				}
		l->flat = xrealloc(l->flat, (l->n_flat + 1) * sizeof(*l->flat));
		l->flat[l->n_flat++] = s;
	}
	free(ps.secs);

	_cleanup_free_ char *name = profile_name_of(path);
	if (!strv_contains(&l->chain, name))
		strv_push(&l->chain, name);
	if (r == 0 && l->errors->n > errors_before)
		r = -EINVAL;
	return r;
}

int profile_load(const char *path, json_object *rec, struct profile **out, struct strv *errors)
{
	struct loader l = { .rec = rec, .errors = errors };
	int r = load_file(&l, path, NULL, 0);
	if (r == 0 && errors->n)
		r = -EINVAL;
	if (r == 0) {
		struct profile *p = xcalloc(1, sizeof(*p));
		p->path = xstrdup(path);
		p->name = profile_name_of(path);
		p->description = TAKE_PTR(l.description);
		p->chain = l.chain;
		l.chain = (struct strv){0};
		profile_resolve(p, l.flat, l.n_flat, rec);
		*out = p;
	}
	for (size_t i = 0; i < l.n_flat; i++)
		section_free(l.flat[i]);
	free(l.flat);
	free(l.description);
	strv_free(&l.stack);
	strv_free(&l.files);
	strv_free(&l.chain);
	return r;
}
