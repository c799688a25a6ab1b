/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * libFuzzer harnesses (make fuzz): each defines LLVMFuzzerTestOneInput()
 * over one parser of outside input. An input the parser refuses is fine;
 * a crash, a sanitizer report, a leak or a broken promise (abort()) is a
 * finding.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string: parsers of /proc text take one. Caller frees. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
