/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sampler.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>

#include "bench/procstat.h"
#include "lib/cgroup.h"
#include "lib/hw.h"
#include "probe/services.h"
#include "unixbench/catalogue.h"
#include "lib/util.h"

/* A CPU counts as slow when it is busy and below this share of its
 * reference clock (base frequency, else the hardware maximum). */
#define SLOW_CLOCK_SHARE 0.9
#define BUSY_CPU_PCT 50.0

/* What cpufreq says of each CPU's clock: its policy's, read once a reading. */
struct policy_src {
	const struct hw_policy *p;
	double ref_mhz;   /* 0: unknown */
	double mhz;       /* this reading; NAN when unreadable */
};

struct alarm_src {
	const struct hw_sensor *sensor;
	const struct hw_alarm *alarm;
	char *label; /* "hwmon1 rpi_volt in0_lcrit_alarm" */
};

struct throttle_src {
	uint64_t last;
	bool has_last;
};

struct episode;
struct condition {
	const char *kind;
	double min_duration_s;
	/* readings a condition may be absent without ending its event, so a
	 * dip (the settling between passes) does not split it */
	unsigned grace;
	bool spans_phases; /* alarms: one event from raise to clear */
	void (*describe)(const struct episode *e, const char *during, struct buf *b);
};

struct episode {
	const struct condition *cond;
	char key[64];
	bool open, touched, at_start;
	unsigned missed; /* readings since last touched */
	double start_t, last_t, end_t;
	time_t start_wall, end_wall;
	bool ended_by_run_end;
	int test;
	unsigned copies;
	double sum, sum2, max, ref;
	unsigned n;
	char detail[96];
};

struct sampler {
	struct rootfs *rf;
	pid_t self;
	size_t ncpu;
	struct hw_policies policies;
	struct policy_src *pols;
	struct policy_src **cpu_pol; /* per CPU: its policy, or NULL */
	struct hw_zones zones;
	struct hw_hwmons hwmon;
	struct alarm_src *alarms;
	size_t nalarms;
	struct hw_throttle throttle;
	struct throttle_src *thr;
	/* the cpu.stat of ubtune's cgroup whose CPU quota binds (else its own) */
	char *cgroup_dir;
	struct cgroup_cpu_stat cgroup_prev;
	bool cgroup_has_prev;
	double throttled_s;

	pthread_mutex_t lock;
	int test;
	unsigned copies;
	struct phases phases; /* every phase with its start, for the kernel log */

	/* previous reading */
	bool have_prev, in_reference;
	struct stat_snapshot prev_stat;
	/* the process table, read every scan_every readings */
	struct proc_table prev_procs;
	double procs_t, others_pct;
	char others_top[64];
	unsigned scan_every, since_scan;
	uint64_t prev_swap_in, prev_swap_out;
	bool prev_swap;

	struct episode *eps;
	size_t neps;
	double interval;

	json_object *samples, *events;
	double max_temp_mc, min_mhz, max_mhz, max_others;
	size_t count;
	double first_t, last_t;

	pthread_t thread;
	bool running, stopping;
	pthread_cond_t wake;
	double cpu_s;
};

static double round1(double v)
{
	return round(v * 10) / 10;
}

/* ---- discovery ---- */

static void discover_cpus(struct sampler *s)
{
	hw_cpufreq_policies(s->rf, NULL, &s->policies);
	s->pols = xcalloc(s->policies.n ? s->policies.n : 1, sizeof(*s->pols));
	s->cpu_pol = xcalloc(s->ncpu ? s->ncpu : 1, sizeof(*s->cpu_pol));
	for (size_t i = 0; i < s->policies.n; i++) {
		uint64_t khz;
		s->pols[i].p = &s->policies.v[i];
		s->pols[i].mhz = NAN;
		if (hw_policy_ref_khz(s->rf, &s->policies.v[i], &khz) == 0)
			s->pols[i].ref_mhz = (double)khz / 1000.0;
	}
	for (size_t c = 0; c < s->ncpu; c++) {
		const struct hw_policy *p = hw_policy_of_cpu(&s->policies, c);
		s->cpu_pol[c] = p ? &s->pols[p - s->policies.v] : NULL;
	}
	hw_throttle_discover(s->rf, &s->throttle);
	s->thr = xcalloc(s->throttle.n ? s->throttle.n : 1, sizeof(*s->thr));
}

static void discover_alarms(struct sampler *s)
{
	hw_hwmon_devices(s->rf, &s->hwmon);
	for (size_t i = 0; i < s->hwmon.n; i++) {
		const struct hw_hwmon *d = &s->hwmon.v[i];
		for (size_t k = 0; k < d->n; k++)
			for (size_t a = 0; a < d->sensors[k].nalarms; a++) {
				const struct hw_alarm *al = &d->sensors[k].alarms[a];
				s->alarms = xrealloc(s->alarms, (s->nalarms + 1) * sizeof(*s->alarms));
				s->alarms[s->nalarms++] = (struct alarm_src){
					.sensor = &d->sensors[k],
					.alarm = al,
					.label = xasprintf("%s %s %s", d->entry, d->name ?: "?", strrchr(al->path, '/') + 1),
				};
			}
	}
}

static void discover_cgroup(struct sampler *s)
{
	struct cgroup cg;
	struct cgroup_quota q;
	struct cgroup_cpu_stat st;
	if (cgroup_open(s->rf, &cg) < 0)
		return;
	if (cgroup_cpu_quota(s->rf, &cg, &q) > 0)
		s->cgroup_dir = xstrdup(q.dir);
	else if (cg.ctrl[CGROUP_CPU].dir)
		s->cgroup_dir = xstrdup(cg.ctrl[CGROUP_CPU].dir);
	cgroup_quota_free(&q);
	cgroup_free(&cg);
	if (s->cgroup_dir && cgroup_cpu_stat(s->rf, s->cgroup_dir, &st) < 0) {
		free(s->cgroup_dir);
		s->cgroup_dir = NULL;
	}
}

int sampler_new(struct rootfs *rf, pid_t self, struct sampler **out)
{
	struct stat_snapshot st;
	int r = stat_read(rf, &st);
	if (r < 0)
		return r;
	struct sampler *s = xcalloc(1, sizeof(*s));
	s->rf = rf;
	s->self = self;
	s->ncpu = st.ncpu;
	stat_snapshot_free(&st);
	s->test = -1;
	s->interval = 1;
	s->min_mhz = NAN;
	s->max_mhz = NAN;
	s->max_temp_mc = NAN;
	s->samples = json_object_new_array();
	s->events = json_object_new_array();
	pthread_mutex_init(&s->lock, NULL);
	discover_cpus(s);
	hw_thermal_zones(s->rf, &s->zones);
	discover_alarms(s);
	discover_cgroup(s);
	*out = s;
	return 0;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	hw_policies_free(&s->policies);
	free(s->pols);
	free(s->cpu_pol);
	hw_zones_free(&s->zones);
	for (size_t i = 0; i < s->nalarms; i++)
		free(s->alarms[i].label);
	free(s->alarms);
	hw_hwmons_free(&s->hwmon);
	hw_throttle_free(&s->throttle);
	free(s->thr);
	free(s->cgroup_dir);
	stat_snapshot_free(&s->prev_stat);
	proc_table_free(&s->prev_procs);
	free(s->eps);
	json_object_put(s->samples);
	json_object_put(s->events);
	phases_free(&s->phases);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

void sampler_set_phase(struct sampler *s, int test, unsigned copies)
{
	pthread_mutex_lock(&s->lock);
	s->test = test;
	s->copies = copies;
	pthread_mutex_unlock(&s->lock);
	phases_mark(&s->phases, test, copies);
}

const struct phases *sampler_phases(const struct sampler *s)
{
	return &s->phases;
}

/* ---- events ---- */

static void clock_text(time_t t, char out[16])
{
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(out, 16, "%H:%M:%S", &tm);
}

static void describe_low_clock(const struct episode *e, const char *during, struct buf *b)
{
	buf_printf(b, "CPU %s ran at %.0f MHz of %.0f for %.0f s %s", e->detail, e->sum / e->n, e->ref,
		   e->end_t - e->start_t, during);
}

static void describe_thermal(const struct episode *e, const char *during, struct buf *b)
{
	buf_printf(b, "temperature reached %.1f °C (%s, trip %.1f °C) %s; above the trip for %.0f s",
		   e->max / 1000, e->detail, e->ref / 1000, during, e->end_t - e->start_t);
}

static void describe_throttle(const struct episode *e, const char *during, struct buf *b)
{
	buf_printf(b, "thermal throttle counters rose by %.0f (CPU %s) %s", e->sum, e->detail, during);
}

static void describe_quota(const struct episode *e, const char *during, struct buf *b)
{
	buf_printf(b, "the cgroup's CPU quota held ubtune's processes back for %.1f s in %.0f periods %s", e->sum / 1e6,
		   e->sum2, during);
}

static void describe_steal(const struct episode *e, const char *during, struct buf *b)
{
	buf_printf(b, "steal time %.0f %% for %.0f s %s: the hypervisor gave these CPUs to other work",
		   e->sum / e->n, e->end_t - e->start_t, during);
}

static void describe_iowait(const struct episode *e, const char *during, struct buf *b)
{
	buf_printf(b, "I/O wait %.0f %% for %.0f s %s", e->sum / e->n, e->end_t - e->start_t, during);
}

static void describe_swap(const struct episode *e, const char *during, struct buf *b)
{
	char at[16];
	clock_text(e->start_wall, at);
	buf_printf(b, "swapping started at %s %s: %.0f pages in, %.0f out over %.0f s", at, during, e->sum,
		   e->sum2, e->end_t - e->start_t);
}

static void describe_others(const struct episode *e, const char *during, struct buf *b)
{
	buf_printf(b, "other processes used %.0f %% of a CPU for %.0f s %s; busiest: %s", e->sum / e->n,
		   e->end_t - e->start_t, during, e->detail);
}

static void describe_alarm(const struct episode *e, const char *during, struct buf *b)
{
	const char *what = streq(e->cond->kind, "undervoltage") ? "undervoltage alarm" : "hwmon alarm";
	char at[16], end[16];
	clock_text(e->start_wall, at);
	clock_text(e->end_wall, end);
	if (e->at_start)
		buf_printf(b, "%s was already raised when the run started (%s)", what, e->detail);
	else
		buf_printf(b, "%s raised at %s %s (%s)", what, at, during, e->detail);
	if (e->ended_by_run_end)
		buf_puts(b, "; still raised at the end of the run");
	else
		buf_printf(b, "; cleared at %s", end);
}

static const struct condition cond_low_clock = { "low-clock", 2, 3, false, describe_low_clock };
static const struct condition cond_thermal = { "thermal", 0, 3, false, describe_thermal };
static const struct condition cond_throttle = { "throttle", 0, 3, false, describe_throttle };
static const struct condition cond_steal = { "steal", 2, 3, false, describe_steal };
static const struct condition cond_quota = { "cpu-quota", 0, 3, false, describe_quota };
static const struct condition cond_iowait = { "iowait", 2, 3, false, describe_iowait };
static const struct condition cond_swap = { "swap", 0, 3, false, describe_swap };
static const struct condition cond_others = { "others", 2, 3, false, describe_others };
static const struct condition cond_undervoltage = { "undervoltage", 0, 0, true, describe_alarm };
static const struct condition cond_alarm = { "hwmon-alarm", 0, 0, true, describe_alarm };

static void episode_close(struct sampler *s, struct episode *e, time_t wall, bool run_end)
{
	e->open = false;
	e->end_t = e->last_t + s->interval;
	e->end_wall = wall;
	e->ended_by_run_end = run_end;
	if (e->end_t - e->start_t < e->cond->min_duration_s)
		return;
	_cleanup_free_ char *during = phase_text(e->test, e->copies);
	struct buf msg = {0};
	e->cond->describe(e, during, &msg);
	_cleanup_free_ char *when = iso8601_local(e->start_wall);
	json_object *ev = json_object_new_object();
	jset_str(ev, "kind", e->cond->kind);
	jset_str(ev, "time", when);
	jset_double(ev, "offset_s", round1(e->start_t - s->first_t));
	jset_double(ev, "duration_s", round1(e->end_t - e->start_t));
	jset_str(ev, "test", e->test >= 0 ? ub_tests[e->test].id : NULL);
	if (e->test >= 0)
		jset_int(ev, "copies", e->copies);
	else
		jset_null(ev, "copies");
	jset_str(ev, "message", msg.s);
	json_object_array_add(s->events, ev);
	buf_free(&msg);
}

/* Notes that a condition holds in this reading. */
static void episode_touch(struct sampler *s, const struct condition *c, const char *key, double t, time_t wall,
			  int test, unsigned copies, double value, double value2, double ref, const char *detail)
{
	struct episode *e = NULL;
	for (size_t i = 0; i < s->neps; i++)
		if (streq(s->eps[i].key, key))
			e = &s->eps[i];
	if (e && e->open && !c->spans_phases && (e->test != test || e->copies != copies))
		episode_close(s, e, wall, false);
	if (!e) {
		s->eps = xrealloc(s->eps, (s->neps + 1) * sizeof(*s->eps));
		e = &s->eps[s->neps++];
		*e = (struct episode){ .cond = c };
		snprintf(e->key, sizeof(e->key), "%s", key);
	}
	if (!e->open) {
		*e = (struct episode){ .cond = c, .open = true, .start_t = t, .start_wall = wall, .test = test,
				       .copies = copies, .ref = ref, .at_start = s->in_reference };
		snprintf(e->key, sizeof(e->key), "%s", key);
	}
	e->touched = true;
	e->missed = 0;
	e->last_t = t;
	e->sum += value;
	e->sum2 += value2;
	e->n++;
	if (e->n == 1 || value > e->max) {
		e->max = value;
		if (detail)
			snprintf(e->detail, sizeof(e->detail), "%s", detail);
	}
}

static void episodes_settle(struct sampler *s, double t, time_t wall, bool run_end)
{
	for (size_t i = 0; i < s->neps; i++) {
		struct episode *e = &s->eps[i];
		if (e->open && !e->touched)
			e->missed++;
		if (e->open && (run_end || e->missed > e->cond->grace))
			episode_close(s, e, wall, run_end);
		e->touched = false;
	}
}

/* ---- readings ---- */

struct reading {
	int test;
	unsigned copies;
	double t;
	time_t wall;
	json_object *sample;
};

static json_object *double_or_null(double v)
{
	return isnan(v) ? NULL : json_object_new_double(round1(v));
}

static void read_cpus(struct sampler *s, const struct stat_snapshot *st, struct reading *r)
{
	json_object *mhz = json_object_new_array(), *busy = json_object_new_array();
	bool any_freq = false;
	for (size_t i = 0; i < s->policies.n; i++) {
		uint64_t khz;
		struct policy_src *p = &s->pols[i];
		p->mhz = hw_policy_cur_khz(s->rf, p->p, &khz) == 0 && khz > 0 ? (double)khz / 1000.0 : NAN;
	}
	for (size_t i = 0; i < s->ncpu; i++) {
		const struct policy_src *p = s->cpu_pol[i];
		double b = NAN, f = p ? p->mhz : NAN;
		if (i < st->ncpu && i < s->prev_stat.ncpu)
			b = cpu_share_pct(&s->prev_stat.cpu[i], &st->cpu[i], cpu_part_busy);
		json_object_array_add(busy, double_or_null(b));
		if (!isnan(f)) {
			any_freq = true;
			s->min_mhz = isnan(s->min_mhz) || f < s->min_mhz ? f : s->min_mhz;
			s->max_mhz = isnan(s->max_mhz) || f > s->max_mhz ? f : s->max_mhz;
		}
		json_object_array_add(mhz, isnan(f) ? NULL : json_object_new_int((int)lround(f)));
		if (!isnan(f) && p->ref_mhz > 0 && b >= BUSY_CPU_PCT && f < SLOW_CLOCK_SHARE * p->ref_mhz) {
			char key[32], cpu[24];
			snprintf(key, sizeof(key), "clock.%zu", i);
			snprintf(cpu, sizeof(cpu), "%zu", i);
			episode_touch(s, &cond_low_clock, key, r->t, r->wall, r->test, r->copies, f, 0, p->ref_mhz, cpu);
		}
	}
	jset(r->sample, "busy_pct", busy);
	if (any_freq)
		jset(r->sample, "mhz", mhz);
	else
		json_object_put(mhz);
}

/* Throttle counters: core counters of every CPU, package counters once
 * per package. */
static void read_throttle(struct sampler *s, struct reading *r)
{
	for (size_t i = 0; i < s->throttle.n; i++) {
		const struct hw_throttle_cpu *c = &s->throttle.v[i];
		struct throttle_src *t = &s->thr[i];
		struct hw_throttle_reading now;
		hw_throttle_read(s->rf, c, &now);
		if (!now.has_core && !now.has_package)
			continue;
		uint64_t total = (now.has_core ? now.core : 0) + (now.has_package && c->package_first ? now.package : 0);
		if (t->has_last && total > t->last) {
			char cpu[24];
			snprintf(cpu, sizeof(cpu), "%u", c->cpu);
			episode_touch(s, &cond_throttle, "throttle", r->t, r->wall, r->test, r->copies,
				      (double)(total - t->last), 0, 0, cpu);
		}
		t->last = total;
		t->has_last = true;
	}
}

/* The cgroup's throttling counters: time its CPU quota held the processes back. */
static void read_cgroup(struct sampler *s, struct reading *r)
{
	struct cgroup_cpu_stat now;
	if (!s->cgroup_dir || cgroup_cpu_stat(s->rf, s->cgroup_dir, &now) < 0)
		return;
	struct cgroup_cpu_stat *prev = &s->cgroup_prev;
	if (s->cgroup_has_prev && now.throttled_usec >= prev->throttled_usec && now.nr_throttled >= prev->nr_throttled) {
		uint64_t us = now.throttled_usec - prev->throttled_usec, periods = now.nr_throttled - prev->nr_throttled;
		jset_int(r->sample, "throttled_ms", (int64_t)(us / 1000));
		if (r->test >= 0)
			s->throttled_s += (double)us / 1e6;
		if (us > 0)
			episode_touch(s, &cond_quota, "cpu-quota", r->t, r->wall, r->test, r->copies, (double)us,
				      (double)periods, 0, NULL);
	}
	*prev = now;
	s->cgroup_has_prev = true;
}

static void read_thermal(struct sampler *s, struct reading *r)
{
	double hottest = NAN;
	const struct hw_zone *hz = NULL;
	for (size_t i = 0; i < s->zones.n; i++) {
		const struct hw_zone *z = &s->zones.v[i];
		int64_t mc;
		if (hw_zone_temp(s->rf, z, &mc) < 0)
			continue;
		if (isnan(hottest) || (double)mc > hottest) {
			hottest = (double)mc;
			hz = z;
		}
		int trip = z->throttle_trip;
		if (trip >= 0 && mc >= z->trips[trip].temp_mc) {
			_cleanup_free_ char *key = xasprintf("thermal.%zu", i);
			episode_touch(s, &cond_thermal, key, r->t, r->wall, r->test, r->copies, (double)mc, 0,
				      (double)z->trips[trip].temp_mc, z->type ?: z->name);
		}
	}
	if (hz) {
		jset_int(r->sample, "temp_mc", (int64_t)hottest);
		jset_str(r->sample, "temp_zone", hz->type ?: hz->name);
		if (isnan(s->max_temp_mc) || hottest > s->max_temp_mc)
			s->max_temp_mc = hottest;
	}
}

static void read_alarms(struct sampler *s, struct reading *r)
{
	json_object *active = NULL;
	for (size_t i = 0; i < s->nalarms; i++) {
		const struct alarm_src *a = &s->alarms[i];
		bool raised;
		if (hw_alarm_read(s->rf, a->alarm, &raised) < 0 || !raised)
			continue;
		episode_touch(s, hw_alarm_undervoltage(a->sensor, a->alarm) ? &cond_undervoltage : &cond_alarm,
			      a->alarm->path, r->t, r->wall, r->test, r->copies, 1, 0, 0, a->label);
		if (!active)
			active = json_object_new_array();
		jarr_add_str(active, a->label);
	}
	if (active)
		jset(r->sample, "alarms", active);
}

static void read_system(struct sampler *s, const struct stat_snapshot *st, struct reading *r)
{
	double steal = cpu_share_pct(&s->prev_stat.all, &st->all, cpu_part_steal);
	double iowait = cpu_share_pct(&s->prev_stat.all, &st->all, cpu_part_iowait);
	double sys = cpu_share_pct(&s->prev_stat.all, &st->all, cpu_part_system);
	jset(r->sample, "sys_pct", double_or_null(sys));
	jset(r->sample, "steal_pct", double_or_null(steal));
	jset(r->sample, "iowait_pct", double_or_null(iowait));
	if (steal >= SAMPLER_STEAL_PCT)
		episode_touch(s, &cond_steal, "steal", r->t, r->wall, r->test, r->copies, steal, 0, 0, NULL);
	if (iowait >= SAMPLER_IOWAIT_PCT)
		episode_touch(s, &cond_iowait, "iowait", r->t, r->wall, r->test, r->copies, iowait, 0, 0, NULL);

	uint64_t in, out;
	if (vmstat_read_swap(s->rf, &in, &out) == 0) {
		if (s->prev_swap && in >= s->prev_swap_in && out >= s->prev_swap_out) {
			uint64_t din = in - s->prev_swap_in, dout = out - s->prev_swap_out;
			jset_int(r->sample, "swap_in", (int64_t)din);
			jset_int(r->sample, "swap_out", (int64_t)dout);
			if (din + dout > 0)
				episode_touch(s, &cond_swap, "swap", r->t, r->wall, r->test, r->copies, (double)din,
					      (double)dout, 0, NULL);
		}
		s->prev_swap_in = in;
		s->prev_swap_out = out;
		s->prev_swap = true;
	}
}

/* Reading every process's stat costs about 10 µs each: on machines with
 * many processes the table is read every few readings and its result
 * carried over in between, so the sampler stays cheap. */
#define PROCS_PER_READING 200
#define MAX_SCAN_EVERY 30

static void scan_others(struct sampler *s, double t)
{
	struct proc_table procs = {0};
	struct proc_usage *u = NULL;
	proc_table_read(s->rf, rootfs_is_live(s->rf), &procs);
	size_t n = proc_usage_diff(&s->prev_procs, &procs, t - s->procs_t, s->self, &u, &s->others_pct);
	if (n > 0)
		snprintf(s->others_top, sizeof(s->others_top), "%s (pid %d)", u[0].comm, (int)u[0].pid);
	else
		s->others_top[0] = '\0';
	free(u);
	size_t every = procs.n / PROCS_PER_READING;
	s->scan_every = every < 1 ? 1 : every > MAX_SCAN_EVERY ? MAX_SCAN_EVERY : (unsigned)every;
	proc_table_free(&s->prev_procs);
	s->prev_procs = procs;
	s->procs_t = t;
	s->since_scan = 0;
}

static void read_others(struct sampler *s, struct reading *r)
{
	if (++s->since_scan >= s->scan_every)
		scan_others(s, r->t);
	jset_double(r->sample, "others_pct", round1(s->others_pct));
	if (s->others_pct > s->max_others)
		s->max_others = s->others_pct;
	if (s->others_top[0] && s->others_pct >= SAMPLER_OTHERS_PCT) {
		episode_touch(s, &cond_others, "others", r->t, r->wall, r->test, r->copies, s->others_pct, 0, 0,
			      s->others_top);
		jset_str(r->sample, "others_top", s->others_top);
	}
}

/* The reference reading: later ones are measured against it; alarms
 * already raised show up now. */
static void first_reading(struct sampler *s, double t, time_t wall)
{
	struct reading r = { -1, 0, t, wall, json_object_new_object() };
	s->have_prev = true;
	s->first_t = t;
	s->in_reference = true;
	scan_others(s, t);
	read_alarms(s, &r);
	read_throttle(s, &r);
	read_cgroup(s, &r);
	episodes_settle(s, t, wall, false);
	s->in_reference = false;
	json_object_put(r.sample);
}

static void next_reading(struct sampler *s, const struct stat_snapshot *st, double t, time_t wall)
{
	struct reading r = { .t = t, .wall = wall, .sample = json_object_new_object() };
	pthread_mutex_lock(&s->lock);
	r.test = s->test;
	r.copies = s->copies;
	pthread_mutex_unlock(&s->lock);

	jset_double(r.sample, "t", round1(t - s->first_t));
	jset_str(r.sample, "test", r.test >= 0 ? ub_tests[r.test].id : NULL);
	if (r.test >= 0)
		jset_int(r.sample, "copies", r.copies);
	read_cpus(s, st, &r);
	read_thermal(s, &r);
	read_alarms(s, &r);
	read_throttle(s, &r);
	read_cgroup(s, &r);
	read_system(s, st, &r);
	read_others(s, &r);
	episodes_settle(s, t, wall, false);
	json_object_array_add(s->samples, r.sample);
	s->count++;
}

void sampler_tick(struct sampler *s, double t, time_t wall)
{
	struct stat_snapshot st;
	if (stat_read(s->rf, &st) < 0)
		return;
	if (s->have_prev)
		next_reading(s, &st, t, wall);
	else
		first_reading(s, t, wall);
	stat_snapshot_free(&s->prev_stat);
	s->prev_stat = st;
	s->last_t = t;
}

static int cmp_event_start(const void *a, const void *b)
{
	double x = 0, y = 0;
	jpath_double(*(json_object *const *)a, "offset_s", &x);
	jpath_double(*(json_object *const *)b, "offset_s", &y);
	return x < y ? -1 : x > y;
}

void sampler_finish(struct sampler *s, double t)
{
	episodes_settle(s, t, time(NULL), true);
	/* events are written when they end: list them by when they began */
	json_object_array_sort(s->events, cmp_event_start);
}

/* ---- the thread ---- */

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	pthread_mutex_lock(&s->lock);
	while (!s->stopping) {
		pthread_mutex_unlock(&s->lock);
		sampler_tick(s, now_s(), time(NULL));
		pthread_mutex_lock(&s->lock);
		until.tv_sec += (time_t)s->interval;
		until.tv_nsec += (long)((s->interval - floor(s->interval)) * 1e9);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (!s->stopping && pthread_cond_timedwait(&s->wake, &s->lock, &until) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&s->lock);
	struct timespec cpu;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
		s->cpu_s = (double)cpu.tv_sec + (double)cpu.tv_nsec / 1e9;
	return NULL;
}

int sampler_start(struct sampler *s, double interval_s)
{
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);
	s->interval = interval_s;
	int r = pthread_create(&s->thread, NULL, sampler_main, s);
	if (r != 0) {
		pthread_cond_destroy(&s->wake);
		return -r;
	}
	s->running = true;
	return 0;
}

void sampler_stop(struct sampler *s)
{
	if (!s->running)
		return;
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_cond_destroy(&s->wake);
	s->running = false;
	sampler_finish(s, now_s());
}

json_object *sampler_samples(struct sampler *s)
{
	return s->samples;
}

json_object *sampler_events(struct sampler *s)
{
	return s->events;
}

json_object *sampler_summary(struct sampler *s)
{
	json_object *o = json_object_new_object();
	double wall = s->last_t - s->first_t;
	jset_double(o, "interval_s", s->interval);
	jset_int(o, "count", (int64_t)s->count);
	jset_double(o, "cpu_s", s->cpu_s);
	jset_double(o, "wall_s", round1(wall));
	if (wall > 0 && s->cpu_s > 0)
		jset_double(o, "cost_pct", round(s->cpu_s / wall * 100 * 1000) / 1000);
	else
		jset_null(o, "cost_pct");
	size_t nfreq = 0;
	for (size_t i = 0; i < s->ncpu; i++)
		nfreq += s->cpu_pol[i] != NULL;
	json_object *src = jchild(o, "sources");
	jset_int(src, "cpus", (int64_t)s->ncpu);
	jset_int(src, "cpufreq", (int64_t)nfreq);
	jset_int(src, "thermal_zones", (int64_t)s->zones.n);
	jset_int(src, "hwmon_alarms", (int64_t)s->nalarms);
	jset_str(src, "cgroup", s->cgroup_dir);
	jset(o, "max_temp_mc", isnan(s->max_temp_mc) ? NULL : json_object_new_int64((int64_t)s->max_temp_mc));
	jset(o, "min_mhz", isnan(s->min_mhz) ? NULL : json_object_new_int((int)lround(s->min_mhz)));
	jset(o, "max_mhz", isnan(s->max_mhz) ? NULL : json_object_new_int((int)lround(s->max_mhz)));
	jset_double(o, "max_others_pct", round1(s->max_others));
	/* the time the cgroup's CPU quota held the tests back */
	jset(o, "throttled_s", s->cgroup_dir ? json_object_new_double(round1(s->throttled_s)) : NULL);
	return o;
}
