/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host: name, kernel, architecture, OS, uptime, load, locale, init system. */
#include <errno.h>
#include <sys/utsname.h>

#include "cpu.h"
#include "lib/machine-id.h"

/* Value of KEY=value (optionally quoted) in an os-release/locale style file. */
static char *env_file_value(struct rootfs *rf, const char *path, const char *key)
{
	_cleanup_free_ char *text = NULL;
	if (rootfs_read(rf, path, &text, NULL) < 0)
		return NULL;
	char *v = kv_value(text, key);
	size_t n = v ? strlen(v) : 0;
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		memmove(v, v + 1, n - 2);
		v[n - 2] = '\0';
	}
	return v;
}

static void collect_kernel(struct probe_ctx *ctx, json_object *host)
{
	_cleanup_free_ char *release = NULL, *version = NULL, *proc_version = NULL;

	if (rootfs_read_line(ctx->rf, "/proc/sys/kernel/osrelease", &release) < 0 ||
	    rootfs_read_line(ctx->rf, "/proc/sys/kernel/version", &version) < 0) {
		free(release);
		free(version);
		release = version = NULL;
		/* "Linux version RELEASE (builder) (compiler...) #1 SMP ..." */
		if (rootfs_read_line(ctx->rf, "/proc/version", &proc_version) == 0) {
			const char *r = startswith(proc_version, "Linux version ");
			if (r) {
				release = xstrndup(r, strcspn(r, " "));
				const char *hash = strstr(r, " #");
				if (hash)
					version = xstrdup(hash + 1);
			}
		}
	}
	if (!release)
		probe_unavailable(ctx, "host", "kernel release: neither /proc/sys/kernel/osrelease nor /proc/version is readable");
	jset_str(host, "kernel_release", release);
	jset_str(host, "kernel_version", version);
}

static void collect_arch(struct probe_ctx *ctx, json_object *host)
{
	_cleanup_free_ char *arch = NULL;
	if (ctx->live) {
		struct utsname u;
		if (uname(&u) == 0)
			arch = xstrdup(u.machine);
	} else {
		arch = probe_gather_meta(ctx, "arch");
		if (!arch) {
			_cleanup_free_ char *cpuinfo = NULL;
			_cleanup_free_ char *order = NULL;
			if (rootfs_read(ctx->rf, "/proc/cpuinfo", &cpuinfo, NULL) == 0)
				arch = xstrdup_or_null(cpuinfo_arch(cpuinfo));
			/* cpuinfo does not tell POWER's byte order; lscpu's file does */
			if (streq_ptr(arch, "ppc64") && rootfs_read_line(ctx->rf, "/sys/kernel/cpu_byteorder", &order) == 0 &&
			    streq(order, "little")) {
				free(arch);
				arch = xstrdup("ppc64le");
			}
		}
	}
	if (!arch)
		probe_unavailable(ctx, "host", "architecture: no uname record and no /proc/cpuinfo in this dump");
	jset_str(host, "arch", arch);
}

/*
 * The init system from PID 1: its command name, then what its executable
 * (or /sbin/init) is. busybox and systemd both show up as links.
 */
static char *detect_init(struct probe_ctx *ctx)
{
	_cleanup_free_ char *comm = NULL, *exe = NULL;
	if (rootfs_read_line(ctx->rf, "/proc/1/comm", &comm) < 0)
		return NULL;
	if (streq(comm, "systemd"))
		return xstrdup("systemd");
	/* /proc/1/exe needs privileges; "init" is busybox's or sysvinit's name */
	if (rootfs_readlink(ctx->rf, "/proc/1/exe", &exe) < 0 && streq(comm, "init"))
		rootfs_realpath(ctx->rf, "/sbin/init", &exe);
	if (exe && strstr(exe, "busybox"))
		return xstrdup("busybox");
	if (exe && strstr(exe, "systemd"))
		return xstrdup("systemd");
	if (exe && strstr(exe, "openrc-init"))
		return xstrdup("openrc");
	if (streq(comm, "init")) {
		if (rootfs_exists(ctx->rf, "/run/openrc") == 0)
			return xstrdup("openrc");
		return xstrdup("sysvinit");
	}
	return TAKE_PTR(comm);
}

/*
 * The kernel's name, else /etc/hostname. "(none)" is what the kernel says
 * until something sets a name (a board whose init never does), not a name.
 */
static char *read_hostname(struct probe_ctx *ctx)
{
	char *name = NULL;
	bool unset = false;
	if (rootfs_read_line(ctx->rf, "/proc/sys/kernel/hostname", &name) == 0) {
		if (!streq(name, "(none)"))
			return name;
		unset = true;
		free(name);
		name = NULL;
	}
	if (rootfs_read_line(ctx->rf, "/etc/hostname", &name) == 0)
		return name;
	if (unset)
		probe_unavailable(ctx, "host", "hostname: not set (the kernel says \"(none)\"), and /etc/hostname is missing");
	else
		probe_unavailable(ctx, "host", "hostname: /proc/sys/kernel/hostname and /etc/hostname are missing");
	return NULL;
}

/*
 * The machine's own id, derived from its machine id (lib/machine-id.h): a
 * dump keeps the derived one (GATHER_META machine-id=), never the machine
 * id itself. Fleets tell their hosts apart by it, not by their names.
 */
static char *read_machine_id(struct probe_ctx *ctx)
{
	static const char *const files[] = { "/etc/machine-id", "/var/lib/dbus/machine-id" };
	char *kept = probe_gather_meta(ctx, "machine-id");
	if (kept && machine_id_valid(kept))
		return kept;
	free(kept);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		_cleanup_free_ char *raw = NULL;
		if (rootfs_read_line(ctx->rf, files[i], &raw) < 0)
			continue;
		if (!machine_id_valid(raw)) {
			probe_unavailable(ctx, "host", "machine id: %s is not a machine id (32 hex digits)", files[i]);
			return NULL;
		}
		char *id = xmalloc(MACHINE_ID_LEN + 1);
		machine_id_derive(raw, id);
		return id;
	}
	probe_unavailable(ctx, "host", "machine id: /etc/machine-id and /var/lib/dbus/machine-id are missing");
	return NULL;
}

int host_collect(struct probe_ctx *ctx)
{
	json_object *host = jchild(ctx->rec, "host");
	_cleanup_free_ char *hostname = NULL, *os = NULL, *uptime = NULL, *loadavg = NULL, *locale = NULL,
			    *init = NULL;

	hostname = read_hostname(ctx);
	jset_str(host, "hostname", hostname);
	_cleanup_free_ char *machine_id = read_machine_id(ctx);
	jset_str(host, "machine_id", machine_id);

	collect_kernel(ctx, host);
	collect_arch(ctx, host);

	os = env_file_value(ctx->rf, "/etc/os-release", "PRETTY_NAME");
	if (!os)
		os = env_file_value(ctx->rf, "/usr/lib/os-release", "PRETTY_NAME");
	jset_str(host, "os", os);

	if (rootfs_read_line(ctx->rf, "/proc/uptime", &uptime) == 0) {
		double up;
		uptime[strcspn(uptime, " ")] = '\0';
		if (parse_double(uptime, &up) == 0)
			jset_int(host, "uptime_s", (int64_t)up);
		else
			jset_null(host, "uptime_s");
	} else {
		jset_null(host, "uptime_s");
		probe_unavailable(ctx, "host", "uptime: /proc/uptime is missing");
	}

	if (rootfs_read_line(ctx->rf, "/proc/loadavg", &loadavg) == 0) {
		json_object *la = json_object_new_array();
		char *save = NULL, *tok = strtok_r(loadavg, " ", &save);
		for (int i = 0; i < 3 && tok; i++, tok = strtok_r(NULL, " ", &save)) {
			double v;
			json_object_array_add(la, parse_double(tok, &v) == 0 ? json_object_new_double(v) : NULL);
		}
		jset(host, "load_avg", la);
	} else {
		jset_null(host, "load_avg");
		probe_unavailable(ctx, "host", "load average: /proc/loadavg is missing");
	}

	locale = env_file_value(ctx->rf, "/etc/locale.conf", "LANG");
	if (!locale)
		locale = env_file_value(ctx->rf, "/etc/default/locale", "LANG");
	jset_str(host, "locale", locale);

	init = detect_init(ctx);
	if (!init)
		probe_unavailable(ctx, "host", "init system: /proc/1/comm is not readable");
	jset_str(host, "init", init);
	limits_collect(ctx, host);
	return 0;
}

static void format_uptime(int64_t s, char *buf, size_t n)
{
	if (s < 3600)
		snprintf(buf, n, "up %lld min", (long long)(s / 60));
	else if (s < 86400 * 2)
		snprintf(buf, n, "up %lld h %lld min", (long long)(s / 3600), (long long)(s % 3600 / 60));
	else
		snprintf(buf, n, "up %lld days", (long long)(s / 86400));
}

void host_render(const struct env_record *env, FILE *out)
{
	const struct env_host *h = &env->host;
	struct buf b = {0};
	const char *parts[] = { h->hostname, h->os, h->kernel_release, h->arch };
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (parts[i])
			buf_printf(&b, "%s%s", b.len ? " · " : "", parts[i]);
	if (h->uptime_s.known) {
		char s[64];
		format_uptime(h->uptime_s.v, s, sizeof(s));
		buf_printf(&b, "%s%s", b.len ? " · " : "", s);
	}
	if (h->load_avg.n && h->load_avg.v[0].known)
		buf_printf(&b, " · load %.2f", h->load_avg.v[0].v);
	render_line(out, "Host", "%s", b.s ? b.s : "unknown");
	buf_free(&b);
	limits_render(env, out);
}
