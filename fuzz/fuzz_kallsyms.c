/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes the kallsyms parser: any text parses, the table is sorted, and
 * every symbol's address finds a symbol at that address. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat/kallsyms.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	struct uft_ksyms k;
	if (uft_ksyms_parse(&k, (const char *)data, size) != 0)
		return 0;
	for (size_t i = 0; i < k.n; i++) {
		CHECK(k.v[i].name && k.v[i].name[0]);
		CHECK(i == 0 || k.v[i - 1].addr <= k.v[i].addr);
		struct uft_sym s;
		CHECK(uft_ksyms_lookup(&k, k.v[i].addr, &s));
		CHECK(s.start == k.v[i].addr && s.name && s.name[0]);
	}
	struct uft_sym s;
	if (k.n && k.v[0].addr > 0)
		CHECK(!uft_ksyms_lookup(&k, k.v[0].addr - 1, &s));
	uft_ksyms_free(&k);
	return 0;
}
