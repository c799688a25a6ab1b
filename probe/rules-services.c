/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about services and load: noisy daemons, a desktop, a busy machine. */
#include "findings.h"
#include "lib/cpuset.h"
#include "services.h"

/* The table row of a services.noisy entry. */
static const struct noise *entry_row(const struct env_noisy *e)
{
	if (streq_ptr(e->source, "process") && e->process)
		return noise_for_comm(e->process);
	return e->unit ? noise_for_unit(e->unit) : NULL;
}

/* The unit, or for noise seen as a process, the process name. */
static const char *entry_name(const struct env_noisy *e)
{
	if (streq_ptr(e->source, "process"))
		return e->process ?: "?";
	return e->unit ?: "?";
}

/* What was seen: "cups.service active (running)" or "process cupsd (pid 812)". */
static void append_seen(struct buf *b, const struct env_noisy *e)
{
	if (b->len)
		buf_puts(b, ", ");
	if (streq_ptr(e->source, "process") && e->pid.known)
		buf_printf(b, "process %s (pid %lld)", e->process ?: "?", (long long)e->pid.v);
	else
		buf_printf(b, "%s %s (%s)", entry_name(e), e->state ?: "?", e->sub ?: "?");
}

struct noisy_set {
	struct buf seen, why, units, daemons, session;
	size_t n;
};

static void noisy_set_free(struct noisy_set *s)
{
	buf_free(&s->seen);
	buf_free(&s->why);
	buf_free(&s->units);
	buf_free(&s->daemons);
	buf_free(&s->session);
}

/* Gathers the services.noisy entries that are (or are not) protective. */
static bool noisy_select(const struct env_record *env, bool protective, struct noisy_set *s)
{
	*s = (struct noisy_set){0};
	for (size_t i = 0; i < env->services.noisy.n; i++) {
		const struct env_noisy *e = &env->services.noisy.v[i];
		if (is_true(e->protective) != protective)
			continue;
		const struct noise *row = entry_row(e);
		append_seen(&s->seen, e);
		buf_printf(&s->why, "\n%s: %s", entry_name(e), row ? row->reason : "known to disturb benchmarks");
		if (streq_ptr(e->source, "unit"))
			buf_printf(&s->units, " %s", e->unit);
		else if (row && !row->unit)
			buf_printf(&s->session, "%s%s", s->session.len ? ", " : "", entry_name(e));
		else
			buf_printf(&s->daemons, "%s%s", s->daemons.len ? ", " : "", entry_name(e));
		s->n++;
	}
	return s->n > 0;
}

static bool noisy_services(const struct env_record *env, struct finding *f)
{
	struct noisy_set s;
	if (!noisy_select(env, false, &s)) {
		noisy_set_free(&s);
		return false;
	}
	finding_set(&f->message, "%s%s", f->message, s.why.s);
	finding_set(&f->evidence, "%s", s.seen.s);
	struct buf fix = {0};
	if (s.units.len)
		buf_printf(&fix, "ubtune apply generic.profile (stops them for the run; ubtune revert starts them "
				 "again), or by hand: systemctl stop%s", s.units.s);
	if (s.daemons.len)
		buf_printf(&fix, "%sstop %s for the run through the init system (for example /etc/init.d/NAME stop)",
			   fix.len ? "; " : "", s.daemons.s);
	if (s.session.len)
		buf_printf(&fix, "%slog out of the desktop session (%s) before the run", fix.len ? "; " : "",
			   s.session.s);
	finding_set(&f->fix, "%s", fix.s);
	buf_free(&fix);
	noisy_set_free(&s);
	return true;
}

static bool protective_services(const struct env_record *env, struct finding *f)
{
	struct noisy_set s;
	bool found = noisy_select(env, true, &s);
	if (found) {
		finding_set(&f->message, "%s%s", f->message, s.why.s);
		finding_set(&f->evidence, "%s", s.seen.s);
	}
	noisy_set_free(&s);
	return found;
}

static bool graphical_target(const struct env_record *env, struct finding *f)
{
	if (!streq_ptr(env->services.default_target, "graphical.target"))
		return false;
	struct buf desktop = {0};
	for (size_t i = 0; i < env->services.noisy.n; i++) {
		const struct env_noisy *e = &env->services.noisy.v[i];
		const struct noise *row = entry_row(e);
		if (row && row->desktop)
			buf_printf(&desktop, "%s%s", desktop.len ? ", " : "", entry_name(e));
	}
	if (desktop.len) {
		finding_set(&f->evidence, "systemd default target = graphical.target; running: %s", desktop.s);
	} else {
		f->severity = SEV_INFO;
		finding_set(&f->message, "The machine boots into graphical.target, though no display manager or "
					 "desktop is running now: one may start after the next boot.");
		finding_set(&f->evidence, "systemd default target = graphical.target");
	}
	buf_free(&desktop);
	return true;
}

/* A process that used this share of a CPU since it started is busy. */
#define BUSY_HOG_PCT 50.0
/* Runnable right now counts when something has also been using CPU time. */
#define BUSY_ACTIVE_PCT 10.0

static bool busy(const struct env_record *env, struct finding *f)
{
	const struct env_processes *pr = &env->processes;
	if (!pr->running.known)
		return false;
	int64_t running = pr->running.v;
	double busiest = pr->top.n ? num_or(pr->top.v[0].cpu_pct, 0) : 0;

	int64_t cpus = 0;
	struct cpuset online = {0};
	if (env->cpu.online && cpuset_parse_list(env->cpu.online, &online) == 0)
		cpus = (int64_t)cpuset_count(&online);
	cpuset_free(&online);

	bool saturated = cpus > 0 && running >= cpus;
	if (!saturated && busiest < BUSY_HOG_PCT && !(running >= 1 && busiest >= BUSY_ACTIVE_PCT))
		return false;
	if (saturated) {
		f->severity = SEV_CRIT;
		finding_set(&f->message, "The machine is saturated: %lld processes besides ubtune are runnable on %lld "
					 "CPUs, so every test shares its CPU with them.",
			    (long long)running, (long long)cpus);
	}

	struct buf ev = {0};
	buf_printf(&ev, "/proc/stat procs_running = %lld besides ubtune", (long long)running);
	if (pr->top.n) {
		buf_puts(&ev, "; CPU share since start: ");
		processes_format_top(&env->processes, &ev);
	}
	if (env->host.load_avg.n && env->host.load_avg.v[0].known)
		buf_printf(&ev, "; load average %.2f", env->host.load_avg.v[0].v);
	finding_set(&f->evidence, "%s", ev.s);
	buf_free(&ev);
	return true;
}

const struct rule services_rules[] = {
	{
		.id = "services.noisy",
		.area = "services",
		.severity = SEV_WARN,
		.message = "Services known to disturb benchmarks are running: they wake up at random moments and "
			   "take CPU time, caches or disk bandwidth from the tests, so scores vary from run to run.",
		.check = noisy_services,
	},
	{
		.id = "services.protective",
		.area = "services",
		.severity = SEV_INFO,
		.message = "A service that protects the hardware is running; keep it, but know what it does "
			   "to long runs.",
		.fix = "nothing to stop: keep it, and give the machine enough cooling for long multi-copy runs",
		.check = protective_services,
	},
	{
		.id = "services.graphical-target",
		.area = "services",
		.severity = SEV_WARN,
		.message = "The machine runs a desktop session (default target graphical.target): the display "
			   "manager, compositor and session daemons compete with the tests for CPU time and memory.",
		.fix = "systemctl isolate multi-user.target for the run (ends the desktop session); "
		       "systemctl set-default multi-user.target to boot without it",
		.check = graphical_target,
	},
	{
		.id = "load.busy",
		.area = "load",
		.severity = SEV_WARN,
		.message = "Other processes are using the CPUs: the tests share them, so scores are lower and "
			   "vary with whatever else runs.",
		.fix = "stop or wait for the busy processes before the run (see `ps -eo pid,pcpu,comm --sort=-pcpu`)",
		.check = busy,
	},
	{ 0 },
};
