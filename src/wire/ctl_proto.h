/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The control socket's protocol: the tracefs calls (src/runtime/tracefs/tracefs.h) over a
 * Unix stream socket.
 *
 * Every message is a 12-byte header — payload length (u32), request id (u32),
 * operation (u16), flags (u16) — then the payload, all little-endian. The
 * client opens with HELLO, then sends one request at a time; each reply
 * repeats the request's id and operation with UFT_CTL_F_REPLY set and starts
 * with a signed 64-bit result: a negative errno or the call's result.
 * INTERRUPT is the one message sent while a request is pending; it has no
 * reply, and the pending read or wait returns -EINTR. Both sides check every
 * size against the limits below before trusting it. */
#ifndef UFT_CTL_PROTO_H
#define UFT_CTL_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UFT_CTL_MAGIC 0x43544655u /* "UFTC" */
/* 2: a stat reply carries the group its mode's group bits are for.
 * 3: POLL_EVENTS (a hist file's POLLPRI through a mount of the socket).
 * 4: INJECT (records of other tasks from the kernel, wire/inject_proto.h).
 * Both sides speak every version from 1 up to theirs. */
#define UFT_CTL_VERSION 4
#define UFT_CTL_HDR_SIZE 12
#define UFT_CTL_MAX_PATH 1024
#define UFT_CTL_MAX_NAME 255
#define UFT_CTL_MAX_IO 65536
#define UFT_CTL_MAX_PAYLOAD (UFT_CTL_MAX_IO + 64)
#define UFT_CTL_MAX_MSG (UFT_CTL_HDR_SIZE + UFT_CTL_MAX_PAYLOAD)
#define UFT_CTL_MAX_HANDLES 256 /* open files per connection */

#define UFT_CTL_F_REPLY 1u

enum uft_ctl_op {
	UFT_CTL_HELLO = 1, /* u32 magic, u32 version -> version; u32 version, u32 pid, comm[16] */
	UFT_CTL_STAT,	   /* path -> 0; u32 type, u32 mode[, u32 gid from version 2] */
	UFT_CTL_READDIR,   /* u32 first, path -> entries; u8 more, {u8 type, u8 len, name}... */
	UFT_CTL_OPEN,	   /* u32 flags, path -> handle (1 up) */
	UFT_CTL_READ,	   /* u32 handle, u32 len, u64 off -> bytes; the bytes */
	UFT_CTL_WRITE,	   /* u32 handle, u32 0, u64 off, bytes -> bytes written */
	UFT_CTL_POLL,	   /* u32 handle -> 1 readable, 0 not */
	UFT_CTL_WAIT,	   /* u32 handle, i32 timeout_ms -> 1 readable, 0 timed out */
	UFT_CTL_RELEASE,   /* u32 handle -> 0 */
	UFT_CTL_MKDIR,	   /* path -> 0 */
	UFT_CTL_RMDIR,	   /* path -> 0 */
	UFT_CTL_INTERRUPT, /* u32 id of the pending request; no reply */
	/* u32 handle, u32 peek -> poll(2) events (POLLIN, POLLPRI, ...), from
	 * version 3; peek: as a watcher looks, changing nothing */
	UFT_CTL_POLL_EVENTS,
	/* records (wire/inject_proto.h) -> how many were taken, from version 4 */
	UFT_CTL_INJECT,
	UFT_CTL_OP_END,
};

/* Open flags on the wire: the values of UFT_TFS_READ ... UFT_TFS_NONBLOCK. */
#define UFT_CTL_OPEN_FLAGS 0x1fu

struct uft_ctl_hdr {
	uint32_t len; /* payload bytes after the header */
	uint32_t id;
	uint16_t op;
	uint16_t flags;
};

/* A request, decoded. `path` is NUL-terminated and free of NULs; `data`
 * points into the payload it was decoded from. */
struct uft_ctl_req {
	uint16_t op;
	uint32_t id;
	uint32_t handle; /* READ WRITE POLL WAIT RELEASE; INTERRUPT: the request id */
	uint32_t flags;	 /* OPEN; HELLO: the version */
	uint32_t count;	 /* READ: length; READDIR: index of the first entry */
	int32_t timeout_ms;
	uint64_t off;
	const uint8_t *data; /* WRITE, INJECT */
	size_t data_len;
	char path[UFT_CTL_MAX_PATH + 1];
};

struct uft_ctl_reply {
	uint16_t op;
	uint32_t id;
	int64_t result;
	const uint8_t *data; /* what follows the result */
	size_t data_len;
};

struct uft_ctl_hello_info {
	uint32_t version;
	uint32_t pid;
	char comm[17];
};

struct uft_ctl_dirent {
	uint8_t type;
	char name[UFT_CTL_MAX_NAME + 1];
};

/* Output: a message built in a caller's buffer. Any overflow sticks, and
 * uft_ctl_out_end() then returns 0. */
struct uft_ctl_out {
	uint8_t *buf;
	size_t cap;
	size_t len;
	bool err;
};

void uft_ctl_out_begin(struct uft_ctl_out *o, uint8_t *buf, size_t cap, uint16_t op, uint16_t flags,
		       uint32_t id);
void uft_ctl_put_u8(struct uft_ctl_out *o, uint8_t v);
void uft_ctl_put_u32(struct uft_ctl_out *o, uint32_t v);
void uft_ctl_put_u64(struct uft_ctl_out *o, uint64_t v);
void uft_ctl_put_bytes(struct uft_ctl_out *o, const void *p, size_t n);
/* Patches the length in; returns the message's total size, 0 if it broke a limit. */
size_t uft_ctl_out_end(struct uft_ctl_out *o);

/* Header: 0, or -EPROTO when the length, operation or flags are out of range. */
int uft_ctl_parse_hdr(const uint8_t hdr[UFT_CTL_HDR_SIZE], struct uft_ctl_hdr *h);
/* Whole messages: 0, or -EPROTO when the payload does not fit the operation. */
int uft_ctl_decode_req(const struct uft_ctl_hdr *h, const uint8_t *payload, struct uft_ctl_req *r);
int uft_ctl_decode_reply(const struct uft_ctl_hdr *h, const uint8_t *payload,
			 struct uft_ctl_reply *r);
/* A request into buf (UFT_CTL_MAX_MSG bytes are always enough); 0 if invalid. */
size_t uft_ctl_encode_req(const struct uft_ctl_req *r, uint8_t *buf, size_t cap);

/* The extras of replies; each returns 0 or -EPROTO. */
int uft_ctl_reply_hello(const struct uft_ctl_reply *r, struct uft_ctl_hello_info *info);
/* A stat reply: type and mode, and the group the mode's group bits are for
 * (UFT_CTL_NO_GROUP when the tree names none; a server before the group was
 * sent names none). */
#define UFT_CTL_NO_GROUP 0xffffffffu
int uft_ctl_reply_stat(const struct uft_ctl_reply *r, uint32_t *type, uint32_t *mode,
		       uint32_t *gid);
/* Walks READDIR entries: *pos starts at 0; returns 1 with an entry, 0 at the
 * end, -EPROTO on a malformed list. `more` (may be NULL) tells whether the
 * directory has entries beyond this reply. */
int uft_ctl_dirent_next(const struct uft_ctl_reply *r, size_t *pos, struct uft_ctl_dirent *d,
			bool *more);

/* Socket I/O. Sends all of buf (EINTR retried, no SIGPIPE); 0 or -errno. */
int uft_ctl_send(int fd, const void *buf, size_t len);
/* Receives one message into payload (UFT_CTL_MAX_PAYLOAD bytes). On EINTR
 * before the first byte, calls on_eintr(arg) when given, then goes on
 * waiting. Returns 0, -ECONNRESET at end of stream, -EPROTO or -errno. */
int uft_ctl_recv(int fd, struct uft_ctl_hdr *h, uint8_t *payload, void (*on_eintr)(void *),
		 void *arg);

#endif
