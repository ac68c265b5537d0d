/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes sqlhist statements: a parse either fails with EINVAL and a
 * position inside the text or gives a statement; a statement translated
 * against two fixed events either fails with EINVAL or gives one hist
 * trigger, or a synthetic event and two triggers, of the expected forms. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sqlhist/sqlhist.h"

#include "fuzz_check.h"

static const struct uft_field a_fields[] = {
    {"pid_t", "pid", 8, 4, 1, UFT_FIELD_SCALAR, 0},
    {"char", "comm[16]", 12, 16, 0, UFT_FIELD_ARRAY, 1},
    {"unsigned long", "addr", 32, 8, 0, UFT_FIELD_SCALAR, 0},
};
static const struct uft_field b_fields[] = {
    {"int", "next_pid", 8, 4, 1, UFT_FIELD_SCALAR, 0},
    {"__data_loc char[]", "name", 12, 4, 0, UFT_FIELD_DYN, 1},
    {"u16", "prio", 16, 2, 0, UFT_FIELD_SCALAR, 0},
};
static const struct uft_sql_event events[] = {
    {"sa", "a", a_fields, 3},
    {"sb", "b", b_fields, 3},
};

static int lookup(void *ctx, const char *system, const char *event, const struct uft_sql_event **ev)
{
	for (size_t i = 0; i < 2; i++)
		if ((!system || !strcmp(system, events[i].system)) &&
		    !strcmp(event, events[i].name)) {
			*ev = &events[i];
			return 0;
		}
	return -ENOENT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size, 4096);
	if (!text)
		return 0;

	struct uft_sql_error err = {.pos = -1};
	struct uft_sql *q;
	int rc = uft_sql_parse(text, &q, &err);
	if (rc) {
		CHECK(rc == -EINVAL || rc == -ENOMEM);
		CHECK(rc == -ENOMEM || (err.pos >= 0 && (size_t)err.pos <= strlen(text)));
		CHECK(rc == -ENOMEM || err.msg[0]);
		free(text);
		return 0;
	}
	CHECK(q->nr_sels > 0 && q->from.name);
	CHECK(!q->has_join || (q->join.name && q->nr_matches > 0));

	struct uft_sql_opts o = {.name = "f", .rand = 77, .onmax = size & 1 ? "x" : NULL};
	struct uft_sql_out out;
	rc = uft_sql_translate(q, size & 2 ? &o : NULL, lookup, NULL, &out, &err);
	if (rc) {
		CHECK(rc == -EINVAL || rc == -ENOMEM);
		CHECK(rc == -ENOMEM || err.msg[0]);
	} else if (!q->has_join) {
		CHECK(out.nr == 1 && !out.synth);
		CHECK(!strncmp(out.cmd[0].text, "hist:keys=", 10));
		CHECK(!strncmp(out.cmd[0].file, "events/", 7));
	} else {
		CHECK(out.nr == 3 && out.synth);
		CHECK(!strcmp(out.cmd[0].file, "dynamic_events"));
		CHECK(!strncmp(out.cmd[0].text, "s:", 2));
		CHECK(!strncmp(out.cmd[1].text, "hist:keys=", 10));
		CHECK(!strncmp(out.cmd[2].text, "hist:keys=", 10));
		CHECK(strstr(out.cmd[2].text, ".trace(") || strstr(out.cmd[2].text, "(x)"));
	}
	if (!rc)
		uft_sql_out_free(&out);
	uft_sql_free(q);
	free(text);
	return 0;
}
