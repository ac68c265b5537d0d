/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes probe definitions: a line either fails with a message whose caret
 * lies inside the logged command, or gives a definition whose layout holds
 * together, whose listing parses back to the same listing, and whose
 * record can be filled from arbitrary registers without a crash. Args by
 * DWARF name are compiled against this program's own debug information
 * (fz_target). */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/probe/probe.h"
#include <uft/event.h>

#include "fuzz_check.h"

static long data_sym[8] = {1, 2, 3, 4, 5, 6, 7, 8};

static const struct uft_field fields[] = {
    {"int", "pid", 8, 4, 1, UFT_FIELD_SCALAR, 0},
    {"char", "comm[16]", 12, 16, 1, UFT_FIELD_ARRAY, 1},
    {"__data_loc char[]", "name", 28, 4, 1, UFT_FIELD_DYN, 1},
};

static int sym_addr(void *ctx, const char *lib, const char *sym, uint64_t *addr)
{
	if (strcmp(sym, "gvar") != 0)
		return -ENOENT;
	*addr = (uintptr_t)data_sym;
	return 0;
}

struct fz_hdr {
	unsigned short len;
	unsigned bits : 5;
};
struct fz_req {
	const char *path;
	struct fz_hdr hdr;
	char name[8];
	struct fz_req *next;
	int vals[3];
	union {
		long id;
		double score;
	};
};
__attribute__((noinline, used)) int fz_target(int count, struct fz_req *req, double d,
					      const char *tag)
{
	__asm__ volatile("" ::"r"(req), "r"(tag) : "memory");
	return count + (int)d;
}

static int bias_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(uintptr_t *)arg = info->dlpi_addr; /* the first is the program */
	return 1;
}

static int func_file(void *ctx, const char *lib, const char *sym, char *path, size_t len,
		     uint64_t *vaddr)
{
	uintptr_t bias = 0;
	if (lib || strcmp(sym, "fz_target") != 0 || len < 2)
		return -ENOENT;
	ssize_t n = readlink("/proc/self/exe", path, len - 1);
	if (n <= 0)
		return -ENOENT;
	path[n] = 0;
	dl_iterate_phdr(bias_one, &bias);
	*vaddr = (uintptr_t)fz_target - bias;
	return 0;
}

static const struct uft_field *event_fields(void *ctx, const char *sys, const char *ev,
					    uint32_t *nr)
{
	if (strcmp(sys, "sched") != 0)
		return NULL;
	*nr = 3;
	return fields;
}

static void check_def(const struct uft_probe_def *d, const struct uft_probe_env *env,
		      const uint8_t *data, size_t size)
{
	CHECK(d->group && d->event && d->nr_args <= UFT_PROBE_ARGS_MAX);
	CHECK(strlen(d->event) < UFT_PROBE_NAME_MAX);
	uint32_t off = d->head_size;
	for (uint32_t i = 0; i < d->nr_args; i++) {
		const struct uft_probe_arg *a = &d->args[i];
		CHECK(a->name && a->comm && a->type && a->offset == off);
		CHECK(a->count <= UFT_PROBE_ARRAY_MAX && a->nops >= 1 &&
		      a->nops < UFT_PROBE_OPS_MAX);
		off += a->type->size * (a->count ? a->count : 1);
	}
	CHECK(d->fixed_size == off);

	char *fmt = uft_probe_print_fmt(d);
	CHECK(fmt && fmt[0] == '"');
	free(fmt);
	uint32_t nr;
	struct uft_field *f = uft_probe_fields(d, &nr);
	CHECK(f);
	uft_probe_fields_free(f, nr);

	/* The listing defines the same probe (an auto-named arg may grow past
	 * the kernel's 63 characters with its "argN=": the kernel's own quirk). */
	char *l1 = uft_probe_listing(d);
	CHECK(l1);
	struct uft_probe_cmd c;
	struct uft_probe_error e;
	int rc = uft_probe_parse(l1, env, &c, &e);
	if (rc == 0) {
		char *l2 = uft_probe_listing(&c.def);
		CHECK(l2 && strcmp(l1, l2) == 0);
		CHECK(c.def.fixed_size == d->fixed_size);
		free(l2);
	} else {
		CHECK(e.msg && strcmp(e.msg, "Argument expression is too long") == 0);
	}
	uft_probe_error_free(&e);
	uft_probe_cmd_free(&c);
	free(l1);

	/* Any registers: every read is fault-safe. */
	struct uft_probe_regs regs;
	uint64_t stack[8] = {0};
	for (int i = 0; i < UFT_REG_NR; i++) {
		uint64_t v = 0;
		memcpy(&v, data + ((size_t)i * 3) % (size ? size : 1), size >= 8 ? 1 : 0);
		regs.r[i] = v * 0x0101010101010101ull;
	}
	regs.r[UFT_REG_SP] = (uintptr_t)stack;
	uint8_t src[64] = {0};
	struct uft_probe_ctx ctx = {.regs = &regs, .event_rec = src, .event_len = sizeof(src)};
	static uint8_t rec[1 << 16];
	uint32_t len = uft_probe_record_fill(d, &ctx, rec, sizeof(rec));
	CHECK(len >= d->fixed_size && len <= 0xffff);
	char text[512];
	CHECK(uft_probe_args_text(d, rec, len, text, sizeof(text)) >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size, 4096);
	if (!text)
		return 0;
	for (int src = 0; src < 3; src++) {
		struct uft_probe_env env = {.src = (enum uft_probe_src)src,
					    .sym_addr = sym_addr,
					    .event_fields = event_fields,
					    .func_file = func_file};
		struct uft_probe_cmd c;
		struct uft_probe_error e;
		int rc = uft_probe_parse(text, &env, &c, &e);
		if (rc) {
			CHECK(rc == -EINVAL || rc == -ENOMEM || rc == -E2BIG || rc == -EEXIST ||
			      rc == -ENOENT || rc == -EOPNOTSUPP);
			if (e.msg) {
				CHECK(e.cmd && e.loc);
				/* past the end: after the last word and a blank */
				CHECK(e.pos <= strlen(e.cmd) + 1);
			}
		} else if (c.op == UFT_PROBE_OP_CREATE) {
			check_def(&c.def, &env, data, size);
		} else if (c.op == UFT_PROBE_OP_DELETE) {
			/* -:GROUP/ names every event of the group */
			CHECK(c.event && (c.event[0] || (c.group && c.group[0])));
		}
		uft_probe_error_free(&e);
		uft_probe_cmd_free(&c);
	}
	free(text);
	return 0;
}
