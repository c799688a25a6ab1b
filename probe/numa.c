/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "probe.h"

int numa_collect(struct probe_ctx *ctx)
{
	json_object *o = jchild(ctx->rec, "numa");
	jset_null(o, "nodes");
	jset_null(o, "storage_irqs");
	jset_null(o, "irqbalance");
	probe_unavailable(ctx, "numa", "not collected yet");
	return 0;
}

void numa_render(json_object *rec _unused_, FILE *out _unused_)
{
}
