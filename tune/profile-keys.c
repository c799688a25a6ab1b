/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "profile-section.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>

#include "lib/cpuset.h"
#include "lib/hw.h"
#include "lib/paths.h"
#include "unixbench/catalogue.h"

/* The key schema of a profile: the sections and keys a profile may hold and
 * the check of each value. */

/* ---- values ---------------------------------------------------------- */

int profile_parse_freq(const char *s, uint64_t *khz)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "kHz", 1 }, { "MHz", 1e3 }, { "GHz", 1e6 },
	};
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !(v > 0) || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].unit) != 0)
			continue;
		double k = v * units[i].mult;
		if (k < 1 || k > 1e9)
			return -ERANGE;
		*khz = (uint64_t)(k + 0.5);
		return 0;
	}
	return -EINVAL;
}

int profile_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" }, *const no[] = { "no", "false", "off", "0" };
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return *out = true, 0;
		if (strcasecmp(s, no[i]) == 0)
			return *out = false, 0;
	}
	return -EINVAL;
}

/* ---- checkers: NULL when the value is valid, else the reason ---------- */

typedef char *(*checker_fn)(const char *value, const char *choices);

static bool all_chars(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

/* True when value is one of the "|"-separated choices. */
static bool in_choices(const char *value, const char *choices)
{
	struct strv allowed = {0};
	if (choices)
		strv_split(choices, "|", &allowed);
	bool in = strv_contains(&allowed, value);
	strv_free(&allowed);
	return in;
}

static char *check_choices_list(const char *choices, struct strv *items)
{
	struct strv allowed = {0};
	strv_split(choices, "|", &allowed);
	char *err = NULL;
	for (size_t i = 0; i < items->n && !err; i++) {
		if (strv_contains(&allowed, items->v[i]))
			continue;
		_cleanup_free_ char *list = strv_join(&allowed, ", ");
		const char *hint = str_closest(items->v[i], (const char *const *)allowed.v);
		if (hint)
			err = xasprintf("'%s' is not one of %s (did you mean '%s'?)", items->v[i], list, hint);
		else
			err = xasprintf("'%s' is not one of %s", items->v[i], list);
	}
	strv_free(&allowed);
	return err;
}

static char *check_enum(const char *value, const char *choices)
{
	struct strv one = {0};
	strv_push(&one, value);
	char *err = check_choices_list(choices, &one);
	strv_free(&one);
	return err;
}

static char *check_text(const char *value, const char *choices)
{
	if (!*value)
		return xstrdup("needs a value");
	for (const char *s = value; *s; s++)
		if ((unsigned char)*s < 0x20 && *s != '\t')
			return xstrdup("contains a control character");
	return NULL;
}

static char *check_names(const char *value, const char *extra, const char *what, size_t max, bool allow_empty)
{
	struct strv items = {0};
	strv_split(value, " \t,", &items);
	char *err = NULL;
	if (!items.n && !allow_empty)
		err = xasprintf("needs at least one %s", what);
	for (size_t i = 0; i < items.n && !err; i++)
		if (strlen(items.v[i]) > max || !all_chars(items.v[i], extra))
			err = xasprintf("'%s' is not a valid %s", items.v[i], what);
	strv_free(&items);
	return err;
}

static char *check_include(const char *value, const char *choices)
{
	return check_names(value, "_.+-/", "profile name", 128, false);
}

static char *check_units(const char *value, const char *choices)
{
	return check_names(value, "@:._-*?[]\\", "unit name or glob", 255, true);
}

static char *check_target(const char *value, const char *choices)
{
	if (!endswith(value, ".target") || strlen(value) > 255 || !all_chars(value, "@:._-"))
		return xasprintf("'%s' is not a target unit (such as multi-user.target)", value);
	return NULL;
}

/* "a|b|c" of names made of the given characters, or one of the words that
 * must stand alone ("keep", "auto"). */
static char *check_alternatives(const char *value, const char *choices, const char *extra, const char *what)
{
	struct strv items = {0}, alone = {0};
	strv_split(value, "|", &items);
	strv_split(choices, "|", &alone);
	char *err = NULL;
	if (!items.n)
		err = xasprintf("needs at least one %s", what);
	for (size_t i = 0; i < items.n && !err; i++) {
		if (strv_contains(&alone, items.v[i])) {
			if (items.n > 1)
				err = xasprintf("'%s' cannot be combined with other values", items.v[i]);
		} else if (strlen(items.v[i]) > 15 || !all_chars(items.v[i], extra)) {
			err = xasprintf("'%s' is not a valid %s", items.v[i], what);
		}
	}
	strv_free(&items);
	strv_free(&alone);
	return err;
}

static char *check_governors(const char *value, const char *choices)
{
	char *err = check_alternatives(value, choices, "_", "governor name");
	if (!err)
		for (const char *s = value; *s; s++)
			if (isupper((unsigned char)*s))
				return xasprintf("governor names are lower case: '%s'", value);
	return err;
}

static const char *const known_schedulers = "none|mq-deadline|bfq|kyber|deadline|cfq|noop";

static char *check_scheduler(const char *value, const char *choices)
{
	char *err = check_alternatives(value, choices, "-", "scheduler");
	if (err)
		return err;
	struct strv items = {0};
	strv_split(value, "|", &items);
	_cleanup_free_ char *all = xasprintf("%s|%s", choices, known_schedulers);
	err = check_choices_list(all, &items);
	strv_free(&items);
	return err;
}

static char *check_freq(const char *value, const char *choices)
{
	if (in_choices(value, choices))
		return NULL;
	uint64_t khz;
	if (profile_parse_freq(value, &khz) == 0)
		return NULL;
	return xasprintf("'%s' is neither %s nor a frequency with its unit (1800MHz, 2.2GHz)",
			 value, choices);
}

static char *check_uint_or(const char *value, const char *choices, uint64_t max)
{
	uint64_t v;
	if (parse_u64(value, &v) == 0)
		return v <= max ? NULL : xasprintf("%s is larger than %" PRIu64, value, max);
	if (streq(value, choices))
		return NULL;
	return xasprintf("'%s' is neither a number nor '%s'", value, choices);
}

static char *check_readahead(const char *value, const char *choices)
{
	return check_uint_or(value, choices, 1u << 20);
}

static char *check_path(const char *value, const char *choices)
{
	/* the kernel's, and the system's own files: a benchmark's files there,
	 * or a tmpfs over them, would break the machine */
	static const char *const forbidden[] = { "/proc", "/sys", "/dev", "/run", "/etc", "/usr", "/bin", "/sbin",
						 "/lib", "/lib32", "/lib64", "/libx32", "/boot" };
	if (value[0] != '/')
		return xasprintf("'%s' is not an absolute path", value);
	if (strlen(value) > 200 || !all_chars(value, "/_.+-@"))
		return xasprintf("'%s' is not a usable path (letters, digits and /_.+-@ only)", value);
	if (strstr(value, "/../") || endswith(value, "/..") || strstr(value, "/./") || endswith(value, "/.") ||
	    strstr(value, "//") || streq(value, "/"))
		return xasprintf("'%s' must name a directory below / without '.', '..' or '//'", value);
	for (size_t i = 0; i < ARRAY_SIZE(forbidden); i++) {
		const char *rest = startswith(value, forbidden[i]);
		if (rest && (!*rest || *rest == '/'))
			return xasprintf("'%s' is inside %s, which is no place for a benchmark directory", value, forbidden[i]);
	}
	return NULL;
}

static char *check_size(const char *value, const char *choices)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(value, &end, 10);
	if (errno || end == value || !isdigit((unsigned char)value[0]) || v == 0)
		return xasprintf("'%s' is not a size such as 2G, 512M or 50%%", value);
	if (streq(end, "%"))
		return v <= 100 ? NULL : xasprintf("'%s' is more than 100%%", value);
	if (!*end || (strchr("kKmMgG", end[0]) && !end[1]))
		return NULL;
	return xasprintf("'%s' is not a size such as 2G, 512M or 50%%", value);
}

static char *check_cc(const char *value, const char *choices)
{
	if (!*value || strlen(value) > 64 || !all_chars(value, "_./+-"))
		return xasprintf("'%s' is not a compiler command (one word such as gcc or clang-16)", value);
	return NULL;
}

static char *check_cflags(const char *value, const char *choices)
{
	struct strv items = {0};
	strv_split(value, " \t", &items);
	char *err = NULL;
	for (size_t i = 0; i < items.n && !err; i++)
		if (items.v[i][0] != '-' || !all_chars(items.v[i], "_=,.+:/-"))
			err = xasprintf("'%s' is not a compiler option (options start with '-' and use no shell characters)",
					items.v[i]);
	strv_free(&items);
	return err;
}

/* The [bench] lists are checked as `ubtune bench` checks them; `all` stays
 * `all` until the run. */
static char *check_copies(const char *value, const char *choices)
{
	unsigned copies[UB_RUNS_MAX], n;
	_cleanup_free_ char *bad = NULL;
	switch (ub_parse_copies(value, " \t,", 1, copies, &n, &bad)) {
	case 0:
		return NULL;
	case -E2BIG:
		return xasprintf("names more than %d copy counts", UB_RUNS_MAX);
	default:
		if (!bad)
			return xstrdup("needs at least one number of copies or 'all'");
		return xasprintf("'%s' is neither a number of copies (1-%d) nor 'all'", bad, UB_COPIES_MAX);
	}
}

static char *check_tests(const char *value, const char *choices)
{
	unsigned tests[UB_NINDEX], n;
	_cleanup_free_ char *bad = NULL;
	if (ub_parse_tests(value, " \t,", tests, &n, &bad) == 0)
		return NULL;
	_cleanup_strv_ struct strv words = {0};
	strv_split(value, " \t,", &words);
	if (!words.n)
		return xstrdup("needs at least one test name");
	const char *known[UB_NINDEX + 2] = { "index" };
	for (size_t i = 0; i < UB_NINDEX; i++)
		known[i + 1] = ub_tests[i].id;
	const char *hint = str_closest(bad, known);
	_cleanup_free_ char *ids = ub_index_ids(", ");
	return xasprintf("'%s' is not a test `ubtune bench` runs (index, or some of %s)%s%s%s", bad, ids,
			 hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
}

static char *check_epb(const char *value, const char *choices)
{
	uint64_t v;
	if (in_choices(value, choices) || hw_epb_parse(value) >= 0 || (parse_u64(value, &v) == 0 && v <= 15))
		return NULL;
	return xasprintf("'%s' is neither %s, a number 0-15 nor performance, balance-performance, normal, "
			 "balance-power or power", value, choices);
}

static char *check_dma_latency(const char *value, const char *choices)
{
	return check_uint_or(value, choices, 2000000000);
}

static char *check_bool(const char *value, const char *choices)
{
	bool b;
	return profile_parse_bool(value, &b) == 0 ? NULL
						  : xasprintf("'%s' is not yes or no (true/false, on/off, 1/0)", value);
}

static char *check_affinity(const char *value, const char *choices)
{
	if (in_choices(value, choices))
		return NULL;
	struct cpuset c = {0};
	int r = cpuset_parse_list(value, &c);
	size_t n = cpuset_count(&c);
	cpuset_free(&c);
	if (r == 0 && n > 0)
		return NULL;
	return xasprintf("'%s' is neither %s nor a CPU list such as 0-3,8", value, choices);
}

static char *check_match(const char *value, const char *choices)
{
	struct strv items = {0};
	strv_split(value, "|", &items);
	char *err = items.n ? NULL : xstrdup("needs at least one pattern");
	for (size_t i = 0; i < items.n && !err; i++)
		if (strlen(items.v[i]) > 64)
			err = xasprintf("pattern '%.20s...' is longer than 64 characters", items.v[i]);
	strv_free(&items);
	return err ? err : check_text(value, NULL);
}

static char *check_sysctl_value(const char *value, const char *choices)
{
	if (strlen(value) > 128)
		return xstrdup("is longer than 128 characters");
	return check_text(value, NULL);
}

/* Sysctls whose value names a program the kernel runs as root: a profile
 * must not make the kernel run something (a core_pattern may still name a
 * file). NULL when the setting is not one of them. */
static char *check_sysctl_program(const char *name, const char *value)
{
	static const char *const programs[] = { "kernel.modprobe", "kernel.hotplug", "kernel.poweroff_cmd" };
	_cleanup_free_ char *dotted = xstrdup(name);
	for (char *c = dotted; *c; c++)
		if (*c == '/')
			*c = '.';
	for (size_t i = 0; i < ARRAY_SIZE(programs); i++)
		if (streq(dotted, programs[i]))
			return xasprintf("%s names a program the kernel runs as root: not set by a profile", programs[i]);
	if (streq(dotted, "kernel.core_pattern") && value[strspn(value, " \t")] == '|')
		return xstrdup("a core_pattern starting with '|' makes the kernel run a program as root on every crash: "
			       "not set by a profile");
	return NULL;
}

/* A sysctl name: "kernel.randomize_va_space" or "kernel/randomize_va_space". */
static char *check_sysctl_name(const char *name)
{
	if (strlen(name) > 128 || !all_chars(name, "_.-/") || name[0] == '.' || name[0] == '/' ||
	    strstr(name, "..") || strstr(name, "//") || strstr(name, "/.") || strstr(name, "./") ||
	    endswith(name, ".") || endswith(name, "/") || (!strchr(name, '.') && !strchr(name, '/')))
		return xasprintf("'%s' is not a sysctl name such as kernel.randomize_va_space", name);
	return NULL;
}

/* ---- the sections and keys a profile may hold ------------------------- */

struct key_spec {
	const char *section;
	const char *key;
	checker_fn check;
	const char *choices; /* allowed words, "|"-separated */
};

static const struct key_spec keys[] = {
	{ "profile", "description", check_text, NULL },
	{ "profile", "include", check_include, NULL },
	{ "services", "stop", check_units, NULL },
	{ "services", "stop-also", check_units, NULL },
	{ "services", "default-target", check_target, NULL },
	{ "cpu", "governor", check_governors, "keep" },
	{ "cpu", "boost", check_enum, "on|off|keep" },
	{ "cpu", "min-freq", check_freq, "max|keep" },
	{ "cpu", "epp", check_enum, "performance|balance_performance|default|balance_power|power|keep" },
	{ "cpu", "epb", check_epb, "keep" },
	{ "devfreq", "governor", check_governors, "keep" },
	{ "devfreq", "devices", check_enum, "memory|all" },
	{ "io", "scheduler", check_scheduler, "auto|keep" },
	{ "io", "read-ahead-kb", check_readahead, "keep" },
	{ "workdir", "type", check_enum, "tmpfs|dir" },
	{ "workdir", "path", check_path, NULL },
	{ "workdir", "size", check_size, NULL },
	{ "build", "cc", check_cc, NULL },
	{ "build", "cflags", check_cflags, NULL },
	{ "bench", "copies", check_copies, NULL },
	{ "bench", "tests", check_tests, NULL },
	{ "bench", "quick", check_bool, NULL },
	{ "bench", "pin-single", check_enum, "fastest|off" },
	{ "bench", "dma-latency", check_dma_latency, "off" },
	{ "vm", "transparent-hugepages", check_enum, "always|madvise|never|keep" },
	{ "irq", "storage-affinity", check_affinity, "device-node|keep" },
	/* [sysctl] keys are sysctl names, checked by check_sysctl_name */
	{ "sysctl", NULL, check_sysctl_value, NULL },
};

static const char *const section_types[] = {
	"profile", "services", "cpu", "devfreq", "io", "workdir", "build", "bench", "sysctl", "vm", "irq", NULL,
};

/* Conditions a section (not [profile]) may carry; see section_matches() in
 * profile-match.c. */
static const char *const match_keys[] = { "match-arch", "match-cpu", "match-virt", NULL };

/* "unknown key", with the closest key of the section when one is close. */
static char *unknown_key(const char *type, const char *key)
{
	const char *known[ARRAY_SIZE(keys) + ARRAY_SIZE(match_keys)];
	size_t n = 0;
	for (size_t j = 0; j < ARRAY_SIZE(keys); j++)
		if (streq(keys[j].section, type))
			known[n++] = keys[j].key;
	for (size_t j = 0; match_keys[j] && !streq(type, "profile"); j++)
		known[n++] = match_keys[j];
	known[n] = NULL;
	const char *hint = str_closest(key, known);
	if (hint)
		return xasprintf("unknown key (did you mean '%s'?)", hint);
	return xstrdup("unknown key");
}

static const struct key_spec *key_lookup(const char *section, const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (streq(keys[i].section, section) && (!keys[i].key || streq(keys[i].key, key)))
			return &keys[i];
	return NULL;
}

bool profile_is_match_key(const char *key)
{
	for (size_t i = 0; match_keys[i]; i++)
		if (streq(match_keys[i], key))
			return true;
	return false;
}

char *profile_check_section_name(const char *name, char **type)
{
	_cleanup_free_ char *t = xstrdup(name);
	char *dot = strchr(t, '.');
	if (dot)
		*dot = '\0';
	bool known = false;
	for (size_t i = 0; section_types[i]; i++)
		known |= streq(section_types[i], t);
	if (!known) {
		const char *hint = str_closest(t, section_types);
		if (hint)
			return xasprintf("unknown section (did you mean [%s]?)", hint);
		return xstrdup("unknown section");
	}
	if (dot && (streq(t, "profile") || !dot[1] || strlen(dot + 1) > 32 || !all_chars(dot + 1, "_-")))
		return xstrdup(streq(t, "profile") ? "[profile] cannot be qualified"
						   : "a qualifier after '.' is 1-32 letters, digits, '_' or '-'");
	*type = TAKE_PTR(t);
	return NULL;
}

char *profile_check_key(const char *type, const char *key, const char *value)
{
	if (profile_is_match_key(key) && !streq(type, "profile"))
		return check_match(value, NULL);
	if (streq(type, "sysctl")) {
		char *err = check_sysctl_name(key);
		if (!err)
			err = check_sysctl_value(value, NULL);
		if (!err)
			err = check_sysctl_program(key, value);
		return err;
	}
	const struct key_spec *k = key_lookup(type, key);
	if (!k)
		return unknown_key(type, key);
	return k->check(value, k->choices);
}
