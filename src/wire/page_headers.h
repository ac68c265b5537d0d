/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Texts of tracefs events/header_page and events/header_event as a 64-bit
 * kernel prints them; trace.dat carries them and libtraceevent parses them to
 * learn the page and event header layout. */
#ifndef UFT_HEADERS_H
#define UFT_HEADERS_H

#include <stddef.h>
#include <stdint.h>

/* header_page for 4096-byte sub-buffers. */
const char *uft_header_page_text(void);
/* header_page for `subbuf_size`-byte sub-buffers into buf; returns the text
 * length (snprintf semantics). */
int uft_header_page_format(char *buf, size_t size, uint32_t subbuf_size);
const char *uft_header_event_text(void);

#endif
