/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The environment record's schema tables (docs/probe-json.md), one line per key. */
#include "env-record.h"

#include "schema-table.h"
#include "util.h"

#define T struct env_midr
static const struct schema midr_schema = SCHEMA(T, FIELD_SELF(T, json), S(implementer), S(part), S(variant),
					       I(revision));
#undef T

#define T struct env_limits
static const struct schema limits_schema = SCHEMA(T, J(nproc_soft), J(nproc_hard), J(pids_max), S(pids_max_source),
						  I(pid_max), I(threads_max));
#undef T

#define T struct env_audit
static const struct schema audit_schema = SCHEMA(T, S(seccomp), I(seccomp_filters), I(rules), I(syscall_rules));
#undef T

#define T struct env_host
static const struct schema host_schema = SCHEMA(T, S(hostname), S(machine_id), S(kernel_release), S(kernel_version), S(arch), S(os),
						S(locale), S(init), I(uptime_s),
						FIELD_NUM_ARRAY(T, load_avg, OPTIONAL), O(limits, limits_schema),
						O(audit, audit_schema));
#undef T

#define T struct env_policy
static const struct schema policy_schema = SCHEMA(T, S(policy), S(path), S(cpus), S(driver), S(governor), I(cur_khz),
						  I(min_khz), I(max_khz), I(cpuinfo_min_khz), I(cpuinfo_max_khz),
						  B(boost), S(epp), J(epp_available));
#undef T

#define T struct env_freq
static const struct schema freq_schema = SCHEMA(T, S(driver), S(governor), S(boost_source), I(cur_khz), I(min_khz),
						I(max_khz), B(boost), B(boost_available), S(epp), I(epb),
						S(epb_source), B(epb_mixed), L(policies, policy_schema));
#undef T

#define T struct env_cpu_kind
static const struct schema cpu_kind_schema = SCHEMA(T, S(model), S(vendor), S(cpus), O(midr, midr_schema),
						    S(core_type), I(measured_cpu), I(measured_khz), I(cur_khz), I(max_khz),
						    I(cores), I(threads), I(capacity), B(fastest));
#undef T

#define T struct env_idle_state
static const struct schema idle_state_schema = SCHEMA(T, S(name), S(desc), I(latency_us), I(residency_us), I(usage),
						      I(time_us), B(disabled));
#undef T

#define T struct env_idle
static const struct schema idle_schema = SCHEMA(T, S(driver), S(governor), I(cpu), I(deepest_latency_us),
						L(states, idle_state_schema));
#undef T

#define T struct env_x86
static const struct schema x86_schema = SCHEMA(T, FIELD_SELF(T, json), I(family), I(model));
#undef T

#define T struct env_cpu
static const struct schema cpu_schema = SCHEMA(T, S(arch), S(vendor), S(model), S(online), S(possible),
					       S(topology_source), S(isolated), S(nohz_full), S(isolation_source),
					       O(midr, midr_schema), O(x86, x86_schema), I(sockets), I(cores), I(threads),
					       N(bogomips),
					       FIELD_NUM_ARRAY(T, bogomips_per_cpu, OPTIONAL), O(freq, freq_schema),
					       J(vulnerabilities), L(kinds, cpu_kind_schema), O(idle, idle_schema));
#undef T

#define T struct env_memory
static const struct schema memory_schema = SCHEMA(T, I(total_kib), I(available_kib), I(swap_total_kib),
						  I(swap_used_kib), S(thp));
#undef T

#define T struct env_evidence
static const struct schema evidence_schema = SCHEMA(T, S(layer), S(source), S(value), S(means));
#undef T

#define T typeof(((struct env_virt *)0)->cpuid)
static const struct schema cpuid_schema = SCHEMA(T, FIELD_SELF(T, json), B(hypervisor_bit), S(vendor));
#undef T

#define T typeof(((struct env_virt *)0)->dmi)
static const struct schema dmi_schema = SCHEMA(T, FIELD_SELF(T, json), S(sys_vendor), S(product_name),
					       S(product_version), S(board_vendor), S(bios_vendor),
					       S(chassis_asset_tag));
#undef T

#define T struct env_virt
static const struct schema virt_schema = SCHEMA(T, S(role), S(hypervisor), S(container), S(cloud), S(boot_el),
						S(config_virtualization), S(config_kvm), S(hw_virtualization),
						B(kvm_dev), B(kvm_initialized), N(steal_pct), O(cpuid, cpuid_schema),
						O(dmi, dmi_schema), L(evidence, evidence_schema));
#undef T

#define T struct env_sensor
static const struct schema sensor_schema = SCHEMA(T, S(label), S(kind), S(sensor), S(unit), I(value), I(max), I(crit),
						  B(alarm), J(alarms));
#undef T

#define T struct env_hwmon
static const struct schema hwmon_schema = SCHEMA(T, S(name), S(path), L(sensors, sensor_schema));
#undef T

#define T struct env_trip
static const struct schema trip_schema = SCHEMA(T, I(temp_mc), S(type));
#undef T

#define T struct env_thermal
static const struct schema thermal_schema = SCHEMA(T, S(zone), S(type), S(trip_type), I(temp_mc), I(trip_mc),
						   I(trip_point), L(trips, trip_schema));
#undef T

#define T struct env_throttle
static const struct schema throttle_schema = SCHEMA(T, FIELD_SELF(T, json), I(cpus), I(core_events), I(core_max),
						    I(core_max_cpu), I(core_time_ms), I(package_events),
						    I(package_max), I(package_max_cpu), I(package_time_ms));
#undef T

#define T struct env_supply
static const struct schema supply_schema = SCHEMA(T, S(name), S(path), S(type), S(status), B(online));
#undef T

#define T struct env_devfreq
static const struct schema devfreq_schema = SCHEMA(T, S(name), S(path), S(kind), S(governor), J(governors),
						   I(cur_hz), I(min_hz), I(max_hz), J(available_hz));
#undef T

#define T struct env_power
static const struct schema power_schema = SCHEMA(T, B(undervoltage_now), B(on_battery), I(undervoltage_events),
						 S(undervoltage_line), L(hwmon, hwmon_schema),
						 L(thermal, thermal_schema), O(throttle, throttle_schema),
						 L(supplies, supply_schema), L(devfreq, devfreq_schema));
#undef T

#define T struct env_mount
static const struct schema mount_schema = SCHEMA(T, FIELD_SELF(T, json), S(target), S(source), S(fstype), S(options),
						 S(super_options));
#undef T

/* A device's slaves and its backing store are devices again. */
static const struct schema device_schema;

#define T struct env_backing
static const struct schema backing_schema = SCHEMA(T, S(path), O(mount, mount_schema),
						   FIELD_PTR(T, device, OPTIONAL, device_schema));
#undef T

#define T typeof(((struct env_device *)0)->controller)
static const struct schema controller_schema = SCHEMA(T, FIELD_SELF(T, json), S(pci), S(driver), S(path));
#undef T

#define T struct env_device
static const struct schema device_schema = SCHEMA(T, FIELD_SELF(T, json), S(name), S(kind), S(model), S(scheduler),
						  S(recommended_scheduler), S(scheduler_note), S(partition),
						  S(syspath), S(mmc_type), S(layer), S(layer_type), S(dm_name),
						  S(remote), B(rotational), B(removable), I(numa_node),
						  I(read_ahead_kb), FIELD_STR_ARRAY(T, schedulers, OPTIONAL),
						  O(controller, controller_schema), L(slaves, device_schema),
						  O(backing, backing_schema));
#undef T

#define T struct env_storage
static const struct schema storage_schema = SCHEMA(T, S(workdir), O(mount, mount_schema),
						   FIELD_PTR(T, device, OPTIONAL, device_schema));
#undef T

#define T struct env_node
static const struct schema node_schema = SCHEMA(T, I(id), I(mem_kib), S(cpus));
#undef T

#define T struct env_irq
static const struct schema irq_schema = SCHEMA(T, I(irq), I(count), I(device_node), S(name), S(affinity), S(effective),
					       S(controller), B(on_device_node));
#undef T

#define T struct env_numa
static const struct schema numa_schema = SCHEMA(T, L(nodes, node_schema), L(storage_irqs, irq_schema), B(irqbalance),
						B(numad), B(kernel_numa));
#undef T

#define T struct env_cgroup_throttling
static const struct schema cgroup_throttling_schema = SCHEMA(T, I(nr_periods), I(nr_throttled), I(throttled_usec),
							     S(source));
#undef T

#define T struct env_cgroup
static const struct schema cgroup_schema = SCHEMA(T, I(version), S(path), S(cpuset), S(cpuset_source), S(mems),
						  S(mems_source), S(affinity),
						  I(cpu_quota_us), I(cpu_period_us), N(cpu_quota_cpus),
						  S(cpu_quota_source), I(cpu_weight), I(cpu_shares),
						  O(throttling, cgroup_throttling_schema), J(memory_max),
						  S(memory_max_source), S(allowed), I(sockets), I(cores), I(cpus));
#undef T

#define T struct env_noisy
static const struct schema noisy_schema = SCHEMA(T, S(unit), S(state), S(source), S(sub), S(load), S(process), I(pid),
						 B(protective));
#undef T

#define T struct env_init_script
static const struct schema init_script_schema = SCHEMA(T, S(name), S(script), S(daemon), S(pidfile), B(running),
						       I(pid));
#undef T

#define T struct env_services
static const struct schema services_schema = SCHEMA(T, B(available), S(manager), S(default_target),
						    L(noisy, noisy_schema), L(init_scripts, init_script_schema));
#undef T

#define T struct env_process
static const struct schema process_schema = SCHEMA(T, I(pid), S(comm), N(cpu_pct));
#undef T

#define T struct env_processes
static const struct schema processes_schema = SCHEMA(T, L(top, process_schema), I(running), I(blocked), I(total));
#undef T

#define T struct env_toolchain
static const struct schema toolchain_schema = SCHEMA(T, S(cc), S(cc_version), S(libc), S(libc_version));
#undef T

#define T struct env_finding
static const struct schema finding_schema = SCHEMA(T, FIELD_SELF(T, json), FIELD_STR(T, id, REQUIRED),
						   FIELD_STR(T, severity, REQUIRED), S(area), S(message), S(evidence),
						   S(fix));
#undef T

#define T struct env_unavailable
static const struct schema unavailable_schema = SCHEMA(T, S(area), S(reason));
#undef T

#define T struct env_unixbench_cpu
static const struct schema unixbench_cpu_schema = SCHEMA(T, S(model), S(flags), N(bogomips));
#undef T

#define T struct env_unixbench
static const struct schema unixbench_schema = SCHEMA(T, FIELD_SELF(T, json), S(version), S(system), S(os), S(machine),
						     S(platform), S(language), S(charmap), S(collate), S(uptime),
						     S(runlevel), S(tmpdir), S(resultdir), I(cpus_in_system),
						     L(cpus, unixbench_cpu_schema));
#undef T

#define T struct env_record
const struct schema env_record_schema = SCHEMA(T, FIELD_SELF(T, json), S(schema),
					       S(generated_at), S(root), S(source),
					       L(unavailable, unavailable_schema), O(host, host_schema),
					       O(cpu, cpu_schema), O(memory, memory_schema), O(virt, virt_schema),
					       O(power, power_schema), O(storage, storage_schema),
					       O(numa, numa_schema), O(cgroup, cgroup_schema),
					       O(services, services_schema),
					       O(processes, processes_schema), O(toolchain, toolchain_schema),
					       L(findings, finding_schema), O(unixbench, unixbench_schema));
#undef T

int env_decode(json_object *rec, const char *path, struct env_record *env, char **error)
{
	return schema_decode(&env_record_schema, rec, path, env, error);
}

void env_record_free(struct env_record *env)
{
	schema_free(&env_record_schema, env);
	*env = (struct env_record){0};
}
