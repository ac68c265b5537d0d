/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Live dynamic probes on patchable-entry sleds. A definition becomes a
 * descriptor registered like a synthetic event (id, format, events/
 * directory, enable, filter, triggers, hist). While the event goes to some
 * buffer, its function's sled calls the function tracer's trampoline, which
 * hands the hook its saved registers; the hook fills the record with the
 * probe engine and writes it through the normal reservation.
 *
 * The hooks find the probes of a site in a fixed table of slots read under
 * a grace section: a deleted probe leaves its slot at once and is freed
 * after a grace period. */
#define _GNU_SOURCE
#include "runtime/ftrace/ftrace_probe.h"

#include <errno.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <uft/fastpath.h>
#include <uft/uft.h>

#include "engine/format/format.h"
#include "runtime/core/grace.h"
#include "runtime/core/registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/symtab.h"
#include "runtime/ftrace/eprobe.h"
#include "runtime/ftrace/ftrace_insn_probe.h"
#include "runtime/ftrace/ftrace_shadow.h"
#include "util/atomics.h"
#include "util/util.h"

#define DPROBE_MAX FSTACK_PROBES /* live probes */
#define DPROBE_REC 2048		 /* a hit's record at most: strings are cut to fit */

static struct uft_dprobe *hooks[DPROBE_MAX]; /* read by the hits */
/* A slot is taken from its probe's creation until it is freed, after a
 * grace period: no hit of an earlier probe counts in its slot then. */
static bool slot_taken[DPROBE_MAX];
static uint32_t nr_hooks;	/* slots ever used: what a hit scans */
static struct uft_dprobe **all; /* creation order */
static uint32_t nr_all, cap_all;

static uint64_t slot_hits(uint32_t slot)
{
	uint64_t n = 0;
	for (struct fstack *st = smp_load_acquire(&uft_ftrace_all_stacks); st; st = st->next_all)
		n += __atomic_load_n(&st->probe_hits[slot], __ATOMIC_RELAXED);
	return n;
}

uint64_t uft_dprobe_hits(const struct uft_dprobe *p)
{
	return slot_hits(p->slot) - p->hits_base + __atomic_load_n(&p->hits, __ATOMIC_RELAXED);
}

static void dprobe_free(void *arg)
{
	struct uft_dprobe *p = arg;
	WRITE_ONCE(slot_taken[p->slot], false);
	uft_probe_fields_free(p->fields, p->nr_fields);
	free(p->listing);
	free((char *)p->ev.print_fmt);
	uft_probe_def_free(&p->def);
	free(p);
}

static bool obj_matches(const struct uft_ftrace_obj *o, const char *lib)
{
	if (!lib)
		return true;
	const char *base = strrchr(o->path, '/');
	base = base ? base + 1 : o->path;
	if ((o->mod && strcmp(o->mod, lib) == 0) || strcmp(o->path, lib) == 0 ||
	    strcmp(base, lib) == 0)
		return true;
	/* libc:malloc means libc.so.6 as the kernel's module names drop ".ko". */
	size_t n = strlen(lib);
	return strncmp(base, lib, n) == 0 && base[n] == '.';
}

struct foffs {
	uintptr_t base;
	uint64_t off;
	uintptr_t addr; /* 0: not in a loaded segment */
};

static int foffs_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct foffs *f = arg;
	(void)size;
	if (info->dlpi_addr != f->base)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && f->off >= ph->p_offset &&
		    f->off < ph->p_offset + ph->p_filesz) {
			f->addr = info->dlpi_addr + ph->p_vaddr + (f->off - ph->p_offset);
			return 1;
		}
	}
	return 0;
}

/* PATH:OFFSET: the address of the file offset in the loaded object whose
 * file is PATH (same inode), or 0. */
static uintptr_t file_offset_addr(const char *path, uint64_t off)
{
	struct stat want, st;
	if (stat(path, &want) != 0)
		return 0;
	uint32_t nr = smp_load_acquire(&uft_ftrace_nr_objs);
	for (uint32_t i = 0; i < nr; i++) {
		const struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		if (o->gone || stat(o->path, &st) != 0 || st.st_ino != want.st_ino ||
		    st.st_dev != want.st_dev)
			continue;
		struct foffs f = {.base = o->base, .off = off};
		dl_iterate_phdr(foffs_one, &f);
		return f.addr;
	}
	return 0;
}

/* Whether a call reaches the sled with nothing done yet: the sled at the
 * entry, or after a short jump over data (clang's -fsanitize=function puts
 * the function's type signature there). */
static bool entry_sled(const struct uft_ftrace_site *s)
{
	const uint8_t *c = (const uint8_t *)s->func;
	return s->addr == s->func ||
	       (s->addr - s->func <= 16 && c[0] == 0xeb && s->func + 2 + c[1] == s->addr);
}

int uft_dprobe_resolve(const struct uft_probe_def *d, struct uft_ftrace_site **site)
{
	if (d->kind == UFT_PROBE_EPROBE)
		return -EOPNOTSUPP;
	uft_ftrace_scan();
	if (d->kind == UFT_PROBE_UPROBE) {
		/* A file offset: the site whose function starts there. */
		uintptr_t a =
		    d->lib && !d->symbol ? file_offset_addr(d->lib, (uint64_t)d->offset) : 0;
		uint32_t nr = smp_load_acquire(&uft_ftrace_nr_objs);
		for (uint32_t i = 0; a && i < nr; i++) {
			struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
			for (uint32_t k = 0; !o->gone && k < o->nr; k++)
				if (o->sites[k].func == a && o->sites[k].addr == a) {
					*site = &o->sites[k];
					return 0;
				}
		}
		/* Not a sled: an instruction-boundary probe (ftrace_insn_probe.c). */
		return uft_insn_resolve(d, site);
	}
	if (!d->has_addr && !d->symbol)
		return -EOPNOTSUPP;
	uint32_t nr = smp_load_acquire(&uft_ftrace_nr_objs);
	bool named = false;
	for (uint32_t i = 0; i < nr; i++) {
		struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		if (o->gone || (!d->has_addr && !obj_matches(o, d->lib)))
			continue;
		for (uint32_t k = 0; k < o->nr; k++) {
			struct uft_ftrace_site *s = &o->sites[k];
			bool hit = d->has_addr ? s->func == d->addr
					       : s->name && strcmp(s->name, d->symbol) == 0;
			if (!hit)
				continue;
			named = true;
			/* The entry is the sled's; past the sled, an instruction. */
			if (d->offset != 0 || !entry_sled(s))
				return d->offset > 0 && s->func + (uintptr_t)d->offset <
							    s->addr + UFT_FTRACE_SLED
					   ? -EOPNOTSUPP
					   : uft_insn_resolve(d, site);
			*site = s;
			return 0;
		}
	}
	if (named)
		return -EOPNOTSUPP;
	return uft_insn_resolve(d, site); /* a function without a sled, an address */
}

static void libs_update(void);
static bool regs_only(const struct uft_probe_def *d);

int uft_dprobe_create(struct uft_probe_def *def, struct uft_ftrace_site *site)
{
	if (uft_dprobe_find(def->group, def->event))
		return -EEXIST;
	uint32_t slot = 0;
	while (slot < DPROBE_MAX && READ_ONCE(slot_taken[slot]))
		slot++;
	if (slot == DPROBE_MAX)
		return -ENOSPC;
	if (uft_array_reserve(all, cap_all, nr_all + 1, 8))
		return -ENOMEM;
	struct uft_dprobe *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->def = *def;
	memset(def, 0, sizeof(*def));
	p->site = site; /* NULL: its library is not loaded yet */
	p->func = site ? site->func : 0;
	p->slot = slot;
	p->hits_base = slot_hits(slot);
	p->fixed = true;
	for (uint32_t i = 0; i < p->def.nr_args; i++)
		if (p->def.args[i].type->is_string)
			p->fixed = false;
	p->regs_only = regs_only(&p->def);
	p->fields = uft_probe_fields(&p->def, &p->nr_fields);
	p->listing = uft_probe_listing(&p->def);
	p->ev.print_fmt = uft_probe_print_fmt(&p->def);
	if (!p->fields || !p->listing || !p->ev.print_fmt) {
		dprobe_free(p);
		return -ENOMEM;
	}
	p->ev.magic = UFT_EVENT_MAGIC;
	p->ev.style = UFT_STYLE_STRUCT;
	p->ev.gate = &p->gate;
	p->ev.system = p->def.group;
	p->ev.name = p->def.event;
	p->ev.fields = p->fields;
	p->ev.nr_fields = p->nr_fields;
	p->ev.fixed_size = p->def.fixed_size;
	p->ev.file = p->def.kind == UFT_PROBE_UPROBE ? "uprobe_events" : "kprobe_events";
	int rc = uft_registry_add_dynamic(&p->ev);
	if (rc) {
		dprobe_free(p);
		return rc;
	}
	all[nr_all++] = p;
	WRITE_ONCE(slot_taken[slot], true);
	uft_insn_ref(site, 1);
	libs_update();
	smp_store_release(&hooks[slot], p);
	if (slot >= nr_hooks)
		smp_store_release(&nr_hooks, slot + 1);
	return 0;
}

static void detach(struct uft_dprobe *p);

/* Whether the object of a site was unloaded. */
static bool site_gone(const struct uft_ftrace_site *s)
{
	uint32_t nr = smp_load_acquire(&uft_ftrace_nr_objs);
	for (uint32_t i = 0; i < nr; i++) {
		const struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
		if (s >= o->sites && s < o->sites + o->nr)
			return o->gone;
	}
	return true;
}

bool uft_dprobe_may_wait(const struct uft_probe_def *d)
{
	if (!d->lib || d->has_addr || d->kind == UFT_PROBE_EPROBE)
		return false;
	uint32_t nr = smp_load_acquire(&uft_ftrace_nr_objs);
	if (d->kind == UFT_PROBE_UPROBE) {
		/* PATH:OFFSET: an existing file, not mapped now (the kernel's
		 * uprobe is the inode's, whoever maps it later). */
		struct stat want, st;
		if (d->symbol || stat(d->lib, &want) != 0 || !S_ISREG(want.st_mode))
			return false;
		for (uint32_t i = 0; i < nr; i++) {
			const struct uft_ftrace_obj *o = &uft_ftrace_objs[i];
			if (!o->gone && stat(o->path, &st) == 0 && st.st_ino == want.st_ino &&
			    st.st_dev == want.st_dev)
				return false;
		}
		return true;
	}
	/* LIB:SYMBOL with no such library loaded, as a kprobe on a module. */
	for (uint32_t i = 0; i < nr; i++)
		if (!uft_ftrace_objs[i].gone && obj_matches(&uft_ftrace_objs[i], d->lib))
			return false;
	return true;
}

bool uft_dprobe_libs;

/* uft_dprobe_libs after a probe came or went. */
static void libs_update(void)
{
	bool any = false;
	for (uint32_t i = 0; i < nr_all && !any; i++)
		any = (!all[i]->site && all[i]->def.kind != UFT_PROBE_EPROBE) || all[i]->def.lib;
	WRITE_ONCE(uft_dprobe_libs, any);
}

int uft_dprobe_rescan(void)
{
	for (uint32_t i = 0; i < nr_all; i++) {
		struct uft_dprobe *p = all[i];
		if (p->site && site_gone(p->site)) {
			/* Its library went: waiting again, from no site. */
			detach(p);
			uft_insn_ref(p->site, -1);
			WRITE_ONCE(p->site, NULL);
			WRITE_ONCE(p->func, 0);
		}
		struct uft_ftrace_site *s;
		if (!p->site && p->def.lib && uft_dprobe_resolve(&p->def, &s) == 0) {
			WRITE_ONCE(p->func, s->func);
			WRITE_ONCE(p->site, s);
			uft_insn_ref(s, 1);
		}
	}
	libs_update();
	return uft_dprobe_sync();
}

struct uft_dprobe *uft_dprobe_find(const char *group, const char *event)
{
	for (uint32_t i = 0; i < nr_all; i++)
		if ((!group || strcmp(all[i]->def.group, group) == 0) &&
		    strcmp(all[i]->def.event, event) == 0)
			return all[i];
	return NULL;
}

/* The site's bit a probe sets: entry probes run at the call, return
 * probes hook the return. */
static uint8_t want_bit(const struct uft_dprobe *p)
{
	return p->def.is_return ? UFT_WANT_RPROBE : UFT_WANT_DPROBE;
}

/* Whether a site still has an attached probe of p's bit other than p. */
static bool site_shared(const struct uft_dprobe *p)
{
	for (uint32_t i = 0; i < nr_all; i++)
		if (all[i] != p && all[i]->attached && all[i]->site == p->site &&
		    want_bit(all[i]) == want_bit(p))
			return true;
	return false;
}

static void detach(struct uft_dprobe *p)
{
	if (!p->attached)
		return;
	if (!site_shared(p))
		WRITE_ONCE(p->site->want, p->site->want & ~want_bit(p));
	p->attached = false;
}

static void drop(uint32_t i)
{
	struct uft_dprobe *p = all[i];
	uft_registry_remove_dynamic(&p->ev, false);
	WRITE_ONCE(hooks[p->slot], NULL);
	detach(p);
	uft_insn_ref(p->site, -1);
	uft_eprobe_forget(p);
	memmove(&all[i], &all[i + 1], (nr_all - i - 1) * sizeof(*all));
	nr_all--;
	libs_update();
	uft_grace_defer(p, dprobe_free);
}

int uft_dprobe_delete(struct uft_dprobe *p)
{
	int rc = uft_registry_remove_dynamic(&p->ev, true);
	if (rc)
		return rc;
	for (uint32_t i = 0; i < nr_all; i++)
		if (all[i] == p) {
			drop(i);
			break;
		}
	return uft_ftrace_apply(false, NULL, NULL);
}

int uft_dprobe_delete_kind(int kind, bool check_only)
{
	for (uint32_t i = 0; i < nr_all; i++)
		if ((kind < 0 || all[i]->def.kind == kind) &&
		    uft_registry_remove_dynamic(&all[i]->ev, true))
			return -EBUSY;
	if (check_only)
		return 0;
	for (uint32_t i = nr_all; i-- > 0;)
		if (kind < 0 || all[i]->def.kind == kind)
			drop(i);
	return uft_ftrace_apply(false, NULL, NULL);
}

void uft_dprobe_each(void (*fn)(void *ctx, const struct uft_dprobe *p), void *ctx)
{
	for (uint32_t i = 0; i < nr_all; i++)
		fn(ctx, all[i]);
}

int uft_dprobe_sync(void)
{
	bool change = false, attaching[DPROBE_MAX] = {false};
	for (uint32_t i = 0; i < nr_all; i++) {
		struct uft_dprobe *p = all[i];
		bool on = READ_ONCE(p->gate) != 0 && p->site;
		if (on == p->attached)
			continue;
		change = true;
		if (on) {
			p->attached = true;
			attaching[i] = true;
			WRITE_ONCE(p->site->want, p->site->want | want_bit(p));
		} else {
			detach(p);
		}
	}
	int rc = change ? uft_ftrace_apply(false, NULL, NULL) : 0;
	if (rc) {
		/* Nothing was patched (threads did not stop): the probes wait,
		 * unattached, and the next change of the tree tries again. */
		for (uint32_t i = 0; i < nr_all; i++)
			if (attaching[i])
				detach(all[i]);
		return rc;
	}
	return change ? uft_insn_sync() : 0; /* the points off the sleds */
}

static int sym_name(void *ctx, uint64_t addr, char *buf, size_t len)
{
	struct uft_symbol s;
	if (uft_symbol_find((uintptr_t)addr, &s) != 0)
		return -1;
	snprintf(buf, len, "%s+0x%llx/0x%llx", s.name, (unsigned long long)(addr - s.start),
		 (unsigned long long)s.size);
	return 0;
}

/* The sled trampoline's frame (rdi rsi rdx rcx r8 r9 rax r10 r11 at 0-8,
 * rbx r12-r15 at 26-30; rbp pushed just below the return address), read
 * register by register: a probe of register args copies only those. */
struct sled_frame {
	const uint64_t *saved;
	uintptr_t *slot;
	uintptr_t func;
};

enum { FR_BP = -1, FR_SP = -2, FR_IP = -3, FR_FLAGS = -4 };
static const int8_t sled_at[UFT_REG_NR] = {
    [UFT_REG_DI] = 0,	  [UFT_REG_SI] = 1,	     [UFT_REG_DX] = 2,	   [UFT_REG_CX] = 3,
    [UFT_REG_R8] = 4,	  [UFT_REG_R9] = 5,	     [UFT_REG_AX] = 6,	   [UFT_REG_R10] = 7,
    [UFT_REG_R11] = 8,	  [UFT_REG_BX] = 26,	     [UFT_REG_R12] = 27,   [UFT_REG_R13] = 28,
    [UFT_REG_R14] = 29,	  [UFT_REG_R15] = 30,	     [UFT_REG_BP] = FR_BP, [UFT_REG_SP] = FR_SP,
    [UFT_REG_IP] = FR_IP, [UFT_REG_FLAGS] = FR_FLAGS};

static inline uint64_t sled_reg(const struct sled_frame *f, unsigned reg)
{
	int k = sled_at[reg];
	switch (k) {
	case FR_BP:
		return f->slot[-2];
	case FR_SP:
		return (uintptr_t)f->slot;
	case FR_IP:
		return f->func;
	case FR_FLAGS:
		return 0;
	default:
		return f->saved[k];
	}
}

/* SysV x86-64: $argN's registers. */
static const uint8_t arg_regs[6] = {UFT_REG_DI, UFT_REG_SI, UFT_REG_DX,
				    UFT_REG_CX, UFT_REG_R8, UFT_REG_R9};

/* Whether an entry probe's args are registers alone, stored whole one
 * after the other: its record is then written here without the engine. */
static bool regs_only(const struct uft_probe_def *d)
{
	if (d->is_return || d->kind == UFT_PROBE_EPROBE || d->head_size != 16)
		return false;
	uint32_t at = d->head_size;
	for (uint32_t i = 0; i < d->nr_args; i++) {
		const struct uft_probe_arg *a = &d->args[i];
		if (a->nops != 1 || a->count || a->bf_width || a->store != UFT_PST_RAW ||
		    a->type->is_string || a->offset != at ||
		    !(a->ops[0].op == UFT_POP_REG ||
		      (a->ops[0].op == UFT_POP_ARG && a->ops[0].arg < 6)))
			return false;
		at += a->type->size;
	}
	return at == d->fixed_size;
}

static inline void fill_regs_only(const struct uft_probe_def *d, const struct uft_probe_ctx *c,
				  const struct sled_frame *f, uint8_t *rec)
{
	memcpy(rec + 8, &c->ip, 8);
	for (uint32_t i = 0; i < d->nr_args; i++) {
		const struct uft_probe_arg *a = &d->args[i];
		unsigned reg =
		    a->ops[0].op == UFT_POP_REG ? a->ops[0].arg : arg_regs[a->ops[0].arg];
		uint64_t v = f ? sled_reg(f, reg) : c->regs->r[reg];
		uint8_t *out = rec + a->offset;
		switch (a->type->size) {
		case 1:
			*out = (uint8_t)v;
			break;
		case 2:
			memcpy(out, &v, 2);
			break;
		case 4:
			memcpy(out, &v, 4);
			break;
		default:
			memcpy(out, &v, 8);
			break;
		}
	}
}

/* One hit of p by the calling thread: a plain add in its own stack. */
static inline void count_hit(struct fstack *st, const struct uft_dprobe *p)
{
	if (__builtin_expect(st != NULL, 1)) {
		uint64_t *h = &st->probe_hits[p->slot];
		__atomic_store_n(h, __atomic_load_n(h, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
	} else {
		uft_add_return_relaxed(&((struct uft_dprobe *)p)->hits, 1);
	}
}

/* The record path of every hit; f: a sled's frame, c->regs NULL until a
 * probe needs them all. */
static void emit(const struct uft_ftrace_site *s, uintptr_t func, struct uft_probe_ctx *c,
		 const struct sled_frame *f)
{
	uint8_t buf[DPROBE_REC] __attribute__((aligned(8)));
	struct uft_probe_regs r;
	c->sym_name = sym_name;
	struct fstack *st = uft_ftrace_stack;
	if (__builtin_expect(!st, 0))
		st = uft_ftrace_thread_stack();
	uint32_t n = smp_load_acquire(&nr_hooks);
	for (uint32_t i = 0; i < n; i++) {
		struct uft_dprobe *p = smp_load_acquire(&hooks[i]);
		if (!p ||
		    (s ? READ_ONCE(p->site) != s || p->def.is_return
		       : READ_ONCE(p->func) != func || !p->def.is_return) ||
		    !uft_event_targets(&p->ev))
			continue;
		count_hit(st, p);
		if (!p->regs_only && !c->regs && f) {
			for (unsigned k = 0; k < UFT_REG_NR; k++)
				r.r[k] = sled_reg(f, k);
			c->regs = c->entry_regs = &r;
			f = NULL;
		}
		/* The global buffer alone, no filter: the inline reservation,
		 * filled in place when the record has no strings (its size is
		 * known before the fetch). */
		uint32_t len = p->def.fixed_size;
		if (!p->fixed)
			len = uft_probe_record_fill(&p->def, c, buf, sizeof(buf));
		struct uft_fast_rsv frsv;
		char *frec = uft_fast_reserve(p->ev.state, len, &frsv);
		if (frec) {
			if (p->regs_only)
				fill_regs_only(&p->def, c, f, (uint8_t *)frec);
			else if (p->fixed)
				uft_probe_record_fill(&p->def, c, (uint8_t *)frec, len);
			else
				memcpy(frec + UFT_COMMON_HDR_SIZE, buf + UFT_COMMON_HDR_SIZE,
				       len - UFT_COMMON_HDR_SIZE);
			uft_fast_commit(&frsv);
			continue;
		}
		if (p->regs_only)
			fill_regs_only(&p->def, c, f, buf);
		else if (p->fixed)
			len = uft_probe_record_fill(&p->def, c, buf, sizeof(buf));
		uft_fast_hint(&frsv);
		struct uft_rsv rsv;
		for (char *rec = uft_reserve(&rsv, &p->ev, len); rec;
		     rec = uft_reserve_next(&rsv)) {
			memcpy(rec + UFT_COMMON_HDR_SIZE, buf + UFT_COMMON_HDR_SIZE,
			       len - UFT_COMMON_HDR_SIZE);
			uft_commit(&rsv);
		}
	}
}

void uft_ftrace_dprobe_hit(const struct uft_ftrace_site *s, uintptr_t *slot, const uint64_t *saved)
{
	struct sled_frame f = {saved, slot, s->func};
	/* Copied from a zero one: an initializer becomes a `rep stos`, whose
	 * start-up costs more than the few vector stores of a copy. */
	static const struct uft_probe_ctx zero;
	struct uft_probe_ctx c = zero;
	c.ip = s->func;
	emit(s, 0, &c, &f);
}

void uft_dprobe_emit(const struct uft_ftrace_site *s, uintptr_t func, struct uft_probe_ctx *c)
{
	emit(s, func, c, NULL);
}

void uft_dprobe_missed(uintptr_t func)
{
	uft_grace_enter();
	uint32_t n = smp_load_acquire(&nr_hooks);
	for (uint32_t i = 0; i < n; i++) {
		struct uft_dprobe *p = smp_load_acquire(&hooks[i]);
		if (p && p->def.is_return && READ_ONCE(p->func) == func &&
		    uft_event_targets(&p->ev))
			uft_add_return_relaxed(&p->misses, 1);
	}
	uft_grace_exit();
}

static const struct uft_dprobe *probe_of_type(uint16_t type)
{
	for (uint32_t i = 0; i < nr_all; i++)
		if (uft_event_id(&all[i]->ev) == type)
			return all[i];
	return NULL;
}

int uft_dprobe_render(FILE *f, const void *data, uint32_t len,
		      int (*sym)(uint64_t addr, char *buf, size_t len))
{
	if (len < UFT_COMMON_HDR_SIZE)
		return 0;
	const struct uft_dprobe *p = probe_of_type(((const struct uft_common_entry *)data)->type);
	if (!p || len < p->def.fixed_size || p->def.head_size < 16)
		return 0;
	uint64_t ip;
	memcpy(&ip, (const uint8_t *)data + 8, 8);
	char where[620];
	/* A uprobe names its address as the kernel's does, in hex. */
	bool hex = p->def.kind == UFT_PROBE_UPROBE;
	if (hex || sym(ip, where, sizeof(where)) != 0)
		snprintf(where, sizeof(where), "0x%llx", (unsigned long long)ip);
	if (p->def.is_return && p->def.head_size >= 24) {
		/* (where it returns to <- the function by its name alone), as
		 * print_kretprobe_event: ip is __probe_func, then __probe_ret_ip. */
		uint64_t ret;
		memcpy(&ret, (const uint8_t *)data + 16, 8);
		char fn[300];
		memcpy(fn, where, sizeof(fn));
		fn[sizeof(fn) - 1] = 0;
		if (!hex)
			fn[strcspn(fn, "+")] = 0;
		if (hex || sym(ret, where, 300) != 0)
			snprintf(where, 300, "0x%llx", (unsigned long long)ret);
		snprintf(where + strlen(where), sizeof(where) - strlen(where), " <- %s", fn);
	}
	char args[4096];
	uft_probe_args_text(&p->def, data, len, args, sizeof(args));
	fprintf(f, "%s: (%s)%s", p->def.event, where, args);
	return 1;
}

void uft_dprobe_fire(const struct uft_ftrace_site *s, const struct uft_probe_regs *r)
{
	static const struct uft_probe_ctx zero;
	struct uft_probe_ctx c = zero; /* not an initializer: see uft_ftrace_dprobe_hit */
	c.regs = c.entry_regs = r;
	c.ip = r->r[UFT_REG_IP];
	uft_dprobe_emit(s, 0, &c);
}
