/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * syscall SECONDS [mix|close|getpid|exec]: System Call Overhead, the
 * UnixBench 6.0 variants. "mix" (the index test) makes five calls per
 * iteration: dup of a private pipe descriptor, close of the copy, a raw
 * getpid system call, getuid and umask. Every result is checked against
 * what it must be, which costs no system call.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workloads.h"

/* The read end of a pipe whose write end is closed: a descriptor of our
 * own, so parallel copies do not share one file's reference count. */
static int private_fd(void)
{
	int fds[2];
	if (pipe(fds) < 0 || close(fds[1]) < 0)
		wl_fail_errno("cannot create a private pipe");
	return fds[0];
}

static void dup_close(int fd, unsigned long iter)
{
	int copy = dup(fd);
	if (copy < 0 || close(copy) < 0)
		wl_fail_errno("dup/close of descriptor %d failed at iteration %lu", fd, iter);
}

static unsigned long run_mix(void)
{
	int fd = private_fd();
	long self = (long)getpid();
	uid_t uid = getuid();
	umask(022);
	unsigned long iter = 0;
	while (!wl_stop) {
		dup_close(fd, iter);
		if (syscall(SYS_getpid) != self)
			wl_fail("getpid did not return %ld at iteration %lu", self, iter);
		if (getuid() != uid)
			wl_fail("getuid did not return %u at iteration %lu", (unsigned)uid, iter);
		if (umask(022) != 022)
			wl_fail("umask did not return 022 at iteration %lu", iter);
		iter++;
	}
	return iter;
}

static unsigned long run_close(void)
{
	int fd = private_fd();
	unsigned long iter = 0;
	while (!wl_stop) {
		dup_close(fd, iter);
		iter++;
	}
	return iter;
}

static unsigned long run_getpid(void)
{
	long self = (long)getpid();
	unsigned long iter = 0;
	while (!wl_stop) {
		if (syscall(SYS_getpid) != self)
			wl_fail("getpid did not return %ld at iteration %lu", self, iter);
		iter++;
	}
	return iter;
}

static unsigned long run_exec(void)
{
	unsigned long iter = 0;
	while (!wl_stop) {
		pid_t pid = fork();
		if (pid == 0) {
			execl("/bin/true", "/bin/true", (char *)NULL);
			_exit(127);
		}
		if (pid < 0)
			wl_fail_errno("fork failed at iteration %lu", iter);
		wl_reap(pid, "/bin/true", iter);
		iter++;
	}
	return iter;
}

int syscall_main(int argc, char **argv)
{
	if (argc < 2 || argc > 3)
		wl_usage("expected one or two arguments");
	double seconds = wl_parse_seconds(argv[1]);
	const char *mode = argc > 2 ? argv[2] : "mix";
	static const struct {
		const char *name;
		unsigned long (*run)(void);
	} modes[] = {
		{ "mix", run_mix },
		{ "close", run_close },
		{ "getpid", run_getpid },
		{ "exec", run_exec },
	};
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(mode, modes[i].name) != 0)
			continue;
		wl_start_timer(seconds);
		wl_report_count(modes[i].run(), 1, "lps");
		return 0;
	}
	wl_usage("unknown test '%s'", mode);
}
