/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "probe.h"

int power_collect(struct probe_ctx *ctx)
{
	json_object *o = jchild(ctx->rec, "power");
	jset_null(o, "undervoltage_now");
	jset_null(o, "undervoltage_events");
	jset_null(o, "on_battery");
	jset(o, "hwmon", json_object_new_array());
	jset(o, "thermal", json_object_new_array());
	probe_unavailable(ctx, "power", "not collected yet");
	return 0;
}

void power_render(json_object *rec _unused_, FILE *out _unused_)
{
}
