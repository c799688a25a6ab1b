/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared layer: cpu sets, number parsing, strings, the root-aware reader. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "lib/cpuset.h"
#include "lib/rootfs.h"
#include "lib/table.h"
#include "lib/term.h"
#include "testlib.h"

static void cpuset_lists(void **state)
{
	struct cpuset c = {0};
	assert_int_equal(cpuset_parse_list("0-3,8,10-11\n", &c), 0);
	assert_int_equal(cpuset_count(&c), 7);
	assert_true(cpuset_isset(&c, 8));
	assert_false(cpuset_isset(&c, 9));
	_cleanup_free_ char *s = cpuset_format(&c);
	assert_string_equal(s, "0-3,8,10-11");

	assert_int_equal(cpuset_parse_list("0-62:2/4", &c), 0);
	assert_true(cpuset_isset(&c, 0) && cpuset_isset(&c, 1) && !cpuset_isset(&c, 2) && cpuset_isset(&c, 4));

	assert_int_equal(cpuset_parse_list("", &c), 0);
	assert_int_equal(cpuset_count(&c), 0);
	_cleanup_free_ char *empty = cpuset_format(&c);
	assert_string_equal(empty, "");

	assert_int_equal(cpuset_parse_list("3-1", &c), -EINVAL);
	assert_int_equal(cpuset_parse_list("a", &c), -EINVAL);
	assert_int_equal(cpuset_parse_list("1,,2x", &c), -EINVAL);
	assert_int_equal(cpuset_parse_list("99999999", &c), -ERANGE);
	cpuset_free(&c);
}

static void cpuset_masks(void **state)
{
	struct cpuset c = {0};
	/* node2 of the 64-CPU Xeon dump: every fourth CPU from 1 */
	assert_int_equal(cpuset_parse_mask("0000,22222222,22222222\n", &c), 0);
	assert_int_equal(cpuset_count(&c), 16);
	assert_true(cpuset_isset(&c, 1) && cpuset_isset(&c, 61) && !cpuset_isset(&c, 0));
	assert_int_equal(cpuset_parse_mask("zz", &c), -EINVAL);
	struct cpuset d = {0};
	assert_int_equal(cpuset_parse_list("1-5", &d), 0);
	assert_true(cpuset_intersects(&c, &d));
	cpuset_free(&c);
	cpuset_free(&d);
}

static void numbers_and_strings(void **state)
{
	uint64_t u;
	int64_t s;
	double d;
	assert_int_equal(parse_u64(" 42\n", &u), 0);
	assert_int_equal(u, 42);
	assert_int_equal(parse_u64("-1", &u), -EINVAL);
	assert_int_equal(parse_u64("12abc", &u), -EINVAL);
	/* decimal, as people write numbers: no octal, no hex */
	assert_int_equal(parse_u64("010", &u), 0);
	assert_int_equal(u, 10);
	assert_int_equal(parse_u64("08", &u), 0);
	assert_int_equal(u, 8);
	assert_int_equal(parse_u64("0x10", &u), -EINVAL);
	assert_int_equal(parse_u64("99999999999999999999", &u), -ERANGE);
	assert_int_equal(parse_u64_base("0x410fd083", 16, &u), 0);
	assert_int_equal(u, 0x410fd083);
	assert_int_equal(parse_s64("-7", &s), 0);
	assert_int_equal(s, -7);
	assert_int_equal(parse_double("108.00", &d), 0);
	assert_true(d == 108.0);
	assert_int_equal(parse_double("", &d), -EINVAL);

	char a[] = "  model   name \t x  ";
	assert_string_equal(strsqueeze(a), "model name x");
	assert_true(strnatcmp("cpu2", "cpu10") < 0);
	assert_true(strnatcmp("hwmon10", "hwmon9") > 0);
	assert_true(strnatcmp("a", "a") == 0);
	_cleanup_free_ char *arch = kv_value("version=0.1.0\narch=x86_64\n  arch=aarch64 \nempty=\n", "arch");
	assert_string_equal(arch, "aarch64");
	assert_null(kv_value("empty=\n", "empty"));
	assert_null(kv_value("archive=1\n", "arch"));
	assert_true(str_numbered("cpu12", "cpu"));
	assert_true(str_numbered("0", ""));
	assert_false(str_numbered("cpu", "cpu"));
	assert_false(str_numbered("cpu1a", "cpu"));
	assert_false(str_numbered("", ""));
	assert_false(str_numbered("policy0", "cpu"));
	assert_int_equal(str_edit_distance("govenor", "governor"), 1);
	assert_int_equal(str_edit_distance("", "abc"), 3);
	assert_null(str_closest("zzzzzz", (const char *const[]){ "governor", "boost", NULL }));
	assert_string_equal(str_closest("bost", (const char *const[]){ "governor", "boost", NULL }), "boost");
	struct strv l = {0};
	strv_split(" 1, all ,,8 ", " ,", &l);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[1], "all");
	_cleanup_free_ char *joined = strv_join(&l, " -> ");
	assert_string_equal(joined, "1 -> all -> 8");
	strv_free(&l);
	_cleanup_free_ char *none = strv_join(&l, ", ");
	assert_string_equal(none, "");
}

/* A throwaway root with absolute and relative symlinks. */
static char *make_root(void)
{
	char tmpl[] = "/tmp/ubtune-test-XXXXXX";
	char *d = mkdtemp(tmpl);
	assert_non_null(d);
	char *root = xstrdup(d);
	_cleanup_free_ char *cmd = xasprintf(
		"set -e; cd %s; mkdir -p sys/devices/x/block/sda/queue sys/block proc etc;"
		"echo 'none [mq-deadline] kyber' > sys/devices/x/block/sda/queue/scheduler;"
		"ln -s ../devices/x/block/sda sys/block/sda;"
		"ln -s /sys/devices/x/block/sda sys/block/abs;"
		"ln -s ../../../../../../../etc/passwd sys/block/escape;"
		"echo 1234 > proc/num; echo 'root:x:0:0' > etc/passwd;"
		"ln -s loop1 sys/loop2; ln -s loop2 sys/loop1",
		root);
	assert_int_equal(system(cmd), 0);
	return root;
}

static void rm_root(char *root)
{
	_cleanup_free_ char *cmd = xasprintf("rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	free(root);
}

static void rootfs_resolves_inside(void **state)
{
	char *root = make_root();
	struct rootfs *rf;
	assert_int_equal(rootfs_new(root, &rf), 0);
	assert_false(rootfs_is_live(rf));

	char *cur;
	struct strv all = {0};
	assert_int_equal(rootfs_read_choice(rf, "/sys/block/sda/queue/scheduler", &cur, &all), 0);
	assert_string_equal(cur, "mq-deadline");
	assert_int_equal(all.n, 3);
	free(cur);
	strv_free(&all);

	/* an absolute symlink resolves inside the root, not on the host */
	_cleanup_free_ char *real = NULL;
	assert_int_equal(rootfs_realpath(rf, "/sys/block/abs/queue", &real), 0);
	assert_string_equal(real, "/sys/devices/x/block/sda/queue");

	/* ".." cannot climb out of the root */
	_cleanup_free_ char *pw = NULL;
	assert_int_equal(rootfs_read_line(rf, "/sys/block/escape", &pw), 0);
	assert_string_equal(pw, "root:x:0:0");

	uint64_t n;
	assert_int_equal(rootfs_read_u64(rf, "/proc/num", &n), 0);
	assert_int_equal(n, 1234);
	assert_int_equal(rootfs_read_u64(rf, "/proc/none", &n), -ENOENT);
	_cleanup_free_ char *attr = rootfs_read_attr(rf, "/proc", "num");
	assert_string_equal(attr, "1234");
	assert_null(rootfs_read_attr(rf, "/proc", "none"));
	assert_int_equal(rootfs_exists(rf, "/sys/loop1"), -ELOOP);

	_cleanup_free_ char *base = NULL;
	assert_int_equal(rootfs_readlink_base(rf, "/sys/block/sda", &base), 0);
	assert_string_equal(base, "sda");

	struct strv l = {0};
	assert_int_equal(rootfs_list(rf, "/sys/block", &l), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "abs");
	strv_free(&l);

	rootfs_free(rf);
	rm_root(root);
}

static void rootfs_traces_reads(void **state)
{
	char *root = make_root();
	struct rootfs *rf;
	assert_int_equal(rootfs_new(root, &rf), 0);
	rootfs_trace_start(rf);
	_cleanup_free_ char *s = NULL;
	assert_int_equal(rootfs_read_line(rf, "/sys/block/sda/queue/scheduler", &s), 0);
	size_t n;
	const struct rootfs_trace_entry *e = rootfs_trace_entries(rf, &n);
	assert_int_equal(n, 2);
	assert_int_equal(e[0].kind, TRACE_LINK);
	assert_string_equal(e[0].path, "/sys/block/sda");
	assert_int_equal(e[1].kind, TRACE_FILE);
	assert_string_equal(e[1].path, "/sys/devices/x/block/sda/queue/scheduler");
	/* the bytes read are kept, for an archive of what was seen */
	assert_string_equal(e[1].data, "none [mq-deadline] kyber\n");
	assert_int_equal(e[1].len, strlen("none [mq-deadline] kyber\n"));
	assert_null(e[0].data);
	/* read again after a change: the traced probe keeps one snapshot */
	_cleanup_free_ char *cmd = xasprintf("echo '[none] kyber' >%s/sys/devices/x/block/sda/queue/scheduler", root);
	assert_int_equal(system(cmd), 0);
	_cleanup_free_ char *again = NULL;
	assert_int_equal(rootfs_read_line(rf, "/sys/block/sda/queue/scheduler", &again), 0);
	assert_string_equal(again, "none [mq-deadline] kyber");
	rootfs_trace_entries(rf, &n);
	assert_int_equal(n, 2);
	rootfs_trace_add_data(rf, "/dmesg", "line\n", 5);
	e = rootfs_trace_entries(rf, &n);
	assert_int_equal(n, 3);
	assert_string_equal(e[2].path, "/dmesg");
	assert_string_equal(e[2].data, "line\n");
	rootfs_free(rf);
	rm_root(root);
}

/* remove_tree() at any depth: deeper than open files, the old limit of
 * 256 and PATH_MAX allow, with files and a symlink out of the tree on the
 * way, which stays where it points. */
static void deep_tree_removed(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ubtune-test-deep-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	_cleanup_free_ char *outside = xasprintf("%s-outside", tmpl);
	assert_int_equal(mkdir(outside, 0700), 0);
	_cleanup_free_ char *kept = xasprintf("%s/kept", outside);
	assert_int_equal(write_file_atomic(kept, "x", 0600), 0);
	int fd = open(tmpl, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	/* 600 levels of 10 characters: 6000, beyond PATH_MAX */
	for (int i = 0; i < 600; i++) {
		assert_int_equal(mkdirat(fd, "directory", 0700), 0);
		if (i % 100 == 0) {
			int f = openat(fd, "file", O_WRONLY | O_CREAT, 0600);
			assert_true(f >= 0);
			close(f);
			assert_int_equal(symlinkat(outside, fd, "link"), 0);
		}
		int next = openat(fd, "directory", O_RDONLY | O_DIRECTORY);
		assert_true(next >= 0);
		close(fd);
		fd = next;
	}
	close(fd);
	assert_int_equal(remove_tree(tmpl), 0);
	assert_int_equal(access(tmpl, F_OK), -1);
	assert_int_equal(access(kept, F_OK), 0);
	assert_int_equal(remove_tree(outside), 0);
}

/* What a terminal would act on becomes visible; text, UTF-8 included, stays. */
static void controls_escaped(void **state)
{
	(void)state;
	assert_null(str_escape_controls("plain text, \xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"));
	_cleanup_free_ char *a = str_escape_controls("a\x1b[2Jb\x07\n\t\r\x7f");
	assert_string_equal(a, "a\\x1b[2Jb\\x07\n\t\\x0d\\x7f");
	/* C1 CSI (U+009B), and bytes that are no UTF-8 */
	_cleanup_free_ char *b = str_escape_controls("x\xc2\x9b" "2Jy\xff\xc3");
	assert_string_equal(b, "x\\u009b2Jy\\xff\\xc3");
	_cleanup_json_ json_object *o = json_lit("{\"host\": \"h\\u001b]0;t\\u0007\", \"n\": 1, \"v\": [\"ok\", \"\\r\"]}");
	json_escape_controls(o);
	assert_jstr(o, "host", "h\\x1b]0;t\\x07");
	assert_jstr(o, "v.0", "ok");
	assert_jstr(o, "v.1", "\\x0d");
}

static void files_and_json(void **state)
{
	char *root = make_root();
	_cleanup_free_ char *num = xasprintf("%s/proc/num", root), *dir = xasprintf("%s/proc", root);
	char *text = NULL;
	size_t len = 0;
	assert_int_equal(read_file(num, 64, &text, &len), 0);
	assert_string_equal(text, "1234\n");
	assert_int_equal(len, 5);
	free(text);
	assert_int_equal(read_file(num, 4, &text, &len), -EFBIG);
	assert_int_equal(read_file(dir, 64, &text, &len), -EISDIR);
	assert_int_equal(read_file("/dev/null", 64, &text, &len), -EINVAL);

	json_object *o = NULL;
	assert_int_equal(jload_string(" {\"a\": 1}\n", &o), 0);
	json_object_put(o);
	/* one value, nothing after it */
	assert_int_equal(jload_string("{\"a\": 1} {\"b\": 2}", &o), -EBADMSG);
	assert_int_equal(jload_string("1 x", &o), -EBADMSG);
	assert_int_equal(jload_string("{\"a\": ", &o), -EBADMSG);
	assert_int_equal(jload_file(num, JSON_FILE_MAX, &o), 0);
	assert_int_equal(json_object_get_int(o), 1234);
	json_object_put(o);
	assert_int_equal(jload_file(num, 2, &o), -EFBIG);

	_cleanup_free_ char *file = xasprintf("%s/etc/new.json", root);
	assert_int_equal(write_file_atomic(file, "{\"b\": 2}\n", 0640), 0);
	assert_int_equal(write_file_atomic(file, "{\"b\": 3}\n", 0640), 0);
	assert_int_equal(jload_file(file, JSON_FILE_MAX, &o), 0);
	assert_int_equal(json_object_get_int(json_object_object_get(o, "b")), 3);
	json_object_put(o);
	struct stat st;
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	_cleanup_free_ char *missing = xasprintf("%s/nodir/x.json", root);
	assert_int_equal(write_file_atomic(missing, "{}", 0644), -ENOENT);
	rm_root(root);
}

/* A line redrawn in place is cut to the columns, never inside a character. */
static void fit_to_columns(void **state)
{
	assert_int_equal(term_fit("abcdef", 4), 4);
	assert_int_equal(term_fit("abc", 10), 3);
	assert_int_equal(term_fit("abc", 0), 0);
	/* "µ" is two bytes and one column: never cut in its middle */
	assert_int_equal(term_fit("a\xc2\xb5s", 2), 3);
	assert_int_equal(term_fit("a\xc2\xb5s", 1), 1);
	assert_int_equal(term_fit("\xe2\x80\x94-", 1), 3);
}

static const struct table_column table_cols[] = {
	{ .head = "ID", .flags = TABLE_RIGHT },
	{ .head = "WHEN", .drop = 1 },
	{ .head = "NAME", .flags = TABLE_WRAP },
	{ .head = "µs", .flags = TABLE_RIGHT },
};

/* What table_print() writes for a table of two rows at width (with hint
 * when not NULL); *dropped is how many columns it left out. */
static char *table_text(size_t width, size_t *dropped, const char *hint)
{
	struct table *t = table_new(table_cols, ARRAY_SIZE(table_cols), 0, 2);
	if (hint)
		table_set_hint(t, hint);
	table_addv(t, "1", "2026-01-01", "Pipe-based Context Switching", "12.5");
	table_addv(t, "12", "2026-01-02", "Execl", "1234.5");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	*dropped = table_print(t, f, width);
	assert_int_equal(fclose(f), 0);
	table_free(t);
	return text;
}

/* Headers over their values, widths in characters ("µs" is two bytes);
 * narrower, the text column wraps at its spaces and numbers stay whole;
 * narrower still, an optional column is left out, said to be, and the
 * text column widens again; what cannot give way more is printed as it is. */
static void table_fits_width(void **state)
{
	static const struct {
		size_t width, dropped;
		const char *text;
	} cases[] = {
		{ 80, 0,
		  "ID  WHEN        NAME                              \xc2\xb5s\n"
		  " 1  2026-01-01  Pipe-based Context Switching    12.5\n"
		  "12  2026-01-02  Execl                         1234.5\n" },
		{ 40, 0,
		  "ID  WHEN        NAME                  \xc2\xb5s\n"
		  " 1  2026-01-01  Pipe-based          12.5\n"
		  "                Context\n"
		  "                Switching\n"
		  "12  2026-01-02  Execl             1234.5\n" },
		{ 30, 1,
		  "ID  NAME                    \xc2\xb5s\n"
		  " 1  Pipe-based Context    12.5\n"
		  "    Switching\n"
		  "12  Execl               1234.5\n"
		  "(left out to fit 30 columns:\n"
		  " WHEN; --width shows more)\n" },
		{ 20, 1,
		  "ID  NAME            \xc2\xb5s\n"
		  " 1  Pipe-based    12.5\n"
		  "    Context\n"
		  "    Switching\n"
		  "12  Execl       1234.5\n"
		  "(left out to fit 20\n"
		  " columns: WHEN;\n"
		  " --width shows more)\n" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t dropped;
		_cleanup_free_ char *text = table_text(cases[i].width, &dropped, NULL);
		assert_int_equal(dropped, cases[i].dropped);
		assert_string_equal(text, cases[i].text);
	}
	/* a table of its own says what else shows the columns */
	size_t dropped;
	_cleanup_free_ char *hinted = table_text(30, &dropped, "--json shows them");
	assert_int_equal(dropped, 1);
	assert_non_null(strstr(hinted, "12  Execl               1234.5\n"
					"(left out to fit 30 columns:\n"
					" WHEN; --json shows them)\n"));
}

/* A column marked TABLE_UNDER stays beside the others while it has its
 * room (the text columns narrowed to their min), else it goes under its row, wrapped from one gap past the second
 * column's start, and is not said to be left out; a row with an empty
 * cell there has no line under it. */
static void table_under_rows(void **state)
{
	static const struct table_column cols[] = {
		{ .head = "area" },
		{ .head = "what", .flags = TABLE_WRAP, .min = 12 },
		{ .head = "to", .flags = TABLE_RIGHT },
		{ .head = "why", .flags = TABLE_WRAP | TABLE_UNDER, .min = 16, .drop = 1 },
	};
	static const struct {
		size_t width;
		const char *text;
	} cases[] = {
		{ 80,
		  "area  what              to  why\n"
		  "cpu   policy0 governor   1  [cpu] governor (a.profile:3)\n"
		  "io    sda scheduler      2\n" },
		{ 40,
		  "area  what          to  why\n"
		  "cpu   policy0        1  [cpu] governor\n"
		  "      governor          (a.profile:3)\n"
		  "io    sda            2\n"
		  "      scheduler\n" },
		{ 30,
		  "area  what              to\n"
		  "cpu   policy0 governor   1\n"
		  "        [cpu] governor\n"
		  "        (a.profile:3)\n"
		  "io    sda scheduler      2\n" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct table *t = table_new(cols, ARRAY_SIZE(cols), 0, 2);
		table_addv(t, "cpu", "policy0 governor", "1", "[cpu] governor (a.profile:3)");
		table_addv(t, "io", "sda scheduler", "2", NULL);
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		assert_non_null(f);
		assert_int_equal(table_print(t, f, cases[i].width), 0);
		assert_int_equal(fclose(f), 0);
		table_free(t);
		assert_string_equal(text, cases[i].text);
		free(text);
	}
}

/* A word longer than a text column's min (a path) is cut at last, before
 * the other text columns pass their min. */
static void table_cuts_long_words(void **state)
{
	static const struct table_column cols[] = {
		{ .head = "HOST", .flags = TABLE_WRAP, .min = 6 },
		{ .head = "score", .flags = TABLE_RIGHT },
		{ .head = "off in", .flags = TABLE_WRAP, .min = 9 },
	};
	struct table *t = table_new(cols, ARRAY_SIZE(cols), 0, 2);
	table_addv(t, "vm (logs/v6/vm-01)", "1084.8", "low: dhry fc1k");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(table_print(t, f, 26), 0);
	assert_int_equal(fclose(f), 0);
	table_free(t);
	/* the longest words take 29 columns: the host is cut, "off in" keeps its 9 */
	assert_string_equal(text, "HOST      score  off in\n"
				  "vm       1084.8  low: dhry\n"
				  "(logs/v          fc1k\n"
				  "6/vm-01\n"
				  ")\n");
	free(text);
}

/* Wrapped text counts characters, not bytes, and indents what follows. */
static void wrapped_text(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fputs("Note: ", f);
	term_print_wrapped(f, "held at 55 \xc2\xb0" "C for 10 \xc2\xb5s then cooler", 6, 20);
	fclose(f);
	assert_string_equal(text, "Note: held at 55 \xc2\xb0" "C\n      for 10 \xc2\xb5s then\n      cooler\n");
	free(text);
	/* a path longer than a line: on lines of its own, cut after a '/' */
	f = open_memstream(&text, &len);
	fputs("ev ", f);
	term_print_wrapped(f, "at /sys/devices/system/cpu/cpufreq/policy0/energy_performance_preference = x", 3, 30);
	fclose(f);
	assert_string_equal(text, "ev at\n   /sys/devices/system/cpu/\n   cpufreq/policy0/\n   energy_performance_preferen\n"
				  "   ce = x\n");
	free(text);
	/* the same in a line of items: the probe's "Dump" line of a deep dump */
	f = open_memstream(&text, &len);
	fputs("Dump ", f);
	term_print_items(f, "/tmp/tmp.5niCBVYpKo/c/tests/fixtures/roots/laptop-battery-powersave \xc2\xb7 x", " \xc2\xb7 ", 5, 50);
	fclose(f);
	assert_string_equal(text, "Dump /tmp/tmp.5niCBVYpKo/c/tests/fixtures/roots/\n     laptop-battery-powersave \xc2\xb7 x\n");
	free(text);
}

static void rootfs_rejects_bad_roots(void **state)
{
	struct rootfs *rf;
	assert_int_equal(rootfs_new("/nonexistent/ubtune", &rf), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpuset_lists),
		cmocka_unit_test(cpuset_masks),
		cmocka_unit_test(deep_tree_removed),
		cmocka_unit_test(controls_escaped),
		cmocka_unit_test(files_and_json),
		cmocka_unit_test(numbers_and_strings),
		cmocka_unit_test(rootfs_resolves_inside),
		cmocka_unit_test(rootfs_traces_reads),
		cmocka_unit_test(rootfs_rejects_bad_roots),
		cmocka_unit_test(fit_to_columns),
		cmocka_unit_test(table_fits_width),
		cmocka_unit_test(table_under_rows),
		cmocka_unit_test(table_cuts_long_words),
		cmocka_unit_test(wrapped_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
