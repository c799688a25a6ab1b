/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "profile-section.h"

#include <fnmatch.h>
#include <strings.h>

#include "lib/env-record.h"

/* Which conditional sections of a profile apply on a machine, and the
 * settings that win. */

static const char *canonical_arch(const char *a)
{
	if (strcasecmp(a, "arm64") == 0)
		return "aarch64";
	if (strcasecmp(a, "amd64") == 0)
		return "x86_64";
	return a;
}

/* True when one of the "|" patterns matches one of the facts. */
static bool patterns_match(const char *patterns, const char *const *facts, bool arch)
{
	struct strv items = {0};
	strv_split(patterns, "|", &items);
	bool hit = false;
	for (size_t i = 0; i < items.n && !hit; i++)
		for (size_t j = 0; facts[j] && !hit; j++) {
			const char *p = arch ? canonical_arch(items.v[i]) : items.v[i];
			const char *f = arch ? canonical_arch(facts[j]) : facts[j];
			hit = fnmatch(p, f, FNM_CASEFOLD) == 0;
		}
	strv_free(&items);
	return hit;
}

/*
 * A section applies when each of its match-* keys matches the record:
 * match-arch against cpu.arch (host.arch when absent), match-cpu against
 * cpu.model, match-virt against virt.role or virt.hypervisor. A fact the
 * record lacks matches nothing. *why says what decided.
 */
static bool section_matches(const struct profile_section *s, const struct env_record *env, char **why)
{
	bool any = false;
	for (size_t i = 0; i < s->n; i++) {
		const struct profile_entry *e = &s->e[i];
		const char *facts[3] = { NULL, NULL, NULL };
		const char *what;
		if (streq(e->key, "match-arch")) {
			what = "cpu.arch";
			facts[0] = env->cpu.arch ?: env->host.arch;
		} else if (streq(e->key, "match-cpu")) {
			what = "cpu.model";
			facts[0] = env->cpu.model;
		} else if (streq(e->key, "match-virt")) {
			what = "virt.role/virt.hypervisor";
			facts[0] = env->virt.role;
			facts[facts[0] ? 1 : 0] = env->virt.hypervisor;
		} else {
			continue;
		}
		any = true;
		if (!facts[0]) {
			*why = xasprintf("%s is not known on this machine", what);
			return false;
		}
		if (!patterns_match(e->value, facts, streq(e->key, "match-arch"))) {
			*why = xasprintf("%s '%s'%s%s does not match '%s'", what, facts[0], facts[1] ? "/" : "",
					 facts[1] ? facts[1] : "", e->value);
			return false;
		}
	}
	*why = any ? xstrdup("the machine matches") : NULL;
	return true;
}

static bool is_conditional(const struct profile_section *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (profile_is_match_key(s->e[i].key))
			return true;
	return false;
}

static void set_value(struct profile *p, const struct profile_section *s, const struct profile_entry *e)
{
	for (size_t i = 0; i < p->n_settings; i++) {
		struct profile_setting *o = &p->settings[i];
		if (streq(o->section, s->type) && streq(o->key, e->key)) {
			free(o->value);
			o->value = xstrdup(e->value);
			free(o->file);
			o->file = xstrdup(s->file);
			o->line = e->line;
			return;
		}
	}
	p->settings = xrealloc(p->settings, (p->n_settings + 1) * sizeof(*p->settings));
	p->settings[p->n_settings++] = (struct profile_setting){
		xstrdup(s->type), xstrdup(e->key), xstrdup(e->value), xstrdup(s->file), e->line,
	};
}

void profile_resolve(struct profile *p, struct profile_section *const *sections, size_t n, json_object *rec)
{
	struct env_record env;
	_cleanup_free_ char *env_error = NULL;
	/* a fact of the wrong type is not known, and matches nothing */
	(void)env_decode(rec, "", &env, &env_error);
	for (size_t i = 0; i < n; i++) {
		const struct profile_section *s = sections[i];
		if (!s->type || streq(s->type, "profile"))
			continue;
		if (is_conditional(s)) {
			_cleanup_free_ char *why = NULL;
			bool ok = rec && section_matches(s, &env, &why);
			strv_take(&p->notes, xasprintf("%s:%u [%s] %s: %s", s->file, s->line, s->name,
						       ok ? "applies" : "skipped",
						       rec ? why : "no machine to match (checked only)"));
			if (!ok)
				continue;
		}
		for (size_t j = 0; j < s->n; j++)
			if (!profile_is_match_key(s->e[j].key))
				set_value(p, s, &s->e[j]);
	}
	env_record_free(&env);
}
