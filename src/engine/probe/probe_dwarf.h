/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fetch args by name from DWARF, as the kernel's from BTF: a function's
 * parameters by name, struct members (`req->hdr.len`, `a->b->c`), array
 * elements, `$arg*`, and the type each name gives. A name compiles to the
 * ops a register fetch uses ($argN by the SysV ABI, dereferences with
 * offsets), so the hit runs nothing new. libdw is dlopen()ed by its soname
 * the first time a definition uses a name: libuft does not link it. */
#ifndef UFT_ENGINE_PROBE_DWARF_H
#define UFT_ENGINE_PROBE_DWARF_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/probe/probe_impl.h"

struct uft_probe_dwfunc;

/* The function at `vaddr` (the address in the object file's own terms) of
 * the ELF file at `path`, from its DWARF or its separate debug file's
 * (util/debugfile.c: by build-id or debuglink). 0, -EOPNOTSUPP (libdw could
 * not be loaded), -ENOENT (no debug information for it) or -ENOMEM. */
int uft_probe_dwarf_open(const char *path, uint64_t vaddr, struct uft_probe_dwfunc **out);
void uft_probe_dwarf_close(struct uft_probe_dwfunc *f);

/* Its parameters, in order. */
uint32_t uft_probe_dwarf_nparams(const struct uft_probe_dwfunc *f);
const char *uft_probe_dwarf_param(const struct uft_probe_dwfunc *f, uint32_t i);

/* Compiles `expr` (NAME, or after `$retval` when retval: the rest, "->x"),
 * whose text starts at `base` in its word, into ops[] (*nops set, at most
 * max) and *out. 0, or -EINVAL/-ENOENT/-EOPNOTSUPP with ep's message and
 * offset set. is_return: a return probe (the return value's type). */
int uft_probe_dwarf_expr(struct uft_probe_dwfunc *f, const char *expr, bool retval, unsigned base,
			 struct uft_probe_op *ops, unsigned max, unsigned *nops,
			 struct uft_probe_dwname *out, struct uft_probe_errpos *ep);

/* The function of a definition's args, opened the first time one needs it
 * (ctx->dw, closed with the definition's parse). 0, or -errno with *msg the
 * kernel's text: no way to look one up, or libdw missing ("BTF is not
 * available or not supported"), no debug information or no such function
 * ("No BTF entry for this probe point"). */
int uft_probe_dwarf_ctx(struct uft_probe_argctx *ctx, struct uft_probe_dwfunc **f,
			const char **msg);

/* Whether an arg's text ("[NAME=]FETCHARG[:TYPE]") names something DWARF
 * alone knows: a C name, `$arg*`, or `$retval` followed by a member. */
bool uft_probe_dwarf_wanted(const char *text);

#endif
