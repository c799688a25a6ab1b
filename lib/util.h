/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define _unused_ __attribute__((unused))
#define _printf_(a, b) __attribute__((format(printf, a, b)))

static inline void freep(void *p) { free(*(void **)p); }
static inline void fclosep(FILE **f) { if (*f) fclose(*f); }
static inline void closedirp(DIR **d) { if (*d) closedir(*d); }
static inline void closep(int *fd) { if (*fd >= 0) close(*fd); }

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define _cleanup_closedir_ _cleanup_(closedirp)
#define _cleanup_close_ _cleanup_(closep)

/* Hands ownership of a pointer to the caller: return TAKE_PTR(p). */
#define TAKE_PTR(p) ({ __typeof__(p) _p = (p); (p) = NULL; _p; })

static inline bool streq(const char *a, const char *b) { return strcmp(a, b) == 0; }
static inline bool streq_ptr(const char *a, const char *b)
{
	return a && b ? streq(a, b) : a == b;
}
static inline const char *startswith(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}
bool endswith(const char *s, const char *suffix);
/* True when s is prefix followed by one or more ASCII digits and nothing
 * else: "cpu12" for "cpu", "1234" for "". */
bool str_numbered(const char *s, const char *prefix);

/* Allocation that aborts on exhaustion: a probe that cannot allocate a few
 * bytes has nothing sensible left to report. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A copy of s, or NULL for NULL. */
char *xstrdup_or_null(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) _printf_(1, 2);
char *xvasprintf(const char *fmt, va_list ap) _printf_(1, 0);

/* In-place trimming of ASCII white space; returns s. */
char *strstrip(char *s);
/* Collapses runs of white space into one space and trims. */
char *strsqueeze(char *s);
/* The value of the last "KEY=value" line of text (white space around the
 * line ignored), or NULL when there is none or it is empty. */
char *kv_value(const char *text, const char *key);

/* Numbers from text, whole-string and range checked, white space around
 * them allowed; 0 or -EINVAL/-ERANGE. parse_u64() and parse_s64() read
 * decimal ("010" is ten); parse_u64_base() another base (16 takes "0x41"). */
int parse_u64(const char *s, uint64_t *out);
int parse_u64_base(const char *s, int base, uint64_t *out);
int parse_s64(const char *s, int64_t *out);
int parse_double(const char *s, double *out);

/* A growable NULL-terminated list of owned strings. */
struct strv {
	char **v;
	size_t n, cap;
};
void strv_push(struct strv *l, const char *s);
void strv_take(struct strv *l, char *s);
bool strv_contains(const struct strv *l, const char *s);
/* Appends the items of value split on any of seps, white space trimmed,
 * empty ones dropped. */
void strv_split(const char *value, const char *seps, struct strv *out);
/* The items joined with sep ("" for none). */
char *strv_join(const struct strv *l, const char *sep);
void strv_sort(struct strv *l);
void strv_free(struct strv *l);
/* A list freed when it goes out of scope: _cleanup_strv_ struct strv l = {0}; */
#define _cleanup_strv_ _cleanup_(strv_free)

/* A growable byte buffer that always holds a terminating NUL. */
struct buf {
	char *s;
	size_t len, cap;
};
void buf_add(struct buf *b, const char *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) _printf_(2, 3);
char *buf_steal(struct buf *b);
void buf_free(struct buf *b);

/* Sorted, de-duplicated directory entries (without "." and ".."), for
 * output that does not depend on readdir order. */
int dir_list_sorted(DIR *d, struct strv *out);

/* A memory size given in KiB as people read it: "15.6 GiB", "512 MiB". */
void kib_text(int64_t kib, char *buf, size_t n);

/* Natural comparison: "cpu2" < "cpu10". */
int strnatcmp(const char *a, const char *b);

/* Levenshtein distance (ASCII case ignored), for "did you mean". */
size_t str_edit_distance(const char *a, const char *b);
/* The closest word of a NULL-terminated list when it is near enough to be
 * a typo of word; else NULL. */
const char *str_closest(const char *word, const char *const *choices);

/* Monotonic time in microseconds, and in seconds. */
uint64_t now_usec(void);
double now_s(void);
/* A time as "2024-05-01T12:00:00Z" (UTC), or in local time with its
 * offset, "2024-05-01T14:00:00+0200". */
char *iso8601_utc(time_t t);
char *iso8601_local(time_t t);
/* Reads fd from its current offset to the end, NUL-terminated; -EFBIG past max bytes. */
int read_fd(int fd, size_t max, char **out, size_t *len);
/* Writes all of s, however many write() calls that takes. */
int write_full(int fd, const char *s, size_t len);
/* Replaces path with text: written to a temporary file beside it, synced,
 * renamed over it, the directory synced; a crash leaves the old file or
 * the new one, never a part. */
int write_file_atomic(const char *path, const char *text, mode_t mode);
/* A whole regular file or pipe, NUL-terminated: -EISDIR for a directory,
 * -EINVAL for another kind of file (a device), -EFBIG past max bytes. */
int read_file(const char *path, size_t max, char **out, size_t *len);
/* Removes a directory tree that ubtune created, without following
 * symlinks out of it. */
int remove_tree(const char *dir);
/* The same for the entry name of the directory dfd. */
int remove_tree_at(int dfd, const char *name);

/* True when s is valid UTF-8 without control characters: text a firmware
 * or driver meant to be read, not binary data. */
bool text_printable(const char *s);
