/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Live dynamic probes (issue 18): definitions of the probe engine made
 * through dynamic_events, kprobe_events or uprobe_events, each an event of
 * its own in the registry, attached to a function's patchable-entry sled
 * while the event is enabled somewhere. */
#ifndef UFT_LIB_FTRACE_PROBE_H
#define UFT_LIB_FTRACE_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/probe/probe.h"
#include "runtime/ftrace/ftrace.h"
#include <uft/event.h>

struct uft_dprobe {
	struct uft_event ev; /* the registry's descriptor */
	struct uft_probe_def def;
	struct uft_field *fields;
	uint32_t nr_fields;
	char *listing; /* the normalised definition, no newline */
	volatile uint16_t gate;
	struct uft_ftrace_site *site; /* its sled; NULL while its library is not loaded */
	uintptr_t func;		      /* its function, which a return is matched by */
	bool attached;		      /* the site's UFT_WANT_DPROBE counts it */
	uint32_t slot;		      /* in the hooks' table */
	bool fixed;		      /* no string args: the record is fixed_size */
	bool regs_only;		      /* entry probe of register args alone (ftrace_probe.c) */
	uint64_t hits_base;	      /* the slot's per-thread counts at its creation */
	uint64_t hits;		      /* hits of threads without a stack (relaxed adds) */
	uint64_t misses;	      /* return probes: calls whose return could not be hooked */
};

/* Everything but the hit runs under the tree's lock (tfs_lock). */

/* Where a definition can go: 0 with *site set, -ENOENT (no such function
 * loaded) or -EOPNOTSUPP (not a sled function's entry, or a kind not
 * attached yet). A return probe goes on its function's sled too: the
 * entry hooks the return as the graph tracer does (ftrace_shadow.h). */
int uft_dprobe_resolve(const struct uft_probe_def *d, struct uft_ftrace_site **site);
/* Whether a definition resolve() did not find names a library not loaded
 * now (LIB:SYMBOL, or PATH:OFFSET of an existing file): the probe then
 * waits for it (created with no site), as the kernel's on a module. */
bool uft_dprobe_may_wait(const struct uft_probe_def *d);
/* Whether some probe is in a library (waiting or attached): the dlopen and
 * dlclose hooks then rescan (tfs_ftrace.c). Read without the lock. */
extern bool uft_dprobe_libs;
/* After objects came or went (uft_ftrace_scan() run): probes whose library
 * went wait again, waiting ones whose library came get their site, and the
 * sleds follow (uft_dprobe_sync). 0 or -errno. */
int uft_dprobe_rescan(void);
/* Creates the event of a resolved definition (site NULL: waiting for its
 * library), taking the definition over.
 * 0, -EEXIST, -ENOSPC (too many probes) or -ENOMEM. */
int uft_dprobe_create(struct uft_probe_def *def, struct uft_ftrace_site *site);
/* The live probe GROUP/EVENT (group NULL: any), or NULL. */
struct uft_dprobe *uft_dprobe_find(const char *group, const char *event);
/* Deletes one: 0 or -EBUSY while it is enabled or has triggers. */
int uft_dprobe_delete(struct uft_dprobe *p);
/* Deletes all probes of a kind (-1: every kind), or none (-EBUSY); with
 * check_only, only says whether it could. */
int uft_dprobe_delete_kind(int kind, bool check_only);
/* kprobe_profile's hits of a probe while enabled: the counts of every
 * thread's stack (those of exited threads too) since its creation. */
uint64_t uft_dprobe_hits(const struct uft_dprobe *p);
/* Calls fn for each live probe in creation order. */
void uft_dprobe_each(void (*fn)(void *ctx, const struct uft_dprobe *p), void *ctx);
/* Patches the sleds of probes whose event was enabled or disabled since the
 * last call. 0 or -errno. */
int uft_dprobe_sync(void);

/* The hit, from uft_ftrace_entry: `saved` is the trampoline's register
 * frame (rdi rsi rdx rcx r8 r9 rax r10 r11, then rbx r12-r15 at word 26). */
void uft_ftrace_dprobe_hit(const struct uft_ftrace_site *s, uintptr_t *slot, const uint64_t *saved);

/* Writes the records of the enabled probes of a hit: the entry probes of
 * site s, or (s NULL) the return probes of func. Sets c->sym_name. Called
 * inside a grace section (the hooks' probe_section, the instruction
 * probes' hit), with the thread's hooks held. */
void uft_dprobe_emit(const struct uft_ftrace_site *s, uintptr_t func, struct uft_probe_ctx *c);
/* A call of func whose return could not be hooked (the thread's shadow
 * stack full): a miss for its enabled return probes (kprobe_profile). */
void uft_dprobe_missed(uintptr_t func);

/* The probe engine's env->func_file (ftrace_probe_dwarf.c): the file of
 * the loaded function LIB:SYM or SYM and its address in that file, for the
 * args by DWARF name. 0 or -ENOENT. */
int uft_dprobe_func_file(void *ctx, const char *lib, const char *sym, char *path, size_t len,
			 uint64_t *vaddr);

/* The trace text of a probe record ("NAME: (sym+0x0/0x20) a=1", a return's
 * "NAME: (caller+0x1c/0x40 <- sym) a=1"), 1 when it is one, else 0. */
int uft_dprobe_render(FILE *f, const void *data, uint32_t len,
		      int (*sym)(uint64_t addr, char *buf, size_t len));

#endif
