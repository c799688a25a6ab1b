/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ubtune-whetstone [-t TARGET_SECONDS]: Double-Precision Whetstone (see
 * whetstone.c), which `ubtune-workloads whetstone-double` runs. A program
 * of its own because it is the only workload that links libm, as
 * UnixBench's whetstone-double is.
 */
#include "workloads.h"

int main(int argc, char **argv)
{
	return wl_image_main(argc, argv, "whetstone-double", "[-t TARGET_SECONDS]", whetstone_main);
}
