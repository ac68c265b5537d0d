/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzes uft top's reading of trace_stat/functionN lines, text a traced
 * process serves: any line is taken or refused without reading past it, and
 * a name taken is 1 to 30 characters with no blank at either end. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/top_sample.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[31];
		uint64_t hits, ns;
		if (!top_stat_line(line, name, &hits, &ns))
			continue;
		size_t n = strlen(name);
		CHECK(n >= 1 && n <= 30);
		CHECK(name[n - 1] != ' ' && name[n - 1] != '\n');
	}
	free(text);
	return 0;
}
