/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "store-setup.h"

#include "lib/log.h"
#include "lib/paths.h"
#include "lib/util.h"

int cli_store_open(struct store **out, bool create)
{
	_cleanup_free_ char *error = NULL;
	int r = store_open_state(out, create, &error);
	if (r < 0)
		log_error("%s", error);
	return r;
}

struct store *cli_store_if_any(void)
{
	_cleanup_free_ char *dir = state_dir(), *path = store_path(dir);
	struct store *s = NULL;
	if (access(path, F_OK) == 0 && cli_store_open(&s, false) < 0)
		return NULL;
	return s;
}
