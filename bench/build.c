/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What compiling benchmark programs into the cache shares (bench/build.h). */
#include "bench/build.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/runner.h"
#include "lib/spawn.h"
#include "lib/util.h"

int build_run_make(const char *const argv[], char **out)
{
	runner_catch_signals();
	return spawn_capture_stoppable(argv, out, runner_stop_signal);
}

char *build_stopped(const char *what, const char *dir)
{
	return xasprintf("stopped by %s while %s; the half-built %s is removed, nothing is cached",
			 runner_signal_name(runner_stop_signal()), what, dir);
}

bool is_executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *find_program(const char *name)
{
	if (strchr(name, '/'))
		return is_executable(name) ? xstrdup(name) : NULL;
	const char *path = getenv("PATH");
	_cleanup_free_ char *copy = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (char *save = NULL, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *d ? d : ".", name);
		if (is_executable(p))
			return p;
		free(p);
	}
	return NULL;
}

void build_hash(uint64_t *h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		*h ^= p[i];
		*h *= 0x100000001b3ULL;
	}
}

void build_hash_str(uint64_t *h, const char *s)
{
	build_hash(h, s ? s : "", strlen(s ? s : "") + 1);
}

char *build_cc_version(const char *cc)
{
	const char *argv[] = { cc, "--version", NULL };
	_cleanup_free_ char *out = NULL;
	if (spawn_capture(argv, &out) != 0 || !out)
		return NULL;
	out[strcspn(out, "\n")] = '\0';
	return xstrdup(strstrip(out));
}

json_object *build_commands(const char *text)
{
	json_object *a = json_object_new_array();
	_cleanup_free_ char *copy = xstrdup(text ? text : "");
	for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (*strstrip(l) && !startswith(l, "make"))
			jarr_add_str(a, l);
	return a;
}

char *build_output_tail(const char *text)
{
	_cleanup_free_ char *copy = xstrdup(text && *text ? text : "no output");
	char *s = strstrip(copy);
	size_t n = strlen(s);
	const char *tail = n > 400 ? s + n - 400 : s;
	char *one = xstrdup(tail);
	for (char *c = one; *c; c++)
		if (*c == '\n' || *c == '\t')
			*c = ' ';
	return one;
}

int build_record_write(const char *dir, json_object *build, char **error)
{
	_cleanup_free_ char *record = xasprintf("%s/build.json", dir);
	_cleanup_free_ char *text = xasprintf("%s\n", jdump(build, true));
	int r = write_file_atomic(record, text, 0644);
	if (r < 0)
		*error = xasprintf("cannot write %s: %s", record, strerror(-r));
	return r;
}

json_object *build_record_cached(const char *dir, const char *program)
{
	_cleanup_free_ char *record = xasprintf("%s/build.json", dir);
	_cleanup_json_ json_object *b = NULL;
	if (!is_executable(program) || jload_file(record, JSON_FILE_MAX, &b) < 0 ||
	    !json_object_is_type(b, json_type_object))
		return NULL;
	jset_bool(b, "cached", true);
	return TAKE_PTR(b);
}
