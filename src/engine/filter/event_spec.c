/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "engine/filter/event_spec.h"

#include <fnmatch.h>
#include <string.h>

bool uft_event_spec_matches(const char *spec, const char *sys, const char *name)
{
	if (strcmp(spec, "all") == 0 || strcmp(spec, "*") == 0 || strcmp(spec, "*:*") == 0)
		return true;
	const char *colon = strchr(spec, ':');
	if (!colon)
		return fnmatch(spec, sys, 0) == 0 || fnmatch(spec, name, 0) == 0;
	char sysp[128];
	size_t n = (size_t)(colon - spec);
	if (n >= sizeof(sysp))
		return false;
	memcpy(sysp, spec, n);
	sysp[n] = 0;
	const char *evp = colon + 1;
	if (!*sysp)
		strcpy(sysp, "*");
	if (!*evp)
		evp = "*";
	return fnmatch(sysp, sys, 0) == 0 && fnmatch(evp, name, 0) == 0;
}
