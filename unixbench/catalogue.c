/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every test of UnixBench 5.1.x and 6.x as its reports name it
 * (Run's "logmsg"), with the baselines of pgms/index.base. */
#include "unixbench/catalogue.h"

#include "lib/util.h"

static const struct ub_test_info tests[] = {
	{ "dhry2reg", "Dhrystone 2 using register variables", "lps", "system", 116700 },
	{ "whetstone-double", "Double-Precision Whetstone", "MWIPS", "system", 55.0 },
	{ "execl", "Execl Throughput", "lps", "system", 43.0 },
	{ "fstime", "File Copy 1024 bufsize 2000 maxblocks", "KBps", "system", 3960 },
	{ "fsbuffer", "File Copy 256 bufsize 500 maxblocks", "KBps", "system", 1655 },
	{ "fsdisk", "File Copy 4096 bufsize 8000 maxblocks", "KBps", "system", 5800 },
	{ "pipe", "Pipe Throughput", "lps", "system", 12440 },
	{ "context1", "Pipe-based Context Switching", "lps", "system", 4000 },
	{ "spawn", "Process Creation", "lps", "system", 126 },
	{ "shell1", "Shell Scripts (1 concurrent)", "lpm", "system", 42.4 },
	{ "shell8", "Shell Scripts (8 concurrent)", "lpm", "system", 6 },
	{ "syscall", "System Call Overhead", "lps", "system", 15000 },
	{ "fstime-w", "File Write 1024 bufsize 2000 maxblocks", "KBps", "system", 0 },
	{ "fstime-r", "File Read 1024 bufsize 2000 maxblocks", "KBps", "system", 0 },
	{ "fsbuffer-w", "File Write 256 bufsize 500 maxblocks", "KBps", "system", 0 },
	{ "fsbuffer-r", "File Read 256 bufsize 500 maxblocks", "KBps", "system", 0 },
	{ "fsdisk-w", "File Write 4096 bufsize 8000 maxblocks", "KBps", "system", 0 },
	{ "fsdisk-r", "File Read 4096 bufsize 8000 maxblocks", "KBps", "system", 0 },
	{ "shell16", "Shell Scripts (16 concurrent)", "lpm", "system", 0 },
	{ "2d-rects", "2D graphics: rectangles", "score", "2d", 15 },
	{ "2d-lines", "2D graphics: lines", "score", "2d", 0 },
	{ "2d-circle", "2D graphics: circles", "score", "2d", 0 },
	{ "2d-ellipse", "2D graphics: ellipses", "score", "2d", 15 },
	{ "2d-shapes", "2D graphics: polygons", "score", "2d", 0 },
	{ "2d-aashapes", "2D graphics: aa polygons", "score", "2d", 15 },
	{ "2d-polys", "2D graphics: complex polygons", "score", "2d", 0 },
	{ "2d-text", "2D graphics: text", "score", "2d", 15 },
	{ "2d-blit", "2D graphics: images and blits", "score", "2d", 15 },
	{ "2d-window", "2D graphics: windows", "score", "2d", 15 },
	{ "ubgears", "3D graphics: gears", "fps", "3d", 33.4 },
	/* the compiler's name follows in parentheses: matched as a prefix */
	{ "C", "C Compiler Throughput", "lpm", "misc", 0 },
	{ "arithoh", "Arithoh", "lps", "misc", 0 },
	{ "short", "Arithmetic Test (short)", "lps", "misc", 0 },
	{ "int", "Arithmetic Test (int)", "lps", "misc", 0 },
	{ "long", "Arithmetic Test (long)", "lps", "misc", 0 },
	{ "float", "Arithmetic Test (float)", "lps", "misc", 0 },
	{ "double", "Arithmetic Test (double)", "lps", "misc", 0 },
	{ "dc", "Dc: sqrt(2) to 99 decimal places", "lpm", "misc", 0 },
	{ "hanoi", "Recursion Test -- Tower of Hanoi", "lps", "misc", 0 },
	{ "grep", "Grep a large file (system's grep)", "lpm", "misc", 1 },
	{ "sysexec", "Exec System Call Overhead", "lps", "misc", 25 },
};

const struct ub_test_info *ub_test_at(size_t i)
{
	return i < ARRAY_SIZE(tests) ? &tests[i] : NULL;
}

const struct ub_test_info *ub_test_by_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		if (streq(tests[i].name, name))
			return &tests[i];
		const char *rest = streq(tests[i].id, "C") ? startswith(name, tests[i].name) : NULL;
		if (rest && rest[0] == ' ' && rest[1] == '(' && endswith(rest, ")"))
			return &tests[i];
	}
	return NULL;
}
