/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/json.h"

struct phases;

/*
 * Kernel-log events during a run, as sbc-bench reads them: OOM kills,
 * hung tasks, CPUs shut down or throttled for heat, undervoltage and
 * other voltage messages, machine checks. The kernel log is opened at
 * the start of the run at its end, so that only what the kernel logs
 * while the run lasts is read; as root a marker line is written into it
 * too, so that a person reading dmesg later sees where the run began.
 */

struct kevents {
	int fd;           /* /dev/kmsg, -1 when not readable */
	double boot_s;    /* CLOCK_BOOTTIME at the start, for offsets */
	char *marker;     /* the marker written, or NULL */
	char *unreadable; /* why the log could not be read, or NULL */
};

/* Where the kernel log is; UBTUNE_KMSG_DEV names another file (tests). */
const char *kevents_device(void);

/* Opens the log at its end and, when it is writable, writes the marker (run_id). */
void kevents_start(struct kevents *k, const char *run_id);

/*
 * Reads what was logged since kevents_start() and returns the events
 * ({"kind": "kernel-oom" | ..., "time": null, "offset_s", "duration_s": 0,
 * "test", "copies", "message"}) as an array, each placed by ph (NULL:
 * not placed) in the test and copy count that ran when it was logged:
 * "test" and "copies" are null between tests, and the message ends with
 * "(during Shell Scripts (8 concurrent), 16 copies)". *summary gets
 * {"source", "marker", "read": bool, "error"}. Closes the log.
 */
json_object *kevents_finish(struct kevents *k, const struct phases *ph, json_object **summary);

/* The class of a kernel message ("oom", "hung-task", "thermal-shutdown",
 * "thermal", "voltage", "mce", "fork-rejected": the cgroup's pids.max was
 * hit), or NULL for one that does not matter here. */
const char *kevents_class(const char *message);

/* Splits a /dev/kmsg record "6,1234,5678901,-;text": the timestamp (µs
 * since boot) and the text (up to the newline). False when malformed. */
bool kevents_record(const char *rec, size_t len, unsigned long long *ts_us, const char **text, size_t *text_len);
