/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "profile.h"

#include <sys/stat.h>

#include "lib/paths.h"

void profile_free(struct profile *p)
{
	for (size_t i = 0; i < p->n_settings; i++) {
		free(p->settings[i].section);
		free(p->settings[i].key);
		free(p->settings[i].value);
		free(p->settings[i].file);
	}
	free(p->settings);
	strv_free(&p->chain);
	strv_free(&p->notes);
	free(p->name);
	free(p->path);
	free(p->description);
	free(p);
}

const struct profile_setting *profile_get(const struct profile *p, const char *section, const char *key)
{
	for (size_t i = 0; i < p->n_settings; i++)
		if (streq(p->settings[i].section, section) && streq(p->settings[i].key, key))
			return &p->settings[i];
	return NULL;
}

char *profile_origin(const struct profile_setting *s)
{
	const char *base = strrchr(s->file, '/');
	return xasprintf("[%s] %s (%s:%u)", s->section, s->key, base ? base + 1 : s->file, s->line);
}

char *profile_find(const char *name)
{
	struct stat st;
	if (strchr(name, '/') || (stat(name, &st) == 0 && S_ISREG(st.st_mode)))
		return xstrdup(name);
	_cleanup_free_ char *dir = data_path("profiles");
	char *p = xasprintf("%s/%s%s", dir, name, endswith(name, ".profile") ? "" : ".profile");
	return p;
}
