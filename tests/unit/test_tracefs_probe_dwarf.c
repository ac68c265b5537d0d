/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Probe args by DWARF name through the tree: parameters by name, members
 * through pointers and in place, nested, array elements, bitfields, enums,
 * `$arg*`, `$retval` typed, the ABI's places past six arguments and around
 * SSE and by-value structs; each gives, byte for byte, the trace text of the
 * register fetch it stands for. Every refusal with its errno, error_log line
 * and caret, and nothing defined after it; a library without debug
 * information refused; one whose debug file is found by its build-id. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/core/runtime.h"
#include "runtime/tracefs/tracefs.h"
#include "tfs_cmocka.h"
#include "tfs_helpers.h"
#include <uft/uft.h>
#include "probe_tree.h"

enum color { RED = -1, GREEN = 7 };

struct hdr {
	uint16_t len;
	int16_t delta;
	unsigned flags : 3;
	unsigned kind : 5;
};

struct req {
	const char *path;
	struct hdr hdr;
	char name[16];
	struct req *next;
	int vals[4];
	union {
		long id;
		double score;
	};
	enum color col;
	signed char sc;
	bool ok;
};

struct pair {
	long x, y;
};

struct big {
	long a, b, c;
};

/* The probed functions: built with patchable entries and -g, as every test. */
__attribute__((noinline, used)) int handle(int count, struct req *req, const char *tag, long big,
					   unsigned char small, short neg)
{
	__asm__ volatile("" ::"r"(req), "r"(tag) : "memory");
	return count * 2 + (int)big + small + neg;
}

__attribute__((noinline, used)) long many(double d, long a, long b, long c, long e, long f, long g,
					  long h)
{
	__asm__ volatile("" ::: "memory");
	return (long)d + a + b + c + e + f + g + h;
}

__attribute__((noinline, used)) long bypair(struct pair pr, long z)
{
	__asm__ volatile("" ::: "memory");
	return pr.x + pr.y + z;
}

__attribute__((noinline, used)) long bybig(struct big bg, long z)
{
	__asm__ volatile("" ::: "memory");
	return bg.a + bg.b + bg.c + z;
}

__attribute__((noinline, used)) void nothing(struct req *req)
{
	__asm__ volatile("" ::"r"(req) : "memory");
}

static int (*volatile call_handle)(int, struct req *, const char *, long, unsigned char,
				   short) = handle;
static long (*volatile call_many)(double, long, long, long, long, long, long, long) = many;
static long (*volatile call_bypair)(struct pair, long) = bypair;
static long (*volatile call_bybig)(struct big, long) = bybig;

static char nodebug[4096], split[4096];

static int setup(void **state)
{
	(void)state;
	tfs_echo("events/enable", "0", W);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", W), 0);
	return 0;
}

/* What follows "EVENT: (...) " in the trace line of event `ev` number
 * `nth` (0-based), malloc'd. */
static char *args_of(const char *ev, int nth)
{
	char *t = rd("trace"), key[80], *out = NULL;
	snprintf(key, sizeof(key), " %s: (", ev);
	const char *at = t;
	for (int i = 0; (at = strstr(at, key)) != NULL; i++, at++) {
		if (i < nth)
			continue;
		const char *b = strstr(at, ") ");
		const char *e = strchr(at, '\n');
		assert_non_null(b);
		assert_non_null(e);
		out = strndup(b + 2, (size_t)(e - b - 2));
		break;
	}
	if (!out)
		fail_msg("no %s line %d in:\n%s", ev, nth, t);
	free(t);
	return out;
}

/* Events a and b printed the same args in their nth lines. */
static void same(const char *a, const char *b, int nth, const char *expect)
{
	char *x = args_of(a, nth), *y = args_of(b, nth);
	if (strcmp(x, y) != 0)
		fail_msg("%s: '%s'\n%s: '%s'", a, x, b, y);
	if (expect && strcmp(x, expect) != 0)
		fail_msg("%s: '%s', expected '%s'", a, x, expect);
	free(x);
	free(y);
}

static struct req req2 = {.path = "/next", .hdr = {.len = 77}};
static struct req req1 = {
    .path = "/index.html",
    .hdr = {.len = 512, .delta = -3, .flags = 5, .kind = 19},
    .name = "first",
    .next = &req2,
    .vals = {10, 20, -30, 40},
    .id = -123456789012L,
    .col = RED,
    .sc = -7,
    .ok = true,
};

static const char NAMED[] =
    "p:nm handle count req->path:string req->hdr.len req->hdr.delta req->hdr.kind "
    "req->name:string req->next->hdr.len req->vals[2] req->id req->col req->sc req->ok "
    "tag:string small neg req->next->path:string";

static void test_names_as_registers(void **state)
{
	(void)state;
	char regs[1024];
	snprintf(regs, sizeof(regs),
		 "p:rg handle count=%%di:s32 arg2=+0(+%zu(%%si)):string arg3=+%zu(%%si):u16 "
		 "arg4=+%zu(%%si):s16 arg5=+%zu(%%si):b5@3/8 arg6=+%zu(%%si):string "
		 "arg7=+%zu(+%zu(%%si)):u16 arg8=+%zu(%%si):s32 arg9=+%zu(%%si):s64 "
		 "arg10=+%zu(%%si):s32 arg11=+%zu(%%si):s8 arg12=+%zu(%%si):u8 "
		 "tag=+0(%%dx):string small=%%r8:u8 neg=%%r9:s16 arg16=+0(+%zu(+%zu(%%si))):string",
		 offsetof(struct req, path), offsetof(struct req, hdr),
		 offsetof(struct req, hdr) + offsetof(struct hdr, delta),
		 offsetof(struct req, hdr) + 4, offsetof(struct req, name),
		 offsetof(struct req, hdr) + offsetof(struct hdr, len), offsetof(struct req, next),
		 offsetof(struct req, vals) + 2 * sizeof(int), offsetof(struct req, id),
		 offsetof(struct req, col), offsetof(struct req, sc), offsetof(struct req, ok),
		 offsetof(struct req, path), offsetof(struct req, next));
	/* libdw is mapped by the first definition that uses a name. */
	assert_int_equal(tfs_echo("dynamic_events", regs, A), 0);
	assert_null(dlopen("libdw.so.1", RTLD_NOW | RTLD_NOLOAD));
	assert_int_equal(tfs_echo("dynamic_events", NAMED, A), 0);
	void *dw = dlopen("libdw.so.1", RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(dw);
	dlclose(dw);
	/* The listing keeps the names, which parse back to the same probe. */
	char *l = rd("dynamic_events");
	assert_non_null(strstr(l, "p:kprobes/rg handle count=%di:s32 "));
	assert_non_null(strstr(l, "p:kprobes/nm handle count=count arg2=req->path:string "
				  "arg3=req->hdr.len arg4=req->hdr.delta arg5=req->hdr.kind "
				  "arg6=req->name:string arg7=req->next->hdr.len "
				  "arg8=req->vals[2] arg9=req->id arg10=req->col arg11=req->sc "
				  "arg12=req->ok tag=tag:string small=small neg=neg "
				  "arg16=req->next->path:string\n"));
	free(l);
	/* The format: the types DWARF gave. */
	char *fmt = rd("events/kprobes/nm/format"), *fr = rd("events/kprobes/rg/format");
	assert_non_null(strstr(fmt, "\tfield:s32 count;\toffset:16;\tsize:4;\tsigned:1;\n"));
	assert_non_null(strstr(fmt, "\tfield:u16 arg3;\toffset:24;\tsize:2;\tsigned:0;\n"));
	assert_string_equal(strstr(fmt, "\tfield:s32 count;"), strstr(fr, "\tfield:s32 count;"));
	free(fmt);
	free(fr);
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	assert_int_equal(call_handle(-5, &req1, "tagged", 1L << 40, 200, -300), -110);
	req1.next = NULL; /* a fault reads as the register fetch's does */
	call_handle(9, &req1, NULL, 0, 0, 0);
	req1.next = &req2;
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	same("nm", "rg", 0,
	     "count=-5 arg2=\"/index.html\" arg3=512 arg4=-3 arg5=19 arg6=\"first\" arg7=77 "
	     "arg8=-30 arg9=-123456789012 arg10=-1 arg11=-7 arg12=1 tag=\"tagged\" small=200 "
	     "neg=-300 arg16=\"/next\"");
	same("nm", "rg", 1, NULL);
	char *second = args_of("nm", 1);
	assert_non_null(strstr(second, "arg7=0 "));
	assert_non_null(strstr(second, "tag=(fault) "));
	free(second);
}

static void test_fprobe_and_returns(void **state)
{
	(void)state;
	char def[256];
	assert_int_equal(tfs_echo("dynamic_events", "f:fn handle count req->hdr.len", A), 0);
	snprintf(def, sizeof(def), "f:fr handle count=$arg1:s32 arg2=+%zu($arg2):u16",
		 offsetof(struct req, hdr));
	assert_int_equal(tfs_echo("dynamic_events", def, A), 0);
	/* $retval typed by the return type in a definition with names; the
	 * parameters are the entry's. */
	assert_int_equal(
	    tfs_echo("dynamic_events", "r:rn handle $retval count req->path:string", A), 0);
	assert_int_equal(tfs_echo("dynamic_events",
				  "r:rr handle arg1=$retval:s32 count=$arg1:s32 "
				  "arg3=+0(+0($arg2)):string",
				  A),
			 0);
	/* f:%return with names, and $retval alone staying x64 as before. */
	assert_int_equal(tfs_echo("dynamic_events", "f:fxn handle%return $retval req->sc", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "f:fx handle%return $retval", A), 0);
	char *fmt = rd("events/fprobes/fx/format");
	assert_non_null(strstr(fmt, "\tfield:u64 arg1;"));
	free(fmt);
	fmt = rd("events/fprobes/fxn/format");
	assert_non_null(strstr(fmt, "\tfield:s32 arg1;"));
	assert_non_null(strstr(fmt, "\tfield:s8 arg2;"));
	free(fmt);
	assert_int_equal(tfs_echo("events/enable", "1", W), 0);
	assert_int_equal(call_handle(4, &req1, "t", 3, 1, 2), 14);
	assert_int_equal(tfs_echo("events/enable", "0", W), 0);
	same("fn", "fr", 0, "count=4 arg2=512");
	same("rn", "rr", 0, "arg1=14 count=4 arg3=\"/index.html\"");
	char *x = args_of("fxn", 0);
	assert_string_equal(x, "arg1=14 arg2=-7");
	free(x);
	x = args_of("fx", 0);
	assert_string_equal(x, "arg1=0xe");
	free(x);
}

/* Where the ABI puts a parameter: the sixth integer one past a double is
 * $arg6's register, the seventh on the stack; a 16-byte struct takes two
 * registers, a larger one the stack. */
static void test_abi_places(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "p:mn many h a g", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:mr many h=$arg7:s64 a=%di:s64 g=%r9:s64", A),
			 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:pn bypair z pr", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:pr bypair z=%dx:s64 pr=%di", A), 0);
	/* An index through a pointer: the element it points at. */
	char def[160];
	assert_int_equal(tfs_echo("dynamic_events", "p:ix handle req[0].vals[3] tag[1]", A), 0);
	snprintf(def, sizeof(def), "p:ir handle arg1=+%zu(%%si):s32 arg2=+1(%%dx):s8",
		 offsetof(struct req, vals) + 3 * sizeof(int));
	assert_int_equal(tfs_echo("dynamic_events", def, A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:bn bybig z bg", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:br bybig z=%di:s64 bg=$arg7", A), 0);
	assert_int_equal(tfs_echo("events/enable", "1", W), 0);
	assert_int_equal(call_many(0.5, 1, 2, 3, 4, 5, -6, 7), 16);
	assert_int_equal(call_bypair((struct pair){11, 12}, -13), 10);
	assert_int_equal(call_bybig((struct big){21, 22, 23}, 24), 90);
	call_handle(1, &req1, "-z", 0, 0, 0);
	assert_int_equal(tfs_echo("events/enable", "0", W), 0);
	same("mn", "mr", 0, "h=7 a=1 g=-6");
	same("pn", "pr", 0, "z=-13 pr=0xb");
	same("bn", "br", 0, "z=24 bg=0x15");
	same("ix", "ir", 0, "arg1=40 arg2=122");
}

/* $arg*: every parameter by name, typed, in its place among the others. */
static void test_arg_star(void **state)
{
	(void)state;
	assert_int_equal(tfs_echo("dynamic_events", "f:all handle $arg* req->ok", A), 0);
	check("dynamic_events", "f:fprobes/all handle count=count req=req tag=tag big=big "
				"small=small neg=neg arg7=req->ok\n");
	char *fmt = rd("events/fprobes/all/format");
	assert_non_null(strstr(fmt, "\tfield:s32 count;\toffset:16;\tsize:4;\tsigned:1;\n"));
	assert_non_null(strstr(fmt, "\tfield:u64 req;\toffset:20;\tsize:8;\tsigned:0;\n"));
	assert_non_null(strstr(fmt, "\tfield:u64 tag;\toffset:28;\tsize:8;\tsigned:0;\n"));
	assert_non_null(strstr(fmt, "\tfield:s64 big;\toffset:36;\tsize:8;\tsigned:1;\n"));
	assert_non_null(strstr(fmt, "\tfield:u8 small;\toffset:44;\tsize:1;\tsigned:0;\n"));
	assert_non_null(strstr(fmt, "\tfield:s16 neg;\toffset:45;\tsize:2;\tsigned:1;\n"));
	assert_non_null(strstr(fmt, "\tfield:u8 arg7;\toffset:47;\tsize:1;\tsigned:0;\n"));
	free(fmt);
	/* The listing parses back to the same probe. */
	assert_int_equal(tfs_echo("dynamic_events", "-:all", A), 0);
	assert_int_equal(tfs_echo("dynamic_events",
				  "f:fprobes/all handle count=count req=req tag=tag big=big "
				  "small=small neg=neg arg7=req->ok",
				  A),
			 0);
	assert_int_equal(tfs_echo("events/fprobes/all/enable", "1", W), 0);
	call_handle(-1, &req1, "x", -2, 255, -32768);
	assert_int_equal(tfs_echo("events/fprobes/all/enable", "0", W), 0);
	char *x = args_of("all", 0), want[256];
	snprintf(want, sizeof(want),
		 "count=-1 req=0x%lx tag=0x%lx big=-2 small=255 neg=-32768 arg7=1",
		 (unsigned long)(uintptr_t)&req1, (unsigned long)(uintptr_t) "x");
	(void)want; /* the literal's address is the compiler's: compare the rest */
	assert_non_null(strstr(x, "count=-1 req=0x"));
	assert_non_null(strstr(x, " big=-2 small=255 neg=-32768 arg7=1"));
	free(x);
}

/* A refused definition: errno, the error_log line of location loc with
 * the caret at `at` (the last place that text is in cmd), and nothing
 * defined. */
static void refused(const char *loc, const char *cmd, int err, const char *msg, const char *at)
{
	const char *c = NULL;
	for (const char *q = cmd; (q = strstr(q, at)) != NULL; q++)
		c = q;
	assert_non_null(c);
	char log[512];
	snprintf(log, sizeof(log), "%s: error: %s\n  Command: %s\n%*s^\n", loc, msg, cmd,
		 11 + (int)(c - cmd), "");
	expect_error("dynamic_events", cmd, err, log);
	check("dynamic_events", "");
}

#define KP "trace_kprobe"
#define FP "trace_fprobe"

/* Each refusal: the kernel's BTF message and errno, the caret at the word. */
static void test_errors(void **state)
{
	(void)state;
	refused(KP, "p:e handle nosuch", -ENOENT, "This variable is not found at this probe point",
		"nosuch");
	refused(KP, "p:e handle x=req->nosuch:u32", -ENOENT, "This field is not found.", "nosuch");
	refused(KP, "p:e handle req->hdr.nosuch", -ENOENT, "This field is not found.", "nosuch");
	refused(KP, "p:e handle count->x", -EINVAL, "This is not a pointer to union/structure.",
		"x");
	refused(KP, "p:e handle req->hdr->len", -EINVAL,
		"This is not a pointer to union/structure.", "len");
	refused(KP, "p:e handle req-path", -EINVAL, "Failed to parse single hyphen. Forgot '>'?",
		"-path");
	refused(KP, "p:e bypair pr.x", -EOPNOTSUPP,
		"Non pointer structure/union argument is not supported.", "x");
	refused(KP, "p:e handle count:string", -EINVAL, "This type does not fit for string.",
		"count");
	refused(KP, "p:e handle req->hdr.len:string", -EINVAL, "This type does not fit for string.",
		"len");
	refused(KP, "p:e handle req->vals[x]", -EINVAL, "Invalid array index", "x]");
	refused(KP, "p:e handle count[1]", -EINVAL, "This is not an array or a pointer.", "[");
	refused(KP, "p:e handle req->hdr.len.x", -ENOENT, "This field is not found.", "x");
	refused(KP, "p:e many d", -EOPNOTSUPP, "BTF is not available or not supported", "d");
	refused(KP, "p:e handle+4 count", -EINVAL, "BTF is not available or not supported",
		"count");
	refused(KP, "r:e handle $retval->x", -EINVAL, "This is not a pointer to union/structure.",
		"x");
	refused(FP, "f:e nothing%return $retval req", -ENOENT, "This function returns 'void' type",
		"$retval");
	refused(FP, "f:e handle $arg* count $arg*", -EINVAL,
		"$arg* can be used only once in the parameters", "$arg*");
	refused(FP, "f:e handle $arg*:u8", -EINVAL,
		"$arg* must be an independent parameter without name etc.", "$arg*");
	refused(FP, "f:e handle $arg* count", -EINVAL, "This argument name is already used",
		"count");
	refused(KP, "p:e handle+4 $arg*", -EINVAL,
		"$arg* can be used only on function entry or exit", "$arg*");
	refused(KP, "p:e handle req->path]", -EINVAL, "Invalid fetch argument", "]");
}

/* A library without debug information: names refused, registers fine. */
static void test_no_debug_info(void **state)
{
	(void)state;
	void *h = dlopen(nodebug, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	refused(KP, "p:e libprobe_nodebug:nd_add count", -ENOENT,
		"No BTF entry for this probe point", "count");
	refused(FP, "f:e libprobe_nodebug:nd_add $arg*", -ENOENT,
		"No BTF entry for this probe point", "$arg*");
	assert_int_equal(
	    tfs_echo("dynamic_events", "p:nd libprobe_nodebug:nd_add count=%di:s32", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_int_equal(dlclose(h), 0);
}

/* Debug information in a separate file found by build-id. */
static void test_separate_debug_file(void **state)
{
	(void)state;
	void *h = dlopen(split, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	struct sp_item {
		long key;
		const char *label;
	} it = {5, "five"};
	int (*find)(int, const struct sp_item *) =
	    (int (*)(int, const struct sp_item *))dlsym(h, "sp_find");
	assert_non_null(find);
	assert_int_equal(
	    tfs_echo("dynamic_events", "p:sp libprobe_split:sp_find count item->label:string", A),
	    0);
	assert_int_equal(tfs_echo("events/kprobes/sp/enable", "1", W), 0);
	assert_int_equal(find(3, &it), 8);
	assert_int_equal(tfs_echo("events/kprobes/sp/enable", "0", W), 0);
	char *x = args_of("sp", 0);
	assert_string_equal(x, "count=3 arg2=\"five\"");
	free(x);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_int_equal(dlclose(h), 0);
}

int main(void)
{
	const char *build = getenv("UFT_BUILD");
	char rel[4096], root[4096];
	snprintf(rel, sizeof(rel), "%s/tests/libprobe_nodebug.so", build ? build : "build");
	if (!realpath(rel, nodebug)) {
		fprintf(stderr, "test_tracefs_probe_dwarf: no %s\n", rel);
		return 1;
	}
	snprintf(rel, sizeof(rel), "%s/tests/libprobe_split.so", build ? build : "build");
	if (!realpath(rel, split)) {
		fprintf(stderr, "test_tracefs_probe_dwarf: no %s\n", rel);
		return 1;
	}
	snprintf(rel, sizeof(rel), "%s/tests/debugroot", build ? build : "build");
	if (!realpath(rel, root)) {
		fprintf(stderr, "test_tracefs_probe_dwarf: no %s\n", rel);
		return 1;
	}
	setenv("UFT_DEBUG_ROOT", root, 1);
	uft_session_start();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_names_as_registers, setup),
	    cmocka_unit_test_setup(test_fprobe_and_returns, setup),
	    cmocka_unit_test_setup(test_abi_places, setup),
	    cmocka_unit_test_setup(test_arg_star, setup),
	    cmocka_unit_test_setup(test_errors, setup),
	    cmocka_unit_test_setup(test_no_debug_info, setup),
	    cmocka_unit_test_setup(test_separate_debug_file, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
