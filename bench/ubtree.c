/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bench/ubtree.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <sys/stat.h>

#include "bench/build.h"
#include "unixbench/catalogue.h"
#include "lib/paths.h"
#include "lib/spawn.h"
#include "lib/util.h"

#define SCRIPT_MAX (1u << 20)
#define TREE_FILES_MAX 4096
#define TREE_BYTES_MAX (64u << 20)
#define TREE_DEPTH_MAX 8
/* Run's maxCopies for the system tests before 6.0 */
#define OLD_MAX_COPIES 16
#define MAKE_JOBS_MAX 4


static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool has_file(const char *dir, const char *name)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *read_small(const char *dir, const char *name)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", dir, name);
	_cleanup_close_ int fd = open_regular_at(AT_FDCWD, p, O_NOFOLLOW, NULL);
	char *text = NULL;
	if (fd < 0 || read_fd(fd, SCRIPT_MAX, &text, NULL) < 0)
		return NULL;
	return text;
}

/* The text between the quotes after `key` ("$version = \"6.0.0\";"). */
static char *quoted_after(const char *text, const char *key)
{
	const char *p = text ? strstr(text, key) : NULL;
	if (!p)
		return NULL;
	p += strlen(key);
	while (*p == ' ' || *p == '=' || *p == '\t')
		p++;
	if (*p != '"' && *p != '\'')
		return NULL;
	char q = *p++;
	size_t n = strcspn(p, q == '"' ? "\"\n" : "'\n");
	if (n == 0 || n > 32 || p[n] != q)
		return NULL;
	return xstrndup(p, n);
}

/* "Version 6.0.0" in the logo. */
static char *logo_version(const char *root)
{
	_cleanup_free_ char *logo = read_small(root, "pgms/unixbench.logo");
	const char *v = logo ? strstr(logo, "Version ") : NULL;
	if (!v)
		return NULL;
	v += strlen("Version ");
	size_t n = strspn(v, "0123456789.");
	return n ? xstrndup(v, n) : NULL;
}

/* Run's cap on the copies of the system tests: 'system' => {... 'maxCopies' => 16 }. */
static unsigned run_max_copies(const char *run, enum ub_layout layout)
{
	const char *p = run ? strstr(run, "'system'") : NULL;
	const char *line_end = p ? strchr(p, '\n') : NULL;
	const char *m = p ? strstr(p, "'maxCopies'") : NULL;
	if (m && line_end && m < line_end) {
		m += strlen("'maxCopies'");
		while (*m == ' ' || *m == '=' || *m == '>')
			m++;
		uint64_t v = 0;
		while (isdigit((unsigned char)*m))
			v = v * 10 + (uint64_t)(*m++ - '0');
		if (v < 1u << 20)
			return (unsigned)v;
	}
	return layout == UB_LAYOUT_6 ? 0 : OLD_MAX_COPIES;
}

static void set_layout(struct ub_tree *t, const char *makefile)
{
	static const char *const names[] = { "5.1.2", "5.1.3", "6.x" };
	if (makefile && strstr(makefile, "UB_GCC_OPTIONS"))
		t->layout = UB_LAYOUT_6;
	else if (makefile && strstr(makefile, "dhry_1_reg.o"))
		t->layout = UB_LAYOUT_513;
	else if (makefile && strstr(makefile, "OPTON"))
		t->layout = UB_LAYOUT_512;
	else if (t->version && startswith(t->version, "5.1.2"))
		t->layout = UB_LAYOUT_512;
	else if (t->version && t->version[0] == '5')
		t->layout = UB_LAYOUT_513;
	else
		t->layout = UB_LAYOUT_6;
	t->layout_name = names[t->layout];
	t->flags_var = t->layout == UB_LAYOUT_6 ? "UB_GCC_OPTIONS" : "OPTON";
}

/* The UnixBench directory among dir, dir/UnixBench (a checkout) and the
 * parent of dir/pgms. */
static char *find_root(const char *abs)
{
	_cleanup_free_ char *checkout = xasprintf("%s/UnixBench", abs);
	_cleanup_free_ char *copy = xstrdup(abs);
	const char *parent = streq(basename(copy), "pgms") ? dirname(copy) : NULL;
	const char *candidates[] = { abs, checkout, parent };
	for (size_t i = 0; i < ARRAY_SIZE(candidates); i++) {
		const char *c = candidates[i];
		_cleanup_free_ char *pgms = c ? xasprintf("%s/pgms", c) : NULL;
		_cleanup_free_ char *dhry = c ? xasprintf("%s/pgms/dhry2reg", c) : NULL;
		if (c && is_dir(pgms) && (has_file(c, "Run") || has_file(c, "Makefile") || is_executable(dhry)))
			return xstrdup(c);
	}
	return NULL;
}

int ubtree_find(const char *dir, struct ub_tree *out, char **error)
{
	*out = (struct ub_tree){0};
	_cleanup_free_ char *abs = realpath(dir, NULL);
	if (!abs) {
		int r = -errno;
		*error = xasprintf("cannot use the UnixBench tree %s: %s", dir, strerror(-r));
		return r;
	}
	out->root = find_root(abs);
	if (!out->root) {
		*error = xasprintf("%s is not a UnixBench tree: there is no Run, Makefile or built pgms/dhry2reg "
				   "beside pgms/ (looked in %s, %s/UnixBench and the parent of pgms/)",
				   dir, dir, dir);
		return -ENOENT;
	}
	_cleanup_free_ char *run = read_small(out->root, "Run");
	_cleanup_free_ char *makefile = read_small(out->root, "Makefile");
	out->version = quoted_after(run, "$version");
	if (!out->version)
		out->version = logo_version(out->root);
	set_layout(out, makefile);
	if (!out->version)
		out->version = xstrdup("unknown");
	out->max_copies = run_max_copies(run, out->layout);
	_cleanup_free_ char *dhry = xasprintf("%s/pgms/dhry2reg", out->root);
	out->built = is_executable(dhry);
	return 0;
}

void ubtree_free(struct ub_tree *t)
{
	free(t->root);
	free(t->version);
	*t = (struct ub_tree){0};
}

/* ---- walking the tree: its key, and the copy ---- */

struct walk {
	const char *from;
	const char *to; /* NULL: hash only */
	uint64_t hash;
	size_t files, bytes;
	char *error;
};

/* What is not the tree's: built programs, objects, results, scratch files. */
static bool skipped(const char *rel, const char *name, const unsigned char *head, size_t n)
{
	if (streq(name, ".git") || endswith(name, ".o") || endswith(name, "~"))
		return true;
	if (startswith(rel, "results/") || startswith(rel, "tmp/"))
		return true;
	return n >= 4 && memcmp(head, "\x7f" "ELF", 4) == 0;
}

static int walk_file(struct walk *w, const char *rel, const char *name, const struct stat *st)
{
	_cleanup_free_ char *src = xasprintf("%s/%s", w->from, rel);
	_cleanup_free_ char *data = NULL, *kind = NULL;
	_cleanup_close_ int fd = open_regular_at(AT_FDCWD, src, O_NOFOLLOW, &kind);
	size_t len = 0;
	int r = fd < 0 ? fd : read_fd(fd, TREE_BYTES_MAX, &data, &len);
	if (r < 0) {
		w->error = kind ? TAKE_PTR(kind) : xasprintf("cannot read %s: %s", src, strerror(-r));
		return r;
	}
	if (skipped(rel, name, (const unsigned char *)data, len))
		return 0;
	if (++w->files > TREE_FILES_MAX || (w->bytes += len) > TREE_BYTES_MAX) {
		w->error = xasprintf("%s holds more than %d files or %u MiB: not a UnixBench tree", w->from, TREE_FILES_MAX,
				     TREE_BYTES_MAX >> 20);
		return -EFBIG;
	}
	build_hash_str(&w->hash, rel);
	build_hash(&w->hash, data, len);
	if (!w->to)
		return 0;
	_cleanup_free_ char *dst = xasprintf("%s/%s", w->to, rel);
	_cleanup_close_ int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st->st_mode & 0755);
	ssize_t n = out < 0 ? -1 : len ? write(out, data, len) : 0;
	r = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	if (r < 0)
		w->error = xasprintf("cannot write %s: %s", dst, strerror(-r));
	return r;
}

static int walk_dir(struct walk *w, const char *rel, int depth)
{
	_cleanup_free_ char *path = *rel ? xasprintf("%s/%s", w->from, rel) : xstrdup(w->from);
	_cleanup_closedir_ DIR *d = opendir(path);
	if (!d) {
		int r = -errno;
		w->error = xasprintf("cannot read %s: %s", path, strerror(-r));
		return r;
	}
	if (depth > TREE_DEPTH_MAX)
		return 0;
	struct strv names = {0};
	int r = dir_list_sorted(d, &names);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		const char *name = names.v[i];
		_cleanup_free_ char *sub = *rel ? xasprintf("%s/%s", rel, name) : xstrdup(name);
		_cleanup_free_ char *full = xasprintf("%s/%s", w->from, sub);
		struct stat st;
		if (lstat(full, &st) < 0 || streq(name, ".git"))
			continue;
		if (S_ISDIR(st.st_mode)) {
			_cleanup_free_ char *dst = w->to ? xasprintf("%s/%s", w->to, sub) : NULL;
			if (dst && mkdir(dst, 0755) < 0 && errno != EEXIST) {
				r = -errno;
				w->error = xasprintf("cannot create %s: %s", dst, strerror(-r));
				break;
			}
			r = walk_dir(w, sub, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			r = walk_file(w, sub, name, &st);
		}
	}
	strv_free(&names);
	return r < 0 ? r : 0;
}

/* ---- building ---- */

static const char *default_cc(const struct ub_tree *t)
{
	/* 5.1.x sets CC=gcc; 6.x's CC?=gcc leaves GNU make's own default, cc */
	return t->layout == UB_LAYOUT_6 ? "cc" : "gcc";
}

char *ubtree_flags_of(const char *command)
{
	struct buf b = {0};
	_cleanup_free_ char *copy = xstrdup(command ? command : "");
	for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (w[0] == '-' && (w[1] == 'O' || w[1] == 'f' || w[1] == 'm'))
			buf_printf(&b, "%s%s", b.len ? " " : "", w);
	if (!b.len) {
		buf_free(&b);
		return NULL;
	}
	return buf_steal(&b);
}

/* The compile commands among make's output (the lines naming the compiler),
 * and the flags of the one that built Dhrystone. */
static json_object *compile_commands(const char *out, const char *cc, char **flags)
{
	json_object *all = build_commands(out), *cmds = json_object_new_array();
	_cleanup_free_ char *copy = xstrdup(cc);
	const char *base = basename(copy);
	for (size_t i = 0; i < jarr_len(all); i++) {
		const char *l = json_object_get_string(json_object_array_get_idx(all, i));
		if (!strstr(l, base))
			continue;
		jarr_add_str(cmds, l);
		if (!*flags && strstr(l, "dhry"))
			*flags = ubtree_flags_of(l);
	}
	json_object_put(all);
	return cmds;
}

static int make_in(const struct ub_tree *t, const char *dir, const char *cc, const char *cflags, json_object *build,
		   char **error)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	/* 5.1.2's dhry2 and dhry2reg share object files: one job at a time */
	long jobs = t->layout == UB_LAYOUT_512 ? 1 : cpus < 1 ? 1 : cpus > MAKE_JOBS_MAX ? MAKE_JOBS_MAX : cpus;
	_cleanup_free_ char *j = xasprintf("-j%ld", jobs), *ccv = xasprintf("CC=%s", cc);
	_cleanup_free_ char *fl = cflags ? xasprintf("%s=%s", t->flags_var, cflags) : NULL;
	/* the index needs no graphics (5.1.2 builds them by default, with X and GL) */
	const char *argv[] = { "make", "--no-print-directory", "-C", dir, j, ccv, "GRAPHIC_TESTS=", "all", fl, NULL };
	json_object *make = json_object_new_array();
	for (size_t i = 0; argv[i]; i++)
		jarr_add_str(make, argv[i]);
	jset(build, "make", make);
	_cleanup_free_ char *out = NULL;
	int r = build_run_make(argv, &out);
	if (r == -EINTR) {
		*error = build_stopped("building UnixBench", dir);
		return r;
	}
	/* the programs of the index tests: a build without them failed */
	for (size_t i = 0; r == 0 && i < UB_NINDEX; i++) {
		_cleanup_free_ char *p = xasprintf("%s/pgms/%s", dir, ub_tests[i].program);
		if (!is_executable(p))
			r = -ENOENT;
	}
	if (r != 0) {
		_cleanup_free_ char *tail = build_output_tail(out);
		*error = xasprintf("building UnixBench %s with %s %s failed: %s", t->version, cc,
				   cflags ? cflags : "(the tree's flags)", r < 0 && r != -ENOENT ? strerror(-r) : tail);
		return r < 0 ? r : -EIO;
	}
	char *used = NULL;
	jset(build, "commands", compile_commands(out, cc, &used));
	jset_str(build, "cflags", cflags ? cflags : used);
	jset_str(build, "flags_source", cflags ? "profile" : "tree");
	free(used);
	return 0;
}

int ubtree_build(const struct ub_tree *t, const char *cc, const char *cflags, const char *cachedir, bool plan,
		 json_object **build, char **error)
{
	*build = NULL;
	if (!has_file(t->root, "Makefile") || !is_dir(t->root) || !has_file(t->root, "src/dhry_1.c")) {
		*error = xasprintf("%s has no Makefile or sources (src/): it cannot be built; give a complete "
				   "byte-unixbench tree",
				   t->root);
		return -ENOENT;
	}
	_cleanup_free_ char *ccpath = find_program(cc ? cc : default_cc(t));
	if (!ccpath) {
		*error = xasprintf("the compiler '%s' is not installed", cc ? cc : default_cc(t));
		return -ENOENT;
	}
	_cleanup_free_ char *version = build_cc_version(ccpath);
	struct walk w = { .from = t->root, .hash = BUILD_HASH_INIT };
	build_hash_str(&w.hash, ccpath);
	build_hash_str(&w.hash, version);
	build_hash_str(&w.hash, t->flags_var);
	build_hash_str(&w.hash, cflags);
	int r = walk_dir(&w, "", 0);
	if (r < 0) {
		*error = TAKE_PTR(w.error);
		return r;
	}
	char key[17];
	snprintf(key, sizeof(key), "%016" PRIx64, w.hash);
	_cleanup_free_ char *base = xasprintf("%s/unixbench", cachedir), *dir = xasprintf("%s/%s", base, key);
	_cleanup_free_ char *dhry = xasprintf("%s/pgms/dhry2reg", dir);
	json_object *b = build_record_cached(dir, dhry);
	if (b) {
		*build = b;
		return 0;
	}
	b = json_object_new_object();
	jset_str(b, "cc", ccpath);
	jset_str(b, "cc_version", version);
	jset_str(b, "flags_var", t->flags_var);
	jset_str(b, "tree", t->root);
	jset_str(b, "version", t->version);
	jset_str(b, "layout", t->layout_name);
	jset_str(b, "dir", dir);
	jset_str(b, "key", key);
	jset_bool(b, "cached", false);
	if (plan) {
		jset_str(b, "cflags", cflags);
		jset_str(b, "flags_source", cflags ? "profile" : "tree");
		*build = b;
		return 0;
	}
	r = mkdir_p(base, 0);
	if (r < 0) {
		*error = xasprintf("cannot create the cache %s: %s", base, strerror(-r));
		json_object_put(b);
		return r;
	}
	/* a directory without build.json is what a cut-short build left */
	remove_tree(dir);
	struct walk copy = { .from = t->root, .to = dir, .hash = BUILD_HASH_INIT };
	if (mkdir(dir, 0755) < 0) {
		r = -errno;
		*error = xasprintf("cannot create %s: %s", dir, strerror(-r));
		json_object_put(b);
		return r;
	}
	r = walk_dir(&copy, "", 0);
	if (r < 0)
		*error = TAKE_PTR(copy.error);
	if (r == 0)
		r = make_in(t, dir, ccpath, cflags, b, error);
	if (r == 0)
		r = build_record_write(dir, b, error);
	free(copy.error);
	if (r < 0) {
		remove_tree(dir);
		json_object_put(b);
		return r;
	}
	*build = b;
	return 0;
}
