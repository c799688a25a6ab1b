/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stdin-input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/load.h"
#include "lib/log.h"
#include "lib/util.h"

/* Makes fd 0 a regular file with the same bytes, at offset 0. */
static int stdin_seekable(void)
{
	struct stat st;
	if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	const char *dir = getenv("TMPDIR");
	int fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return log_error_errno(-errno, "Failed to create a temporary file for standard input: %m");
	char b[65536];
	ssize_t n;
	while ((n = read(STDIN_FILENO, b, sizeof(b))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && write(fd, b, (size_t)n) != n) {
			int r = -errno;
			close(fd);
			return log_error_errno(r ? r : -EIO, "Failed to keep standard input: %m");
		}
	int r = n < 0 ? -errno : 0;
	if (r == 0 && (lseek(fd, 0, SEEK_SET) < 0 || dup2(fd, STDIN_FILENO) < 0))
		r = -errno;
	close(fd);
	if (r < 0)
		return log_error_errno(r, "Failed to read standard input: %m");
	return 0;
}

int stdin_input(const char *arg, const char **out)
{
	*out = arg;
	if (!streq(arg, "-"))
		return 0;
	int r = stdin_seekable();
	if (r < 0)
		return r;
	if (load_looks_like_json("/dev/stdin"))
		*out = "/dev/stdin";
	return 0;
}
