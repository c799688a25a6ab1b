/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every workload shares: messages, arguments, the timer, the clock. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads.h"

volatile sig_atomic_t wl_stop;
const char *wl_program = "ubtune-workloads";
const char *wl_name = "ubtune-workloads";
const char *wl_args = "";

static void vsay(const char *fmt, va_list ap, const char *suffix)
{
	char msg[1024];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	for (char *p = msg; *p; p++)
		if (*p == '|' || *p == '\n')
			*p = *p == '|' ? '/' : ' ';
	fprintf(stderr, "ubtune-workloads %s: %s%s%s\n", wl_name, msg,
		suffix ? ": " : "", suffix ? suffix : "");
}

/* Never returns, so the callers' va_end would be unreachable. */
static noreturn void vfail(const char *reason, const char *fmt, va_list ap)
{
	vsay(fmt, ap, reason);
	exit(1);
}

noreturn void wl_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(NULL, fmt, ap);
}

noreturn void wl_fail_errno(const char *fmt, ...)
{
	const char *reason = strerror(errno);
	va_list ap;
	va_start(ap, fmt);
	vfail(reason, fmt, ap);
}

noreturn void wl_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap, NULL);
	va_end(ap);
	fprintf(stderr, "Usage: ubtune-workloads %s %s\n", wl_name, wl_args);
	exit(2);
}

double wl_parse_seconds(const char *arg)
{
	char *end;
	errno = 0;
	double s = strtod(arg, &end);
	if (errno || end == arg || *end || !(s > 0 && s <= 3600))
		wl_usage("invalid duration '%s' (seconds, more than 0 and at most 3600)", arg);
	return s;
}

long wl_parse_long(const char *what, const char *arg, long min, long max)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max)
		wl_usage("invalid %s '%s' (a whole number from %ld to %ld)", what, arg, min, max);
	return v;
}

static void on_alarm(int sig)
{
	(void)sig;
	wl_stop = 1;
}

void wl_start_timer(double seconds)
{
	wl_stop = 0;
	wl_arm_timer(seconds, on_alarm);
}

void wl_arm_timer(double seconds, void (*on_expiry)(int))
{
	struct sigaction sa = { .sa_handler = on_expiry, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) < 0)
		wl_fail_errno("cannot install the SIGALRM handler");
	long usec = (long)(seconds * 1e6 + 0.5);
	struct itimerval it = {
		.it_value = { .tv_sec = usec / 1000000, .tv_usec = usec % 1000000 },
	};
	if (setitimer(ITIMER_REAL, &it, NULL) < 0)
		wl_fail_errno("cannot start a timer of %g s", seconds);
}

/* What the timer's handler of a loop that never ends reports. */
static const unsigned long *at_timer_count;
static int at_timer_timebase;
static const char *at_timer_unit;

/* Appends the decimal digits of V at P; returns the end. */
static char *put_ulong(char *p, unsigned long v)
{
	char digits[24];
	size_t n = 0;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n)
		*p++ = digits[--n];
	return p;
}

/* Only async-signal-safe calls: the loop it ends may be anywhere. */
static void report_and_exit(int sig)
{
	char line[128], *p = line;
	(void)sig;
	p = stpcpy(p, "COUNT|");
	p = put_ulong(p, *at_timer_count);
	*p++ = '|';
	p = put_ulong(p, (unsigned long)at_timer_timebase);
	*p++ = '|';
	p = stpcpy(p, at_timer_unit);
	*p++ = '\n';
	for (char *q = line; q < p;) {
		ssize_t n = write(STDERR_FILENO, q, (size_t)(p - q));
		if (n <= 0)
			_exit(1);
		q += n;
	}
	_exit(0);
}

void wl_report_at_timer(double seconds, const unsigned long *count, int timebase, const char *unit)
{
	at_timer_count = count;
	at_timer_timebase = timebase;
	at_timer_unit = unit;
	wl_arm_timer(seconds, report_and_exit);
}

int wl_image_main(int argc, char **argv, const char *name, const char *args, int (*run)(int argc, char **argv))
{
	wl_program = argv[0];
	wl_name = name;
	wl_args = args;
	return run(argc, argv);
}

double wl_now(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

static bool env_flag(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0") != 0;
}

bool wl_quick(void)
{
	return env_flag("UBTUNE_WORKLOADS_QUICK");
}

bool wl_corrupt(void)
{
	return env_flag("UBTUNE_WORKLOADS_CORRUPT");
}

void wl_report_count(unsigned long count, int timebase, const char *unit)
{
	fprintf(stderr, "COUNT|%lu|%d|%s\n", count, timebase, unit);
}

void wl_reap(pid_t pid, const char *what, unsigned long done)
{
	int status;
	if (waitpid(pid, &status, 0) != pid)
		wl_fail_errno("wait for %s failed", what);
	if (status == 0)
		return;
	if (WIFEXITED(status))
		wl_fail("%s exited with status %d after %lu runs", what, WEXITSTATUS(status), done);
	if (WIFSIGNALED(status))
		wl_fail("%s was killed by signal %d (%s) after %lu runs", what, WTERMSIG(status),
			strsignal(WTERMSIG(status)), done);
	wl_fail("%s ended with wait status 0x%x after %lu runs", what, status, done);
}

void wl_sibling(const char *name, char *path, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", path, size - 1);
	if (n <= 0)
		wl_fail_errno("cannot find this program through /proc/self/exe");
	path[n] = '\0';
	char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash - path) : 0;
	if (dir_len + 1 + strlen(name) + 1 > size)
		wl_fail("the path of this program is too long");
	snprintf(path + dir_len, size - dir_len, "/%s", name);
	if (access(path, X_OK) < 0)
		wl_fail_errno("cannot run %s", path);
}
