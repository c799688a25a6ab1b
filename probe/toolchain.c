/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Toolchain: the C compiler `cc` and the C library. On the live machine
 * they are asked (cc --version, the libc the system runs); a dump carries
 * what gather recorded in /.ubtune/toolchain.
 */
#include <ctype.h>
#include <errno.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "lib/spawn.h"
#include "probe.h"

/*
 * First line of `cc --version`: "gcc (Debian 12.2.0-14) 12.2.0",
 * "cc (GCC) 13.2.1 20230801", "Debian clang version 14.0.6",
 * "aarch64-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0".
 */
void toolchain_parse_cc_version(const char *line, char **name, char **version)
{
	*name = xstrdup(strstr(line, "clang") ? "clang" : strstr(line, "tcc") ? "tcc" : "gcc");
	*version = NULL;
	const char *v = strstr(line, "version ");
	if (v && streq(*name, "clang")) {
		v += strlen("version ");
		*version = xstrndup(v, strcspn(v, " "));
		return;
	}
	/* gcc: the first token that is a dotted number, not a package
	 * version ("12.2.0-14)") or a date ("20230801") */
	_cleanup_free_ char *copy = xstrdup(line);
	char *save = NULL;
	for (char *t = strtok_r(copy, " ", &save); t && !*version; t = strtok_r(NULL, " ", &save))
		if (isdigit((unsigned char)t[0]) && strchr(t, '.') && !strchr(t, '-') && !strchr(t, ')'))
			*version = xstrdup(t);
}

/* `cc --version` takes a few milliseconds: it runs while the other areas
 * are collected. */
void toolchain_start(struct probe_ctx *ctx)
{
	const char *cc = getenv("CC");
	const char *argv[] = { cc && *cc && !strchr(cc, ' ') ? cc : "cc", "--version", NULL };
	ctx->cc_running = spawn_begin(argv, false, &ctx->cc_job) == 0;
}

static int cc_finish(struct probe_ctx *ctx, char **out)
{
	if (!ctx->cc_running)
		return -ECHILD;
	ctx->cc_running = false;
	return spawn_finish(&ctx->cc_job, out);
}

void toolchain_reap(struct probe_ctx *ctx)
{
	_cleanup_free_ char *out = NULL;
	cc_finish(ctx, &out);
}

static void live_cc(struct probe_ctx *ctx, char **name, char **version)
{
	_cleanup_free_ char *out = NULL;
	*name = *version = NULL;
	if (cc_finish(ctx, &out) != 0 || !out)
		return;
	out[strcspn(out, "\n")] = '\0';
	toolchain_parse_cc_version(out, name, version);
}

static void live_libc(char **name, char **version)
{
	*name = *version = NULL;
#if defined(__GLIBC__) && !defined(UBTUNE_STATIC)
	*name = xstrdup("glibc");
	*version = xstrdup(gnu_get_libc_version());
#else
	/* A static binary carries its own libc: ask the system's. */
	_cleanup_free_ char *out = NULL;
	const char *getconf[] = { "getconf", "GNU_LIBC_VERSION", NULL };
	if (spawn_capture(getconf, &out) == 0 && startswith(out, "glibc ")) {
		*name = xstrdup("glibc");
		*version = xstrndup(out + 6, strcspn(out + 6, "\n"));
		return;
	}
	free(out);
	out = NULL;
	const char *ldd[] = { "ldd", "--version", NULL };
	spawn_capture(ldd, &out);
	const char *v = out ? strstr(out, "Version ") : NULL;
	if (out && strstr(out, "musl")) {
		*name = xstrdup("musl");
		if (v)
			*version = xstrndup(v + 8, strcspn(v + 8, "\n"));
	}
#endif
}

int toolchain_collect(struct probe_ctx *ctx)
{
	json_object *tc = jchild(ctx->rec, "toolchain");
	_cleanup_free_ char *cc = NULL, *cc_version = NULL, *libc = NULL, *libc_version = NULL;

	if (ctx->live) {
		live_cc(ctx, &cc, &cc_version);
		live_libc(&libc, &libc_version);
		if (!cc)
			probe_unavailable(ctx, "toolchain", "no C compiler: `cc --version` did not run");
		/* only a static ubtune asks; a board may have no shared C library at all */
		if (!libc)
			probe_unavailable(ctx, "toolchain", "C library: neither `getconf GNU_LIBC_VERSION` nor "
					  "`ldd --version` named one (this ubtune is static and carries its own)");
	} else {
		_cleanup_free_ char *text = NULL;
		if (rootfs_read(ctx->rf, GATHER_TOOLCHAIN, &text, NULL) == 0) {
			cc = kv_value(text, "cc");
			cc_version = kv_value(text, "cc_version");
			libc = kv_value(text, "libc");
			libc_version = kv_value(text, "libc_version");
		} else {
			probe_unavailable(ctx, "toolchain", "not recorded in this dump (" GATHER_TOOLCHAIN ")");
		}
	}
	jset_str(tc, "cc", cc);
	jset_str(tc, "cc_version", cc_version);
	jset_str(tc, "libc", libc);
	jset_str(tc, "libc_version", libc_version);
	return 0;
}

void toolchain_render(const struct env_record *env, FILE *out)
{
	const char *cc = env->toolchain.cc, *ccv = env->toolchain.cc_version;
	const char *libc = env->toolchain.libc, *libcv = env->toolchain.libc_version;
	if (!cc && !libc)
		return;
	render_line(out, "Toolchain", "%s%s%s · %s%s%s", cc ? cc : "no compiler", ccv ? " " : "", ccv ? ccv : "",
		    libc ? libc : "libc unknown", libcv ? " " : "", libcv ? libcv : "");
}
