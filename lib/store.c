/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parts of the results store that do not depend on its backend. */
#include "store.h"

#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>

#include "lib/paths.h"
#include "lib/util.h"

int store_add(struct store *s, json_object *result, int64_t *id)
{
	return store_add_with_digest(s, result, NULL, id);
}

static int list_row(int64_t id, json_object *summary, void *list)
{
	json_object *row = json_object_new_object();
	jset_int(row, "id", id);
	result_summary_copy(row, summary);
	json_object_array_add(list, row);
	return 0;
}

int store_list(struct store *s, json_object **out)
{
	json_object *list = json_object_new_array();
	int r = store_each(s, list_row, list);
	if (r < 0) {
		json_object_put(list);
		return r;
	}
	*out = list;
	return 0;
}

int store_resolve(struct store *s, const char *ref, int64_t *id)
{
	uint64_t back = 0;
	const char *rest = startswith(ref, "last");
	/* digits only, as diagnose and compare take an id: " 1" and "+1" are not one */
	if (!rest) {
		int64_t v;
		if (!str_numbered(ref, "") || parse_s64(ref, &v) < 0 || v <= 0)
			return -EINVAL;
		_cleanup_json_ json_object *rec = NULL;
		int r = store_get(s, v, &rec);
		if (r < 0)
			return r;
		*id = v;
		return 0;
	}
	if (*rest && (!str_numbered(rest, "~") || parse_u64(rest + 1, &back) < 0))
		return -EINVAL;
	_cleanup_json_ json_object *list = NULL;
	int r = store_list(s, &list);
	if (r < 0)
		return r;
	size_t n = jarr_len(list);
	if (back >= n)
		return -ENOENT;
	return jpath_int(json_object_array_get_idx(list, n - 1 - back), "id", id) ? 0 : -EIO;
}

int result_load_file(const char *path, json_object **out, char **error)
{
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_free_ char *why = NULL, *text = NULL;
	size_t len = 0;
	*error = NULL;
	int r = read_regular(path, RESULT_FILE_MAX, &text, &len, error);
	if (r == 0)
		r = jload_text(text, len, &rec);
	if (*error) {
		/* "PATH is a FIFO, not a regular file" */
		r = -EINVAL;
	} else if (r == -EFBIG) {
		*error = xasprintf("%s: larger than %u MiB, not a result file", path, RESULT_FILE_MAX >> 20);
	} else if (r == -EBADMSG) {
		*error = xasprintf("%s: not valid JSON (a result file as `ubtune export` writes it was expected)", path);
	} else if (r < 0) {
		*error = xasprintf("cannot read %s: %s", path, strerror(-r));
	} else if ((r = result_check(rec, &why)) < 0) {
		*error = xasprintf("%s: not a ubtune result: %s", path, why);
	}
	if (r < 0)
		return r;
	*out = TAKE_PTR(rec);
	return 0;
}

int store_import_json(struct store *s, const char *path, int64_t *id, char **error)
{
	_cleanup_json_ json_object *rec = NULL;
	int r = result_load_file(path, &rec, error);
	if (r < 0)
		return r;
	r = store_add(s, rec, id);
	if (r == -EEXIST)
		*error = xasprintf("%s: this run is already stored as result %" PRId64, path, *id);
	else if (r < 0)
		*error = xasprintf("cannot store %s: %s", path, strerror(-r));
	return r;
}

/* Says what is wrong with the store's path and the directory it is in. */
static char *open_error(const char *dir, int r)
{
	_cleanup_free_ char *path = store_path(dir), *blocker = NULL;
	struct stat st;
	if (r == -ENOTDIR && (blocker = not_a_directory(dir)))
		return xasprintf("cannot open the results store in %s: %s", dir, blocker);
	if (r == -EINVAL && lstat(path, &st) == 0)
		return xasprintf("the results store %s is %s, not %s", path, file_kind(st.st_mode), store_kind);
	if (r == -EBADMSG)
		return xasprintf("the results store %s is not %s (move it aside and ubtune starts a new one)", path,
				 store_kind);
	return xasprintf("cannot open the results store %s: %s", path, strerror(-r));
}

int store_open_read(const char *dir, struct store **out)
{
	_cleanup_free_ char *path = store_path(dir);
	struct stat st;
	if (lstat(path, &st) < 0 && errno == ENOENT)
		return store_open_empty(out);
	return store_open(dir, out);
}

int store_open_state(struct store **out, bool create, char **error)
{
	_cleanup_free_ char *dir = state_dir();
	int r = create ? store_open(dir, out) : store_open_read(dir, out);
	if (r < 0)
		*error = open_error(dir, r);
	return r;
}

int store_lookup(struct store *s, const char *ref, int64_t *id, json_object **rec, char **error)
{
	int r = store_resolve(s, ref, id);
	if (r == 0)
		r = store_get(s, *id, rec);
	if (r == -EINVAL)
		*error = xasprintf("'%s' is not a result id (a number, 'last' or 'last~N')", ref);
	else if (r == -ENOENT)
		*error = xasprintf("there is no result '%s' (see ubtune history)", ref);
	else if (r == -EBADMSG)
		*error = xasprintf("result '%s' of the store is damaged: its record cannot be read", ref);
	else if (r < 0)
		*error = xasprintf("cannot read result '%s': %s", ref, strerror(-r));
	return r;
}
