/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "preflight.h"

#include <errno.h>
#include <math.h>

#include "bench/runner.h"
#include "probe/services.h"
#include "lib/util.h"

#define PREFLIGHT_STEPS 10

int preflight_measure(struct rootfs *rf, double seconds, pid_t self, struct preflight *out)
{
	struct stat_snapshot a = {0}, b = {0};
	struct proc_table pa = {0}, pb = {0};
	*out = (struct preflight){ .seconds = seconds };

	int r = stat_read(rf, &a);
	if (r < 0)
		return r;
	proc_table_read(rf, rootfs_is_live(rf), &pa);
	uint64_t t0 = now_usec();
	double running = 0;
	unsigned reads = 0;
	for (unsigned i = 0; i < PREFLIGHT_STEPS; i++) {
		r = runner_sleep(seconds / PREFLIGHT_STEPS);
		if (r < 0)
			goto out;
		struct stat_snapshot s;
		if (stat_read(rf, &s) == 0 && s.has_procs_running) {
			/* ubtune itself is running while it reads */
			running += s.procs_running > 0 ? s.procs_running - 1 : 0;
			reads++;
		}
		stat_snapshot_free(&s);
	}
	r = stat_read(rf, &b);
	if (r < 0)
		goto out;
	proc_table_read(rf, rootfs_is_live(rf), &pb);
	double elapsed = (double)(now_usec() - t0) / 1e6;

	out->seconds = elapsed;
	out->ncpu = (unsigned)b.ncpu;
	out->runnable = reads ? running / reads : NAN;
	out->cpu_pct = cpu_share_pct(&a.all, &b.all, cpu_part_busy);
	double total;
	size_t n = proc_usage_diff(&pa, &pb, elapsed, self, &out->top, &total);
	out->ntop = n < PREFLIGHT_TOP ? n : PREFLIGHT_TOP;
	preflight_judge(out);
out:
	stat_snapshot_free(&a);
	stat_snapshot_free(&b);
	proc_table_free(&pa);
	proc_table_free(&pb);
	return r;
}

bool preflight_judge(struct preflight *p)
{
	p->busy = (!isnan(p->runnable) && p->runnable >= PREFLIGHT_MAX_RUNNABLE) ||
		  (!isnan(p->cpu_pct) && p->cpu_pct > PREFLIGHT_MAX_CPU_PCT);
	return p->busy;
}

char *preflight_describe(const struct preflight *p)
{
	struct buf b = {0};
	if (isnan(p->runnable))
		buf_puts(&b, "runnable processes unknown");
	else
		buf_printf(&b, "%.1f processes runnable besides ubtune", p->runnable);
	if (isnan(p->cpu_pct))
		buf_printf(&b, ", CPU use unknown over %.1f s", p->seconds);
	else
		buf_printf(&b, " and %.0f %% of CPU time in use over %.1f s", p->cpu_pct, p->seconds);
	for (size_t i = 0; i < p->ntop; i++)
		buf_printf(&b, "%s%s (pid %d) %.0f %%", i ? ", " : "; busiest processes seen: ", p->top[i].comm, (int)p->top[i].pid,
			   p->top[i].cpu_pct);
	return buf_steal(&b);
}

json_object *preflight_json(const struct preflight *p)
{
	json_object *o = json_object_new_object();
	jset_double(o, "seconds", round(p->seconds * 100) / 100);
	jset(o, "runnable", isnan(p->runnable) ? NULL : json_object_new_double(round(p->runnable * 100) / 100));
	jset(o, "cpu_pct", isnan(p->cpu_pct) ? NULL : json_object_new_double(round(p->cpu_pct * 10) / 10));
	jset_bool(o, "busy", p->busy);
	json_object *top = json_object_new_array();
	for (size_t i = 0; i < p->ntop; i++) {
		json_object *e = json_object_new_object();
		jset_int(e, "pid", p->top[i].pid);
		jset_str(e, "comm", p->top[i].comm);
		jset_double(e, "cpu_pct", round(p->top[i].cpu_pct * 10) / 10);
		json_object_array_add(top, e);
	}
	jset(o, "top", top);
	return o;
}

void preflight_free(struct preflight *p)
{
	free(p->top);
	p->top = NULL;
	p->ntop = 0;
}
