/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "export/json_out.h"

void json_str(FILE *f, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	putc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			putc('\\', f);
			putc(c, f);
		} else if (c < 0x20 || c >= 0x7f || c == '<') {
			fputs("\\u00", f);
			putc(hex[c >> 4], f);
			putc(hex[c & 15], f);
		} else {
			putc(c, f);
		}
	}
	putc('"', f);
}

void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			/* XML 1.0 has no other control characters. */
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				putc(*s, f);
		}
	}
}

void json_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%03u", (unsigned long long)(ns / 1000), (unsigned)(ns % 1000));
}
