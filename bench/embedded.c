/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bench/embedded.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/stat.h>

#include "lib/paths.h"
#include "lib/util.h"

#if UBTUNE_EMBED_WORKLOADS
/*
 * The files themselves, placed in .rodata by the assembler; the Makefile
 * names their directories (UBTUNE_EMBED_BIN: the programs, built static
 * with the workloads' default flags; UBTUNE_EMBED_SCRIPTS: the scripts).
 */
EMBED_FILE(ubtune_embedded_workloads, UBTUNE_EMBED_BIN "/ubtune-workloads");
EMBED_FILE(ubtune_embedded_execl, UBTUNE_EMBED_BIN "/ubtune-execl");
EMBED_FILE(ubtune_embedded_whetstone, UBTUNE_EMBED_BIN "/ubtune-whetstone");
EMBED_FILE(ubtune_embedded_spawn, UBTUNE_EMBED_BIN "/ubtune-spawn");
EMBED_FILE(ubtune_embedded_multi, UBTUNE_EMBED_SCRIPTS "/multi.sh");
EMBED_FILE(ubtune_embedded_tst, UBTUNE_EMBED_SCRIPTS "/tst.sh");
EMBEDDED_SYMBOLS(ubtune_embedded_workloads);
EMBEDDED_SYMBOLS(ubtune_embedded_execl);
EMBEDDED_SYMBOLS(ubtune_embedded_whetstone);
EMBEDDED_SYMBOLS(ubtune_embedded_spawn);
EMBEDDED_SYMBOLS(ubtune_embedded_multi);
EMBEDDED_SYMBOLS(ubtune_embedded_tst);
#define FILE_OF(name, sym) { name, sym, EMBEDDED_SIZE(sym) }

const struct embedded_file *embedded_workloads(size_t *n)
{
	static struct embedded_file files[6];
	if (!files[0].name) {
		const struct embedded_file all[] = {
			FILE_OF("ubtune-workloads", ubtune_embedded_workloads),
			FILE_OF("ubtune-execl", ubtune_embedded_execl),
			FILE_OF("ubtune-whetstone", ubtune_embedded_whetstone),
			FILE_OF("ubtune-spawn", ubtune_embedded_spawn),
			FILE_OF("multi.sh", ubtune_embedded_multi),
			FILE_OF("tst.sh", ubtune_embedded_tst),
		};
		memcpy(files, all, sizeof(files));
	}
	*n = ARRAY_SIZE(files);
	return files;
}
#else
const struct embedded_file *embedded_workloads(size_t *n)
{
	*n = 0;
	return NULL;
}
#endif

/* FNV-1a over names and bytes: tells builds apart, not an integrity seal
 * (the files are compared byte for byte before they are used). */
static uint64_t files_hash(const struct embedded_file *files, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *parts[] = { (const unsigned char *)files[i].name, files[i].data };
		size_t lens[] = { strlen(files[i].name) + 1, files[i].size };
		for (size_t p = 0; p < 2; p++)
			for (size_t k = 0; k < lens[p]; k++)
				h = (h ^ parts[p][k]) * 0x100000001b3ull;
	}
	return h;
}

/* The file in dir holds exactly f's bytes and is executable. */
static bool file_matches(int dirfd, const struct embedded_file *f)
{
	_cleanup_close_ int fd = openat(dirfd, f->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != f->size ||
	    !(st.st_mode & S_IXUSR))
		return false;
	unsigned char buf[65536];
	size_t off = 0;
	while (off < f->size) {
		ssize_t got = read(fd, buf, sizeof(buf));
		if (got <= 0 || (size_t)got > f->size - off || memcmp(buf, f->data + off, (size_t)got) != 0)
			return false;
		off += (size_t)got;
	}
	return true;
}

static bool dir_matches(const char *dir, const struct embedded_file *files, size_t n)
{
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!file_matches(dfd, &files[i]))
			return false;
	return true;
}

/* Removes what this code writes into dir (the named files), then dir. */
static int remove_written(const char *dir, const struct embedded_file *files, size_t n)
{
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0 : -errno;
	for (size_t i = 0; i < n; i++)
		if (unlinkat(dfd, files[i].name, 0) < 0 && errno != ENOENT)
			return -errno;
	return rmdir(dir) < 0 && errno != ENOENT ? -errno : 0;
}

static int write_file(int dirfd, const struct embedded_file *f)
{
	_cleanup_close_ int fd = openat(dirfd, f->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0755);
	if (fd < 0)
		return -errno;
	for (size_t off = 0; off < f->size;) {
		ssize_t n = write(fd, f->data + off, f->size - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		off += (size_t)n;
	}
	/* the umask may have taken the execute bits */
	return fchmod(fd, 0755) < 0 ? -errno : 0;
}

/* Writes the files into a fresh private directory next to the final one. */
static int write_all(const char *parent, const struct embedded_file *files, size_t n, char **tmp)
{
	*tmp = xasprintf("%s/.embedded-XXXXXX", parent);
	if (!mkdtemp(*tmp))
		return -errno;
	_cleanup_close_ int dfd = open(*tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int r = dfd < 0 ? -errno : 0;
	for (size_t i = 0; r == 0 && i < n; i++)
		r = write_file(dfd, &files[i]);
	if (r == 0 && fchmod(dfd, 0755) < 0)
		r = -errno;
	return r;
}

int embedded_write_out(const struct embedded_file *files, size_t n, const char *cachedir, char **dir,
		       char **error)
{
	_cleanup_free_ char *parent = xasprintf("%s/workloads", cachedir);
	_cleanup_free_ char *final = xasprintf("%s/embedded-%016" PRIx64, parent, files_hash(files, n));
	_cleanup_free_ char *tmp = NULL;
	int r;

	if (dir_matches(final, files, n)) {
		*dir = TAKE_PTR(final);
		return 0;
	}
	if ((r = mkdir_p(parent, 0)) < 0) {
		*error = xasprintf("cannot create %s for the workloads: %s (set UBTUNE_CACHE_DIR to a writable "
				   "directory)", parent, strerror(-r));
		return r;
	}
	if ((r = write_all(parent, files, n, &tmp)) < 0) {
		*error = xasprintf("cannot write the workloads into %s: %s (set UBTUNE_CACHE_DIR to a writable "
				   "directory)", parent, strerror(-r));
		remove_written(tmp, files, n);
		return r;
	}
	/* a damaged copy (cut short, edited) makes way for the fresh one */
	if (!dir_matches(final, files, n))
		remove_written(final, files, n);
	if (rename(tmp, final) < 0) {
		r = -errno;
		remove_written(tmp, files, n);
		/* another ubtune wrote the same files first */
		if (!dir_matches(final, files, n)) {
			*error = xasprintf("cannot put the workloads at %s: %s", final, strerror(-r));
			return r;
		}
	}
	*dir = TAKE_PTR(final);
	return 0;
}
