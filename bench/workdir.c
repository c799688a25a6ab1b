/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "lib/util.h"

#define WORKDIR_TEMPLATE "ubtune-bench.XXXXXX"

int workdir_base(const char *base, const char *source, char **out, char **error)
{
	_cleanup_free_ char *cwd = NULL;
	*out = NULL;
	if (!base) {
		cwd = getcwd(NULL, 0);
		if (!cwd) {
			int r = -errno;
			*error = xasprintf("cannot find the current directory: %s", strerror(-r));
			return r;
		}
		base = cwd;
	}
	_cleanup_free_ char *abs = realpath(base, NULL);
	struct stat st;
	int r = !abs || stat(abs, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	if (r < 0) {
		*error = xasprintf("cannot use %s as the working directory (%s): %s", base, source, strerror(-r));
		return r;
	}
	*out = TAKE_PTR(abs);
	return 0;
}

int workdir_create(const char *base, const char *source, struct workdir *out, char **error)
{
	*out = (struct workdir){ .source = source };
	_cleanup_free_ char *abs = NULL;
	int r = workdir_base(base, source, &abs, error);
	if (r < 0)
		return r;
	char *tmpl = xasprintf("%s/" WORKDIR_TEMPLATE, abs);
	if (!mkdtemp(tmpl)) {
		r = -errno;
		*error = xasprintf("cannot create a directory in %s (%s): %s", abs, source, strerror(-r));
		free(tmpl);
		return r;
	}
	out->base = TAKE_PTR(abs);
	out->path = tmpl;
	return 0;
}

int workdir_remove(struct workdir *w)
{
	if (!w->path)
		return 0;
	int r = remove_tree(w->path);
	free(w->path);
	w->path = NULL;
	return r;
}

void workdir_free(struct workdir *w)
{
	free(w->base);
	free(w->path);
	*w = (struct workdir){0};
}
