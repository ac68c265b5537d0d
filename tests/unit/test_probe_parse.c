/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The probe definition language: every form of definition, auto names,
 * default groups, listings that parse back to themselves, and the
 * kernel's error messages with their carets. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "probe_env.h"

#define DYN UFT_PROBE_SRC_DYNAMIC
#define KPR UFT_PROBE_SRC_KPROBE
#define UPR UFT_PROBE_SRC_UPROBE

/* Parses a line that must be accepted; the listing must parse to the same listing. */
static void parse_ok(const char *line, enum uft_probe_src src, struct uft_probe_cmd *c)
{
	struct uft_probe_env env = probe_test_env(src);
	struct uft_probe_error e;
	int rc = uft_probe_parse(line, &env, c, &e);
	if (rc)
		fail_msg("'%s': %d %s (pos %u)", line, rc, e.msg ? e.msg : "-", e.pos);
	uft_probe_error_free(&e);
	if (c->op != UFT_PROBE_OP_CREATE)
		return;
	char *l1 = uft_probe_listing(&c->def);
	struct uft_probe_cmd c2;
	rc = uft_probe_parse(l1, &env, &c2, &e);
	if (rc)
		fail_msg("listing '%s': %d %s", l1, rc, e.msg ? e.msg : "-");
	char *l2 = uft_probe_listing(&c2.def);
	assert_string_equal(l1, l2);
	assert_int_equal(c2.def.fixed_size, c->def.fixed_size);
	free(l1);
	free(l2);
	uft_probe_cmd_free(&c2);
}

/* A definition and its listing line. */
static void expect_listing(const char *line, enum uft_probe_src src, const char *want)
{
	struct uft_probe_cmd c;
	parse_ok(line, src, &c);
	char *l = uft_probe_listing(&c.def);
	assert_string_equal(l, want);
	free(l);
	uft_probe_cmd_free(&c);
}

/* A refused line: its message, error_log location, and the caret as error_log
 * draws it under the logged command ("  ^" lines up with the command). */
static void expect_err_src(const char *line, enum uft_probe_src src, int want_rc, const char *msg,
			   const char *loc, const char *caret)
{
	struct uft_probe_env env = probe_test_env(src);
	struct uft_probe_cmd c;
	struct uft_probe_error e;
	int rc = uft_probe_parse(line, &env, &c, &e);
	if (rc != want_rc || !e.msg || strcmp(e.msg, msg) != 0)
		fail_msg("'%s': rc %d msg '%s', want %d '%s'", line, rc, e.msg ? e.msg : "-",
			 want_rc, msg);
	if (loc)
		assert_string_equal(e.loc, loc);
	unsigned want = (unsigned)(strchr(caret, '^') - caret);
	if (e.pos != want)
		fail_msg("'%s' (%s): caret %u, want %u\n  %s\n  %*s^", line, msg, e.pos, want,
			 e.cmd, (int)e.pos, "");
	uft_probe_error_free(&e);
	uft_probe_cmd_free(&c);
}

static void expect_err(const char *line, const char *msg, const char *caret)
{
	expect_err_src(line, DYN, -EINVAL, msg, NULL, caret);
}

static void test_kprobe_forms(void **state)
{
	struct uft_probe_cmd c;
	parse_ok("p:myprobe parse_request path=+0(%di):string len=%si:u32", DYN, &c);
	assert_int_equal(c.op, UFT_PROBE_OP_CREATE);
	assert_int_equal(c.def.kind, UFT_PROBE_KPROBE);
	assert_string_equal(c.def.group, "kprobes");
	assert_string_equal(c.def.event, "myprobe");
	assert_string_equal(c.def.symbol, "parse_request");
	assert_false(c.def.is_return);
	assert_int_equal(c.def.nr_args, 2);
	assert_int_equal(c.def.head_size, 16);
	assert_int_equal(c.def.args[0].offset, 16);
	assert_int_equal(c.def.args[1].offset, 20);
	assert_int_equal(c.def.fixed_size, 24);
	uft_probe_cmd_free(&c);

	expect_listing("p:myprobe parse_request path=+0(%di):string len=%si:u32", DYN,
		       "p:kprobes/myprobe parse_request path=+0(%di):string len=%si:u32");
	expect_listing("p parse_request+4", KPR, "p:kprobes/p_parse_request_4 parse_request+4");
	expect_listing("p  parse_request\t%di", DYN,
		       "p:kprobes/p_parse_request_0 parse_request arg1=%di");
	expect_listing("r parse_request $retval", DYN,
		       "r:kprobes/r_parse_request_0 parse_request arg1=$retval");
	expect_listing("p parse_request%return", DYN, "r:kprobes/r_parse_request_0 parse_request");
	expect_listing("r5:kprobes/rp main", DYN, "r5:kprobes/rp main");
	expect_listing("r0x10:rp main", DYN, "r16:kprobes/rp main");
	expect_listing("p 0x401000", DYN, "p:kprobes/p_0x401000 0x401000");
	expect_listing("p libc.so.6:malloc size=%di:u64", DYN,
		       "p:kprobes/p_libc_so_6_malloc_0 libc.so.6:malloc size=%di:u64");
	expect_listing("p:grp.ev main", DYN, "p:grp/ev main");
	expect_listing("p:grp/ main", DYN, "p:grp/p_main_0 main");

	parse_ok("r3 libc.so.6:free", DYN, &c);
	assert_true(c.def.is_return);
	assert_int_equal(c.def.maxactive, 3);
	assert_string_equal(c.def.lib, "libc.so.6");
	assert_string_equal(c.def.symbol, "free");
	assert_int_equal(c.def.head_size, 24);
	uft_probe_cmd_free(&c);
}

static void test_uprobe_forms(void **state)
{
	struct uft_probe_cmd c;
	expect_listing("p /usr/lib/libfoo.so:0x1234 a=%ax", DYN,
		       "p:uprobes/p_libfoo_0x1234 /usr/lib/libfoo.so:0x0000000000001234 a=%ax");
	expect_listing("r /bin/prog:0x10(0x20)", UPR,
		       "r:uprobes/p_prog_0x10 /bin/prog:0x0000000000000010(0x20)");
	expect_listing("p:u/e /bin/prog-2.1:16%return", UPR,
		       "r:u/e /bin/prog-2.1:0x0000000000000010");
	expect_listing("p:g/e main", UPR, "p:g/e main");
	expect_listing("p main+8", UPR, "p:uprobes/p_main_8 main+8");
	parse_ok("p /bin/prog:0x10(0x20) @+0x40:u32", DYN, &c);
	assert_int_equal(c.def.kind, UFT_PROBE_UPROBE);
	assert_int_equal(c.def.offset, 0x10);
	assert_int_equal(c.def.refctr, 0x20);
	assert_string_equal(c.def.lib, "/bin/prog");
	uft_probe_cmd_free(&c);
	parse_ok("p:e main", UPR, &c);
	assert_int_equal(c.def.kind, UFT_PROBE_UPROBE);
	assert_string_equal(c.def.group, "uprobes");
	uft_probe_cmd_free(&c);
}

static void test_fprobe_forms(void **state)
{
	struct uft_probe_cmd c;
	expect_listing("f parse_request", DYN, "f:fprobes/parse_request__entry parse_request");
	expect_listing("f parse_request%return r=$retval", DYN,
		       "f:fprobes/parse_request__exit parse_request%return r=$retval");
	/* A $retval makes it an exit probe. */
	expect_listing("f parse_request $retval:s32", DYN,
		       "f:fprobes/parse_request__exit parse_request%return arg1=$retval:s32");
	expect_listing("f3:my/ex parse_request%return", DYN, "f3:my/ex parse_request%return");
	parse_ok("f libc.so.6:malloc sz=$arg1", DYN, &c);
	assert_int_equal(c.def.kind, UFT_PROBE_FPROBE);
	assert_string_equal(c.def.lib, "libc.so.6");
	assert_string_equal(c.def.event, "malloc__entry");
	assert_int_equal(c.def.head_size, 16);
	uft_probe_cmd_free(&c);
}

static void test_eprobe_forms(void **state)
{
	struct uft_probe_cmd c;
	parse_ok(
	    "e sched.sched_switch prev=$prev_pid next=$next_pid:u32 if prev_pid > 0 && prio < 3",
	    DYN, &c);
	assert_int_equal(c.def.kind, UFT_PROBE_EPROBE);
	assert_string_equal(c.def.group, "eprobes");
	assert_string_equal(c.def.event, "sched_switch");
	assert_string_equal(c.def.filter, "prev_pid > 0 && prio < 3");
	assert_int_equal(c.def.nr_args, 2);
	assert_int_equal(c.def.head_size, 8);
	assert_int_equal(c.def.args[0].offset, 8);
	assert_int_equal(c.def.args[1].offset, 16);
	uft_probe_cmd_free(&c);
	expect_listing("e:my/sw sched/sched_switch comm=$prev_comm:string n=$name:string", DYN,
		       "e:my/sw sched.sched_switch comm=$prev_comm:string n=$name:string");
	expect_listing("e:sw sched.sched_switch $comm", DYN,
		       "e:eprobes/sw sched.sched_switch arg1=$comm");
}

static void test_delete_and_blank(void **state)
{
	struct uft_probe_cmd c;
	struct uft_probe_error e;
	struct uft_probe_env env = probe_test_env(DYN);
	assert_int_equal(uft_probe_parse("  \t ", &env, &c, &e), 0);
	assert_int_equal(c.op, UFT_PROBE_OP_NONE);
	assert_int_equal(uft_probe_parse("-:myprobe", &env, &c, &e), 0);
	assert_int_equal(c.op, UFT_PROBE_OP_DELETE);
	assert_null(c.group);
	assert_string_equal(c.event, "myprobe");
	uft_probe_cmd_free(&c);
	assert_int_equal(uft_probe_parse("-:grp/ev", &env, &c, &e), 0);
	assert_string_equal(c.group, "grp");
	assert_string_equal(c.event, "ev");
	uft_probe_cmd_free(&c);
	assert_int_equal(uft_probe_parse("-:grp.ev", &env, &c, &e), 0);
	assert_string_equal(c.group, "grp");
	uft_probe_cmd_free(&c);
	/* -:GROUP/ names every event of the group. */
	assert_int_equal(uft_probe_parse("-:grp/", &env, &c, &e), 0);
	assert_string_equal(c.group, "grp");
	assert_string_equal(c.event, "");
	uft_probe_cmd_free(&c);
	/* Lines no kind takes: EINVAL and nothing logged. */
	const char *bad[] = {
	    "-", "-:", "-:/", "x:foo bar", "p", "pq main", "e5 sched.sched_switch", "rzz:x main"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(uft_probe_parse(bad[i], &env, &c, &e), -EINVAL);
		assert_null(e.msg);
		uft_probe_cmd_free(&c);
	}
	/* f and e belong to dynamic_events only. */
	struct uft_probe_env kenv = probe_test_env(KPR);
	assert_int_equal(uft_probe_parse("f main", &kenv, &c, &e), -EINVAL);
	assert_null(e.msg);
}

static void test_auto_arg_names(void **state)
{
	struct uft_probe_cmd c;
	parse_ok("p main %di x=%si %dx +0(%cx):u8", DYN, &c);
	assert_string_equal(c.def.args[0].name, "arg1");
	assert_string_equal(c.def.args[1].name, "x");
	assert_string_equal(c.def.args[2].name, "arg3");
	assert_string_equal(c.def.args[3].name, "arg4");
	assert_string_equal(c.def.args[3].comm, "+0(%cx):u8");
	uft_probe_cmd_free(&c);
	/* The longest names and texts the kernel takes. */
	char line[512];
	snprintf(line, sizeof(line), "p:%.63s/%.63s main %.32s=%%di",
		 "gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg",
		 "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
		 "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn");
	parse_ok(line, DYN, &c);
	assert_int_equal(strlen(c.def.event), 63);
	uft_probe_cmd_free(&c);
	/* 128 args fit, 129 do not. */
	char big[4096] = "p main";
	for (int i = 0; i < 128; i++)
		strcat(big, " %di");
	parse_ok(big, DYN, &c);
	assert_int_equal(c.def.nr_args, 128);
	assert_string_equal(c.def.args[127].name, "arg128");
	assert_int_equal(c.def.fixed_size, 16 + 128 * 8);
	uft_probe_cmd_free(&c);
	strcat(big, " %si");
	expect_err_src(big, DYN, -E2BIG, "Too many arguments are specified", "trace_kprobe",
		       "       ^");
}

static void test_head_errors(void **state)
{
	expect_err_src("p:myprobe main %xx", DYN, -EINVAL, "Invalid register name", "trace_kprobe",
		       "               ^");
	expect_err("p5:myprobe main", "Maxactive is only for function exit", " ^");
	expect_err("r0:myprobe main", "Invalid maxactive number", " ^");
	expect_err("r1z:myprobe main", "Invalid maxactive number", " ^");
	expect_err("r5000:myprobe main", "Maxactive is too big", " ^");
	expect_err("r main+4", "Retprobe address must be an function entry", "  ^");
	expect_err("p main+4%return", "Retprobe address must be an function entry", "  ^");
	expect_err("p main%foo", "Invalid probed address suffix", "      ^");
	expect_err("p main+zz", "Invalid probed address or symbol", "  ^");
	expect_err("p main-4", "Invalid probed address or symbol", "  ^");
	expect_err("p :main", "Invalid probed address or symbol", "  ^");
	/* A symbol never starts with a digit: it would list as an address. */
	expect_err("p 410+00", "Invalid probed address or symbol", "  ^");
	expect_err("p:/ev main", "Group name is not specified", "  ^");
	expect_err("p:9grp/ev main", "Group name must follow the same rules as C identifiers",
		   "  ^");
	expect_err("p:grp/9ev main", "Event name must follow the same rules as C identifiers",
		   "      ^");
	expect_err("p:ev-1 main", "Event name must follow the same rules as C identifiers", "  ^");
	expect_err("p: main", "Event name is not specified", "  ^");
	expect_err("p:gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg/e main",
		   "Group name is too long", "  ^");
	expect_err("p:g/eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee main",
		   "Event name is too long", "    ^");
	expect_err_src("p:sched/sched_switch main", DYN, -EEXIST,
		       "Given group/event name is already used by another event", NULL, "^");
	/* The logged command has single blanks. */
	expect_err("  p:myprobe   main\t\t%xx  ", "Invalid register name", "               ^");
}

static void test_uprobe_errors(void **state)
{
	expect_err_src("r5 /bin/x:0x10", DYN, -EINVAL, "Maxactive is not for uprobe",
		       "trace_uprobe", " ^");
	expect_err("p /bin/x:0x10(0x2", "Reference counter brace is not closed",
		   "                 ^");
	expect_err("p /bin/x:0x10(0x2)z", "Reference counter has wrong suffix",
		   "                  ^");
	expect_err("p /bin/x:0x10(zz)", "Invalid reference counter offset", "              ^");
	expect_err("p /bin/x:0x1z", "Invalid uprobe offset", "         ^");
	expect_err("p /bin/x:0x10%ret", "Invalid probed address suffix", "             ^");
	expect_err("p /bin/x:0x10 @gvar", "Symbol is not available with uprobe", "              ^");
	expect_err("p /bin/x:0x10 @+zz", "Invalid file offset value", "              ^");
	expect_err("p /bin/x:0x10 %di:symbol", "Unknown type is specified", "                  ^");
	expect_err("p main @+4", "File offset is not available with kprobe", "       ^");
}

static void test_fprobe_eprobe_errors(void **state)
{
	expect_err_src("f main%foo", DYN, -EINVAL, "Invalid probed address suffix", "trace_fprobe",
		       "      ^");
	expect_err("f main+4", "Invalid probed address or symbol", "  ^");
	expect_err("f3 main", "Maxactive is only for function exit", " ^");
	expect_err("f main $retval:zz", "Unknown type is specified", "               ^");
	expect_err_src("e sched", DYN, -EINVAL, "This requires both group and event name to attach",
		       "event_probe", "  ^");
	expect_err("e nosys.noev", "Attached event does not exist", "  ^");
	expect_err("e sched.sched_switch x=$nofield", "Invalid $-valiable specified",
		   "                     ^");
	/* The caret past "if ", as the kernel's. */
	expect_err("e sched.sched_switch $prev_pid if", "No filter rule after 'if'",
		   "                                  ^");
	expect_err("e sched.sched_switch %di", "Invalid fetch argument", "                     ^");
	expect_err("e:/x sched.sched_switch", "Group name is not specified", "  ^");
}

static void test_arg_errors(void **state)
{
	/* Carets point into the arg, after NAME= when there is one. */
	expect_err("p:myprobe main a=%xx", "Invalid register name", "                 ^");
	expect_err("p:myprobe main $retval", "$retval is not available on probe",
		   "               ^");
	expect_err("p main $stackx", "Invalid $-valiable specified", "       ^");
	expect_err("p main $stack9999", "Invalid stack number", "       ^");
	expect_err("p main $arg0", "Invalid argument number", "       ^");
	expect_err("p main $arg600", "Invalid argument number", "       ^");
	expect_err("p main+4 $arg1", "$arg* can be used only on function entry or exit",
		   "         ^");
	expect_err("p main $foo", "Invalid $-valiable specified", "       ^");
	expect_err("p main @nosuch", "Invalid memory address", "       ^");
	expect_err("p main @0xzz", "Invalid memory address", "       ^");
	expect_err("p main @gvar+zz", "Invalid memory address", "       ^");
	expect_err("p main \\xyz", "Invalid immediate value", "        ^");
	expect_err("p main s=\\\"abc", "String is not closed with '\"'", "              ^");
	struct uft_probe_cmd c;
	parse_ok("p main x=+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%di))))))))))))))", DYN, &c);
	assert_int_equal(c.def.args[0].nops, 14);
	uft_probe_cmd_free(&c);
	expect_err("p main +0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%di)))))))))))))))",
		   "Dereference is too much nested", "          ^");
	expect_err("p main +0%di", "Dereference needs a brace", "       ^");
	expect_err("p main +zz(%di)", "Invalid dereference offset", "       ^");
	expect_err("p main +0(%di", "Dereference brace is not closed", "             ^");
	expect_err("p main +8(+0(%xx))", "Invalid register name", "             ^");
	expect_err("p main -8(%xx)", "Invalid register name", "          ^");
	expect_err("p main +u8(%xx)", "Invalid register name", "           ^");
	expect_err("p main +0($comm)", "$comm can not be dereferenced", "          ^");
	expect_err("p main 1abc", "Invalid fetch argument", "       ^");
	expect_err("p main foo", "BTF is not available or not supported", "       ^");
	/* Names and $arg* without a way to read DWARF (probe_dwarf.c has its
	 * own tests through the tree); eprobes and file offsets never expand
	 * $arg*. */
	expect_err("f main x=a->b", "BTF is not available or not supported", "         ^");
	expect_err("p main $arg*", "BTF is not available or not supported", "       ^");
	expect_err("p main+4 $arg*", "$arg* can be used only on function entry or exit",
		   "         ^");
	expect_err("p main $arg* $arg*", "$arg* can be used only once in the parameters",
		   "             ^");
	expect_err("e sched.sched_switch $arg*", "Invalid $-valiable specified",
		   "                     ^");
	expect_err("p /bin/sh:0x10 $arg*", "Invalid $-valiable specified", "               ^");
	expect_err("p main +0(%di):u8[3", "Array is not closed", "                   ^");
	expect_err("p main +0(%di):u8[3]x", "Array has wrong suffix", "                    ^");
	expect_err("p main +0(%di):u8[0]", "Invalid array size", "                  ^");
	expect_err("p main +0(%di):u8[65]", "Array number is too big", "                  ^");
	expect_err("p main %di:foo", "Unknown type is specified", "           ^");
	expect_err("p main x=%di:string", "String accepts only memory argument", "             ^");
	expect_err("p main %di:u8[2]", "String accepts only memory argument", "           ^");
	expect_err("p main \\5:symstr", "Symbol String doesn't accept data/userdata",
		   "          ^");
	expect_err("p main $comm:u32", "$comm and immediate-string only accepts string type",
		   "             ^");
	expect_err("p main \\\"a\":string[2]",
		   "$comm and immediate-string only accepts string type", "            ^");
	expect_err("p main %di:b4@6/8", "Invalid bitfield", "           ^");
	expect_err("p main %di:b0@0/8", "Invalid bitfield", "           ^");
	expect_err("p main %di:b4@2/7", "Unknown type is specified", "           ^");
	expect_err("p main nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn=%di", "Argument name is too long",
		   "       ^");
	expect_err("p main =%di", "Argument name is not specified", "       ^");
	expect_err("p main 1a=%di", "Argument name must follow the same rules as C identifiers",
		   "       ^");
	expect_err("p main a=%di b=%si a=%dx", "This argument name is already used",
		   "                   ^");
	expect_err("p main __probe_ip=%di", "This argument name is already used", "       ^");
	expect_err("p main common_pid=%di", "This argument name is already used", "       ^");
	expect_err("p main x=+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%di)))))))))):u64xxxxxxxxxxxxxxxxxxxxxx",
		   "Argument expression is too long", "       ^");
}

static void test_append_rules(void **state)
{
	struct uft_probe_cmd a, b, c, d;
	struct uft_probe_error e;
	parse_ok("p:g/e main x=%di:u32", DYN, &a);
	parse_ok("p:g/e other x=%si:u32", DYN, &b);
	parse_ok("p:g/e main x=%di:u64", DYN, &c);
	parse_ok("r:g/e main x=%di:u32", DYN, &d);
	assert_int_equal(uft_probe_check_append(&a.def, &b.def, &e), 0);
	assert_int_equal(uft_probe_check_append(&a.def, &c.def, &e), -EEXIST);
	assert_string_equal(e.msg, "Argument type or name is different from existing probe");
	assert_int_equal(uft_probe_check_append(&a.def, &d.def, &e), -EEXIST);
	assert_string_equal(e.msg, "Probe type is different from existing probe");
	assert_int_equal(uft_probe_check_append(&a.def, &a.def, &e), -EEXIST);
	assert_string_equal(e.msg, "There is already the exact same probe event");
	uft_probe_cmd_free(&a);
	uft_probe_cmd_free(&b);
	uft_probe_cmd_free(&c);
	uft_probe_cmd_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kprobe_forms),	 cmocka_unit_test(test_uprobe_forms),
	    cmocka_unit_test(test_fprobe_forms),	 cmocka_unit_test(test_eprobe_forms),
	    cmocka_unit_test(test_delete_and_blank),	 cmocka_unit_test(test_auto_arg_names),
	    cmocka_unit_test(test_head_errors),		 cmocka_unit_test(test_uprobe_errors),
	    cmocka_unit_test(test_fprobe_eprobe_errors), cmocka_unit_test(test_arg_errors),
	    cmocka_unit_test(test_append_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
