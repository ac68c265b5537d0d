/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libuft's one way to read its UFT_* settings. In a secure process (setuid,
 * setgid or file capabilities: AT_SECURE) the user's environment is not
 * trusted and the settings are ignored; secure_env.c has the rule of each. */
#ifndef UFT_SECURE_ENV_H
#define UFT_SECURE_ENV_H

#include <stdbool.h>

/* The setting NAME (a UFT_ENV_* of wire/env_names.h), as getenv() returns
 * it; NULL in a secure process unless the table keeps that setting. */
const char *uft_env(const char *name);

/* Whether the process runs in secure mode (getauxval(AT_SECURE) != 0). */
bool uft_env_secure(void);

/* In a secure process, one line on stderr naming the ignored settings that
 * were set; nothing otherwise. Says it at most once per process. */
void uft_env_report_ignored(void);

#endif
