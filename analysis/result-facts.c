/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Facts of a result as the tables that compare results print them. */
#include "analysis/result-facts.h"

#include <inttypes.h>

#include "lib/util.h"

char *fact_text(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

char *fact_kernel(const struct result_env *res)
{
	return fact_text(res->env.host.kernel_release);
}

char *fact_cpu(const struct result_env *res)
{
	return fact_text(res->env.cpu.model);
}

char *fact_governor(const struct result_env *res)
{
	return fact_text(res->env.cpu.freq.governor);
}

char *fact_max_clock(const struct result_env *res)
{
	struct opt_int khz = res->env.cpu.freq.max_khz;
	return khz.known ? xasprintf("%" PRId64 " MHz", khz.v / 1000) : NULL;
}

char *fact_boost(const struct result_env *res)
{
	struct opt_bool b = res->env.cpu.freq.boost;
	return b.known ? xstrdup(b.v ? "on" : "off") : NULL;
}

char *fact_thp(const struct result_env *res)
{
	return fact_text(res->env.memory.thp);
}

char *fact_online_cpus(const struct result_env *res)
{
	struct opt_int n = res->r.online_cpus;
	return n.known ? xasprintf("%" PRId64, n.v) : NULL;
}

char *fact_profile(const struct result_env *res)
{
	const struct result_record *r = &res->r;
	if (!r->profile.profiles.n)
		return is_true(r->imported) ? NULL : xstrdup("none");
	struct buf b = {0};
	for (size_t i = 0; i < r->profile.profiles.n; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", r->profile.profiles.v[i]);
	return buf_steal(&b);
}
