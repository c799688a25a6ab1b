/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ubtune-execl SECONDS: the image Execl Throughput re-executes (see
 * execl.c). A program of its own so that it links libc only, as
 * UnixBench's execl does; the array below gives it UnixBench's 8 KiB of bss.
 */
#include "workloads.h"

char execl_image_bss[8 * 1024];

int main(int argc, char **argv)
{
	return wl_image_main(argc, argv, "execl", "SECONDS", execl_main);
}
