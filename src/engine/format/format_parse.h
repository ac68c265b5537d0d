/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reads a kernel `format` file (Documentation/trace/events.rst, "Event formats") back into a field
 * table, so engines that work on struct uft_field (filters, histograms)
 * also run over events recorded elsewhere, the kernel's included. */
#ifndef UFT_FORMAT_PARSE_H
#define UFT_FORMAT_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include <uft/event.h>

struct uft_format_parsed {
	char *name;
	unsigned id;
	/* The event's own fields: every field but the common_* ones. Types
	 * and names (arrays keep their "[N]") are owned by this struct. */
	struct uft_field *fields;
	uint32_t nr_fields;
};

/* Parses `len` bytes of format text. Returns 0, -EINVAL when the text has
 * no "name:" line or a field line is malformed (offset or size missing,
 * not numbers, or past 64 KiB), or -ENOMEM. */
int uft_format_parse(const char *text, size_t len, struct uft_format_parsed *out);
void uft_format_parsed_free(struct uft_format_parsed *p);

#endif
