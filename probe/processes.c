/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Processes: how many there are, how many are runnable right now, and the
 * busiest ones by CPU share since they started. A benchmark that shares
 * the CPUs with other work measures that work too.
 */
#include <errno.h>
#include <math.h>

#include "probe.h"
#include "processes.h"

/* "1234 (comm) S 1 ...": comm may hold spaces and parentheses, so it ends
 * at the last ')'. utime, stime and starttime are fields 14, 15 and 22. */
int proc_stat_parse(const char *text, struct proc_info *out)
{
	const char *open = strchr(text, '(');
	const char *close = strrchr(text, ')');
	if (!open || !close || close < open)
		return -EBADMSG;

	_cleanup_free_ char *pid = xstrndup(text, (size_t)(open - text));
	int64_t p;
	if (parse_s64(pid, &p) < 0 || p <= 0 || p > INT32_MAX)
		return -EBADMSG;

	uint64_t fields[20];
	size_t nf = 0;
	_cleanup_free_ char *rest = xstrdup(close + 1);
	char *save = NULL;
	/* field 3 (state) is the first token after ')' */
	for (char *t = strtok_r(rest, " \n", &save); t && nf < ARRAY_SIZE(fields); t = strtok_r(NULL, " \n", &save), nf++)
		if (nf > 0 && parse_u64(t, &fields[nf]) < 0)
			fields[nf] = UINT64_MAX;
	if (nf < 20 || fields[11] == UINT64_MAX || fields[12] == UINT64_MAX || fields[19] == UINT64_MAX)
		return -EBADMSG;

	*out = (struct proc_info){ .pid = (int)p, .ppid = fields[1] <= INT32_MAX ? (int)fields[1] : 0 };
	size_t n = (size_t)(close - open - 1);
	memcpy(out->comm, open + 1, n < sizeof(out->comm) - 1 ? n : sizeof(out->comm) - 1);
	out->cpu_ticks = fields[11] + fields[12];
	out->start_ticks = fields[19];
	return 0;
}

double proc_cpu_pct(const struct proc_info *p, double uptime_s, long ticks_per_s)
{
	double age = uptime_s - (double)p->start_ticks / (double)ticks_per_s;
	if (age <= 0)
		return -1;
	return 100.0 * (double)p->cpu_ticks / (double)ticks_per_s / age;
}

int proc_stat_counts(const char *proc_stat, int64_t *running, int64_t *blocked)
{
	bool have_running = false, have_blocked = false;
	for (const char *l = proc_stat; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *v;
		char *end;
		if ((v = startswith(l, "procs_running "))) {
			*running = strtoll(v, &end, 10);
			have_running = end != v;
		} else if ((v = startswith(l, "procs_blocked "))) {
			*blocked = strtoll(v, &end, 10);
			have_blocked = end != v;
		}
	}
	return have_running && have_blocked ? 0 : -EBADMSG;
}

/* The pid of the reader: /proc/self in the root (live, and kept by gather). */
static int self_pid(struct rootfs *rf, bool live)
{
	_cleanup_free_ char *target = NULL;
	int64_t pid;
	if (rootfs_readlink(rf, "/proc/self", &target) == 0 && parse_s64(target, &pid) == 0)
		return (int)pid;
	return live ? (int)getpid() : -1;
}

int proc_table_read(struct rootfs *rf, bool live, struct proc_table *t)
{
	struct strv names = {0};
	*t = (struct proc_table){0};
	int r = rootfs_list(rf, "/proc", &names);
	if (r < 0)
		return r;
	int self = self_pid(rf, live);
	size_t cap = 0;
	for (size_t i = 0; i < names.n; i++) {
		if (!str_numbered(names.v[i], ""))
			continue;
		_cleanup_free_ char *path = xasprintf("/proc/%s/stat", names.v[i]), *text = NULL;
		struct proc_info p;
		/* a process that ended since the listing has no stat any more */
		if (rootfs_read(rf, path, &text, NULL) < 0 || proc_stat_parse(text, &p) < 0)
			continue;
		t->seen = true;
		if (p.pid == self)
			continue;
		if (t->n == cap) {
			cap = cap ? cap * 2 : 256;
			t->v = xrealloc(t->v, cap * sizeof(*t->v));
		}
		t->v[t->n++] = p;
	}
	strv_free(&names);
	return 0;
}

void proc_table_free(struct proc_table *t)
{
	free(t->v);
	*t = (struct proc_table){0};
}

int probe_procs(struct probe_ctx *ctx, const struct proc_table **out)
{
	if (!ctx->procs) {
		ctx->procs = xcalloc(1, sizeof(*ctx->procs));
		ctx->procs_error = proc_table_read(ctx->rf, ctx->live, ctx->procs);
	}
	*out = ctx->procs;
	return ctx->procs_error;
}

void probe_procs_free(struct probe_ctx *ctx)
{
	if (!ctx->procs)
		return;
	proc_table_free(ctx->procs);
	free(ctx->procs);
	ctx->procs = NULL;
}

struct busy {
	const struct proc_info *p;
	double pct; /* rounded to 0.1 as recorded */
};

static int busy_cmp(const void *a, const void *b)
{
	const struct busy *x = a, *y = b;
	if (x->pct != y->pct)
		return x->pct < y->pct ? 1 : -1;
	return x->p->pid - y->p->pid;
}

static json_object *top_processes(const struct proc_table *t, double uptime)
{
	long hz = sysconf(_SC_CLK_TCK);
	struct busy *b = xcalloc(t->n + 1, sizeof(*b));
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++) {
		double pct = round(proc_cpu_pct(&t->v[i], uptime, hz > 0 ? hz : 100) * 10) / 10;
		if (pct >= PROCESSES_TOP_PCT)
			b[n++] = (struct busy){ &t->v[i], pct };
	}
	qsort(b, n, sizeof(*b), busy_cmp);
	json_object *top = json_object_new_array();
	for (size_t i = 0; i < n && i < PROCESSES_TOP_MAX; i++) {
		json_object *e = json_object_new_object();
		jset_int(e, "pid", b[i].p->pid);
		jset_str(e, "comm", b[i].p->comm);
		jset_round(e, "cpu_pct", b[i].pct, 1);
		json_object_array_add(top, e);
	}
	free(b);
	return top;
}

static int read_uptime(struct rootfs *rf, double *out)
{
	_cleanup_free_ char *line = NULL;
	int r = rootfs_read_line(rf, "/proc/uptime", &line);
	if (r < 0)
		return r;
	line[strcspn(line, " ")] = '\0';
	return parse_double(line, out);
}

void processes_collect(struct probe_ctx *ctx, const struct proc_table *t)
{
	json_object *o = jchild(ctx->rec, "processes");
	_cleanup_free_ char *stat = NULL;
	int64_t running, blocked;
	double uptime;

	int r = rootfs_read(ctx->rf, "/proc/stat", &stat, NULL);
	if (r == 0 && proc_stat_counts(stat, &running, &blocked) == 0) {
		/* the reader itself is one of the runnable ones */
		jset_int(o, "running", running > 0 ? running - 1 : 0);
		jset_int(o, "blocked", blocked);
	} else {
		jset_null(o, "running");
		jset_null(o, "blocked");
		if (r < 0)
			probe_unavailable(ctx, "processes", "runnable processes: /proc/stat: %s", strerror(-r));
		else
			probe_unavailable(ctx, "processes", "runnable processes: /proc/stat has no procs_running and procs_blocked");
	}

	if (!t->seen) {
		jset_null(o, "total");
		jset_null(o, "top");
		probe_unavailable(ctx, "processes", "no readable /proc/[pid]/stat");
		return;
	}
	jset_int(o, "total", (int64_t)t->n);
	if (read_uptime(ctx->rf, &uptime) < 0) {
		jset_null(o, "top");
		probe_unavailable(ctx, "processes", "busiest processes: /proc/uptime is not readable");
		return;
	}
	jset(o, "top", top_processes(t, uptime));
}

void processes_format_top(const struct env_processes *p, struct buf *b)
{
	for (size_t i = 0; i < p->top.n; i++) {
		const struct env_process *e = &p->top.v[i];
		buf_printf(b, "%s%s %.1f %% (pid %lld)", i ? ", " : "", e->comm ?: "?", num_or(e->cpu_pct, 0),
			   (long long)int_or(e->pid, 0));
	}
}
