/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ubtune-spawn SECONDS: Process Creation (see spawn.c), which
 * `ubtune-workloads spawn` runs. A program of its own, small as
 * UnixBench's spawn is: in a static build the child runs glibc's fork and
 * exit code wherever the linker put it, and in the multi-call program that
 * code spreads over more 64 KiB windows of text, each a page fault (the
 * kernel's fault-around) in every child.
 */
#include "workloads.h"

int main(int argc, char **argv)
{
	return wl_image_main(argc, argv, "spawn", "SECONDS", spawn_main);
}
