/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fetch types of kernel/trace/trace_probe.c: their sizes, the type the format file
 * shows and the conversion the print fmt uses. */
#include <string.h>

#include "engine/probe/probe_impl.h"
#include "util/util.h"

static const struct uft_probe_type types[] = {
    {"u8", "u8", "%u", 1, 0, 0, 0},
    {"u16", "u16", "%u", 2, 0, 0, 0},
    {"u32", "u32", "%u", 4, 0, 0, 0},
    {"u64", "u64", "%Lu", 8, 0, 0, 0},
    {"s8", "s8", "%d", 1, 1, 0, 0},
    {"s16", "s16", "%d", 2, 1, 0, 0},
    {"s32", "s32", "%d", 4, 1, 0, 0},
    {"s64", "s64", "%Ld", 8, 1, 0, 0},
    {"x8", "u8", "0x%x", 1, 0, 0, 0},
    {"x16", "u16", "0x%x", 2, 0, 0, 0},
    {"x32", "u32", "0x%x", 4, 0, 0, 0},
    {"x64", "u64", "0x%Lx", 8, 0, 0, 0},
    {"char", "u8", "'%c'", 1, 0, 0, 0},
    {"symbol", "u64", "%pS", 8, 0, 0, 1},
    /* A __data_loc: the kernel calls it signed. */
    {"string", "__data_loc char[]", "\\\"%s\\\"", 4, 1, 1, 0},
    {"ustring", "__data_loc char[]", "\\\"%s\\\"", 4, 1, 1, 0},
    {"symstr", "__data_loc char[]", "\\\"%s\\\"", 4, 1, 1, 1},
};

const struct uft_probe_type *uft_probe_type_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (strcmp(types[i].name, name) == 0)
			return &types[i];
	return NULL;
}
