/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

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
	return xasprintf("%s/%s", UBTUNE_DATADIR, item);
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
	return 0;
}
