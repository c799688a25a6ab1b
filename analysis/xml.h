/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

/*
 * Writing SVG and (X)HTML that any XML parser accepts: text from records
 * and logs is escaped here, never used as a format.
 */

/* Text content or attribute value: & < > " ' escaped; control characters
 * other than tab and line feed dropped (XML 1.0 forbids them), bytes that
 * are not UTF-8 written as '?'. */
void xml_escape(FILE *out, const char *s);

/* <tag attrs>escaped text</tag>; attrs is a literal of the caller. */
void xml_element(FILE *out, const char *tag, const char *attrs, const char *text);
