/* SPDX-License-Identifier: GPL-2.0-or-later */
#define _GNU_SOURCE
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/libuft_path.h"
#include "uft/version.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define SONAME "libuft.so." STR(UFT_VERSION_MAJOR)

const char *uft_libuft_path(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		/* bin/uft -> lib/libuft.so.N (the soname's link, as a program
		 * linked with it would load it) */
		char lib[PATH_MAX + 8], real[PATH_MAX];
		snprintf(lib, sizeof(lib), "%s/../lib", dirname(exe));
		if (realpath(lib, real)) {
			int w = snprintf(buf, len, "%s/" SONAME, real);
			if (w > 0 && (size_t)w < len && access(buf, R_OK) == 0)
				return buf;
		}
	}
	snprintf(buf, len, "%s", SONAME);
	return buf;
}
