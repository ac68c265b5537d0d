/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes trigger commands: a parse either fails with EINVAL or ERANGE or
 * gives a command whose parts, written back as a command, parse to the
 * same command; the trigger file's line for it renders. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/trigger/trigger.h"

#include "fuzz_check.h"

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size, 4096);
	if (!text)
		return 0;

	struct uft_trig_spec sp, again;
	int rc = uft_trigger_parse(text, &sp);
	if (rc) {
		CHECK(rc == -EINVAL || rc == -ERANGE || rc == -ENOMEM);
		free(text);
		return 0;
	}
	CHECK(sp.cmd >= 0 && sp.cmd < UFT_TRIG_NR_CMDS);
	if (sp.cmd == UFT_TRIG_HIST) { /* the rest is the histogram engine's */
		CHECK(sp.hist && strncmp(sp.hist, "hist", 4) == 0 && !sp.filter);
		uft_trigger_spec_free(&sp);
		free(text);
		return 0;
	}
	bool ev = uft_trigger_cmd_has_target(sp.cmd);
	CHECK(!ev || (sp.sys && sp.event));
	CHECK(sp.late_err == 0 || sp.late_err == -EINVAL || sp.late_err == -ERANGE);
	CHECK(!sp.filter || *sp.filter);

	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	CHECK(m);
	uft_trigger_print(m, sp.cmd, sp.sys, sp.event, sp.count, sp.filter);
	CHECK(fclose(m) == 0 && len > 0 && line[len - 1] == '\n');
	free(line);

	/* Written back in input syntax, the same command. Event names with
	 * separators in them cannot round-trip. */
	if (!sp.remove && !sp.late_err && (!ev || !strpbrk(sp.event, " \t"))) {
		char *back = NULL;
		size_t blen = 0;
		m = open_memstream(&back, &blen);
		CHECK(m);
		fputs(uft_trigger_cmd_name(sp.cmd), m);
		if (ev)
			fprintf(m, ":%s:%s", sp.sys, sp.event);
		if (sp.count != UFT_TRIG_UNLIMITED)
			fprintf(m, ":%llu", (unsigned long long)sp.count);
		if (sp.filter)
			fprintf(m, " if %s", sp.filter);
		CHECK(fclose(m) == 0);
		CHECK(uft_trigger_parse(back, &again) == 0);
		CHECK(again.cmd == sp.cmd && !again.remove && again.late_err == 0);
		CHECK(same(again.sys, sp.sys) && same(again.event, sp.event));
		/* An explicit count of the "unlimited" value reads back the same. */
		CHECK(again.count == sp.count);
		CHECK(same(again.filter, sp.filter) ||
		      (again.filter && sp.filter && strstr(sp.filter, again.filter)));
		uft_trigger_spec_free(&again);
		free(back);
	}
	uft_trigger_spec_free(&sp);
	free(text);
	return 0;
}
