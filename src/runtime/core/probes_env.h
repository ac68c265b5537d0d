/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* UFT_PROBES (`uft record --probe`): probe definitions in the
 * dynamic_events grammar, written into the tree before main() as the
 * bootconfig's kprobe keys are, and their events enabled. */
#ifndef UFT_LIB_PROBES_ENV_H
#define UFT_LIB_PROBES_ENV_H

#include <stdio.h>

/* Defines every line of UFT_PROBES in order; the first refused one is
 * reported on `out` with its error_log entry and the ones defined before it
 * are deleted again. 0, or -1 when one was refused. */
int uft_probes_define_env_to(FILE *out);
/* Enables the events the definitions made (after the recorder's -e, whose
 * "!all" would turn them off again). 0, or -1 (reported on `out`). */
int uft_probes_enable_env_to(FILE *out);

#endif
