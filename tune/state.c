/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The state directory of apply, revert and status: where it is, and how
 * it is made and removed inside a dump (--root DIR) without a step
 * outside DIR and without an empty directory left behind by a kill.
 */
#include "tune.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "lib/paths.h"
#include "tune/knob.h"

#define SYSTEM_STATE_DIR "/var/lib/ubtune"
/* In a dump, the directories of SYSTEM_STATE_DIR that apply created, one
 * a line: revert removes them again. */
#define CREATED_FILE "created-dirs"
/* A directory of ours on its way in or out (beside the first directory
 * apply creates): it appears or goes in one rename, and what a kill
 * leaves under this name is removed by the next apply or revert. */
#define STAGE_NAME ".ubtune-state"
#define CREATED_MAX 4096

char *tune_state_dir(const char *root)
{
	if (root && !streq(root, "/"))
		return xasprintf("%s" SYSTEM_STATE_DIR, root);
	const char *env = getenv("UBTUNE_STATE_DIR");
	if ((env && *env) || geteuid() == 0)
		return state_dir();
	/* an ordinary user looking at what root applied */
	if (access(SYSTEM_STATE_DIR "/" APPLIED_FILE, F_OK) == 0 || access(SYSTEM_STATE_DIR "/" JOURNAL_FILE, F_OK) == 0)
		return xstrdup(SYSTEM_STATE_DIR);
	return state_dir();
}

/* The directories of SYSTEM_STATE_DIR inside the root, outermost first. */
static void state_chain(struct strv *out)
{
	_cleanup_free_ char *p = xstrdup(SYSTEM_STATE_DIR);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			strv_push(out, p);
			*s = '/';
		}
	strv_push(out, p);
}

static const char *base_name(const char *path)
{
	return strrchr(path, '/') + 1;
}

/* What a kill left under STAGE_NAME beside each directory of the chain. */
static int remove_stages(struct rootfs *rf)
{
	struct strv chain = {0};
	state_chain(&chain);
	int r = 0;
	for (size_t i = 0; i < chain.n && r >= 0; i++) {
		_cleanup_free_ char *name = NULL;
		_cleanup_close_ int pfd = rootfs_open_parent(rf, chain.v[i], false, &name);
		struct stat st;
		if (pfd < 0)
			break; /* nothing of ours below a directory that is not there */
		if (fstatat(pfd, STAGE_NAME, &st, AT_SYMLINK_NOFOLLOW) == 0)
			r = remove_tree_at(pfd, STAGE_NAME);
	}
	strv_free(&chain);
	return r;
}

/* fsync(2) of a directory given by an O_PATH descriptor. */
static int sync_dir(int pfd)
{
	_cleanup_close_ int fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 || fsync(fd) < 0 ? -errno : 0;
}

static int write_at(int dfd, const char *name, const char *text, mode_t mode)
{
	_cleanup_free_ char *tmp = knob_temp_name(name);
	if (unlinkat(dfd, tmp, 0) < 0 && errno != ENOENT)
		return -errno;
	_cleanup_close_ int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	int r = write_full(fd, text, strlen(text));
	if (r == 0 && (fchmod(fd, mode) < 0 || fsync(fd) < 0))
		r = -errno;
	if (r == 0 && renameat(dfd, tmp, dfd, name) < 0)
		r = -errno;
	if (r < 0) {
		unlinkat(dfd, tmp, 0);
		return r;
	}
	return fsync(dfd) < 0 ? -errno : 0;
}

/*
 * Creates the missing directories of the chain, the first of them (top)
 * staged under STAGE_NAME with the others and the list of them inside,
 * then renamed into place.
 */
static int create_in_root(struct rootfs *rf)
{
	struct strv chain = {0}, made = {0};
	state_chain(&chain);
	size_t top = 0;
	struct stat st;
	while (top < chain.n && rootfs_stat(rf, chain.v[top], &st) == 0)
		top++;
	int r = top == chain.n ? -EEXIST : 0;
	for (size_t i = top; i < chain.n; i++)
		strv_push(&made, chain.v[i]);
	_cleanup_free_ char *name = NULL;
	_cleanup_close_ int pfd = r < 0 ? -1 : rootfs_open_parent(rf, chain.v[top], false, &name);
	if (!r && pfd < 0)
		r = pfd;
	int dfd = -1;
	if (!r && mkdirat(pfd, STAGE_NAME, 0755) < 0)
		r = -errno;
	if (!r && (dfd = openat(pfd, STAGE_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		r = -errno;
	for (size_t i = top + 1; !r && i < chain.n; i++) {
		int sub = -1;
		if (mkdirat(dfd, base_name(chain.v[i]), 0755) < 0 ||
		    (sub = openat(dfd, base_name(chain.v[i]), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
			r = -errno;
		close(dfd);
		dfd = sub;
	}
	if (!r) {
		_cleanup_free_ char *list = strv_join(&made, "\n");
		_cleanup_free_ char *text = xasprintf("%s\n", list);
		r = write_at(dfd, CREATED_FILE, text, 0644);
	}
	if (dfd >= 0)
		close(dfd);
	/* never over an entry of the dump (a symlink where a directory
	 * should be): that one is not ours to replace */
	if (!r && renameat2(pfd, STAGE_NAME, pfd, name, RENAME_NOREPLACE) < 0)
		r = errno == EEXIST ? -ENOTDIR : -errno;
	if (!r)
		r = sync_dir(pfd);
	if (r < 0 && r != -EEXIST && pfd >= 0)
		remove_tree_at(pfd, STAGE_NAME);
	strv_free(&chain);
	strv_free(&made);
	return r == -EEXIST ? 0 : r;
}

int tune_state_open(struct tune_env *env, bool create)
{
	int r;
	if (rootfs_is_live(env->rf)) {
		if (create && (r = mkdir_p(env->state_dir, 0)) < 0)
			return r;
		int fd = open(env->state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	if (create && ((r = remove_stages(env->rf)) < 0 || (r = create_in_root(env->rf)) < 0))
		return r;
	return rootfs_open_dir(env->rf, SYSTEM_STATE_DIR);
}

int tune_state_lock(struct tune_env *env, bool exclusive)
{
	if (rootfs_is_live(env->rf) || env->lock_fd > 0)
		return 0;
	int fd = open(rootfs_path(env->rf), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) < 0) {
		int r = errno == EWOULDBLOCK ? -EBUSY : -errno;
		close(fd);
		return r;
	}
	env->lock_fd = fd;
	return 0;
}

char *tune_state_why(const struct tune_env *env, int r)
{
	char *blocker = r == -ENOTDIR && rootfs_is_live(env->rf) ? not_a_directory(env->state_dir) : NULL;
	return blocker ? blocker : xstrdup(strerror(-r));
}

/* A directory of ours: nothing in it but the files ubtune keeps and the
 * next directory of the chain (next: its name, or NULL for the last). */
static bool only_ours(int dfd, const char *next)
{
	static const char *const files[] = { JOURNAL_FILE, APPLIED_FILE, CREATED_FILE };
	_cleanup_close_ int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d)
		return false;
	fd = -1;
	struct strv names = {0};
	dir_list_sorted(d, &names);
	closedir(d);
	bool ours = true;
	for (size_t i = 0; i < names.n && ours; i++) {
		bool known = next && streq(names.v[i], next);
		for (size_t k = 0; k < ARRAY_SIZE(files) && !known; k++) {
			_cleanup_free_ char *tmp = knob_temp_name(files[k]);
			known = !next && (streq(names.v[i], files[k]) || streq(names.v[i], tmp));
		}
		ours = known;
	}
	strv_free(&names);
	return ours;
}

int tune_state_remove(struct tune_env *env)
{
	if (rootfs_is_live(env->rf))
		return 0;
	int r = remove_stages(env->rf);
	_cleanup_close_ int sfd = rootfs_open_dir(env->rf, SYSTEM_STATE_DIR);
	if (r < 0 || sfd < 0)
		return r < 0 ? r : sfd == -ENOENT ? 0 : sfd;
	if (faccessat(sfd, JOURNAL_FILE, F_OK, AT_SYMLINK_NOFOLLOW) == 0 ||
	    faccessat(sfd, APPLIED_FILE, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return 0; /* still in use */
	_cleanup_close_ int cfd = open_regular_at(sfd, CREATED_FILE, O_NOFOLLOW, NULL);
	_cleanup_free_ char *text = NULL;
	if (cfd < 0)
		return cfd == -ENOENT ? 0 : cfd; /* not made by apply: not ours to remove */
	r = read_fd(cfd, CREATED_MAX, &text, NULL);
	if (r < 0)
		return r;
	struct strv made = {0}, chain = {0};
	strv_split(text, "\n", &made);
	state_chain(&chain);
	/* the outermost created directory that holds only what is ours */
	size_t from = chain.n;
	for (size_t i = chain.n; i-- > 0;) {
		if (!strv_contains(&made, chain.v[i]))
			break;
		_cleanup_close_ int dfd = rootfs_open_dir(env->rf, chain.v[i]);
		if (dfd < 0 || !only_ours(dfd, i + 1 < chain.n ? base_name(chain.v[i + 1]) : NULL))
			break;
		from = i;
	}
	if (from < chain.n) {
		_cleanup_free_ char *name = NULL;
		_cleanup_close_ int pfd = rootfs_open_parent(env->rf, chain.v[from], false, &name);
		if (pfd < 0)
			r = pfd;
		else if (renameat2(pfd, name, pfd, STAGE_NAME, RENAME_NOREPLACE) < 0)
			r = -errno;
		else if ((r = remove_tree_at(pfd, STAGE_NAME)) == 0)
			r = sync_dir(pfd);
	}
	strv_free(&made);
	strv_free(&chain);
	return r;
}

/* ---- applied.json ---------------------------------------------------------- */

int applied_load(const char *dir, json_object **out)
{
	_cleanup_free_ char *path = xasprintf("%s/" APPLIED_FILE, dir);
	return jload_file(path, JSON_FILE_MAX, out);
}

static const char *type_words(enum json_type t)
{
	switch (t) {
	case json_type_int:
	case json_type_double:
		return "a number";
	case json_type_array:
		return "a list";
	case json_type_object:
		return "an object";
	case json_type_string:
		return "a string";
	case json_type_boolean:
		return "true or false";
	default:
		return "null";
	}
}

/* The members status, revert and apply read, of the types they read. */
static int applied_check(json_object *o, char **error)
{
	static const struct {
		const char *key;
		enum json_type type;
	} members[] = {
		{ "profiles", json_type_array }, { "knobs", json_type_array },	 { "build", json_type_object },
		{ "bench", json_type_object },	 { "workdir", json_type_object }, { "boot_id", json_type_string },
		{ "applied_at", json_type_string }, { "journaled", json_type_int },
	};
	if (!json_object_is_type(o, json_type_object))
		return *error = xstrdup("not a JSON object"), -EBADMSG;
	for (size_t i = 0; i < ARRAY_SIZE(members); i++) {
		json_object *v = NULL;
		if (json_object_object_get_ex(o, members[i].key, &v) && v && !json_object_is_type(v, members[i].type))
			return *error = xasprintf("%s is %s, not %s", members[i].key, type_words(json_object_get_type(v)),
						  type_words(members[i].type)),
			       -EBADMSG;
	}
	json_object *profiles = jpath(o, "profiles"), *knobs = jpath(o, "knobs");
	for (size_t i = 0; i < jarr_len(profiles); i++)
		if (!json_object_is_type(json_object_array_get_idx(profiles, i), json_type_string))
			return *error = xasprintf("profiles[%zu] is not a name", i), -EBADMSG;
	for (size_t i = 0; i < jarr_len(knobs); i++) {
		json_object *k = json_object_array_get_idx(knobs, i);
		if (!jpath_str(k, "kind") || !jpath_str(k, "target"))
			return *error = xasprintf("knobs[%zu] has no kind and target", i), -EBADMSG;
	}
	int64_t n;
	if (jpath_int(o, "journaled", &n) && n < 0)
		return *error = xstrdup("journaled is below 0"), -EBADMSG;
	return 0;
}

int applied_load_at(int dfd, json_object **out, char **error)
{
	_cleanup_close_ int fd = open_regular_at(dfd, APPLIED_FILE, O_NOFOLLOW, NULL);
	if (fd < 0)
		return fd;
	_cleanup_free_ char *text = NULL;
	_cleanup_json_ json_object *o = NULL;
	size_t len = 0;
	int r = read_fd(fd, JSON_FILE_MAX, &text, &len);
	if (r < 0)
		return *error = xstrdup(strerror(-r)), r;
	if (jload_text(text, len, &o) < 0)
		return *error = xstrdup("not JSON"), -EBADMSG;
	if ((r = applied_check(o, error)) < 0)
		return r;
	*out = TAKE_PTR(o);
	return 0;
}

int applied_save_at(int dfd, json_object *o)
{
	_cleanup_free_ char *text = xasprintf("%s\n", jdump(o, true));
	return write_at(dfd, APPLIED_FILE, text, 0644);
}

bool applied_remove_at(int dfd)
{
	_cleanup_free_ char *tmp = knob_temp_name(APPLIED_FILE);
	unlinkat(dfd, tmp, 0);
	return unlinkat(dfd, APPLIED_FILE, 0) == 0;
}
