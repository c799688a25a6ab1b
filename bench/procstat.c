/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "procstat.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "lib/util.h"
#include "probe/services.h"

uint64_t cpu_times_total(const struct cpu_times *t)
{
	return t->user + t->nice + t->system + t->idle + t->iowait + t->irq + t->softirq + t->steal;
}

uint64_t cpu_times_busy(const struct cpu_times *t)
{
	return cpu_times_total(t) - t->idle - t->iowait;
}

uint64_t cpu_part_busy(const struct cpu_times *t)
{
	return cpu_times_busy(t);
}

uint64_t cpu_part_system(const struct cpu_times *t)
{
	return t->system + t->irq + t->softirq;
}

uint64_t cpu_part_steal(const struct cpu_times *t)
{
	return t->steal;
}

uint64_t cpu_part_iowait(const struct cpu_times *t)
{
	return t->iowait;
}

double cpu_share_pct(const struct cpu_times *a, const struct cpu_times *b, uint64_t (*part)(const struct cpu_times *))
{
	if (!a->present || !b->present)
		return NAN;
	uint64_t ta = cpu_times_total(a), tb = cpu_times_total(b);
	uint64_t pa = part(a), pb = part(b);
	if (tb <= ta || pb < pa)
		return NAN;
	return 100.0 * (double)(pb - pa) / (double)(tb - ta);
}

/* "cpu  1 2 3 4 5 6 7 8 ..." (older kernels stop early: missing fields are 0). */
static int parse_cpu_line(const char *rest, struct cpu_times *t)
{
	uint64_t v[8] = {0};
	int n = sscanf(rest, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			     " %" SCNu64,
		       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -EBADMSG;
	*t = (struct cpu_times){ true, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7] };
	return 0;
}

int stat_parse(const char *text, struct stat_snapshot *out)
{
	*out = (struct stat_snapshot){0};
	_cleanup_free_ char *copy = xstrdup(text);
	for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *rest;
		uint64_t v;
		if ((rest = startswith(line, "cpu "))) {
			if (parse_cpu_line(rest, &out->all) < 0)
				goto bad;
		} else if ((rest = startswith(line, "cpu"))) {
			char *end;
			errno = 0;
			unsigned long n = strtoul(rest, &end, 10);
			if (end == rest || *end != ' ' || errno || n >= 65536)
				goto bad;
			if (n >= out->ncpu) {
				out->cpu = xrealloc(out->cpu, (n + 1) * sizeof(*out->cpu));
				memset(out->cpu + out->ncpu, 0, (n + 1 - out->ncpu) * sizeof(*out->cpu));
				out->ncpu = n + 1;
			}
			if (parse_cpu_line(end, &out->cpu[n]) < 0)
				goto bad;
		} else if ((rest = startswith(line, "procs_running ")) && parse_u64(rest, &v) == 0) {
			out->procs_running = (unsigned)v;
			out->has_procs_running = true;
		}
	}
	if (out->all.present)
		return 0;
bad:
	stat_snapshot_free(out);
	return -EBADMSG;
}

int stat_read(struct rootfs *rf, struct stat_snapshot *out)
{
	_cleanup_free_ char *text = NULL;
	int r = rootfs_read(rf, "/proc/stat", &text, NULL);
	return r < 0 ? r : stat_parse(text, out);
}

void stat_snapshot_free(struct stat_snapshot *s)
{
	free(s->cpu);
	*s = (struct stat_snapshot){0};
}

static const struct proc_info *proc_find(const struct proc_table *t, pid_t pid)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->v[mid].pid == pid)
			return &t->v[mid];
		if (t->v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool proc_descends_from(const struct proc_table *t, pid_t pid, pid_t ancestor)
{
	/* the depth bound guards against a ppid loop in a hostile dump */
	for (unsigned depth = 0; pid > 0 && depth < 4096; depth++) {
		if (pid == ancestor)
			return true;
		const struct proc_info *s = proc_find(t, pid);
		if (!s)
			return false;
		pid = s->ppid;
	}
	return false;
}

static int cmp_usage(const void *a, const void *b)
{
	const struct proc_usage *x = a, *y = b;
	if (x->cpu_pct != y->cpu_pct)
		return x->cpu_pct < y->cpu_pct ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

size_t proc_usage_diff(const struct proc_table *a, const struct proc_table *b, double seconds, pid_t self,
		       struct proc_usage **out, double *total_pct)
{
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0)
		hz = 100;
	*out = NULL;
	*total_pct = 0;
	if (seconds <= 0)
		return 0;
	size_t n = 0;
	struct proc_usage *u = xcalloc(b->n ? b->n : 1, sizeof(*u));
	for (size_t i = 0; i < b->n; i++) {
		const struct proc_info *now = &b->v[i];
		const struct proc_info *then = proc_find(a, now->pid);
		if (!then || then->start_ticks != now->start_ticks || now->cpu_ticks < then->cpu_ticks)
			continue;
		if (self > 0 && proc_descends_from(b, now->pid, self))
			continue;
		double pct = 100.0 * (double)(now->cpu_ticks - then->cpu_ticks) / (double)hz / seconds;
		if (pct <= 0)
			continue;
		u[n] = (struct proc_usage){ .pid = now->pid, .cpu_pct = pct };
		memcpy(u[n].comm, now->comm, sizeof(u[n].comm));
		*total_pct += pct;
		n++;
	}
	qsort(u, n, sizeof(*u), cmp_usage);
	*out = u;
	return n;
}

int vmstat_read_swap(struct rootfs *rf, uint64_t *in, uint64_t *out)
{
	_cleanup_free_ char *text = NULL;
	int r = rootfs_read(rf, "/proc/vmstat", &text, NULL);
	if (r < 0)
		return r;
	bool got_in = false, got_out = false;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *v;
		if ((v = startswith(line, "pswpin ")))
			got_in = parse_u64(v, in) == 0;
		else if ((v = startswith(line, "pswpout ")))
			got_out = parse_u64(v, out) == 0;
	}
	return got_in && got_out ? 0 : -ENODATA;
}
