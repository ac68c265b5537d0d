/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Probes on a library loaded after their definition: LIB:SYMBOL and
 * PATH:OFFSET definitions wait (listed as written), attach when dlopen()
 * brings the library, wait again when dlclose() takes it away, and attach
 * again at the next load. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
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
#include "file_offset.h"
#include "probe_tree.h"

static char lib[4096];

static int setup(void **state)
{
	(void)state;
	tfs_echo("events/enable", "0", W);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_int_equal(tfs_echo("trace", "", W), 0);
	assert_int_equal(tfs_echo("tracing_on", "1", W), 0);
	return 0;
}

static void *load(int (**mul)(int, int))
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	*mul = (int (*)(int, int))dlsym(h, "pl_mul");
	assert_non_null(*mul);
	return h;
}

static void test_lib_symbol(void **state)
{
	(void)state;
	assert_null(dlopen(lib, RTLD_NOW | RTLD_NOLOAD));
	assert_int_equal(
	    tfs_echo("dynamic_events", "p:late libprobe_late:pl_mul a=%di:s32 b=$arg2:s32", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "r:lret libprobe_late:pl_mul $retval:s32", A),
			 0);
	/* A library that is never loaded waits as well; a plain symbol that
	 * is nowhere is refused. */
	assert_int_equal(tfs_echo("dynamic_events", "p:never libnosuch:f", A), 0);
	assert_int_equal(tfs_echo("dynamic_events", "p:bad pl_mul", A), -ENOENT);
	check("dynamic_events", "p:kprobes/late libprobe_late:pl_mul a=%di:s32 b=$arg2:s32\n"
				"r:kprobes/lret libprobe_late:pl_mul arg1=$retval:s32\n"
				"p:kprobes/never libnosuch:f\n");
	/* Loaded while disabled: attached, not patched. */
	int (*mul)(int, int);
	void *h = load(&mul);
	uint8_t orig[5];
	memcpy(orig, (const void *)mul, 5);
	assert_int_equal(mul(1, 1), 1);
	assert_int_equal(dlclose(h), 0);
	assert_int_equal(tfs_echo("events/kprobes/enable", "1", W), 0);
	h = load(&mul);
	/* Patched at the load: the sled is a call. */
	assert_int_equal(*(const uint8_t *)mul, 0xe8);
	assert_int_equal(mul(6, 7), 42);
	expect_in("trace", "late: (pl_mul+0x0/0x", 1);
	expect_in("trace", ") a=1 b=1\n", 0);
	expect_in("trace", ") a=6 b=7\n", 1);
	expect_in("trace", "lret: (test_lib_symbol+0x", 1);
	expect_in("trace", " <- pl_mul) arg1=42\n", 1);
	/* Unloaded: waiting again, still listed; loaded again: attached. */
	assert_int_equal(dlclose(h), 0);
	assert_null(dlopen(lib, RTLD_NOW | RTLD_NOLOAD));
	check("kprobe_events", "p:kprobes/late libprobe_late:pl_mul a=%di:s32 b=$arg2:s32\n"
			       "r:kprobes/lret libprobe_late:pl_mul arg1=$retval:s32\n"
			       "p:kprobes/never libnosuch:f\n");
	h = load(&mul);
	assert_int_equal(mul(-3, 5), -15);
	expect_in("trace", ") a=-3 b=5\n", 1);
	expect_in("trace", " <- pl_mul) arg1=-15\n", 1);
	/* Disabled, the library's code is as it was. */
	assert_int_equal(tfs_echo("events/kprobes/enable", "0", W), 0);
	assert_memory_equal(orig, (const void *)mul, 5);
	assert_int_equal(tfs_echo("dynamic_events", "", W), 0);
	assert_int_equal(dlclose(h), 0);
}

/* PATH:OFFSET of a file not mapped now: the uprobe waits for it. */
static void test_path_offset(void **state)
{
	(void)state;
	int (*mul)(int, int);
	void *h = load(&mul);
	uint64_t off = (uintptr_t)mul;
	assert_int_equal(dl_iterate_phdr(foff_one, &off), 1);
	assert_int_equal(dlclose(h), 0);
	assert_null(dlopen(lib, RTLD_NOW | RTLD_NOLOAD));
	char def[4300];
	snprintf(def, sizeof(def), "r:ul %s:0x%llx $retval:s32", lib, (unsigned long long)off);
	assert_int_equal(tfs_echo("uprobe_events", def, A), 0);
	/* A file that does not exist is refused. */
	assert_int_equal(tfs_echo("uprobe_events", "p:nofile /no/such/file.so:0x10", A), -ENOENT);
	assert_int_equal(tfs_echo("events/uprobes/ul/enable", "1", W), 0);
	h = load(&mul);
	assert_int_equal(mul(9, 9), 81);
	char want[64];
	snprintf(want, sizeof(want), " <- 0x%llx) arg1=81\n", (unsigned long long)(uintptr_t)mul);
	expect_in("trace", want, 1);
	assert_int_equal(tfs_echo("events/uprobes/ul/enable", "0", W), 0);
	assert_int_equal(tfs_echo("uprobe_events", "", W), 0);
	assert_int_equal(dlclose(h), 0);
}

int main(void)
{
	const char *build = getenv("UFT_BUILD");
	char rel[4096];
	snprintf(rel, sizeof(rel), "%s/tests/libprobe_late.so", build ? build : "build");
	if (!realpath(rel, lib)) {
		fprintf(stderr, "test_tracefs_probe_late: no %s\n", rel);
		return 1;
	}
	uft_session_start();
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_lib_symbol, setup),
	    cmocka_unit_test_setup(test_path_offset, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
