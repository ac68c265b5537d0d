/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Messages between a traced process and the recorder on the record socket. */
#ifndef UFT_PROTOCOL_H
#define UFT_PROTOCOL_H

#include <stdint.h>

#define UFT_HELLO_MAGIC 0x4f4c4548u  /* "HELO": an older libuft, no flags */
#define UFT_HELLO2_MAGIC 0x324c4548u /* "HEL2" */

/* Sent once per process image with its region's memfd (SCM_RIGHTS); the
 * recorder answers one byte once it has mapped the region: UFT_ACK_GO, or
 * UFT_ACK_CHECK to the first process with something to trace, whose
 * settings must all apply (it stops before main otherwise). Afterwards the
 * process may send one UFT_MSG_REPORT with what it could not apply, and
 * sends single other bytes to ask for an early drain. */
struct uft_hello {
	uint32_t magic;
	int32_t pid;
	int32_t ppid;
	char comm[16];
	uint32_t flags; /* UFT_HELLO_* (HEL2 only) */
};

#define UFT_HELLO_V1_SIZE 28u	  /* the message without flags */
#define UFT_HELLO_TRACEABLE 1u	  /* events or functions to patch */
#define UFT_ACK_GO 'k'		  /* what cannot be applied is a warning */
#define UFT_ACK_CHECK 'K'	  /* report it and stop on an error */
#define UFT_MSG_REPORT 'R'	  /* then start_report.c's text */
#define UFT_MSG_REPORT_MAX 16384u /* the longest report sent */
/* At its end, a process whose tracer keeps a max trace (irqsoff, wakeup,
 * ...) sends this byte with a memfd (SCM_RIGHTS) holding its `trace` text,
 * which the recorder stores as trace-cmd's latency file. */
#define UFT_MSG_LATENCY 'L'

#endif
