/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Files a person names: inputs that must be regular files, outputs that
 * are replaced whole or written in place. */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "lib/output-file.h"
#include "testlib.h"

static char *make_dir(void)
{
	char *dir = xstrdup("/tmp/ubtune-named.XXXXXX");
	assert_non_null(mkdtemp(dir));
	return dir;
}

static void remove_dir(char *dir)
{
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

static char *make_socket(const char *dir)
{
	char *path = xasprintf("%s/sock", dir);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	return path;
}

static char *slurp(const char *path)
{
	char *text = NULL;
	assert_int_equal(read_file(path, 1 << 20, &text, NULL), 0);
	return text;
}

/* A FIFO is refused at once (a blocking open would wait for a writer that
 * never comes), and so are sockets and devices, each named. */
static void inputs_must_be_regular(void **state)
{
	char *dir = make_dir();
	_cleanup_free_ char *fifo = xasprintf("%s/fifo", dir), *file = xasprintf("%s/f", dir);
	_cleanup_free_ char *sock = make_socket(dir), *link = xasprintf("%s/link", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(write_file_atomic(file, "text\n", 0644), 0);
	assert_int_equal(symlink(file, link), 0);

	char *error = NULL, *text = NULL;
	size_t len;
	assert_int_equal(read_regular(fifo, 64, &text, &len, &error), -EINVAL);
	_cleanup_free_ char *want = xasprintf("%s is a FIFO, not a regular file", fifo);
	assert_string_equal(error, want);
	free(error);
	error = NULL;
	assert_int_equal(read_regular(sock, 64, &text, &len, &error), -EINVAL);
	assert_non_null(strstr(error, "is a socket, not a regular file"));
	free(error);
	error = NULL;
	assert_int_equal(read_regular("/dev/null", 64, &text, &len, &error), -EINVAL);
	assert_string_equal(error, "/dev/null is a character device, not a regular file");
	free(error);
	error = NULL;
	assert_int_equal(read_regular(dir, 64, &text, &len, &error), -EISDIR);
	assert_non_null(strstr(error, "is a directory, not a regular file"));
	free(error);
	error = NULL;
	assert_int_equal(read_file(fifo, 64, &text, &len), -EINVAL);

	/* a symbolic link to a file is read, unless O_NOFOLLOW says otherwise */
	assert_int_equal(read_regular(link, 64, &text, &len, &error), 0);
	assert_string_equal(text, "text\n");
	free(text);
	int fd = open_regular_at(AT_FDCWD, link, O_NOFOLLOW, &error);
	assert_int_equal(fd, -EINVAL);
	assert_non_null(strstr(error, "is a symbolic link, not a regular file"));
	free(error);
	fd = open_regular_at(AT_FDCWD, file, 0, NULL);
	assert_true(fd >= 0);
	assert_false(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);
	remove_dir(dir);
}

/* A new file appears whole, with the permissions open() would give it; a
 * regular file is replaced keeping its own; a symbolic link keeps naming
 * the file it names. No temporary is left. */
static void outputs_replace_regular_files(void **state)
{
	char *dir = make_dir();
	_cleanup_free_ char *file = xasprintf("%s/out.html", dir), *link = xasprintf("%s/link", dir);
	char *error = NULL;
	mode_t mask = umask(022);
	assert_int_equal(output_file_write(file, "one\n", 4, &error), 0);
	struct stat st;
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(chmod(file, 0640), 0);
	assert_int_equal(symlink("out.html", link), 0);
	assert_int_equal(output_file_write(link, "two\n", 4, &error), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	_cleanup_free_ char *text = slurp(file);
	assert_string_equal(text, "two\n");

	/* given up: the file is as it was */
	struct output_file o;
	assert_int_equal(output_file_open(&o, file, 0, &error), 0);
	assert_int_equal(write_full(o.fd, "half", 4), 0);
	output_file_abort(&o);
	_cleanup_free_ char *again = slurp(file);
	assert_string_equal(again, "two\n");

	/* OUTPUT_NEW never replaces a file */
	assert_int_equal(output_file_open(&o, file, OUTPUT_NEW, &error), -EEXIST);
	assert_non_null(strstr(error, "File exists"));
	free(error);
	error = NULL;

	_cleanup_free_ char *cmd = xasprintf("ls -A %s", dir);
	FILE *ls = popen(cmd, "r");
	char names[256] = "";
	size_t n = fread(names, 1, sizeof(names) - 1, ls);
	pclose(ls);
	names[n] = '\0';
	assert_string_equal(names, "link\nout.html\n");
	umask(mask);
	remove_dir(dir);
}

/* /dev/null and a FIFO are written where they are; a failed write to
 * /dev/full says ENOSPC and leaves the device; what cannot be written
 * (a directory, a socket, a link to nothing) is refused and left alone. */
static void outputs_in_place_or_refused(void **state)
{
	char *dir = make_dir();
	_cleanup_free_ char *fifo = xasprintf("%s/fifo", dir), *got = xasprintf("%s/got", dir);
	_cleanup_free_ char *sock = make_socket(dir), *dangling = xasprintf("%s/dangling", dir);
	char *error = NULL;
	assert_int_equal(output_file_write("/dev/null", "x", 1, &error), 0);

	assert_int_equal(output_file_write("/dev/full", "x", 1, &error), -ENOSPC);
	assert_string_equal(error, "cannot write /dev/full: No space left on device");
	free(error);
	error = NULL;
	struct stat st;
	assert_int_equal(stat("/dev/full", &st), 0);
	assert_true(S_ISCHR(st.st_mode));

	assert_int_equal(mkfifo(fifo, 0600), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		_cleanup_free_ char *cmd = xasprintf("cat %s >%s", fifo, got);
		_exit(system(cmd) == 0 ? 0 : 1);
	}
	assert_int_equal(output_file_write(fifo, "through\n", 8, &error), 0);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	_cleanup_free_ char *text = slurp(got);
	assert_string_equal(text, "through\n");

	assert_int_equal(output_file_write(dir, "x", 1, &error), -EISDIR);
	assert_non_null(strstr(error, "is a directory: output goes to a regular file"));
	free(error);
	error = NULL;
	assert_int_equal(output_file_write(sock, "x", 1, &error), -EINVAL);
	assert_non_null(strstr(error, "is a socket"));
	free(error);
	error = NULL;
	assert_int_equal(lstat(sock, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(symlink("nothing", dangling), 0);
	assert_int_equal(output_file_write(dangling, "x", 1, &error), -ENOENT);
	assert_non_null(strstr(error, "a symbolic link to nothing"));
	free(error);
	_cleanup_free_ char *nothing = xasprintf("%s/nothing", dir);
	assert_int_equal(access(nothing, F_OK), -1);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(inputs_must_be_regular),
		cmocka_unit_test(outputs_replace_regular_files),
		cmocka_unit_test(outputs_in_place_or_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
