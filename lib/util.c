/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

static void oom(void)
{
	fputs("ubtune: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		oom();
	return p;
}

char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		oom();
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *p;
	if (vasprintf(&p, fmt, ap) < 0)
		oom();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

bool endswith(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

bool str_numbered(const char *s, const char *prefix)
{
	const char *d = startswith(s, prefix);
	if (!d || !*d)
		return false;
	for (; *d; d++)
		if (!isdigit((unsigned char)*d))
			return false;
	return true;
}

char *strstrip(char *s)
{
	char *start = s;
	while (isspace((unsigned char)*start))
		start++;
	size_t n = strlen(start);
	while (n > 0 && isspace((unsigned char)start[n - 1]))
		n--;
	memmove(s, start, n);
	s[n] = '\0';
	return s;
}

char *strsqueeze(char *s)
{
	char *w = s;
	bool space = false;
	for (const char *r = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			space = true;
			continue;
		}
		if (space && w != s)
			*w++ = ' ';
		space = false;
		*w++ = *r;
	}
	*w = '\0';
	return s;
}

/* After a number that took at least one character: only white space. */
static int number_end(const char *start, const char *end)
{
	if (end == start)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -EINVAL : 0;
}

char *kv_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *value = NULL;
	size_t len = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		while (*l == ' ' || *l == '\t')
			l++;
		if (strncmp(l, key, n) != 0 || l[n] != '=')
			continue;
		value = l + n + 1;
		len = strcspn(value, "\n");
	}
	while (len && isspace((unsigned char)value[len - 1]))
		len--;
	return len ? xstrndup(value, len) : NULL;
}

int parse_u64_base(const char *s, int base, uint64_t *out)
{
	char *end;
	while (isspace((unsigned char)*s))
		s++;
	/* strtoull() would take a sign, and turn "-1" into UINT64_MAX */
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, base);
	if (errno)
		return -errno;
	int r = number_end(s, end);
	if (r < 0)
		return r;
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	return parse_u64_base(s, 10, out);
}

int parse_s64(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno)
		return -errno;
	int r = number_end(s, end);
	if (r < 0)
		return r;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno)
		return -errno;
	int r = number_end(s, end);
	if (r < 0)
		return r;
	*out = v;
	return 0;
}

void strv_take(struct strv *l, char *s)
{
	if (l->n + 2 > l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = xrealloc(l->v, l->cap * sizeof(char *));
	}
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

void strv_push(struct strv *l, const char *s)
{
	strv_take(l, xstrdup(s));
}

bool strv_contains(const struct strv *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (streq(l->v[i], s))
			return true;
	return false;
}

void strv_split(const char *value, const char *seps, struct strv *out)
{
	_cleanup_free_ char *copy = xstrdup(value);
	for (char *save = NULL, *t = strtok_r(copy, seps, &save); t; t = strtok_r(NULL, seps, &save)) {
		strstrip(t);
		if (*t)
			strv_push(out, t);
	}
}

char *strv_join(const struct strv *l, const char *sep)
{
	struct buf b = {0};
	for (size_t i = 0; i < l->n; i++)
		buf_printf(&b, "%s%s", i ? sep : "", l->v[i]);
	return buf_steal(&b);
}

static int cmp_nat(const void *a, const void *b)
{
	return strnatcmp(*(char *const *)a, *(char *const *)b);
}

void strv_sort(struct strv *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(char *), cmp_nat);
}

void strv_free(struct strv *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct strv){0};
}

void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *s = xvasprintf(fmt, ap);
	va_end(ap);
	buf_puts(b, s);
}

char *buf_steal(struct buf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	*b = (struct buf){0};
	return s;
}

void buf_free(struct buf *b)
{
	free(b->s);
	*b = (struct buf){0};
}

int dir_list_sorted(DIR *d, struct strv *out)
{
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d))) {
		if (streq(de->d_name, ".") || streq(de->d_name, ".."))
			continue;
		strv_push(out, de->d_name);
	}
	if (errno)
		return -errno;
	strv_sort(out);
	return 0;
}

void kib_text(int64_t kib, char *buf, size_t n)
{
	if (kib >= 1024 * 1024)
		snprintf(buf, n, "%.1f GiB", (double)kib / (1024.0 * 1024.0));
	else
		snprintf(buf, n, "%lld MiB", (long long)(kib / 1024));
}

int strnatcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			size_t la = 0, lb = 0;
			while (isdigit((unsigned char)a[la]))
				la++;
			while (isdigit((unsigned char)b[lb]))
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(a, b, la);
			if (c)
				return c;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

size_t str_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return SIZE_MAX;
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
			size_t best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *str_closest(const char *word, const char *const *choices)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	for (size_t i = 0; choices[i]; i++) {
		size_t d = str_edit_distance(word, choices[i]);
		if (d < best_d) {
			best_d = d;
			best = choices[i];
		}
	}
	/* close enough: a typo, not a different word */
	size_t limit = strlen(word) <= 4 ? 1 : strlen(word) <= 8 ? 2 : 3;
	return best_d <= limit ? best : NULL;
}

uint64_t now_usec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static char *iso8601(time_t t, bool utc)
{
	struct tm tm;
	char s[40];
	if (utc)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	strftime(s, sizeof(s), utc ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%dT%H:%M:%S%z", &tm);
	return xstrdup(s);
}

double now_s(void)
{
	return (double)now_usec() / 1e6;
}

char *iso8601_utc(time_t t)
{
	return iso8601(t, true);
}

char *iso8601_local(time_t t)
{
	return iso8601(t, false);
}

int read_fd(int fd, size_t max, char **out, size_t *len)
{
	struct buf b = {0};
	char chunk[8192];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int r = -errno;
			buf_free(&b);
			return r;
		}
		if (n == 0)
			break;
		if (b.len + (size_t)n > max) {
			buf_free(&b);
			return -EFBIG;
		}
		buf_add(&b, chunk, (size_t)n);
	}
	if (len)
		*len = b.len;
	*out = buf_steal(&b);
	return 0;
}

int write_full(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_file_atomic(const char *path, const char *text, mode_t mode)
{
	_cleanup_free_ char *tmp = xasprintf("%s.XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int r = write_full(fd, text, strlen(text));
	if (r == 0 && (fchmod(fd, mode) < 0 || fsync(fd) < 0))
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	const char *slash = strrchr(path, '/');
	_cleanup_free_ char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return dfd >= 0 && fsync(dfd) < 0 ? -errno : 0;
}

int read_file(const char *path, size_t max, char **out, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
		return -EINVAL;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max)
		return -EFBIG;
	return read_fd(fd, max, out, len);
}

static int remove_at(int dfd, const char *name, int depth)
{
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dfd, name, 0) < 0 ? -errno : 0;
	if (depth > 256)
		return -ELOOP;

	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(fd);
	if (!d) {
		int r = -errno;
		close(fd);
		return r;
	}
	struct strv names = {0};
	int r = dir_list_sorted(d, &names);
	for (size_t i = 0; r >= 0 && i < names.n; i++)
		r = remove_at(dirfd(d), names.v[i], depth + 1);
	strv_free(&names);
	closedir(d);
	if (r < 0)
		return r;
	return unlinkat(dfd, name, AT_REMOVEDIR) < 0 ? -errno : 0;
}

int remove_tree(const char *dir)
{
	return remove_at(AT_FDCWD, dir, 0);
}

int remove_tree_at(int dfd, const char *name)
{
	return remove_at(dfd, name, 0);
}

bool text_printable(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		if (*p < 0x20 || *p == 0x7f)
			return false;
		if (*p < 0x80) {
			p++;
			continue;
		}
		/* lead byte: 2, 3 or 4 byte sequence (no overlong 0xc0/0xc1, nothing past U+10FFFF) */
		size_t n = *p >= 0xf0 && *p <= 0xf4 ? 4 : *p >= 0xe0 ? (*p <= 0xef ? 3 : 0) : *p >= 0xc2 ? 2 : 0;
		if (n == 0)
			return false;
		for (size_t i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				return false;
		p += n;
	}
	return true;
}
