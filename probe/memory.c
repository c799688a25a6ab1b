/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Memory: total, available, swap, transparent huge pages. */
#include "probe.h"

/* "MemTotal:       16314164 kB" -> 16314164; -1 when absent. */
static int64_t meminfo_kib(const char *meminfo, const char *key)
{
	size_t klen = strlen(key);
	for (const char *l = meminfo; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, klen) != 0 || l[klen] != ':')
			continue;
		char *end;
		long long v = strtoll(l + klen + 1, &end, 10);
		return end == l + klen + 1 || v < 0 ? -1 : v;
	}
	return -1;
}

static void set_kib(json_object *o, const char *key, int64_t v)
{
	if (v >= 0)
		jset_int(o, key, v);
	else
		jset_null(o, key);
}

int memory_collect(struct probe_ctx *ctx)
{
	json_object *mem = jchild(ctx->rec, "memory");
	_cleanup_free_ char *meminfo = NULL, *thp = NULL;
	int r = rootfs_read(ctx->rf, "/proc/meminfo", &meminfo, NULL);

	if (r < 0) {
		probe_unavailable(ctx, "memory", "/proc/meminfo: %s", strerror(-r));
		meminfo = xstrdup("");
	}
	int64_t total = meminfo_kib(meminfo, "MemTotal");
	int64_t avail = meminfo_kib(meminfo, "MemAvailable");
	int64_t swap_total = meminfo_kib(meminfo, "SwapTotal");
	int64_t swap_free = meminfo_kib(meminfo, "SwapFree");

	set_kib(mem, "total_kib", total);
	set_kib(mem, "available_kib", avail);
	set_kib(mem, "swap_total_kib", swap_total);
	set_kib(mem, "swap_used_kib", swap_total >= 0 && swap_free >= 0 ? swap_total - swap_free : -1);
	if (r == 0 && avail < 0)
		probe_unavailable(ctx, "memory", "/proc/meminfo has no MemAvailable (kernel older than 3.14)");

	/* a kernel built without THP has no such file: null */
	(void)rootfs_read_choice(ctx->rf, "/sys/kernel/mm/transparent_hugepage/enabled", &thp, NULL);
	jset_str(mem, "thp", thp);
	return 0;
}

void memory_render(const struct env_record *env, FILE *out)
{
	const struct env_memory *m = &env->memory;
	struct buf b = {0};
	char s[32];

	if (m->total_kib.known) {
		kib_text(m->total_kib.v, s, sizeof(s));
		buf_puts(&b, s);
	} else {
		buf_puts(&b, "size unknown");
	}
	if (m->available_kib.known) {
		kib_text(m->available_kib.v, s, sizeof(s));
		buf_printf(&b, ", %s available", s);
	}
	if (m->swap_total_kib.known) {
		if (m->swap_total_kib.v == 0) {
			buf_puts(&b, " · no swap");
		} else {
			kib_text(m->swap_total_kib.v, s, sizeof(s));
			buf_printf(&b, " · swap %s", s);
			if (m->swap_used_kib.known) {
				kib_text(m->swap_used_kib.v, s, sizeof(s));
				buf_printf(&b, ", %s used", s);
			}
		}
	}
	if (m->thp)
		buf_printf(&b, " · THP %s", m->thp);
	render_line(out, "Memory", "%s", b.s);
	buf_free(&b);
}
