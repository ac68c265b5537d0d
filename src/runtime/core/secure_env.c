/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Secure mode: libuft's UFT_* settings in a setuid, setgid or file-capability
 * program (secure_env.h).
 *
 * Such a program runs with more privilege than the user who starts it, but
 * its environment is the user's. The kernel marks it with AT_SECURE, and the
 * settings below are then ignored, as glibc's secure_getenv() ignores a
 * variable. The rule of each:
 *
 *   setting                 what it does                        secure mode
 *   UFT_FUSE_LIB            dlopen()s a library                 ignored
 *   UFT_TRACEFS             makes a directory, mounts FUSE      ignored
 *   UFT_FUSE_ALLOW_OTHER    opens that mount to every user      ignored (1)
 *   UFT_RECORD              connects to a socket, hands it      ignored
 *                           the trace memory
 *   UFT_RUNDIR              where the control socket is made    ignored (2)
 *   XDG_RUNTIME_DIR         the same, as the rundir's source    ignored (2)(3)
 *   UFT_ACCESS_GROUP,       opens the control socket to a       ignored
 *   UFT_ACCESS              group, and what it may do
 *   UFT_LIST_FORMATS,       write to a file descriptor, exit    ignored
 *   UFT_LIST_TRACERS
 *   UFT_BOOTCONFIG          reads a file and applies it to the  ignored (4)
 *                           tree: events, triggers, tracers
 *   UFT_EVENTS, UFT_FILTERS, UFT_TRACER, UFT_FTRACE_FILTER,
 *   UFT_FTRACE_NOTRACE, UFT_GRAPH_FUNCTION, UFT_MAX_GRAPH_DEPTH,
 *   UFT_FUNC_STACK          shape a recording session           ignored (4)
 *   UFT_BUFFER_KB, UFT_CLOCK, UFT_MODE
 *                           shape the buffer                    ignored (4)
 *   UFT_CTL                 "0": no control socket              kept (5)
 *   UFT_DEBUG_ROOT          where debug files are looked for     ignored (6)
 *
 * (1) read by src/fuse/fuse_door.c, which libuft loads and the uft tool
 *     links, with secure_getenv().
 * (2) read by src/wire/ctl_rundir.c, shared with the tools, with
 *     secure_getenv(): the socket goes to /tmp/uft-<euid>, private to the
 *     effective user.
 * (3) not a uft setting and set in nearly every login session, so it is not
 *     named in the start-up line.
 * (4) conservative: the session ones matter only with UFT_RECORD, which is
 *     ignored, and each is user text parsed in a privileged process (filters,
 *     globs) or a size it allocates; nothing is lost that a user could want
 *     of a program they cannot trace anyway.
 * (5) it can only take a door away, never add one.
 * (6) read by src/util/debugfile.c, shared with the tools, with
 *     secure_getenv(): a program's symbol names come from system files.
 *
 * A process that is not secure reads each with getenv(). A secure one's
 * control socket also serves root alone (ctl_server.c), as the kernel lets
 * only root ptrace it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "runtime/core/secure_env.h"
#include "util/util.h"
#include "wire/env_names.h"

static const struct {
	const char *name;
	bool keep; /* read even in secure mode */
} settings[] = {
    {UFT_ENV_FUSE_LIB, false},
    {UFT_ENV_TRACEFS, false},
    {UFT_ENV_FUSE_ALLOW_OTHER, false},
    {UFT_ENV_RECORD, false},
    {UFT_ENV_RUNDIR, false},
    {UFT_ENV_ACCESS_GROUP, false},
    {UFT_ENV_ACCESS, false},
    {UFT_ENV_LIST_FORMATS, false},
    {UFT_ENV_LIST_TRACERS, false},
    {UFT_ENV_BOOTCONFIG, false},
    {UFT_ENV_PROBES, false},
    {UFT_ENV_USER_EVENTS_KERNEL, false},
    {UFT_ENV_EVENTS, false},
    {UFT_ENV_FILTERS, false},
    {UFT_ENV_TRACER, false},
    {UFT_ENV_FTRACE_FILTER, false},
    {UFT_ENV_FTRACE_NOTRACE, false},
    {UFT_ENV_GRAPH_FUNCTION, false},
    {UFT_ENV_MAX_GRAPH_DEPTH, false},
    {UFT_ENV_FUNC_STACK, false},
    {UFT_ENV_BUFFER_KB, false},
    {UFT_ENV_SUBBUF_KB, false},
    {UFT_ENV_CLOCK, false},
    {UFT_ENV_MODE, false},
    {UFT_ENV_CTL, true},
    {UFT_ENV_DEBUG_ROOT, false},
};

bool uft_env_secure(void)
{
	return getauxval(AT_SECURE) != 0;
}

const char *uft_env(const char *name)
{
	if (!uft_env_secure())
		return getenv(name);
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++)
		if (strcmp(settings[i].name, name) == 0)
			return settings[i].keep ? getenv(name) : NULL;
	return NULL; /* a name not in the table is ignored too */
}

void uft_env_report_ignored(void)
{
	static bool said;
	if (said || !uft_env_secure())
		return;
	said = true;
	char line[512];
	size_t len = 0;
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++) {
		const char *v = getenv(settings[i].name);
		if (settings[i].keep || !v || !*v)
			continue;
		int n = snprintf(line + len, sizeof(line) - len, "%s%s", len ? ", " : "",
				 settings[i].name);
		if (n < 0 || (size_t)n >= sizeof(line) - len)
			break;
		len += (size_t)n;
	}
	if (len)
		fprintf(stderr, "uft: setuid/capability program: ignoring %s\n", line);
}
