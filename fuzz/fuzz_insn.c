/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes the instruction decoder of the probes off the sleds: the input's
 * first byte picks a point in the rest, taken as a function's code. A plan
 * either fails with a reason (or -EILSEQ), or covers at least 5 bytes of
 * whole instructions inside the function, and its relocated copy fits the
 * stub and ends with the jump back. The decoder is compiled in here (it is
 * libuft's, not libufttools'). */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../src/runtime/ftrace/insn_decode.c"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2 || size > 4096)
		return 0;
	static uint8_t code[4096];
	size_t n = size - 1;
	memcpy(code, data + 1, n);
	uintptr_t start = (uintptr_t)code, point = start + data[0] % n;
	struct uft_insn_plan plan;
	const char *why = NULL;
	int rc = uft_insn_plan(start, n, point, &plan, &why);
	if (rc == -ENOSYS)
		return 0; /* no capstone here */
	if (rc) {
		CHECK(rc == -EILSEQ || (rc == -EOPNOTSUPP && why));
		return 0;
	}
	CHECK(plan.len >= UFT_INSN_JUMP && plan.len <= UFT_INSN_RANGE);
	CHECK(plan.nr >= 1 && plan.nr <= UFT_INSN_MAX && point + plan.len <= start + n);
	unsigned off = 0;
	for (uint8_t i = 0; i < plan.nr; i++) {
		CHECK(plan.insn[i].off == off && plan.insn[i].size >= 1);
		off += plan.insn[i].size;
	}
	CHECK(off == plan.len);
	static uint8_t stub[256];
	uint16_t soff[UFT_INSN_MAX];
	int w = uft_insn_relocate(&plan, (uintptr_t)stub, stub, sizeof(stub), soff);
	if (w < 0)
		return 0; /* a displacement out of reach of the buffer */
	CHECK(w >= UFT_INSN_ABS_JMP && (size_t)w <= sizeof(stub));
	uint64_t back;
	memcpy(&back, stub + w - 8, 8);
	CHECK(back == point + plan.len && stub[w - 14] == 0xff && stub[w - 13] == 0x25);
	for (uint8_t i = 1; i < plan.nr; i++)
		CHECK(soff[i] > soff[i - 1]);
	return 0;
}
