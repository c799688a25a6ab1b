/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A static ubtune loads no shared objects. SQLite can load extensions with
 * dlopen(), which ubtune never asks it to do, and glibc's static dlopen()
 * would need the shared libraries of the very glibc it was linked with at
 * run time (the linker warns about it). A static build with SQLite links
 * with --wrap=dlopen, so SQLite's calls come here and fail as dlopen()
 * does when an object cannot be loaded.
 */
#ifdef UBTUNE_STATIC
#include <stddef.h>

void *__wrap_dlopen(const char *file, int mode);

void *__wrap_dlopen(const char *file, int mode)
{
	return NULL;
}
#endif
