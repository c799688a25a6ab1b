/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "analysis/load.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/stat.h>

#include "lib/store.h"
#include "lib/util.h"

static void list_add(struct loaded_list *l, json_object *rec, char *source, int64_t id)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = (struct loaded){ rec, source, id };
}

void loaded_list_free(struct loaded_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		json_object_put(l->v[i].rec);
		free(l->v[i].source);
	}
	free(l->v);
	*l = (struct loaded_list){0};
}

bool load_looks_like_json(const char *path)
{
	_cleanup_close_ int fd = open_regular_at(AT_FDCWD, path, 0, NULL);
	char b[256];
	ssize_t n = fd >= 0 ? read(fd, b, sizeof(b)) : -1;
	for (ssize_t i = 0; i < n; i++)
		if (!isspace((unsigned char)b[i]))
			return b[i] == '{';
	return false;
}

/* A result file: one record of schema ubtune.result/1. */
static int load_json(const char *path, struct loaded_list *list, char **error)
{
	json_object *rec = NULL;
	int r = result_load_file(path, &rec, error);
	if (r < 0)
		return r;
	list_add(list, rec, xstrdup(path), 0);
	return 0;
}

static int load_unixbench(const char *path, const struct ub_import_opts *import, struct loaded_list *list,
			  char **error)
{
	struct ub_import_opts o = *import;
	o.source = path;
	json_object *recs = NULL;
	int r = ub_import_file(path, &o, &recs, NULL, error);
	if (r < 0)
		return r;
	size_t n = jarr_len(recs);
	for (size_t i = 0; i < n; i++) {
		json_object *rec = json_object_get(json_object_array_get_idx(recs, i));
		char *source = n > 1 ? xasprintf("%s, run %zu of %zu", path, i + 1, n) : xstrdup(path);
		list_add(list, rec, source, 0);
	}
	json_object_put(recs);
	return 0;
}

/* "12", "last", "last~1": what the store resolves. */
static bool store_ref(const char *arg)
{
	const char *rest = startswith(arg, "last");
	if (rest)
		return !*rest || str_numbered(rest, "~");
	return str_numbered(arg, "");
}

static int load_stored(const char *ref, struct loaded_list *list, char **error)
{
	_cleanup_store_ struct store *s = NULL;
	int r = store_open_state(&s, false, error);
	if (r < 0)
		return r;
	int64_t id;
	json_object *rec = NULL;
	r = store_lookup(s, ref, &id, &rec, error);
	if (r < 0)
		return r;
	list_add(list, rec, xasprintf("result %" PRId64, id), id);
	return 0;
}

int load_results(const char *arg, const struct ub_import_opts *import, struct loaded_list *list, char **error)
{
	*error = NULL;
	struct stat st;
	bool exists = streq(arg, "-") || stat(arg, &st) == 0;
	if (!exists && store_ref(arg))
		return load_stored(arg, list, error);
	if (!exists) {
		*error = xasprintf("no file '%s' (and not a result id: a number, 'last' or 'last~N')", arg);
		return -ENOENT;
	}
	if (!streq(arg, "-") && S_ISREG(st.st_mode) && load_looks_like_json(arg))
		return load_json(arg, list, error);
	return load_unixbench(arg, import, list, error);
}

int load_inputs(char *const *args, size_t nargs, const struct ub_import_opts *import, struct loaded_inputs *out,
		char **error)
{
	static const struct ub_import_opts none = {0};
	*out = (struct loaded_inputs){0};
	for (size_t i = 0; i < nargs; i++) {
		int r = load_results(args[i], import ? import : &none, &out->list, error);
		if (r < 0)
			return r;
	}
	if (out->list.n > COMPARE_MAX) {
		*error = xasprintf("%zu results: at most %d at once", out->list.n, COMPARE_MAX);
		return -E2BIG;
	}
	for (size_t i = 0; i < out->list.n; i++)
		out->in[i] = (struct compare_input){ out->list.v[i].rec, out->list.v[i].source, out->list.v[i].id };
	out->n = out->list.n;
	return 0;
}

void loaded_inputs_free(struct loaded_inputs *in)
{
	loaded_list_free(&in->list);
	in->n = 0;
}
