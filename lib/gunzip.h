/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>

/*
 * Inflates a gzip (or zlib) stream held in memory, such as /proc/config.gz,
 * into a NUL-terminated buffer of at most max bytes. 0 or -errno:
 * -EBADMSG for data that is not a valid stream, -EFBIG past max.
 */
int gunzip_mem(const void *in, size_t len, size_t max, char **out, size_t *out_len);
