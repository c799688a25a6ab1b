/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "cpuset.h"
#include "rootfs.h"

/*
 * The hardware sources that cap or report clocks, read in one place for
 * the probe (once) and the bench sampler (about once a second): thermal
 * zones and their trip points, hwmon sensors and alarms, x86 thermal
 * throttle counters, cpufreq policies and the boost switch.
 *
 * Each source has a discovery call that walks sysfs once and keeps what
 * does not change (paths, names, trip points), and readers of what does
 * (a temperature, an alarm, a counter, a clock). Everything goes through
 * a rootfs, so a dump reads like the live machine.
 */

#define HW_CPU_DIR "/sys/devices/system/cpu"
#define HW_CPUFREQ_DIR HW_CPU_DIR "/cpufreq"
#define HW_LABEL_MAX 64

/*
 * Sorted entries of a class directory (/sys/class/hwmon) that are
 * directories, each as its full path; prefix (may be NULL) filters names.
 * The other entries (broken links, files where sysfs has links) are named
 * in *unreadable ("a (No such file or directory), b (...)"), NULL when
 * there are none. -errno when the class cannot be listed.
 */
int hw_class_entries(struct rootfs *rf, const char *class, const char *prefix, struct strv *out, char **unreadable);

/* A short text attribute DIR/NAME (a device's name, a supply's type), NULL
 * when missing, empty, longer than HW_LABEL_MAX or not text. */
char *hw_label_attr(struct rootfs *rf, const char *dir, const char *name);

/* ---- which CPUs are online ---- */

enum hw_online_source { HW_ONLINE_LIST, HW_ONLINE_FALLBACK, HW_ONLINE_DIRS };

/*
 * The online CPUs: cpu/online, else `fallback` (the processors of
 * /proc/cpuinfo, which lists online CPUs only; may be NULL), else the
 * cpuN directories that have a topology/ (kernels and dumps without
 * either); less every CPU whose cpuN/online says 0. 0 with *source
 * telling which, -ENOENT when nothing tells.
 */
int hw_online_cpus(struct rootfs *rf, const struct cpuset *fallback, struct cpuset *out, enum hw_online_source *source);

/* ---- thermal zones ---- */

struct hw_trip {
	int64_t temp_mc;
	char *type; /* "passive", "active", "hot", "critical"; NULL when unreadable */
};

struct hw_zone {
	char *name; /* "thermal_zone0" */
	char *path; /* "/sys/class/thermal/thermal_zone0" */
	char *type; /* "cpu-thermal"; NULL when unreadable */
	char *temp_path;
	struct hw_trip *trips; /* trip_point_K_*, K = index */
	size_t ntrips;
	int throttle_trip; /* hw_throttle_trip() of the trips */
};

struct hw_zones {
	struct hw_zone *v;
	size_t n;
	char *unreadable; /* hw_class_entries() */
};

/* The zones of /sys/class/thermal with their type and trip points. */
int hw_thermal_zones(struct rootfs *rf, struct hw_zones *out);
void hw_zones_free(struct hw_zones *z);
/* The zone's temperature now (milli-°C). */
int hw_zone_temp(struct rootfs *rf, const struct hw_zone *z, int64_t *mc);

/*
 * The trip point at which the kernel starts to cut clocks: the lowest
 * passive, hot or critical trip. Active trips only start a fan; trips
 * without a type or a temperature above 0 do not count. Index, or -1.
 */
int hw_throttle_trip(const struct hw_trip *trips, size_t n);

/* ---- hwmon ---- */

/*
 * A hwmon attribute file name split up: "in0_lcrit_alarm" -> kind "in",
 * index 0, attribute "lcrit_alarm". Only the sensor kinds that report
 * power and heat (temp, in, fan, power, curr) are accepted. 0 or -EINVAL.
 */
int hwmon_parse_attr(const char *file, char kind[8], unsigned *index, const char **attr);
/* Unit of a sensor kind's values as the kernel gives them ("temp" -> "mdegC"). */
const char *hwmon_unit(const char *kind);

struct hw_alarm {
	char *attr; /* "lcrit_alarm" */
	char *path;
};

struct hw_sensor {
	char kind[8];
	unsigned index;
	char *label;       /* NULL when there is none (or it is not short text) */
	char *input_path;  /* *_input */
	char *average_path; /* power*_average: meters without an instantaneous reading */
	char *crit_path, *max_path; /* temp only */
	struct hw_alarm *alarms; /* in file-name order */
	size_t nalarms;
};

struct hw_hwmon {
	char *entry; /* "hwmon1" */
	char *name;  /* the driver's name ("rpi_volt"); NULL when unreadable */
	char *dir;   /* where the sensors are: the hwmon directory or, for old drivers, its device/ */
	struct hw_sensor *sensors; /* in file-name order */
	size_t n;
};

struct hw_hwmons {
	struct hw_hwmon *v;
	size_t n;
	char *unreadable; /* hw_class_entries() */
};

/* The devices of /sys/class/hwmon and their sensors; labels are read now. */
int hw_hwmon_devices(struct rootfs *rf, struct hw_hwmons *out);
void hw_hwmons_free(struct hw_hwmons *h);
/* The sensor's reading: *_input, else the average of a power meter. */
int hw_sensor_value(struct rootfs *rf, const struct hw_sensor *s, int64_t *v);
/* An alarm file: 0 (clear) or 1 (raised); -EBADMSG for another value. */
int hw_alarm_read(struct rootfs *rf, const struct hw_alarm *a, bool *raised);
/* An undervoltage alarm: in*_lcrit_alarm (the Raspberry Pi's rpi_volt). */
bool hw_alarm_undervoltage(const struct hw_sensor *s, const struct hw_alarm *a);

/* ---- x86 thermal throttle counters ---- */

struct hw_throttle_cpu {
	unsigned cpu;
	/* package counters repeat on every CPU of a package: the first CPU
	 * met of each package (by physical_package_id) stands for it */
	bool package_first;
	char *core_count, *core_ms, *package_count, *package_ms;
};

struct hw_throttle {
	struct hw_throttle_cpu *v; /* the CPUs with a thermal_throttle directory */
	size_t n;
};

struct hw_throttle_reading {
	bool has_core, has_package, has_core_ms, has_package_ms;
	uint64_t core, package, core_ms, package_ms;
};

int hw_throttle_discover(struct rootfs *rf, struct hw_throttle *out);
void hw_throttle_free(struct hw_throttle *t);
/* The counters of one CPU now; the package's time only for package_first. */
void hw_throttle_read(struct rootfs *rf, const struct hw_throttle_cpu *c, struct hw_throttle_reading *r);

/* ---- cpufreq ---- */

struct hw_policy {
	char *name; /* "policy0"; "cpu0" on kernels before 4.3 (cpuN/cpufreq) */
	char *path; /* its directory */
	struct cpuset cpus; /* empty when its CPU lists cannot be read */
	bool have_cpus;
};

struct hw_policies {
	struct hw_policy *v;
	size_t n;
};

/*
 * The cpufreq policies with an online CPU (online NULL: all): policyN
 * (Linux 4.3 and later), else one cpuN/cpufreq per policy. A policy
 * governs affected_cpus (its online CPUs), else related_cpus; a cpuN
 * directory always governs CPU N.
 */
void hw_cpufreq_policies(struct rootfs *rf, const struct cpuset *online, struct hw_policies *out);
void hw_policies_free(struct hw_policies *p);
/* The policy governing a CPU, or NULL. */
const struct hw_policy *hw_policy_of_cpu(const struct hw_policies *p, size_t cpu);
/* A kHz (or other number) attribute of a policy. */
int hw_policy_u64(struct rootfs *rf, const struct hw_policy *p, const char *attr, uint64_t *v);
/* What cpufreq says the clock is now: scaling_cur_freq, else cpuinfo_cur_freq. */
int hw_policy_cur_khz(struct rootfs *rf, const struct hw_policy *p, uint64_t *khz);
/* The clock a busy CPU of the policy should reach: base_frequency, else
 * cpuinfo_max_freq, else scaling_max_freq (the first above 0). */
int hw_policy_ref_khz(struct rootfs *rf, const struct hw_policy *p, uint64_t *khz);

/* Energy/performance bias (x86 EPB, 0 = performance ... 15 = power): the
 * cpuN/power/energy_perf_bias files of the CPUs that have one. */
void hw_epb_files(struct rootfs *rf, struct strv *paths);
/* The EPB names the kernel accepts for 0, 4, 6, 8 and 15; -1 for another word. */
int hw_epb_parse(const char *word);

/*
 * The boost (turbo) switch, whichever this machine has: intel_pstate's
 * no_turbo (inverted) while intel_pstate drives the CPUs, else the
 * global cpufreq/boost (acpi-cpufreq, cppc, ...), else one boost file per
 * policy (amd-pstate, cppc on Linux 6.11+).
 */
struct hw_boost_switch {
	char *path;
	char *what;    /* "boost", "policy0 boost", "turbo (intel_pstate no_turbo)" */
	bool inverted; /* 1 means off (no_turbo) */
};
struct hw_boost {
	struct hw_boost_switch *v;
	size_t n;
};
void hw_boost_switches(struct rootfs *rf, const struct hw_policies *p, struct hw_boost *out);
void hw_boost_free(struct hw_boost *b);
/* A switch's state: 1 boost on, 0 off; -errno, -EBADMSG for a value other than 0 or 1. */
int hw_boost_read(struct rootfs *rf, const struct hw_boost_switch *s);

/* ---- the clock a CPU really runs at ---- */

/*
 * Measured with a calibrated dependent-add loop on one CPU: a chain of 64
 * additions, each waiting for the one before (one cycle apiece on every
 * core in use), timed against a chain of 128 with the same loop around
 * it, so the loop's own cost and the timer's cancel out; the fastest of
 * a few rounds counts, so an interrupt or a preemption in one does not.
 * Under qemu's -icount every instruction takes the same virtual time and
 * the result is the instruction rate it was given. A guest measures its
 * host's clock, less what the hypervisor takes (steal).
 */
struct hw_clock {
	uint64_t khz;         /* measured */
	uint64_t cpufreq_khz; /* what cpufreq said right after (the policy's cur clock); 0: nothing */
	double spread_pct;    /* between the rounds' estimates: how steady the clock was */
	double ms;            /* what the measurement took */
};

#define HW_CLOCK_WARMUP_MS 0.5 /* busy before the rounds, so a governor can start to ramp */
#define HW_CLOCK_ROUND_US 50   /* the long chain of one round takes at least this long */
#define HW_CLOCK_ROUNDS 5

/* Measures on CPU cpu (a thread pinned there) and reads pol's cur clock
 * (pol may be NULL). On failure *error says why (not allowed on that CPU). */
int hw_clock_measure(struct rootfs *rf, unsigned cpu, const struct hw_policy *pol, struct hw_clock *out, char **error);

/* The estimate from a round: 64 × n additions more in the long chain took
 * long_s - short_s longer. 0 when the times make no sense. */
uint64_t hw_clock_khz(uint64_t n, double short_s, double long_s);

/* ---- devfreq ---- */

struct hw_devfreq {
	char *name;       /* "dmc", "fb000000.gpu" */
	char *dir;        /* "/sys/class/devfreq/dmc" */
	const char *kind; /* "memory" | "gpu" | "npu" | "bus" | NULL, from the name */
};

struct hw_devfreqs {
	struct hw_devfreq *v;
	size_t n;
};

/* The devices of /sys/class/devfreq, sorted; *unreadable as
 * hw_class_entries(). -errno when the class is absent. */
int hw_devfreq_devices(struct rootfs *rf, struct hw_devfreqs *out, char **unreadable);
void hw_devfreqs_free(struct hw_devfreqs *d);

/* ---- cpuidle ---- */

/* The cpuN/cpuidle/stateK directories of one CPU, K = 0, 1, ... in order;
 * -errno when the CPU has no cpuidle directory. */
int hw_idle_states(struct rootfs *rf, unsigned cpu, struct strv *dirs);
