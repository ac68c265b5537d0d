/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tokens of set_ftrace_filter and friends (src/engine/trigger/ftrace_filter.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/trigger/ftrace_filter.h"

static struct uft_ff_token parse(const char *text, int want_rc)
{
	static char buf[256];
	struct uft_ff_token t;
	strcpy(buf, text);
	assert_int_equal(uft_ff_parse_token(buf, &t), want_rc);
	return t;
}

static void test_selections(void **state)
{
	struct uft_ff_token t = parse("ft_*", 0);
	assert_false(t.remove);
	assert_string_equal(t.func, "ft_*");
	assert_null(t.mod);
	assert_int_equal(t.line, 0);
	assert_int_equal(t.cmd, UFT_FF_SELECT);
	t = parse("!*mid*", 0);
	assert_true(t.remove);
	assert_string_equal(t.func, "*mid*");
	t = parse("42", 0);
	assert_int_equal(t.line, 42);
	parse("0", -EINVAL);
	parse("4x", -EINVAL);
	parse("!", -EINVAL);
}

static void test_modules(void **state)
{
	struct uft_ff_token t = parse(":mod:libfoo.so", 0);
	assert_string_equal(t.func, "*");
	assert_string_equal(t.mod, "libfoo.so");
	t = parse("!fx_*:mod:!lib*", 0);
	assert_true(t.remove);
	assert_string_equal(t.func, "fx_*");
	assert_string_equal(t.mod, "!lib*");
	parse("f:mod:", -EINVAL);
	parse("f:mod:!", -EINVAL);
}

static void test_commands(void **state)
{
	struct uft_ff_token t = parse("do_trap:traceoff:3", 0);
	assert_string_equal(t.func, "do_trap");
	assert_int_equal(t.cmd, UFT_FF_TRACEOFF);
	assert_int_equal(t.count, 3);
	t = parse("f:traceon", 0);
	assert_int_equal(t.cmd, UFT_FF_TRACEON);
	assert_int_equal(t.count, UFT_FF_UNLIMITED);
	t = parse("!f:snapshot:0", 0);
	assert_true(t.remove);
	assert_int_equal(t.cmd, UFT_FF_SNAPSHOT);
	/* Removal takes the lines set_ftrace_filter lists, count and all. */
	t = parse("!f:traceoff:count=5", 0);
	assert_true(t.remove);
	assert_int_equal(t.cmd, UFT_FF_TRACEOFF);
	assert_int_equal(parse("!f:traceon:unlimited", 0).cmd, UFT_FF_TRACEON);
	t = parse("!f:enable_event:sched:sched_switch:count=2", 0);
	assert_int_equal(t.cmd, UFT_FF_ENABLE_EVENT);
	assert_string_equal(t.sys, "sched");
	assert_string_equal(t.event, "sched_switch");
	assert_int_equal(parse("!f:disable_event:a:b:unlimited", 0).cmd, UFT_FF_DISABLE_EVENT);
	assert_int_equal(parse("f*:stacktrace", 0).cmd, UFT_FF_STACKTRACE);
	assert_string_equal(uft_ff_cmd_name(UFT_FF_STACKTRACE), "stacktrace");
	t = parse("f:enable_event:sched:sched_switch:2", 0);
	assert_int_equal(t.cmd, UFT_FF_ENABLE_EVENT);
	assert_string_equal(t.sys, "sched");
	assert_string_equal(t.event, "sched_switch");
	assert_int_equal(t.count, 2);
	t = parse("!f*:disable_event:demo:tick", 0);
	assert_true(t.remove);
	assert_int_equal(t.cmd, UFT_FF_DISABLE_EVENT);
	assert_string_equal(t.sys, "demo");
	assert_string_equal(t.event, "tick");
	assert_int_equal(t.count, UFT_FF_UNLIMITED);
	assert_null(parse("f:traceon", 0).sys);
	parse("f:enable_event", -EINVAL);
	parse("f:enable_event:sched", -EINVAL);
	parse("f:enable_event:sched:", -EINVAL);
	parse("f:enable_event::x", -EINVAL);
	parse("f:enable_event:a:b:", -EINVAL);
	parse("f:enable_event:a:b:c", -EINVAL);
	assert_int_equal(parse("f:dump", 0).cmd, UFT_FF_DUMP);
	assert_int_equal(parse("f:cpudump:2", 0).count, 2);
	assert_int_equal(parse("f:cpudump", 0).cmd, UFT_FF_CPUDUMP);
	parse("f:dumpall", -EINVAL);
	parse("f:traceon:x", -EINVAL);
	parse("f:traceon:-1", -EINVAL);
	parse(":traceon", -EINVAL);
	parse("f:", -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_selections),
	    cmocka_unit_test(test_modules),
	    cmocka_unit_test(test_commands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
