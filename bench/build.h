/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "lib/json.h"

/*
 * What compiling benchmark programs into the cache shares: the cache key,
 * the compiler's version, the commands make ran, and the build record
 * whose presence marks a finished build (the workloads in engine.c, a
 * UnixBench tree in ubtree.c).
 */

/* A regular file we may execute. */
bool is_executable(const char *path);
/* Runs make (argv, its output captured) for a build into the cache:
 * SIGINT, SIGTERM or SIGHUP stops it with all it started (-EINTR, the
 * signal kept for runner_stop_signal()); the caller removes what it made. */
int build_run_make(const char *const argv[], char **out);
/* The message of a build stopped that way (caller frees). */
char *build_stopped(const char *what, const char *dir);
/* A program name searched in PATH (or a path), as exec would find it. */
char *find_program(const char *name);

/* FNV-1a, 64 bits: a cache key, not a security boundary. */
#define BUILD_HASH_INIT 0xcbf29ce484222325ULL
void build_hash(uint64_t *h, const void *data, size_t n);
/* A string and its terminating NUL (NULL as ""). */
void build_hash_str(uint64_t *h, const char *s);

/* The first line of `cc --version`, or NULL. */
char *build_cc_version(const char *cc);
/* The lines of make's output that are not make's own: the commands. */
json_object *build_commands(const char *make_output);
/* The last lines of compiler output, on one line, for an error message. */
char *build_output_tail(const char *text);
/* Writes dir/build.json (through a temporary file and a rename). */
int build_record_write(const char *dir, json_object *build, char **error);
/* The record of a finished build in dir, marked "cached": its build.json
 * when program (what the build makes) is there too; NULL otherwise. */
json_object *build_record_cached(const char *dir, const char *program);
