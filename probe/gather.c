/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `ubtune gather` puts into an archive. Several trace entries may
 * name one path (read twice, listed and read, a parent made implicitly):
 * the strongest kind of evidence wins, so a file that was read keeps its
 * content even when a listing of its directory saw it too.
 */
#include "gather.h"

#include <errno.h>

#include "probe.h"
#include "services.h"

enum strength {
	FROM_PARENT,	/* directory above something kept */
	FROM_LISTING,	/* entry of a directory that was listed */
	FROM_LOOK,	/* listed directory, or a path only looked at */
	FROM_READ,	/* file read, symlink followed */
	FROM_RECORD,	/* facts from the record (/.ubtune/...) */
};

struct candidate {
	struct tar_item item; /* item.path is absolute here */
	enum strength strength;
};

struct candidates {
	struct candidate *v;
	size_t n, cap;
};

static void add(struct candidates *c, const char *path, enum strength s, enum tar_kind kind, const char *data,
		size_t len, const char *target)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->v = xrealloc(c->v, c->cap * sizeof(*c->v));
	}
	struct tar_item it = { .path = xstrdup(path), .kind = kind, .len = len };
	if (data) {
		it.data = xmalloc(len + 1);
		memcpy(it.data, data, len);
		it.data[len] = '\0';
	}
	it.target = xstrdup_or_null(target);
	c->v[c->n++] = (struct candidate){ it, s };
}

static void item_free(struct tar_item *it)
{
	free(it->path);
	free(it->data);
	free(it->target);
}

static void add_text(struct candidates *c, const char *path, const char *text)
{
	if (text)
		add(c, path, FROM_RECORD, TAR_FILE, text, strlen(text), NULL);
}

/* A path as it is now: symlink (with target), directory or other. */
static void add_as_found(struct candidates *c, struct rootfs *view, const char *path, enum strength s)
{
	struct stat st;
	_cleanup_free_ char *target = NULL;
	if (rootfs_lstat(view, path, &st) < 0)
		return;
	if (S_ISLNK(st.st_mode)) {
		if (rootfs_readlink(view, path, &target) == 0)
			add(c, path, s, TAR_SYMLINK, NULL, 0, target);
	} else {
		add(c, path, s, S_ISDIR(st.st_mode) ? TAR_DIR : TAR_FILE, NULL, 0, NULL);
	}
}

static void add_listing(struct candidates *c, struct rootfs *view, const char *dir)
{
	struct strv names = {0};
	add(c, dir, FROM_LOOK, TAR_DIR, NULL, 0, NULL);
	if (rootfs_list(view, dir, &names) < 0)
		return;
	for (size_t i = 0; i < names.n; i++) {
		_cleanup_free_ char *child = xasprintf("%s/%s", streq(dir, "/") ? "" : dir, names.v[i]);
		add_as_found(c, view, child, FROM_LISTING);
	}
	strv_free(&names);
}

/* Files the probe reads that a dump must not carry: the machine id, which
 * machine-id(5) asks to keep on the machine (GATHER_META has the id derived
 * from it). */
static const char *const kept_back[] = { "/etc/machine-id", "/var/lib/dbus/machine-id" };

/* Returns false when a file's bytes cannot be had. */
static bool add_traced(struct candidates *c, struct rootfs *view, const struct rootfs_trace_entry *e)
{
	_cleanup_free_ char *text = NULL, *target = NULL;
	size_t len = 0;
	for (size_t i = 0; i < ARRAY_SIZE(kept_back); i++)
		if (streq(e->path, kept_back[i]))
			return true;
	switch (e->kind) {
	case TRACE_FILE:
		if (e->data) {
			add(c, e->path, FROM_READ, TAR_FILE, e->data, e->len, NULL);
			return true;
		}
		/* opened but read elsewhere: read it again */
		if (rootfs_read(view, e->path, &text, &len) < 0)
			return false;
		add(c, e->path, FROM_READ, TAR_FILE, text, len, NULL);
		return true;
	case TRACE_LINK:
		if (rootfs_readlink(view, e->path, &target) == 0)
			add(c, e->path, FROM_READ, TAR_SYMLINK, NULL, 0, target);
		return true;
	case TRACE_DIR:
		add_listing(c, view, e->path);
		return true;
	case TRACE_EXISTS:
		add_as_found(c, view, e->path, FROM_LOOK);
		return true;
	}
	return true;
}

static void add_parents(struct candidates *c)
{
	size_t n = c->n;
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *p = xstrdup(c->v[i].item.path);
		for (char *slash = strrchr(p, '/'); slash && slash != p; slash = strrchr(p, '/')) {
			*slash = '\0';
			add(c, p, FROM_PARENT, TAR_DIR, NULL, 0, NULL);
		}
	}
}

static int candidate_cmp(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;
	int r = strcmp(x->item.path, y->item.path);
	return r ? r : (int)y->strength - (int)x->strength;
}

static void kv_line(struct buf *b, const char *key, const char *value)
{
	if (value)
		buf_printf(b, "%s=%s\n", key, value);
}

/* The reason the record gives for what area could not read, starting with prefix; NULL. */
static const char *unavailable_reason(const struct env_record *env, const char *prefix)
{
	for (size_t i = 0; i < env->unavailable.n; i++) {
		const char *why = env->unavailable.v[i].reason;
		if (why && startswith(why, prefix))
			return why;
	}
	return NULL;
}

char *gather_meta_text(const struct env_record *env, time_t now)
{
	struct buf b = {0};
	_cleanup_free_ char *created = iso8601_utc(now);
	kv_line(&b, "version", UBTUNE_VERSION);
	kv_line(&b, "created", created);
	kv_line(&b, "hostname", env->host.hostname);
	/* the derived id: the machine id itself stays on the machine */
	kv_line(&b, "machine-id", env->host.machine_id);
	kv_line(&b, "arch", env->host.arch);
	kv_line(&b, "workdir", env->storage.workdir);
	/* the kernel log has no file on a live machine: keep why it was missing */
	for (size_t i = 0; i < env->unavailable.n; i++)
		if (streq_ptr(env->unavailable.v[i].area, "kernel-log")) {
			kv_line(&b, "kernel-log-unavailable", env->unavailable.v[i].reason);
			break;
		}
	/* the measured clock of each kind, or why it was not measured */
	for (size_t i = 0; i < env->cpu.kinds.n; i++) {
		const struct env_cpu_kind *k = &env->cpu.kinds.v[i];
		if (!k->measured_cpu.known)
			continue;
		long long cpu = (long long)k->measured_cpu.v;
		if (k->measured_khz.known) {
			buf_printf(&b, "clock-cpu%lld=%lld\n", cpu, (long long)k->measured_khz.v);
			continue;
		}
		_cleanup_free_ char *prefix = xasprintf("measured clock of %s: ", k->model ?: "a kind of core");
		const char *why = unavailable_reason(env, prefix);
		if (why)
			buf_printf(&b, "clock-why-cpu%lld=%s\n", cpu, why + strlen(prefix));
	}
	/* the audit rules come from a command: their count, or why there is none */
	const struct env_audit *audit = &env->host.audit;
	if (audit->rules.known && audit->syscall_rules.known)
		buf_printf(&b, "audit-rules=%lld\naudit-syscall-rules=%lld\n", (long long)audit->rules.v,
			   (long long)audit->syscall_rules.v);
	for (size_t i = 0; i < env->unavailable.n; i++) {
		const char *why = env->unavailable.v[i].reason;
		if (why && startswith(why, "audit rules: "))
			kv_line(&b, "audit-unavailable", why);
	}
	return buf_steal(&b);
}

/* GATHER_CPUID from virt.cpuid {hypervisor_bit, vendor}; NULL without it. */
static char *cpuid_text(const struct env_record *env)
{
	typeof(env->virt.cpuid) *cpuid = &env->virt.cpuid;
	if (!cpuid->json)
		return NULL;
	struct buf b = {0};
	if (cpuid->hypervisor_bit.known)
		buf_printf(&b, "hypervisor_bit=%d\n", cpuid->hypervisor_bit.v);
	kv_line(&b, "vendor", cpuid->vendor);
	return b.len ? buf_steal(&b) : NULL;
}

/* GATHER_TOOLCHAIN from toolchain.*; NULL when nothing is known. */
static char *toolchain_text(const struct env_record *env)
{
	const struct env_toolchain *tc = &env->toolchain;
	struct buf b = {0};
	kv_line(&b, "cc", tc->cc);
	kv_line(&b, "cc_version", tc->cc_version);
	kv_line(&b, "libc", tc->libc);
	kv_line(&b, "libc_version", tc->libc_version);
	return b.len ? buf_steal(&b) : NULL;
}

static void add_record_files(struct candidates *c, json_object *rec, const struct env_record *env, time_t now)
{
	_cleanup_free_ char *meta = gather_meta_text(env, now), *cpuid = cpuid_text(env),
			    *toolchain = toolchain_text(env), *units = units_file_format(env);
	_cleanup_free_ char *record = xasprintf("%s\n", jdump(rec, true));
	add_text(c, GATHER_META, meta);
	add_text(c, GATHER_CPUID, cpuid);
	add_text(c, GATHER_TOOLCHAIN, toolchain);
	add_text(c, GATHER_UNITS, units);
	add_text(c, GATHER_RECORD, record);
	/* the benchmark directory must exist in the dump */
	const char *workdir = env->storage.workdir;
	if (workdir && workdir[0] == '/' && workdir[1])
		add(c, workdir, FROM_LOOK, TAR_DIR, NULL, 0, NULL);
}

int gather_build(json_object *rec, struct rootfs *rf, time_t now, struct gather *g, char **error)
{
	_cleanup_rootfs_ struct rootfs *view = NULL;
	struct candidates c = {0};
	size_t n;

	*g = (struct gather){0};
	struct env_record env;
	int r = env_decode(rec, "", &env, error);
	if (r < 0)
		return r;
	/* a second, untraced view of the same root for what the trace lacks */
	r = rootfs_new(rootfs_path(rf), &view);
	if (r < 0) {
		*error = xasprintf("root %s: %s", rootfs_path(rf), strerror(-r));
		env_record_free(&env);
		return r;
	}
	add_record_files(&c, rec, &env, now);
	env_record_free(&env);
	const struct rootfs_trace_entry *trace = rootfs_trace_entries(rf, &n);
	for (size_t i = 0; i < n; i++)
		if (!add_traced(&c, view, &trace[i]))
			g->unreadable++;
	add_parents(&c);
	qsort(c.v, c.n, sizeof(*c.v), candidate_cmp);

	/* the strongest of each path comes first; the others go */
	bool *keep = xcalloc(c.n + 1, sizeof(*keep));
	for (size_t i = 0; i < c.n; i++)
		keep[i] = (i == 0 || !streq(c.v[i].item.path, c.v[i - 1].item.path)) && !streq(c.v[i].item.path, "/");
	g->items = xcalloc(c.n + 1, sizeof(*g->items));
	for (size_t i = 0; i < c.n; i++) {
		struct tar_item *it = &c.v[i].item;
		if (!keep[i]) {
			item_free(it);
			continue;
		}
		char *rel = xstrdup(it->path + 1);
		free(it->path);
		it->path = rel;
		g->bytes += it->len;
		g->items[g->n++] = *it;
	}
	free(keep);
	free(c.v);
	return 0;
}

void gather_free(struct gather *g)
{
	for (size_t i = 0; i < g->n; i++)
		item_free(&g->items[i]);
	free(g->items);
	*g = (struct gather){0};
}
