/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The texts of the hist error numbers, from the one list in hist.h. */
#include "engine/hist/hist.h"

static const char *const err_text[] = {
#define UFT_HIST_ERR_TEXT(name, text) [UFT_HIST_ERR_##name] = text,
    UFT_HIST_ERRORS(UFT_HIST_ERR_TEXT)
#undef UFT_HIST_ERR_TEXT
};

_Static_assert(sizeof(err_text) / sizeof(err_text[0]) == UFT_HIST_NR_ERRS,
	       "every hist error has its text");

const char *uft_hist_strerror(int code)
{
	return code >= 0 && code < UFT_HIST_NR_ERRS ? err_text[code] : "Unknown error";
}
