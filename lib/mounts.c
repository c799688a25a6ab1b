/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Mount tables: /proc/self/mountinfo and /proc/mounts, and which mount holds a path. */
#include "mounts.h"

#include <errno.h>

#include "util.h"

/* Decodes the kernel's octal escapes (\040 space, \011 tab, \012, \134). */
static char *unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;
	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

static void table_add(struct mount_table *t, struct mount_entry *e)
{
	t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	t->v[t->n++] = *e;
}

/* Splits a line into at most max white-space separated fields. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;
	for (char *save = NULL, *tok = strtok_r(line, " \t", &save); tok && n < max;
	     tok = strtok_r(NULL, " \t", &save))
		f[n++] = tok;
	return n;
}

/*
 * The options as /proc/mounts shows them: the mount's own, then those of
 * the file system except its rw/ro ("rw,noatime" + "rw,errors=continue").
 */
static char *merged_options(const char *mount_opts, const char *super_opts)
{
	struct buf b = {0};
	_cleanup_free_ char *copy = xstrdup_or_null(super_opts);
	buf_puts(&b, mount_opts);
	for (char *save = NULL, *o = copy ? strtok_r(copy, ",", &save) : NULL; o; o = strtok_r(NULL, ",", &save))
		if (!streq(o, "rw") && !streq(o, "ro"))
			buf_printf(&b, ",%s", o);
	return buf_steal(&b);
}

/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue" */
static bool parse_mountinfo_line(char *line, struct mount_entry *e)
{
	char *f[64];
	size_t n = split(line, f, ARRAY_SIZE(f));
	size_t dash = 6;
	while (dash < n && !streq(f[dash], "-"))
		dash++;
	if (n < 6 || dash + 2 >= n)
		return false;
	unsigned maj, min;
	char end;
	if (sscanf(f[2], "%u:%u%c", &maj, &min, &end) != 2 || f[4][0] != '/')
		return false;
	*e = (struct mount_entry){
		.has_devnum = true,
		.major = maj,
		.minor = min,
		.target = unescape(f[4]),
		.root = unescape(f[3]),
		.options = merged_options(f[5], dash + 3 < n ? f[dash + 3] : NULL),
		.fstype = unescape(f[dash + 1]),
		.source = unescape(f[dash + 2]),
		.super_options = dash + 3 < n ? xstrdup(f[dash + 3]) : NULL,
	};
	return true;
}

/* "/dev/sda1 / ext4 rw,relatime 0 0" */
static bool parse_mounts_line(char *line, struct mount_entry *e)
{
	char *f[6];
	size_t n = split(line, f, ARRAY_SIZE(f));
	if (n < 4 || f[1][0] != '/')
		return false;
	*e = (struct mount_entry){
		.target = unescape(f[1]),
		.options = xstrdup(f[3]),
		.fstype = unescape(f[2]),
		.source = unescape(f[0]),
	};
	return true;
}

static int parse_table(const char *text, struct mount_table *t, bool (*parse_line)(char *, struct mount_entry *))
{
	_cleanup_free_ char *copy = xstrdup(text);
	*t = (struct mount_table){0};
	for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct mount_entry e;
		if (parse_line(l, &e))
			table_add(t, &e);
	}
	return t->n ? 0 : -EBADMSG;
}

int mount_table_parse_mountinfo(const char *text, struct mount_table *t)
{
	return parse_table(text, t, parse_mountinfo_line);
}

int mount_table_parse_mounts(const char *text, struct mount_table *t)
{
	return parse_table(text, t, parse_mounts_line);
}

/* Length of target when it is path or a parent of it, else 0 ("/" counts 1). */
static size_t covers(const char *target, const char *path)
{
	size_t n = strlen(target);
	while (n > 1 && target[n - 1] == '/')
		n--;
	if (n == 1 && target[0] == '/')
		return 1;
	if (strncmp(target, path, n) != 0 || (path[n] != '/' && path[n] != '\0'))
		return 0;
	return n;
}

static const struct mount_entry *find(const struct mount_table *t, const char *path, bool by_dev, unsigned major,
				      unsigned minor)
{
	const struct mount_entry *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct mount_entry *e = &t->v[i];
		if (by_dev && (!e->has_devnum || e->major != major || e->minor != minor))
			continue;
		size_t len = covers(e->target, path);
		if (len && len >= best_len) {
			best = e;
			best_len = len;
		}
	}
	return best;
}

const struct mount_entry *mount_table_find(const struct mount_table *t, const char *path, bool has_devnum,
					   unsigned major, unsigned minor)
{
	const struct mount_entry *e = has_devnum ? find(t, path, true, major, minor) : NULL;
	return e ? e : find(t, path, false, 0, 0);
}

void mount_table_free(struct mount_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct mount_entry *e = &t->v[i];
		free(e->target);
		free(e->source);
		free(e->fstype);
		free(e->options);
		free(e->super_options);
		free(e->root);
	}
	free(t->v);
	*t = (struct mount_table){0};
}

char *mount_option(const char *options, const char *key)
{
	size_t klen = strlen(key);
	for (const char *p = options; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=')
			return xstrndup(p + klen + 1, len - klen - 1);
		p += len;
		if (*p == ',')
			p++;
	}
	return NULL;
}
