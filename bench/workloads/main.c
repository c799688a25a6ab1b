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
 * Workloads that are programs of their own beside this one, as in
 * UnixBench: Whetstone (ubtune-whetstone), the only one that needs libm,
 * whose mappings every fork of the others would otherwise copy; Process
 * Creation (ubtune-spawn), whose children run glibc's fork and exit code
 * from a program as small as UnixBench's spawn.
 */
static int exec_image(const char *image, char **argv)
{
	char path[PATH_MAX];
	wl_sibling(image, path, sizeof(path));
	argv[0] = path;
	execv(path, argv);
	wl_fail_errno("cannot run %s", path);
}

static const struct workload {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;
	const char *image; /* the program that runs it, else this one */
} workloads[] = {
	{ .name = "dhry2reg", .args = "SECONDS", .run = dhry2reg_main },
	{ .name = "whetstone-double", .args = "[-t TARGET_SECONDS]", .image = "ubtune-whetstone" },
	{ .name = "execl", .args = "SECONDS", .run = execl_main },
	{ .name = "fstime", .args = "[-c|-r|-w] -t SECONDS -d DIR -b BUFSIZE -m MAXBLOCKS", .run = fstime_main },
	{ .name = "pipe", .args = "SECONDS", .run = pipe_main },
	{ .name = "context1", .args = "SECONDS", .run = context1_main },
	{ .name = "spawn", .args = "SECONDS", .image = "ubtune-spawn" },
	{ .name = "syscall", .args = "SECONDS [mix|close|getpid|exec]", .run = syscall_main },
	{ .name = "looper", .args = "SECONDS COMMAND [ARGS...]", .run = looper_main },
	{ .name = "shell-input", .args = "[FILE]", .run = shell_input_main },
	{ .name = "build-info", .args = "", .run = build_info_main },
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
		if (workloads[i].image)
			return exec_image(workloads[i].image, argv + 1);
		return workloads[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "ubtune-workloads: unknown workload '%s'\n", argv[1]);
	usage_all();
}
