/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "kevents.h"

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "bench/phases.h"
#include "lib/util.h"
#include "unixbench/catalogue.h"

const char *kevents_device(void)
{
	const char *dev = getenv("UBTUNE_KMSG_DEV");
	return dev && *dev ? dev : "/dev/kmsg";
}

void kevents_start(struct kevents *k, const char *run_id)
{
	const char *dev = kevents_device();
	*k = (struct kevents){ .fd = -1, .boot_s = boottime_s() };
	k->fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		k->unreadable = xasprintf("%s: %s", dev, strerror(errno));
		return;
	}
	lseek(k->fd, 0, SEEK_END);
	/* writing needs root (CAP_SYSLOG is not enough): a marker is a courtesy */
	int w = open(dev, O_WRONLY | O_CLOEXEC);
	if (w >= 0) {
		char *m = xasprintf("ubtune: bench run %s started", run_id);
		_cleanup_free_ char *line = xasprintf("<5>%s\n", m);
		if (write(w, line, strlen(line)) == (ssize_t)strlen(line))
			k->marker = m;
		else
			free(m);
		close(w);
	}
}

bool kevents_record(const char *rec, size_t len, unsigned long long *ts_us, const char **text, size_t *text_len)
{
	const char *semi = memchr(rec, ';', len);
	unsigned prio;
	unsigned long long seq;
	if (!semi || sscanf(rec, "%u,%llu,%llu", &prio, &seq, ts_us) != 3)
		return false;
	*text = semi + 1;
	const char *nl = memchr(*text, '\n', len - (size_t)(*text - rec));
	*text_len = nl ? (size_t)(nl - *text) : len - (size_t)(*text - rec);
	return true;
}

const char *kevents_class(const char *m)
{
	static const struct { const char *part, *class; } parts[] = {
		{ "Out of memory: Kill", "oom" },
		{ "invoked oom-killer", "oom" },
		{ "oom-kill:", "oom" },
		{ "blocked for more than", "hung-task" },
		{ "critical temperature reached", "thermal-shutdown" },
		{ "shutting down", "thermal-shutdown" }, /* only with "temperature", below */
		{ "Package temperature above threshold", "thermal" },
		{ "Core temperature above threshold", "thermal" },
		{ "cpu clock throttled", "thermal" },
		{ "thermal", "thermal" },
		{ "Under-voltage detected", "voltage" },
		{ "Undervoltage detected", "voltage" },
		{ "Voltage normalised", "voltage" },
		{ "over-current", "voltage" },
		{ "Machine check", "mce" },
		{ "fork rejected by pids controller", "fork-rejected" },
		{ "Hardware Error", "mce" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		if (!strstr(m, parts[i].part))
			continue;
		if (streq(parts[i].part, "shutting down") && !strstr(m, "temperature"))
			continue;
		/* "thermal" alone: only what says it throttles or trips */
		if (streq(parts[i].part, "thermal") && !strstr(m, "throttl") && !strstr(m, "trip") &&
		    !strstr(m, "critical"))
			continue;
		return parts[i].class;
	}
	return NULL;
}

/* The event of one message logged at t (seconds since boot), placed in
 * the test that ran then. */
static json_object *event_json(const struct kevents *k, const struct phases *ph, const char *class, double t,
			       const char *text, size_t len)
{
	json_object *ev = json_object_new_object();
	double offset = t - k->boot_s;
	int test = -1;
	unsigned copies = 0;
	bool placed = ph && phases_at(ph, t, &test, &copies);
	_cleanup_free_ char *kind = xasprintf("kernel-%s", class);
	_cleanup_free_ char *during = placed ? phase_text(test, copies) : NULL;
	_cleanup_free_ char *msg = during ? xasprintf("kernel: %.*s (%s)", (int)len, text, during)
					  : xasprintf("kernel: %.*s", (int)len, text);
	jset_str(ev, "kind", kind);
	jset_null(ev, "time");
	jset_double(ev, "offset_s", offset > 0 ? (double)(long long)(offset * 10 + 0.5) / 10 : 0);
	jset_double(ev, "duration_s", 0);
	jset_str(ev, "test", test >= 0 && test < UB_NINDEX ? ub_tests[test].id : NULL);
	if (test >= 0 && test < UB_NINDEX)
		jset_int(ev, "copies", copies);
	else
		jset_null(ev, "copies");
	jset_str(ev, "message", msg);
	return ev;
}

json_object *kevents_finish(struct kevents *k, const struct phases *ph, json_object **summary)
{
	json_object *events = json_object_new_array();
	*summary = json_object_new_object();
	jset_str(*summary, "source", kevents_device());
	jset_str(*summary, "marker", k->marker);
	if (k->fd >= 0) {
		char rec[8192];
		for (;;) {
			ssize_t n = read(k->fd, rec, sizeof(rec) - 1);
			if (n < 0 && errno == EPIPE) /* records overwritten while we read: go on */
				continue;
			if (n <= 0)
				break;
			rec[n] = '\0';
			/* /dev/kmsg gives one record per read; a plain file (tests) may give several lines */
			for (char *line = rec, *next; line && *line; line = next) {
				next = strchr(line, '\n');
				if (next)
					*next++ = '\0';
				unsigned long long ts;
				const char *text;
				size_t len;
				if (!kevents_record(line, strlen(line), &ts, &text, &len))
					continue;
				_cleanup_free_ char *t = xstrndup(text, len);
				const char *class = kevents_class(t);
				if (class && !(k->marker && strstr(t, k->marker)))
					json_object_array_add(events, event_json(k, ph, class, (double)ts / 1e6, text, len));
			}
		}
		close(k->fd);
		k->fd = -1;
	}
	jset_bool(*summary, "read", !k->unreadable);
	jset_str(*summary, "error", k->unreadable);
	free(k->marker);
	free(k->unreadable);
	k->marker = k->unreadable = NULL;
	return events;
}
