/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Instruction-boundary probes (docs/design/probes.md, "Probes anywhere").
 *
 * A point's stub is a 256-byte slot in a page mapped within a rel32 jump of
 * the point:
 *	+0	the point (for the hit)
 *	+8	the address of uft_insn_tramp
 *	+16	lea -128(%rsp),%rsp		step over the red zone
 *	+21	call *-19(%rip)			uft_insn_tramp, returns to +27
 *	+27	lea 128(%rsp),%rsp
 *	+35	the displaced instructions, relocated; jmp back after them
 * The point's first five bytes become `jmp stub+16`, the rest of the
 * displaced bytes int3.
 *
 * Patching and restoring happen with every other thread stopped
 * (uft_ftrace_apply's `stopped` callback), and the interrupted contexts of
 * the stopped threads are looked at: one strictly inside the displaced
 * bytes goes to their copy in the stub; on removal one inside the stub goes
 * back to the original instruction it stood for (one in the middle of a
 * rewritten call's sequence makes the removal wait and try again).
 *
 * A removed point's slot may still be run by a thread that was inside the
 * trampoline or the C hit: the hit runs inside a grace section, so after a
 * grace period (uft_grace_defer) the slot is only quarantined; it is free
 * again after a later stop in which no stopped thread was in the trampoline
 * or in the slot. Slot pages are never unmapped. */
#define _GNU_SOURCE
#include "runtime/ftrace/ftrace_insn_probe.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <linux/membarrier.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "runtime/core/grace.h"
#include "runtime/core/symtab.h"
#include "runtime/ftrace/ftrace_shadow.h"
#include "runtime/ftrace/insn_decode.h"
#include "util/atomics.h"
#include "util/safe_read.h"

#define POINTS_MAX 256
#define SLOT 256
#define SLOTS_PER_PAGE (4096 / SLOT)
#define PAGES_MAX 64
#define SLOT_CODE 16  /* lea -128(%rsp),%rsp */
#define SLOT_CALL 21  /* call *-19(%rip) */
#define SLOT_RET 27   /* lea 128(%rsp),%rsp: the trampoline returns here */
#define SLOT_RELOC 35 /* the displaced instructions */
#define REACH 0x7ff00000L

extern const uint8_t uft_insn_tramp[] __attribute__((visibility("hidden")));
extern const uint8_t uft_insn_tramp_end[] __attribute__((visibility("hidden")));
__attribute__((visibility("hidden"))) void uft_insn_probe_hit(uint64_t *frame);

enum { P_FREE, P_IDLE, P_PATCHED };
enum { S_FREE, S_USED, S_GRACE, S_QUAR };

struct point {
	struct uft_ftrace_site site; /* the probes' `site`: addr = func = the point */
	struct uft_insn_plan plan;
	uint8_t orig[UFT_INSN_RANGE];
	uint16_t soff[UFT_INSN_MAX]; /* each displaced instruction in the relocated code */
	uint16_t back;		     /* the jump back, in the relocated code */
	uintptr_t slot;		     /* while patched (and until the stop that restores) */
	uint32_t refs;		     /* probes created on it */
	uint8_t state;		     /* P_*, read by uft_insn_skip */
	char name[96];
};

/* Static: the signal handlers read them without a lock. */
static struct point points[POINTS_MAX];
static struct {
	uintptr_t base;
	uint8_t st[SLOTS_PER_PAGE]; /* S_* */
} pages[PAGES_MAX];
static uint32_t nr_pages;
static uint32_t nr_patched; /* uft_insn_skip looks only while some are */
static const char *why;
static char why_buf[200];

const char *uft_insn_why_take(void)
{
	const char *w = why;
	why = NULL;
	return w;
}

static int refuse(int rc, const char *fmt, const char *arg)
{
	snprintf(why_buf, sizeof(why_buf), fmt, arg);
	why = why_buf;
	return rc;
}

/* LIB of LIB:SYMBOL: a file name, a path, or a name up to a '.'. */
static bool lib_matches(const char *path, const char *lib)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(lib);
	return strcmp(path, lib) == 0 || strcmp(base, lib) == 0 ||
	       (strncmp(base, lib, n) == 0 && base[n] == '.');
}

struct find {
	const char *lib, *sym; /* LIB:SYMBOL */
	const struct stat *file;
	uint64_t off; /* PATH:OFFSET */
	uintptr_t addr;
	bool exec; /* the address is in an executable segment */
};

static uintptr_t seg_of_offset(const struct dl_phdr_info *info, uint64_t off, bool *exec)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && off >= ph->p_offset &&
		    off < ph->p_offset + ph->p_filesz) {
			*exec = ph->p_flags & PF_X;
			return info->dlpi_addr + ph->p_vaddr + (off - ph->p_offset);
		}
	}
	return 0;
}

static int find_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find *f = arg;
	(void)size;
	const char *path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : NULL;
	if (f->file) {
		struct stat st;
		if (stat(path ? path : "/proc/self/exe", &st) != 0 ||
		    st.st_ino != f->file->st_ino || st.st_dev != f->file->st_dev)
			return 0;
		f->addr = seg_of_offset(info, f->off, &f->exec);
		return 1;
	}
	if (!path || !lib_matches(path, f->lib))
		return 0;
	void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return 0;
	f->addr = (uintptr_t)dlsym(h, f->sym);
	dlclose(h);
	return f->addr != 0;
}

static int exec_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find *f = arg;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr < lo + ph->p_memsz) {
			f->exec = ph->p_flags & PF_X;
			return 1;
		}
	}
	return 0;
}

/* The address a definition names, or 0 (then *exec is meaningless). */
static uintptr_t point_address(const struct uft_probe_def *d, bool *exec)
{
	struct find f = {0};
	if (d->kind == UFT_PROBE_UPROBE && d->lib && !d->symbol) {
		struct stat st;
		if (stat(d->lib, &st) != 0)
			return 0;
		f.file = &st;
		f.off = (uint64_t)d->offset;
		dl_iterate_phdr(find_one, &f);
		*exec = f.exec;
		return f.addr;
	}
	if (d->has_addr) {
		f.addr = (uintptr_t)d->addr;
	} else if (d->symbol && d->lib) {
		f.lib = d->lib;
		f.sym = d->symbol;
		dl_iterate_phdr(find_one, &f);
		if (f.addr)
			f.addr += (uintptr_t)d->offset;
	} else if (d->symbol) {
		size_t size;
		if (uft_symbol_by_name(d->symbol, &f.addr, &size) == 0)
			f.addr += (uintptr_t)d->offset;
	}
	if (f.addr)
		dl_iterate_phdr(exec_one, &f);
	*exec = f.exec;
	return f.addr;
}

/* Whether [a, a + len) touches a patchable-entry sled. */
static bool on_sled(uintptr_t a, size_t len)
{
	for (uintptr_t s = a > 4 ? a - 4 : 0; s < a + len; s++)
		if (uft_ftrace_site_at(s + UFT_FTRACE_SLED))
			return true;
	return false;
}

/* A point in libuft.so itself (linked into the program, it cannot be told
 * apart and is not refused). */
static bool in_libuft(uintptr_t a)
{
	Dl_info me, it;
	if (!dladdr((void *)uft_insn_resolve, &me) || !dladdr((void *)a, &it) || !me.dli_fname)
		return false;
	return me.dli_fbase == it.dli_fbase && strstr(me.dli_fname, "libuft") != NULL;
}

/* Whether a retired slot of p is not free yet: a thread that entered it
 * before the restore may still read p through it (its first 8 bytes), so
 * p's memory is not reused for another point until then. */
static bool slot_retiring(const struct point *p)
{
	for (uint32_t i = 0; i < nr_pages; i++)
		for (uint32_t k = 0; k < SLOTS_PER_PAGE; k++) {
			uint8_t st = READ_ONCE(pages[i].st[k]);
			const struct point *owner;
			if (st != S_GRACE && st != S_QUAR)
				continue;
			memcpy(&owner, (const void *)(pages[i].base + k * SLOT), sizeof(owner));
			if (owner == p)
				return true;
		}
	return false;
}

static void gc_points(void)
{
	for (uint32_t i = 0; i < POINTS_MAX; i++) {
		struct point *p = &points[i];
		if (p->state == P_IDLE && !p->refs && !p->slot)
			smp_store_release(&p->state, P_FREE);
	}
}

int uft_insn_resolve(const struct uft_probe_def *d, struct uft_ftrace_site **site)
{
	why = NULL;
	if (d->kind == UFT_PROBE_EPROBE)
		return -EOPNOTSUPP;
	bool exec = false;
	uintptr_t a = point_address(d, &exec);
	if (!a)
		return -ENOENT; /* in a library not loaded yet, it may wait */
	if (!exec)
		return refuse(-EOPNOTSUPP, "%s is not in an executable segment", "the address");
	struct uft_symbol fn;
	if (uft_symbol_find(a, &fn) != 0 || !fn.size || a < fn.start || a >= fn.start + fn.size)
		return refuse(-EOPNOTSUPP, "%s", "no function with a known size holds the address");
	if (in_libuft(a))
		return refuse(-EOPNOTSUPP, "%s", "the address is uft's own code");
	if (d->is_return && a != fn.start)
		return refuse(-EOPNOTSUPP, "%s", "a return probe goes on a function's entry");
	gc_points();
	struct point *free_p = NULL;
	for (uint32_t i = 0; i < POINTS_MAX; i++) {
		struct point *p = &points[i];
		if (p->state == P_FREE) {
			if (!free_p && !slot_retiring(p))
				free_p = p;
			continue;
		}
		if (p->site.addr == a) {
			*site = &p->site;
			return 0;
		}
	}
	struct uft_insn_plan plan;
	const char *bad = NULL;
	int rc = uft_insn_plan(fn.start, fn.size, a, &plan, &bad);
	if (rc == -EILSEQ)
		return rc;
	if (rc)
		return refuse(rc, "%s", bad ? bad : "cannot be decoded");
	if (on_sled(a, plan.len))
		return refuse(-EOPNOTSUPP, "%s", "the displaced bytes overlap a patchable entry");
	for (uint32_t i = 0; i < POINTS_MAX; i++) {
		const struct point *p = &points[i];
		if (p->state != P_FREE && a < p->site.addr + p->plan.len &&
		    p->site.addr < a + plan.len)
			return refuse(-EOPNOTSUPP, "%s",
				      "the displaced bytes overlap another probe point's");
	}
	if (!free_p)
		return refuse(-ENOSPC, "%s", "too many probe points");
	struct point *p = free_p;
	memset(p, 0, sizeof(*p));
	p->plan = plan;
	memcpy(p->orig, (const void *)a, plan.len);
	snprintf(p->name, sizeof(p->name), "%.95s", fn.name);
	p->site.addr = p->site.func = a;
	p->site.name = p->name;
	smp_store_release(&p->state, P_IDLE);
	*site = &p->site;
	return 0;
}

static struct point *point_of(const struct uft_ftrace_site *site)
{
	const char *s = (const char *)site, *lo = (const char *)points;
	if (s < lo || s >= lo + sizeof(points))
		return NULL;
	return &points[(size_t)(s - lo) / sizeof(points[0])];
}

void uft_insn_ref(const struct uft_ftrace_site *site, int delta)
{
	struct point *p = point_of(site);
	if (p)
		p->refs += (uint32_t)delta;
}

/* Slots. */

static int page_of(uintptr_t slot)
{
	for (uint32_t i = 0; i < nr_pages; i++)
		if (slot >= pages[i].base && slot < pages[i].base + 4096)
			return (int)i;
	return -1;
}

static void slot_quarantine(void *slot)
{
	int i = page_of((uintptr_t)slot);
	if (i >= 0)
		WRITE_ONCE(pages[i].st[((uintptr_t)slot - pages[i].base) / SLOT], S_QUAR);
}

static bool near(uintptr_t a, uintptr_t b)
{
	long d = (long)(a - b);
	return d > -REACH && d < REACH;
}

static uintptr_t map_near(uintptr_t a)
{
	const uintptr_t step = 16ul << 20;
	for (uintptr_t k = 1; k < 120; k++)
		for (int dir = -1; dir <= 1; dir += 2) {
			uintptr_t at = (a & ~(uintptr_t)4095) + (uintptr_t)dir * k * step;
			if (at < (1ul << 20) || at > UFT_ARCH_USER_TOP - 4096)
				continue;
			void *m = mmap((void *)at, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
			if (m == MAP_FAILED)
				continue;
			if ((uintptr_t)m == at)
				return at;
			munmap(m, 4096);
		}
	return 0;
}

static uintptr_t slot_alloc(uintptr_t a)
{
	for (uint32_t i = 0; i < nr_pages; i++) {
		if (!near(pages[i].base, a))
			continue;
		for (uint32_t k = 0; k < SLOTS_PER_PAGE; k++)
			if (pages[i].st[k] == S_FREE) {
				pages[i].st[k] = S_USED;
				return pages[i].base + k * SLOT;
			}
	}
	if (nr_pages == PAGES_MAX)
		return 0;
	uintptr_t base = map_near(a);
	if (!base)
		return 0;
	pages[nr_pages].base = base;
	memset(pages[nr_pages].st, S_FREE, sizeof(pages[nr_pages].st));
	pages[nr_pages].st[0] = S_USED;
	nr_pages++;
	return base;
}

static void slot_release(uintptr_t slot, uint8_t to)
{
	int i = page_of(slot);
	if (i >= 0)
		WRITE_ONCE(pages[i].st[(slot - pages[i].base) / SLOT], to);
}

/* Fills a point's slot; 0 or -1 (a displacement out of reach). */
static int slot_fill(struct point *p, uintptr_t slot)
{
	uint8_t code[SLOT];
	memset(code, 0xcc, sizeof(code));
	const void *me = p;
	const void *tramp = uft_insn_tramp;
	memcpy(code, &me, 8);
	memcpy(code + 8, &tramp, 8);
	static const uint8_t pre[] = {
	    0x48, 0x8d, 0x64, 0x24, 0x80,		    /* lea -0x80(%rsp),%rsp */
	    0xff, 0x15, 0xed, 0xff, 0xff, 0xff,		    /* call *-19(%rip) */
	    0x48, 0x8d, 0xa4, 0x24, 0x80, 0x00, 0x00, 0x00, /* lea 0x80(%rsp),%rsp */
	};
	_Static_assert(SLOT_CODE + sizeof(pre) == SLOT_RELOC, "stub layout");
	memcpy(code + SLOT_CODE, pre, sizeof(pre));
	int n = uft_insn_relocate(&p->plan, slot + SLOT_RELOC, code + SLOT_RELOC, SLOT - SLOT_RELOC,
				  p->soff);
	if (n < 0)
		return -1;
	p->back = (uint16_t)(n - UFT_INSN_ABS_JMP);
	/* The page stays executable: other slots on it may be running. */
	memcpy((void *)slot, code, SLOT);
	__builtin_ia32_mfence();
	return 0;
}

/* Patching. */

struct op {
	struct point *p;
	uintptr_t slot;
	uint8_t to;
	bool done;
};
static struct op ops[POINTS_MAX];
static size_t nr_ops;
static bool again; /* a thread could not be moved: retry */

static uintptr_t uc_pc(void *uc)
{
	return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
}

/* Where a thread stopped at pc should go once op is done: pc itself, a new
 * place (*rsp_add added to its stack pointer), or 0 (it cannot move now). */
static uintptr_t moved_pc(const struct op *o, uintptr_t pc, long *rsp_add)
{
	const struct point *p = o->p;
	const struct uft_insn_plan *pl = &p->plan;
	uintptr_t a = p->site.addr, reloc = o->slot + SLOT_RELOC;
	*rsp_add = 0;
	if (o->to == P_PATCHED) {
		for (uint8_t i = 1; i < pl->nr; i++)
			if (pc == a + pl->insn[i].off)
				return reloc + p->soff[i];
		return pc > a && pc < a + pl->len ? 0 : pc;
	}
	if (pc < o->slot + SLOT_CODE || pc >= o->slot + SLOT)
		return pc;
	if (pc < SLOT_RELOC + o->slot) {
		*rsp_add = pc == o->slot + SLOT_CODE ? 0 : 128;
		return a;
	}
	if (pc == reloc + p->back)
		return a + pl->len;
	for (uint8_t i = 0; i < pl->nr; i++) {
		if (pc == reloc + p->soff[i])
			return a + pl->insn[i].off;
		if (pl->insn[i].kind == UFT_INSN_JCC && pc == reloc + p->soff[i] + 2)
			return pl->insn[i].target; /* taken */
	}
	return 0;
}

static void write_code(uintptr_t a, const uint8_t *bytes, size_t len)
{
	uintptr_t lo = a & ~(uintptr_t)4095, hi = (a + len + 4095) & ~(uintptr_t)4095;
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
		return;
	memcpy((void *)a, bytes, len);
	mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC);
}

static bool in_tramp(uintptr_t pc)
{
	return pc >= (uintptr_t)uft_insn_tramp && pc < (uintptr_t)uft_insn_tramp_end;
}

/* Quarantined slots no stopped thread is in (nor in the trampoline, from
 * where it could return to any) are free again. */
static void free_quarantined(void **ucs, size_t n)
{
	for (size_t t = 0; t < n; t++)
		if (ucs[t] && in_tramp(uc_pc(ucs[t])))
			return;
	for (uint32_t i = 0; i < nr_pages; i++)
		for (uint32_t k = 0; k < SLOTS_PER_PAGE; k++) {
			if (READ_ONCE(pages[i].st[k]) != S_QUAR)
				continue;
			uintptr_t s = pages[i].base + k * SLOT;
			bool busy = false;
			for (size_t t = 0; t < n && !busy; t++)
				busy = ucs[t] && uc_pc(ucs[t]) >= s && uc_pc(ucs[t]) < s + SLOT;
			if (!busy)
				WRITE_ONCE(pages[i].st[k], S_FREE);
		}
}

/* With every other thread stopped: nothing allocates or locks here. */
static void stopped(void *ctx)
{
	(void)ctx;
	void **ucs;
	size_t n = uft_ftrace_stopped_contexts(&ucs);
	long add;
	for (size_t k = 0; k < nr_ops; k++)
		for (size_t t = 0; t < n; t++)
			if (ucs[t] && !moved_pc(&ops[k], uc_pc(ucs[t]), &add)) {
				again = true;
				return;
			}
	for (size_t k = 0; k < nr_ops; k++) {
		struct op *o = &ops[k];
		struct point *p = o->p;
		if (o->to == P_PATCHED) {
			uint8_t jmp[UFT_INSN_RANGE];
			memset(jmp, 0xcc, sizeof(jmp));
			int32_t rel = (int32_t)((long)(o->slot + SLOT_CODE) -
						(long)(p->site.addr + UFT_INSN_JUMP));
			jmp[0] = 0xe9;
			memcpy(jmp + 1, &rel, 4);
			p->slot = o->slot;
			write_code(p->site.addr, jmp, p->plan.len);
		} else {
			write_code(p->site.addr, p->orig, p->plan.len);
		}
		for (size_t t = 0; t < n; t++) {
			if (!ucs[t])
				continue;
			ucontext_t *uc = ucs[t];
			uintptr_t to = moved_pc(o, uc_pc(uc), &add);
			uc->uc_mcontext.gregs[REG_RIP] = (greg_t)to;
			uc->uc_mcontext.gregs[REG_RSP] += add;
		}
		smp_store_release(&p->state, o->to);
		WRITE_ONCE(nr_patched, nr_patched + (o->to == P_PATCHED ? 1 : -1));
		o->done = true;
	}
	__builtin_ia32_mfence();
	syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
	uft_arch_serialize();
	free_quarantined(ucs, n);
}

static bool any_quarantined(void)
{
	for (uint32_t i = 0; i < nr_pages; i++)
		for (uint32_t k = 0; k < SLOTS_PER_PAGE; k++)
			if (READ_ONCE(pages[i].st[k]) == S_QUAR)
				return true;
	return false;
}

/* Whether the point's code is still what uft left there (its library may
 * have been unloaded, and something else mapped at the address). */
static bool code_intact(const struct point *p)
{
	uint8_t now[UFT_INSN_RANGE];
	if (uft_safe_read(now, (const void *)p->site.addr, p->plan.len) != p->plan.len)
		return false;
	if (p->state == P_IDLE)
		return memcmp(now, p->orig, p->plan.len) == 0;
	int32_t rel = (int32_t)((long)(p->slot + SLOT_CODE) - (long)(p->site.addr + UFT_INSN_JUMP));
	return now[0] == 0xe9 && memcmp(now + 1, &rel, 4) == 0;
}

int uft_insn_sync(void)
{
	int rc = 0;
	nr_ops = 0;
	for (uint32_t i = 0; i < POINTS_MAX; i++) {
		struct point *p = &points[i];
		if (p->state == P_FREE)
			continue;
		bool want = READ_ONCE(p->site.want) & (UFT_WANT_DPROBE | UFT_WANT_RPROBE);
		if (want != (p->state == P_PATCHED) && !code_intact(p)) {
			rc = -EFAULT; /* left alone: neither patched nor restored */
			continue;
		}
		if (want && p->state == P_IDLE) {
			uintptr_t slot = slot_alloc(p->site.addr);
			if (!slot || slot_fill(p, slot) != 0) {
				if (slot)
					slot_release(slot, S_FREE);
				rc = -ENOMEM;
				continue;
			}
			ops[nr_ops++] = (struct op){.p = p, .slot = slot, .to = P_PATCHED};
		} else if (!want && p->state == P_PATCHED) {
			ops[nr_ops++] = (struct op){.p = p, .slot = p->slot, .to = P_IDLE};
		}
	}
	if (!nr_ops && !any_quarantined())
		return rc;
	int r = 0;
	for (int attempt = 0; attempt < 200; attempt++) {
		again = false;
		r = uft_ftrace_apply(true, stopped, NULL);
		if (r || !again)
			break;
		struct timespec ms = {0, 1000000};
		nanosleep(&ms, NULL);
	}
	for (size_t k = 0; k < nr_ops; k++) {
		struct op *o = &ops[k];
		if (o->to == P_PATCHED && !o->done) {
			slot_release(o->slot, S_FREE);
		} else if (o->to == P_IDLE && o->done) {
			o->p->slot = 0;
			slot_release(o->slot, S_GRACE);
			uft_grace_defer((void *)o->slot, slot_quarantine);
		}
	}
	nr_ops = 0;
	if (!r && again)
		r = -EBUSY;
	return rc ? rc : r;
}

void uft_insn_skip(void *uc)
{
	if (!READ_ONCE(nr_patched))
		return;
	uintptr_t pc = uc_pc(uc);
	for (uint32_t i = 0; i < POINTS_MAX; i++) {
		const struct point *p = &points[i];
		if (smp_load_acquire(&p->state) != P_PATCHED)
			continue;
		uintptr_t a = p->site.addr;
		if (pc <= a || pc >= a + p->plan.len)
			continue;
		for (uint8_t k = 1; k < p->plan.nr; k++)
			if (pc == a + p->plan.insn[k].off)
				uft_arch_set_context_pc(uc, p->slot + SLOT_RELOC + p->soff[k]);
		return;
	}
}

/* The hit, from uft_insn_tramp (frame: see insn_tramp.S). */
void uft_insn_probe_hit(uint64_t *f)
{
	uft_grace_enter();
	uint32_t prev = uft_ftrace_hold();
	if (!prev) {
		const struct point *p = *(struct point *const *)(f[16] - SLOT_RET);
		static const uint8_t at[16] = {
		    UFT_REG_R15, UFT_REG_R14, UFT_REG_R13, UFT_REG_R12,	 UFT_REG_BP, UFT_REG_BX,
		    UFT_REG_R11, UFT_REG_R10, UFT_REG_R9,  UFT_REG_R8,	 UFT_REG_DI, UFT_REG_SI,
		    UFT_REG_DX,	 UFT_REG_CX,  UFT_REG_AX,  UFT_REG_FLAGS};
		struct uft_probe_regs r;
		for (int i = 0; i < 16; i++)
			r.r[at[i]] = f[i];
		r.r[UFT_REG_SP] = (uintptr_t)(f + 17) + 128;
		r.r[UFT_REG_IP] = p->site.addr;
		uint8_t want = READ_ONCE(p->site.want);
		if (want & UFT_WANT_DPROBE)
			uft_dprobe_fire(&p->site, &r);
		/* A return probe's point is its function's first instruction:
		 * the return address is at the stack pointer. */
		if (want & UFT_WANT_RPROBE)
			uft_ftrace_rprobe_hook(&p->site, &r);
	}
	uft_ftrace_unhold(prev);
	uft_grace_exit();
}
