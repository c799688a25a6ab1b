/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "analysis/xml.h"

#include "unixbench/text.h"
#include "lib/util.h"

void xml_escape(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)p);
	while (*p) {
		unsigned cp;
		size_t len = utf8_decode(p, left, &cp);
		if (len == 0) {
			fputc('?', out);
			len = 1;
		} else if (cp == '&') {
			fputs("&amp;", out);
		} else if (cp == '<') {
			fputs("&lt;", out);
		} else if (cp == '>') {
			fputs("&gt;", out);
		} else if (cp == '"') {
			fputs("&quot;", out);
		} else if (cp == '\'') {
			fputs("&#39;", out);
		} else if (cp >= 0x20 || cp == '\t' || cp == '\n') {
			fwrite(p, 1, len, out);
		}
		p += len;
		left -= len;
	}
}

void xml_element(FILE *out, const char *tag, const char *attrs, const char *text)
{
	fprintf(out, "<%s%s%s>", tag, attrs && *attrs ? " " : "", attrs ? attrs : "");
	xml_escape(out, text);
	fprintf(out, "</%s>", tag);
}
