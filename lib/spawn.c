/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include "util.h"

extern char **environ;

#define CAPTURE_MAX (1u << 20)

static int spawn_impl(const char *const argv[], char **out, bool with_stderr)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;

	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	if (with_stderr)
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	else
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);

	pid_t pid;
	int r = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		return -r;
	}

	struct buf b = {0};
	char chunk[4096];
	ssize_t n;
	while ((n = read(pipefd[0], chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (b.len + (size_t)n <= CAPTURE_MAX)
			buf_add(&b, chunk, (size_t)n);
	}
	close(pipefd[0]);

	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			buf_free(&b);
			return -errno;
		}
	*out = buf_steal(&b);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int spawn_capture(const char *const argv[], char **out)
{
	return spawn_impl(argv, out, false);
}

int spawn_capture_all(const char *const argv[], char **out)
{
	return spawn_impl(argv, out, true);
}
