/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "probe.h"

int storage_collect(struct probe_ctx *ctx)
{
	json_object *o = jchild(ctx->rec, "storage");
	jset_null(o, "mount");
	jset_null(o, "device");
	jset_str(o, "workdir", ctx->workdir);
	probe_unavailable(ctx, "storage", "not collected yet");
	return 0;
}

void storage_render(json_object *rec _unused_, FILE *out _unused_)
{
}
