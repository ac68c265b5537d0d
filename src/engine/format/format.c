/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Generates the kernel `format` text of an event so that libtraceevent,
 * trace-cmd and uft itself can decode its records. */
#include "engine/format/format.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "engine/text/text_put.h"

static void put_field(struct uft_text *t, const char *type, const char *name, unsigned offset,
		      unsigned size, unsigned is_signed)
{
	uft_text_put(t, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%u;\n", type, name, offset,
		     size, is_signed ? 1u : 0u);
}

int uft_format_text(const struct uft_event *ev, unsigned id, char *buf, size_t len)
{
	struct uft_text t = {.buf = buf, .cap = len};
	const struct uft_field *fields;
	uint32_t nr;

	if (!ev || !ev->name)
		return -EINVAL;
	fields = ev->fields;
	nr = ev->nr_fields;
	if (!fields && ev->fields_fn)
		fields = ev->fields_fn(&nr);
	if (nr && !fields)
		return -EINVAL;
	for (uint32_t i = 0; i < nr; i++)
		if (!fields[i].type || !fields[i].name)
			return -EINVAL;
	if (len)
		buf[0] = '\0';

	uft_text_put(&t, "name: %s\nID: %u\nformat:\n", ev->name, id);
	put_field(&t, "unsigned short", "common_type", 0, 2, 0);
	put_field(&t, "unsigned char", "common_flags", 2, 1, 0);
	put_field(&t, "unsigned char", "common_preempt_count", 3, 1, 0);
	put_field(&t, "int", "common_pid", 4, 4, 1);
	uft_text_put(&t, "\n");
	/* Arrays carry [N] in the name and __data_loc types keep their []
	 * already, so every kind prints the same way. */
	for (uint32_t i = 0; i < nr; i++) {
		const struct uft_field *f = &fields[i];
		put_field(&t, f->type, f->name, f->offset, f->size, f->is_signed);
	}
	uft_text_put(&t, "\nprint fmt: %s\n", ev->print_fmt ? ev->print_fmt : "\"\"");
	return t.len > (size_t)__INT_MAX__ ? -EOVERFLOW : (int)t.len;
}
