/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "lib/embed.h"

#include "lib/util.h"

#if UBTUNE_EMBED_DATA
/*
 * UBTUNE_EMBED_DATA_LIST names a list the Makefile writes, one line a file:
 * DATA_FILE(symbol, "name in the data directory", "/absolute/path").
 */
#define DATA_FILE(sym, name, path) EMBED_FILE(sym, path);
#include UBTUNE_EMBED_DATA_LIST
#undef DATA_FILE
#define DATA_FILE(sym, name, path) EMBEDDED_SYMBOLS(sym);
#include UBTUNE_EMBED_DATA_LIST
#undef DATA_FILE

const struct embedded_file *builtin_data(size_t *n)
{
	/* the sizes are known at link time only: filled on first use */
	static struct embedded_file files[] = {
#define DATA_FILE(sym, name, path) { name, NULL, 0 },
#include UBTUNE_EMBED_DATA_LIST
#undef DATA_FILE
	};
	if (!files[0].data) {
		const struct embedded_file all[] = {
#define DATA_FILE(sym, name, path) { name, sym, EMBEDDED_SIZE(sym) },
#include UBTUNE_EMBED_DATA_LIST
#undef DATA_FILE
		};
		memcpy(files, all, sizeof(files));
	}
	*n = ARRAY_SIZE(files);
	return files;
}
#else
const struct embedded_file *builtin_data(size_t *n)
{
	*n = 0;
	return NULL;
}
#endif
