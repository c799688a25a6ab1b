/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fstime [-c|-r|-w] -t SECONDS -d DIR -b BUFSIZE -m MAXBLOCKS: File Copy.
 *
 * Two files dummy0-PID and dummy1-PID in DIR. -c (the index tests): a 2 s
 * write phase fills dummy0 with MAXBLOCKS KiB, a 2 s read phase reads it,
 * then for SECONDS dummy0 is copied to dummy1 BUFSIZE bytes at a time,
 * both files rewound at the end of dummy0. Each phase starts with
 * sync/sleep settling and prints a COUNT/TIME pair in KiB/s (the harness
 * keeps the last, the copy's), counting work in 256-byte units as UnixBench
 * does. -w runs only the write phase for SECONDS, -r the write priming and
 * a read phase of SECONDS.
 *
 * Every block written carries its block number; after the timed phases
 * both files are read back and every block checked. The files are removed
 * on every exit, including SIGINT, SIGTERM and SIGHUP.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads.h"

#define UNIT 256 /* the counting unit, bytes */
#define MAX_BUFSIZE 8192
#define PRIMING_SECONDS 2.0

/* Static, like UnixBench's: it measured a malloc'ed buffer slower. */
static char buf[MAX_BUFSIZE];
static char check_buf[MAX_BUFSIZE];

static const char *dir = ".";
static char names[2][32];
static volatile sig_atomic_t created[2];
static int fds[2] = { -1, -1 };
static long bufsize = 1024, max_buffs;

static void remove_files(void)
{
	for (int i = 0; i < 2; i++)
		if (created[i])
			unlink(names[i]);
}

static void on_termination(int sig)
{
	remove_files();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void create_files(void)
{
	static const int deadly[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof(deadly) / sizeof(deadly[0]); i++) {
		struct sigaction sa;
		/* a signal the caller ignores (nohup, background job) stays ignored */
		if (sigaction(deadly[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
			signal(deadly[i], on_termination);
	}
	atexit(remove_files);
	/* a signal between open() and created[] must not leave a file behind */
	sigset_t deadly_set, old;
	sigemptyset(&deadly_set);
	for (size_t i = 0; i < sizeof(deadly) / sizeof(deadly[0]); i++)
		sigaddset(&deadly_set, deadly[i]);
	sigprocmask(SIG_BLOCK, &deadly_set, &old);
	for (int i = 0; i < 2; i++) {
		snprintf(names[i], sizeof(names[i]), "dummy%d-%d", i, (int)getpid());
		fds[i] = open(names[i], O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fds[i] < 0)
			wl_fail_errno("cannot create %s/%s", dir, names[i]);
		created[i] = 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Block BLOCK of a file: the UnixBench buffer (byte i = i & 0xff) with the
 * block number in its first bytes. */
static void stamp(char *block, long number)
{
	memcpy(block, &number, sizeof(number));
}

static void fill_pattern(void)
{
	for (long i = 0; i < bufsize; i++)
		buf[i] = (char)(i & 0xff);
}

static void settle(unsigned first, unsigned second)
{
	if (wl_quick())
		return;
	sync();
	sleep(first);
	sync();
	sleep(second);
}

static void rewind_file(int i)
{
	if (lseek(fds[i], 0, SEEK_SET) < 0)
		wl_fail_errno("cannot rewind %s/%s", dir, names[i]);
}

static void io_failed(const char *op, int i, ssize_t n)
{
	if (n < 0)
		wl_fail_errno("%s %s/%s failed", op, dir, names[i]);
	wl_fail("%s %s/%s: %zd of %ld bytes", op, dir, names[i], n, bufsize);
}

/* Prints a phase's result: stdout for the log, COUNT/TIME for the harness. */
static void report(const char *phase, unsigned long units, double start, double end)
{
	double secs = end - start;
	long kbps = (long)((double)units / (secs * (1024 / UNIT)));
	printf("%s done: %lu in %.4f, score %ld\n", phase, units, secs, kbps);
	fflush(stdout);
	fprintf(stderr, "COUNT|%ld|0|KBps\n", kbps);
	fprintf(stderr, "TIME|%.1f\n", secs);
}

/* Settles, rewinds dummy0, starts the timer; returns the start time. */
static double begin_phase(unsigned first, unsigned second, double seconds)
{
	settle(first, second);
	rewind_file(0);
	wl_start_timer(seconds);
	return wl_now();
}

/* Writes dummy0 front to back, whole passes only, until the timer. */
static void write_phase(double seconds)
{
	unsigned long units = 0;
	fill_pattern();
	double start = begin_phase(2, 2, seconds);
	do {
		for (long b = 0; b < max_buffs; b++) {
			stamp(buf, b);
			ssize_t n = write(fds[0], buf, bufsize);
			if (n != bufsize)
				io_failed("write to", 0, n);
			units += bufsize / UNIT;
		}
		rewind_file(0);
	} while (!wl_stop);
	report("Write", units, start, wl_now());
}

/* Reads dummy0 round and round until the timer; the bytes of a short read
 * at the end of the file count, rounded to units. */
static void read_phase(double seconds)
{
	unsigned long units = 0;
	double start = begin_phase(2, 2, seconds);
	while (!wl_stop) {
		ssize_t n = read(fds[0], buf, bufsize);
		if (n == bufsize) {
			units += bufsize / UNIT;
			continue;
		}
		if (n < 0)
			io_failed("read from", 0, n);
		rewind_file(0);
		units += (n + UNIT / 2) / UNIT;
	}
	report("Read", units, start, wl_now());
}

/* Copies dummy0 to dummy1 until the timer; returns the buffers copied. */
static unsigned long copy_phase(double seconds)
{
	unsigned long units = 0, copied = 0;
	double start = begin_phase(2, 1, seconds);
	while (!wl_stop) {
		ssize_t n = read(fds[0], buf, bufsize);
		if (n != bufsize) {
			if (n < 0)
				io_failed("read from", 0, n);
			rewind_file(0);
			rewind_file(1);
			continue;
		}
		n = write(fds[1], buf, bufsize);
		if (n != bufsize)
			io_failed("write to", 1, n);
		units += bufsize / UNIT;
		copied++;
	}
	report("Copy", units, start, wl_now());
	return copied;
}

/* File I must hold exactly BLOCKS stamped blocks. */
static void verify(int i, long blocks)
{
	off_t size = lseek(fds[i], 0, SEEK_END);
	if (size != (off_t)blocks * bufsize)
		wl_fail("%s/%s is %lld bytes long, expected %lld", dir, names[i], (long long)size,
			(long long)blocks * bufsize);
	fill_pattern();
	for (long b = 0; b < blocks; b++) {
		ssize_t n = pread(fds[i], check_buf, bufsize, (off_t)b * bufsize);
		if (n != bufsize)
			io_failed("read back from", i, n);
		stamp(buf, b);
		if (memcmp(buf, check_buf, bufsize) != 0)
			wl_fail("%s/%s: block %ld (offset %lld) does not hold what was written", dir,
				names[i], b, (long long)b * bufsize);
	}
}

static void damage(int i)
{
	off_t middle = lseek(fds[i], 0, SEEK_END) / 2;
	char c;
	if (pread(fds[i], &c, 1, middle) != 1)
		wl_fail_errno("cannot read %s/%s", dir, names[i]);
	c ^= 0x01;
	if (pwrite(fds[i], &c, 1, middle) != 1)
		wl_fail_errno("cannot write %s/%s", dir, names[i]);
}

int fstime_main(int argc, char **argv)
{
	char mode = 'c';
	double seconds = 10;
	long max_blocks = 2000;
	int opt;
	while ((opt = getopt(argc, argv, "crwt:d:b:m:")) != -1) {
		switch (opt) {
		case 'c':
		case 'r':
		case 'w':
			mode = (char)opt;
			break;
		case 't':
			seconds = wl_parse_seconds(optarg);
			break;
		case 'd':
			dir = optarg;
			break;
		case 'b':
			bufsize = wl_parse_long("buffer size", optarg, UNIT, MAX_BUFSIZE);
			break;
		case 'm':
			max_blocks = wl_parse_long("maximum number of blocks", optarg, 1, 1024 * 1024);
			break;
		default:
			wl_usage("unknown option");
		}
	}
	if (optind != argc)
		wl_usage("unexpected argument '%s'", argv[optind]);
	max_buffs = max_blocks * 1024 / bufsize;
	if (chdir(dir) < 0)
		wl_fail_errno("cannot change to directory %s", dir);

	create_files();
	double priming = wl_quick() ? 0.2 : PRIMING_SECONDS;
	long dst_blocks = 0;
	switch (mode) {
	case 'w':
		write_phase(seconds);
		break;
	case 'r':
		write_phase(priming);
		read_phase(seconds);
		break;
	default:
		write_phase(priming);
		read_phase(priming);
		unsigned long copied = copy_phase(seconds);
		dst_blocks = copied < (unsigned long)max_buffs ? (long)copied : max_buffs;
		break;
	}
	if (wl_corrupt())
		damage(dst_blocks ? 1 : 0);
	verify(0, max_buffs);
	if (mode == 'c')
		verify(1, dst_blocks);
	return 0;
}
