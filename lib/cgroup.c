/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cgroup.h"

#include <errno.h>
#include <math.h>
#include <sched.h>

#include "cpuset.h"
#include "mounts.h"
#include "util.h"

#define CGROUP_FS "/sys/fs/cgroup"
/* v1 writes "no limit" as the largest page-aligned signed number */
#define V1_NO_LIMIT (UINT64_C(1) << 62)

static const char *const controller_names[CGROUP_N] = { "cpu", "cpuset", "memory", "pids" };

/* Whether a comma-separated list holds word. */
static bool list_has(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, word, n) == 0)
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

/* top + the part of path below the mounted root ("/" when path is not below it). */
static char *join_below(const char *top, const char *root, const char *path)
{
	const char *rest = path;
	if (root && !streq(root, "/")) {
		rest = startswith(path, root);
		if (!rest || (*rest && *rest != '/'))
			rest = "";
	}
	if (streq(rest, "/") || startswith(rest, "/.."))
		rest = "";
	return xasprintf("%s%s", top, rest);
}

static void set_dir(struct cgroup_dir *d, int version, const char *top, const char *root, const char *path)
{
	free(d->dir);
	free(d->top);
	d->version = version;
	d->top = xstrdup(top);
	d->dir = join_below(top, root, path);
}

/* Mount points from the mount table; false when there is none. The old
 * cpuset file system and a v1 "noprefix" mount name their files without
 * "cpuset." in front. */
static bool from_mounts(struct rootfs *rf, struct cgroup *cg, const char *v2_path, char *const *v1_paths)
{
	_cleanup_free_ char *info = NULL, *mounts = NULL;
	struct mount_table t;
	if (!(rootfs_read(rf, "/proc/self/mountinfo", &info, NULL) == 0 && mount_table_parse_mountinfo(info, &t) == 0) &&
	    !(rootfs_read(rf, "/proc/mounts", &mounts, NULL) == 0 && mount_table_parse_mounts(mounts, &t) == 0))
		return false;
	for (size_t i = 0; i < t.n; i++) {
		const struct mount_entry *m = &t.v[i];
		const char *opts = m->super_options ?: m->options;
		bool cpuset_fs = streq(m->fstype, "cpuset");
		for (int c = 0; c < CGROUP_N; c++) {
			struct cgroup_dir *d = &cg->ctrl[c];
			if (v1_paths[c] && ((streq(m->fstype, "cgroup") && list_has(opts, controller_names[c])) ||
					    (cpuset_fs && c == CGROUP_CPUSET))) {
				set_dir(d, 1, m->target, m->root, v1_paths[c]);
				d->noprefix = cpuset_fs || list_has(opts, "noprefix");
			} else if (streq(m->fstype, "cgroup2") && v2_path && d->version != 1) {
				set_dir(d, 2, m->target, m->root, v2_path);
			}
		}
	}
	mount_table_free(&t);
	return true;
}

/* Without a mount table: the mount points systemd and the container engines use. */
static void from_defaults(struct rootfs *rf, struct cgroup *cg, const char *v2_path, char *const *v1_paths)
{
	static const char *const v1_tops[CGROUP_N] = { CGROUP_FS "/cpu", CGROUP_FS "/cpuset", CGROUP_FS "/memory",
						       CGROUP_FS "/pids" };
	bool v2 = v2_path && rootfs_exists(rf, CGROUP_FS) == 0;
	for (int c = 0; c < CGROUP_N; c++) {
		if (v1_paths[c] && rootfs_exists(rf, v1_tops[c]) == 0)
			set_dir(&cg->ctrl[c], 1, v1_tops[c], NULL, v1_paths[c]);
		else if (v2)
			set_dir(&cg->ctrl[c], 2, CGROUP_FS, NULL, v2_path);
	}
}

int cgroup_open(struct rootfs *rf, struct cgroup *cg)
{
	_cleanup_free_ char *text = NULL, *v2_path = NULL;
	char *v1_paths[CGROUP_N] = { NULL };
	*cg = (struct cgroup){0};
	int r = rootfs_read(rf, "/proc/self/cgroup", &text, NULL);
	if (r < 0) {
		/* kernels and dumps with only the cpuset's path (/proc/self/cpuset) */
		_cleanup_free_ char *cpuset = NULL;
		if (rootfs_read_line(rf, "/proc/self/cpuset", &cpuset) < 0 || cpuset[0] != '/')
			return r;
		text = xasprintf("0::%s\n1:cpuset:%s\n", cpuset, cpuset);
	}

	/* "0::/user.slice/..." (v2), "4:cpu,cpuacct:/user.slice" (v1) */
	struct strv lines = {0};
	strv_split(text, "\n", &lines);
	for (size_t i = 0; i < lines.n; i++) {
		char *id_end = strchr(lines.v[i], ':'), *list_end = id_end ? strchr(id_end + 1, ':') : NULL;
		if (!list_end || list_end[1] != '/')
			continue;
		*list_end = '\0';
		const char *list = id_end + 1, *path = list_end + 1;
		if (!*list && !v2_path)
			v2_path = xstrdup(path);
		for (int c = 0; c < CGROUP_N; c++)
			if (list_has(list, controller_names[c]) && !v1_paths[c])
				v1_paths[c] = xstrdup(path);
	}
	strv_free(&lines);
	if (!v2_path && !v1_paths[CGROUP_CPU] && !v1_paths[CGROUP_CPUSET] && !v1_paths[CGROUP_MEMORY] &&
	    !v1_paths[CGROUP_PIDS])
		return -EBADMSG;

	if (!from_mounts(rf, cg, v2_path, v1_paths))
		from_defaults(rf, cg, v2_path, v1_paths);
	cg->version = cg->ctrl[CGROUP_CPU].version;
	cg->path = xstrdup_or_null(cg->version == 1 ? v1_paths[CGROUP_CPU] : v2_path ?: v1_paths[CGROUP_CPU]);
	for (int c = 0; c < CGROUP_N; c++)
		free(v1_paths[c]);
	return 0;
}

void cgroup_free(struct cgroup *cg)
{
	free(cg->path);
	for (int c = 0; c < CGROUP_N; c++) {
		free(cg->ctrl[c].dir);
		free(cg->ctrl[c].top);
	}
	*cg = (struct cgroup){0};
}

void cgroup_walk(const struct cgroup *cg, enum cgroup_controller c, struct strv *dirs)
{
	const struct cgroup_dir *d = &cg->ctrl[c];
	*dirs = (struct strv){0};
	if (!d->version)
		return;
	_cleanup_free_ char *dir = xstrdup(d->dir);
	size_t top = strlen(d->top);
	for (;;) {
		strv_push(dirs, dir);
		char *slash = strrchr(dir, '/');
		if (strlen(dir) <= top || !slash || (size_t)(slash - dir) < top)
			break;
		*slash = '\0';
	}
}

/* "25000 100000" or "max 100000" (v2 cpu.max): 1, 0 for max, -EBADMSG. */
static int parse_cpu_max(const char *s, int64_t *quota, int64_t *period)
{
	char q[32];
	long long p;
	if (sscanf(s, "%31s %lld", q, &p) != 2 || p <= 0)
		return -EBADMSG;
	if (streq(q, "max"))
		return 0;
	uint64_t v;
	if (parse_u64(q, &v) < 0 || v == 0 || v > INT64_MAX)
		return -EBADMSG;
	*quota = (int64_t)v;
	*period = p;
	return 1;
}

/* The quota of one directory: 1, 0 when none, -ENOENT when no file. */
static int dir_quota(struct rootfs *rf, int version, const char *dir, int64_t *quota, int64_t *period,
		     char **source)
{
	_cleanup_free_ char *max = xasprintf("%s/cpu.max", dir), *line = NULL;
	if (version == 2) {
		if (rootfs_read_line(rf, max, &line) < 0)
			return -ENOENT;
		int r = parse_cpu_max(line, quota, period);
		if (r > 0)
			*source = TAKE_PTR(max);
		return r < 0 ? -ENOENT : r;
	}
	_cleanup_free_ char *qf = xasprintf("%s/cpu.cfs_quota_us", dir), *pf = xasprintf("%s/cpu.cfs_period_us", dir);
	if (rootfs_read_s64(rf, qf, quota) < 0)
		return -ENOENT;
	if (*quota <= 0)
		return 0;
	if (rootfs_read_s64(rf, pf, period) < 0 || *period <= 0)
		return -ENOENT;
	*source = TAKE_PTR(qf);
	return 1;
}

int cgroup_cpu_quota(struct rootfs *rf, const struct cgroup *cg, struct cgroup_quota *q)
{
	struct strv dirs;
	int found = -ENOENT;
	*q = (struct cgroup_quota){0};
	cgroup_walk(cg, CGROUP_CPU, &dirs);
	for (size_t i = 0; i < dirs.n; i++) {
		int64_t quota, period;
		char *source = NULL;
		int r = dir_quota(rf, cg->ctrl[CGROUP_CPU].version, dirs.v[i], &quota, &period, &source);
		if (r < 0)
			continue;
		if (found < 0)
			found = 0;
		/* the tightest share: quota/period below the best so far */
		if (r > 0 && (!found || (double)quota / (double)period < (double)q->quota_us / (double)q->period_us)) {
			cgroup_quota_free(q);
			*q = (struct cgroup_quota){ quota, period, source, xstrdup(dirs.v[i]) };
			found = 1;
		} else {
			free(source);
		}
	}
	strv_free(&dirs);
	return found;
}

void cgroup_quota_free(struct cgroup_quota *q)
{
	free(q->source);
	free(q->dir);
	*q = (struct cgroup_quota){0};
}

int cgroup_cpu_stat(struct rootfs *rf, const char *dir, struct cgroup_cpu_stat *st)
{
	_cleanup_free_ char *path = xasprintf("%s/cpu.stat", dir), *text = NULL;
	int r = rootfs_read(rf, path, &text, NULL);
	if (r < 0)
		return r;
	*st = (struct cgroup_cpu_stat){0};
	bool periods = false;
	struct strv lines = {0};
	strv_split(text, "\n", &lines);
	for (size_t i = 0; i < lines.n; i++) {
		char key[32];
		unsigned long long v;
		if (sscanf(lines.v[i], "%31s %llu", key, &v) != 2)
			continue;
		if (streq(key, "nr_periods"))
			st->nr_periods = v, periods = true;
		else if (streq(key, "nr_throttled"))
			st->nr_throttled = v;
		else if (streq(key, "throttled_usec"))
			st->throttled_usec = v;
		else if (streq(key, "throttled_time")) /* v1: ns */
			st->throttled_usec = v / 1000;
	}
	strv_free(&lines);
	return periods ? 0 : -EBADMSG;
}

int cgroup_lowest(struct rootfs *rf, const struct cgroup *cg, enum cgroup_controller c, const char *file,
		  uint64_t *value, char **source)
{
	struct strv dirs;
	int found = -ENOENT;
	cgroup_walk(cg, c, &dirs);
	for (size_t i = 0; i < dirs.n; i++) {
		_cleanup_free_ char *path = xasprintf("%s/%s", dirs.v[i], file), *line = NULL;
		uint64_t v;
		if (rootfs_read_line(rf, path, &line) < 0)
			continue;
		if (found < 0)
			found = 0;
		if (parse_u64(line, &v) < 0 || v >= V1_NO_LIMIT || (found && v >= *value))
			continue;
		*value = v;
		free(*source);
		*source = TAKE_PTR(path);
		found = 1;
	}
	strv_free(&dirs);
	return found;
}

int cgroup_cpuset(struct rootfs *rf, const struct cgroup *cg, bool mems, char **list, char **source)
{
	static const char *const names[2][2][3] = {
		{ { "cpuset.cpus.effective", "cpuset.effective_cpus", "cpuset.cpus" },
		  { "effective_cpus", "cpus", "cpus" } },
		{ { "cpuset.mems.effective", "cpuset.effective_mems", "cpuset.mems" },
		  { "effective_mems", "mems", "mems" } },
	};
	const char *const *files = names[mems][cg->ctrl[CGROUP_CPUSET].noprefix];
	struct strv dirs;
	int r = -ENOENT;
	cgroup_walk(cg, CGROUP_CPUSET, &dirs);
	for (size_t i = 0; i < dirs.n && r < 0; i++)
		for (size_t f = 0; f < ARRAY_SIZE(names[0][0]) && r < 0; f++) {
			_cleanup_free_ char *path = xasprintf("%s/%s", dirs.v[i], files[f]), *line = NULL;
			struct cpuset set = {0};
			/* v1 leaves cpuset.cpus empty until it is set: look further up */
			if (rootfs_read_line(rf, path, &line) < 0 || !*line || cpu_list_parse(line, &set) < 0)
				continue;
			*list = cpuset_format(&set);
			*source = TAKE_PTR(path);
			cpuset_free(&set);
			r = 0;
		}
	strv_free(&dirs);
	return r;
}

unsigned cgroup_usable_cpus(unsigned allowed, double quota_cpus)
{
	if (quota_cpus <= 0 || quota_cpus >= (double)allowed)
		return allowed;
	double whole = floor(quota_cpus);
	return whole < 1 ? 1 : (unsigned)whole;
}

unsigned cgroup_process_cpus(struct rootfs *rf, unsigned *allowed, double *quota_cpus, char **quota_source)
{
	cpu_set_t *set = CPU_ALLOC(CPUSET_MAX);
	size_t size = CPU_ALLOC_SIZE(CPUSET_MAX);
	struct cgroup cg;
	struct cgroup_quota q;
	*allowed = 0;
	*quota_cpus = 0;
	*quota_source = NULL;
	if (set && sched_getaffinity(0, size, set) == 0)
		*allowed = (unsigned)CPU_COUNT_S(size, set);
	CPU_FREE(set);
	if (!*allowed)
		return 0;
	if (cgroup_open(rf, &cg) == 0) {
		if (cgroup_cpu_quota(rf, &cg, &q) > 0) {
			*quota_cpus = (double)q.quota_us / (double)q.period_us;
			*quota_source = TAKE_PTR(q.source);
		}
		cgroup_quota_free(&q);
		cgroup_free(&cg);
	}
	return cgroup_usable_cpus(*allowed, *quota_cpus);
}
