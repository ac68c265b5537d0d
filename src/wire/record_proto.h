/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Messages between a traced process and the recorder on the record socket. */
#ifndef UFT_PROTOCOL_H
#define UFT_PROTOCOL_H

#include <stdint.h>

#define UFT_HELLO_MAGIC 0x4f4c4548u /* "HELO" */

/* Sent once per process image with its region's memfd (SCM_RIGHTS); the
 * recorder answers one byte once it has mapped the region. Afterwards the
 * process sends single bytes to ask for an early drain. */
struct uft_hello {
	uint32_t magic;
	int32_t pid;
	int32_t ppid;
	char comm[16];
};

#endif
