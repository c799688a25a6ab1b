/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Starts tests/lib/mock-systemd.py (a mock systemd manager on a private
 * D-Bus) from a cmocka test and points DBUS_SYSTEM_BUS_ADDRESS at it.
 * The mock serves until mock_systemd_stop() closes its stdin, so it also
 * goes away when the test dies.
 */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include "lib/util.h"

#ifndef SRCDIR
#error "SRCDIR must name the source tree"
#endif

struct mock_systemd {
	pid_t pid;
	int in_fd;
	char address[512];
};

#define MOCK_SYSTEMD_SKIP 77

/* args: mock-systemd.py options, NULL-terminated ("--unit", "cups.service=active", ...).
 * Returns 0, MOCK_SYSTEMD_SKIP when dbus-daemon or python3-dbusmock is
 * missing, or -errno. */
static inline int mock_systemd_start(struct mock_systemd *m, const char *const *args)
{
	int in[2], out[2];
	size_t n = 0;
	while (args && args[n])
		n++;
	const char **argv = xcalloc(n + 3, sizeof(*argv));
	argv[0] = "/usr/bin/python3";
	argv[1] = SRCDIR "/tests/lib/mock-systemd.py";
	for (size_t i = 0; i < n; i++)
		argv[i + 2] = args[i];

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0) {
		free(argv);
		return -errno;
	}
	m->pid = fork();
	if (m->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execv(argv[0], (char **)argv);
		_exit(127);
	}
	free(argv);
	close(in[0]);
	close(out[1]);
	m->in_fd = in[1];
	if (m->pid < 0) {
		close(out[0]);
		close(in[1]);
		return -errno;
	}

	/* the first line is the bus address; end of file means it gave up */
	size_t len = 0;
	struct pollfd p = { .fd = out[0], .events = POLLIN };
	while (len < sizeof(m->address) - 1 && poll(&p, 1, 20000) > 0) {
		ssize_t k = read(out[0], m->address + len, 1);
		if (k <= 0 || m->address[len] == '\n')
			break;
		len++;
	}
	close(out[0]);
	m->address[len] = '\0';
	if (len == 0) {
		int status = 0;
		close(m->in_fd);
		waitpid(m->pid, &status, 0);
		return WIFEXITED(status) && WEXITSTATUS(status) == MOCK_SYSTEMD_SKIP ? MOCK_SYSTEMD_SKIP : -EIO;
	}
	setenv("DBUS_SYSTEM_BUS_ADDRESS", m->address, 1);
	return 0;
}

/* Stops the mock and waits for it; returns its exit status. */
static inline int mock_systemd_stop(struct mock_systemd *m)
{
	int status = 0;
	close(m->in_fd);
	waitpid(m->pid, &status, 0);
	unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
