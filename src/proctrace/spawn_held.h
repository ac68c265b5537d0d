/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A launched command held before its exec until the tracer is ready (seized,
 * or its pid in the kernel's set_event_pid): both backends start one so. */
#ifndef UFT_PT_SPAWN_HELD_H
#define UFT_PT_SPAWN_HELD_H

#include <stddef.h>
#include <sys/types.h>

#include "proctrace/proctrace.h"
#include "proctrace/seccomp_filter.h"

/* Forks the child of o's command: it waits on a pipe, installs `filter` if
 * not NULL, then execs o->exec_path (else argv[0] along PATH). Returns its
 * pid with the pipe's write end in *release, or -1 with a message in err. */
pid_t pt_spawn_held(const struct pt_options *o, char *const argv[], const struct pt_bpf *filter,
		    int *release, char *err, size_t errlen);
/* Lets the held child go on to its exec and closes the pipe; -1 with a
 * message in err if it could not be told. */
int pt_spawn_release(int release, char *err, size_t errlen);
/* Kills and reaps a child that will never be released. */
void pt_spawn_abort(pid_t pid, int release);

#endif
