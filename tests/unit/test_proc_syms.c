/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder's symbols of a traced process (recorder/proc_syms.c): an
 * object whose text shows as several mappings, as a patched page leaves it
 * (made private, it no longer merges with its neighbours), is named once. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "recorder/proc_syms.h"

__attribute__((noinline, used, aligned(4096))) int proc_syms_split_here(int x)
{
	return x * 3 + 1;
}

static int count_lines(const char *text, size_t len, const char *suffix)
{
	int n = 0;
	size_t sl = strlen(suffix);
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (l >= sl && memcmp(p + l - sl, suffix, sl) == 0)
			n++;
		p += l + 1;
	}
	return n;
}

static int exec_mappings_of_self(void)
{
	char exe[4096], line[8192];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	int count = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, " r-xp ") && strstr(line, exe))
			count++;
	if (f)
		fclose(f);
	return count;
}

static void test_split_text_named_once(void **state)
{
	(void)state;
	long pg = sysconf(_SC_PAGESIZE);
	char *page = (char *)((uintptr_t)&proc_syms_split_here & ~(uintptr_t)(pg - 1));
	int before = exec_mappings_of_self();
	/* Write the page's own bytes back, as a patcher restoring it would:
	 * the page becomes private and its mapping splits. */
	assert_int_equal(mprotect(page, (size_t)pg, PROT_READ | PROT_WRITE | PROT_EXEC), 0);
	volatile char *b = page;
	b[0] = b[0];
	assert_int_equal(mprotect(page, (size_t)pg, PROT_READ | PROT_EXEC), 0);
	int after = exec_mappings_of_self();
	print_message("executable mappings of the program: %d, then %d\n", before, after);
	assert_true(after > before);

	struct proc_syms *s = proc_syms_new();
	assert_non_null(s);
	assert_int_equal(proc_syms_scan(s, getpid()), 0);
	size_t len;
	const char *text = proc_syms_text(s, &len);
	assert_int_equal(count_lines(text, len, " T proc_syms_split_here"), 1);
	assert_int_equal(count_lines(text, len, " T main"), 1);
	proc_syms_free(s);
	assert_int_equal(proc_syms_split_here(2), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_split_text_named_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
