/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The planner on small fixture roots built here: which actions, from which
 * value to which, and what is left alone or refused. Nothing is applied. */
#include <errno.h>
#include <sys/stat.h>

#include "lib/paths.h"
#include "lib/spawn.h"
#include "lib/term.h"
#include "testlib.h"
#include "tune/plan.h"

static char *root;

static void put(const char *path, const char *content)
{
	_cleanup_free_ char *p = xasprintf("%s%s", root, path);
	_cleanup_free_ char *dir = xstrdup(p);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0), 0);
	FILE *f = fopen(p, "we");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void link_to(const char *path, const char *target)
{
	_cleanup_free_ char *p = xasprintf("%s%s", root, path);
	_cleanup_free_ char *dir = xstrdup(p);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0), 0);
	assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
	root = xstrdup("/tmp/ubtune-plan.XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown(void **state)
{
	const char *argv[] = { "rm", "-rf", root, NULL };
	char *out = NULL;
	spawn_capture(argv, &out);
	free(out);
	free(root);
	return 0;
}

/* A fresh root for each test. */
static int fresh(void **state)
{
	teardown(state);
	return setup(state);
}

struct planned {
	struct profile *p;
	struct plan plan;
	struct rootfs *rf;
	json_object *rec;
};

static void plan_for(struct planned *t, const char *profile, const char *record)
{
	_cleanup_free_ char *path = xasprintf("%s/test.profile", root);
	FILE *f = fopen(path, "we");
	fputs(profile, f);
	fclose(f);
	t->rec = json_lit(record);
	struct strv errors = {0};
	if (profile_load(path, t->rec, &t->p, &errors) < 0)
		fail_msg("profile: %s", errors.n ? errors.v[0] : "?");
	assert_int_equal(rootfs_new(root, &t->rf), 0);
	struct plan_opts o = { .svc_why = "no service manager in this test" };
	plan_build(t->p, t->rec, t->rf, &o, &t->plan);
}

static void planned_free(struct planned *t)
{
	plan_free(&t->plan);
	profile_free(t->p);
	rootfs_free(t->rf);
	json_object_put(t->rec);
}

static const struct action *find_action(const struct plan *pl, const char *what)
{
	for (size_t i = 0; i < pl->n_actions; i++)
		if (streq(pl->actions[i].what, what))
			return &pl->actions[i];
	fail_msg("no action '%s' among %zu", what, pl->n_actions);
	return NULL;
}

static void assert_action(const struct plan *pl, const char *what, const char *target, const char *from, const char *to)
{
	const struct action *a = find_action(pl, what);
	assert_string_equal(a->target, target);
	assert_string_equal(a->from, from);
	assert_string_equal(a->to, to);
}

static bool has_line(const struct strv *l, const char *part)
{
	for (size_t i = 0; i < l->n; i++)
		if (strstr(l->v[i], part))
			return true;
	return false;
}

#define assert_line(l, part) \
	do { \
		if (!has_line((l), (part))) \
			fail_msg("no line with '%s' (%zu lines, first: %s)", (part), (l)->n, (l)->n ? (l)->v[0] : ""); \
	} while (0)

#define POLICY "/sys/devices/system/cpu/cpufreq/policy0"

static void cpufreq_policy(const char *governors, const char *current)
{
	put(POLICY "/scaling_available_governors", governors);
	put(POLICY "/scaling_governor", current);
	put(POLICY "/related_cpus", "0 1\n");
	put(POLICY "/cpuinfo_min_freq", "600000\n");
	put(POLICY "/cpuinfo_max_freq", "1500000\n");
	put(POLICY "/scaling_max_freq", "1200000\n");
	put(POLICY "/scaling_min_freq", "600000\n");
}

static void cpu_knobs(void **state)
{
	cpufreq_policy("ondemand userspace powersave performance schedutil\n", "ondemand\n");
	put(POLICY "/boost", "1\n");
	struct planned t = {0};
	plan_for(&t, "[cpu]\ngovernor = turbo|schedutil|performance\nboost = off\nmin-freq = max\n", "{}");
	assert_int_equal(t.plan.errors.n, 0);
	/* the first offered of the list wins */
	assert_action(&t.plan, "policy0 (CPUs 0-1) governor", POLICY "/scaling_governor", "ondemand", "schedutil");
	/* no global switch: the per-policy one */
	assert_action(&t.plan, "policy0 boost", POLICY "/boost", "1", "0");
	/* pinned to the current maximum, which may be below the hardware's */
	assert_action(&t.plan, "policy0 (CPUs 0-1) minimum frequency", POLICY "/scaling_min_freq", "600000", "1200000");
	assert_string_equal(t.plan.actions[0].area, "cpu");
	assert_true(strstr(t.plan.actions[0].why, "[cpu] governor (test.profile:2)") != NULL);
	assert_int_equal(t.plan.n_knobs, 3);
	planned_free(&t);
}

static void cpu_refusals(void **state)
{
	cpufreq_policy("userspace powersave\n", "powersave\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	struct planned t = {0};
	plan_for(&t, "[cpu]\ngovernor = performance|schedutil\nboost = on\nmin-freq = 1800MHz\n", "{}");
	assert_line(&t.plan.errors, "policy0 (CPUs 0-1): performance|schedutil is not offered by " POLICY
				    "/scaling_available_governors (userspace powersave)");
	assert_line(&t.plan.errors, "1800MHz is outside 600000-1500000 kHz");
	/* intel_pstate's switch is inverted */
	assert_action(&t.plan, "turbo (intel_pstate no_turbo)", "/sys/devices/system/cpu/intel_pstate/no_turbo", "1", "0");
	planned_free(&t);
}

/* EPP where the policy offers it, EPB on every CPU that has it, by name or number. */
static void cpu_energy_preference(void **state)
{
	cpufreq_policy("powersave performance\n", "powersave\n");
	put(POLICY "/energy_performance_available_preferences", "default performance balance_performance balance_power power\n");
	put(POLICY "/energy_performance_preference", "balance_power\n");
	put("/sys/devices/system/cpu/cpu0/power/energy_perf_bias", "8\n");
	put("/sys/devices/system/cpu/cpu1/power/energy_perf_bias", "6\n");
	struct planned t = {0};
	plan_for(&t, "[cpu]\nepp = performance\nepb = balance-performance\n", "{}");
	assert_int_equal(t.plan.errors.n, 0);
	assert_action(&t.plan, "policy0 (CPUs 0-1) energy/performance preference", POLICY "/energy_performance_preference",
		      "balance_power", "performance");
	assert_true(find_action(&t.plan, "policy0 (CPUs 0-1) energy/performance preference")->best_effort);
	assert_action(&t.plan, "cpu0 energy/performance bias", "/sys/devices/system/cpu/cpu0/power/energy_perf_bias", "8", "4");
	assert_action(&t.plan, "cpu1 energy/performance bias", "/sys/devices/system/cpu/cpu1/power/energy_perf_bias", "6", "4");
	planned_free(&t);

	/* a preference the policy does not list is refused; a number is an EPB as it is */
	put(POLICY "/energy_performance_available_preferences", "default performance power\n");
	plan_for(&t, "[cpu]\nepp = balance_power\nepb = 15\n", "{}");
	assert_line(&t.plan.errors, "policy0 (CPUs 0-1) energy/performance preference: balance_power is not offered "
				    "(default performance power)");
	assert_action(&t.plan, "cpu1 energy/performance bias", "/sys/devices/system/cpu/cpu1/power/energy_perf_bias", "6", "15");
	planned_free(&t);
}

/* Neither exists off x86 or without a pstate driver: skipped, said. */
static void cpu_energy_absent(void **state)
{
	cpufreq_policy("performance\n", "performance\n");
	struct planned t = {0};
	plan_for(&t, "[cpu]\nepp = performance\nepb = 0\n", "{}");
	assert_int_equal(t.plan.errors.n, 0);
	assert_int_equal(t.plan.n_actions, 0);
	assert_line(&t.plan.skipped, "cpu: epp performance: no policy has an energy/performance preference");
	assert_line(&t.plan.skipped, "cpu: epb 0: no CPU has an energy/performance bias (x86 only)");
	planned_free(&t);
}

/* The memory controller's devfreq governor, first offered wins; a GPU only with devices = all. */
static void devfreq_governor(void **state)
{
	put("/sys/class/devfreq/dmc/available_governors", "dmc_ondemand userspace powersave performance simple_ondemand\n");
	put("/sys/class/devfreq/dmc/governor", "dmc_ondemand\n");
	put("/sys/class/devfreq/fb000000.gpu/available_governors", "simple_ondemand performance\n");
	put("/sys/class/devfreq/fb000000.gpu/governor", "simple_ondemand\n");
	struct planned t = {0};
	plan_for(&t, "[devfreq]\ngovernor = turbo|performance\n", "{}");
	assert_int_equal(t.plan.errors.n, 0);
	assert_int_equal(t.plan.n_actions, 1);
	assert_action(&t.plan, "dmc governor", "/sys/class/devfreq/dmc/governor", "dmc_ondemand", "performance");
	assert_string_equal(t.plan.actions[0].area, "devfreq");
	planned_free(&t);

	plan_for(&t, "[devfreq]\ngovernor = performance\ndevices = all\n", "{}");
	assert_int_equal(t.plan.n_actions, 2);
	assert_action(&t.plan, "fb000000.gpu governor", "/sys/class/devfreq/fb000000.gpu/governor", "simple_ondemand",
		      "performance");
	planned_free(&t);

	plan_for(&t, "[devfreq]\ngovernor = dmc_ondemand\ndevices = all\n", "{}");
	assert_line(&t.plan.errors, "fb000000.gpu governor: dmc_ondemand is not offered by "
				    "/sys/class/devfreq/fb000000.gpu/available_governors (simple_ondemand performance)");
	planned_free(&t);
}

static void devfreq_absent(void **state)
{
	struct planned t = {0};
	plan_for(&t, "[devfreq]\ngovernor = performance\n", "{}");
	assert_int_equal(t.plan.n_actions, 0);
	assert_line(&t.plan.skipped, "devfreq: governor performance: this machine has no devfreq devices");
	planned_free(&t);
	put("/sys/class/devfreq/fb000000.gpu/governor", "simple_ondemand\n");
	plan_for(&t, "[devfreq]\ngovernor = performance\n", "{}");
	assert_line(&t.plan.skipped, "devfreq: governor performance: no memory-controller devfreq device");
	planned_free(&t);
}

static void no_cpufreq(void **state)
{
	struct planned t = {0};
	plan_for(&t, "[cpu]\ngovernor = performance\nboost = on\n[vm]\ntransparent-hugepages = never\n"
		     "[sysctl]\nkernel.nosuch = 1\n", "{}");
	assert_int_equal(t.plan.n_actions, 0);
	assert_int_equal(t.plan.errors.n, 0);
	assert_line(&t.plan.skipped, "cpu: no cpufreq policies");
	assert_line(&t.plan.skipped, "vm: this kernel has no transparent huge pages");
	assert_line(&t.plan.skipped, "sysctl: kernel.nosuch does not exist in this kernel");
	planned_free(&t);
}

/* md0 over two disks of different kinds: each gets its own scheduler. */
static void io_stacked(void **state)
{
	put("/sys/devices/virtual/block/md0/queue/read_ahead_kb", "128\n");
	put("/sys/devices/virtual/block/md0/queue/scheduler", "none\n");
	link_to("/sys/devices/virtual/block/md0/slaves/sda1", "../../../../pci0/ata1/block/sda/sda1");
	link_to("/sys/devices/virtual/block/md0/slaves/sdb1", "../../../../pci0/ata2/block/sdb/sdb1");
	const char *disks[] = { "sda", "sdb" };
	for (size_t i = 0; i < 2; i++) {
		_cleanup_free_ char *dev = xasprintf("/sys/devices/pci0/ata%zu/block/%s", i + 1, disks[i]);
		_cleanup_free_ char *sched = xasprintf("%s/queue/scheduler", dev);
		_cleanup_free_ char *part = xasprintf("%s/%s1/partition", dev, disks[i]);
		_cleanup_free_ char *link = xasprintf("/sys/class/block/%s", disks[i]);
		_cleanup_free_ char *plink = xasprintf("/sys/class/block/%s1", disks[i]);
		_cleanup_free_ char *target = xasprintf("../..%s", dev + strlen("/sys"));
		_cleanup_free_ char *ptarget = xasprintf("../..%s/%s1", dev + strlen("/sys"), disks[i]);
		put(sched, "[mq-deadline] kyber bfq none\n");
		put(part, "1\n");
		link_to(link, target);
		link_to(plink, ptarget);
		_cleanup_free_ char *blk = xasprintf("/sys/block/%s", disks[i]);
		_cleanup_free_ char *btarget = xasprintf("..%s", dev + strlen("/sys"));
		link_to(blk, btarget);
	}
	link_to("/sys/class/block/md0", "../../devices/virtual/block/md0");
	link_to("/sys/block/md0", "../devices/virtual/block/md0");

	struct planned t = {0};
	plan_for(&t, "[io]\nscheduler = auto\nread-ahead-kb = 4096\n",
		 "{\"storage\": {\"device\": {\"name\": \"md0\", \"kind\": \"ssd\", \"recommended_scheduler\": \"none\","
		 " \"slaves\": [{\"name\": \"sda\", \"kind\": \"hdd\", \"recommended_scheduler\": \"bfq\"},"
		 " {\"name\": \"sdb\", \"kind\": \"ssd\", \"recommended_scheduler\": \"mq-deadline\"}]}}}");
	assert_int_equal(t.plan.errors.n, 0);
	assert_action(&t.plan, "sda scheduler", "/sys/block/sda/queue/scheduler", "mq-deadline", "bfq");
	assert_true(find_action(&t.plan, "sda scheduler")->choice);
	assert_true(strstr(find_action(&t.plan, "sda scheduler")->why, "recommended for hdd") != NULL);
	assert_line(&t.plan.unchanged, "sdb scheduler: mq-deadline");
	assert_action(&t.plan, "md0 read-ahead (KiB)", "/sys/block/md0/queue/read_ahead_kb", "128", "4096");
	assert_int_equal(t.plan.n_actions, 2);
	planned_free(&t);

	/* a named scheduler the disk does not offer is refused */
	plan_for(&t, "[io]\nscheduler = cfq|noop\n", "{\"storage\": {\"device\": {\"name\": \"sda1\"}}}");
	assert_line(&t.plan.errors, "io: cfq|noop is not offered by /sys/block/sda/queue/scheduler "
				    "(mq-deadline kyber bfq none)");
	planned_free(&t);

	/* an overlay (a container): the disk holding its upper directory */
	plan_for(&t, "[io]\nscheduler = kyber\n",
		 "{\"storage\": {\"device\": {\"name\": null, \"kind\": \"overlay\","
		 " \"backing\": {\"path\": \"/var/lib/docker\", \"device\": {\"name\": \"sdb\", \"kind\": \"ssd\"}}}}}");
	assert_action(&t.plan, "sdb scheduler", "/sys/block/sdb/queue/scheduler", "mq-deadline", "kyber");
	planned_free(&t);

	/* no device in the record (a tmpfs workdir, or not probed) */
	plan_for(&t, "[io]\nscheduler = auto\n", "{\"storage\": {\"workdir\": \"/dev/shm\", \"device\": {\"kind\": \"tmpfs\"}}}");
	assert_int_equal(t.plan.n_actions, 0);
	assert_line(&t.plan.skipped, "io: the block device holding /dev/shm is not known");
	planned_free(&t);
}

static void irq_affinity(void **state)
{
	put("/proc/irq/40/smp_affinity_list", "0-7\n");
	put("/proc/irq/41/smp_affinity_list", "4,5,6,7\n");
	put("/sys/devices/system/cpu/online", "0-7\n");
	const char *rec = "{\"storage\": {\"device\": {\"name\": \"nvme0n1\", \"numa_node\": 1}},"
			  " \"numa\": {\"nodes\": [{\"id\": 0, \"cpus\": \"0-3\"}, {\"id\": 1, \"cpus\": \"4-7\"}],"
			  " \"storage_irqs\": [{\"irq\": 40, \"name\": \"nvme0q0\"}, {\"irq\": 41}]}}";
	struct planned t = {0};
	plan_for(&t, "[irq]\nstorage-affinity = device-node\n", rec);
	assert_action(&t.plan, "IRQ 40 (nvme0q0) affinity", "/proc/irq/40/smp_affinity_list", "0-7", "4-7");
	/* "4,5,6,7" is the same set */
	assert_line(&t.plan.unchanged, "IRQ 41 affinity: 4-7");
	assert_int_equal(t.plan.n_actions, 1);
	planned_free(&t);

	/* each IRQ to the node of its own controller (md over disks on two controllers) */
	plan_for(&t, "[irq]\nstorage-affinity = device-node\n",
		 "{\"storage\": {\"device\": {\"name\": \"md0\", \"numa_node\": null}},"
		 " \"numa\": {\"nodes\": [{\"id\": 0, \"cpus\": \"0-3\"}, {\"id\": 1, \"cpus\": \"4-7\"}],"
		 " \"storage_irqs\": [{\"irq\": 40, \"device_node\": 0}, {\"irq\": 41, \"device_node\": 1}, {\"irq\": 42}]}}");
	assert_action(&t.plan, "IRQ 40 affinity", "/proc/irq/40/smp_affinity_list", "0-7", "0-3");
	assert_line(&t.plan.unchanged, "IRQ 41 affinity: 4-7");
	assert_line(&t.plan.skipped, "irq: IRQ 42 affinity: the NUMA node of its controller is not known");
	planned_free(&t);

	plan_for(&t, "[irq]\nstorage-affinity = 8-9\n", rec);
	assert_line(&t.plan.errors, "irq: IRQ 40 (nvme0q0) affinity: CPUs 8-9 are not all online (online: 0-7)");
	planned_free(&t);

	plan_for(&t, "[irq]\nstorage-affinity = device-node\n",
		 "{\"storage\": {\"device\": {\"numa_node\": 0}}, \"numa\": {\"nodes\": [{\"id\": 0, \"cpus\": \"0-7\"}],"
		 " \"storage_irqs\": [{\"irq\": 40}]}}");
	assert_line(&t.plan.skipped, "irq: one NUMA node only");
	planned_free(&t);
}

/* A record whose facts have the wrong type is refused as a whole, naming the key. */
static void bad_record(void **state)
{
	struct planned t = {0};
	plan_for(&t, "[irq]\nstorage-affinity = device-node\n",
		 "{\"numa\": {\"nodes\": [{\"id\": 0, \"cpus\": \"0-7\"}], \"storage_irqs\": [{\"irq\": \"40\"}]}}");
	assert_line(&t.plan.errors, "the environment record: numa.storage_irqs[0].irq is a string, expected a number");
	assert_int_equal(t.plan.errors.n, 1);
	assert_int_equal(t.plan.n_actions, 0);
	assert_int_equal(t.plan.n_knobs, 0);
	planned_free(&t);
}

static void workdir_and_record(void **state)
{
	put("/var/tmp/full/file", "x");
	struct planned t = {0};
	plan_for(&t, "[workdir]\ntype = tmpfs\npath = /var/tmp/full\n", "{}");
	assert_line(&t.plan.errors, "workdir: /var/tmp/full is not empty: a tmpfs would hide its files");
	planned_free(&t);

	plan_for(&t, "[workdir]\ntype = tmpfs\npath = /var/tmp/a/b\nsize = 1G\n[build]\ncc = clang\n"
		     "[bench]\ncopies = 1, all, 16\ntests = dhry2reg, execl\nquick = yes\npin-single = fastest\n"
		     "dma-latency = 0\n", "{}");
	assert_int_equal(t.plan.errors.n, 0);
	assert_action(&t.plan, "directory /var/tmp/a", "/var/tmp/a", "absent", "present");
	assert_action(&t.plan, "directory /var/tmp/a/b", "/var/tmp/a/b", "absent", "present");
	const struct action *m = find_action(&t.plan, "tmpfs on /var/tmp/a/b, size=1G");
	assert_int_equal(m->kind, ACT_MOUNT);
	assert_string_equal(m->options, "size=1G");
	assert_true(find_action(&t.plan, "directory /var/tmp/a")->persistent);
	json_object *r = t.plan.record;
	assert_jstr(r, "build.cc", "clang");
	assert_jstr(r, "workdir.type", "tmpfs");
	assert_string_equal(json_object_to_json_string_ext(jpath(r, "bench"), JSON_C_TO_STRING_PLAIN),
			    "{\"copies\":[1,\"all\",16],\"tests\":[\"dhry2reg\",\"execl\"],\"quick\":true,"
			    "\"pin_single\":\"fastest\",\"dma_latency_us\":0}");
	planned_free(&t);
}

static void services_without_manager(void **state)
{
	struct planned t = {0};
	plan_for(&t, "[services]\nstop = cups irqbalance\ndefault-target = multi-user.target\n", "{}");
	assert_int_equal(t.plan.n_actions, 0);
	assert_line(&t.plan.skipped, "services: not stopped (no service manager in this test): cups irqbalance");
	assert_line(&t.plan.skipped, "default target multi-user.target not set: that change survives reboots, so it "
				     "needs --persistent");
	planned_free(&t);
}

/* What plan_print() writes at width. */
static char *plan_text(const struct planned *t, size_t width)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	term_set_width((unsigned)width);
	plan_print(t->p, &t->plan, f);
	term_set_width(0);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* Many alike knobs (one per policy) are printed as one line; where the
 * width has no room for the reason beside them it goes under the row,
 * and no line passes the width. */
static void print_groups(void **state)
{
	for (int i = 0; i < 4; i++) {
		_cleanup_free_ char *d = xasprintf("/sys/devices/system/cpu/cpufreq/policy%d", i);
		_cleanup_free_ char *a = xasprintf("%s/scaling_available_governors", d);
		_cleanup_free_ char *g = xasprintf("%s/scaling_governor", d);
		_cleanup_free_ char *c = xasprintf("%s/related_cpus", d);
		_cleanup_free_ char *cpu = xasprintf("%d\n", i);
		put(a, "powersave performance\n");
		put(g, i < 3 ? "powersave\n" : "performance\n");
		put(c, cpu);
	}
	struct planned t = {0};
	plan_for(&t, "[profile]\ndescription = four policies\n[cpu]\ngovernor = performance\n", "{}");
	assert_int_equal(t.plan.n_actions, 3);
	_cleanup_free_ char *wide = plan_text(&t, 200);
	if (!strstr(wide, "area  what                                                               from          to           why\n"
			  "cpu   policy0 (CPUs 0) governor ... policy2 (CPUs 2) governor (3 alike)  powersave  -> performance  "
			  "[cpu] governor (test.profile:4)\n"))
		fail_msg("%s", wide);
	assert_non_null(strstr(wide, "Profile test (test): four policies\n"));
	assert_non_null(strstr(wide, "Already as the profile wants:\n  policy3 (CPUs 3) governor: performance\n"));
	_cleanup_free_ char *narrow = plan_text(&t, 70);
	if (!strstr(narrow, "area  what                                   from          to\n"
			    "cpu   policy0 (CPUs 0) governor ... policy2  powersave  -> performance\n"
			    "      (CPUs 2) governor (3 alike)\n"
			    "        [cpu] governor (test.profile:4)\n"))
		fail_msg("%s", narrow);
	for (const char *l = narrow; *l;) {
		size_t n = strcspn(l, "\n");
		assert_in_range(n, 0, 70);
		l += n + (l[n] == '\n');
	}
	planned_free(&t);
}

static void json_round_trip(void **state)
{
	struct action a = { .kind = ACT_FILE, .area = "io", .what = "sda scheduler", .target = "/sys/block/sda/queue/scheduler",
			    .from = "mq-deadline", .to = "bfq", .why = "[io] scheduler", .choice = true };
	_cleanup_json_ json_object *o = action_to_json(&a);
	struct action b;
	assert_int_equal(action_from_json(o, &b), 0);
	assert_int_equal(b.kind, ACT_FILE);
	assert_string_equal(b.target, a.target);
	assert_string_equal(b.from, "mq-deadline");
	assert_true(b.choice);
	assert_false(b.persistent);
	assert_null(b.options);
	action_free(&b);
	_cleanup_json_ json_object *bad = json_lit("{\"kind\": \"reboot\", \"target\": \"x\", \"from\": \"a\", \"to\": \"b\"}");
	assert_int_equal(action_from_json(bad, &b), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(cpu_knobs, fresh),
		cmocka_unit_test_setup(cpu_refusals, fresh),
		cmocka_unit_test_setup(cpu_energy_preference, fresh),
		cmocka_unit_test_setup(cpu_energy_absent, fresh),
		cmocka_unit_test_setup(devfreq_governor, fresh),
		cmocka_unit_test_setup(devfreq_absent, fresh),
		cmocka_unit_test_setup(no_cpufreq, fresh),
		cmocka_unit_test_setup(io_stacked, fresh),
		cmocka_unit_test_setup(irq_affinity, fresh),
		cmocka_unit_test_setup(workdir_and_record, fresh),
		cmocka_unit_test_setup(services_without_manager, fresh),
		cmocka_unit_test_setup(print_groups, fresh),
		cmocka_unit_test_setup(bad_record, fresh),
		cmocka_unit_test(json_round_trip),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
