/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "applied.h"

#include <errno.h>

#include "tune/tune.h"

/* A string member, or null/missing (NULL). -EBADMSG for another type. */
static int opt_string(json_object *o, const char *path, char **out)
{
	json_object *v = jpath(o, path);
	*out = NULL;
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return -EBADMSG;
	*out = xstrdup(json_object_get_string(v));
	return 0;
}

/* A string, or a list of strings and numbers joined with commas. */
static int opt_list(json_object *o, const char *path, char **out)
{
	json_object *v = jpath(o, path);
	if (!v || !json_object_is_type(v, json_type_array))
		return opt_string(o, path, out);
	struct buf b = {0};
	for (size_t i = 0; i < jarr_len(v); i++) {
		json_object *e = json_object_array_get_idx(v, i);
		if (!e || !(json_object_is_type(e, json_type_string) || json_object_is_type(e, json_type_int))) {
			buf_free(&b);
			return -EBADMSG;
		}
		buf_printf(&b, "%s%s", i ? "," : "", json_object_get_string(e));
	}
	*out = b.s ? buf_steal(&b) : NULL;
	return 0;
}

static int read_fields(json_object *o, struct applied_profile *p, char **bad)
{
	json_object *profiles = jpath(o, "profiles");
	if (profiles && !json_object_is_type(profiles, json_type_array))
		return *bad = xstrdup("profiles is not a list of names"), -EBADMSG;
	for (size_t i = 0; i < jarr_len(profiles); i++) {
		json_object *e = json_object_array_get_idx(profiles, i);
		if (!e || !json_object_is_type(e, json_type_string))
			return *bad = xstrdup("profiles is not a list of names"), -EBADMSG;
		strv_push(&p->profiles, json_object_get_string(e));
	}
	struct {
		const char *key;
		char **field;
		int (*get)(json_object *, const char *, char **);
		const char *want;
	} fields[] = {
		{ "build.cc", &p->cc, opt_string, "a string" },
		{ "build.cflags", &p->cflags, opt_string, "a string" },
		{ "bench.copies", &p->copies, opt_list, "a string or a list" },
		{ "bench.tests", &p->tests, opt_list, "a string or a list" },
		{ "workdir.path", &p->workdir, opt_string, "a string" },
		{ "workdir.type", &p->workdir_type, opt_string, "a string" },
		{ "boot_id", &p->boot_id, opt_string, "a string" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (fields[i].get(o, fields[i].key, fields[i].field) < 0)
			return *bad = xasprintf("%s is not %s", fields[i].key, fields[i].want), -EBADMSG;
	if (p->workdir && p->workdir[0] != '/')
		return *bad = xasprintf("workdir.path '%s' is not an absolute path", p->workdir), -EBADMSG;
	json_object *q = jpath(o, "bench.quick");
	p->quick = -1;
	if (q && !json_object_is_type(q, json_type_boolean))
		return *bad = xstrdup("bench.quick is not true or false"), -EBADMSG;
	if (q)
		p->quick = json_object_get_boolean(q);
	return 0;
}

int applied_profile_load(const char *dir, struct applied_profile *out, char **error)
{
	*out = (struct applied_profile){ .quick = -1, .path = xasprintf("%s/%s", dir, APPLIED_FILE) };
	*error = NULL;
	json_object *o = NULL;
	int r = applied_load(dir, &o);
	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		*error = r == -EBADMSG ? xasprintf("%s: not valid JSON", out->path)
				       : xasprintf("cannot read %s: %s", out->path, strerror(-r));
		goto fail;
	}
	out->raw = o;
	if (!json_object_is_type(o, json_type_object)) {
		*error = xasprintf("%s: not a JSON object", out->path);
		r = -EBADMSG;
		goto fail;
	}
	char *bad = NULL;
	r = read_fields(o, out, &bad);
	if (r < 0) {
		*error = xasprintf("%s: %s", out->path, bad);
		free(bad);
		goto fail;
	}
	out->present = true;
	return 0;
fail:
	/* nothing for the caller to free */
	applied_profile_free(out);
	return r;
}

bool applied_profile_stale(const struct applied_profile *p, const char *current_boot_id)
{
	return p->present && p->boot_id && current_boot_id && !streq(p->boot_id, current_boot_id);
}

void applied_profile_free(struct applied_profile *p)
{
	free(p->path);
	strv_free(&p->profiles);
	free(p->cc);
	free(p->cflags);
	free(p->copies);
	free(p->tests);
	free(p->workdir);
	free(p->workdir_type);
	free(p->boot_id);
	json_object_put(p->raw);
	*p = (struct applied_profile){ .quick = -1 };
}
