/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hold.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/cpuset.h"
#include "lib/util.h"

const char *hold_dma_latency_device(void)
{
	const char *dev = getenv("UBTUNE_DMA_LATENCY_DEV");
	return dev && *dev ? dev : "/dev/cpu_dma_latency";
}

json_object *hold_dma_latency(int us, int *fd)
{
	const char *dev = hold_dma_latency_device();
	json_object *o = json_object_new_object();
	int32_t v = us;
	*fd = open(dev, O_WRONLY | O_CLOEXEC);
	int err = *fd < 0 ? errno : 0;
	if (!err && write(*fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		err = errno ? errno : EIO;
	jset_int(o, "requested_us", us);
	jset_str(o, "device", dev);
	jset_bool(o, "held", !err);
	if (err) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		_cleanup_free_ char *why = xasprintf("%s: %s%s", dev, strerror(err), err == EACCES ? " (root can hold it)" : "");
		jset_str(o, "error", why);
	} else {
		jset_null(o, "error");
	}
	return o;
}

json_object *hold_pin_fastest(const struct env_record *env, cpu_set_t *set, size_t size, bool *pinned)
{
	json_object *o = json_object_new_object();
	const struct env_cpu_kind *fast = NULL;
	*pinned = false;
	jset_str(o, "requested", "fastest");
	for (size_t i = 0; i < env->cpu.kinds.n; i++)
		if (is_true(env->cpu.kinds.v[i].fastest))
			fast = &env->cpu.kinds.v[i];
	struct cpuset cpus = {0};
	const char *note = NULL;
	if (env->cpu.kinds.n < 2)
		note = "one kind of core: nothing to pin";
	else if (!fast || !fast->cpus || cpu_list_parse(fast->cpus, &cpus) < 0)
		note = "the fastest kind of core is not known";
	if (!note) {
		CPU_ZERO_S(size, set);
		for (size_t c = 0; c < cpuset_size(&cpus) && c < size * 8; c++)
			if (cpuset_isset(&cpus, c))
				CPU_SET_S(c, size, set);
		*pinned = CPU_COUNT_S(size, set) > 0;
	}
	jset_str(o, "cpus", *pinned ? fast->cpus : NULL);
	jset_str(o, "kind", *pinned ? fast->model : NULL);
	jset_str(o, "note", note);
	cpuset_free(&cpus);
	return o;
}

json_object *hold_nproc(unsigned copies, unsigned per_copy)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NPROC, &rl) < 0)
		return NULL;
	json_object *o = json_object_new_object();
	uint64_t needed = (uint64_t)copies * per_copy;
	jset(o, "soft", rl.rlim_cur == RLIM_INFINITY ? NULL : json_object_new_int64((int64_t)rl.rlim_cur));
	jset(o, "hard", rl.rlim_max == RLIM_INFINITY ? NULL : json_object_new_int64((int64_t)rl.rlim_max));
	jset_int(o, "needed", (int64_t)needed);
	/* the limit counts every process of the user, not only ours: raise it
	 * when the copies alone would come near it */
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < needed * 2 && rl.rlim_max > rl.rlim_cur) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NPROC, &rl) == 0)
			jset(o, "raised_to", rl.rlim_cur == RLIM_INFINITY ? json_object_new_string("unlimited")
									 : json_object_new_int64((int64_t)rl.rlim_cur));
		else
			jset_null(o, "raised_to");
	} else {
		jset_null(o, "raised_to");
	}
	return o;
}
