/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes synthetic event definitions: a line either fails with a message
 * whose caret lies inside the command, or gives a definition whose layout
 * holds together and whose listing line parses back to the same fields. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/synth/synth.h"

#include "fuzz_check.h"

static void check_def(const struct uft_synth_def *d)
{
	CHECK(d->nr >= 1 && d->nr < UFT_SYNTH_FIELDS_MAX);
	uint32_t off = 8;
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct uft_synth_field *f = &d->f[i];
		CHECK(f->offset == off && f->type && f->name && f->name[0]);
		CHECK(f->kind <= UFT_SYNTH_STACK);
		if (f->kind == UFT_SYNTH_STR)
			CHECK(f->len >= 1 && f->len <= UFT_SYNTH_STR_MAX && f->size == f->len);
		else
			CHECK(f->size >= 1 && f->size <= 8);
		off += f->kind == UFT_SYNTH_STR ? UFT_SYNTH_STR_MAX : 8;
	}
	CHECK(d->fixed_size == off);
	char *fmt = uft_synth_print_fmt(d);
	CHECK(fmt && fmt[0] == '"');
	free(fmt);

	/* The listing line, as synthetic_events shows it, defines the same. */
	char *desc = uft_synth_desc(d);
	CHECK(desc);
	struct uft_synth_cmd c;
	struct uft_synth_error e;
	int rc = uft_synth_parse(desc, false, NULL, NULL, &c, &e);
	CHECK(rc == 0 && c.op == UFT_SYNTH_OP_CREATE && c.def.nr == d->nr);
	for (uint32_t i = 0; i < d->nr; i++) {
		CHECK(strcmp(c.def.f[i].type, d->f[i].type) == 0);
		CHECK(strcmp(c.def.f[i].name, d->f[i].name) == 0);
		CHECK(c.def.f[i].offset == d->f[i].offset && c.def.f[i].kind == d->f[i].kind);
	}
	uft_synth_cmd_free(&c);
	free(desc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size, 4096);
	if (!text)
		return 0;
	for (int dyn = 0; dyn < 2; dyn++) {
		struct uft_synth_cmd c;
		struct uft_synth_error e;
		int rc = uft_synth_parse(text, dyn, NULL, NULL, &c, &e);
		if (rc) {
			CHECK(rc == -EINVAL || rc == -ENOMEM);
			if (e.msg) {
				size_t n = strlen(text);
				CHECK(e.cmd_off <= n && e.pos <= n - e.cmd_off);
			}
		} else if (c.op == UFT_SYNTH_OP_CREATE) {
			check_def(&c.def);
		} else if (c.op == UFT_SYNTH_OP_DELETE) {
			CHECK(c.name);
		}
		uft_synth_cmd_free(&c);
	}
	free(text);
	return 0;
}
