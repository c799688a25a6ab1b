/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipe SECONDS: Pipe Throughput. One process writes 512 bytes into a pipe
 * and reads them back, until the timer stops it; COUNT = round trips.
 * Every message carries its sequence number, checked on the way out of
 * the pipe; every 4096th message, and the last, is compared in full.
 */
#include <string.h>
#include <unistd.h>

#include "workloads.h"

#define MSG_SIZE 512

static unsigned char sent[MSG_SIZE], received[MSG_SIZE];

static void check_whole(unsigned long seq)
{
	if (memcmp(sent, received, MSG_SIZE) != 0)
		wl_fail("message %lu came out of the pipe changed", seq);
}

int pipe_main(int argc, char **argv)
{
	if (argc != 2)
		wl_usage("expected one argument");
	double seconds = wl_parse_seconds(argv[1]);

	int fds[2];
	if (pipe(fds) < 0)
		wl_fail_errno("cannot create a pipe");
	for (size_t i = 0; i < MSG_SIZE; i++)
		sent[i] = (unsigned char)(i * 7 + 3);

	unsigned long seq = 0;
	wl_start_timer(seconds);
	while (!wl_stop) {
		memcpy(sent, &seq, sizeof(seq));
		if (write(fds[1], sent, MSG_SIZE) != MSG_SIZE)
			wl_fail_errno("write of message %lu into the pipe failed", seq);
		if (read(fds[0], received, MSG_SIZE) != MSG_SIZE)
			wl_fail_errno("read of message %lu from the pipe failed", seq);
		unsigned long back;
		memcpy(&back, received, sizeof(back));
		if (back != seq)
			wl_fail("message %lu came out of the pipe as %lu", seq, back);
		if ((seq & 4095) == 0)
			check_whole(seq);
		seq++;
	}
	if (wl_corrupt())
		received[MSG_SIZE / 2] ^= 0x01;
	check_whole(seq - 1);
	wl_report_count(seq, 1, "lps");
	return 0;
}
