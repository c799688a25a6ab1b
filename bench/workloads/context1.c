/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * context1 SECONDS: Pipe-based Context Switching. Two processes pass a
 * counter back and forth through two pipes; each checks that the value it
 * receives is the one it expects. COUNT = completed round trips. At the
 * end the parent closes its pipe, the child answers with its own count,
 * and the two counts must agree.
 */
#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "workloads.h"

/* The parent sends one counter; a short or failed write is fatal. */
static void send_count(int fd, unsigned long value)
{
	if (write(fd, &value, sizeof(value)) != (ssize_t)sizeof(value))
		wl_fail_errno("parent: write of %lu failed", value);
}

/* Receives one counter: 1, or 0 at end of file. */
static int receive_count(int fd, unsigned long *value, const char *who)
{
	ssize_t n = read(fd, value, sizeof(*value));
	if (n == 0)
		return 0;
	if (n != (ssize_t)sizeof(*value))
		wl_fail_errno("%s: read failed (%zd bytes)", who, n);
	return 1;
}

/* The parent is gone: it reports what went wrong, the child just ends. */
static void send_or_quit(int fd, unsigned long value)
{
	if (write(fd, &value, sizeof(value)) != (ssize_t)sizeof(value)) {
		if (errno == EPIPE)
			_exit(1);
		wl_fail_errno("child: write of %lu failed", value);
	}
}

static noreturn void child(int from_parent, int to_parent)
{
	unsigned long count = 0, value;
	unsigned long wrong_at = wl_corrupt() ? 10 : (unsigned long)-1;
	while (receive_count(from_parent, &value, "child")) {
		if (value != count)
			wl_fail("child: sync error, expected %lu, received %lu", count, value);
		send_or_quit(to_parent, count == wrong_at ? count + 1 : count);
		count++;
	}
	send_or_quit(to_parent, count);
	_exit(0);
}

int context1_main(int argc, char **argv)
{
	if (argc != 2)
		wl_usage("expected one argument");
	double seconds = wl_parse_seconds(argv[1]);

	wl_start_timer(seconds);
	signal(SIGPIPE, SIG_IGN);
	int down[2], up[2];
	if (pipe(down) < 0 || pipe(up) < 0)
		wl_fail_errno("cannot create the pipes");
	pid_t pid = fork();
	if (pid < 0)
		wl_fail_errno("fork failed");
	if (pid == 0) {
		close(down[1]);
		close(up[0]);
		child(down[0], up[1]);
	}
	close(down[0]);
	close(up[1]);

	unsigned long count = 0, value;
	while (!wl_stop) {
		send_count(down[1], count);
		if (!receive_count(up[0], &value, "parent"))
			break;
		if (value != count)
			wl_fail("parent: sync error, expected %lu, received %lu", count, value);
		count++;
	}
	close(down[1]);
	int answered = receive_count(up[0], &value, "parent");
	wl_reap(pid, "the child", count);
	if (!answered || value != count)
		wl_fail("counters disagree: parent %lu, child %lu", count, answered ? value : 0);
	wl_report_count(count, 1, "lps");
	return 0;
}
