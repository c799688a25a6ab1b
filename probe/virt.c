/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "probe.h"

int virt_collect(struct probe_ctx *ctx)
{
	json_object *o = jchild(ctx->rec, "virt");
	jset_null(o, "hypervisor");
	jset_null(o, "container");
	jset_null(o, "kvm_dev");
	jset_null(o, "boot_el");
	jset_null(o, "kvm_initialized");
	jset_null(o, "config_virtualization");
	jset_null(o, "steal_pct");
	jset_str(o, "role", "unknown");
	probe_unavailable(ctx, "virt", "not collected yet");
	return 0;
}

void virt_render(json_object *rec _unused_, FILE *out _unused_)
{
}
