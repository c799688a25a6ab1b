/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The planner: what a profile changes on this machine, read but never written. */
#include "plan.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <sys/stat.h>

#include "lib/cpuset.h"
#include "lib/env-record.h"
#include "lib/hw.h"
#include "tune/knob.h"
#include "tune/services.h"

struct ctx {
	const struct profile *p;
	struct env_record env; /* the machine as the probe saw it */
	struct rootfs *rf;
	const struct plan_opts *o;
	struct plan *plan;
};

#define CPUFREQ "/sys/devices/system/cpu/cpufreq"

/* ---- building blocks --------------------------------------------------- */

static void note(struct strv *l, const char *fmt, ...) _printf_(2, 3);
static void note(struct strv *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strv_take(l, xvasprintf(fmt, ap));
	va_end(ap);
}

/* A setting the profile makes, unless it says "keep". */
static const struct profile_setting *setting(struct ctx *c, const char *section, const char *key)
{
	const struct profile_setting *s = profile_get(c->p, section, key);
	return s && !streq(s->value, "keep") ? s : NULL;
}

static char *why_of(const struct profile_setting *s, const char *reason)
{
	_cleanup_free_ char *origin = profile_origin(s);
	return reason ? xasprintf("%s: %s", origin, reason) : TAKE_PTR(origin);
}

struct want {
	enum action_kind kind;
	const char *area, *what, *target, *from, *to, *options;
	const struct profile_setting *s;
	const char *reason;
	bool choice, persistent, best_effort;
};

/* Records what the profile wants and, when the machine differs, the action. */
static void want(struct ctx *c, const struct want *w)
{
	struct plan *pl = c->plan;
	pl->knobs = xrealloc(pl->knobs, (pl->n_knobs + 1) * sizeof(*pl->knobs));
	pl->knobs[pl->n_knobs++] = (struct knob){
		.kind = w->kind, .what = xstrdup(w->what), .target = xstrdup(w->target),
		.value = xstrdup(w->to), .choice = w->choice,
	};
	if (knob_value_equal(w->from, w->to)) {
		note(&pl->unchanged, "%s: %s", w->what, w->to);
		return;
	}
	pl->actions = xrealloc(pl->actions, (pl->n_actions + 1) * sizeof(*pl->actions));
	pl->actions[pl->n_actions++] = (struct action){
		.kind = w->kind, .area = xstrdup(w->area), .what = xstrdup(w->what),
		.target = xstrdup(w->target), .from = xstrdup(w->from), .to = xstrdup(w->to),
		.why = why_of(w->s, w->reason), .options = xstrdup_or_null(w->options),
		.choice = w->choice, .persistent = w->persistent, .best_effort = w->best_effort,
	};
}

/* A file knob: its current value is read now. */
static void want_file(struct ctx *c, const char *area, const char *what, const char *path, const char *to,
		      bool choice, const struct profile_setting *s, const char *reason)
{
	_cleanup_free_ char *cur = NULL;
	int r = knob_read(c->rf, path, choice, &cur);
	if (r < 0) {
		_cleanup_free_ char *why = rootfs_read_error(c->rf, path, r);
		note(&c->plan->errors, "%s: %s", what, why);
		return;
	}
	want(c, &(struct want){ .kind = ACT_FILE, .area = area, .what = what, .target = path, .from = cur,
				.to = to, .s = s, .reason = reason, .choice = choice });
}

/* ---- services ------------------------------------------------------------ */

/* The index of the first pattern that matches name, or -1. */
static ssize_t matching_pattern(const struct strv *patterns, const char *name)
{
	for (size_t i = 0; i < patterns->n; i++)
		if (fnmatch(patterns->v[i], name, 0) == 0)
			return (ssize_t)i;
	return -1;
}

/* stop= and stop-also= (added to an inherited stop list) together. */
static void plan_stop_units(struct ctx *c, const struct profile_setting *stop, const struct profile_setting *also)
{
	struct strv given = {0}, patterns = {0}, names = {0}, states = {0}, unmatched = {0}, notes = {0};
	if (stop)
		strv_split(stop->value, " \t,", &given);
	size_t n_stop = given.n;
	if (also)
		strv_split(also->value, " \t,", &given);
	_cleanup_free_ char *list = strv_join(&given, " ");
	int r;
	if (!given.n)
		goto out;
	if (!c->o->svc) {
		note(&c->plan->skipped, "services: not stopped (%s): %s", c->o->svc_why, list);
		goto out;
	}
	for (size_t i = 0; i < given.n; i++)
		strv_take(&patterns, svc_pattern(c->o->svc, given.v[i]));
	if ((r = svc_list(c->o->svc, &patterns, &names, &states, &notes)) < 0) {
		note(&c->plan->errors, "services: cannot list the services %s: %s", list,
		     svc_last_error(c->o->svc) ?: strerror(-r));
		goto out;
	}
	for (size_t i = 0; i < notes.n; i++)
		note(&c->plan->skipped, "services: not stopped: %s", notes.v[i]);
	for (size_t i = 0; i < names.n; i++) {
		if (streq(states.v[i], "unknown"))
			continue;
		ssize_t k = matching_pattern(&patterns, names.v[i]);
		bool running = svc_state_running(states.v[i]);
		want(c, &(struct want){ .kind = ACT_SERVICE, .area = "services", .what = names.v[i],
					.target = names.v[i], .from = running ? "active" : "inactive", .to = "inactive",
					.s = k >= 0 && (size_t)k >= n_stop ? also : stop ? stop : also,
					.best_effort = svc_best_effort(c->o->svc) });
	}
	for (size_t i = 0; i < patterns.n; i++) {
		bool hit = false;
		for (size_t j = 0; j < names.n && !hit; j++)
			hit = fnmatch(patterns.v[i], names.v[j], 0) == 0;
		if (!hit)
			strv_push(&unmatched, given.v[i]);
	}
	if (unmatched.n) {
		_cleanup_free_ char *missing = strv_join(&unmatched, " ");
		note(&c->plan->unchanged, "services not present here: %s", missing);
	}
out:
	strv_free(&given);
	strv_free(&patterns);
	strv_free(&names);
	strv_free(&states);
	strv_free(&unmatched);
	strv_free(&notes);
}

static void plan_services(struct ctx *c)
{
	const struct profile_setting *s = setting(c, "services", "stop");
	const struct profile_setting *also = setting(c, "services", "stop-also");
	if (s || also)
		plan_stop_units(c, s, also);

	s = setting(c, "services", "default-target");
	if (!s)
		return;
	if (!c->o->persistent) {
		note(&c->plan->skipped, "services: default target %s not set: that change survives reboots, "
			  "so it needs --persistent", s->value);
		return;
	}
	if (!c->o->svc) {
		note(&c->plan->skipped, "services: default target %s not set (%s)", s->value, c->o->svc_why);
		return;
	}
	_cleanup_free_ char *cur = NULL;
	int r = svc_default_target(c->o->svc, &cur);
	if (r == -EOPNOTSUPP) {
		note(&c->plan->skipped, "services: default target %s not set: %s has no default target", s->value,
		     svc_name(c->o->svc));
		return;
	}
	if (r < 0) {
		note(&c->plan->errors, "services: cannot read the default target: %s",
		     svc_last_error(c->o->svc) ?: strerror(-r));
		return;
	}
	want(c, &(struct want){ .kind = ACT_DEFAULT_TARGET, .area = "services", .what = "default target",
				.target = "default.target", .from = cur, .to = s->value, .s = s, .persistent = true });
}

/* ---- cpu ----------------------------------------------------------------- */

static void policies(struct ctx *c, struct strv *out)
{
	struct strv all = {0};
	if (rootfs_list(c->rf, CPUFREQ, &all) == 0)
		for (size_t i = 0; i < all.n; i++)
			if (startswith(all.v[i], "policy"))
				strv_push(out, all.v[i]);
	strv_free(&all);
}

static char *policy_label(struct ctx *c, const char *policy)
{
	_cleanup_free_ char *path = xasprintf(CPUFREQ "/%s/related_cpus", policy);
	_cleanup_free_ char *cpus = NULL;
	if (rootfs_read_line(c->rf, path, &cpus) < 0 || !*cpus)
		return xstrdup(policy);
	for (char *s = cpus; *s; s++) /* "0 1 2 3" */
		if (*s == ' ')
			*s = ',';
	struct cpuset set = {0};
	_cleanup_free_ char *list = cpuset_parse_list(cpus, &set) == 0 ? cpuset_format(&set) : xstrdup(cpus);
	cpuset_free(&set);
	return xasprintf("%s (CPUs %s)", policy, list);
}

/* The first of "a|b|c" that the space-separated list offered holds, or NULL. */
static char *first_offered(const char *wanted_list, const char *offered_list)
{
	struct strv offered = {0}, wanted = {0};
	strv_split(offered_list, " \t", &offered);
	strv_split(wanted_list, "|", &wanted);
	char *pick = NULL;
	for (size_t i = 0; i < wanted.n && !pick; i++)
		if (strv_contains(&offered, wanted.v[i]))
			pick = xstrdup(wanted.v[i]);
	strv_free(&offered);
	strv_free(&wanted);
	return pick;
}

static void plan_governor(struct ctx *c, const struct profile_setting *s, const char *policy, const char *label)
{
	_cleanup_free_ char *avail_path = xasprintf(CPUFREQ "/%s/scaling_available_governors", policy);
	_cleanup_free_ char *avail = NULL;
	if (rootfs_read_line(c->rf, avail_path, &avail) < 0) {
		note(&c->plan->skipped, "%s governor: %s cannot be read", label, avail_path);
		return;
	}
	_cleanup_free_ char *pick = first_offered(s->value, avail);
	if (!pick) {
		_cleanup_free_ char *origin = profile_origin(s);
		note(&c->plan->errors, "%s: %s is not offered by %s (%s); %s", label, s->value, avail_path, avail,
		     origin);
	} else {
		_cleanup_free_ char *what = xasprintf("%s governor", label);
		_cleanup_free_ char *path = xasprintf(CPUFREQ "/%s/scaling_governor", policy);
		want_file(c, "cpu", what, path, pick, false, s, NULL);
	}
}

static void plan_min_freq(struct ctx *c, const struct profile_setting *s, const char *policy, const char *label)
{
	uint64_t lo = 0, hi = 0, khz = 0;
	_cleanup_free_ char *lo_path = xasprintf(CPUFREQ "/%s/cpuinfo_min_freq", policy);
	_cleanup_free_ char *hi_path = xasprintf(CPUFREQ "/%s/%s", policy,
						 streq(s->value, "max") ? "scaling_max_freq" : "cpuinfo_max_freq");
	if (rootfs_read_u64(c->rf, lo_path, &lo) < 0 || rootfs_read_u64(c->rf, hi_path, &hi) < 0) {
		note(&c->plan->skipped, "%s minimum frequency: %s or %s cannot be read", label, lo_path, hi_path);
		return;
	}
	if (streq(s->value, "max")) {
		khz = hi;
	} else if (profile_parse_freq(s->value, &khz) < 0 || khz < lo || khz > hi) {
		_cleanup_free_ char *origin = profile_origin(s);
		note(&c->plan->errors, "%s: %s is outside %" PRIu64 "-%" PRIu64 " kHz (%s, %s); %s", label, s->value, lo,
		     hi, lo_path, hi_path, origin);
		return;
	}
	_cleanup_free_ char *what = xasprintf("%s minimum frequency", label);
	_cleanup_free_ char *path = xasprintf(CPUFREQ "/%s/scaling_min_freq", policy);
	_cleanup_free_ char *to = xasprintf("%" PRIu64, khz);
	want_file(c, "cpu", what, path, to, false, s, streq(s->value, "max") ? "pinned to the maximum" : NULL);
}

/* Boost is whichever switch this machine has (lib/hw.h: the probe reads
 * the same one): intel_pstate's inverted no_turbo, one global switch, or
 * a switch per policy. */
static void plan_boost(struct ctx *c, const struct profile_setting *s)
{
	bool on = streq(s->value, "on");
	struct hw_policies pols;
	struct hw_boost sw;
	hw_cpufreq_policies(c->rf, NULL, &pols);
	hw_boost_switches(c->rf, &pols, &sw);
	for (size_t i = 0; i < sw.n; i++)
		want_file(c, "cpu", sw.v[i].what, sw.v[i].path, on != sw.v[i].inverted ? "1" : "0", false, s, NULL);
	if (!sw.n)
		note(&c->plan->skipped, "cpu: boost %s: this machine has no boost control (cpufreq/boost, "
			  "policy*/boost, intel_pstate/no_turbo)", s->value);
	hw_boost_free(&sw);
	hw_policies_free(&pols);
}

/* EPP per policy, where the driver offers it (intel_pstate, amd-pstate in
 * active mode); the value must be one the policy lists. intel_pstate
 * refuses any but performance under the performance governor: best effort. */
static void plan_epp(struct ctx *c, const struct profile_setting *s, const struct strv *pols,
		     const struct strv *labels)
{
	bool any = false;
	for (size_t i = 0; i < pols->n; i++) {
		_cleanup_free_ char *dir = xasprintf(CPUFREQ "/%s", pols->v[i]);
		_cleanup_free_ char *avail = rootfs_read_attr(c->rf, dir, "energy_performance_available_preferences");
		_cleanup_free_ char *path = xasprintf("%s/energy_performance_preference", dir);
		if (!avail || rootfs_exists(c->rf, path) < 0)
			continue;
		any = true;
		struct strv offered = {0};
		strv_split(avail, " \t", &offered);
		_cleanup_free_ char *what = xasprintf("%s energy/performance preference", labels->v[i]);
		if (!strv_contains(&offered, s->value)) {
			_cleanup_free_ char *origin = profile_origin(s);
			note(&c->plan->errors, "%s: %s is not offered (%s); %s", what, s->value, avail, origin);
		} else {
			_cleanup_free_ char *cur = NULL;
			if (knob_read(c->rf, path, false, &cur) < 0)
				note(&c->plan->errors, "%s: cannot read %s", what, path);
			else
				want(c, &(struct want){ .kind = ACT_FILE, .area = "cpu", .what = what, .target = path,
							.from = cur, .to = s->value, .s = s, .best_effort = true });
		}
		strv_free(&offered);
	}
	if (!any)
		note(&c->plan->skipped, "cpu: epp %s: no policy has an energy/performance preference (a pstate "
			  "driver in active mode has one)", s->value);
}

/* x86 EPB on every CPU that has it; the kernel shows it as a number. */
static void plan_epb(struct ctx *c, const struct profile_setting *s)
{
	struct strv files = {0};
	int named = hw_epb_parse(s->value);
	_cleanup_free_ char *to = named >= 0 ? xasprintf("%d", named) : xstrdup(s->value);
	hw_epb_files(c->rf, &files);
	for (size_t i = 0; i < files.n; i++) {
		const char *cpu = files.v[i] + strlen("/sys/devices/system/cpu/");
		_cleanup_free_ char *what = xasprintf("%.*s energy/performance bias", (int)strcspn(cpu, "/"), cpu);
		want_file(c, "cpu", what, files.v[i], to, false, s, NULL);
	}
	if (!files.n)
		note(&c->plan->skipped, "cpu: epb %s: no CPU has an energy/performance bias (x86 only)", s->value);
	strv_free(&files);
}

static void plan_cpu(struct ctx *c)
{
	const struct profile_setting *gov = setting(c, "cpu", "governor");
	const struct profile_setting *boost = setting(c, "cpu", "boost");
	const struct profile_setting *minf = setting(c, "cpu", "min-freq");
	const struct profile_setting *epp = setting(c, "cpu", "epp");
	const struct profile_setting *epb = setting(c, "cpu", "epb");
	if (epb)
		plan_epb(c, epb);
	if (!gov && !boost && !minf && !epp)
		return;
	struct strv pols = {0};
	policies(c, &pols);
	if (!pols.n) {
		note(&c->plan->skipped, "cpu: no cpufreq policies in " CPUFREQ " (the clock is fixed or set by "
			  "firmware or a hypervisor): governor, boost and minimum frequency left alone");
		return;
	}
	struct strv labels = {0};
	for (size_t i = 0; i < pols.n; i++)
		strv_take(&labels, policy_label(c, pols.v[i]));
	/* the governor first: on some drivers changing it resets the others */
	for (size_t i = 0; gov && i < pols.n; i++)
		plan_governor(c, gov, pols.v[i], labels.v[i]);
	if (boost)
		plan_boost(c, boost);
	for (size_t i = 0; minf && i < pols.n; i++)
		plan_min_freq(c, minf, pols.v[i], labels.v[i]);
	if (epp)
		plan_epp(c, epp, &pols, &labels);
	strv_free(&labels);
	strv_free(&pols);
}

/* ---- io ------------------------------------------------------------------- */

/* The whole disk of a block device name ("sda2" -> "sda"). */
static char *whole_disk(struct ctx *c, const char *name)
{
	_cleanup_free_ char *part = xasprintf("/sys/class/block/%s/partition", name);
	if (rootfs_exists(c->rf, part) < 0)
		return xstrdup(name);
	_cleanup_free_ char *link = xasprintf("/sys/class/block/%s", name);
	_cleanup_free_ char *real = NULL;
	if (rootfs_realpath(c->rf, link, &real) < 0)
		return xstrdup(name);
	char *slash = strrchr(real, '/');
	if (slash)
		*slash = '\0';
	slash = strrchr(real, '/');
	return xstrdup(slash ? slash + 1 : name);
}

/* The disks under a device: itself, or for dm/md the disks below it. */
static void leaf_disks(struct ctx *c, const char *disk, int depth, struct strv *out)
{
	_cleanup_free_ char *dir = xasprintf("/sys/class/block/%s/slaves", disk);
	struct strv slaves = {0};
	if (depth < 8 && rootfs_list(c->rf, dir, &slaves) == 0 && slaves.n) {
		for (size_t i = 0; i < slaves.n; i++) {
			_cleanup_free_ char *d = whole_disk(c, slaves.v[i]);
			leaf_disks(c, d, depth + 1, out);
		}
	} else if (!strv_contains(out, disk)) {
		strv_push(out, disk);
	}
	strv_free(&slaves);
}

/* The record's entry for a disk: the workdir's device or one of the
 * disks below it (storage.device.slaves), found by name. */
static const struct env_device *record_disk(const struct env_device *dev, const char *name, int depth)
{
	if (!dev || depth > 8)
		return NULL;
	if (streq_ptr(dev->name, name))
		return dev;
	for (size_t i = 0; i < dev->slaves.n; i++) {
		const struct env_device *d = record_disk(&dev->slaves.v[i], name, depth + 1);
		if (d)
			return d;
	}
	return NULL;
}

/*
 * The device whose disks [io] tunes: the workdir's, or for an overlay or
 * a loop device the one holding its backing directory or file.
 */
static const struct env_device *workdir_device(const struct env_record *env)
{
	const struct env_device *d = env->storage.device;
	for (int i = 0; d && i < 4; i++) {
		const struct env_device *below = d->backing.device;
		if (!below || !d->kind || (!streq(d->kind, "overlay") && !streq(d->kind, "loop")))
			return d->name ? d : NULL;
		d = below;
	}
	return NULL;
}

/* The scheduler to set from the offered ones, or NULL (with a note). */

static const char *pick_scheduler(struct ctx *c, const struct profile_setting *s, const char *disk,
				  const char *path, const struct strv *offered, char **reason)
{
	bool is_auto = streq(s->value, "auto");
	const struct env_device *dev = workdir_device(&c->env);
	const struct env_device *d = record_disk(dev, disk, 0) ?: dev;
	const char *rec_sched = d ? d->recommended_scheduler : NULL;
	const char *kind = d ? d->kind : NULL;
	if (is_auto && !rec_sched) {
		note(&c->plan->skipped, "io: scheduler auto: the probe has no recommendation for %s", disk);
		return NULL;
	}
	struct strv wanted = {0};
	strv_split(is_auto ? rec_sched : s->value, "|", &wanted);
	const char *pick = NULL;
	for (size_t i = 0; i < wanted.n && !pick; i++)
		for (size_t j = 0; j < offered->n && !pick; j++)
			if (streq(offered->v[j], wanted.v[i]))
				pick = offered->v[j];
	strv_free(&wanted);
	_cleanup_free_ char *list = strv_join(offered, " ");
	_cleanup_free_ char *origin = profile_origin(s);
	if (!pick && is_auto)
		note(&c->plan->skipped, "io: scheduler auto: %s (recommended for %s) is not offered by %s (%s)",
		     rec_sched, kind ? kind : "this device", path, list);
	else if (!pick)
		note(&c->plan->errors, "io: %s is not offered by %s (%s); %s", s->value, path, list, origin);
	else if (is_auto)
		*reason = xasprintf("recommended for %s", kind ? kind : disk);
	return pick;
}

static void plan_scheduler(struct ctx *c, const struct profile_setting *s, const char *disk)
{
	_cleanup_free_ char *path = xasprintf("/sys/block/%s/queue/scheduler", disk);
	_cleanup_free_ char *cur = NULL, *reason = NULL;
	struct strv offered = {0};
	if (rootfs_read_choice(c->rf, path, &cur, &offered) < 0 || !cur) {
		note(&c->plan->skipped, "io: %s has no IO scheduler to choose (%s)", disk, path);
	} else {
		const char *pick = pick_scheduler(c, s, disk, path, &offered, &reason);
		_cleanup_free_ char *what = xasprintf("%s scheduler", disk);
		if (pick)
			want_file(c, "io", what, path, pick, true, s, reason);
	}
	strv_free(&offered);
}

static void plan_io(struct ctx *c)
{
	const struct profile_setting *sched = setting(c, "io", "scheduler");
	const struct profile_setting *ra = setting(c, "io", "read-ahead-kb");
	if (!sched && !ra)
		return;
	const struct env_device *wd = workdir_device(&c->env);
	const char *dev = wd ? wd->name : NULL;
	const char *workdir = c->env.storage.workdir;
	if (!dev || strchr(dev, '/') || streq(dev, "..") || streq(dev, ".")) {
		note(&c->plan->skipped, "io: the block device holding %s is not known (see `ubtune probe`): "
			  "scheduler and read-ahead left alone", workdir ? workdir : "the workdir");
		return;
	}
	_cleanup_free_ char *top = whole_disk(c, dev);
	struct strv leaves = {0};
	leaf_disks(c, top, 0, &leaves);
	for (size_t i = 0; sched && i < leaves.n; i++)
		plan_scheduler(c, sched, leaves.v[i]);
	if (ra) {
		_cleanup_free_ char *path = xasprintf("/sys/block/%s/queue/read_ahead_kb", top);
		_cleanup_free_ char *what = xasprintf("%s read-ahead (KiB)", top);
		if (rootfs_exists(c->rf, path) < 0)
			note(&c->plan->skipped, "io: %s has no read-ahead setting (%s)", top, path);
		else
			want_file(c, "io", what, path, ra->value, false, ra, NULL);
	}
	strv_free(&leaves);
}

/* ---- sysctl, vm ------------------------------------------------------------ */

static void plan_sysctl(struct ctx *c)
{
	for (size_t i = 0; i < c->p->n_settings; i++) {
		const struct profile_setting *s = &c->p->settings[i];
		if (!streq(s->section, "sysctl"))
			continue;
		_cleanup_free_ char *rel = xstrdup(s->key);
		if (!strchr(rel, '/'))
			for (char *d = rel; *d; d++)
				if (*d == '.')
					*d = '/';
		_cleanup_free_ char *path = xasprintf("/proc/sys/%s", rel);
		if (rootfs_exists(c->rf, path) < 0) {
			note(&c->plan->skipped, "sysctl: %s does not exist in this kernel (%s)", s->key, path);
			continue;
		}
		want_file(c, "sysctl", s->key, path, s->value, false, s, NULL);
	}
}

static void plan_vm(struct ctx *c)
{
	const struct profile_setting *s = setting(c, "vm", "transparent-hugepages");
	if (!s)
		return;
	const char *path = "/sys/kernel/mm/transparent_hugepage/enabled";
	_cleanup_free_ char *cur = NULL;
	struct strv offered = {0};
	if (rootfs_read_choice(c->rf, path, &cur, &offered) < 0 || !cur)
		note(&c->plan->skipped, "vm: this kernel has no transparent huge pages (%s)", path);
	else if (!strv_contains(&offered, s->value))
		note(&c->plan->errors, "vm: transparent-hugepages %s is not offered by %s", s->value, path);
	else
		want_file(c, "vm", "transparent huge pages", path, s->value, true, s, NULL);
	strv_free(&offered);
}

/* ---- irq ---------------------------------------------------------------- */

static char *node_cpus(struct ctx *c, int64_t node)
{
	for (size_t i = 0; i < c->env.numa.nodes.n; i++) {
		const struct env_node *e = &c->env.numa.nodes.v[i];
		if (e->id.known && e->id.v == node && e->cpus)
			return xstrdup(e->cpus);
	}
	return NULL;
}

/* The CPUs one storage IRQ should go to: the profile's list, or those of
 * the NUMA node of its controller (the IRQ's own device_node, else the
 * workdir device's); NULL with a note when not known. */
static char *irq_cpus(struct ctx *c, const struct profile_setting *s, const struct env_irq *irq, const char *what)
{
	if (!streq(s->value, "device-node"))
		return xstrdup(s->value);
	const struct env_device *dev = c->env.storage.device;
	int64_t node = int_or(irq->device_node, dev ? int_or(dev->numa_node, -1) : -1);
	if (node < 0) {
		note(&c->plan->skipped, "irq: %s: the NUMA node of its controller is not known", what);
		return NULL;
	}
	char *cpus = node_cpus(c, node);
	if (!cpus)
		note(&c->plan->skipped, "irq: %s: the CPUs of NUMA node %" PRId64 " are not known (numa.nodes)", what,
		     node);
	return cpus;
}

static void plan_one_irq(struct ctx *c, const struct profile_setting *s, const struct env_irq *e,
			 const struct cpuset *online)
{
	int64_t irq = int_or(e->irq, -1);
	if (irq < 0)
		return;
	const char *name = e->name;
	_cleanup_free_ char *what = xasprintf("IRQ %" PRId64 "%s%s%s affinity", irq, name ? " (" : "", name ? name : "",
					      name ? ")" : "");
	_cleanup_free_ char *cpus = irq_cpus(c, s, e, what);
	if (!cpus)
		return;
	struct cpuset want_set = {0}, cur_set = {0};
	_cleanup_free_ char *path = xasprintf("/proc/irq/%" PRId64 "/smp_affinity_list", irq);
	_cleanup_free_ char *cur = NULL, *to = NULL;
	if (cpuset_parse_list(cpus, &want_set) < 0 || !cpuset_count(&want_set)) {
		note(&c->plan->errors, "irq: %s: '%s' is not a CPU list", what, cpus);
	} else if (online && !cpuset_subset(&want_set, online)) {
		_cleanup_free_ char *on = cpuset_format(online);
		note(&c->plan->errors, "irq: %s: CPUs %s are not all online (online: %s)", what, cpus, on);
	} else if (knob_read(c->rf, path, false, &cur) < 0) {
		note(&c->plan->errors, "irq: %s: cannot read %s", what, path);
	} else {
		to = cpuset_format(&want_set);
		/* compare as sets: the kernel prints "0-3" for "0,1,2,3" */
		_cleanup_free_ char *canon = cpuset_parse_list(cur, &cur_set) == 0 ? cpuset_format(&cur_set) : NULL;
		want(c, &(struct want){ .kind = ACT_FILE, .area = "irq", .what = what, .target = path,
					.from = streq_ptr(canon, to) ? to : cur, .to = to, .s = s,
					.reason = streq(s->value, "device-node") ? "the controller's NUMA node" : NULL,
					.best_effort = true });
	}
	cpuset_free(&want_set);
	cpuset_free(&cur_set);
}

static void plan_irq(struct ctx *c)
{
	const struct profile_setting *s = setting(c, "irq", "storage-affinity");
	if (!s)
		return;
	size_t n = c->env.numa.storage_irqs.n;
	if (!n) {
		note(&c->plan->skipped, "irq: the probe found no storage controller IRQs (numa.storage_irqs)");
		return;
	}
	if (streq(s->value, "device-node") && c->env.numa.nodes.n < 2) {
		note(&c->plan->skipped, "irq: one NUMA node only: storage IRQs left where they are");
		return;
	}
	struct cpuset online = {0};
	_cleanup_free_ char *online_s = NULL;
	bool known = rootfs_read_line(c->rf, "/sys/devices/system/cpu/online", &online_s) == 0 &&
		     cpuset_parse_list(online_s, &online) == 0;
	for (size_t i = 0; i < n; i++)
		plan_one_irq(c, s, &c->env.numa.storage_irqs.v[i], known ? &online : NULL);
	cpuset_free(&online);
}

/* ---- workdir, build and bench settings ------------------------------------ */

/* Directories to create, outermost first, so that path exists. */
static int missing_dirs(struct ctx *c, const char *path, struct strv *out)
{
	_cleanup_free_ char *p = xstrdup(path);
	struct strv rev = {0};
	for (;;) {
		struct stat st;
		int r = rootfs_lstat(c->rf, p, &st);
		if (r == 0) {
			if (!S_ISDIR(st.st_mode)) {
				strv_free(&rev);
				return -ENOTDIR;
			}
			break;
		}
		if (r != -ENOENT) {
			strv_free(&rev);
			return r;
		}
		strv_push(&rev, p);
		char *slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
	}
	for (size_t i = rev.n; i > 0; i--)
		strv_push(out, rev.v[i - 1]);
	strv_free(&rev);
	return 0;
}

static bool dir_empty(struct rootfs *rf, const char *path)
{
	struct strv l = {0};
	rootfs_list(rf, path, &l);
	bool empty = l.n == 0;
	strv_free(&l);
	return empty;
}

static void plan_workdir(struct ctx *c)
{
	const struct profile_setting *type = profile_get(c->p, "workdir", "type");
	const struct profile_setting *path = profile_get(c->p, "workdir", "path");
	const struct profile_setting *size = profile_get(c->p, "workdir", "size");
	if (!type && !path)
		return;
	if (!type || !path) {
		note(&c->plan->errors, "workdir: %s needs both type= and path=", type ? "[workdir] type" : "[workdir] path");
		return;
	}
	json_object *w = jchild(c->plan->record, "workdir");
	jset_str(w, "path", path->value);
	jset_str(w, "type", type->value);

	struct strv dirs = {0};
	int r = missing_dirs(c, path->value, &dirs);
	if (r < 0) {
		note(&c->plan->errors, "workdir: %s: %s", path->value, r == -ENOTDIR ? "not a directory" : strerror(-r));
		return;
	}
	for (size_t i = 0; i < dirs.n; i++) {
		_cleanup_free_ char *what = xasprintf("directory %s", dirs.v[i]);
		want(c, &(struct want){ .kind = ACT_MKDIR, .area = "workdir", .what = what, .target = dirs.v[i],
					.from = "absent", .to = "present", .s = path, .persistent = true });
	}
	strv_free(&dirs);
	if (!streq(type->value, "tmpfs"))
		return;

	_cleanup_free_ char *fstype = NULL;
	if (knob_mount_type(c->rf, path->value, &fstype) == 0 && fstype && !streq(fstype, "tmpfs")) {
		note(&c->plan->errors, "workdir: %s is already a mount point (%s): not mounting a tmpfs over it",
		     path->value, fstype);
		return;
	}
	if (!fstype && !dir_empty(c->rf, path->value)) {
		note(&c->plan->errors, "workdir: %s is not empty: a tmpfs would hide its files; choose another path",
		     path->value);
		return;
	}
	_cleanup_free_ char *opts = size ? xasprintf("size=%s", size->value) : NULL;
	_cleanup_free_ char *what = xasprintf("tmpfs on %s%s%s", path->value, size ? ", " : "", opts ? opts : "");
	want(c, &(struct want){ .kind = ACT_MOUNT, .area = "workdir", .what = what, .target = path->value,
				.from = fstype ? fstype : "none", .to = "tmpfs", .options = opts, .s = type,
				.reason = "the file tests measure memory, not the disk" });
}

static void plan_record(struct ctx *c)
{
	json_object *rec = c->plan->record;
	const struct profile_setting *s;
	if ((s = profile_get(c->p, "build", "cc")))
		jset_str(jchild(rec, "build"), "cc", s->value);
	if ((s = profile_get(c->p, "build", "cflags")))
		jset_str(jchild(rec, "build"), "cflags", s->value);
	if ((s = profile_get(c->p, "bench", "copies"))) {
		struct strv items = {0};
		strv_split(s->value, " \t,", &items);
		json_object *a = json_object_new_array();
		for (size_t i = 0; i < items.n; i++) {
			uint64_t v;
			if (parse_u64(items.v[i], &v) == 0)
				json_object_array_add(a, json_object_new_int64((int64_t)v));
			else
				jarr_add_str(a, items.v[i]);
		}
		jset(jchild(rec, "bench"), "copies", a);
		strv_free(&items);
	}
	if ((s = profile_get(c->p, "bench", "tests"))) {
		struct strv items = {0};
		strv_split(s->value, " \t,", &items);
		json_object *a = json_object_new_array();
		for (size_t i = 0; i < items.n; i++)
			jarr_add_str(a, items.v[i]);
		jset(jchild(rec, "bench"), "tests", a);
		strv_free(&items);
	}
	bool quick;
	if ((s = profile_get(c->p, "bench", "quick")) && profile_parse_bool(s->value, &quick) == 0)
		jset_bool(jchild(rec, "bench"), "quick", quick);
	if ((s = profile_get(c->p, "bench", "pin-single")))
		jset_str(jchild(rec, "bench"), "pin_single", s->value);
	uint64_t us;
	if ((s = profile_get(c->p, "bench", "dma-latency")))
		jset(jchild(rec, "bench"), "dma_latency_us", parse_u64(s->value, &us) == 0 ? json_object_new_int64((int64_t)us)
										       : json_object_new_string(s->value));
}

/* ---- devfreq ------------------------------------------------------------ */

/* The governor of the memory controllers' devfreq devices (devices =
 * memory, the default) or of every devfreq device (all). */
static void plan_devfreq(struct ctx *c)
{
	const struct profile_setting *s = setting(c, "devfreq", "governor");
	const struct profile_setting *which = profile_get(c->p, "devfreq", "devices");
	bool all = which && streq(which->value, "all");
	if (!s)
		return;
	struct hw_devfreqs devs;
	_cleanup_free_ char *unreadable = NULL;
	if (hw_devfreq_devices(c->rf, &devs, &unreadable) < 0) {
		note(&c->plan->skipped, "devfreq: governor %s: this machine has no devfreq devices", s->value);
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < devs.n; i++) {
		const struct hw_devfreq *d = &devs.v[i];
		if (!all && !streq_ptr(d->kind, "memory"))
			continue;
		n++;
		_cleanup_free_ char *avail = rootfs_read_attr(c->rf, d->dir, "available_governors");
		_cleanup_free_ char *pick = avail ? first_offered(s->value, avail) : NULL;
		_cleanup_free_ char *what = xasprintf("%s governor", d->name);
		_cleanup_free_ char *path = xasprintf("%s/governor", d->dir);
		if (!pick) {
			_cleanup_free_ char *origin = profile_origin(s);
			note(&c->plan->errors, "%s: %s is not offered by %s/available_governors (%s); %s", what, s->value,
			     d->dir, avail ?: "unreadable", origin);
		} else {
			want_file(c, "devfreq", what, path, pick, false, s, NULL);
		}
	}
	if (!n)
		note(&c->plan->skipped, "devfreq: governor %s: no %sdevfreq device", s->value, all ? "" : "memory-controller ");
	hw_devfreqs_free(&devs);
}

void plan_build(const struct profile *p, json_object *rec, struct rootfs *rf, const struct plan_opts *o,
		struct plan *plan)
{
	*plan = (struct plan){ .record = json_object_new_object() };
	struct ctx c = { .p = p, .rf = rf, .o = o, .plan = plan };
	_cleanup_free_ char *error = NULL;
	if (env_decode(rec, "", &c.env, &error) < 0) {
		note(&plan->errors, "the environment record: %s", error);
		return;
	}
	/* services first: irqbalance would move the IRQs back */
	plan_services(&c);
	plan_cpu(&c);
	plan_devfreq(&c);
	plan_io(&c);
	plan_sysctl(&c);
	plan_vm(&c);
	plan_irq(&c);
	plan_workdir(&c);
	plan_record(&c);
	env_record_free(&c.env);
}

/* ---- plan lifetime ------------------------------------------------------------ */

void action_free(struct action *a)
{
	free(a->area);
	free(a->what);
	free(a->target);
	free(a->from);
	free(a->to);
	free(a->why);
	free(a->options);
	*a = (struct action){0};
}

void knob_free(struct knob *k)
{
	free(k->what);
	free(k->target);
	free(k->value);
	*k = (struct knob){0};
}

void plan_free(struct plan *plan)
{
	for (size_t i = 0; i < plan->n_actions; i++)
		action_free(&plan->actions[i]);
	free(plan->actions);
	for (size_t i = 0; i < plan->n_knobs; i++)
		knob_free(&plan->knobs[i]);
	free(plan->knobs);
	strv_free(&plan->unchanged);
	strv_free(&plan->skipped);
	strv_free(&plan->errors);
	json_object_put(plan->record);
	*plan = (struct plan){0};
}
