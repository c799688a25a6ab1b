/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * Standard input given as "-" where results are read. A pipe is read once
 * into an unnamed temporary file that becomes standard input, so that what
 * it holds can be looked at and then read from the start by any reader.
 * Returns the name to load: arg itself, or for "-" holding a result record
 * (JSON) "/dev/stdin", which the result readers open as a file. On failure
 * (a temporary file that cannot be written) -errno, said on stderr.
 */
int stdin_input(const char *arg, const char **out);
