/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "initscripts.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <sys/stat.h>

/* Larger scripts are listed but not read: no init script is this long. */
#define SCRIPT_MAX (256u << 10)
#define VARS_MAX 64
#define VALUE_MAX 256
#define COMM_LEN 15

/* ---- names ---------------------------------------------------------------- */

char *initscript_name(const char *entry)
{
	static const char *const not_services[] = { "rc", "rcS", "rcK", "rc.local", "README", "skeleton", "functions" };
	static const char *const backups[] = { "~", ".orig", ".bak", ".old", ".new", ".rej", ".sample" };
	if (entry[0] == '.' || strstr(entry, ".dpkg-"))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(backups); i++)
		if (endswith(entry, backups[i]))
			return NULL;
	/* busybox's rcK runs the S scripts with stop; K scripts live in rcN.d */
	if (entry[0] == 'K' && isdigit((unsigned char)entry[1]) && isdigit((unsigned char)entry[2]))
		return NULL;
	const char *name = entry;
	if (entry[0] == 'S' && isdigit((unsigned char)entry[1]) && isdigit((unsigned char)entry[2]) && entry[3])
		name = entry + 3;
	for (size_t i = 0; i < ARRAY_SIZE(not_services); i++)
		if (streq(name, not_services[i]))
			return NULL;
	return xstrdup(name);
}

bool initscript_is_boot(const char *name)
{
	static const char *const boot[] = {
		"halt", "reboot", "single", "sendsigs", "killprocs", "umount*", "mount*", "localmount", "netmount",
		"root", "fsck", "check*", "proc*", "sysfs", "devfs", "mdev", "udev*", "modules*", "hostname",
		"bootmisc*", "hwclock*", "sysctl", "network*", "net.*", "loopback", "savecache", "swap*",
		"urandom", "seedrng", "cgroups", "*watchdog*",
	};
	for (size_t i = 0; i < ARRAY_SIZE(boot); i++)
		if (fnmatch(boot[i], name, 0) == 0)
			return true;
	return false;
}

/* ---- what a script says ----------------------------------------------- */

struct vars {
	char *name[VARS_MAX], *value[VARS_MAX];
	size_t n;
};

static const char *var_get(const struct vars *v, const char *name, size_t len)
{
	for (size_t i = 0; i < v->n; i++)
		if (strlen(v->name[i]) == len && strncmp(v->name[i], name, len) == 0)
			return v->value[i];
	return NULL;
}

/* The first assignment of a name counts: later ones are overrides from
 * /etc/default files or branches the script may not take. */
static void var_set(struct vars *v, const char *name, size_t len, const char *value, size_t vlen)
{
	if (v->n == VARS_MAX || vlen > VALUE_MAX || var_get(v, name, len))
		return;
	v->name[v->n] = xstrndup(name, len);
	v->value[v->n++] = xstrndup(value, vlen);
}

static void vars_free(struct vars *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->name[i]);
		free(v->value[i]);
	}
	v->n = 0;
}

static bool is_name_char(char c, bool first)
{
	return c == '_' || isalpha((unsigned char)c) || (!first && isdigit((unsigned char)c));
}

/* $NAME and ${NAME} from the script's own assignments; NULL when anything
 * else (a command substitution, an unknown or nested variable) is left. */
static char *expand(const struct vars *v, const char *s, int depth)
{
	struct buf b = {0};
	while (*s) {
		if (*s != '$') {
			if (*s == '`' || *s == '(' || *s == '*')
				goto fail;
			buf_add(&b, s++, 1);
			continue;
		}
		bool brace = s[1] == '{';
		const char *name = s + 1 + brace;
		size_t len = 0;
		while (is_name_char(name[len], len == 0))
			len++;
		if (!len || (brace && name[len] != '}'))
			goto fail;
		const char *val = var_get(v, name, len);
		_cleanup_free_ char *inner = val && depth < 4 ? expand(v, val, depth + 1) : NULL;
		if (!inner)
			goto fail;
		buf_puts(&b, inner);
		s = name + len + brace;
	}
	return buf_steal(&b);
fail:
	buf_free(&b);
	return NULL;
}

/* Splits a line into words: quotes group and are taken off; '#' after a
 * blank starts a comment. */
static void split_words(const char *line, struct strv *words)
{
	const char *s = line;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == ';')
			s++;
		if (!*s || *s == '#')
			return;
		struct buf w = {0};
		while (*s && *s != ' ' && *s != '\t' && *s != ';') {
			if (*s == '"' || *s == '\'') {
				const char *end = strchr(s + 1, *s);
				if (!end)
					end = s + strlen(s);
				buf_add(&w, s + 1, (size_t)(end - s - 1));
				s = *end ? end + 1 : end;
			} else {
				buf_add(&w, s++, 1);
			}
		}
		strv_take(words, buf_steal(&w));
	}
}

/* NAME=value at the start of a line (after export/local/readonly). */
static void scan_assignment(struct vars *v, const struct strv *words)
{
	for (size_t i = 0; i < words->n; i++) {
		const char *w = words->v[i];
		if (streq(w, "export") || streq(w, "local") || streq(w, "readonly"))
			continue;
		size_t len = 0;
		while (is_name_char(w[len], len == 0))
			len++;
		if (len && w[len] == '=')
			var_set(v, w, len, w + len + 1, strlen(w + len + 1));
		return;
	}
}

/* The value of an option such as -p FILE, --pidfile FILE or --pidfile=FILE. */
static const char *option_value(const struct strv *words, size_t i, const char *const *opts)
{
	for (size_t k = 0; opts[k]; k++) {
		if (streq(words->v[i], opts[k]) && i + 1 < words->n)
			return words->v[i + 1];
		const char *eq = startswith(words->v[i], opts[k]);
		if (eq && opts[k][1] == '-' && *eq == '=')
			return eq + 1;
	}
	return NULL;
}

/* A `status)` or `status|` case label, or an OpenRC script (openrc-run
 * answers status for every service). */
static bool has_status_verb(const char *text)
{
	if (startswith(text, "#!") && strstr(text, "openrc-run") && strstr(text, "openrc-run") < strchrnul(text, '\n'))
		return true;
	for (const char *p = strstr(text, "status"); p; p = strstr(p + 1, "status")) {
		char before = p == text ? '\n' : p[-1];
		if (!strchr(" \t\n|(", before))
			continue;
		const char *after = p + strlen("status");
		while (*after == ' ' || *after == '\t')
			after++;
		if (*after == ')' || *after == '|')
			return true;
	}
	return false;
}

static char *comm_of(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return *base ? xstrndup(base, COMM_LEN) : NULL;
}

static bool good_pidfile(const char *p)
{
	return p && p[0] == '/' && endswith(p, ".pid") && !strstr(p, "/../");
}

/* The first of the named variables that expands to a usable value. */
static char *from_vars(const struct vars *v, const char *const *names, bool pidfile)
{
	for (size_t i = 0; names[i]; i++) {
		const char *raw = var_get(v, names[i], strlen(names[i]));
		_cleanup_free_ char *val = raw ? expand(v, raw, 0) : NULL;
		if (val && *val && (!pidfile || good_pidfile(val)))
			return TAKE_PTR(val);
	}
	return NULL;
}

void initscript_parse(const char *text, struct initscript *s)
{
	static const char *const pid_opts[] = { "-p", "--pidfile", "--pid-file", NULL };
	static const char *const exec_opts[] = { "-x", "--exec", NULL };
	static const char *const pid_vars[] = { "PIDFILE", "PID_FILE", "pidfile", NULL };
	static const char *const daemon_vars[] = { "DAEMON", "command", NULL };
	struct vars v = {0};
	struct strv pid_words = {0}, exec_words = {0};

	var_set(&v, "RC_SVCNAME", strlen("RC_SVCNAME"), s->name, strlen(s->name));
	var_set(&v, "SVCNAME", strlen("SVCNAME"), s->name, strlen(s->name));
	_cleanup_free_ char *copy = xstrdup(text);
	char *save = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct strv words = {0};
		split_words(line, &words);
		scan_assignment(&v, &words);
		for (size_t i = 0; i < words.n; i++) {
			const char *p = option_value(&words, i, pid_opts), *x = option_value(&words, i, exec_opts);
			if (p)
				strv_push(&pid_words, p);
			if (x)
				strv_push(&exec_words, x);
		}
		strv_free(&words);
	}

	free(s->pidfile);
	s->pidfile = from_vars(&v, pid_vars, true);
	for (size_t i = 0; !s->pidfile && i < pid_words.n; i++) {
		char *p = expand(&v, pid_words.v[i], 0);
		if (good_pidfile(p))
			s->pidfile = p;
		else
			free(p);
	}
	_cleanup_free_ char *daemon = from_vars(&v, daemon_vars, false);
	for (size_t i = 0; !daemon && i < exec_words.n; i++)
		daemon = expand(&v, exec_words.v[i], 0);
	free(s->daemon);
	s->daemon_named = daemon != NULL;
	s->daemon = comm_of(daemon ? daemon : s->name);
	s->has_status = has_status_verb(text);
	strv_free(&pid_words);
	strv_free(&exec_words);
	vars_free(&v);
}

/* ---- the scripts of a root --------------------------------------------- */

void initscript_clear(struct initscript *s)
{
	free(s->name);
	free(s->path);
	free(s->daemon);
	free(s->pidfile);
	*s = (struct initscript){0};
}

void initscripts_free(struct initscript *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		initscript_clear(&v[i]);
	free(v);
}

static void load_script(struct rootfs *rf, const char *entry, char *name, struct initscript *s)
{
	*s = (struct initscript){ .name = name, .path = xasprintf(INITD "/%s", entry) };
	struct stat st;
	s->executable = rootfs_stat(rf, s->path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	if (rootfs_read(rf, s->path, &text, &len) < 0 || len > SCRIPT_MAX)
		initscript_parse("", s);
	else
		initscript_parse(text, s);
}

int initscripts_list(struct rootfs *rf, struct initscript **out, size_t *n)
{
	struct strv entries = {0};
	int r = rootfs_list(rf, INITD, &entries);
	if (r < 0)
		return r;
	struct initscript *v = xcalloc(entries.n + 1, sizeof(*v));
	size_t k = 0;
	/* S?? scripts first, so that S50dropbear wins over a plain dropbear */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < entries.n; i++) {
			bool numbered = entries.v[i][0] == 'S' && isdigit((unsigned char)entries.v[i][1]);
			char *name = numbered == (pass == 0) ? initscript_name(entries.v[i]) : NULL;
			bool seen = false;
			for (size_t j = 0; name && j < k && !seen; j++)
				seen = streq(v[j].name, name);
			if (!name || seen) {
				free(name);
				continue;
			}
			load_script(rf, entries.v[i], name, &v[k++]);
		}
	strv_free(&entries);
	for (size_t i = 1; i < k; i++) /* by name */
		for (size_t j = i; j > 0 && strcmp(v[j - 1].name, v[j].name) > 0; j--) {
			struct initscript t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	*out = v;
	*n = k;
	return 0;
}

/* The comm of a live process of the root, or -ESRCH. */
static int proc_comm(struct rootfs *rf, int pid, char comm[16])
{
	_cleanup_free_ char *path = xasprintf("/proc/%d/stat", pid), *text = NULL;
	struct proc_info p;
	if (rootfs_read(rf, path, &text, NULL) < 0 || proc_stat_parse(text, &p) < 0)
		return -ESRCH;
	memcpy(comm, p.comm, 16);
	return 0;
}

int initscript_running(struct rootfs *rf, const struct initscript *s, const struct proc_table *t, int *pid)
{
	_cleanup_free_ char *line = NULL;
	int64_t p;
	char comm[16];
	if (s->pidfile && rootfs_read_line(rf, s->pidfile, &line) == 0 && parse_s64(line, &p) == 0 && p > 0 &&
	    p <= INT32_MAX && proc_comm(rf, (int)p, comm) == 0 && (!s->daemon_named || streq(comm, s->daemon))) {
		*pid = (int)p;
		return 1;
	}
	if (!t->seen)
		return -ENODATA;
	const struct proc_info *found = NULL;
	for (size_t i = 0; i < t->n; i++)
		if (streq(t->v[i].comm, s->daemon) && (!found || t->v[i].pid < found->pid))
			found = &t->v[i];
	if (!found)
		return 0;
	*pid = found->pid;
	return 1;
}
