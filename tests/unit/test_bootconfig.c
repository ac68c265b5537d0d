/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bootconfig parser (src/engine/bootconfig/bootconfig.c): keys and values
 * byte for byte, as /proc/bootconfig would list them, and errors by line and
 * column. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/bootconfig/bootconfig.h"

/* The text's keys as rendered lines. */
static void expect(const char *text, const char *lines)
{
	struct uft_bc_tree *t;
	struct uft_bc_error err;
	int rc = uft_bc_parse(text, strlen(text), &t, &err);
	if (rc)
		print_error("%u:%u: %s\n", err.line, err.col, err.msg);
	assert_int_equal(rc, 0);
	char *got = uft_bc_render(t);
	assert_non_null(got);
	assert_string_equal(got, lines);
	free(got);
	uft_bc_free(t);
}

static void expect_error(const char *text, uint32_t line, uint32_t col, const char *msg)
{
	struct uft_bc_tree *t = (void *)1;
	struct uft_bc_error err;
	assert_int_equal(uft_bc_parse(text, strlen(text), &t, &err), -EINVAL);
	assert_null(t);
	assert_string_equal(err.msg, msg);
	assert_int_equal(err.line, line);
	assert_int_equal(err.col, col);
}

static void test_values(void **state)
{
	(void)state;
	expect("a = 1\n", "a = \"1\"\n");
	expect("a.b = x y ;c=2", "a.b = \"x y\"\nc = \"2\"\n");
	expect("a = 1, 2,3 # comment\n", "a = \"1\", \"2\", \"3\"\n");
	expect("a = 1,\n  # between\n  2\n", "a = \"1\", \"2\"\n");
	expect("a = \"x; y, # z\", 'say \"hi\"'\n", "a = \"x; y, # z\", 'say \"hi\"'\n");
	expect("a = \"\"\n", "a = \"\"\n");
	expect("flag\n", "flag = \"\"\n");
	expect("a =\nb", "a = \"\"\nb = \"\"\n");
	expect("  a\t=\tv \t\n", "a = \"v\"\n");
	expect("a = 1\na := 2, 3\n", "a = \"2\", \"3\"\n");
	expect("a = 1\na += 2\na += 3, 4\n", "a = \"1\", \"2\", \"3\", \"4\"\n");
	expect("a += 1\n", "a = \"1\"\n");
	expect("", "");
	expect("# only a comment", "");
	expect(";;\n;", "");
}

static void test_groups(void **state)
{
	(void)state;
	/* A value first, then the subkeys; groups with the same words merge. */
	expect("foo = 1\nfoo.bar = 2\n", "foo = \"1\"\nfoo.bar = \"2\"\n");
	expect("a { b = 1; c { d = 2 } }\na.e = 3\na { b.f }\n",
	       "a.b = \"1\"\na.b.f = \"\"\na.c.d = \"2\"\na.e = \"3\"\n");
	expect("a{b=1}c=2", "a.b = \"1\"\nc = \"2\"\n");
	expect("a { b = x }", "a.b = \"x\"\n");
	expect("a { b }", "a.b = \"\"\n");
	expect("ftrace.event {\n"
	       "    synthetic.wake_lat {\n"
	       "        fields = \"pid_t pid\", \"u64 delta\"\n"
	       "        hist { keys = delta.log2 }\n"
	       "    }\n"
	       "    sched.sched_waking.hist { keys = pid; var.t0 = common_timestamp.usecs }\n"
	       "}\n",
	       "ftrace.event.synthetic.wake_lat.fields = \"pid_t pid\", \"u64 delta\"\n"
	       "ftrace.event.synthetic.wake_lat.hist.keys = \"delta.log2\"\n"
	       "ftrace.event.sched.sched_waking.hist.keys = \"pid\"\n"
	       "ftrace.event.sched.sched_waking.hist.var.t0 = \"common_timestamp.usecs\"\n");
}

static void test_lookup(void **state)
{
	(void)state;
	const char *text = "x { y.z = 1, 2 }\nw\n";
	struct uft_bc_tree *t;
	struct uft_bc_error err;
	assert_int_equal(uft_bc_parse(text, strlen(text), &t, &err), 0);
	struct uft_bc_node *n = uft_bc_find(&t->root, "x.y.z");
	assert_non_null(n);
	assert_int_equal(n->nr_vals, 2);
	assert_string_equal(n->vals[1], "2");
	assert_int_equal(n->line, 1);
	assert_int_equal(n->col, 7);
	assert_int_equal(n->vline, 1);
	assert_int_equal(n->vcol, 11);
	char key[64];
	assert_string_equal(uft_bc_key(n, key, sizeof(key)), "x.y.z");
	assert_string_equal(uft_bc_value(&t->root, "x.y.z"), "1");
	assert_null(uft_bc_value(&t->root, "w"));
	assert_non_null(uft_bc_find(&t->root, "w"));
	assert_null(uft_bc_find(&t->root, "x.q"));
	assert_int_equal(uft_bc_find(&t->root, "w")->line, 2);
	uft_bc_free(t);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("a = 1\na = 2\n", 2, 3, "Value is redefined");
	expect_error("a = \"open\n", 1, 5, "No closing quotes");
	expect_error("a = \"x\" y\n", 1, 9, "No value delimiter");
	expect_error("a..b = 1", 1, 3, "Invalid keyword");
	expect_error("a.b! = 1", 1, 4, "Invalid keyword");
	expect_error("= 1", 1, 1, "Invalid keyword");
	expect_error("a {\n b = 1\n", 1, 3, "Brace is not closed");
	expect_error("a = 1\n}\n", 2, 1, "Unexpected '}'");
	expect_error("a = 1,", 1, 7, "No value after ','");
	expect_error("a = x\001y", 1, 6, "Non-printable character in a value");
	expect_error("\n  b c", 2, 5, "Invalid keyword");
	struct uft_bc_tree *t;
	struct uft_bc_error err;
	assert_int_equal(uft_bc_parse("a = \"x\"\n b\0", 11, &t, &err), -EINVAL);
	assert_string_equal(err.msg, "Non-printable character");
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 3);
}

static void test_limits(void **state)
{
	(void)state;
	struct uft_bc_tree *t;
	struct uft_bc_error err;
	size_t big = UFT_BC_DATA_MAX + 1;
	char *text = malloc(big + 1);
	assert_non_null(text);
	memset(text, '#', big);
	text[big] = 0;
	assert_int_equal(uft_bc_parse(text, big, &t, &err), -E2BIG);
	assert_null(t);
	/* 16 nested groups are allowed, 17 are not. */
	char deep[256] = "";
	for (int i = 0; i < 17; i++)
		strcat(deep, "a{");
	expect_error(deep, 1, 34, "Too many nested braces (max 16)");
	/* A key of 256 characters is the longest. */
	char key[300];
	memset(key, 'k', 257);
	key[257] = 0;
	expect_error(key, 1, 1, "Too long key (max 256)");
	key[256] = 0;
	assert_int_equal(uft_bc_parse(key, 256, &t, &err), 0);
	uft_bc_free(t);
	/* Values count as nodes. */
	size_t n = 0;
	for (int i = 0; i < UFT_BC_NODE_MAX; i++)
		n += (size_t)sprintf(text + n, i ? ",1" : "a=1");
	text[n] = 0;
	expect_error(text, 1, (uint32_t)n, "Too many nodes (max 8192)");
	free(text);
}

/* The hist command of the node at path in text, or the error's key and why. */
static void expect_hist(const char *text, const char *path, const char *want)
{
	struct uft_bc_tree *t;
	struct uft_bc_error err;
	assert_int_equal(uft_bc_parse(text, strlen(text), &t, &err), 0);
	struct uft_bc_node *h = uft_bc_find(&t->root, path);
	assert_non_null(h);
	char *cmd = NULL;
	const struct uft_bc_node *at = NULL;
	const char *why = NULL;
	int rc = uft_bc_hist_cmd(h, &cmd, &at, &why);
	if (rc == 0) {
		assert_string_equal(cmd, want);
	} else {
		char got[512], key[300];
		snprintf(got, sizeof(got), "%s: %s", uft_bc_key(at, key, sizeof(key)), why);
		assert_string_equal(got, want);
		assert_null(cmd);
	}
	free(cmd);
	uft_bc_free(t);
}

static const char spec_example[] =
    "ftrace.event {\n"
    "    synthetic.wake_lat {\n"
    "        fields = \"pid_t pid\", \"u64 delta\"\n"
    "        hist { keys = delta.log2 }\n"
    "    }\n"
    "    sched.sched_waking.hist { keys = pid; var.t0 = common_timestamp.usecs }\n"
    "    sched.sched_switch.hist {\n"
    "        keys = next_pid\n"
    "        var.delta = common_timestamp.usecs - $t0\n"
    "        onmatch { event = sched.sched_waking; trace = wake_lat, next_pid, $delta }\n"
    "    }\n"
    "}\n";

static void test_hist(void **state)
{
	(void)state;
	expect_hist(spec_example, "ftrace.event.synthetic.wake_lat.hist", "hist:keys=delta.log2");
	expect_hist(spec_example, "ftrace.event.sched.sched_waking.hist",
		    "hist:keys=pid:t0=common_timestamp.usecs");
	expect_hist(spec_example, "ftrace.event.sched.sched_switch.hist",
		    "hist:keys=next_pid:delta=common_timestamp.usecs-$t0"
		    ":onmatch(sched.sched_waking).trace(wake_lat,next_pid,$delta)");
	/* Every attribute, in the kernel's order whatever the file's. */
	expect_hist("h { filter = \"pid > 1\"; onmax { var = lat; save = a, b }\n"
		    "    name = n1; size = 256; sort = v, k; values = v; keys = k, j\n"
		    "    pause; clear; onchange.0 { var = $x; snapshot }\n"
		    "    onchange.1 { var = y; save = c } }",
		    "h",
		    "hist:keys=k,j:values=v:sort=v,k:size=256:name=n1:pause"
		    ":onmax($lat).save(a,b):onchange($x).snapshot():onchange($y).save(c)"
		    " if pid > 1");
	expect_hist("h.keys = a\nh.continue\n", "h", "hist:keys=a:continue");
	expect_hist("h.values = a\n", "h", "h: hist requires keys");
	expect_hist("h.keys = a\nh.onmax.save = x\n", "h", "h.onmax: the handler needs 'var'");
	expect_hist("h.keys = a\nh.onmatch.0.trace = x\n", "h",
		    "h.onmatch: the handler needs 'event'");
	expect_hist("h.keys = a\nh.onmax.var = x\n", "h",
		    "h.onmax: the handler needs an action (trace, save or snapshot)");
	expect_hist("h.keys = a\nh.var.x\n", "h", "h.var.x: a variable needs an expression");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_values), cmocka_unit_test(test_groups),
	    cmocka_unit_test(test_lookup), cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_limits), cmocka_unit_test(test_hist),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
