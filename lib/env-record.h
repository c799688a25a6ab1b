/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "lib/schema.h"

/*
 * The environment record (schema ubtune.probe/1, docs/probe-json.md) as C
 * structs. Members are named as their keys; a fact that is null or absent
 * is unknown (NULL, known == false), never 0 or "". To read a new fact: add
 * its member here and its line to the table in lib/env-record.c.
 */
struct env_midr {
	json_object *json; /* NULL: the kind has no MIDR (not arm) */
	const char *implementer, *part, *variant;
	struct opt_int revision;
};

struct env_x86 {
	json_object *json; /* NULL: not x86, or cpuinfo gives no numbers */
	struct opt_int family, model;
};

struct env_limits {
	json_object *nproc_soft, *nproc_hard, *pids_max; /* a number, "unlimited"/"max", or NULL */
	const char *pids_max_source;
	struct opt_int pid_max, threads_max;
};

struct env_audit {
	const char *seccomp;
	struct opt_int seccomp_filters, rules, syscall_rules;
};

struct env_host {
	const char *hostname, *machine_id, *kernel_release, *kernel_version, *arch, *os, *locale, *init;
	struct opt_int uptime_s;
	ARRAY_OF(struct opt_num) load_avg;
	struct env_limits limits;
	struct env_audit audit;
};

struct env_policy {
	const char *policy, *path, *cpus, *driver, *governor;
	struct opt_int cur_khz, min_khz, max_khz, cpuinfo_min_khz, cpuinfo_max_khz;
	struct opt_bool boost;
	const char *epp;
	json_object *epp_available;
};

struct env_freq {
	const char *driver, *governor, *boost_source, *epp, *epb_source;
	struct opt_int cur_khz, min_khz, max_khz, epb;
	struct opt_bool boost, boost_available, epb_mixed;
	ARRAY_OF(struct env_policy) policies;
};

struct env_cpu_kind {
	const char *model, *vendor, *cpus, *core_type;
	struct env_midr midr;
	struct opt_int measured_cpu, measured_khz, cur_khz, max_khz, cores, threads, capacity;
	struct opt_bool fastest;
};

struct env_idle_state {
	const char *name, *desc;
	struct opt_int latency_us, residency_us, usage, time_us;
	struct opt_bool disabled;
};

struct env_idle {
	const char *driver, *governor;
	struct opt_int cpu, deepest_latency_us;
	ARRAY_OF(struct env_idle_state) states;
};

struct env_cpu {
	const char *arch, *vendor, *model, *online, *possible, *topology_source;
	const char *isolated, *nohz_full, *isolation_source;
	struct env_midr midr;
	struct env_x86 x86;
	struct opt_int sockets, cores, threads;
	struct opt_num bogomips;
	ARRAY_OF(struct opt_num) bogomips_per_cpu;
	struct env_freq freq;
	json_object *vulnerabilities; /* {"spectre_v2": "Mitigation: ...", ...} */
	ARRAY_OF(struct env_cpu_kind) kinds;
	struct env_idle idle;
};

struct env_memory {
	struct opt_int total_kib, available_kib, swap_total_kib, swap_used_kib;
	const char *thp;
};

struct env_evidence {
	const char *layer, *source, *value, *means;
};

struct env_virt {
	const char *role, *hypervisor, *container, *cloud, *boot_el, *config_virtualization, *config_kvm;
	const char *hw_virtualization;
	struct opt_bool kvm_dev, kvm_initialized;
	struct opt_num steal_pct;
	struct {
		json_object *json;
		struct opt_bool hypervisor_bit;
		const char *vendor;
	} cpuid;
	struct {
		json_object *json;
		const char *sys_vendor, *product_name, *product_version, *board_vendor, *bios_vendor;
		const char *chassis_asset_tag;
	} dmi;
	ARRAY_OF(struct env_evidence) evidence;
};

struct env_sensor {
	const char *label, *kind, *sensor, *unit;
	struct opt_int value, max, crit;
	struct opt_bool alarm;
	json_object *alarms; /* {"lcrit_alarm": true, ...} */
};

struct env_hwmon {
	const char *name, *path;
	ARRAY_OF(struct env_sensor) sensors;
};

struct env_trip {
	struct opt_int temp_mc;
	const char *type;
};

struct env_thermal {
	const char *zone, *type, *trip_type;
	struct opt_int temp_mc, trip_mc, trip_point;
	ARRAY_OF(struct env_trip) trips;
};

struct env_throttle {
	json_object *json; /* NULL: no counters (not x86, or none readable) */
	struct opt_int cpus, core_events, core_max, core_max_cpu, core_time_ms;
	struct opt_int package_events, package_max, package_max_cpu, package_time_ms;
};

struct env_supply {
	const char *name, *path, *type, *status;
	struct opt_bool online;
};

struct env_devfreq {
	const char *name, *path, *kind, *governor;
	json_object *governors, *available_hz;
	struct opt_int cur_hz, min_hz, max_hz;
};

struct env_power {
	struct opt_bool undervoltage_now, on_battery;
	struct opt_int undervoltage_events;
	const char *undervoltage_line;
	ARRAY_OF(struct env_hwmon) hwmon;
	ARRAY_OF(struct env_thermal) thermal;
	struct env_throttle throttle;
	ARRAY_OF(struct env_supply) supplies;
	ARRAY_OF(struct env_devfreq) devfreq;
};

struct env_mount {
	json_object *json; /* NULL: the mount is not known */
	const char *target, *source, *fstype, *options, *super_options;
};

struct env_device;
/* What an overlay's upper layer or a loop device's file lies on. */
struct env_backing {
	const char *path;
	struct env_mount mount;
	struct env_device *device;
};

struct env_device {
	json_object *json;
	const char *name, *kind, *model, *scheduler, *recommended_scheduler, *scheduler_note;
	const char *partition, *syspath, *mmc_type, *layer, *layer_type, *dm_name, *remote;
	struct opt_bool rotational, removable;
	struct opt_int numa_node, read_ahead_kb;
	ARRAY_OF(const char *) schedulers;
	struct {
		json_object *json;
		const char *pci, *driver, *path;
	} controller;
	ARRAY_OF(struct env_device) slaves;
	struct env_backing backing;
};

struct env_storage {
	const char *workdir;
	struct env_mount mount;
	struct env_device *device; /* NULL: not known */
};

struct env_node {
	struct opt_int id, mem_kib;
	const char *cpus;
};

struct env_irq {
	struct opt_int irq, count, device_node;
	const char *name, *affinity, *effective, *controller;
	struct opt_bool on_device_node;
};

struct env_numa {
	ARRAY_OF(struct env_node) nodes;
	ARRAY_OF(struct env_irq) storage_irqs;
	struct opt_bool irqbalance, numad, kernel_numa;
};

/* The cgroup of the process that benchmarks (probe/cgroup.c). */
struct env_cgroup_throttling {
	struct opt_int nr_periods, nr_throttled, throttled_usec;
	const char *source;
};

struct env_cgroup {
	struct opt_int version, cpu_quota_us, cpu_period_us, cpu_weight, cpu_shares, cpus, sockets, cores;
	struct opt_num cpu_quota_cpus;
	const char *path, *cpuset, *cpuset_source, *mems, *mems_source, *cpu_quota_source, *memory_max_source;
	const char *affinity, *allowed;
	json_object *memory_max; /* bytes, "max", or NULL */
	struct env_cgroup_throttling throttling;
};

struct env_noisy {
	const char *unit, *state, *source, *sub, *load, *process;
	struct opt_int pid;
	struct opt_bool protective;
};

struct env_init_script {
	const char *name, *script, *daemon, *pidfile;
	struct opt_bool running;
	struct opt_int pid;
};

struct env_services {
	struct opt_bool available;
	const char *manager, *default_target;
	ARRAY_OF(struct env_noisy) noisy;
	ARRAY_OF(struct env_init_script) init_scripts;
};

struct env_process {
	struct opt_int pid;
	const char *comm;
	struct opt_num cpu_pct;
};

struct env_processes {
	ARRAY_OF(struct env_process) top;
	struct opt_int running, blocked, total;
};

struct env_toolchain {
	const char *cc, *cc_version, *libc, *libc_version;
};

struct env_finding {
	json_object *json;
	const char *id, *severity, *area, *message, *evidence, *fix;
};

struct env_unavailable {
	const char *area, *reason;
};

/* A CPU line of a UnixBench report's header. */
struct env_unixbench_cpu {
	const char *model, *flags; /* flags: "Hyper-Threading, x86-64, MMX, ..." */
	struct opt_num bogomips;
};

/* What a UnixBench report's header said (records made by `ubtune import`). */
struct env_unixbench {
	json_object *json;
	const char *version, *system, *os, *machine, *platform, *language, *charmap, *collate;
	const char *uptime, *runlevel, *tmpdir, *resultdir;
	struct opt_int cpus_in_system;
	ARRAY_OF(struct env_unixbench_cpu) cpus;
};

struct env_record {
	json_object *json;
	const char *schema, *generated_at, *root, *source;
	ARRAY_OF(struct env_unavailable) unavailable;
	struct env_host host;
	struct env_cpu cpu;
	struct env_memory memory;
	struct env_virt virt;
	struct env_power power;
	struct env_storage storage;
	struct env_numa numa;
	struct env_cgroup cgroup;
	struct env_services services;
	struct env_processes processes;
	struct env_toolchain toolchain;
	ARRAY_OF(struct env_finding) findings;
	struct env_unixbench unixbench;
};

extern const struct schema env_record_schema;

/*
 * Decodes an environment record (rec is borrowed: it must outlive env and
 * stay unchanged). path names it in messages ("" for a record of its own,
 * "environment.before" inside a result). -EBADMSG and *error when a key has
 * the wrong type.
 */
int env_decode(json_object *rec, const char *path, struct env_record *env, char **error);
void env_record_free(struct env_record *env);

