/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What wakes slowly or clocks down behind cpufreq's back: the cpuidle
 * states of the first online CPU (their exit latency is what Pipe-based
 * Context Switching and Process Creation wait for on an idle machine) and
 * the devfreq devices, the memory controller's DRAM clock among them.
 */
#include "cpu.h"
#include "lib/hw.h"
#include "power.h"

static json_object *number_or_null(struct rootfs *rf, const char *dir, const char *name)
{
	_cleanup_free_ char *path = xasprintf("%s/%s", dir, name);
	uint64_t v;
	return rootfs_read_u64(rf, path, &v) == 0 ? json_object_new_int64((int64_t)v) : NULL;
}

/* The words of DIR/NAME as strings, or as numbers (numbers: every word one). */
static json_object *words_or_null(struct rootfs *rf, const char *dir, const char *name, bool numbers)
{
	_cleanup_free_ char *v = rootfs_read_attr(rf, dir, name);
	if (!v)
		return NULL;
	json_object *a = json_object_new_array();
	struct strv words = {0};
	strv_split(v, " \t", &words);
	for (size_t i = 0; i < words.n; i++) {
		uint64_t n;
		if (!numbers)
			jarr_add_str(a, words.v[i]);
		else if (parse_u64(words.v[i], &n) == 0)
			json_object_array_add(a, json_object_new_int64((int64_t)n));
	}
	strv_free(&words);
	return a;
}

/* ---- cpuidle ---- */

static json_object *idle_state(struct rootfs *rf, const char *dir)
{
	json_object *s = json_object_new_object();
	_cleanup_free_ char *name = hw_label_attr(rf, dir, "name"), *desc = hw_label_attr(rf, dir, "desc");
	jset_str(s, "name", name);
	jset_str(s, "desc", desc);
	jset(s, "latency_us", number_or_null(rf, dir, "latency"));
	jset(s, "residency_us", number_or_null(rf, dir, "residency"));
	jset(s, "usage", number_or_null(rf, dir, "usage"));
	jset(s, "time_us", number_or_null(rf, dir, "time"));
	_cleanup_free_ char *path = xasprintf("%s/disable", dir);
	uint64_t off;
	if (rootfs_read_u64(rf, path, &off) == 0)
		jset_bool(s, "disabled", off != 0);
	else
		jset_null(s, "disabled");
	return s;
}

void idle_collect(struct probe_ctx *ctx, json_object *cpu, unsigned first_cpu)
{
	json_object *idle = jchild(cpu, "idle");
	_cleanup_free_ char *driver = hw_label_attr(ctx->rf, HW_CPU_DIR "/cpuidle", "current_driver");
	_cleanup_free_ char *gov = hw_label_attr(ctx->rf, HW_CPU_DIR "/cpuidle", "current_governor");
	if (!gov)
		gov = hw_label_attr(ctx->rf, HW_CPU_DIR "/cpuidle", "current_governor_ro");
	jset_str(idle, "driver", driver);
	jset_str(idle, "governor", gov);
	jset_int(idle, "cpu", first_cpu);
	struct strv dirs = {0};
	if (hw_idle_states(ctx->rf, first_cpu, &dirs) < 0) {
		jset_null(idle, "states");
		jset_null(idle, "deepest_latency_us");
		return;
	}
	json_object *states = json_object_new_array();
	int64_t deepest = -1;
	for (size_t i = 0; i < dirs.n; i++) {
		json_object *s = idle_state(ctx->rf, dirs.v[i]);
		int64_t lat;
		bool off = false;
		jpath_bool(s, "disabled", &off);
		if (!off && jpath_int(s, "latency_us", &lat) && lat > deepest)
			deepest = lat;
		json_object_array_add(states, s);
	}
	strv_free(&dirs);
	jset(idle, "states", states);
	if (deepest >= 0)
		jset_int(idle, "deepest_latency_us", deepest);
	else
		jset_null(idle, "deepest_latency_us");
}

void idle_render(const struct env_record *env, FILE *out)
{
	const struct env_idle *idle = &env->cpu.idle;
	if (!idle->states.json && !idle->driver)
		return;
	struct buf b = {0};
	buf_printf(&b, "idle: %s", idle->driver ?: "no cpuidle driver");
	for (size_t i = 0; i < idle->states.n; i++) {
		const struct env_idle_state *s = &idle->states.v[i];
		buf_printf(&b, "%s%s", i ? ", " : " · ", s->name ?: "?");
		if (s->latency_us.known)
			buf_printf(&b, " %" PRId64 " µs", s->latency_us.v);
		if (is_true(s->disabled))
			buf_puts(&b, " (disabled)");
	}
	render_line(out, NULL, "%s", b.s);
	buf_free(&b);
}

/* ---- devfreq ---- */

static json_object *devfreq_json(struct rootfs *rf, const struct hw_devfreq *d)
{
	json_object *o = json_object_new_object();
	_cleanup_free_ char *gov = hw_label_attr(rf, d->dir, "governor");
	jset_str(o, "name", d->name);
	jset_str(o, "path", d->dir);
	jset_str(o, "kind", d->kind);
	jset_str(o, "governor", gov);
	jset(o, "governors", words_or_null(rf, d->dir, "available_governors", false));
	jset(o, "cur_hz", number_or_null(rf, d->dir, "cur_freq"));
	jset(o, "min_hz", number_or_null(rf, d->dir, "min_freq"));
	jset(o, "max_hz", number_or_null(rf, d->dir, "max_freq"));
	jset(o, "available_hz", words_or_null(rf, d->dir, "available_frequencies", true));
	return o;
}

void devfreq_collect(struct probe_ctx *ctx, json_object *power)
{
	struct hw_devfreqs devs;
	_cleanup_free_ char *unreadable = NULL;
	if (hw_devfreq_devices(ctx->rf, &devs, &unreadable) < 0) {
		jset_null(power, "devfreq");
		return;
	}
	if (unreadable)
		probe_unavailable(ctx, "power", "/sys/class/devfreq: %s", unreadable);
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < devs.n; i++)
		json_object_array_add(a, devfreq_json(ctx->rf, &devs.v[i]));
	hw_devfreqs_free(&devs);
	jset(power, "devfreq", a);
}

/* "devfreq: dmc (memory) dmc_ondemand 528 MHz of 1560 · fb000000.gpu (gpu) ..." */
void devfreq_render(const struct env_record *env, struct buf *b)
{
	for (size_t i = 0; i < env->power.devfreq.n; i++) {
		const struct env_devfreq *d = &env->power.devfreq.v[i];
		buf_printf(b, "%s%s", i ? " · " : "devfreq: ", d->name);
		if (d->kind)
			buf_printf(b, " (%s)", d->kind);
		if (d->governor)
			buf_printf(b, " %s", d->governor);
		if (d->cur_hz.known)
			buf_printf(b, " %" PRId64 " MHz", d->cur_hz.v / 1000000);
		if (d->max_hz.known)
			buf_printf(b, " of %" PRId64, d->max_hz.v / 1000000);
	}
}
