/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Naming code addresses (docs/design/symbols.md) in libuft (symtab.c) and in
 * the recorder's kallsyms (proc_syms.c, read back by kallsyms.c): a symbol
 * names only the addresses inside it; local symbols come from the .symtab,
 * or from a separate debug file found by build-id or .gnu_debuglink; other
 * addresses print "[object+0xoffset]". Test objects are built here with cc
 * and objcopy, their debug files under a root given by UFT_DEBUG_ROOT. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "recorder/proc_syms.h"
#include "runtime/core/symtab.h"
#include "tracedat/kallsyms.h"
#include "util/debugfile.h"

static char dir[64];
static bool have_tools;

/* f_one [16] gap [16] f_two [16] f_local [16] f_zero (no size) [16] f_end.
 * `variant` makes each object's bytes, and so its build-id, its own. */
static const char asm_text[] = ".text\n"
			       ".globl f_one\n.type f_one,@function\n"
			       "f_one: .fill 16,1,0x90\n.size f_one,16\n"
			       ".Lgap: .fill 16,1,0x90\n"
			       ".globl f_two\n.type f_two,@function\n"
			       "f_two: .fill 16,1,0x90\n.size f_two,16\n"
			       ".type f_local,@function\n"
			       "f_local: .fill 16,1,0x90\n.size f_local,16\n"
			       ".globl f_zero\n.type f_zero,@function\n"
			       "f_zero: .fill 16,1,0x90\n"
			       ".globl f_end\n.type f_end,@function\n"
			       "f_end: ret\n.size f_end,1\n"
			       ".data\n.globl variant\nvariant: .byte %d\n"
			       ".section .note.GNU-stack,\"\",@progbits\n";

static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* dir/NAME.so from the source; 0 or -1. */
static int build(const char *name, int variant)
{
	char src[128];
	snprintf(src, sizeof(src), "%s/%s.s", dir, name);
	FILE *f = fopen(src, "w");
	if (!f)
		return -1;
	fprintf(f, asm_text, variant);
	fclose(f);
	return sh("cc -shared -nostdlib -Wl,--build-id -o %s/%s.so %s", dir, name, src) ? -1 : 0;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/uft-symbols-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	have_tools = sh("command -v cc >/dev/null && command -v objcopy >/dev/null") == 0;
	if (!have_tools)
		return 0;
	char root[128];
	snprintf(root, sizeof(root), "%s/root", dir);
	setenv("UFT_DEBUG_ROOT", root, 1);
	/* full: its own .symtab. bare: stripped, no debug file. link: stripped,
	 * its debug file in the .debug subdirectory by .gnu_debuglink. id:
	 * stripped, its debug file under the root by build-id. */
	const char *d = dir;
	bool ok = build("full", 1) == 0 && build("bare", 2) == 0 && build("link", 3) == 0 &&
		  build("id", 4) == 0 &&
		  sh("strip --strip-all %s/bare.so && mkdir -p %s/.debug && "
		     "objcopy --only-keep-debug %s/link.so %s/.debug/link.debug && "
		     "strip --strip-all %s/link.so && "
		     "objcopy --add-gnu-debuglink=%s/.debug/link.debug %s/link.so",
		     d, d, d, d, d, d, d) == 0 &&
		  sh("id=$(readelf -n %s/id.so | sed -n 's/.*Build ID: //p') && "
		     "mkdir -p %s/.build-id/$(echo $id | cut -c1-2) && "
		     "objcopy --only-keep-debug %s/id.so "
		     "%s/.build-id/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-).debug && "
		     "strip --strip-all %s/id.so",
		     d, root, d, root, d) == 0;
	have_tools = ok;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf %s", dir);
	return 0;
}

struct lib {
	void *h;
	uintptr_t one, two, zero, end;
};

static void open_lib(const char *name, struct lib *l)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s.so", dir, name);
	l->h = dlopen(path, RTLD_NOW);
	assert_non_null(l->h);
	l->one = (uintptr_t)dlsym(l->h, "f_one");
	l->two = (uintptr_t)dlsym(l->h, "f_two");
	l->zero = (uintptr_t)dlsym(l->h, "f_zero");
	l->end = (uintptr_t)dlsym(l->h, "f_end");
	assert_true(l->one && l->two == l->one + 32 && l->zero == l->two + 32);
}

/* The name uft_symbol_find gives addr, else its "[object+0xoff]". */
static const char *name_of(uintptr_t addr, char *buf, size_t len)
{
	struct uft_symbol s;
	if (uft_symbol_find(addr, &s) == 0)
		snprintf(buf, len, "%s", s.name);
	else if (uft_symbol_tag(&s, addr, buf, len) != 0)
		snprintf(buf, len, "?");
	return buf;
}

/* addr prints as "[object+0xoffset]", the offset from the object's base. */
static void expect_tag(uintptr_t addr, const char *object)
{
	char want[128], got[300];
	Dl_info di;
	assert_true(dladdr((void *)addr, &di));
	snprintf(want, sizeof(want), "[%s+0x%lx]", object,
		 (unsigned long)(addr - (uintptr_t)di.dli_fbase));
	assert_string_equal(name_of(addr, got, sizeof(got)), want);
}

static void test_inside_past_between(void **state)
{
	(void)state;
	if (!have_tools)
		skip();
	struct lib l;
	open_lib("full", &l);
	char b[300];
	assert_string_equal(name_of(l.one, b, sizeof(b)), "f_one");
	assert_string_equal(name_of(l.one + 15, b, sizeof(b)), "f_one");
	/* Past f_one's end, between it and f_two: dladdr() says f_one. */
	expect_tag(l.one + 16, "full.so");
	expect_tag(l.one + 31, "full.so");
	assert_string_equal(name_of(l.two + 3, b, sizeof(b)), "f_two");
	/* A local symbol, in the .symtab only. */
	assert_string_equal(name_of(l.two + 16 + 5, b, sizeof(b)), "f_local");
	/* A symbol without size names its own address only. */
	assert_string_equal(name_of(l.zero, b, sizeof(b)), "f_zero");
	expect_tag(l.zero + 4, "full.so");
	assert_string_equal(name_of(l.end, b, sizeof(b)), "f_end");
}

static void test_stripped(void **state)
{
	(void)state;
	if (!have_tools)
		skip();
	struct lib l;
	open_lib("bare", &l);
	char b[300];
	assert_string_equal(name_of(l.two + 1, b, sizeof(b)), "f_two");
	/* The local symbol went with the .symtab: its address, not f_two. */
	expect_tag(l.two + 16 + 5, "bare.so");
}

static void test_debug_files(void **state)
{
	(void)state;
	if (!have_tools)
		skip();
	const char *names[] = {"link", "id"};
	for (int i = 0; i < 2; i++) {
		struct lib l;
		open_lib(names[i], &l);
		char b[300];
		assert_string_equal(name_of(l.two + 16 + 5, b, sizeof(b)), "f_local");
		char obj[32];
		snprintf(obj, sizeof(obj), "%s.so", names[i]);
		expect_tag(l.one + 20, obj);
	}
}

/* The recorder's kallsyms of this process, read back as uft report does. */
static void test_kallsyms(void **state)
{
	(void)state;
	if (!have_tools)
		skip();
	struct lib full, bare, id;
	open_lib("full", &full);
	open_lib("bare", &bare);
	open_lib("id", &id);
	struct proc_syms *p = proc_syms_new();
	assert_non_null(p);
	assert_int_equal(proc_syms_scan(p, getpid()), 0);
	size_t len;
	const char *text = proc_syms_text(p, &len);
	struct uft_ksyms k;
	assert_int_equal(uft_ksyms_parse(&k, text, len), 0);
	struct {
		struct lib *l;
		const char *obj;
	} libs[] = {{&full, "full.so"}, {&bare, "bare.so"}, {&id, "id.so"}};
	for (int i = 0; i < 3; i++) {
		struct lib *l = libs[i].l;
		Dl_info di;
		assert_true(dladdr((void *)l->one, &di));
		uint64_t base = (uintptr_t)di.dli_fbase;
		struct uft_sym s;
		assert_true(uft_ksyms_lookup(&k, l->one + 15, &s));
		assert_string_equal(s.name, "f_one");
		assert_true(uft_ksyms_lookup(&k, l->one + 20, &s));
		assert_null(s.name);
		assert_string_equal(s.module, libs[i].obj);
		assert_int_equal(s.start, base);
		assert_true(uft_ksyms_lookup(&k, l->two + 21, &s));
		if (i == 1) { /* no .symtab, no debug file */
			assert_null(s.name);
		} else {
			assert_non_null(s.name);
			assert_string_equal(s.name, "f_local");
		}
		assert_true(uft_ksyms_lookup(&k, l->zero + 4, &s));
		assert_null(s.name);
		assert_true(uft_ksyms_lookup(&k, l->end, &s));
		assert_string_equal(s.name, "f_end");
	}
	uft_ksyms_free(&k);
	proc_syms_free(p);
}

static void *thread_fn(void *arg)
{
	*(void **)arg = __builtin_return_address(0);
	return NULL;
}

/* The return address of a thread's function is in libc's start_thread,
 * a local symbol Debian strips: named from libc6-dbg's debug file when
 * installed, else "[libc.so.6+0x...]", never the exported symbol below. */
static void test_libc_start_thread(void **state)
{
	(void)state;
	void *ra = NULL;
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, thread_fn, &ra), 0);
	pthread_join(t, NULL);
	assert_non_null(ra);
	Dl_info di;
	assert_true(dladdr(ra, &di));
	if (!strstr(di.dli_fname, "libc.so.6"))
		skip(); /* another C library */
	int fd = open(di.dli_fname, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	assert_true(m != MAP_FAILED);
	char debug[4096];
	unsetenv("UFT_DEBUG_ROOT");
	bool dbg = uft_debug_file(di.dli_fname, m, (size_t)st.st_size, debug, sizeof(debug));
	munmap(m, (size_t)st.st_size);
	char b[300];
	const char *name = name_of((uintptr_t)ra - 1, b, sizeof(b));
	print_message("return address of a thread function: %s (debug file: %s)\n", name,
		      dbg ? debug : "none");
	if (dbg)
		assert_string_equal(name, "start_thread");
	else
		assert_true(strncmp(name, "[libc.so.6+0x", 13) == 0 ||
			    !strcmp(name, "start_thread"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_inside_past_between), cmocka_unit_test(test_stripped),
	    cmocka_unit_test(test_debug_files),		cmocka_unit_test(test_kallsyms),
	    cmocka_unit_test(test_libc_start_thread),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
