/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON and XML text helpers for the text exports. */
#ifndef UFT_EXPORT_JSON_OUT_H
#define UFT_EXPORT_JSON_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A JSON string with its quotes; bytes outside printable ASCII are
 * escaped as \u00XX, so the output is valid UTF-8 whatever the input, and
 * so is '<', so the string can sit in an HTML <script> element. */
void json_str(FILE *f, const char *s, size_t len);
/* Text for an XML attribute or element (& < > " ' escaped; control
 * characters other than newline and tab left out). */
void xml_text(FILE *f, const char *s);
/* A time in microseconds with nanosecond digits ("12.345"). */
void json_us(FILE *f, uint64_t ns);

#endif
