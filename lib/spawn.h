/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Runs argv[0] (searched in PATH) with stdin from /dev/null and stderr
 * discarded, and captures its stdout (at most 1 MiB). Returns the exit
 * status (>= 0) or -errno when it could not be started. */
int spawn_capture(const char *const argv[], char **out);
/* The same with stderr captured too, interleaved with stdout (compiler
 * output). */
int spawn_capture_all(const char *const argv[], char **out);
