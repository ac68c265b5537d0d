/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Generated header_page / header_event texts (docs/design/ring-buffer.md). */
#include <stdio.h>

#include "wire/page_headers.h"
#include "wire/shm_layout.h"

int uft_header_page_format(char *buf, size_t size, uint32_t subbuf_size)
{
	/* `overwrite` aliases the low byte of commit, as in the kernel's text. */
	return snprintf(buf, size,
			"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
			"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
			"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
			"\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:0;\n",
			UFT_PAGE_HDR_SIZE, subbuf_size - UFT_PAGE_HDR_SIZE);
}

_Static_assert(UFT_SUBBUF_SIZE == 4096, "uft_header_page_text() assumes 4 KiB sub-buffers");

const char *uft_header_page_text(void)
{
	/* A literal rather than a lazily formatted buffer: safe from any thread. */
	return "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	       "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	       "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	       "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
}

const char *uft_header_event_text(void)
{
	return "# compressed entry header\n"
	       "\ttype_len    :    5 bits\n"
	       "\ttime_delta  :   27 bits\n"
	       "\tarray       :   32 bits\n"
	       "\n"
	       "\tpadding     : type == 29\n"
	       "\ttime_extend : type == 30\n"
	       "\ttime_stamp : type == 31\n"
	       "\tdata max type_len  == 28\n";
}
