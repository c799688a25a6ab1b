/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "analysis/load.h"

/*
 * The RESULT arguments of compare and report: loads them all, or says on
 * stderr what failed and returns the exit status (EXIT_OK when loaded).
 */
int load_result_args(char *const *args, size_t nargs, size_t min, struct loaded_inputs *li);
