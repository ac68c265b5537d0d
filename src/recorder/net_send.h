/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `uft record -N HOST:PORT`: a finished trace.dat sent to a `trace-cmd listen`
 * collector with trace-cmd's own protocol (tracecmd_msg.h), as `trace-cmd
 * record -N` sends one: protocol v3 when the listener offers it, else v1
 * (docs/design/recording.md, "Sending to a trace-cmd listen collector"). */
#ifndef UFT_NET_SEND_H
#define UFT_NET_SEND_H

#include <stdbool.h>
#include <stddef.h>

/* Forces the protocol version ("1" or "3"), for tests and old listeners. */
#define NET_SEND_PROTO_ENV "UFT_TRACECMD_PROTO"

struct net_send {
	char host[256];
	char port[16];
	int fd;	   /* the control connection, greeted; -1 when closed */
	int proto; /* the version used, once sent */
};

/* "HOST:PORT" or "[IPV6]:PORT": 0, or -EINVAL. */
int net_send_parse(struct net_send *n, const char *spec);
/* Connects and reads the listener's greeting, so that a missing or wrong
 * collector is named before anything runs. 0, or -1 with `err` filled. */
int net_send_connect(struct net_send *n, char *err, size_t errlen);
/* Sends the version 6 trace.dat at `path`; waits until the listener has
 * taken it all and closed. 0, or -1 with `err` filled. */
int net_send_file(struct net_send *n, const char *path, char *err, size_t errlen);
void net_send_close(struct net_send *n);

#endif
