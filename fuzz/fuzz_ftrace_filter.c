/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes the tokens of set_ftrace_filter and friends: each whitespace-free
 * token either fails with EINVAL or parses into parts that, written back in
 * the file's syntax, parse to the same token. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/trigger/ftrace_filter.h"

#include "fuzz_check.h"

static void check_token(char *tok)
{
	struct uft_ff_token t, again;
	int rc = uft_ff_parse_token(tok, &t);
	if (rc) {
		CHECK(rc == -EINVAL);
		return;
	}
	CHECK(t.func && *t.func);
	CHECK(t.cmd >= UFT_FF_SELECT && t.cmd < UFT_FF_NR_CMDS);
	CHECK(t.count == UFT_FF_UNLIMITED || t.count >= 0);
	CHECK(t.cmd == UFT_FF_SELECT || (!t.mod && !t.line));
	CHECK(!t.mod || (t.cmd == UFT_FF_SELECT && *t.mod));
	CHECK(t.count == UFT_FF_UNLIMITED || t.cmd != UFT_FF_SELECT);
	bool targeted = t.cmd == UFT_FF_ENABLE_EVENT || t.cmd == UFT_FF_DISABLE_EVENT;
	CHECK(targeted == (t.sys != NULL) && targeted == (t.event != NULL));
	CHECK(!targeted || (*t.sys && *t.event && !strchr(t.sys, ':') && !strchr(t.event, ':')));

	char back[1200];
	char cmd[540];
	if (targeted)
		snprintf(cmd, sizeof(cmd), "%s:%s:%s", uft_ff_cmd_name(t.cmd), t.sys, t.event);
	else
		snprintf(cmd, sizeof(cmd), "%s", uft_ff_cmd_name(t.cmd));
	int n;
	if (t.mod)
		n = snprintf(back, sizeof(back), "%s%s:mod:%s", t.remove ? "!" : "", t.func, t.mod);
	else if (t.cmd != UFT_FF_SELECT && t.count != UFT_FF_UNLIMITED)
		n = snprintf(back, sizeof(back), "%s%s:%s:%ld", t.remove ? "!" : "", t.func, cmd,
			     t.count);
	else if (t.cmd != UFT_FF_SELECT)
		n = snprintf(back, sizeof(back), "%s%s:%s", t.remove ? "!" : "", t.func, cmd);
	else if (t.line)
		n = snprintf(back, sizeof(back), "%s%lu", t.remove ? "!" : "", t.line);
	else
		n = snprintf(back, sizeof(back), "%s%s", t.remove ? "!" : "", t.func);
	CHECK(n > 0 && (size_t)n < sizeof(back));
	char func[520], mod[520], sys[520], event[520];
	snprintf(func, sizeof(func), "%s", t.func);
	snprintf(mod, sizeof(mod), "%s", t.mod ? t.mod : "");
	snprintf(sys, sizeof(sys), "%s", t.sys ? t.sys : "");
	snprintf(event, sizeof(event), "%s", t.event ? t.event : "");
	CHECK(uft_ff_parse_token(back, &again) == 0);
	CHECK(again.remove == t.remove && again.cmd == t.cmd && again.count == t.count);
	CHECK(again.line == t.line && (t.line || strcmp(again.func, func) == 0));
	CHECK((!again.mod && !t.mod) || (again.mod && t.mod && strcmp(again.mod, mod) == 0));
	CHECK(!targeted || (strcmp(again.sys, sys) == 0 && strcmp(again.event, event) == 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size, 512);
	if (!text)
		return 0;
	char *save = NULL;
	for (char *tok = strtok_r(text, " \t\n\r\f\v", &save); tok;
	     tok = strtok_r(NULL, " \t\n\r\f\v", &save))
		check_token(tok);
	free(text);
	return 0;
}
