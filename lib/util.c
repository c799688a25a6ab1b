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

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno)
		return -errno;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_s64(const char *s, int64_t *out)
{
	char *end;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -EINVAL;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno)
		return -errno;
	if (end == s)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -EINVAL;
	errno = 0;
	double v = strtod(s, &end);
	if (errno)
		return -errno;
	if (end == s)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
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

uint64_t now_usec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

char *iso8601_now(void)
{
	time_t t = time(NULL);
	struct tm tm;
	char s[32];
	gmtime_r(&t, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(s);
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

int read_file(const char *path, size_t max, char **out, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EISDIR;
	return read_fd(fd, max, out, len);
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
