/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sys/stat.h>

#include "bench/build.h"
#include "bench/ubtree.h"
#include "lib/paths.h"
#include "lib/spawn.h"
#include "bench/embedded.h"
#include "bench/workdir.h"
#include "lib/util.h"

#define SOURCE_FILE_MAX (4u << 20)

static bool file_exists(const char *dir, const char *name)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

static char *dir_of(const char *path)
{
	char *d = xstrdup(path);
	char *slash = strrchr(d, '/');
	if (slash)
		*(slash == d ? slash + 1 : slash) = '\0';
	return d;
}

static char *built_with(const struct bench_engine *e)
{
	if (!e->build)
		return xstrdup("as built there");
	return xasprintf("%s with %s %s in %s", e->build_needed ? "to be built" : "built", jpath_str(e->build, "cc") ?: "?",
			 jpath_str(e->build, "cflags") ?: "(the tree's flags)", jpath_str(e->build, "dir") ?: "?");
}

/* Builds the tree into the cache; a failed build of a built tree leaves
 * its programs as they are, with a note. A plan only looks in the cache. */
static int build_tree(const struct ub_tree *t, const struct applied_profile *p, bool run_script, bool plan,
		      struct bench_engine *out, char **error)
{
	bool flags = p && p->present && (p->cc || p->cflags);
	if (!flags && t->built && !run_script)
		return 0;
	_cleanup_free_ char *cache = cache_dir();
	int r = ubtree_build(t, flags ? p->cc : NULL, flags ? p->cflags : NULL, cache, plan, &out->build, error);
	bool cached = false;
	if (r == 0 && plan && !(jpath_bool(out->build, "cached", &cached) && cached))
		out->build_needed = true;
	if (r < 0 && t->built && !run_script) {
		out->note = xasprintf("%s: its programs run as built there", *error);
		free(*error);
		*error = NULL;
		return 0;
	}
	return r;
}

int engine_unixbench(const char *dir, const struct applied_profile *p, bool run_script, bool plan,
		     struct bench_engine *out, char **error)
{
	*out = (struct bench_engine){ .kind = run_script ? ENGINE_RUN : ENGINE_PROGRAMS };
	struct ub_tree t;
	int r = ubtree_find(dir, &t, error);
	if (r < 0)
		return r;
	r = build_tree(&t, p, run_script, plan, out, error);
	if (r < 0) {
		ubtree_free(&t);
		return r;
	}
	out->prebuilt = !out->build;
	const char *root = out->build ? jpath_str(out->build, "dir") : t.root;
	out->bindir = xasprintf("%s/pgms", root);
	out->input = xasprintf("%s/testdir/sort.src", root);
	out->run = run_script ? xasprintf("%s/Run", root) : NULL;
	out->tree = xstrdup(t.root);
	out->layout = xstrdup(t.layout_name);
	out->max_copies = t.max_copies;
	out->suite = xstrdup("unixbench");
	out->version = xstrdup(t.version);
	_cleanup_free_ char *how = built_with(out);
	out->description = xasprintf(run_script ? "UnixBench %s's own Run (%s tree %s), %s" : "UnixBench %s programs (%s "
												 "tree %s), %s",
				     t.version, t.layout_name, t.root, how);
	ubtree_free(&t);
	return 0;
}

/* dir/ubtune-workloads when it is there, as an absolute path (the copies
 * run in the working directory), else NULL. */
static char *workloads_in(const char *dir)
{
	_cleanup_free_ char *p = xasprintf("%s/%s", dir, WORKLOADS_BINARY);
	return is_executable(p) ? realpath(p, NULL) : NULL;
}

/*
 * The prebuilt workloads: in $UBTUNE_LIBEXECDIR when it is set, else beside
 * ubtune, else the ones a static ubtune carries (written out into the
 * cache: they match this binary, where an older install's libexec
 * directory might not; a plan names the cache and writes nothing), else in
 * the libexec directory. NULL with *error set when there are none.
 */
static char *prebuilt_workloads(bool plan, char **error)
{
	const char *env = getenv("UBTUNE_LIBEXECDIR");
	if (env && *env) {
		char *p = workloads_in(env);
		if (!p)
			*error = xasprintf("UBTUNE_LIBEXECDIR=%s holds no %s", env, WORKLOADS_BINARY);
		return p;
	}
	_cleanup_free_ char *self = self_dir();
	char *p = self ? workloads_in(self) : NULL;
	if (p)
		return p;
	size_t n;
	const struct embedded_file *files = embedded_workloads(&n);
	if (n > 0) {
		_cleanup_free_ char *cache = cache_dir();
		_cleanup_free_ char *dir = NULL;
		if (plan)
			return xasprintf("%s/workloads/embedded-*/%s (carried by ubtune, written out there when the "
					 "run starts)", cache, WORKLOADS_BINARY);
		if (embedded_write_out(files, n, cache, &dir, error) < 0)
			return NULL;
		if ((p = workloads_in(dir)))
			return p;
		*error = xasprintf("the workloads written into %s cannot be run", dir);
		return NULL;
	}
	if ((p = workloads_in(UBTUNE_LIBEXECDIR)))
		return p;
	*error = xasprintf("the workloads program %s is not installed (looked in %s and %s): build it with make, "
			   "or run a real UnixBench tree with --unixbench DIR",
			   WORKLOADS_BINARY, self ? self : "?", UBTUNE_LIBEXECDIR);
	return NULL;
}

/* How the prebuilt program was compiled, as it says itself (ubtune's
 * Makefile builds that into it); NULL when it does not say. */
static json_object *prebuilt_build(const char *binary)
{
	const char *argv[] = { binary, "build-info", NULL };
	_cleanup_free_ char *out = NULL;
	if (spawn_capture(argv, &out) != 0 || !out)
		return NULL;
	_cleanup_free_ char *cc_version = kv_value(out, "cc_version"), *cflags = kv_value(out, "cflags");
	if (!cc_version || !cflags)
		return NULL;
	json_object *b = json_object_new_object();
	jset_str(b, "cc_version", cc_version);
	jset_str(b, "cflags", cflags);
	jset_bool(b, "prebuilt", true);
	return b;
}

/* Compiles when the profile asks for it and it can be done; *note says
 * why not otherwise. 1: compiled, or in a plan found in the cache or to be
 * compiled (e->binary, e->build set), 0: not. */
static int compile_for_profile(const struct applied_profile *p, const char *srcdir, bool plan,
			       struct bench_engine *e, char **note, char **error)
{
	const char *cc = p->cc ? p->cc : "cc";
	_cleanup_free_ char *ccpath = find_program(cc);
	_cleanup_free_ char *make = find_program("make");
	if (!ccpath) {
		*note = xasprintf("the profile's compiler '%s' is not installed: using the prebuilt workloads", cc);
		return 0;
	}
	if (!make) {
		*note = xstrdup("make is not installed, so the workloads cannot be compiled with the profile's "
				"flags: using the prebuilt workloads");
		return 0;
	}
	if (!file_exists(srcdir, "Makefile")) {
		*note = xasprintf("the workload sources are not installed (%s): using the prebuilt workloads", srcdir);
		return 0;
	}
	_cleanup_free_ char *cache = cache_dir();
	_cleanup_free_ char *wcache = xasprintf("%s/workloads", cache);
	int r = workloads_compile(srcdir, wcache, ccpath, p->cflags, plan, &e->build, error);
	if (r < 0)
		return r;
	bool cached = false;
	e->build_needed = plan && !(jpath_bool(e->build, "cached", &cached) && cached);
	e->binary = xasprintf("%s/%s", jpath_str(e->build, "dir"), WORKLOADS_BINARY);
	return 1;
}

int engine_workloads(const struct applied_profile *p, bool plan, struct bench_engine *out, char **error)
{
	*out = (struct bench_engine){ .kind = ENGINE_WORKLOADS };
	_cleanup_free_ char *srcdir = data_path("workloads");
	int compiled = 0;
	if (p && p->present && (p->cc || p->cflags)) {
		compiled = compile_for_profile(p, srcdir, plan, out, &out->note, error);
		if (compiled < 0)
			return compiled;
	}
	if (!compiled) {
		out->binary = prebuilt_workloads(plan, error);
		if (!out->binary)
			return -ENOENT;
		out->prebuilt = true;
		out->build = prebuilt_build(out->binary);
	}
	out->bindir = file_exists(srcdir, "multi.sh") ? xstrdup(srcdir) : dir_of(out->binary);
	out->suite = xstrdup("native");
	out->version = xstrdup(UBTUNE_VERSION);
	if (compiled)
		out->description = xasprintf("ubtune workloads %s with %s %s: %s",
					     out->build_needed ? "to be compiled" : "compiled", jpath_str(out->build, "cc"),
					     jpath_str(out->build, "cflags") ?: "(default flags)", out->binary);
	else if (out->build)
		out->description = xasprintf("ubtune workloads, prebuilt with %s: %s", jpath_str(out->build, "cflags"),
					     out->binary);
	else
		out->description = xasprintf("ubtune workloads, prebuilt: %s", out->binary);
	return 0;
}

json_object *engine_json(const struct bench_engine *e)
{
	json_object *o = json_object_new_object();
	static const char *const kinds[] = { "workloads", "programs", "run" };
	jset_str(o, "kind", kinds[e->kind]);
	jset_str(o, "path", e->kind == ENGINE_WORKLOADS ? e->binary : e->kind == ENGINE_RUN ? e->run : e->bindir);
	jset_str(o, "bindir", e->bindir);
	jset_bool(o, "prebuilt", e->prebuilt);
	jset_str(o, "description", e->description);
	jset_str(o, "note", e->note);
	if (e->tree) {
		jset_str(o, "tree", e->tree);
		jset_str(o, "layout", e->layout);
	}
	return o;
}

void engine_free(struct bench_engine *e)
{
	free(e->binary);
	free(e->bindir);
	free(e->input);
	free(e->suite);
	free(e->version);
	free(e->description);
	free(e->note);
	free(e->tree);
	free(e->layout);
	free(e->run);
	json_object_put(e->build);
	*e = (struct bench_engine){0};
}

void engine_argv(const struct bench_engine *e, const struct ub_test_info *t, bool quick, const char *workdir,
		 struct strv *argv)
{
	if (e->kind == ENGINE_WORKLOADS) {
		strv_push(argv, e->binary);
		strv_push(argv, t->program);
	} else {
		strv_take(argv, xasprintf("%s/%s", e->bindir, t->program));
	}
	ub_expand_args(t, quick, e->kind == ENGINE_WORKLOADS, workdir, e->bindir, argv);
}

char **engine_env(const struct bench_engine *e, bool quick)
{
	extern char **environ;
	static const char *const replaced[] = { "LANG=", "UB_BINDIR=", "UBTUNE_WORKLOADS_QUICK=" };
	struct strv env = {0};
	for (char **v = environ; *v; v++) {
		bool skip = false;
		for (size_t i = 0; i < ARRAY_SIZE(replaced); i++)
			skip = skip || startswith(*v, replaced[i]);
		if (!skip)
			strv_push(&env, *v);
	}
	strv_push(&env, "LANG=en_US.utf8");
	strv_take(&env, xasprintf("UB_BINDIR=%s", e->bindir));
	if (quick && e->kind == ENGINE_WORKLOADS)
		strv_push(&env, "UBTUNE_WORKLOADS_QUICK=1");
	return env.v;
}

static int copy_file(const char *from, const char *to)
{
	_cleanup_close_ int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	_cleanup_close_ int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0)
		return -errno;
	char b[8192];
	ssize_t n;
	while ((n = read(in, b, sizeof(b))) > 0)
		if (write(out, b, (size_t)n) != n)
			return -EIO;
	return n < 0 ? -errno : 0;
}

int engine_prepare_input(const struct bench_engine *e, const char *dir, char **error)
{
	_cleanup_free_ char *target = xasprintf("%s/sort.src", dir);
	if (e->kind == ENGINE_PROGRAMS) {
		int r = copy_file(e->input, target);
		if (r < 0)
			*error = xasprintf("cannot copy the shell tests' input %s to %s: %s", e->input, target,
					   strerror(-r));
		return r;
	}
	const char *argv[] = { e->binary, "shell-input", target, NULL };
	_cleanup_free_ char *out = NULL;
	int r = spawn_capture_all(argv, &out);
	if (r != 0) {
		*error = xasprintf("%s shell-input %s failed: %s", e->binary, target,
				   r < 0 ? strerror(-r) : (out && *out ? strstrip(out) : "no message"));
		return r < 0 ? r : -EIO;
	}
	return 0;
}

/* ---- compiling the workloads into the cache ---- */

/* Every regular file of the source directory, by name and content. */
static int hash_sources(uint64_t *h, const char *srcdir)
{
	_cleanup_closedir_ DIR *d = opendir(srcdir);
	if (!d)
		return -errno;
	struct strv names = {0};
	int r = dir_list_sorted(d, &names);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		_cleanup_free_ char *p = xasprintf("%s/%s", srcdir, names.v[i]);
		_cleanup_close_ int fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > SOURCE_FILE_MAX)
			continue;
		build_hash_str(h, names.v[i]);
		char b[8192];
		ssize_t n;
		while ((n = read(fd, b, sizeof(b))) > 0)
			build_hash(h, b, (size_t)n);
		if (n < 0)
			r = -errno;
	}
	strv_free(&names);
	return r;
}

/* Builds in the key's own directory, so the commands recorded are the ones
 * that made these files. build.json, renamed into place last, marks the
 * build finished: a directory without it is what a cut-short build left,
 * cleared and built again. */
static int build_into(const char *srcdir, const char *dir, const char *cc, const char *cflags, json_object *build,
		      char **error)
{
	remove_tree(dir);
	if (mkdir(dir, 0755) < 0) {
		int r = -errno;
		*error = xasprintf("cannot create %s: %s", dir, strerror(-r));
		return r;
	}
	_cleanup_free_ char *o = xasprintf("O=%s", dir), *ccv = xasprintf("CC=%s", cc);
	_cleanup_free_ char *fl = cflags ? xasprintf("WORKLOAD_CFLAGS=%s", cflags) : NULL;
	const char *argv[] = { "make", "--no-print-directory", "-C", srcdir, o, ccv, fl, NULL };
	_cleanup_free_ char *out = NULL;
	int r = build_run_make(argv, &out);
	_cleanup_free_ char *bin = xasprintf("%s/%s", dir, WORKLOADS_BINARY);
	if (r == -EINTR) {
		remove_tree(dir);
		*error = build_stopped("compiling the workloads", dir);
		return r;
	}
	if (r != 0 || !is_executable(bin)) {
		_cleanup_free_ char *tail = build_output_tail(out);
		*error = xasprintf("compiling the workloads with %s %s failed: %s", cc, cflags ? cflags : "(default flags)",
				   r < 0 ? strerror(-r) : tail);
		remove_tree(dir);
		return r < 0 ? r : -EIO;
	}
	jset(build, "commands", build_commands(out));
	r = build_record_write(dir, build, error);
	if (r < 0)
		remove_tree(dir);
	return r;
}

int workloads_compile(const char *srcdir, const char *cachedir, const char *cc, const char *cflags, bool plan,
		      json_object **build, char **error)
{
	_cleanup_free_ char *version = build_cc_version(cc);
	uint64_t h = BUILD_HASH_INIT;
	build_hash_str(&h, cc);
	build_hash_str(&h, version);
	build_hash_str(&h, cflags);
	int r = hash_sources(&h, srcdir);
	if (r < 0) {
		*error = xasprintf("cannot read the workload sources in %s: %s", srcdir, strerror(-r));
		return r;
	}
	char key[17];
	snprintf(key, sizeof(key), "%016" PRIx64, h);
	_cleanup_free_ char *dir = xasprintf("%s/%s", cachedir, key);
	_cleanup_free_ char *cached_bin = xasprintf("%s/%s", dir, WORKLOADS_BINARY);
	json_object *b = build_record_cached(dir, cached_bin);
	if (b) {
		*build = b;
		return 0;
	}
	b = json_object_new_object();
	jset_str(b, "cc", cc);
	jset_str(b, "cc_version", version);
	jset_str(b, "cflags", cflags);
	jset_str(b, "source", srcdir);
	jset_str(b, "key", key);
	jset_str(b, "dir", dir);
	jset_bool(b, "cached", false);
	if (plan) {
		*build = b;
		return 0;
	}
	r = mkdir_p(cachedir, 0);
	if (r < 0) {
		*error = xasprintf("cannot create the cache %s: %s", cachedir, strerror(-r));
		json_object_put(b);
		return r;
	}
	r = build_into(srcdir, dir, cc, cflags, b, error);
	if (r < 0) {
		json_object_put(b);
		return r;
	}
	*build = b;
	return 0;
}
