/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPU area: /proc/cpuinfo parser, ARM part names, cpufreq. Exported for tests. */
#pragma once

#include "lib/cpuset.h"
#include "probe.h"

#define CPU_SYS "/sys/devices/system/cpu"
/* CPU numbers at or above this are not believed (the bound of lib/cpuset lists). */
#define CPU_NUMBER_MAX CPUSET_MAX

/* Main ID Register fields; -1 where cpuinfo did not say. */
struct midr {
	int implementer, variant, part, revision;
};
#define MIDR_UNKNOWN ((struct midr){ -1, -1, -1, -1 })

static inline bool midr_valid(const struct midr *m)
{
	return m->implementer >= 0 && m->part >= 0;
}

/* One block of /proc/cpuinfo. Absent numbers are -1, absent strings NULL. */
struct cpuinfo_cpu {
	long processor;
	char *model_name;  /* "model name" (x86, some 32-bit ARM kernels) */
	char *vendor_id;   /* x86 */
	char *cpu_name;    /* "cpu" (powerpc, sparc) */
	char *processor_name; /* old ARM header "Processor : AArch64 Processor rev 0" */
	char *flags;       /* x86 feature flags, one space between them */
	double bogomips;   /* < 0 when absent */
	long physical_id, core_id;
	long family, model; /* x86 "cpu family" and "model" (numbers); < 0 when absent */
	struct midr midr;
};

struct cpuinfo {
	struct cpuinfo_cpu *cpus; /* one per "processor" line, in file order */
	size_t n;
	/* Lines outside any processor block: the old ARM header, and on
	 * 32-bit ARM kernels the CPU implementer/part block after the list. */
	struct cpuinfo_cpu shared;
};

/*
 * Parses /proc/cpuinfo text of any architecture: keys and values split at
 * the first ':' and trimmed (tabs or runs of spaces), blocks separated by
 * blank lines. A field missing in a processor block is taken from the
 * shared lines. A file without any "processor" line (old uniprocessor ARM)
 * gives one CPU, number 0, from the shared lines.
 */
void cpuinfo_parse(const char *text, struct cpuinfo *out);
void cpuinfo_free(struct cpuinfo *ci);
/* The block of processor N, or NULL. */
const struct cpuinfo_cpu *cpuinfo_find(const struct cpuinfo *ci, long n);

/* The value of the first "KEY : value" line of cpuinfo text (blanks around
 * the key and the value dropped), or NULL. */
char *cpuinfo_value(const char *cpuinfo, const char *key);

/* Whether a blank-separated list (cpuinfo's flags) holds word. */
bool cpuinfo_has_word(const char *list, const char *word);

/* The architecture /proc/cpuinfo text describes, as uname -m names it
 * ("s390x", "ppc64", "riscv64", ...; POWER's byte order is not in it), or NULL. */
const char *cpuinfo_arch(const char *cpuinfo);

/* "0x00000000410fd851" (regs/identification/midr_el1) -> fields; 0 or -EINVAL. */
int midr_parse_register(const char *s, struct midr *out);

/* Implementer name ("ARM", "Phytium", ...) or NULL when unknown. */
const char *arm_implementer_name(int implementer);
/* Core name ("Cortex-A72", "FTC662", "TSV110 (Kunpeng 920)") or NULL when unknown. */
const char *arm_part_name(int implementer, int part);

/*
 * The human name of a MIDR: "Cortex-A72" for ARM's own cores, otherwise
 * prefixed with the implementer ("Phytium FTC662"). Unknown parts give
 * "ARM part 0xd99"; *known says whether the table knew it.
 */
char *arm_model_name(const struct midr *m, bool *known);

/*
 * The CPU list of a kernel command line option such as isolcpus= or
 * nohz_full= in canonical list form ("2-3"): flags before the list
 * ("isolcpus=nohz,domain,2-3") are dropped; the last occurrence wins. ""
 * when the option is absent; NULL when its value is not a CPU list.
 */
char *cmdline_cpu_list(const char *cmdline, const char *option);

/* Sockets and cores (-1 each where unknown) that a set of CPUs spans, as
 * cpu.sockets and cpu.cores count the online ones; false when nothing tells. */
bool cpu_topology_of(struct probe_ctx *ctx, const struct cpuset *cpus, int64_t *sockets, int64_t *cores);

struct hw_policies;
/* Fills cpu.freq (summary, policies, boost) from the policies of the online CPUs. */
void cpufreq_collect(struct probe_ctx *ctx, json_object *cpu, const struct hw_policies *pols);
/* Splits hybrid x86 kinds into P- and E-cores; each kind's cores, threads
 * and capacity. */
void kinds_collect(struct probe_ctx *ctx, json_object *cpu, const struct hw_policies *pols);
/* Marks the fastest kind (cpu.kinds[].fastest), after the clocks are in. */
void kinds_mark_fastest(json_object *cpu);
/* cpu.idle: the cpuidle driver and the states of the first online CPU. */
void idle_collect(struct probe_ctx *ctx, json_object *cpu, unsigned first_cpu);
void idle_render(const struct env_record *env, FILE *out);
/* Adds each kind's measured clock and cpufreq's cur and max clock to cpu.kinds. */
void clock_collect(struct probe_ctx *ctx, json_object *cpu, const struct hw_policies *pols);
/* The measured clock lines of the text report. */
void clock_render(const struct env_record *env, FILE *out);
/* The frequency lines of the text report. */
void cpufreq_render(const struct env_record *env, FILE *out);
