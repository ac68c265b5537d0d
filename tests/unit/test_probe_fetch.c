/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Probe fetch args evaluated on known registers, stacks and memory: every
 * fetch kind and type, the record layout, the format and print fmt (as
 * the kernel writes them and as libtraceevent reads them), and wild
 * pointers from several threads at once giving the kernel's fault results
 * without a crash. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/format/format.h"
#include "probe_env.h"
#include "tep_body.h"

#define REC_MAX 8192

static struct uft_probe_def *def_of(const char *line, struct uft_probe_cmd *c)
{
	struct uft_probe_env env = probe_test_env(UFT_PROBE_SRC_DYNAMIC);
	struct uft_probe_error e;
	int rc = uft_probe_parse(line, &env, c, &e);
	if (rc)
		fail_msg("'%s': %d %s at %u", line, rc, e.msg ? e.msg : "-", e.pos);
	return &c->def;
}

static uint64_t u64_at(const uint8_t *rec, uint32_t off)
{
	uint64_t v;
	memcpy(&v, rec + off, 8);
	return v;
}

static uint32_t u32_at(const uint8_t *rec, uint32_t off)
{
	uint32_t v;
	memcpy(&v, rec + off, 4);
	return v;
}

/* The record of line at a hit described by ctx, and its args' trace text. */
static uint32_t hit(const char *line, const struct uft_probe_ctx *ctx, uint8_t *rec, char *text,
		    size_t tlen)
{
	struct uft_probe_cmd c;
	struct uft_probe_def *d = def_of(line, &c);
	memset(rec, 0xee, REC_MAX);
	uint32_t len = uft_probe_record_fill(d, ctx, rec, REC_MAX);
	assert_true(len >= d->fixed_size);
	if (text)
		uft_probe_args_text(d, rec, len, text, tlen);
	uft_probe_cmd_free(&c);
	return len;
}

static void expect_text(const char *line, const struct uft_probe_ctx *ctx, const char *want)
{
	uint8_t rec[REC_MAX];
	char text[2048];
	hit(line, ctx, rec, text, sizeof(text));
	if (strcmp(text, want) != 0)
		fail_msg("'%s':\n got '%s'\nwant '%s'", line, text, want);
}

static struct uft_probe_regs regs_known(uint64_t *stack)
{
	struct uft_probe_regs r;
	for (int i = 0; i < UFT_REG_NR; i++)
		r.r[i] = 0x100 + (uint64_t)i;
	r.r[UFT_REG_SP] = (uintptr_t)stack;
	return r;
}

static void test_registers_and_stack(void **state)
{
	uint64_t stack[12];
	for (int i = 0; i < 12; i++)
		stack[i] = 0x5000 + (uint64_t)i;
	struct uft_probe_regs r = regs_known(stack);
	struct uft_probe_ctx ctx = {.regs = &r, .ip = 0x401000};
	uint8_t rec[REC_MAX];
	hit("p main %ax %bx %cx %dx %si %di %bp %r8 %r9 %r10 %r11 %r12 %r13 %r14 %r15 %ip %flags",
	    &ctx, rec, NULL, 0);
	assert_int_equal(u64_at(rec, 8), 0x401000);
	static const int order[] = {
	    UFT_REG_AX,	 UFT_REG_BX,  UFT_REG_CX,  UFT_REG_DX,	UFT_REG_SI,   UFT_REG_DI,
	    UFT_REG_BP,	 UFT_REG_R8,  UFT_REG_R9,  UFT_REG_R10, UFT_REG_R11,  UFT_REG_R12,
	    UFT_REG_R13, UFT_REG_R14, UFT_REG_R15, UFT_REG_IP,	UFT_REG_FLAGS};
	for (int i = 0; i < 17; i++)
		assert_int_equal(u64_at(rec, 16 + 8 * (uint32_t)i), 0x100 + (uint64_t)order[i]);
	hit("p main %sp $stack $stack0 $stack3 $stack11", &ctx, rec, NULL, 0);
	assert_int_equal(u64_at(rec, 16), (uintptr_t)stack);
	assert_int_equal(u64_at(rec, 24), (uintptr_t)stack);
	assert_int_equal(u64_at(rec, 32), 0x5000);
	assert_int_equal(u64_at(rec, 40), 0x5003);
	assert_int_equal(u64_at(rec, 48), 0x500b);
	/* SysV: rdi rsi rdx rcx r8 r9, then the stack past the return address. */
	hit("p main $arg1 $arg2 $arg3 $arg4 $arg5 $arg6 $arg7 $arg8", &ctx, rec, NULL, 0);
	static const int args[] = {UFT_REG_DI, UFT_REG_SI, UFT_REG_DX,
				   UFT_REG_CX, UFT_REG_R8, UFT_REG_R9};
	for (int i = 0; i < 6; i++)
		assert_int_equal(u64_at(rec, 16 + 8 * (uint32_t)i), 0x100 + (uint64_t)args[i]);
	assert_int_equal(u64_at(rec, 64), 0x5001);
	assert_int_equal(u64_at(rec, 72), 0x5002);
}

static void test_return_probe(void **state)
{
	uint64_t stack[4] = {0};
	struct uft_probe_regs at_ret = regs_known(stack), at_entry = regs_known(stack);
	at_ret.r[UFT_REG_DI] = 0xdead;
	at_entry.r[UFT_REG_DI] = 0x1234;
	struct uft_probe_ctx ctx = {.regs = &at_ret,
				    .entry_regs = &at_entry,
				    .retval = (uint64_t)-2,
				    .func = 0x401000,
				    .ret_ip = 0x402345};
	uint8_t rec[REC_MAX];
	char text[256];
	hit("r:rp main $retval ret=$retval:s32 a=$arg1", &ctx, rec, text, sizeof(text));
	assert_int_equal(u64_at(rec, 8), 0x401000);
	assert_int_equal(u64_at(rec, 16), 0x402345);
	assert_int_equal(u64_at(rec, 24), (uint64_t)-2);
	assert_int_equal(u32_at(rec, 32), (uint32_t)-2);
	assert_int_equal(u64_at(rec, 36), 0x1234);
	assert_string_equal(text, " arg1=0xfffffffffffffffe ret=-2 a=0x1234");
	expect_text("f main%return r=$retval:u8", &ctx, " r=254");
}

static void test_memory_and_types(void **state)
{
	uint64_t stack[4] = {0};
	struct uft_probe_regs r = regs_known(stack);
	uint64_t pattern[2] = {0x8877665544332211ull, 0x00000000000000ffull};
	const char *strs[2] = {"first", "second"};
	struct {
		uint64_t pad;
		void *ptr;
	} outer = {0, pattern};
	r.r[UFT_REG_DI] = (uintptr_t)pattern;
	r.r[UFT_REG_SI] = (uintptr_t)&pattern[1];
	r.r[UFT_REG_DX] = (uintptr_t)&outer;
	r.r[UFT_REG_CX] = (uintptr_t)strs;
	r.r[UFT_REG_R8] = (uintptr_t) "hello";
	struct uft_probe_ctx ctx = {.regs = &r, .ip = 1};

	expect_text("p main +0(%di):u8 +0(%di):u16 +0(%di):u32 +0(%di):u64", &ctx,
		    " arg1=17 arg2=8721 arg3=1144201745 arg4=9833440827789222417");
	expect_text("p main +0(%si):s8 +0(%si):s16 +0(%si):s32 +0(%si):s64 +7(%di):s8", &ctx,
		    " arg1=-1 arg2=255 arg3=255 arg4=255 arg5=-120");
	expect_text("p main +0(%di):x8 +0(%di):x16 +0(%di):x32 +0(%di):x64 +0(%di)", &ctx,
		    " arg1=0x11 arg2=0x2211 arg3=0x44332211 arg4=0x8877665544332211"
		    " arg5=0x8877665544332211");
	expect_text("p main +0(%r8):char +1(%r8):char", &ctx, " arg1='h' arg2='e'");
	/* Negative and nested dereferences. */
	expect_text("p main -8(%si):x64 +8(+8(%dx)):u8 +1(+8(%dx)):u8", &ctx,
		    " arg1=0x8877665544332211 arg2=255 arg3=34");
	/* Bitfields: width @ bit offset / container. */
	expect_text("p main +0(%di):b4@4/8 +0(%di):b4@0/8 +0(%di):b12@8/32 +0(%di):b1@63/64", &ctx,
		    " arg1=1 arg2=1 arg3=802 arg4=1");
	/* Arrays, of numbers and of string pointers. */
	expect_text("p main +0(%di):u16[3] +0(%di):x8[2] +0(%cx):string[2]", &ctx,
		    " arg1={8721,17459,26197} arg2={0x11,0x22} arg3={\"first\",\"second\"}");
	/* Strings. */
	expect_text("p main +0(%r8):string s=+2(%r8):ustring +0(+8(%cx)):string", &ctx,
		    " arg1=\"hello\" s=\"llo\" arg3=\"second\"");
	/* Immediates. */
	expect_text("p main \\123 \\0x1f:u8 \\-5:s32 \\+7:u16 s=\\\"hi_there\" \\\"\":string", &ctx,
		    " arg1=0x7b arg2=31 arg3=-5 arg4=7 s=\"hi_there\" arg6=\"\"");
}

static int sym_name(void *c, uint64_t addr, char *buf, size_t len)
{
	if (addr != 0x401004)
		return -1;
	snprintf(buf, len, "main+0x4/0x20");
	return 0;
}

static void test_symbols_comm_files(void **state)
{
	uint64_t stack[4] = {0};
	struct uft_probe_regs r = regs_known(stack);
	uint64_t ptr = 0x401004;
	r.r[UFT_REG_DI] = 0x401004;
	r.r[UFT_REG_SI] = (uintptr_t)&ptr;
	struct uft_probe_ctx ctx = {.regs = &r, .sym_name = sym_name, .comm = "worker"};
	char want[256];
	snprintf(want, sizeof(want),
		 " arg1=0x401004 arg2=\"main+0x4/0x20\" arg3=\"main+0x4/0x20\" arg4=\"0x%" PRIxPTR
		 "\"",
		 (uintptr_t)&ptr);
	expect_text("p main %di:symbol %di:symstr +0(%si):symstr %si:symstr", &ctx, want);
	expect_text("p main $comm c=$COMM", &ctx, " arg1=\"worker\" c=\"worker\"");
	ctx.comm = NULL;
	char old[17] = {0};
	prctl(PR_GET_NAME, old);
	prctl(PR_SET_NAME, "probe-thread");
	expect_text("p main $comm", &ctx, " arg1=\"probe-thread\"");
	prctl(PR_SET_NAME, old);
	/* @ADDR, @SYM+-OFFS, @+FILEOFFSET. */
	char line[256];
	snprintf(line, sizeof(line), "p main @0x%" PRIxPTR ":s64 @gvar:u8 @gvar+16:s64 @gvar-0:u32",
		 (uintptr_t)&probe_gvar[1]);
	expect_text(line, &ctx, " arg1=22 arg2=11 arg3=33 arg4=11");
	ctx.file_bias = (uintptr_t)probe_gvar;
	expect_text("p /bin/prog:0x10 @+8:u16 @+24:s64", &ctx, " arg1=22 arg2=44");
}

static void test_eprobe_fields(void **state)
{
	uint8_t src[64] = {0};
	int32_t pid = -5;
	int16_t prio = 7;
	uint64_t next = 77;
	memcpy(src + 8, "kworker/0:1", 12);
	memcpy(src + 24, &pid, 4);
	memcpy(src + 28, &prio, 2);
	uint32_t loc = (4u << 16) | 48u;
	memcpy(src + 32, &loc, 4);
	memcpy(src + 40, &next, 8);
	memcpy(src + 48, "abc", 4);
	struct uft_probe_ctx ctx = {.event_rec = src, .event_len = sizeof(src), .comm = "me"};
	uint8_t rec[REC_MAX];
	char text[256];
	uint32_t len = hit("e sched.sched_switch $prev_pid p=$prev_pid:s32 $prio:s16 $next_pid:u32 "
			   "c=$prev_comm:string n=$name:string $comm",
			   &ctx, rec, text, sizeof(text));
	assert_string_equal(text, " arg1=0xfffffffffffffffb p=-5 arg3=7 arg4=77 c=\"kworker/0:1\""
				  " n=\"abc\" arg7=\"me\"");
	/* No __probe_ip: the args start right after the common fields. */
	assert_int_equal(u64_at(rec, 8), (uint64_t)-5);
	assert_int_equal(len, 8 + 8 + 4 + 2 + 4 + 4 * 3 + 12 + 4 + 3);
}

/* The spec's example, field by field and its print fmt, and what libtraceevent prints. */
static void test_format_and_tep(void **state)
{
	struct uft_probe_cmd c;
	struct uft_probe_def *d = def_of(
	    "p:myprobe do_sys_openat2 dfd=%di filename=+0(%si):string flags=+8(%dx):u32", &c);
	uint32_t nr;
	struct uft_field *f = uft_probe_fields(d, &nr);
	char *pf = uft_probe_print_fmt(d);
	struct uft_event ev = {
	    .system = "kprobes", .name = "myprobe", .fields = f, .nr_fields = nr, .print_fmt = pf};
	char text[4096];
	assert_true(uft_format_text(&ev, 1870, text, sizeof(text)) > 0);
	assert_string_equal(
	    text, "name: myprobe\nID: 1870\nformat:\n"
		  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		  "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		  "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		  "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		  "\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"
		  "\tfield:u64 dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
		  "\tfield:__data_loc char[] filename;\toffset:24;\tsize:4;\tsigned:1;\n"
		  "\tfield:u32 flags;\toffset:28;\tsize:4;\tsigned:0;\n\n"
		  "print fmt: \"(%lx) dfd=0x%Lx filename=\\\"%s\\\" flags=%u\", REC->__probe_ip, "
		  "REC->dfd, "
		  "__get_str(filename), REC->flags\n");

	/* A hit, then libtraceevent's reading of the record. */
	uint32_t flags[3] = {0, 0, 524288};
	uint64_t stack[2] = {0};
	struct uft_probe_regs r = regs_known(stack);
	r.r[UFT_REG_DI] = 0xffffff9c;
	r.r[UFT_REG_SI] = (uintptr_t) "/etc/ld.so.cache";
	r.r[UFT_REG_DX] = (uintptr_t)flags;
	struct uft_probe_ctx ctx = {.regs = &r, .ip = 0xffffffff81234560ull};
	uint8_t rec[REC_MAX] = {0};
	uint32_t len = uft_probe_record_fill(d, &ctx, rec, sizeof(rec));
	uint16_t type = 200;
	memcpy(rec, &type, 2);
	char out[512];
	tep_body(pf, f, nr, rec, len, out, sizeof(out));
	assert_string_equal(out, "(ffffffff81234560) dfd=0xffffff9c filename=\"/etc/ld.so.cache\" "
				 "flags=524288");
	char args[512];
	uft_probe_args_text(d, rec, len, args, sizeof(args));
	assert_string_equal(args, " dfd=0xffffff9c filename=\"/etc/ld.so.cache\" flags=524288");
	uft_probe_fields_free(f, nr);
	free(pf);
	uft_probe_cmd_free(&c);
}

static void tep_case(const char *line, const struct uft_probe_ctx *ctx, const char *want_fmt,
		     const char *want)
{
	struct uft_probe_cmd c;
	struct uft_probe_def *d = def_of(line, &c);
	uint32_t nr;
	struct uft_field *f = uft_probe_fields(d, &nr);
	char *pf = uft_probe_print_fmt(d);
	if (want_fmt)
		assert_string_equal(pf, want_fmt);
	uint8_t rec[REC_MAX] = {0};
	uint32_t len = uft_probe_record_fill(d, ctx, rec, sizeof(rec));
	uint16_t type = 200;
	memcpy(rec, &type, 2);
	char out[1024];
	tep_body(pf, f, nr, rec, len, out, sizeof(out));
	if (strcmp(out, want) != 0)
		fail_msg("'%s': libtraceevent prints\n'%s'\nwant\n'%s'", line, out, want);
	uft_probe_fields_free(f, nr);
	free(pf);
	uft_probe_cmd_free(&c);
}

static void test_formats_libtraceevent(void **state)
{
	uint64_t stack[2] = {0};
	int16_t vals[4] = {1, -2, 3, 4};
	struct uft_probe_regs r = regs_known(stack);
	r.r[UFT_REG_DI] = (uintptr_t)vals;
	r.r[UFT_REG_SI] = (uintptr_t) "xy";
	struct uft_probe_ctx ctx = {
	    .regs = &r, .retval = 3, .func = 0x401000, .ret_ip = 0x402000, .comm = "w"};
	tep_case("r:rp main $retval r=$retval:s8", &ctx,
		 "\"(%lx <- %lx) arg1=0x%Lx r=%d\", REC->__probe_func, REC->__probe_ret_ip, "
		 "REC->arg1, REC->r",
		 "(401000 <- 402000) arg1=0x3 r=3");
	/* libtraceevent reads array elements unsigned and has no '%c' of a
	 * char field: the kernel's own text (uft_probe_args_text) has both. */
	tep_case("p main a=+0(%di):s16[3] c=+0(%si):u8", &ctx,
		 "\"(%lx) a={%d,%d,%d} c=%u\", REC->__probe_ip, REC->a[0], REC->a[1], REC->a[2], "
		 "REC->c",
		 "(0) a={1,65534,3} c=120");
	expect_text("p main a=+0(%di):s16[3] c=+0(%si):char", &ctx, " a={1,-2,3} c='x'");
	tep_case("p main s=+0(%si):string u=+1(%si):ustring n=$comm", &ctx, NULL,
		 "(0) s=\"xy\" u=\"y\" n=\"w\"");
	tep_case("p main b=+2(%di):b4@0/8 x=+0(%di):x16", &ctx, NULL, "(0) b=14 x=0x1");
}

/* Wild pointers. */
static char *boundary;	   /* the last 3 bytes of a page followed by an unmapped one */
static uint64_t *unmapped; /* PROT_NONE: no later mmap() can reuse it */
static uint64_t gone;	   /* unmapped: checked before any thread maps memory */

static const char wild_line[] =
    "p main a=+0(%di):u64 b=+0(%di):string c=+4(+0(%di)):s32 d=$stack2 "
    "e=+0(%di):u16[2] f=+0(%di):string[2] g=+0(%di):symstr h=+0(%di):ustring";
static const char wild_want[] =
    " a=0 b=(fault) c=0 d=0x0 e={0,0} f={(fault),(fault)} g=(fault) h=(fault)";

/* The number of wild addresses whose record is not the fault record (no
 * cmocka assertion: it runs in threads too). */
static int wild_round(const struct uft_probe_def *d, bool with_gone)
{
	uint64_t stack[2] = {0};
	struct uft_probe_regs r = regs_known(stack);
	const uint64_t wild[] = {0,
				 8,
				 (uintptr_t)unmapped,
				 0xffffffff81000000ull,
				 0xffff888000000000ull,
				 0x00007fffffffffffull,
				 gone};
	int bad = 0;
	size_t n = sizeof(wild) / sizeof(wild[0]) - (with_gone ? 0 : 1);
	for (size_t i = 0; i < n; i++) {
		r.r[UFT_REG_DI] = wild[i];
		r.r[UFT_REG_SP] = wild[i];
		struct uft_probe_ctx ctx = {.regs = &r, .ip = 9};
		uint8_t rec[512];
		char text[512];
		uint32_t len = uft_probe_record_fill(d, &ctx, rec, sizeof(rec));
		uft_probe_args_text(d, rec, len, text, sizeof(text));
		/* A fault's __data_loc has no bytes. */
		if (strcmp(text, wild_want) != 0 || u32_at(rec, 24) >> 16 != 0)
			bad++;
	}
	return bad;
}

static void *fault_thread(void *arg)
{
	int bad = 0;
	for (int i = 0; i < 300; i++)
		bad += wild_round(arg, false);
	return (void *)(intptr_t)bad;
}

static void wild_pointers(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *two = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(two != MAP_FAILED);
	assert_int_equal(mprotect(two + page, (size_t)page, PROT_NONE), 0);
	void *g = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(g != MAP_FAILED);
	assert_int_equal(munmap(g, (size_t)page), 0);
	gone = (uintptr_t)g;
	boundary = two + page - 3;
	memcpy(boundary, "YZ", 3);
	unmapped = (uint64_t *)(void *)(two + page);

	struct uft_probe_cmd c;
	struct uft_probe_def *d = def_of(wild_line, &c);
	assert_int_equal(wild_round(d, true), 0);
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, fault_thread, d), 0);
	for (int i = 0; i < 4; i++) {
		void *bad;
		pthread_join(t[i], &bad);
		assert_int_equal((intptr_t)bad, 0);
	}
	uft_probe_cmd_free(&c);

	/* A string that ends before the unmapped page is read; one that
	 * runs into it is a fault, as is a number that straddles it. */
	uint64_t stack[2] = {0};
	struct uft_probe_regs r = regs_known(stack);
	r.r[UFT_REG_DI] = (uintptr_t)boundary + 1;
	struct uft_probe_ctx ctx = {.regs = &r};
	uint8_t rec[REC_MAX];
	char text[256];
	hit("p main +0(%di):string +1(%di):string +0(%di):u16 +1(%di):u16 +0(%di):u8", &ctx, rec,
	    text, sizeof(text));
	assert_string_equal(text, " arg1=\"Z\" arg2=\"\" arg3=90 arg4=0 arg5=90");
	r.r[UFT_REG_DI] = (uintptr_t)boundary;
	hit("p main +0(%di):string +0(%di):u8 +0(%di):u8[4] +0(%di):u8[3]", &ctx, rec, text,
	    sizeof(text));
	assert_string_equal(text, " arg1=\"YZ\" arg2=89 arg3={89,90,0,0} arg4={89,90,0}");
	boundary[2] = 'Q';
	hit("p main +0(%di):string +0(%di):u8", &ctx, rec, text, sizeof(text));
	assert_string_equal(text, " arg1=(fault) arg2=89");
	munmap(two, (size_t)page * 2);
}

static void test_wild_pointers(void **state)
{
	wild_pointers();
}

static sigjmp_buf elsewhere_jmp;

static void elsewhere(int sig)
{
	siglongjmp(elsewhere_jmp, 1);
}

/* The same through the cheap copy and its fault handler; a fault
 * anywhere else still reaches the handler installed before. (Last: cmocka
 * puts its own handlers back after each test.) */
static void test_fast_reads(void **state)
{
	struct sigaction prev = {.sa_handler = elsewhere};
	sigemptyset(&prev.sa_mask);
	assert_int_equal(sigaction(SIGSEGV, &prev, NULL), 0);
	assert_int_equal(uft_probe_fast_read_init(), 0);
	wild_pointers();
	long v = 42, out = 0;
	assert_int_equal(uft_probe_read(&out, &v, sizeof(v)), sizeof(v));
	assert_int_equal(out, 42);
	assert_int_equal(uft_probe_read(&out, NULL, sizeof(v)), 0);
	volatile int reached = 0;
	if (sigsetjmp(elsewhere_jmp, 1) == 0) {
		volatile uintptr_t wild = 16;
		(void)*(volatile long *)wild;
	} else {
		reached = 1;
	}
	assert_int_equal(reached, 1);
}

static void test_truncation(void **state)
{
	char big[300];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	uint64_t stack[2] = {0};
	struct uft_probe_regs r = regs_known(stack);
	r.r[UFT_REG_DI] = (uintptr_t)big;
	struct uft_probe_ctx ctx = {.regs = &r};
	struct uft_probe_cmd c;
	struct uft_probe_def *d = def_of("p main +0(%di):string n=%di:u32", &c);
	uint8_t rec[128];
	/* Too small for the fixed part: nothing written. */
	assert_int_equal(uft_probe_record_fill(d, &ctx, rec, 20), 0);
	/* A string cut to the room left, NUL-terminated. */
	uint32_t len = uft_probe_record_fill(d, &ctx, rec, sizeof(rec));
	assert_int_equal(len, sizeof(rec));
	uint32_t loc = u32_at(rec, 16);
	assert_int_equal(loc & 0xffff, 24);
	assert_int_equal(loc >> 16, sizeof(rec) - 24);
	assert_int_equal(rec[sizeof(rec) - 1], 0);
	assert_int_equal(u32_at(rec, 20), (uint32_t)(uintptr_t)big);
	uft_probe_cmd_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_registers_and_stack),
	    cmocka_unit_test(test_return_probe),
	    cmocka_unit_test(test_memory_and_types),
	    cmocka_unit_test(test_symbols_comm_files),
	    cmocka_unit_test(test_eprobe_fields),
	    cmocka_unit_test(test_format_and_tep),
	    cmocka_unit_test(test_formats_libtraceevent),
	    cmocka_unit_test(test_wild_pointers),
	    cmocka_unit_test(test_truncation),
	    cmocka_unit_test(test_fast_reads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
