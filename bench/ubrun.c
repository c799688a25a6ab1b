/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bench/ubrun.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "bench/ubimport.h"
#include "bench/run-plan.h"
#include "bench/result.h"
#include "bench/runner.h"
#include "lib/util.h"

#define LINE_MAX_KEPT 4096
#define TAIL_MAX (16u << 10)
#define STOP_GRACE_S 2.0
#define REAP_S 2.0
/* Run's -i for --quick: 3 passes of the long tests, 1 of the short ones,
 * as ub_passes() gives a quick run */
#define QUICK_ITERATIONS UB_QUICK_PASSES_LONG
_Static_assert(UB_QUICK_PASSES_SHORT == (UB_QUICK_PASSES_LONG + 1) / 3, "Run's -i gives quick's short passes");

static unsigned run_iterations(const struct bench_opts *o)
{
	return o->iterations ? o->iterations : o->quick ? QUICK_ITERATIONS : 0;
}

void ubrun_argv(const struct bench_opts *o, struct strv *argv)
{
	strv_push(argv, o->engine->run);
	unsigned it = run_iterations(o);
	if (it) {
		strv_push(argv, "-i");
		strv_take(argv, xasprintf("%u", it));
	}
	for (unsigned c = 0; c < o->ncopies; c++) {
		strv_push(argv, "-c");
		strv_take(argv, xasprintf("%u", o->copies[c]));
	}
	for (unsigned k = 0; k < o->ntests; k++)
		strv_push(argv, ub_tests[o->tests[k]].id);
}

bool ubrun_parse_progress(const char *line, struct ubrun_progress *p)
{
	const char *s = line;
	while (*s == ' ')
		s++;
	unsigned copies = 0;
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s) && copies < 1u << 20)
		copies = copies * 10 + (unsigned)(*s++ - '0');
	if (!(s = startswith(s, " x ")))
		return false;
	const struct ub_test_info *t = NULL;
	for (size_t i = 0; i < UB_NINDEX && !t; i++) {
		const char *rest = startswith(s, ub_tests[i].name);
		if (rest && (!*rest || *rest == ' ')) {
			t = &ub_tests[i];
			s = rest;
		}
	}
	if (!t || copies == 0)
		return false;
	unsigned pass = 0;
	for (;;) {
		while (*s == ' ')
			s++;
		if (!isdigit((unsigned char)*s))
			break;
		unsigned v = 0;
		while (isdigit((unsigned char)*s) && v < 1u << 20)
			v = v * 10 + (unsigned)(*s++ - '0');
		pass = v;
	}
	*p = (struct ubrun_progress){ t, copies, pass };
	return true;
}

/* ---- running Run ---- */

struct run_state {
	const struct bench_opts *o;
	struct sampler *sampler;
	struct buf line, tail;
	struct ubrun_progress now;
	unsigned step, steps;
	double t0, est_total;
};

static void report_progress(struct run_state *st)
{
	const struct bench_opts *o = st->o;
	const struct ub_test_info *t = st->now.test;
	sampler_set_phase(st->sampler, (int)(t - ub_tests), st->now.copies);
	if (!o->ui || !o->ui->progress)
		return;
	double elapsed = now_s() - st->t0;
	struct bench_progress p = {
		.test = t,
		.copies = st->now.copies,
		.pass = st->now.pass ? st->now.pass : 1,
		.passes = ub_passes(t, run_iterations(o), false),
		.step = st->step,
		.steps = st->steps,
		.elapsed_s = elapsed,
		.eta_s = st->est_total > elapsed ? st->est_total - elapsed : NAN,
	};
	o->ui->progress(&p, o->ui->data);
}

/* A line of Run's output so far: progress when it is a progress line. */
static void look_at_line(struct run_state *st)
{
	struct ubrun_progress p;
	if (!st->line.s || !ubrun_parse_progress(st->line.s, &p))
		return;
	bool moved = p.test != st->now.test || p.copies != st->now.copies;
	if (!moved && p.pass == st->now.pass)
		return;
	st->step += moved;
	st->now = p;
	report_progress(st);
}

static void take_output(struct run_state *st, const char *b, size_t n)
{
	/* the tail, for a message when Run fails */
	if (st->tail.len + n > TAIL_MAX) {
		size_t drop = st->tail.len + n > 2 * TAIL_MAX ? st->tail.len : st->tail.len / 2;
		memmove(st->tail.s, st->tail.s + drop, st->tail.len - drop + 1);
		st->tail.len -= drop;
	}
	buf_add(&st->tail, b, n > TAIL_MAX ? TAIL_MAX : n);
	for (size_t i = 0; i < n; i++) {
		if (b[i] == '\n' || b[i] == '\r') {
			look_at_line(st);
			st->line.len = 0;
			if (st->line.s)
				st->line.s[0] = '\0';
		} else if (st->line.len < LINE_MAX_KEPT) {
			buf_add(&st->line, b + i, 1);
		}
	}
	look_at_line(st);
}

/* The environment of Run: ours without UB_* and MAKEFLAGS, plus its
 * directories; make, should Run call it, builds no graphics. */
static char **run_env(const char *tmpdir, const char *resdir)
{
	extern char **environ;
	struct strv env = {0};
	for (char **v = environ; *v; v++)
		if (!startswith(*v, "UB_") && !startswith(*v, "MAKEFLAGS="))
			strv_push(&env, *v);
	strv_take(&env, xasprintf("UB_TMPDIR=%s", tmpdir));
	strv_take(&env, xasprintf("UB_RESULTDIR=%s", resdir));
	strv_push(&env, "MAKEFLAGS=GRAPHIC_TESTS=");
	return env.v;
}

/* In the child: async-signal-safe calls only until exec (the sampler
 * thread may hold locks at the time of the fork). */
static _Noreturn void run_child(char *const *argv, char *const *envp, const char *cwd, int out)
{
	static const char failed[] = "ubtune: cannot start Run\n";
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGHUP, &dfl, NULL);
	sigset_t none;
	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	int in = open("/dev/null", O_RDONLY);
	if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 || chdir(cwd) < 0)
		_exit(127);
	execve(argv[0], argv, envp);
	(void)!write(2, failed, sizeof(failed) - 1);
	_exit(127);
}

/* Ends Run's process group (politely first when asked to stop) and reaps
 * Run and whatever it left behind. */
static int end_run(pid_t pid, bool stop, int *status)
{
	if (stop)
		kill(-pid, SIGTERM);
	double end = now_s() + STOP_GRACE_S;
	int r;
	while ((r = waitpid(pid, status, stop ? WNOHANG : 0)) == 0 || (r < 0 && errno == EINTR)) {
		if (now_s() > end) {
			kill(-pid, SIGKILL);
			stop = false;
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);
	end = now_s() + REAP_S;
	while (now_s() < end) {
		pid_t p = waitpid(-1, NULL, WNOHANG);
		if (p < 0 && errno == ECHILD)
			break;
		if (p <= 0) {
			struct timespec ts = { 0, 5 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	return r < 0 ? -errno : 0;
}

/* Reads Run's output until it closes it, or a stop signal. */
static int follow(struct run_state *st, int fd)
{
	sigset_t mask;
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	sigdelset(&mask, SIGINT);
	sigdelset(&mask, SIGTERM);
	sigdelset(&mask, SIGHUP);
	for (;;) {
		if (runner_stop_signal())
			return -EINTR;
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct timespec ts = { 1, 0 };
		int k = ppoll(&pfd, 1, &ts, &mask);
		if (k < 0 && errno != EINTR)
			return -errno;
		if (k <= 0)
			continue;
		char chunk[4096];
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		take_output(st, chunk, (size_t)n);
	}
}

/* The last lines of Run's output, on one line. */
static char *tail_text(const struct buf *tail)
{
	const char *s = tail->s ? tail->s : "";
	size_t n = strlen(s);
	char *one = xstrdup(n > 600 ? s + n - 600 : s);
	for (char *c = one; *c; c++)
		if (*c == '\n' || *c == '\r' || *c == '\t')
			*c = ' ';
	return strstrip(one);
}

static int start_run(const struct bench_opts *o, const char *tmpdir, const char *resdir, pid_t *pid, int *fd,
		     char **error)
{
	struct strv argv = {0};
	ubrun_argv(o, &argv);
	char **env = run_env(tmpdir, resdir);
	_cleanup_free_ char *cwd = xstrdup(o->engine->run);
	*strrchr(cwd, '/') = '\0';
	int p[2];
	int r = 0;
	if (pipe2(p, O_CLOEXEC) < 0) {
		r = -errno;
	} else if ((*pid = fork()) < 0) {
		r = -errno;
		close(p[0]);
		close(p[1]);
	} else if (*pid == 0) {
		run_child(argv.v, env, cwd, p[1]);
	} else {
		setpgid(*pid, *pid);
		close(p[1]);
		*fd = p[0];
	}
	if (r < 0)
		*error = xasprintf("cannot start %s: %s", o->engine->run, strerror(-r));
	strv_free(&argv);
	for (char **e = env; *e; e++)
		free(*e);
	free(env);
	return r;
}

/* The text report Run wrote into resdir (HOST-DATE-NN, no extension). */
static char *find_report(const char *resdir)
{
	_cleanup_closedir_ DIR *d = opendir(resdir);
	struct strv names = {0};
	char *found = NULL;
	if (d && dir_list_sorted(d, &names) >= 0)
		for (size_t i = 0; i < names.n && !found; i++)
			if (!endswith(names.v[i], ".html") && !endswith(names.v[i], ".log") && !endswith(names.v[i], ".csv"))
				found = xasprintf("%s/%s", resdir, names.v[i]);
	strv_free(&names);
	return found;
}

/* "2026-11-29T22:36:13" (Run's local time) with this machine's offset. */
static void add_offset(json_object *o, const char *key)
{
	const char *t = jpath_str(o, key);
	if (!t || strlen(t) != 19)
		return;
	time_t now = time(NULL);
	struct tm tm;
	char z[8];
	localtime_r(&now, &tm);
	strftime(z, sizeof(z), "%z", &tm);
	_cleanup_free_ char *with = xasprintf("%s%s", t, z);
	jset_str(o, key, with);
}

/* The runs of Run's report (and its .log) into the record. */
static int take_report(const char *resdir, json_object *rec, char **error)
{
	_cleanup_free_ char *report = find_report(resdir);
	if (!report) {
		*error = xasprintf("Run wrote no report into %s", resdir);
		return -ENOENT;
	}
	struct ub_import_opts io = { .source = report };
	json_object *recs = NULL;
	int r = ub_import_file(report, &io, &recs, NULL, error);
	if (r < 0)
		return r;
	json_object *got = json_object_array_get_idx(recs, 0), *runs = jpath(rec, "runs");
	for (size_t i = 0; i < jarr_len(jpath(got, "runs")); i++) {
		json_object *run = json_object_get(json_object_array_get_idx(jpath(got, "runs"), i));
		add_offset(run, "started_at");
		add_offset(run, "ended_at");
		json_object_array_add(runs, run);
	}
	/* what Run's header said: its locale (charmap), CPUs, runlevel */
	jset(rec, "unixbench", json_object_get(jpath(got, "environment.before.unixbench")));
	json_object_put(recs);
	return 0;
}

int ubrun_measure(const struct bench_opts *o, const char *workdir, struct sampler *s, json_object *rec, char **error)
{
	struct run_state st = { .o = o, .sampler = s, .steps = o->ncopies * o->ntests, .t0 = now_s() };
	st.est_total = run_plan_tests_s(o);
	_cleanup_free_ char *resdir = xasprintf("%s/results", workdir);
	if (mkdir(resdir, 0700) < 0) {
		int r = -errno;
		*error = xasprintf("cannot create %s: %s", resdir, strerror(-r));
		return r;
	}
	struct strv argv = {0};
	ubrun_argv(o, &argv);
	json_object *cmd = json_object_new_array();
	for (size_t i = 0; i < argv.n; i++)
		jarr_add_str(cmd, argv.v[i]);
	jset(jpath(rec, "engine"), "command", cmd);
	strv_free(&argv);
	jset_str(jpath(rec, "options"), "settle", "sync; sleep 1; sync; sleep 2 (Run's own)");

	pid_t pid = 0;
	int fd = -1, status = 0;
	int r = start_run(o, workdir, resdir, &pid, &fd, error);
	if (r < 0)
		return r;
	r = follow(&st, fd);
	close(fd);
	end_run(pid, r == -EINTR, &status);
	sampler_set_phase(s, -1, 0);
	if (r == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		_cleanup_free_ char *tail = tail_text(&st.tail);
		*error = WIFEXITED(status) ? xasprintf("Run failed with exit status %d: %s", WEXITSTATUS(status), tail)
					   : xasprintf("Run was killed by signal %d: %s", WTERMSIG(status), tail);
		r = -EIO;
	}
	/* the copy counts Run finished are in its report, also after a stop */
	_cleanup_free_ char *why = NULL;
	int k = take_report(resdir, rec, &why);
	if (r == 0 && k < 0) {
		*error = TAKE_PTR(why);
		r = -EIO;
	}
	buf_free(&st.line);
	buf_free(&st.tail);
	return r;
}
