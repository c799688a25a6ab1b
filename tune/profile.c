/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "profile.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <ini.h>
#include <limits.h>
#include <sys/stat.h>

#include "lib/cpuset.h"
#include "lib/paths.h"
#include "unixbench/catalogue.h"

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
	{ "vm", "transparent-hugepages", check_enum, "always|madvise|never|keep" },
	{ "irq", "storage-affinity", check_affinity, "device-node|keep" },
	/* [sysctl] keys are sysctl names, checked by check_sysctl_name */
	{ "sysctl", NULL, check_sysctl_value, NULL },
};

static const char *const section_types[] = {
	"profile", "services", "cpu", "io", "workdir", "build", "bench", "sysctl", "vm", "irq", NULL,
};

/* Conditions a section (not [profile]) may carry; see section_matches(). */
static const char *const match_keys[] = { "match-arch", "match-cpu", "match-virt", NULL };

static const struct key_spec *key_lookup(const char *section, const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (streq(keys[i].section, section) && (!keys[i].key || streq(keys[i].key, key)))
			return &keys[i];
	return NULL;
}

static bool is_match_key(const char *key)
{
	for (size_t i = 0; match_keys[i]; i++)
		if (streq(match_keys[i], key))
			return true;
	return false;
}

/* ---- parsing one file ------------------------------------------------- */

struct entry {
	char *key, *value;
	unsigned line;
};

struct section {
	char *type; /* NULL when the header was invalid: its keys are not checked */
	char *name; /* as written: "cpu.a72" */
	const char *file;
	unsigned line;
	struct entry *e;
	size_t n;
};

struct loader {
	json_object *rec;
	struct strv *errors;
	struct strv stack;  /* real paths being read, for cycles */
	struct strv files;  /* every path read (owns the strings sections point to) */
	struct strv chain;
	struct section **flat; /* in the order they apply */
	size_t n_flat;
	char *description;
	int depth;
};

struct parse {
	struct loader *l;
	const char *path;
	const char *text;
	size_t len, pos;
	unsigned lineno;
	bool cont;   /* the line being parsed is indented: a continuation */
	struct section **secs;
	size_t n;
	struct entry *last; /* entry a continuation line extends */
};

static void add_error(struct loader *l, const char *file, unsigned line, const char *fmt, ...) _printf_(4, 5);
static void add_error(struct loader *l, const char *file, unsigned line, const char *fmt, ...)
{
	if (l->errors->n >= PROFILE_ERRORS_MAX)
		return;
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (line)
		strv_take(l->errors, xasprintf("%s:%u: %s", file, line, msg));
	else
		strv_take(l->errors, xasprintf("%s: %s", file, msg));
}

static bool has_error_at(struct loader *l, const char *file, unsigned line)
{
	_cleanup_free_ char *prefix = xasprintf("%s:%u: ", file, line);
	for (size_t i = 0; i < l->errors->n; i++)
		if (startswith(l->errors->v[i], prefix))
			return true;
	return false;
}

static unsigned error_line(const char *msg, size_t skip)
{
	return (unsigned)strtoul(msg + skip, NULL, 10);
}

/* Errors of one file in line order (headers are checked as they are read,
 * keys after the whole file). */
static void sort_errors(struct loader *l, size_t from, const char *path)
{
	size_t skip = strlen(path) + 1;
	char **v = l->errors->v;
	for (size_t i = from + 1; i < l->errors->n; i++)
		for (size_t k = i; k > from && startswith(v[k], path) && startswith(v[k - 1], path) &&
				   error_line(v[k], skip) < error_line(v[k - 1], skip); k--) {
			char *t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
}

static void section_free(struct section *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->e[i].key);
		free(s->e[i].value);
	}
	free(s->e);
	free(s->type);
	free(s->name);
	free(s);
}

/* A "[name]" line: checks the name and opens a section for the keys below. */
static void start_section(struct parse *ps, const char *line)
{
	struct section *s = xcalloc(1, sizeof(*s));
	s->file = ps->path;
	s->line = ps->lineno;
	ps->secs = xrealloc(ps->secs, (ps->n + 1) * sizeof(*ps->secs));
	ps->secs[ps->n++] = s;
	ps->last = NULL;

	const char *close = strchr(line, ']');
	if (!close) {
		add_error(ps->l, ps->path, ps->lineno, "section header without ']'");
		return;
	}
	s->name = strstrip(xstrndup(line + 1, (size_t)(close - line - 1)));
	_cleanup_free_ char *type = xstrdup(s->name);
	char *dot = strchr(type, '.');
	if (dot)
		*dot = '\0';
	bool known = false;
	for (size_t i = 0; section_types[i]; i++)
		known |= streq(section_types[i], type);
	if (!known) {
		const char *hint = str_closest(type, section_types);
		if (hint)
			add_error(ps->l, ps->path, ps->lineno, "[%s]: unknown section (did you mean [%s]?)", s->name, hint);
		else
			add_error(ps->l, ps->path, ps->lineno, "[%s]: unknown section", s->name);
		return;
	}
	if (dot && (streq(type, "profile") || !dot[1] || strlen(dot + 1) > 32 || !all_chars(dot + 1, "_-"))) {
		add_error(ps->l, ps->path, ps->lineno, "[%s]: %s", s->name,
			  streq(type, "profile") ? "[profile] cannot be qualified"
						 : "a qualifier after '.' is 1-32 letters, digits, '_' or '-'");
		return;
	}
	s->type = TAKE_PTR(type);
}

/* Feeds inih one line at a time, so that we know the line number, spot
 * section headers (even repeated ones) and enforce the line length. */
static char *reader(char *str, int num, void *stream)
{
	struct parse *ps = stream;
	if (ps->pos >= ps->len)
		return NULL;
	const char *start = ps->text + ps->pos;
	const char *nl = memchr(start, '\n', ps->len - ps->pos);
	size_t n = nl ? (size_t)(nl - start) : ps->len - ps->pos;
	ps->pos += n + (nl ? 1 : 0);
	ps->lineno++;
	if (n && start[n - 1] == '\r')
		n--;
	if (n > PROFILE_LINE_MAX || (int)n + 3 > num) {
		add_error(ps->l, ps->path, ps->lineno, "line longer than %d characters (continue a long value on "
			  "indented lines)", PROFILE_LINE_MAX);
		n = 0;
	}
	memcpy(str, start, n);
	str[n] = '\n';
	str[n + 1] = '\0';

	ps->cont = n && (start[0] == ' ' || start[0] == '\t');
	const char *t = start;
	while (t < start + n && (*t == ' ' || *t == '\t'))
		t++;
	if (t < start + n && *t == '[' && !ps->cont)
		start_section(ps, str + (t - start));
	else if (t < start + n && !strchr("#;", *t) && !ps->cont && !memchr(t, '=', n - (size_t)(t - start)) &&
		 !memchr(t, ':', n - (size_t)(t - start)))
		add_error(ps->l, ps->path, ps->lineno, "not a 'key = value' line, a [section] header or a comment");
	return str;
}

static int handler(void *user, const char *section_name, const char *key, const char *value)
{
	struct parse *ps = user;
	struct section *s = ps->n ? ps->secs[ps->n - 1] : NULL;

	if (!s) {
		add_error(ps->l, ps->path, ps->lineno, "%s: key outside of any section", key);
		return 1;
	}
	if (ps->cont) {
		/* an indented line continues the value above it */
		if (ps->last) {
			char *joined = xasprintf("%s %s", ps->last->value, value);
			free(ps->last->value);
			ps->last->value = joined;
			if (strlen(joined) > 4 * PROFILE_LINE_MAX) {
				add_error(ps->l, ps->path, ps->lineno, "[%s] %s: value longer than %d characters",
					  s->name, key, 4 * PROFILE_LINE_MAX);
				ps->last = NULL;
			}
		}
		return 1;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (streq(s->e[i].key, key)) {
			add_error(ps->l, ps->path, ps->lineno, "[%s] %s: set twice in this section (first on line %u)",
				  s->name ? s->name : section_name, key, s->e[i].line);
			ps->last = NULL;
			return 1;
		}
	}
	s->e = xrealloc(s->e, (s->n + 1) * sizeof(*s->e));
	s->e[s->n] = (struct entry){ xstrdup(key), xstrdup(value), ps->lineno };
	ps->last = &s->e[s->n++];
	return 1;
}

/* Checks every key of a section against the table. */
static void check_section(struct loader *l, struct section *s)
{
	if (!s->type)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct entry *e = &s->e[i];
		_cleanup_free_ char *err = NULL;
		if (is_match_key(e->key) && !streq(s->type, "profile")) {
			err = check_match(e->value, NULL);
		} else if (streq(s->type, "sysctl")) {
			err = check_sysctl_name(e->key);
			if (!err)
				err = check_sysctl_value(e->value, NULL);
			if (!err)
				err = check_sysctl_program(e->key, e->value);
		} else {
			const struct key_spec *k = key_lookup(s->type, e->key);
			if (!k) {
				const char *known[ARRAY_SIZE(keys) + ARRAY_SIZE(match_keys)];
				size_t n = 0;
				for (size_t j = 0; j < ARRAY_SIZE(keys); j++)
					if (streq(keys[j].section, s->type))
						known[n++] = keys[j].key;
				for (size_t j = 0; match_keys[j] && !streq(s->type, "profile"); j++)
					known[n++] = match_keys[j];
				known[n] = NULL;
				const char *hint = str_closest(e->key, known);
				if (hint)
					err = xasprintf("unknown key (did you mean '%s'?)", hint);
				else
					err = xstrdup("unknown key");
			} else {
				err = k->check(e->value, k->choices);
			}
		}
		if (err)
			add_error(l, s->file, e->line, "[%s] %s: %s", s->name, e->key, err);
	}
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* An include name: a path when it has a '/', else NAME.profile (or NAME)
 * next to the including file, then among the shipped profiles. */
static char *resolve_include(const char *from, const char *name)
{
	_cleanup_free_ char *dir = dir_of(from);
	if (strchr(name, '/'))
		return name[0] == '/' ? xstrdup(name) : xasprintf("%s/%s", dir, name);
	_cleanup_free_ char *shipped = data_path("profiles");
	const char *dirs[] = { dir, shipped };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *p = xasprintf("%s/%s.profile", dirs[i], name);
		if (data_exists(p))
			return p;
		free(p);
		p = xasprintf("%s/%s", dirs[i], name);
		if (data_exists(p))
			return p;
		free(p);
	}
	return NULL;
}

static char *profile_name_of(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (endswith(base, ".profile"))
		n -= strlen(".profile");
	return xstrndup(base, n);
}

static int load_file(struct loader *l, const char *path, const char *from, unsigned from_line);

/* The [profile] include= keys of a file, loaded before its own sections. */
static int load_includes(struct loader *l, struct parse *ps)
{
	int r = 0;
	for (size_t i = 0; i < ps->n; i++) {
		struct section *s = ps->secs[i];
		if (!s->type || !streq(s->type, "profile"))
			continue;
		for (size_t j = 0; j < s->n; j++) {
			if (!streq(s->e[j].key, "include"))
				continue;
			struct strv names = {0};
			strv_split(s->e[j].value, " \t,", &names);
			for (size_t k = 0; k < names.n; k++) {
				_cleanup_free_ char *p = resolve_include(ps->path, names.v[k]);
				if (!p) {
					add_error(l, ps->path, s->e[j].line,
						  "[profile] include: no profile '%s' next to this file or among the shipped profiles",
						  names.v[k]);
					r = -EINVAL;
					continue;
				}
				int q = load_file(l, p, ps->path, s->e[j].line);
				if (q < 0)
					r = q;
			}
			strv_free(&names);
		}
	}
	return r;
}

static int load_file(struct loader *l, const char *path, const char *from, unsigned from_line)
{
	_cleanup_free_ char *real = data_realpath(path);
	if (!real) {
		int r = -errno;
		if (from)
			add_error(l, from, from_line, "[profile] include: %s: %s", path, strerror(-r));
		else
			add_error(l, path, 0, "%s", strerror(-r));
		return r;
	}
	if (strv_contains(&l->stack, real)) {
		struct buf b = {0};
		for (size_t i = 0; i < l->stack.n; i++) {
			_cleanup_free_ char *n = profile_name_of(l->stack.v[i]);
			buf_printf(&b, "%s -> ", n);
		}
		_cleanup_free_ char *n = profile_name_of(real);
		buf_puts(&b, n);
		_cleanup_free_ char *cycle = buf_steal(&b);
		add_error(l, from, from_line, "[profile] include: includes itself (%s)", cycle);
		return -EINVAL;
	}
	if (l->depth >= PROFILE_INCLUDE_DEPTH) {
		add_error(l, from, from_line, "[profile] include: more than %d levels of includes",
			  PROFILE_INCLUDE_DEPTH);
		return -EINVAL;
	}

	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = data_read(path, PROFILE_FILE_MAX, &text, &len);
	if (r < 0) {
		const char *why = r == -EFBIG ? "larger than 64 KiB, not a profile"
				  : r == -EINVAL ? "not a regular file" : strerror(-r);
		if (from)
			add_error(l, from, from_line, "[profile] include: %s: %s", path, why);
		else
			add_error(l, path, 0, "%s", why);
		return r;
	}
	if (memchr(text, '\0', len)) {
		add_error(l, path, 0, "contains NUL bytes, not a profile");
		return -EINVAL;
	}

	strv_push(&l->files, path);
	struct parse ps = { .l = l, .path = l->files.v[l->files.n - 1], .text = text, .len = len };
	size_t errors_before = l->errors->n;
	int line = ini_parse_stream(reader, &ps, handler, &ps);
	if (line > 0 && !has_error_at(l, ps.path, (unsigned)line))
		add_error(l, ps.path, (unsigned)line, "not a 'key = value' line, a [section] header or a comment");
	for (size_t i = 0; i < ps.n; i++)
		check_section(l, ps.secs[i]);
	sort_errors(l, errors_before, ps.path);

	strv_push(&l->stack, real);
	l->depth++;
	r = load_includes(l, &ps);
	l->depth--;
	free(l->stack.v[--l->stack.n]);
	l->stack.v[l->stack.n] = NULL;

	for (size_t i = 0; i < ps.n; i++) {
		struct section *s = ps.secs[i];
		if (s->type && streq(s->type, "profile"))
			for (size_t j = 0; j < s->n; j++)
				if (streq(s->e[j].key, "description") && !from) {
					free(l->description);
					l->description = xstrdup(s->e[j].value);
				}
		l->flat = xrealloc(l->flat, (l->n_flat + 1) * sizeof(*l->flat));
		l->flat[l->n_flat++] = s;
	}
	free(ps.secs);

	_cleanup_free_ char *name = profile_name_of(path);
	if (!strv_contains(&l->chain, name))
		strv_push(&l->chain, name);
	if (r == 0 && l->errors->n > errors_before)
		r = -EINVAL;
	return r;
}

/* ---- conditions and resolution --------------------------------------- */

static const char *canonical_arch(const char *a)
{
	if (strcasecmp(a, "arm64") == 0)
		return "aarch64";
	if (strcasecmp(a, "amd64") == 0)
		return "x86_64";
	return a;
}

/* True when one of the "|" patterns matches one of the facts. */
static bool patterns_match(const char *patterns, const char *const *facts, bool arch)
{
	struct strv items = {0};
	strv_split(patterns, "|", &items);
	bool hit = false;
	for (size_t i = 0; i < items.n && !hit; i++)
		for (size_t j = 0; facts[j] && !hit; j++) {
			const char *p = arch ? canonical_arch(items.v[i]) : items.v[i];
			const char *f = arch ? canonical_arch(facts[j]) : facts[j];
			hit = fnmatch(p, f, FNM_CASEFOLD) == 0;
		}
	strv_free(&items);
	return hit;
}

/*
 * A section applies when each of its match-* keys matches the record:
 * match-arch against cpu.arch (host.arch when absent), match-cpu against
 * cpu.model, match-virt against virt.role or virt.hypervisor. A fact the
 * record lacks matches nothing. *why says what decided.
 */
static bool section_matches(const struct section *s, json_object *rec, char **why)
{
	bool any = false;
	for (size_t i = 0; i < s->n; i++) {
		const struct entry *e = &s->e[i];
		const char *facts[3] = { NULL, NULL, NULL };
		const char *what;
		if (streq(e->key, "match-arch")) {
			what = "cpu.arch";
			facts[0] = jpath_str(rec, "cpu.arch") ?: jpath_str(rec, "host.arch");
		} else if (streq(e->key, "match-cpu")) {
			what = "cpu.model";
			facts[0] = jpath_str(rec, "cpu.model");
		} else if (streq(e->key, "match-virt")) {
			what = "virt.role/virt.hypervisor";
			facts[0] = jpath_str(rec, "virt.role");
			facts[facts[0] ? 1 : 0] = jpath_str(rec, "virt.hypervisor");
		} else {
			continue;
		}
		any = true;
		if (!facts[0]) {
			*why = xasprintf("%s is not known on this machine", what);
			return false;
		}
		if (!patterns_match(e->value, facts, streq(e->key, "match-arch"))) {
			*why = xasprintf("%s '%s'%s%s does not match '%s'", what, facts[0], facts[1] ? "/" : "",
					 facts[1] ? facts[1] : "", e->value);
			return false;
		}
	}
	*why = any ? xstrdup("the machine matches") : NULL;
	return true;
}

static bool is_conditional(const struct section *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (is_match_key(s->e[i].key))
			return true;
	return false;
}

static void set_value(struct profile *p, const struct section *s, const struct entry *e)
{
	for (size_t i = 0; i < p->n_settings; i++) {
		struct profile_setting *o = &p->settings[i];
		if (streq(o->section, s->type) && streq(o->key, e->key)) {
			free(o->value);
			o->value = xstrdup(e->value);
			free(o->file);
			o->file = xstrdup(s->file);
			o->line = e->line;
			return;
		}
	}
	p->settings = xrealloc(p->settings, (p->n_settings + 1) * sizeof(*p->settings));
	p->settings[p->n_settings++] = (struct profile_setting){
		xstrdup(s->type), xstrdup(e->key), xstrdup(e->value), xstrdup(s->file), e->line,
	};
}

static void resolve(struct loader *l, struct profile *p)
{
	for (size_t i = 0; i < l->n_flat; i++) {
		const struct section *s = l->flat[i];
		if (!s->type || streq(s->type, "profile"))
			continue;
		if (is_conditional(s)) {
			_cleanup_free_ char *why = NULL;
			bool ok = l->rec && section_matches(s, l->rec, &why);
			strv_take(&p->notes, xasprintf("%s:%u [%s] %s: %s", s->file, s->line, s->name,
						       ok ? "applies" : "skipped",
						       l->rec ? why : "no machine to match (checked only)"));
			if (!ok)
				continue;
		}
		for (size_t j = 0; j < s->n; j++)
			if (!is_match_key(s->e[j].key))
				set_value(p, s, &s->e[j]);
	}
}

int profile_load(const char *path, json_object *rec, struct profile **out, struct strv *errors)
{
	struct loader l = { .rec = rec, .errors = errors };
	int r = load_file(&l, path, NULL, 0);
	if (r == 0 && errors->n)
		r = -EINVAL;
	if (r == 0) {
		struct profile *p = xcalloc(1, sizeof(*p));
		p->path = xstrdup(path);
		p->name = profile_name_of(path);
		p->description = TAKE_PTR(l.description);
		p->chain = l.chain;
		l.chain = (struct strv){0};
		resolve(&l, p);
		*out = p;
	}
	for (size_t i = 0; i < l.n_flat; i++)
		section_free(l.flat[i]);
	free(l.flat);
	free(l.description);
	strv_free(&l.stack);
	strv_free(&l.files);
	strv_free(&l.chain);
	return r;
}

void profile_free(struct profile *p)
{
	for (size_t i = 0; i < p->n_settings; i++) {
		free(p->settings[i].section);
		free(p->settings[i].key);
		free(p->settings[i].value);
		free(p->settings[i].file);
	}
	free(p->settings);
	strv_free(&p->chain);
	strv_free(&p->notes);
	free(p->name);
	free(p->path);
	free(p->description);
	free(p);
}

const struct profile_setting *profile_get(const struct profile *p, const char *section, const char *key)
{
	for (size_t i = 0; i < p->n_settings; i++)
		if (streq(p->settings[i].section, section) && streq(p->settings[i].key, key))
			return &p->settings[i];
	return NULL;
}

char *profile_origin(const struct profile_setting *s)
{
	const char *base = strrchr(s->file, '/');
	return xasprintf("[%s] %s (%s:%u)", s->section, s->key, base ? base + 1 : s->file, s->line);
}

char *profile_find(const char *name)
{
	struct stat st;
	if (strchr(name, '/') || (stat(name, &st) == 0 && S_ISREG(st.st_mode)))
		return xstrdup(name);
	_cleanup_free_ char *dir = data_path("profiles");
	char *p = xasprintf("%s/%s%s", dir, name, endswith(name, ".profile") ? "" : ".profile");
	return p;
}
