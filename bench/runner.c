/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

#include "lib/rootfs.h"
#include "lib/util.h"

static volatile sig_atomic_t stop_signal;
static sigset_t wait_mask;
static bool signals_set_up;
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void on_stop(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

void runner_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop }, old_sa;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		if (sigaction(stop_signals[i], NULL, &old_sa) == 0 && old_sa.sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
	/* what a stopped build leaves comes to us, to be reaped before we go */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

void runner_setup(void)
{
	sigset_t block, old;
	sigemptyset(&block);
	struct sigaction sa = { .sa_handler = on_stop }, old_sa;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++) {
		/* under nohup a hangup stays ignored */
		if (stop_signals[i] == SIGHUP && sigaction(SIGHUP, NULL, &old_sa) == 0 && old_sa.sa_handler == SIG_IGN)
			continue;
		sigaddset(&block, stop_signals[i]);
		sigaction(stop_signals[i], &sa, NULL);
	}
	pthread_sigmask(SIG_BLOCK, &block, &old);
	wait_mask = old;
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigdelset(&wait_mask, stop_signals[i]);
	signals_set_up = true;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

int runner_stop_signal(void)
{
	return stop_signal;
}

const char *runner_signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	default:
		return "a signal";
	}
}

static struct timespec to_timespec(double s)
{
	if (s < 0)
		s = 0;
	return (struct timespec){ .tv_sec = (time_t)s, .tv_nsec = (long)((s - floor(s)) * 1e9) };
}

/* poll() that lets the stop signals in while it waits. */
static int wait_poll(struct pollfd *fds, nfds_t n, double timeout_s)
{
	struct timespec ts = to_timespec(timeout_s);
	return ppoll(fds, n, &ts, signals_set_up ? &wait_mask : NULL);
}

int runner_sleep(double seconds)
{
	double end = now_s() + seconds;
	for (;;) {
		if (stop_signal)
			return -EINTR;
		double left = end - now_s();
		if (left <= 0)
			return 0;
		wait_poll(NULL, 0, left);
	}
}

int runner_settle(bool quick)
{
	sync();
	if (quick)
		return runner_sleep(RUNNER_SETTLE_QUICK_S);
	int r = runner_sleep(1);
	if (r < 0)
		return r;
	sync();
	return runner_sleep(RUNNER_SETTLE_S - 1);
}

/* Writes an unsigned number with async-signal-safe calls only. */
static void write_uint(int fd, unsigned v)
{
	char b[16];
	size_t i = sizeof(b);
	do
		b[--i] = (char)('0' + v % 10);
	while ((v /= 10) && i > 0);
	(void)!write(fd, b + i, sizeof(b) - i);
}

/* In the forked copy: only async-signal-safe calls until exec, since the
 * sampler thread may hold locks at the time of the fork. */
static _Noreturn void copy_child(const struct pass_spec *spec, const char *exec_failed, int go_r, int go_w, int err_w)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	close(go_w);
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaction(stop_signals[i], &dfl, NULL);
	sigset_t none;
	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, NULL);

	int in = open("/dev/null", O_RDONLY);
	int out = open("/dev/null", O_WRONLY);
	if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err_w, 2) < 0)
		_exit(127);
	if (spec->cwd && chdir(spec->cwd) < 0) {
		(void)!write(2, exec_failed, strlen(exec_failed));
		write_uint(2, (unsigned)errno);
		(void)!write(2, " in chdir)\n", 11);
		_exit(127);
	}
	if (spec->affinity && sched_setaffinity(0, spec->affinity_size, spec->affinity) < 0) {
		(void)!write(2, exec_failed, strlen(exec_failed));
		write_uint(2, (unsigned)errno);
		(void)!write(2, " in sched_setaffinity)\n", 23);
		_exit(127);
	}
	char c;
	while (read(go_r, &c, 1) < 0 && errno == EINTR)
		;
	execve(spec->argv[0], spec->argv, spec->envp);
	(void)!write(2, exec_failed, strlen(exec_failed));
	write_uint(2, (unsigned)errno);
	(void)!write(2, ")\n", 2);
	_exit(127);
}

/* Orphans adopted through the subreaper and anything that left its
 * process group: our remaining children, killed. */
static void kill_children(void)
{
	_cleanup_(rootfs_freep) struct rootfs *rf = NULL;
	struct strv tasks = {0};
	if (rootfs_new("/", &rf) < 0 || rootfs_list(rf, "/proc/self/task", &tasks) < 0)
		return;
	for (size_t i = 0; i < tasks.n; i++) {
		_cleanup_free_ char *path = xasprintf("/proc/self/task/%s/children", tasks.v[i]);
		_cleanup_free_ char *list = NULL;
		if (rootfs_read(rf, path, &list, NULL) < 0)
			continue;
		for (char *save = NULL, *w = strtok_r(list, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
			int64_t pid;
			if (parse_s64(w, &pid) == 0 && pid > 1)
				kill((pid_t)pid, SIGKILL);
		}
	}
	strv_free(&tasks);
}

/* Waits (up to seconds) until no child is left; true when none is. */
static bool reap_children(double seconds)
{
	double end = now_s() + seconds;
	for (;;) {
		pid_t p = waitpid(-1, NULL, WNOHANG);
		if (p > 0)
			continue;
		if (p < 0 && errno == ECHILD)
			return true;
		if (p < 0 && errno == EINTR)
			continue;
		if (now_s() > end)
			return false;
		struct timespec ts = to_timespec(0.002);
		nanosleep(&ts, NULL);
	}
}

/* Kills every copy's process group and reaps all that is left. */
static void end_copies(const pid_t *pids, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(-pids[i], SIGKILL);
	if (!reap_children(2)) {
		kill_children();
		reap_children(2);
	}
}

/* Waits for the copies' first processes, keeping their status. */
static int wait_leaders(pid_t *pids, int *status, unsigned n, double deadline)
{
	unsigned left = n;
	while (left > 0) {
		for (unsigned i = 0; i < n; i++) {
			if (pids[i] <= 0 || status[i] != -1)
				continue;
			pid_t p = waitpid(pids[i], &status[i], WNOHANG);
			if (p == pids[i]) {
				left--;
			} else if (p < 0 && errno != EINTR) {
				status[i] = 0;
				left--;
			}
		}
		if (left == 0)
			break;
		if (stop_signal)
			return -EINTR;
		if (now_s() > deadline)
			return -ETIMEDOUT;
		wait_poll(NULL, 0, 0.002);
	}
	return 0;
}

struct copy_io {
	int fd;
	struct buf out;
	bool overflow;
	double eof; /* seconds after the release; NAN while open */
};

/* Reads what the copies write until every stderr is closed. */
static int collect_output(struct copy_io *io, unsigned n, double t0, double deadline)
{
	_cleanup_free_ struct pollfd *pfd = xcalloc(n, sizeof(*pfd));
	unsigned open_fds = n;
	while (open_fds > 0) {
		if (stop_signal)
			return -EINTR;
		double left = deadline - now_s();
		if (left <= 0)
			return -ETIMEDOUT;
		for (unsigned i = 0; i < n; i++)
			pfd[i] = (struct pollfd){ .fd = io[i].fd, .events = POLLIN };
		if (wait_poll(pfd, n, left) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (unsigned i = 0; i < n; i++) {
			if (io[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			char chunk[4096];
			ssize_t k = read(io[i].fd, chunk, sizeof(chunk));
			if (k < 0 && errno == EINTR)
				continue;
			if (k > 0) {
				if (io[i].out.len + (size_t)k <= RUNNER_OUTPUT_MAX)
					buf_add(&io[i].out, chunk, (size_t)k);
				else
					io[i].overflow = true;
				continue;
			}
			io[i].eof = now_s() - t0;
			close(io[i].fd);
			io[i].fd = -1;
			open_fds--;
		}
	}
	return 0;
}

static char *status_text(int status)
{
	if (WIFEXITED(status))
		return xasprintf("exited with status %d", WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return xasprintf("was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	return xasprintf("ended with wait status %d", status);
}

/* Parses one copy's output; *error names the copy when it failed. */
static int copy_result(const struct copy_io *io, int status, unsigned i, unsigned n, struct copy_outcome *c,
		       char **error)
{
	_cleanup_free_ char *who = n > 1 ? xasprintf("copy %u of %u", i + 1, n) : xstrdup("the program");
	_cleanup_free_ char *why = NULL;
	c->status = status;
	c->elapsed = io->eof;
	if (io->overflow) {
		*error = xasprintf("%s wrote more than %u bytes on stderr", who, RUNNER_OUTPUT_MAX);
		return -EBADMSG;
	}
	int r = protocol_parse(io->out.s ? io->out.s : "", io->out.len, &c->report, &why);
	if (r < 0 && why && startswith(why, "the program said: ")) {
		/* the program's own message says more than its status */
		*error = xasprintf("%s failed: %s", who, why + strlen("the program said: "));
		return r;
	}
	if (status != 0) {
		_cleanup_free_ char *st = status_text(status);
		*error = xasprintf("%s %s", who, st);
		return -EBADMSG;
	}
	if (r < 0) {
		*error = xasprintf("%s: %s", who, why);
		return r;
	}
	return 0;
}

/* Run's runOnePass: counts summed; times (TIME, else elapsed) averaged. */
static void combine_copies(struct pass_outcome *o)
{
	double count = 0, time = 0;
	for (unsigned i = 0; i < o->ncopies; i++) {
		const struct copy_outcome *c = &o->copies[i];
		count += c->report.count;
		time += c->report.has_time && c->report.time > 0 ? c->report.time : c->elapsed;
	}
	o->value = (struct pass_value){
		.count = count,
		.time = time / o->ncopies,
		.timebase = o->copies[0].report.timebase,
	};
	snprintf(o->unit, sizeof(o->unit), "%s", o->copies[0].report.unit);
}

static int start_copies(const struct pass_spec *spec, pid_t *pids, struct copy_io *io, int go[2], char **error)
{
	_cleanup_free_ char *exec_failed = xasprintf("cannot run %s (error ", spec->argv[0]);
	for (unsigned i = 0; i < spec->copies; i++) {
		int errp[2];
		if (pipe2(errp, O_CLOEXEC) < 0)
			goto fail;
		pid_t pid = fork();
		if (pid < 0) {
			int e = errno;
			close(errp[0]);
			close(errp[1]);
			errno = e;
			goto fail;
		}
		if (pid == 0)
			copy_child(spec, exec_failed, go[0], go[1], errp[1]);
		setpgid(pid, pid);
		close(errp[1]);
		pids[i] = pid;
		io[i].fd = errp[0];
	}
	return 0;
fail:;
	int r = -errno;
	*error = xasprintf("cannot start %u copies of %s: %s", spec->copies, spec->argv[0], strerror(-r));
	return r;
}

int runner_pass(const struct pass_spec *spec, struct pass_outcome *out, char **error)
{
	unsigned n = spec->copies;
	_cleanup_free_ pid_t *pids = xcalloc(n, sizeof(*pids));
	_cleanup_free_ int *status = xmalloc(n * sizeof(*status));
	_cleanup_free_ struct copy_io *io = xcalloc(n, sizeof(*io));
	for (unsigned i = 0; i < n; i++) {
		io[i].fd = -1;
		io[i].eof = NAN;
		status[i] = -1;
	}
	*error = NULL;
	*out = (struct pass_outcome){0};

	int go[2];
	if (pipe2(go, O_CLOEXEC) < 0) {
		*error = xasprintf("cannot create a pipe: %m");
		return -errno;
	}
	int r = start_copies(spec, pids, io, go, error);
	close(go[0]);
	if (r < 0)
		end_copies(pids, n); /* before the barrier opens: none has started */
	double t0 = now_s();
	close(go[1]); /* the barrier: every copy starts now */
	double deadline = t0 + spec->timeout_s;
	if (r == 0)
		r = collect_output(io, n, t0, deadline);
	if (r == 0)
		r = wait_leaders(pids, status, n, deadline);
	end_copies(pids, n);
	for (unsigned i = 0; i < n; i++)
		if (io[i].fd >= 0)
			close(io[i].fd);

	if (r == -ETIMEDOUT)
		*error = xasprintf("%s did not finish within %.0f s", spec->argv[0], spec->timeout_s);
	else if (r == -EINTR)
		*error = xstrdup("interrupted");
	else if (r < 0 && !*error)
		*error = xasprintf("waiting for %s failed: %s", spec->argv[0], strerror(-r));

	if (r == 0) {
		out->ncopies = n;
		out->copies = xcalloc(n, sizeof(*out->copies));
		for (unsigned i = 0; i < n && r == 0; i++)
			r = copy_result(&io[i], status[i], i, n, &out->copies[i], error);
		if (r == 0)
			combine_copies(out);
		else
			pass_outcome_free(out);
	}
	for (unsigned i = 0; i < n; i++)
		buf_free(&io[i].out);
	return r;
}

void pass_outcome_free(struct pass_outcome *o)
{
	free(o->copies);
	*o = (struct pass_outcome){0};
}
