/* The fuzz targets' assertion: a failed check aborts, which the fuzzer and
 * the corpus replay report with the input that caused it. */
#ifndef UFT_FUZZ_CHECK_H
#define UFT_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#endif
