/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes user-event registration strings: a string either fails with a
 * reason, or gives a definition whose fields are packed from offset 8,
 * whose listing line parses back to the same event, and whose texts and
 * field table are made; then the input's tail, as a record, is checked
 * without reading past it. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/uevent/uevent.h"

#include "fuzz_check.h"

static void check_def(const struct uft_uev_def *d)
{
	CHECK(d->name && d->name[0] && d->nr <= UFT_UEV_FIELDS_MAX);
	uint32_t off = 8;
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct uft_uev_field *f = &d->f[i];
		CHECK(f->offset == off && f->size >= 1 && f->type && f->name && f->name[0]);
		CHECK(f->kind <= UFT_UEV_STRUCT);
		if (f->kind == UFT_UEV_DATA_LOC || f->kind == UFT_UEV_REL_LOC)
			CHECK(f->size == 4);
		off += f->size;
	}
	CHECK(d->size == off && d->size <= UFT_UEV_RECORD_MAX);

	char *list = uft_uev_listing(d);
	CHECK(list);
	struct uft_uev_def again;
	const char *why;
	CHECK(uft_uev_parse(list, &again, &why) == 0);
	CHECK(uft_uev_same(d, &again) && again.size == d->size);
	uft_uev_def_free(&again);
	free(list);
	char *fmt = uft_uev_print_fmt(d);
	CHECK(fmt && fmt[0] == '"');
	free(fmt);
	struct uft_field *fl = uft_uev_fields(d);
	CHECK(fl);
	uft_uev_fields_free(fl, d->nr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The string up to the first NUL; what follows is a record. */
	const uint8_t *nul = memchr(data, 0, size);
	size_t n = nul ? (size_t)(nul - data) : size;
	char *text = fuzz_text(data, n, UFT_UEV_DEF_MAX + 16);
	if (!text)
		return 0;
	struct uft_uev_def d;
	const char *why = NULL;
	int rc = uft_uev_parse(text, &d, &why);
	CHECK(rc == 0 || rc == -EINVAL || rc == -E2BIG || rc == -ENOMEM);
	if (rc == 0) {
		check_def(&d);
		if (nul) {
			size_t rl = size - n - 1;
			uint8_t *rec = malloc(rl + 1);
			CHECK(rec);
			memcpy(rec, nul + 1, rl);
			int v = rl > UINT32_MAX ? -E2BIG : uft_uev_validate(&d, rec, (uint32_t)rl);
			CHECK(v == 0 || v == -EINVAL || v == -E2BIG || v == -EFAULT);
			if (v == 0)
				CHECK(rl >= d.size && rl <= UFT_UEV_RECORD_MAX);
			free(rec);
		}
		uft_uev_def_free(&d);
	} else {
		CHECK(why && d.name == NULL && d.f == NULL);
	}
	free(text);
	return 0;
}
