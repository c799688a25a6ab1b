/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "probe.h"

#include <errno.h>
#include <limits.h>
#include <time.h>

#include "findings.h"
#include "lib/term.h"

const struct probe_area probe_areas[] = {
	{ "host", host_collect, host_render },
	{ "cpu", cpu_collect, cpu_render },
	{ "memory", memory_collect, memory_render },
	{ "virt", virt_collect, virt_render },
	{ "power", power_collect, power_render },
	{ "storage", storage_collect, storage_render },
	{ "numa", numa_collect, numa_render },
	{ "cgroup", cgroup_collect, cgroup_render },
	{ "services", services_collect, services_render },
	{ "toolchain", toolchain_collect, toolchain_render },
};
const size_t probe_n_areas = ARRAY_SIZE(probe_areas);

char *probe_gather_meta(struct probe_ctx *ctx, const char *key)
{
	_cleanup_free_ char *meta = NULL;
	if (ctx->live || rootfs_read(ctx->rf, GATHER_META, &meta, NULL) < 0)
		return NULL;
	return kv_value(meta, key);
}

void probe_unavailable(struct probe_ctx *ctx, const char *area, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *reason = xvasprintf(fmt, ap);
	va_end(ap);

	json_object *e = json_object_new_object();
	jset_str(e, "area", area);
	jset_str(e, "reason", reason);
	json_object_array_add(ctx->unavailable, e);
}

void render_line(FILE *out, const char *label, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *text = xvasprintf(fmt, ap);
	va_end(ap);
	fprintf(out, "%-10s", label ? label : "");
	/* a fact per item: a long line breaks between them */
	term_print_items(out, text, " \xc2\xb7 ", 10, term_width(out));
}

/* A dump must look like one: a directory with proc/ or sys/ in it. */
static int check_dump(struct rootfs *rf)
{
	struct stat st;
	if (rootfs_stat(rf, "/proc", &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	if (rootfs_stat(rf, "/sys", &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	return -ENOMEDIUM;
}

/* Normalises "a//b/./c/../d/" to "/a/b/d" without touching the disk. */
static char *normalize_path(const char *path)
{
	struct buf b = {0};
	_cleanup_free_ char *copy = xstrdup(path);
	char *save = NULL;
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (streq(c, "."))
			continue;
		if (streq(c, "..")) {
			char *slash = b.s ? strrchr(b.s, '/') : NULL;
			if (slash) {
				*slash = '\0';
				b.len = (size_t)(slash - b.s);
			}
			continue;
		}
		buf_printf(&b, "/%s", c);
	}
	if (!b.len)
		buf_puts(&b, "/");
	return buf_steal(&b);
}

/*
 * The benchmark directory: on the live machine it must exist and is made
 * absolute; in a dump it is a path inside the dump (default: the one
 * recorded by gather, else "/"), and must exist there too.
 */
static int resolve_workdir(struct probe_ctx *ctx, const char *workdir)
{
	if (ctx->live) {
		char *abs = realpath(workdir ? workdir : ".", NULL);
		if (!abs)
			return -errno;
		struct stat st;
		if (stat(abs, &st) < 0 || !S_ISDIR(st.st_mode)) {
			free(abs);
			return -ENOTDIR;
		}
		ctx->workdir = abs;
		return 0;
	}

	_cleanup_free_ char *recorded = NULL;
	if (!workdir) {
		recorded = probe_gather_meta(ctx, "workdir");
		workdir = recorded && recorded[0] == '/' ? recorded : "/";
	}
	if (workdir[0] != '/')
		return -EINVAL;
	ctx->workdir = normalize_path(workdir);
	struct stat st;
	int r = rootfs_stat(ctx->rf, ctx->workdir, &st);
	if (r < 0)
		return r;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int probe_collect(const struct probe_opts *opts, json_object **rec_out, struct rootfs **rf_out,
		  char **error)
{
	struct probe_ctx ctx = {0};
	int r;

	*error = NULL;
	r = rootfs_new(opts->root, &ctx.rf);
	if (r < 0) {
		*error = xasprintf("root %s: %s", opts->root, strerror(-r));
		return r;
	}
	ctx.live = rootfs_is_live(ctx.rf);
	if (opts->trace)
		rootfs_trace_start(ctx.rf);
	if (!ctx.live && (r = check_dump(ctx.rf)) < 0) {
		*error = xasprintf("root %s does not look like a machine dump: it has neither proc/ nor sys/",
				   rootfs_path(ctx.rf));
		goto out;
	}
	if (!ctx.live && (r = dump_check(rootfs_path(ctx.rf), &ctx.links_leave_dump, error)) < 0) {
		if (!*error)
			*error = xasprintf("root %s: %s", rootfs_path(ctx.rf), strerror(-r));
		goto out;
	}
	if ((r = resolve_workdir(&ctx, opts->workdir)) < 0) {
		const char *w = opts->workdir ? opts->workdir : ".";
		if (ctx.live)
			*error = xasprintf("workdir %s: %s", w, strerror(-r));
		else
			*error = xasprintf("workdir %s (inside root %s): %s", w, rootfs_path(ctx.rf),
					   r == -EINVAL ? "must be an absolute path" : strerror(-r));
		goto out;
	}

	ctx.rec = json_object_new_object();
	ctx.unavailable = json_object_new_array();
	jset_str(ctx.rec, "schema", PROBE_SCHEMA);
	char *now = iso8601_utc(time(NULL));
	jset_str(ctx.rec, "generated_at", now);
	free(now);
	jset_str(ctx.rec, "root", rootfs_path(ctx.rf));
	jset(ctx.rec, "unavailable", ctx.unavailable);

	if (ctx.live)
		toolchain_start(&ctx);
	for (size_t i = 0; i < probe_n_areas; i++) {
		r = probe_areas[i].collect(&ctx);
		if (r < 0)
			probe_unavailable(&ctx, probe_areas[i].name, "%s", strerror(-r));
	}
	findings_evaluate(ctx.rec);

	*rec_out = TAKE_PTR(ctx.rec);
	if (rf_out)
		*rf_out = TAKE_PTR(ctx.rf);
	r = 0;
out:
	toolchain_reap(&ctx);
	json_object_put(ctx.rec);
	free(ctx.workdir);
	free(ctx.klog);
	probe_procs_free(&ctx);
	if (ctx.rf)
		rootfs_free(ctx.rf);
	return r;
}

static void render_unavailable(const struct env_record *env, FILE *out)
{
	if (env->unavailable.n == 0)
		return;
	fprintf(out, "\nNot available\n");
	for (size_t i = 0; i < env->unavailable.n; i++) {
		fprintf(out, "  %-10s ", env->unavailable.v[i].area);
		term_print_wrapped(out, env->unavailable.v[i].reason ?: "", 13, term_width(out));
	}
}

void probe_render(const struct env_record *env, FILE *out)
{
	if (!streq_ptr(env->root, "/"))
		render_line(out, "Dump", "%s", env->root);
	for (size_t i = 0; i < probe_n_areas; i++)
		probe_areas[i].render(env, out);
	render_unavailable(env, out);
	findings_render(env, out);
}
