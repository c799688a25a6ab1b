/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "profiles.h"

#include "lib/paths.h"
#include "tune/profile.h"

void profiles_list(struct strv *names, struct strv *descriptions)
{
	_cleanup_free_ char *dir = data_path("profiles");
	struct strv files = {0};
	if (data_list(dir, &files) < 0)
		return;
	for (size_t i = 0; i < files.n; i++) {
		const char *f = files.v[i];
		if (!endswith(f, ".profile"))
			continue;
		strv_take(names, xstrndup(f, strlen(f) - strlen(".profile")));
		if (!descriptions)
			continue;
		_cleanup_free_ char *path = xasprintf("%s/%s", dir, f);
		struct profile *p = NULL;
		struct strv errors = {0};
		if (profile_load(path, NULL, &p, &errors) == 0 && p->description)
			strv_push(descriptions, p->description);
		else
			strv_push(descriptions, "");
		strv_free(&errors);
		if (p)
			profile_free(p);
	}
	strv_free(&files);
}
