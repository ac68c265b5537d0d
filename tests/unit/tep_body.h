/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What libtraceevent prints for a record of an event described by its fields
 * and print fmt: the judge the format and rendering tests compare against. */
#ifndef UFT_TEST_TEP_BODY_H
#define UFT_TEST_TEP_BODY_H

#include <stdio.h>

#include <event-parse.h>

#include "engine/format/format.h"

/* What libtraceevent prints for the record, into out. */
static inline void tep_body(const char *print_fmt, const struct uft_field *fields, uint32_t nr,
			    const uint8_t *rec, uint32_t len, char *out, size_t outlen)
{
	struct uft_event ev = {
	    .system = "uft",
	    .name = "t",
	    .fields = fields,
	    .nr_fields = nr,
	    .print_fmt = print_fmt,
	};
	char text[32768];
	int n = uft_format_text(&ev, 200, text, sizeof(text));
	assert_true(n > 0 && n < (int)sizeof(text));

	struct tep_handle *tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	if (tep_parse_event(tep, text, (unsigned long)n, "uft"))
		fail_msg("libtraceevent rejects:\n%s", text);
	struct tep_record r = {.data = (void *)rec, .size = (int)len};
	struct trace_seq s;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	snprintf(out, outlen, "%s", s.buffer);
	trace_seq_destroy(&s);
	tep_free(tep);
}

#endif
