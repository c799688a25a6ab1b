/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/cpuinfo of x86, 32- and 64-bit ARM (old and new layouts) and others. */
#include <errno.h>
#include <limits.h>

#include "cpu.h"

static void cpu_init(struct cpuinfo_cpu *c, long processor)
{
	*c = (struct cpuinfo_cpu){
		.processor = processor,
		.bogomips = -1,
		.physical_id = -1,
		.core_id = -1,
		.family = -1,
		.model = -1,
		.midr = MIDR_UNKNOWN,
	};
}

static void cpu_clear(struct cpuinfo_cpu *c)
{
	free(c->model_name);
	free(c->vendor_id);
	free(c->cpu_name);
	free(c->processor_name);
	free(c->flags);
}

/* Whole-string number in base 0 (0x41) or 10, at most INT_MAX; -1 when it is not one. */
static long parse_long(const char *s, int base)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, base);
	if (errno || end == s || *end || v < 0 || v > INT_MAX)
		return -1;
	return v;
}

static void set_str(char **field, const char *v)
{
	free(*field);
	*field = xstrdup(v);
}

static void set_field(struct cpuinfo_cpu *c, const char *key, char *value)
{
	/* loongarch writes "Model Name"; riscv names the core in "uarch" */
	if (streq(key, "model name") || streq(key, "Model Name") || streq(key, "uarch")) {
		set_str(&c->model_name, strsqueeze(value));
	} else if (streq(key, "vendor_id")) {
		set_str(&c->vendor_id, value);
	} else if (streq(key, "cpu")) {
		set_str(&c->cpu_name, strsqueeze(value));
	} else if (streq(key, "flags")) {
		set_str(&c->flags, strsqueeze(value));
	} else if (streq(key, "Processor")) {
		set_str(&c->processor_name, strsqueeze(value));
	} else if (streq(key, "bogomips") || streq(key, "BogoMIPS") || streq(key, "bogomips per cpu")) {
		double d;
		if (parse_double(value, &d) == 0 && d >= 0)
			c->bogomips = d;
	} else if (streq(key, "physical id")) {
		c->physical_id = parse_long(value, 10);
	} else if (streq(key, "core id")) {
		c->core_id = parse_long(value, 10);
	} else if (streq(key, "cpu family")) {
		c->family = parse_long(value, 10);
	} else if (streq(key, "model")) {
		/* x86's model number; other architectures' "model" is text, and no number */
		c->model = parse_long(value, 10);
	} else if (streq(key, "CPU implementer")) {
		c->midr.implementer = (int)parse_long(value, 0);
	} else if (streq(key, "CPU variant")) {
		c->midr.variant = (int)parse_long(value, 0);
	} else if (streq(key, "CPU part")) {
		c->midr.part = (int)parse_long(value, 0);
	} else if (streq(key, "CPU revision")) {
		c->midr.revision = (int)parse_long(value, 0);
	}
}

static void inherit_str(char **field, const char *shared)
{
	if (!*field && shared)
		*field = xstrdup(shared);
}

static void inherit_num(long *field, long shared)
{
	if (*field < 0)
		*field = shared;
}

static void inherit_int(int *field, int shared)
{
	if (*field < 0)
		*field = shared;
}

/* Fills what a processor block lacks from the shared lines. */
static void inherit(struct cpuinfo_cpu *c, const struct cpuinfo_cpu *s)
{
	inherit_str(&c->model_name, s->model_name);
	inherit_str(&c->vendor_id, s->vendor_id);
	inherit_str(&c->cpu_name, s->cpu_name);
	inherit_str(&c->processor_name, s->processor_name);
	inherit_str(&c->flags, s->flags);
	if (c->bogomips < 0)
		c->bogomips = s->bogomips; /* s390: "bogomips per cpu" */
	inherit_num(&c->physical_id, s->physical_id);
	inherit_num(&c->core_id, s->core_id);
	inherit_num(&c->family, s->family);
	inherit_num(&c->model, s->model);
	/* One ID block after the list describes every CPU (32-bit ARM). */
	if (!midr_valid(&c->midr))
		c->midr = s->midr;
	else {
		inherit_int(&c->midr.variant, s->midr.variant);
		inherit_int(&c->midr.revision, s->midr.revision);
	}
}

/* A new block for processor NUMBER, or NULL when that is not a CPU number. */
static struct cpuinfo_cpu *add_cpu(struct cpuinfo *ci, size_t *cap, const char *number)
{
	long n = parse_long(number, 10);
	if (n < 0 || n >= CPU_NUMBER_MAX)
		return NULL;
	if (ci->n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		ci->cpus = xrealloc(ci->cpus, *cap * sizeof(*ci->cpus));
	}
	struct cpuinfo_cpu *c = &ci->cpus[ci->n++];
	cpu_init(c, n);
	return c;
}

void cpuinfo_parse(const char *text, struct cpuinfo *out)
{
	_cleanup_free_ char *copy = xstrdup(text);
	struct cpuinfo ci = {0};
	struct cpuinfo_cpu *cur = NULL;
	size_t cap = 0;

	cpu_init(&ci.shared, -1);
	for (char *line = copy, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *colon = strchr(line, ':');
		if (!colon) {
			if (!*strstrip(line))
				cur = NULL; /* a blank line ends the block */
			continue;
		}
		*colon = '\0';
		char *key = strstrip(line), *value = strstrip(colon + 1);
		/* s390: one line per CPU, "processor 3: version = FF, ..." */
		const char *s390 = startswith(key, "processor ");
		if (s390 && add_cpu(&ci, &cap, s390)) {
			cur = NULL;
			continue;
		}
		if (streq(key, "processor")) {
			struct cpuinfo_cpu *c = add_cpu(&ci, &cap, value);
			if (c)
				cur = c;
			continue;
		}
		set_field(cur ? cur : &ci.shared, key, value);
	}
	if (ci.n == 0 && (ci.shared.bogomips >= 0 || midr_valid(&ci.shared.midr) || ci.shared.model_name ||
			  ci.shared.processor_name)) {
		ci.cpus = xmalloc(sizeof(*ci.cpus));
		ci.n = 1;
		cpu_init(&ci.cpus[0], 0);
		ci.cpus[0].bogomips = ci.shared.bogomips;
	}
	for (size_t i = 0; i < ci.n; i++)
		inherit(&ci.cpus[i], &ci.shared);
	*out = ci;
}

void cpuinfo_free(struct cpuinfo *ci)
{
	for (size_t i = 0; i < ci->n; i++)
		cpu_clear(&ci->cpus[i]);
	free(ci->cpus);
	cpu_clear(&ci->shared);
	*ci = (struct cpuinfo){0};
}

const struct cpuinfo_cpu *cpuinfo_find(const struct cpuinfo *ci, long n)
{
	for (size_t i = 0; i < ci->n; i++)
		if (ci->cpus[i].processor == n)
			return &ci->cpus[i];
	return NULL;
}

char *cpuinfo_value(const char *cpuinfo, const char *key)
{
	size_t n = strlen(key);
	for (const char *l = cpuinfo; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, n) != 0 || !strchr(" \t:", l[n]))
			continue;
		const char *colon = l + n + strspn(l + n, " \t");
		if (*colon != ':')
			continue;
		_cleanup_free_ char *v = xstrndup(colon + 1, strcspn(colon + 1, "\n"));
		return xstrdup(strstrip(v));
	}
	return NULL;
}

bool cpuinfo_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list ?: ""; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

const char *cpuinfo_arch(const char *cpuinfo)
{
	_cleanup_free_ char *vendor = cpuinfo_value(cpuinfo, "vendor_id"), *ia64 = cpuinfo_value(cpuinfo, "arch");
	_cleanup_free_ char *isa = cpuinfo_value(cpuinfo, "isa"), *ISA = cpuinfo_value(cpuinfo, "ISA");
	_cleanup_free_ char *type = cpuinfo_value(cpuinfo, "type"), *cpu = cpuinfo_value(cpuinfo, "cpu");
	_cleanup_free_ char *mips = cpuinfo_value(cpuinfo, "cpu model"), *flags = cpuinfo_value(cpuinfo, "flags");
	_cleanup_free_ char *revision = cpuinfo_value(cpuinfo, "revision");
	_cleanup_free_ char *platform = cpuinfo_value(cpuinfo, "platform");
	_cleanup_free_ char *arm = cpuinfo_value(cpuinfo, "CPU architecture");

	if (streq_ptr(vendor, "IBM/S390"))
		return "s390x"; /* 31-bit s390 kernels are gone since Linux 4.1 */
	if (streq_ptr(ia64, "IA-64"))
		return "ia64";
	if (isa && startswith(isa, "rv64"))
		return "riscv64";
	if (isa && startswith(isa, "rv32"))
		return "riscv32";
	if (ISA && strstr(ISA, "loongarch64"))
		return "loongarch64";
	if (mips)
		return isa && strstr(isa, "mips64") ? "mips64" : "mips";
	if ((type && startswith(type, "sun4")) || (cpu && strcasestr(cpu, "sparc")))
		return type && streq(type, "sun4m") ? "sparc" : "sparc64";
	if (vendor) /* x86; "lm": long mode */
		return cpuinfo_has_word(flags, "lm") ? "x86_64" : "i686";
	if (arm)
		return (arm[0] == '8' || strstr(cpuinfo, "AArch64")) && !strstr(cpuinfo, "(v7l)") ? "aarch64" : "armv7l";
	/* PowerPC: "revision : 2.1 (pvr 003f 0201)" */
	if (cpu && revision && strstr(revision, "pvr")) {
		static const char *const ppc64[] = { "POWER", "PPC970", "Cell", "PA6T", "e5500", "e6500" };
		for (size_t i = 0; i < ARRAY_SIZE(ppc64); i++)
			if (startswith(cpu, ppc64[i]))
				return "ppc64";
		return streq_ptr(platform, "pSeries") || streq_ptr(platform, "PowerNV") ? "ppc64" : "ppc";
	}
	if (cpu && startswith(cpu, "Alpha"))
		return "alpha";
	return NULL;
}

int midr_parse_register(const char *s, struct midr *out)
{
	uint64_t v;
	if (!startswith(s, "0x") || parse_u64_base(s, 16, &v) < 0)
		return -EINVAL;
	*out = (struct midr){
		.implementer = (int)((v >> 24) & 0xff),
		.variant = (int)((v >> 20) & 0xf),
		.part = (int)((v >> 4) & 0xfff),
		.revision = (int)(v & 0xf),
	};
	return 0;
}
