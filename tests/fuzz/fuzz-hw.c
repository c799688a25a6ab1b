/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwmon and thermal as lib/hw.h reads them for the probe and the bench
 * sampler. The input's lines "CLASS/ENTRY/FILE=VALUE"
 * ("thermal/thermal_zone0/trip_point_0_type=passive", FILE may be
 * "device/NAME") become the files of a private root's /sys/class; the
 * zones, trip points, sensors and alarms are discovered and read from it.
 * (Files, not a string: slower than the other harnesses, so on its own.)
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/hw.h"
#include "lib/util.h"
#include "tests/fuzz/fuzz.h"

/* the private root, and its sys/ that each input fills anew */
static char *root, *sys;

/* A path component the harness writes: no "..", nothing outside the root. */
static bool component_ok(const char *s, size_t n)
{
	if (n == 0 || n > 64 || (s[0] == '.' && (n == 1 || (n == 2 && s[1] == '.'))))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.:-", s[i]))
			return false;
	return true;
}

/* "hwmon/hwmon0/device/in0_input=1000": its directories and file under sys/class. */
static void put_file(const char *line, size_t n)
{
	const char *eq = memchr(line, '=', n);
	if (!eq)
		return;
	char path[512];
	int len = snprintf(path, sizeof(path), "%s/class", sys);
	if ((size_t)len >= sizeof(path))
		return;
	unsigned depth = 0;
	for (const char *c = line; c < eq; depth++) {
		const char *slash = memchr(c, '/', (size_t)(eq - c));
		const char *end = slash ? slash : eq;
		if (depth == 4 || !component_ok(c, (size_t)(end - c)))
			return;
		len += snprintf(path + len, sizeof(path) - (size_t)len, "/%.*s", (int)(end - c), c);
		if ((size_t)len >= sizeof(path))
			return;
		if (slash)
			(void)mkdir(path, 0755);
		c = slash ? slash + 1 : eq;
		if (!slash && depth < 2)
			return;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	size_t vn = (size_t)(line + n - eq - 1);
	/* a short write (a full disk) leaves a shorter file: one more input */
	if (write(fd, eq + 1, vn) == (ssize_t)vn)
		(void)!write(fd, "\n", 1);
	close(fd);
}

static void remove_root(void)
{
	(void)remove_tree(root);
}

static void hw(const char *text)
{
	if (!root) {
		/* every input makes and removes its files: a tmpfs as TMPDIR
		 * (/dev/shm) runs it several times faster than a disk */
		const char *tmp = getenv("TMPDIR");
		root = xasprintf("%s/fuzz-hw.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(root))
			abort();
		sys = xasprintf("%s/sys", root);
		atexit(remove_root);
	}
	(void)remove_tree(sys);
	_cleanup_free_ char *class = xasprintf("%s/class", sys);
	(void)mkdir(sys, 0755);
	(void)mkdir(class, 0755);
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		put_file(l, n);
		l += n + (nl != NULL);
	}

	struct rootfs *rf;
	if (rootfs_new(root, &rf) < 0)
		abort();
	struct hw_zones z = { 0 };
	if (hw_thermal_zones(rf, &z) == 0)
		for (size_t i = 0; i < z.n; i++) {
			int64_t mc;
			(void)hw_zone_temp(rf, &z.v[i], &mc);
			(void)hw_throttle_trip(z.v[i].trips, z.v[i].ntrips);
		}
	hw_zones_free(&z);
	struct hw_hwmons h = { 0 };
	if (hw_hwmon_devices(rf, &h) == 0)
		for (size_t d = 0; d < h.n; d++)
			for (size_t i = 0; i < h.v[d].n; i++) {
				const struct hw_sensor *s = &h.v[d].sensors[i];
				int64_t v;
				bool raised;
				(void)hw_sensor_value(rf, s, &v);
				(void)hwmon_unit(s->kind);
				for (size_t a = 0; a < s->nalarms; a++) {
					(void)hw_alarm_read(rf, &s->alarms[a], &raised);
					(void)hw_alarm_undervoltage(s, &s->alarms[a]);
				}
			}
	hw_hwmons_free(&h);
	rootfs_free(rf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	hw(text);
	free(text);
	return 0;
}
