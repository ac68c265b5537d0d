/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Instruction-boundary probes: a dynamic probe at a point that is not a
 * patchable-entry sled (SYMBOL+OFFS, a function without a sled such as
 * libc's, a raw address, PATH:OFFSET) gets a 5-byte jump to a stub near the
 * point, which calls the common trampoline (insn_tramp.S) and then runs the
 * displaced instructions relocated (insn_decode.c) and jumps back. Each
 * point carries a site of its own, so ftrace_probe.c treats it as it treats
 * a sled: its UFT_WANT_DPROBE bit says whether a probe wants it. */
#ifndef UFT_LIB_FTRACE_INSN_PROBE_H
#define UFT_LIB_FTRACE_INSN_PROBE_H

#include <stdint.h>

#include "engine/probe/probe.h"
#include "runtime/ftrace/ftrace.h"

/* Everything here but the hit and uft_insn_skip runs under the tree's lock. */

/* The point of a definition no sled takes: 0 with *site set, -ENOENT
 * (nothing there), -EILSEQ (not an instruction boundary), -EOPNOTSUPP or
 * -ENOSYS (cannot be probed: uft_insn_why_take() says why). */
int uft_insn_resolve(const struct uft_probe_def *d, struct uft_ftrace_site **site);
/* Why the last uft_insn_resolve() refused, or NULL; cleared. */
const char *uft_insn_why_take(void);
/* A probe was created on (+1) or dropped from (-1) a site; sleds ignored. */
void uft_insn_ref(const struct uft_ftrace_site *site, int delta);
/* Patches the points some probe now wants and restores the others, with
 * every other thread stopped. 0 or -errno. */
int uft_insn_sync(void);
/* For the handlers that return to an interrupted context (with
 * uft_ftrace_skip_sled): a program counter strictly inside a patched
 * point's displaced bytes goes to their copy in the stub. */
__attribute__((visibility("hidden"))) void uft_insn_skip(void *uc);
/* The hooks' table: the probes of a site fire with these registers
 * (ftrace_probe.c). */
void uft_dprobe_fire(const struct uft_ftrace_site *s, const struct uft_probe_regs *r);

#endif
