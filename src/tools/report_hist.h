/* `uft report --hist SYSTEM:EVENT:SPEC`: histograms over a recorded file,
 * built by the same engine the runtime uses for live hist triggers. */
#ifndef UFT_REPORT_HIST_H
#define UFT_REPORT_HIST_H

#include <stddef.h>
#include <stdio.h>

#include "tools/trace_file.h"

/* Builds one histogram per spec over every record of `tf` and prints their
 * `hist` texts to `out` in order; errors go to `err`. Returns 0, or 1 when
 * a spec is refused (nothing is printed then). */
int report_hist(struct trace_file *tf, const char *const *specs, size_t n, FILE *out, FILE *err);

#endif
