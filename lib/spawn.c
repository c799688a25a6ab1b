/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include "util.h"

extern char **environ;

#define CAPTURE_MAX (1u << 20)

static int begin(const char *const argv[], bool with_stderr, bool own_group, struct spawn_job *job)
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

	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	if (own_group) {
		/* a group of its own, so that all it started can be stopped together */
		posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
		posix_spawnattr_setpgroup(&at, 0);
	}
	pid_t pid;
	int r = posix_spawnp(&pid, argv[0], &fa, &at, (char *const *)argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		return -r;
	}
	job->pid = pid;
	job->fd = pipefd[0];
	return 0;
}

int spawn_begin(const char *const argv[], bool with_stderr, struct spawn_job *job)
{
	return begin(argv, with_stderr, false, job);
}

#define STOP_POLL_MS 100

/* Reads until EOF; with stop, asks it between reads and, once it says so,
 * ends the job's group: -EINTR. */
static int finish(struct spawn_job *job, char **out, int (*stop)(void))
{
	struct buf b = {0};
	char chunk[4096];
	ssize_t n = 1;
	bool stopped = false;
	while (n != 0) {
		if (stop && (stopped = stop() != 0))
			break;
		struct pollfd p = { .fd = job->fd, .events = POLLIN };
		if (stop && poll(&p, 1, STOP_POLL_MS) <= 0)
			continue;
		n = read(job->fd, chunk, sizeof(chunk));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (b.len + (size_t)n <= CAPTURE_MAX)
			buf_add(&b, chunk, (size_t)n);
	}
	close(job->fd);
	job->fd = -1;
	int status;
	if (stopped) {
		/* the whole group; what its members leave behind comes to a
		 * subreaper (the caller, if it is one) and is reaped here too */
		kill(-job->pid, SIGKILL);
		while (waitpid(-job->pid, &status, 0) > 0 || errno == EINTR)
			kill(-job->pid, SIGKILL);
		buf_free(&b);
		return -EINTR;
	}
	while (waitpid(job->pid, &status, 0) < 0)
		if (errno != EINTR) {
			buf_free(&b);
			return -errno;
		}
	*out = buf_steal(&b);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int spawn_finish(struct spawn_job *job, char **out)
{
	return finish(job, out, NULL);
}

int spawn_capture_stoppable(const char *const argv[], char **out, int (*stop)(void))
{
	struct spawn_job job;
	int r = begin(argv, true, true, &job);
	return r < 0 ? r : finish(&job, out, stop);
}

static int spawn_impl(const char *const argv[], char **out, bool with_stderr)
{
	struct spawn_job job;
	int r = spawn_begin(argv, with_stderr, &job);
	return r < 0 ? r : spawn_finish(&job, out);
}

int spawn_capture(const char *const argv[], char **out)
{
	return spawn_impl(argv, out, false);
}

int spawn_capture_all(const char *const argv[], char **out)
{
	return spawn_impl(argv, out, true);
}

#define RUN_KEEP (64u << 10)
#define RUN_POLL_MS 20

/* Appends to b, keeping only the last RUN_KEEP bytes. */
static void keep_tail(struct buf *b, const char *s, size_t n)
{
	buf_add(b, s, n);
	if (b->len > RUN_KEEP) {
		size_t drop = b->len - RUN_KEEP;
		memmove(b->s, b->s + drop, RUN_KEEP + 1);
		b->len = RUN_KEEP;
	}
}

/* Reads what is there now; false at the end of the pipe. */
static bool read_ready(int fd, struct buf *b)
{
	char chunk[4096];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n > 0) {
			keep_tail(b, chunk, (size_t)n);
			continue;
		}
		return n < 0 && (errno == EAGAIN || errno == EINTR);
	}
}

static void run_file_actions(posix_spawn_file_actions_t *fa, const struct spawn_opts *o, int out_fd)
{
	posix_spawn_file_actions_init(fa);
	posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
	if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(fa, out_fd, 1);
	else
		posix_spawn_file_actions_addopen(fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(fa, 1, 2);
	if (o->cwd)
		posix_spawn_file_actions_addchdir_np(fa, o->cwd);
}

int spawn_run(const struct spawn_opts *o, char **out)
{
	int pipefd[2] = { -1, -1 };
	if (o->capture && pipe2(pipefd, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	posix_spawn_file_actions_t fa;
	run_file_actions(&fa, o, pipefd[1]);
	pid_t pid;
	int r = posix_spawn(&pid, o->argv[0], &fa, NULL, (char *const *)o->argv,
			    o->envp ? (char *const *)o->envp : environ);
	posix_spawn_file_actions_destroy(&fa);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (r != 0) {
		if (pipefd[0] >= 0)
			close(pipefd[0]);
		return -r;
	}

	uint64_t deadline = o->timeout_s ? now_usec() + (uint64_t)o->timeout_s * 1000000u : 0;
	struct buf b = {0};
	bool open_pipe = pipefd[0] >= 0;
	int status = 0;
	r = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
		if (deadline && now_usec() >= deadline) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			r = -ETIMEDOUT;
			break;
		}
		struct pollfd p = { .fd = open_pipe ? pipefd[0] : -1, .events = POLLIN };
		if (poll(&p, 1, RUN_POLL_MS) > 0 && open_pipe)
			open_pipe = read_ready(pipefd[0], &b);
	}
	if (open_pipe)
		read_ready(pipefd[0], &b);
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (out && o->capture)
		*out = buf_steal(&b);
	else
		buf_free(&b);
	if (r < 0)
		return r;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
