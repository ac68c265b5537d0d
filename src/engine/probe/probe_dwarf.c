/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fetch args by name from DWARF (kernel/trace/trace_probe.c's BTF args):
 * the probed function's parameters by name, placed by the SysV x86-64 ABI
 * (so `count` is the $argN that holds it), members through pointers and in
 * place, array elements, and the fetch type the last one's DWARF type gives.
 * Everything compiles to the engine's REG/ARG/RETVAL and DEREF ops at
 * definition time: a hit runs what a register fetch runs.
 *
 * libdw is dlopen()ed by its soname the first time a definition uses a
 * name, so libuft does not link it and a program that never asks for a
 * name never maps it. Debug information is the object's own, else its
 * separate debug file (util/debugfile.c: /usr/lib/debug/.build-id/...,
 * the debuglink), which ignores the environment in a set-id program. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/probe/probe_dwarf.h"
#include "util/debugfile.h"

#define FN(x) __typeof__(dwarf_##x) *x
static struct {
	FN(begin);
	FN(end);
	FN(nextcu);
	FN(offdie);
	FN(tag);
	FN(child);
	FN(siblingof);
	FN(diename);
	FN(attr_integrate);
	FN(formref_die);
	FN(formudata);
	FN(peel_type);
	FN(aggregate_size);
	FN(haspc);
	FN(getscopes);
	FN(getlocation);
} dw;
#undef FN

#define SYM(x)                                                                                     \
	{                                                                                          \
		(void **)&dw.x, "dwarf_" #x                                                        \
	}
static const struct {
	void **slot;
	const char *name;
} syms[] = {
    SYM(begin),	      SYM(end),	      SYM(nextcu),	   SYM(offdie),		SYM(tag),
    SYM(child),	      SYM(siblingof), SYM(diename),	   SYM(attr_integrate), SYM(formref_die),
    SYM(formudata),   SYM(peel_type), SYM(aggregate_size), SYM(haspc),		SYM(getscopes),
    SYM(getlocation),
};
#undef SYM

static pthread_once_t dw_once = PTHREAD_ONCE_INIT;
static bool dw_ok;

static void dw_load(void)
{
	/* By soname only: the dynamic linker's own search, which a set-id
	 * program runs without LD_LIBRARY_PATH. */
	void *lib = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return;
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
		if (!(*syms[i].slot = dlsym(lib, syms[i].name))) {
			dlclose(lib);
			return;
		}
	dw_ok = true;
}

struct dwparam {
	Dwarf_Die die;
	const char *name;
	int loc; /* the $argN index (0-5 registers, 6+ stack words), -1: none */
};

struct uft_probe_dwfunc {
	Dwarf *dbg;
	int fd;
	Dwarf_Die fn;
	uint32_t n;
	struct dwparam p[UFT_PROBE_ARGS_MAX];
};

/* The type a DIE's DW_AT_type names, without typedefs and qualifiers;
 * false for none (void). */
static bool type_of(Dwarf_Die *die, Dwarf_Die *t)
{
	Dwarf_Attribute a;
	Dwarf_Die raw;
	if (!dw.attr_integrate(die, DW_AT_type, &a) || !dw.formref_die(&a, &raw))
		return false;
	if (dw.peel_type(&raw, t) != 0)
		*t = raw;
	return true;
}

static bool udata(Dwarf_Die *d, unsigned at, uint64_t *v)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	if (!dw.attr_integrate(d, at, &a) || dw.formudata(&a, &w) != 0)
		return false;
	*v = w;
	return true;
}

static bool is_ptr(Dwarf_Die *t)
{
	int tag = dw.tag(t);
	return tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
	       tag == DW_TAG_rvalue_reference_type;
}

static bool is_aggr(Dwarf_Die *t)
{
	int tag = dw.tag(t);
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type;
}

static uint64_t size_of(Dwarf_Die *t)
{
	if (is_ptr(t) || dw.tag(t) == DW_TAG_ptr_to_member_type)
		return 8;
	Dwarf_Word s;
	return dw.aggregate_size(t, &s) == 0 ? s : 0;
}

static uint64_t encoding(Dwarf_Die *t)
{
	uint64_t e = 0;
	if (dw.tag(t) == DW_TAG_base_type)
		udata(t, DW_AT_encoding, &e);
	return e;
}

static bool is_float(Dwarf_Die *t)
{
	uint64_t e = encoding(t);
	return e == DW_ATE_float || e == DW_ATE_complex_float || e == DW_ATE_decimal_float;
}

/* A 1-byte integer: what a C string is made of. */
static bool is_char(Dwarf_Die *t)
{
	return dw.tag(t) == DW_TAG_base_type && size_of(t) == 1 && !is_float(t) &&
	       encoding(t) != DW_ATE_boolean;
}

/* ---- Where the ABI puts each parameter at the entry ---- */

enum { K_NONE, K_INT, K_SSE, K_MEM };

static void merge(uint8_t *c, uint8_t k)
{
	if (*c == K_MEM || k == K_MEM)
		*c = K_MEM;
	else if (*c == K_INT || k == K_INT)
		*c = K_INT;
	else if (k == K_SSE)
		*c = K_SSE;
}

static uint64_t member_bits(Dwarf_Die *m);

/* The classes of the eightbytes of a type of at most 16 bytes at byte
 * offset off (the ABI's 3.2.3, without the packed-field corner cases). */
static void classify(Dwarf_Die *t, uint64_t off, uint8_t cls[2], int depth)
{
	uint64_t size = size_of(t);
	if (depth > 8 || off + size > 16) {
		merge(&cls[0], K_MEM);
		return;
	}
	uint64_t last = size ? (off + size - 1) / 8 : off / 8;
	switch (dw.tag(t)) {
	case DW_TAG_base_type: {
		uint8_t k = K_INT;
		if (is_float(t)) {
			const char *n = dw.diename(t);
			if (n && strstr(n, "long double")) { /* x87: memory */
				merge(&cls[0], K_MEM);
				return;
			}
			k = K_SSE;
		}
		for (uint64_t b = off / 8; b <= last && b < 2; b++)
			merge(&cls[b], k);
		return;
	}
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_ptr_to_member_type:
	case DW_TAG_enumeration_type:
		for (uint64_t b = off / 8; b <= last && b < 2; b++)
			merge(&cls[b], K_INT);
		return;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type: {
		Dwarf_Die m, mt;
		if (dw.child(t, &m) != 0)
			return;
		do {
			if (dw.tag(&m) == DW_TAG_member && type_of(&m, &mt))
				classify(&mt, off + member_bits(&m) / 8, cls, depth + 1);
		} while (dw.siblingof(&m, &m) == 0);
		return;
	}
	case DW_TAG_array_type: {
		Dwarf_Die et;
		uint64_t es;
		if (!type_of(t, &et) || !(es = size_of(&et))) {
			merge(&cls[0], K_MEM);
			return;
		}
		for (uint64_t o = 0; o < size; o += es)
			classify(&et, off + o, cls, depth + 1);
		return;
	}
	}
	merge(&cls[0], K_MEM);
}

/* The $argN index of a parameter (its first eightbyte), given the
 * registers and stack the ones before it took; -1 when it is in an SSE
 * register, which a probe's snapshot does not hold. */
static int place(Dwarf_Die *p, unsigned *gpr, unsigned *sse, uint64_t *stack)
{
	Dwarf_Die t;
	if (!type_of(p, &t))
		return -1;
	uint64_t size = size_of(&t);
	uint8_t cls[2] = {K_NONE, K_NONE};
	if (size == 0 || size > 16)
		cls[0] = K_MEM;
	else
		classify(&t, 0, cls, 0);
	unsigned words = size > 8 ? 2 : 1, ng = 0, ns = 0;
	for (unsigned i = 0; i < words; i++) {
		ng += cls[i] == K_INT;
		ns += cls[i] == K_SSE;
	}
	if (cls[0] != K_MEM && cls[1] != K_MEM && *gpr + ng <= 6 && *sse + ns <= 8) {
		int loc = cls[0] == K_INT ? (int)*gpr : -1;
		*gpr += ng;
		*sse += ns;
		return loc;
	}
	/* In memory: eightbyte slots past the return address, 16-byte
	 * scalars (long double, __int128) aligned to 16. */
	uint64_t align = size == 16 && dw.tag(&t) == DW_TAG_base_type ? 16 : 8;
	*stack = (*stack + align - 1) & ~(align - 1);
	uint64_t loc = 6 + *stack / 8;
	*stack += (size + 7) & ~7ull;
	return loc > UFT_PROBE_STACK_MAX ? -1 : (int)loc;
}

static void params(struct uft_probe_dwfunc *f)
{
	Dwarf_Die c;
	unsigned gpr = 0, sse = 0;
	uint64_t stack = 0;
	if (dw.child(&f->fn, &c) != 0)
		return;
	do {
		if (dw.tag(&c) != DW_TAG_formal_parameter)
			continue;
		if (f->n == UFT_PROBE_ARGS_MAX)
			break;
		struct dwparam *p = &f->p[f->n++];
		p->die = c;
		p->name = dw.diename(&c);
		p->loc = place(&c, &gpr, &sse, &stack);
	} while (dw.siblingof(&c, &c) == 0);
}

/* ---- Opening the function ---- */

static Dwarf *begin_file(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	Dwarf *d = dw.begin(*fd, DWARF_C_READ);
	if (!d) {
		close(*fd);
		*fd = -1;
	}
	return d;
}

/* The subprogram whose code holds pc. */
static bool find_fn(Dwarf *dbg, Dwarf_Addr pc, Dwarf_Die *fn)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dw.nextcu(dbg, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dw.offdie(dbg, off + hsize, &cu) && dw.haspc(&cu, pc) == 1) {
			Dwarf_Die *scopes = NULL;
			int n = dw.getscopes(&cu, pc, &scopes);
			for (int i = 0; i < n; i++)
				if (dw.tag(&scopes[i]) == DW_TAG_subprogram) {
					*fn = scopes[i];
					free(scopes);
					return true;
				}
			free(scopes);
		}
		off = next;
	}
	return false;
}

/* The separate debug file of the object at path. */
static bool debug_path(const char *path, char *out, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = false;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		void *img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (img != MAP_FAILED) {
			ok = uft_debug_file(path, img, (size_t)st.st_size, out, len);
			munmap(img, (size_t)st.st_size);
		}
	}
	close(fd);
	return ok;
}

static void drop(struct uft_probe_dwfunc *f)
{
	if (f->dbg)
		dw.end(f->dbg);
	if (f->fd >= 0)
		close(f->fd);
	f->dbg = NULL;
	f->fd = -1;
}

int uft_probe_dwarf_open(const char *path, uint64_t vaddr, struct uft_probe_dwfunc **out)
{
	pthread_once(&dw_once, dw_load);
	if (!dw_ok)
		return -EOPNOTSUPP;
	struct uft_probe_dwfunc *f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->dbg = begin_file(path, &f->fd);
	if (!f->dbg || !find_fn(f->dbg, vaddr, &f->fn)) {
		drop(f);
		char dbgpath[PATH_MAX];
		if (debug_path(path, dbgpath, sizeof(dbgpath)))
			f->dbg = begin_file(dbgpath, &f->fd);
		if (!f->dbg || !find_fn(f->dbg, vaddr, &f->fn)) {
			drop(f);
			free(f);
			return -ENOENT;
		}
	}
	params(f);
	*out = f;
	return 0;
}

void uft_probe_dwarf_close(struct uft_probe_dwfunc *f)
{
	if (!f)
		return;
	drop(f);
	free(f);
}

uint32_t uft_probe_dwarf_nparams(const struct uft_probe_dwfunc *f)
{
	return f->n;
}

const char *uft_probe_dwarf_param(const struct uft_probe_dwfunc *f, uint32_t i)
{
	return i < f->n ? f->p[i].name : NULL;
}

/* ---- Names to ops ---- */

/* A member's offset in bits from its struct's start. */
static uint64_t member_bits(Dwarf_Die *m)
{
	uint64_t v;
	if (udata(m, DW_AT_data_bit_offset, &v))
		return v;
	uint64_t bytes = 0;
	Dwarf_Attribute a;
	if (dw.attr_integrate(m, DW_AT_data_member_location, &a)) {
		Dwarf_Word w;
		Dwarf_Op *ops;
		size_t n;
		if (dw.formudata(&a, &w) == 0)
			bytes = w;
		else if (dw.getlocation(&a, &ops, &n) == 0 && n == 1 &&
			 ops[0].atom == DW_OP_plus_uconst)
			bytes = ops[0].number;
	}
	uint64_t bits = bytes * 8, bo, bs, unit;
	/* DWARF 2/3 bitfields count from the storage unit's top bit. */
	if (udata(m, DW_AT_bit_offset, &bo) && udata(m, DW_AT_bit_size, &bs)) {
		Dwarf_Die t;
		if (!udata(m, DW_AT_byte_size, &unit))
			unit = type_of(m, &t) ? size_of(&t) : 4;
		bits += unit * 8 - bo - bs;
	}
	return bits;
}

/* Member name[0..len) of struct or union t, looked for inside anonymous
 * members too: its DIE and bit offset. */
static bool member(Dwarf_Die *t, const char *name, size_t len, Dwarf_Die *m, uint64_t *bits,
		   int depth)
{
	Dwarf_Die c, at;
	if (depth > 8 || dw.child(t, &c) != 0)
		return false;
	do {
		if (dw.tag(&c) != DW_TAG_member)
			continue;
		const char *n = dw.diename(&c);
		if (!n) {
			if (type_of(&c, &at) && is_aggr(&at) &&
			    member(&at, name, len, m, bits, depth + 1)) {
				*bits += member_bits(&c);
				return true;
			}
			continue;
		}
		if (strlen(n) == len && memcmp(n, name, len) == 0) {
			*m = c;
			*bits = member_bits(&c);
			return true;
		}
	} while (dw.siblingof(&c, &c) == 0);
	return false;
}

/* The fetch type of a DWARF type, as the kernel's of a BTF type: integers
 * by size and sign, enums signed, pointers x64; NULL (x64) for the rest. */
static const char *fetch_type(Dwarf_Die *t)
{
	static const char *const s[] = {"s8", "s16", "s32", "s64"};
	static const char *const u[] = {"u8", "u16", "u32", "u64"};
	uint64_t size = size_of(t);
	int i = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;
	if (is_ptr(t))
		return "x64";
	if (i < 0)
		return NULL;
	if (dw.tag(t) == DW_TAG_enumeration_type)
		return s[i];
	switch (encoding(t)) {
	case DW_ATE_signed:
	case DW_ATE_signed_char:
		return s[i];
	case DW_ATE_unsigned:
	case DW_ATE_unsigned_char:
	case DW_ATE_boolean:
	case DW_ATE_UTF:
		return u[i];
	}
	return NULL;
}

/* The length of the C name at s. */
static size_t ident(const char *s)
{
	size_t n = 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

static int fail(struct uft_probe_errpos *ep, unsigned off, const char *msg, int rc)
{
	ep->msg = msg;
	ep->offset = off;
	return rc;
}

struct walk {
	struct uft_probe_op *ops;
	unsigned max, n, base;
	struct uft_probe_errpos *ep;
};

static int put(struct walk *w, struct uft_probe_op op)
{
	if (w->n >= w->max)
		return fail(w->ep, w->base, E_TOO_MANY_OPS, -EINVAL);
	w->ops[w->n++] = op;
	return 0;
}

int uft_probe_dwarf_expr(struct uft_probe_dwfunc *f, const char *s, bool retval, unsigned base,
			 struct uft_probe_op *ops, unsigned max, unsigned *nops,
			 struct uft_probe_dwname *out, struct uft_probe_errpos *ep)
{
	struct walk w = {ops, max, 0, base, ep};
	Dwarf_Die t;
	size_t i = retval ? 7 : ident(s);
	memset(out, 0, sizeof(*out));
	*nops = 0;
	int rc;
	if (retval) {
		if (!type_of(&f->fn, &t))
			return fail(ep, base, E_NO_RETVAL, -ENOENT);
		if (s[i] && is_float(&t)) /* in xmm0, which no snapshot holds */
			return fail(ep, base, E_NOSUP_BTFARG, -EOPNOTSUPP);
		rc = put(&w, (struct uft_probe_op){.op = UFT_POP_RETVAL});
	} else {
		const struct dwparam *p = NULL;
		for (uint32_t k = 0; k < f->n && !p; k++)
			if (f->p[k].name && strlen(f->p[k].name) == i &&
			    memcmp(f->p[k].name, s, i) == 0)
				p = &f->p[k];
		if (!p)
			return fail(ep, base, E_NO_BTFARG, -ENOENT);
		if (p->loc < 0)
			return fail(ep, base, E_NOSUP_BTFARG, -EOPNOTSUPP);
		if (!type_of((Dwarf_Die *)&p->die, &t))
			return fail(ep, base, E_BAD_BTF_TID, -EINVAL);
		rc = put(&w, (struct uft_probe_op){.op = UFT_POP_ARG, .arg = (uint32_t)p->loc});
	}
	if (rc)
		return rc;
	/* The value so far is the accumulator's (a register, a loaded
	 * pointer), or the memory at it + off (inmem). */
	bool inmem = false;
	int64_t off = 0;
	unsigned last = 0; /* where the last name starts */
	uint64_t bits = 0, bsize = 0;
	while (s[i]) {
		bool arrow = s[i] == '-';
		if (s[i] == '-' || s[i] == '.') {
			if (arrow && s[i + 1] != '>')
				return fail(ep, base + (unsigned)i, E_BAD_HYPHEN, -EINVAL);
			i += arrow ? 2 : 1;
			last = (unsigned)i;
			if (bsize) /* a bitfield has no members */
				return fail(ep, base + last, E_NO_BTF_FIELD, -ENOENT);
			if (arrow) {
				Dwarf_Die pt;
				if (!is_ptr(&t) || !type_of(&t, &pt) || !is_aggr(&pt))
					return fail(ep, base + last, E_NO_PTR_STRCT, -EINVAL);
				if (inmem && (rc = put(&w, (struct uft_probe_op){
							       .op = UFT_POP_DEREF, .imm = off})))
					return rc;
				t = pt;
				inmem = true;
				off = 0;
			} else if (!inmem) {
				return fail(ep, base + last, E_NOSUP_DAT_ARG, -EOPNOTSUPP);
			} else if (!is_aggr(&t)) {
				return fail(ep, base + last, E_NO_BTF_FIELD, -ENOENT);
			}
			size_t ml = ident(s + i);
			Dwarf_Die m;
			if (ml == 0 || !member(&t, s + i, ml, &m, &bits, 0))
				return fail(ep, base + last, E_NO_BTF_FIELD, -ENOENT);
			if (!type_of(&m, &t))
				return fail(ep, base + last, E_BAD_BTF_TID, -EINVAL);
			bsize = 0;
			udata(&m, DW_AT_bit_size, &bsize);
			off += (int64_t)(bits / 8);
			bits %= 8;
			i += ml;
		} else if (s[i] == '[') {
			unsigned at = (unsigned)i + 1;
			const char *close = strchr(s + i, ']');
			if (!close)
				return fail(ep, base + (unsigned)strlen(s), E_ARRAY_NO_CLOSE,
					    -EINVAL);
			char num[24], *end;
			size_t nl = (size_t)(close - s) - at;
			if (nl == 0 || nl >= sizeof(num) || !isdigit((unsigned char)s[at]))
				return fail(ep, base + at, E_BAD_INDEX, -EINVAL);
			memcpy(num, s + at, nl);
			num[nl] = 0;
			errno = 0;
			unsigned long idx = strtoul(num, &end, 0);
			if (*end || errno || idx > INT32_MAX)
				return fail(ep, base + at, E_BAD_INDEX, -EINVAL);
			Dwarf_Die et;
			uint64_t es;
			bool array = dw.tag(&t) == DW_TAG_array_type;
			if (bsize || (!array && !is_ptr(&t)) || !type_of(&t, &et) ||
			    !(es = size_of(&et)) || (array && !inmem))
				return fail(ep, base + (unsigned)i, E_NOT_ARRAY, -EINVAL);
			if (idx && es > INT32_MAX / idx)
				return fail(ep, base + at, E_BAD_INDEX, -EINVAL);
			if (!array) {
				if (inmem && (rc = put(&w, (struct uft_probe_op){
							       .op = UFT_POP_DEREF, .imm = off})))
					return rc;
				inmem = true;
				off = 0;
			}
			off += (int64_t)(idx * es);
			t = et;
			i = (size_t)(close + 1 - s);
		} else {
			return fail(ep, base + (unsigned)i, E_BAD_FETCH_ARG, -EINVAL);
		}
	}
	if (inmem && (rc = put(&w, (struct uft_probe_op){.op = UFT_POP_DEREF, .imm = off})))
		return rc;
	out->str_off = base + last;
	if (bsize) {
		/* The smallest container from the byte holding its first bit. */
		uint64_t need = bits + bsize;
		out->type = need <= 8 ? "u8" : need <= 16 ? "u16" : need <= 32 ? "u32" : "u64";
		out->bf_width = (uint8_t)(bsize > 64 ? 64 : bsize);
		out->bf_shift = (uint8_t)bits;
		out->str = UFT_DW_STR_NO;
	} else {
		Dwarf_Die et;
		out->type = is_float(&t) ? NULL : fetch_type(&t);
		if (is_ptr(&t) && type_of(&t, &et) && is_char(&et))
			out->str = UFT_DW_STR_PTR;
		else if (dw.tag(&t) == DW_TAG_array_type && inmem && type_of(&t, &et) &&
			 is_char(&et))
			out->str = UFT_DW_STR_ARRAY;
	}
	*nops = w.n;
	return 0;
}

int uft_probe_dwarf_ctx(struct uft_probe_argctx *ctx, struct uft_probe_dwfunc **f, const char **msg)
{
	if (!ctx->dw_tried) {
		const struct uft_probe_env *env = ctx->env;
		char path[PATH_MAX];
		uint64_t vaddr = 0;
		ctx->dw_tried = true;
		if (!env || !env->func_file || !ctx->symbol) {
			ctx->dw_rc = -EINVAL;
			ctx->dw_msg = E_NOSUP_BTFARG;
		} else if (env->func_file(env->ctx, ctx->lib, ctx->symbol, path, sizeof(path),
					  &vaddr) != 0) {
			ctx->dw_rc = -ENOENT;
			ctx->dw_msg = E_NO_BTF_ENTRY;
		} else {
			ctx->dw_rc = uft_probe_dwarf_open(path, vaddr, &ctx->dw);
			ctx->dw_msg = ctx->dw_rc == -EOPNOTSUPP ? E_NOSUP_BTFARG
				      : ctx->dw_rc == -ENOENT	? E_NO_BTF_ENTRY
								: NULL;
		}
	}
	*f = ctx->dw;
	*msg = ctx->dw_msg;
	return ctx->dw_rc;
}

bool uft_probe_dwarf_wanted(const char *text)
{
	const char *b = strchr(text, '=');
	b = b ? b + 1 : text;
	while ((*b == '+' || *b == '-') && strchr(b, '('))
		b = strchr(b, '(') + 1;
	if (isalpha((unsigned char)*b) || *b == '_')
		return true;
	if (strncmp(b, "$arg*", 5) == 0)
		return true;
	return strncmp(b, "$retval", 7) == 0 && b[7] && strchr("-.[", b[7]);
}
