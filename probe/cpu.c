/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "probe.h"

int cpu_collect(struct probe_ctx *ctx)
{
	json_object *o = jchild(ctx->rec, "cpu");
	jset_null(o, "arch");
	jset_null(o, "vendor");
	jset_null(o, "model");
	jset_null(o, "midr");
	jset_null(o, "sockets");
	jset_null(o, "cores");
	jset_null(o, "threads");
	jset_null(o, "online");
	jset_null(o, "possible");
	jset_null(o, "bogomips");
	jset_null(o, "bogomips_per_cpu");
	jset_null(o, "isolated");
	jset_null(o, "nohz_full");
	jset_null(o, "vulnerabilities");
	json_object *freq = jchild(o, "freq");
	for (const char *const *k = (const char *const[]){ "driver", "governor", "cur_khz", "min_khz", "max_khz", "boost", NULL }; *k; k++)
		jset_null(freq, *k);
	probe_unavailable(ctx, "cpu", "not collected yet");
	return 0;
}

void cpu_render(json_object *rec _unused_, FILE *out _unused_)
{
}
