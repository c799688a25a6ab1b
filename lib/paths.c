/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

#include "embed.h"
#include "util.h"

#ifndef UBTUNE_DATADIR
#define UBTUNE_DATADIR "/usr/local/share/ubtune"
#endif

char *self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return xstrdup(buf);
}

/* The source tree, when running B/ubtune from it (build/, build-min/, ...). */
static char *source_tree(void)
{
	_cleanup_free_ char *dir = self_dir();
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (!slash || slash == dir)
		return NULL;
	*slash = '\0';
	_cleanup_free_ char *probe = xasprintf("%s/probe/probe.h", dir);
	if (access(probe, F_OK) < 0)
		return NULL;
	return TAKE_PTR(dir);
}

/* The carried file named item, or the first one under the directory item. */
static const struct embedded_file *builtin_find(const char *item, bool as_dir)
{
	size_t n;
	const struct embedded_file *files = builtin_data(&n);
	for (size_t i = 0; i < n; i++) {
		const char *rest = startswith(files[i].name, item);
		if (rest && (as_dir ? rest[0] == '/' : rest[0] == '\0'))
			return &files[i];
	}
	return NULL;
}

/* A carried file or directory of that name. */
static bool builtin_has(const char *item)
{
	return builtin_find(item, false) || builtin_find(item, true);
}

/* The part of a built-in path after DATA_BUILTIN "/", else NULL. */
static const char *builtin_item(const char *path)
{
	const char *item = startswith(path, DATA_BUILTIN "/");
	return item && *item ? item : NULL;
}

char *data_path(const char *item)
{
	const char *env = getenv("UBTUNE_DATADIR");
	if (env && *env)
		return xasprintf("%s/%s", env, item);
	_cleanup_free_ char *src = source_tree();
	if (src) {
		/* the source tree keeps the workload sources beside the harness */
		if (streq(item, "workloads") || startswith(item, "workloads/"))
			return xasprintf("%s/bench/%s", src, item);
		return xasprintf("%s/%s", src, item);
	}
	/* an installed data directory wins over the copy linked in */
	if (access(UBTUNE_DATADIR, F_OK) < 0 && builtin_has(item))
		return xasprintf(DATA_BUILTIN "/%s", item);
	return xasprintf("%s/%s", UBTUNE_DATADIR, item);
}

int data_read(const char *path, size_t max, char **out, size_t *len, char **error)
{
	const char *item = builtin_item(path);
	if (item) {
		const struct embedded_file *f = builtin_find(item, false);
		if (!f)
			return builtin_find(item, true) ? -EISDIR : -ENOENT;
		if (f->size > max)
			return -EFBIG;
		char *copy = xmalloc(f->size + 1);
		memcpy(copy, f->data, f->size);
		copy[f->size] = '\0';
		*out = copy;
		if (len)
			*len = f->size;
		return 0;
	}
	return read_regular(path, max, out, len, error);
}

bool data_exists(const char *path)
{
	const char *item = builtin_item(path);
	if (item)
		return builtin_has(item);
	return access(path, F_OK) == 0;
}

char *data_realpath(const char *path)
{
	const char *item = builtin_item(path);
	if (!item)
		return realpath(path, NULL);
	if (builtin_has(item))
		return xstrdup(path);
	errno = ENOENT;
	return NULL;
}

int data_list(const char *dir, struct strv *names)
{
	const char *item = builtin_item(dir);
	if (!item) {
		_cleanup_closedir_ DIR *d = opendir(dir);
		return d ? dir_list_sorted(d, names) : -errno;
	}
	if (!builtin_find(item, true))
		return builtin_find(item, false) ? -ENOTDIR : -ENOENT;
	size_t n;
	const struct embedded_file *files = builtin_data(&n);
	for (size_t i = 0; i < n; i++) {
		const char *rest = startswith(files[i].name, item);
		/* the files right in dir; the list is sorted by name */
		if (rest && rest[0] == '/' && !strchr(rest + 1, '/'))
			strv_push(names, rest + 1);
	}
	return 0;
}

static char *xdg_dir(const char *override, const char *root_dir, const char *xdg, const char *fallback)
{
	const char *env = getenv(override);
	if (env && *env)
		return xstrdup(env);
	if (geteuid() == 0)
		return xstrdup(root_dir);
	env = getenv(xdg);
	if (env && env[0] == '/')
		return xasprintf("%s/ubtune", env);
	const char *home = getenv("HOME");
	return xasprintf("%s/%s/ubtune", home && *home ? home : "/tmp", fallback);
}

char *state_dir(void)
{
	return xdg_dir("UBTUNE_STATE_DIR", "/var/lib/ubtune", "XDG_DATA_HOME", ".local/share");
}

char *cache_dir(void)
{
	return xdg_dir("UBTUNE_CACHE_DIR", "/var/cache/ubtune", "XDG_CACHE_HOME", ".cache");
}

int mkdir_p(const char *path, int private_last)
{
	_cleanup_free_ char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, private_last ? 0700 : 0755) < 0 && errno != EEXIST)
		return -errno;
	struct stat st;
	if (stat(p, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

char *not_a_directory(const char *path)
{
	_cleanup_free_ char *p = xstrdup(path);
	size_t len = strlen(p);
	for (size_t i = 1; i <= len; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		char c = p[i];
		p[i] = '\0';
		struct stat st;
		int r = stat(p, &st);
		if (r == 0 && !S_ISDIR(st.st_mode))
			return xasprintf("%s is %s, not a directory", p, file_kind(st.st_mode));
		if (r < 0)
			return NULL;
		p[i] = c;
	}
	return NULL;
}
