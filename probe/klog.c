/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel log since boot, as plain message lines. Facts such as the
 * boot exception level, KVM initialisation and undervoltage warnings are
 * only ever written there.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/klog.h>

#include "probe.h"

#if HAVE_SYSTEMD
#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>
#endif

#define KLOG_MAX (16u << 20)

/* True when [s, e) is not empty and only holds characters of accept. */
static bool span_of(const char *s, const char *e, const char *accept)
{
	if (s >= e)
		return false;
	for (; s < e; s++)
		if (!strchr(accept, *s))
			return false;
	return true;
}

#define DIGITS "0123456789"

/*
 * Accepts the three shapes a kernel log comes in and keeps only the text:
 *   /dev/kmsg:  "6,1234,5678901,-;message"  (+ " KEY=value" continuation lines)
 *   klogctl:    "<6>[    5.678901] message"
 *   dmesg:      "[    5.678901] message"  or plain "message"
 * Only these prefixes are taken off, so messages that start with a tag of
 * their own ("[drm] ...") keep it, and stripped text strips to itself.
 */
char *klog_strip(const char *text)
{
	struct buf b = {0};
	const char *l = text;
	buf_puts(&b, "");
	while (*l) {
		size_t n = strcspn(l, "\n");
		const char *end = l + n;
		const char *m = l;

		const char *eq = memchr(m, '=', n);
		if (*m == ' ' && eq && span_of(m + 1, eq, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_" DIGITS)) {
			/* kmsg continuation line (dictionary), not a message */
			l = *end ? end + 1 : end;
			continue;
		}
		if (*m == '<') {
			const char *gt = memchr(m, '>', (size_t)(end - m));
			if (gt && gt - m <= 4 && span_of(m + 1, gt, DIGITS))
				m = gt + 1;
		} else if (isdigit((unsigned char)*m)) {
			const char *semi = memchr(m, ';', (size_t)(end - m));
			const char *p = m;
			while (p < end && (isdigit((unsigned char)*p) || *p == ',' || *p == '-' || *p == '+' || *p == 'c'))
				p++;
			if (semi && p == semi)
				m = semi + 1;
		}
		if (*m == '[') {
			const char *close = memchr(m, ']', (size_t)(end - m));
			/* a timestamp: "[    5.678901]" */
			if (close && span_of(m + 1, close, " ." DIGITS) && isdigit((unsigned char)close[-1])) {
				m = close + 1;
				if (*m == ' ')
					m++;
			}
		}
		buf_add(&b, m, (size_t)(end - m));
		buf_add(&b, "\n", 1);
		l = *end ? end + 1 : end;
	}
	return buf_steal(&b);
}

#if HAVE_SYSTEMD
static int read_journal(char **out)
{
	sd_journal *j = NULL;
	sd_id128_t boot;
	char match[64];
	int r;

	if ((r = sd_id128_get_boot(&boot)) < 0)
		return r;
	if ((r = sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY | SD_JOURNAL_SYSTEM)) < 0)
		return r;
	snprintf(match, sizeof(match), "_BOOT_ID=" SD_ID128_FORMAT_STR, SD_ID128_FORMAT_VAL(boot));
	sd_journal_add_match(j, "_TRANSPORT=kernel", 0);
	sd_journal_add_conjunction(j);
	sd_journal_add_match(j, match, 0);

	struct buf b = {0};
	size_t entries = 0;
	SD_JOURNAL_FOREACH(j) {
		const void *data;
		size_t len;
		if (sd_journal_get_data(j, "MESSAGE", &data, &len) < 0 || len < 8)
			continue;
		buf_add(&b, (const char *)data + 8, len - 8);
		buf_add(&b, "\n", 1);
		entries++;
		if (b.len > KLOG_MAX)
			break;
	}
	sd_journal_close(j);
	if (entries == 0) {
		buf_free(&b);
		return -ENODATA;
	}
	*out = buf_steal(&b);
	return 0;
}
#endif

static int read_kmsg(char **out)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct buf raw = {0};
	char rec[8192];
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec));
		if (n < 0) {
			if (errno == EPIPE) /* overwritten while reading */
				continue;
			if (errno == EINTR)
				continue;
			int r = errno == EAGAIN ? 0 : -errno;
			close(fd);
			if (r < 0 || raw.len == 0) {
				buf_free(&raw);
				return r < 0 ? r : -ENODATA;
			}
			break;
		}
		buf_add(&raw, rec, (size_t)n);
		if (raw.len > KLOG_MAX)
			break;
	}
	close(fd);
	*out = klog_strip(raw.s);
	buf_free(&raw);
	return 0;
}

static int read_klogctl(char **out)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (size <= 0)
		return size < 0 ? -errno : -ENODATA;
	char *b = xmalloc((size_t)size + 1);
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, b, size);
	if (n < 0) {
		int r = -errno;
		free(b);
		return r;
	}
	b[n] = '\0';
	*out = klog_strip(b);
	free(b);
	return 0;
}

/* The live kernel log was read: a gathered dump keeps the text as its own. */
static const char *klog_found(struct probe_ctx *ctx)
{
	rootfs_trace_add_data(ctx->rf, DUMP_DMESG, ctx->klog, strlen(ctx->klog));
	return ctx->klog;
}

const char *probe_klog(struct probe_ctx *ctx)
{
	if (ctx->klog_loaded)
		return ctx->klog;
	ctx->klog_loaded = true;

	if (!ctx->live) {
		_cleanup_free_ char *text = NULL;
		int r = rootfs_read(ctx->rf, DUMP_DMESG, &text, NULL);
		/* gather notes why the machine's log could not be read */
		_cleanup_free_ char *why = r < 0 ? probe_gather_meta(ctx, "kernel-log-unavailable") : NULL;
		if (why)
			probe_unavailable(ctx, "kernel-log", "%s", why);
		else if (r < 0)
			probe_unavailable(ctx, "kernel-log", "this dump has no kernel log (%s: %s)", DUMP_DMESG,
					  strerror(-r));
		else
			ctx->klog = klog_strip(text);
		return ctx->klog;
	}

	int r = -ENOSYS;
#if HAVE_SYSTEMD
	r = read_journal(&ctx->klog);
	if (r == 0)
		return klog_found(ctx);
#endif
	int rk = read_kmsg(&ctx->klog);
	if (rk == 0)
		return klog_found(ctx);
	int rc = read_klogctl(&ctx->klog);
	if (rc == 0)
		return klog_found(ctx);
	probe_unavailable(ctx, "kernel-log",
			  "not readable (journal: %s; /dev/kmsg: %s; klogctl: %s)%s",
			  HAVE_SYSTEMD ? strerror(-r) : "this ubtune is built without libsystemd", strerror(-rk),
			  strerror(-rc), rk == -EPERM || rc == -EPERM ? "; run as root or set kernel.dmesg_restrict=0" : "");
	return NULL;
}

bool klog_line(const char **pos, const char **line, size_t *len)
{
	if (!*pos || !**pos)
		return false;
	*line = *pos;
	*len = strcspn(*pos, "\n");
	*pos += *len;
	if (**pos == '\n')
		(*pos)++;
	return true;
}

size_t klog_count_any(const char *klog, const char *const *needles, char **last)
{
	const char *pos = klog, *line;
	size_t len, n = 0;

	while (klog_line(&pos, &line, &len)) {
		for (const char *const *k = needles; *k; k++) {
			if (!memmem(line, len, *k, strlen(*k)))
				continue;
			n++;
			if (last) {
				free(*last);
				*last = xstrndup(line, len);
			}
			break;
		}
	}
	return n;
}

size_t klog_count(const char *klog, const char *needle, char **last)
{
	return klog_count_any(klog, (const char *const[]){ needle, NULL }, last);
}
