/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Process list of a root: pids and command names from /proc. */
#include "procs.h"

static bool is_pid(const char *s, int *pid)
{
	uint64_t v;
	if (!*s || strspn(s, "0123456789") != strlen(s) || parse_u64(s, &v) < 0 || v == 0 || v > INT32_MAX)
		return false;
	*pid = (int)v;
	return true;
}

int procs_list(struct rootfs *rf, struct procs *out)
{
	struct strv names = {0};
	int r = rootfs_list(rf, "/proc", &names);
	*out = (struct procs){0};
	if (r < 0)
		return r;

	for (size_t i = 0; i < names.n; i++) {
		int pid;
		if (!is_pid(names.v[i], &pid))
			continue;
		_cleanup_free_ char *path = xasprintf("/proc/%d/comm", pid);
		char *comm = NULL;
		if (rootfs_read_line(rf, path, &comm) < 0)
			continue;
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = (struct proc_entry){ pid, comm };
	}
	strv_free(&names);
	return 0;
}

const struct proc_entry *procs_find(const struct procs *p, const char *comm)
{
	for (size_t i = 0; i < p->n; i++)
		if (streq(p->v[i].comm, comm))
			return &p->v[i];
	return NULL;
}

void procs_free(struct procs *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].comm);
	free(p->v);
	*p = (struct procs){0};
}
