/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The helpers every layer uses, one header per idea; this header includes
 * them all (and the C library headers they used to bring), so that a file
 * needs one include for the everyday ones.
 */

#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "fileio.h"
#include "macro.h"
#include "parse-number.h"
#include "str.h"
#include "strv.h"
#include "time-util.h"
