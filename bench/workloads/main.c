/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ubtune-workloads NAME ARGS...: runs one workload. The names and arguments
 * are those of UnixBench's programs (pgms/NAME), so a harness can drive
 * either with the same command lines.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads.h"

/* How this program was compiled, when its build says (ubtune's Makefile
 * does, for the prebuilt program that `ubtune bench` runs and records). */
static int build_info_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
#if defined(WL_BUILD_CC_VERSION) && defined(WL_BUILD_CFLAGS)
	printf("cc_version=%s\ncflags=%s\n", WL_BUILD_CC_VERSION, WL_BUILD_CFLAGS);
	return 0;
#else
	fprintf(stderr, "ubtune-workloads: this build does not record its compiler and flags\n");
	return 1;
#endif
}

/*
 * Whetstone is a program of its own, ubtune-whetstone beside this one, as
 * it is in UnixBench: the only workload that needs libm. Linked in here,
 * libm's mappings would be copied by every fork of Process Creation and of
 * the Shell Scripts' looper (29 mappings against 23 for UnixBench's spawn,
 * about 13 % fewer forks per CPU second).
 */
static int whetstone_exec(int argc, char **argv)
{
	char path[PATH_MAX];
	(void)argc;
	wl_sibling("ubtune-whetstone", path, sizeof(path));
	argv[0] = path;
	execv(path, argv);
	wl_fail_errno("cannot run %s", path);
}

static const struct workload {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;
} workloads[] = {
	{ "dhry2reg", dhry2reg_main, "SECONDS" },
	{ "whetstone-double", whetstone_exec, "[-t TARGET_SECONDS]" },
	{ "execl", execl_main, "SECONDS" },
	{ "fstime", fstime_main, "[-c|-r|-w] -t SECONDS -d DIR -b BUFSIZE -m MAXBLOCKS" },
	{ "pipe", pipe_main, "SECONDS" },
	{ "context1", context1_main, "SECONDS" },
	{ "spawn", spawn_main, "SECONDS" },
	{ "syscall", syscall_main, "SECONDS [mix|close|getpid|exec]" },
	{ "looper", looper_main, "SECONDS COMMAND [ARGS...]" },
	{ "shell-input", shell_input_main, "[FILE]" },
	{ "build-info", build_info_main, "" },
};

static noreturn void usage_all(void)
{
	fprintf(stderr, "Usage: ubtune-workloads NAME ARGS...\n");
	for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		fprintf(stderr, "  %s%s%s\n", workloads[i].name, *workloads[i].args ? " " : "", workloads[i].args);
	exit(2);
}

int main(int argc, char **argv)
{
	wl_program = argv[0];
	if (argc < 2)
		usage_all();
	for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++) {
		if (strcmp(argv[1], workloads[i].name) != 0)
			continue;
		wl_name = workloads[i].name;
		wl_args = workloads[i].args;
		return workloads[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "ubtune-workloads: unknown workload '%s'\n", argv[1]);
	usage_all();
}
