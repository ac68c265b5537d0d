/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The process tracer's text decoding (design/process-tracer.md, "Formats and
 * the syscall table"): strings read from hostile tracee memory, every
 * syscall format rendered the same by libtraceevent and uft's print fmt
 * renderer (with the names pinned for the common calls), and the kernel
 * backend's records widened to the same layout. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/format/print_fmt.h"
#include "proctrace/kernel_backend.h"
#include "proctrace/proc_events.h"
#include "proctrace/proctrace.h"
#include "proctrace/syscall_table.h"
#include "proctrace/tracee_string.h"
#include "tep_body.h"

/* ---- strings from the tracee (here: this process, read the same way) ---- */

static size_t rd(uint64_t addr, char *out, size_t cap)
{
	memset(out, 'Z', cap);
	size_t n = pt_tracee_str(getpid(), addr, out, cap);
	assert_true(n < cap);
	assert_int_equal(out[n], 0);
	assert_int_equal(strlen(out), n);
	return n;
}

static void test_tracee_str(void **state)
{
	(void)state;
	char out[PT_STR_MAX];
	static const char path[] = "/etc/hostname";
	assert_int_equal(rd((uintptr_t)path, out, sizeof(out)), strlen(path));
	assert_string_equal(out, path);
	/* faults: nothing */
	assert_int_equal(rd(0, out, sizeof(out)), 0);
	assert_int_equal(rd(UINT64_MAX, out, sizeof(out)), 0);
	assert_int_equal(rd(UINT64_MAX - 2, out, sizeof(out)), 0);
	assert_int_equal(rd(0xffff800000000000ull, out, sizeof(out)), 0);
	assert_int_equal(rd(1, out, 1), 0); /* room for the NUL only */

	long pg = sysconf(_SC_PAGESIZE);
	/* pages: 0 readable, 1 unmapped, 2 readable, 3 unreadable */
	uint8_t *m =
	    mmap(NULL, 4 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(m != MAP_FAILED);
	uint8_t *p1 = m + pg, *p3 = m + 3 * pg;
	assert_int_equal(munmap(p1, (size_t)pg), 0);
	assert_int_equal(mprotect(p3, (size_t)pg, PROT_NONE), 0);
	/* a string running into an unmapped page: the part before it */
	memcpy(p1 - 3, "abc", 3);
	assert_int_equal(rd((uintptr_t)(p1 - 3), out, sizeof(out)), 3);
	assert_string_equal(out, "abc");
	assert_int_equal(rd((uintptr_t)p1, out, sizeof(out)), 0);
	/* and into an unreadable one */
	memset(p3 - 5, 'q', 5);
	assert_int_equal(rd((uintptr_t)(p3 - 5), out, sizeof(out)), 5);
	assert_string_equal(out, "qqqqq");
	assert_int_equal(rd((uintptr_t)p3, out, sizeof(out)), 0);
	/* across a readable page boundary, and bounded */
	assert_int_equal(mprotect(p3, (size_t)pg, PROT_READ | PROT_WRITE), 0);
	memset(p3 - 10, 'x', 10);
	memcpy(p3, "yz", 3);
	assert_int_equal(rd((uintptr_t)(p3 - 10), out, sizeof(out)), 12);
	assert_string_equal(out, "xxxxxxxxxxyz");
	memset(p3, 'w', (size_t)pg);
	assert_int_equal(rd((uintptr_t)(p3 - 10), out, sizeof(out)), PT_STR_MAX - 1);
	assert_int_equal(rd((uintptr_t)(p3 - 10), out, 8), 7);
	assert_string_equal(out, "xxxxxxx");
	assert_int_equal(mprotect(p3, (size_t)pg, PROT_NONE), 0);
	/* arbitrary addresses: never a crash, always a bounded string */
	srand(7);
	for (int i = 0; i < 2000; i++) {
		uint64_t a = (uint64_t)rand() << 33 ^ (uint64_t)rand() << 12 ^ (uint64_t)rand();
		if (i % 2 == 0)
			a = (uintptr_t)m + (uint64_t)(rand() % (4 * pg));
		rd(a, out, sizeof(out));
	}
	munmap(m, (size_t)pg);
	munmap(m + 2 * pg, 2 * (size_t)pg);
	/* a thread that is gone */
	assert_int_equal(pt_tracee_str(0x3fffffff, (uintptr_t)path, out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

/* ---- the formats: libtraceevent and uft agree ---- */

struct fmt {
	struct uft_field f[16];
	char names[16][64];
	uint32_t nr;
	char text[PT_FORMAT_MAX];
	const char *print_fmt;
};

/* Fields and print fmt of local id `id` from its format text. */
static void load(unsigned id, struct fmt *m)
{
	const char *system;
	int n = pt_format_text(id, &system, m->text, sizeof(m->text));
	assert_true(n > 0 && n < (int)sizeof(m->text));
	m->nr = 0;
	const char *p = strstr(m->text, "\nformat:\n");
	assert_non_null(p);
	while ((p = strstr(p, "\tfield:")) && m->nr < 16) {
		char decl[128];
		unsigned off, size, sign;
		assert_int_equal(sscanf(p, "\tfield:%127[^;];\toffset:%u;\tsize:%u;\tsigned:%u;",
					decl, &off, &size, &sign),
				 4);
		p++;
		char *sp = strrchr(decl, ' ');
		if (!strncmp(sp + 1, "common_", 7))
			continue;
		struct uft_field *f = &m->f[m->nr];
		snprintf(m->names[m->nr], sizeof(m->names[0]), "%s", sp + 1);
		*sp = 0;
		bool dyn = !strncmp(decl, "__data_loc", 10), arr = strchr(m->names[m->nr], '[');
		f->type = dyn ? "__data_loc char[]" : strdup(decl);
		f->name = m->names[m->nr];
		f->offset = off;
		f->size = size;
		f->is_signed = (uint8_t)sign;
		f->kind = dyn ? UFT_FIELD_DYN : arr ? UFT_FIELD_ARRAY : UFT_FIELD_SCALAR;
		f->elem_size = (uint16_t)(dyn ? 1 : arr ? 8 : size);
		m->nr++;
	}
	m->print_fmt = strstr(m->text, "\nprint fmt: ") + 12;
	m->text[n - 1] = 0; /* the last newline */
}

static void unload(struct fmt *m)
{
	for (uint32_t i = 0; i < m->nr; i++)
		if (m->f[i].kind != UFT_FIELD_DYN)
			free((char *)m->f[i].type);
}

/* Both renderers print the same; returns it in out. */
static void both(const struct fmt *m, const uint8_t *rec, uint32_t len, char *out, size_t outlen)
{
	char a[8192], err[256];
	struct uft_print_fmt *pf;
	static uint8_t r[PT_REC_MAX];
	uint16_t type = 200; /* tep_body's id */
	memcpy(r, rec, len);
	memcpy(r, &type, 2);
	rec = r;
	tep_body(m->print_fmt, m->f, m->nr, rec, len, a, sizeof(a));
	if (uft_print_fmt_compile(m->print_fmt, m->f, m->nr, &pf, err, sizeof(err)))
		fail_msg("uft cannot compile %.100s: %s", m->print_fmt, err);
	uft_print_fmt_render(pf, rec, len, out, outlen);
	uft_print_fmt_free(pf);
	if (strcmp(a, out))
		fail_msg("print fmt %.200s...\ntep: [%s]\nuft: [%s]", m->print_fmt, a, out);
}

static const uint64_t samples[][6] = {
    {0, 0, 0, 0, 0, 0},
    {1, 2, 3, 4, 5, 6},
    {0xffffff9c, 0x41, 0x80241, 0x1a4, 0x11, 0x80802},
    {(uint64_t)-100, (uint64_t)-1, 0xffffffff, 0x7fffffff, 0x3d0f11, 0x1000000},
    {0x22, 0x40, 0x200000, 0x12345678, 0xdeadbeef, 0xf},
};

static void test_every_syscall_format(void **state)
{
	(void)state;
	static struct fmt m;
	static struct pt_rec r;
	char out[8192];
	unsigned n = 0;
	for (unsigned i = 0; i < pt_nr_syscalls; i++) {
		const struct pt_syscall *s = &pt_syscalls[i];
		if (!s->event)
			continue;
		load(PT_ID_SYSCALL_BASE + 2 * (unsigned)s->nr, &m);
		for (size_t k = 0; k < sizeof(samples) / sizeof(samples[0]); k++) {
			/* strings read from this process: a pointer to a path */
			uint64_t a[6];
			memcpy(a, samples[k], sizeof(a));
			for (unsigned j = 0; j < s->nargs; j++)
				if (k == 1 && s->str_args >> j & 1)
					a[j] = (uintptr_t) "/some/path";
			r.len = 0;
			assert_true(pt_rec_sys_enter(&r, getpid(), s->nr, a, true));
			both(&m, r.b, r.len, out, sizeof(out));
			n++;
		}
		unload(&m);
		load(PT_ID_SYSCALL_BASE + 2 * (unsigned)s->nr + 1, &m);
		static const long rets[] = {0,	 3,    -1,    -2,    -40,
					    -41, -200, -4095, -4096, 0x7f0000001000};
		for (size_t k = 0; k < sizeof(rets) / sizeof(rets[0]); k++) {
			assert_true(pt_rec_sys_exit(&r, getpid(), s->nr, rets[k]));
			both(&m, r.b, r.len, out, sizeof(out));
			n++;
		}
		unload(&m);
	}
	assert_true(n > 3000);
}

/* The text of local id `id` for a record built by pt_rec_*. */
static const char *show(unsigned id, const struct pt_rec *r)
{
	static struct fmt m;
	static char out[8192];
	load(id, &m);
	both(&m, r->b, r->len, out, sizeof(out));
	unload(&m);
	return out;
}

#define ENTER(nr) (PT_ID_SYSCALL_BASE + 2 * (nr))
#define EXIT(nr) (PT_ID_SYSCALL_BASE + 2 * (nr) + 1)

static const char *enter(long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
			 uint64_t a5)
{
	static struct pt_rec r;
	const uint64_t a[6] = {a0, a1, a2, a3, a4, a5};
	assert_true(pt_rec_sys_enter(&r, getpid(), nr, a, true));
	return show(ENTER((unsigned)nr), &r);
}

static const char *leave(long nr, long ret)
{
	static struct pt_rec r;
	assert_true(pt_rec_sys_exit(&r, getpid(), nr, ret));
	return show(EXIT((unsigned)nr), &r);
}

static void test_names(void **state)
{
	(void)state;
	static const char p[] = "/tmp/x";
	char want[256];
	uint64_t pa = (uintptr_t)p;
	snprintf(want, sizeof(want),
		 "dfd: AT_FDCWD, filename: 0x%" PRIx64
		 " \"/tmp/x\", flags: O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, mode: 0x000001a4",
		 pa);
	assert_string_equal(enter(SYS_openat, (uint64_t)-100, pa, 0x80241, 0644, 0, 0), want);
	snprintf(want, sizeof(want),
		 "dfd: 0x3, filename: 0x%" PRIx64 " \"/tmp/x\", flags: O_RDONLY, mode: 0x00000000",
		 pa);
	assert_string_equal(enter(SYS_openat, 3, pa, 0, 0, 0, 0), want);
	assert_string_equal(
	    enter(SYS_open, 0, 0x10000 | 2 | 0x800, 0, 0, 0, 0),
	    "filename: 0x00000000 \"\", flags: O_RDWR|O_NONBLOCK|O_DIRECTORY, mode: "
	    "0x00000000");
	assert_string_equal(
	    enter(SYS_open, 0, 0x410000 | 0x80000000, 0, 0, 0, 0),
	    "filename: 0x00000000 \"\", flags: O_RDONLY|O_TMPFILE|0x80000000, mode: "
	    "0x00000000");
	assert_string_equal(leave(SYS_openat, -2), "-2 (ENOENT)");
	assert_string_equal(leave(SYS_openat, 3), "3");
	assert_string_equal(leave(SYS_openat, -95), "-95");
	assert_string_equal(leave(SYS_openat, -40), "-40 (ELOOP)");
	assert_string_equal(leave(SYS_mmap, 0x7f0000001000), "0x7f0000001000");
	assert_string_equal(leave(SYS_mmap, -12), "0xfffffffffffffff4 (ENOMEM)");
	assert_string_equal(enter(SYS_mmap, 0, 0x2000, 3, 0x22, (uint64_t)-1, 0),
			    "addr: 0x00000000, len: 0x00002000, prot: PROT_READ|PROT_WRITE, flags: "
			    "MAP_PRIVATE|MAP_ANONYMOUS, fd: 0xffffffffffffffff, off: 0x00000000");
	assert_string_equal(enter(SYS_mprotect, 0x1000, 0x1000, 0, 0, 0, 0),
			    "start: 0x00001000, len: 0x00001000, prot: PROT_NONE");
	assert_string_equal(enter(SYS_kill, 42, 10, 0, 0, 0, 0), "pid: 0x0000002a, sig: SIGUSR1");
	assert_string_equal(enter(SYS_kill, 42, 0, 0, 0, 0, 0), "pid: 0x0000002a, sig: 0");
	assert_string_equal(enter(SYS_tgkill, 1, 2, 34, 0, 0, 0),
			    "tgid: 0x00000001, pid: 0x00000002, sig: SIGRT_2");
	assert_string_equal(enter(SYS_clone, 0x1200011, 0, 0, 0, 0, 0),
			    "clone_flags: CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, newsp: "
			    "0x00000000, parent_tidptr: 0x00000000, child_tidptr: 0x00000000, tls: "
			    "0x00000000");
	assert_string_equal(
	    enter(SYS_clone, 0x3d0f00, 0, 0, 0, 0, 0),
	    "clone_flags: CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
	    "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, "
	    "newsp: 0x00000000, parent_tidptr: 0x00000000, child_tidptr: 0x00000000, "
	    "tls: 0x00000000");
	assert_string_equal(enter(SYS_access, 0, 6, 0, 0, 0, 0),
			    "filename: 0x00000000 \"\", mode: R_OK|W_OK");
	assert_string_equal(enter(SYS_lseek, 3, 0, 2, 0, 0, 0),
			    "fd: 0x00000003, offset: 0x00000000, whence: SEEK_END");
	assert_string_equal(enter(SYS_socket, 10, 0x80801, 0, 0, 0, 0),
			    "family: AF_INET6, type: SOCK_STREAM|SOCK_NONBLOCK|SOCK_CLOEXEC, "
			    "protocol: 0x00000000");
	assert_string_equal(enter(SYS_socket, 1, 2, 0, 0, 0, 0),
			    "family: AF_UNIX, type: SOCK_DGRAM, protocol: 0x00000000");
	snprintf(want, sizeof(want),
		 "olddfd: AT_FDCWD, oldname: 0x%" PRIx64 " \"/tmp/x\", newdfd: 0x4, newname: "
		 "0x00000000 \"\", flags: 0x00000000",
		 pa);
	assert_string_equal(enter(SYS_renameat2, 0xffffff9c, pa, 4, 0, 0, 0), want);

	/* the raw events: the call's name, the error's */
	static struct pt_rec r;
	const uint64_t a[6] = {0xffffff9c, 0x1000, 0x80000, 0, 5, 6};
	pt_rec_raw_enter(&r, 12, SYS_openat, a);
	assert_string_equal(show(PT_ID_RAW_ENTER, &r),
			    "NR 257 openat (ffffff9c, 1000, 80000, 0, 5, 6)");
	pt_rec_raw_exit(&r, 12, SYS_openat, -2);
	assert_string_equal(show(PT_ID_RAW_EXIT, &r), "NR 257 openat = -2 (ENOENT)");
	pt_rec_raw_exit(&r, 12, SYS_read, -512);
	assert_string_equal(show(PT_ID_RAW_EXIT, &r), "NR 0 read = -512 (ERESTARTSYS)");
	pt_rec_raw_exit(&r, 12, SYS_connect, -111);
	assert_string_equal(show(PT_ID_RAW_EXIT, &r), "NR 42 connect = -111 (ECONNREFUSED)");
	pt_rec_raw_exit(&r, 12, SYS_read, 5);
	assert_string_equal(show(PT_ID_RAW_EXIT, &r), "NR 0 read = 5");
}

/* ---- the kernel backend's records ---- */

static void test_widen(void **state)
{
	(void)state;
	uint8_t k[64] = {0}, wide[PT_WIDE_MAX];
	uint16_t type = (uint16_t)ENTER(SYS_renameat2);
	memcpy(k, &type, 2);
	uint64_t args[5] = {0xffffff9c, 0x1000, 3, 0x2000, 0};
	memcpy(k + 16, args, sizeof(args));
	uint32_t len = 16 + 40;
	uint8_t *w = pt_rec_widen(ENTER(SYS_renameat2), k, &len, wide);
	assert_ptr_equal(w, wide);
	assert_int_equal(len, 16 + 40 + 2 * 4 + 2);
	struct pt_rec r;
	memcpy(r.b, w, len);
	r.len = len;
	assert_string_equal(
	    show(ENTER(SYS_renameat2), &r),
	    "olddfd: AT_FDCWD, oldname: 0x00001000 \"\", newdfd: 0x3, newname: 0x00002000 "
	    "\"\", flags: 0x00000000");
	/* no strings, an exit, a short record, or one with its strings: as it is */
	len = 24;
	assert_ptr_equal(pt_rec_widen(ENTER(SYS_close), k, &len, wide), k);
	assert_ptr_equal(pt_rec_widen(EXIT(SYS_openat), k, &len, wide), k);
	assert_ptr_equal(pt_rec_widen(PT_ID_RAW_ENTER, k, &len, wide), k);
	len = 20;
	assert_ptr_equal(pt_rec_widen(ENTER(SYS_renameat2), k, &len, wide), k);
	len = 16 + 40 + 8;
	assert_ptr_equal(pt_rec_widen(ENTER(SYS_renameat2), k, &len, wide), k);
	assert_int_equal(len, 64);

	/* the format check: the kernel's fields, then only __NAME_val ones */
	const char *kf = "\nformat:\n\tfield:int a;\toffset:16;\tsize:8;\tsigned:0;\n";
	const char *ours = "\nformat:\n\tfield:int a;\toffset:16;\tsize:8;\tsigned:0;\n"
			   "\tfield:__data_loc char[] __a_val;\toffset:24;\tsize:4;\tsigned:0;\n";
	const char *other = "\nformat:\n\tfield:int a;\toffset:16;\tsize:8;\tsigned:0;\n"
			    "\tfield:__data_loc char[] b;\toffset:24;\tsize:4;\tsigned:0;\n";
	assert_true(pt_fields_widened(ours, strlen(ours), kf, strlen(kf)));
	assert_false(pt_fields_widened(kf, strlen(kf), kf, strlen(kf)));
	assert_false(pt_fields_widened(other, strlen(other), kf, strlen(kf)));
	assert_false(pt_fields_widened(ours, strlen(ours), other, strlen(other)));

	/* with this kernel's own files (when tracefs is there): ours is kept */
	static char text[PT_FORMAT_MAX];
	const char *system;
	int n = pt_format_text(ENTER(SYS_openat), &system, text, sizeof(text));
	assert_int_equal(pt_k_format_fixup(ENTER(SYS_openat), system, text, sizeof(text), n), n);
	assert_non_null(strstr(text, "__get_str(__filename_val)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tracee_str),
	    cmocka_unit_test(test_every_syscall_format),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_widen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
